"""One way for every bench to print a figure: a JSON line with its goal and met / not met.

`make bench` runs every script in bench/; each figure line carries `goal` (a sentence) and
`status` ("met", "not met", or "no goal" for a figure printed only as context), so the
output can be read top to bottom or grepped for "not met". With BENCH_LOG set, every
figure is also appended to that file, and `python bench/goals.py LOG` closes a run with
the figures that have a goal, met or not (`make bench` does both).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def figure(name: str, goal: str | None = None, met: bool | None = None, **values: Any) -> None:
    """Print one figure: its name, its values, its goal and whether the goal is met."""
    line: dict[str, Any] = {"figure": name, **values}
    if goal is not None:
        line["goal"] = goal
        line["status"] = "met" if met else "not met"
    else:
        line["status"] = "no goal"
    text = json.dumps(line)
    print(text, flush=True)
    log = os.environ.get("BENCH_LOG")
    if log:
        with open(log, "a") as out:
            out.write(text + "\n")


def serve_command(port: int, db: str) -> list[str]:
    """`gamenight serve` on loopback, as a user starts it (the command's collector settings
    included: calling `serve()` from `python -c` skips them)."""
    gamenight = str(Path(sys.executable).parent / "gamenight")
    return [gamenight, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db]


def serve_env(data: Path, **settings: str) -> dict[str, str]:
    """The environment for `serve_command`: this checkout's `src` first on PYTHONPATH (the
    bench measures this tree, not an installed copy), `data` as GAMENIGHT_DATA, plus
    `settings` (other GAMENIGHT_* variables)."""
    env = {**os.environ, "GAMENIGHT_DATA": str(data), **settings}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__file__).parent.parent / "src"), env.get("PYTHONPATH", "")]
    )
    return env


@contextlib.contextmanager
def served(tmp: Path, **settings: str) -> Iterator[tuple[str, int]]:
    """`gamenight serve` on a fresh SQLite file in `tmp` (its log there too), with the
    GAMENIGHT_* `settings`, once its health answers: (base URL, port); stopped after."""
    import socket
    import subprocess

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = f"sqlite:///{tmp / 'bench.sqlite3'}"
    base = f"http://127.0.0.1:{port}"
    with open(tmp / "server.log", "wb") as log:
        server = subprocess.Popen(
            serve_command(port, db), env=serve_env(tmp, **settings), stdout=log, stderr=log
        )
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            yield base, port
        finally:
            server.terminate()
            server.wait(20)


def started(response: Any) -> bool:
    """A table's start request found the game started: by it, or already (a table of one
    person and bots starts itself when that person's page arrives, issue 45)."""
    code, text = response.status_code, response.text
    return bool(code == 200 or (code == 409 and "already running" in text))


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, quoted beside figures that load can move."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):  # the process may have ended
            found += [int(p) for p in task.read_text().split()]
    return found


def rss_kb(pid: int) -> int:
    """Resident memory of one process in KB (0 if it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kb(pid: int) -> int:
    """Resident memory of `pid` and all its descendants, summed (Linux /proc)."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        total += rss_kb(p)
        stack += _children(p)
    return total


class PeakRSS:
    """Samples the summed RSS of a process tree (`peak_kb`) and of its root alone
    (`root_peak_kb`) every `interval` s while in the block."""

    def __init__(self, pid: int | None = None, interval: float = 0.02) -> None:
        self.pid = pid or os.getpid()
        self.interval = interval
        self.peak_kb = 0
        self.root_peak_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self._measure()
            time.sleep(self.interval)

    def _measure(self) -> None:
        self.peak_kb = max(self.peak_kb, tree_rss_kb(self.pid))
        self.root_peak_kb = max(self.root_peak_kb, rss_kb(self.pid))

    def __enter__(self) -> PeakRSS:
        self._measure()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def summary(path: str) -> None:
    """Every figure with a goal from a BENCH_LOG file: met first, then not met."""
    lines = [json.loads(t) for t in Path(path).read_text().splitlines() if t.strip()]
    judged = [x for x in lines if x.get("status") in ("met", "not met")]
    print(f"\n{len(judged)} figures with a goal; load average now {load_average()}")
    for status in ("met", "not met"):
        for x in judged:
            if x["status"] == status:
                where = ", ".join(str(x[k]) for k in ("game", "backend") if k in x)
                value = next(
                    (x[k] for k in ("value", "ratio", "speedup", "ours_finish_ahead") if k in x),
                    "",
                )
                label = f"{x['figure']}" + (f" ({where})" if where else "")
                beside = ""  # what the machine offered at that moment, where measured
                if "anchor_speedup" in x:
                    beside = f"  (CPU-loop anchor {x['anchor_speedup']}, load {x['load_average']})"
                print(f"  {status:8}  {label}: {value}  goal {x['goal']}{beside}")


if __name__ == "__main__":
    import sys

    summary(sys.argv[1])
