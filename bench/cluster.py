"""Load benchmark of several server processes: one PostgreSQL, one Redis, N `gamenight serve`.

Anchor, in the same run: the one-process SQLite server of today (`gamenight serve` without
--redis) under the same load. Then N processes (`--processes`, default 2) sharing a
throwaway PostgreSQL and Redis; every table is created on process i mod N, its seat 0 plays
through that process and its seat 1 through the next one, so every table has seats on two
processes and half of all actions are forwarded to the owner through Redis. Also one
process in cluster mode (PostgreSQL + Redis, nothing forwarded), to tell the cost of
PostgreSQL from the cost of forwarding.

Two phases per set-up, same clients: "latency" (players think uniform [0, 2*THINK] s before
each move; figure: p99 from sending an action to receiving the state with the next version
on the same socket) and "throughput" (three times the tables, players answer at once:
actions per second the set-up sustains). CPU milliseconds per action of the server
processes, of PostgreSQL (all its backends) and of Redis say what limits it. The clients
are bench/server.py's. Afterwards every table's stored log is replayed and compared with
the final state its players saw: a difference is a lost action.
Prints one JSON line per figure.

Usage: python bench/cluster.py [--processes 2] [--tables 40] [--think 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_argv, sys.argv = sys.argv, sys.argv[:1]  # bench/server.py reads its own arguments
try:
    sys.path.insert(0, str(ROOT / "bench"))
    import server as single
finally:
    sys.argv = _argv

from tests.cluster.helpers import Redis, have_redis  # noqa: E402
from tests.server.helpers import pg_tools, postgres_cluster  # noqa: E402

import gamenight  # noqa: E402
from gamenight.server.db import Store, connect  # noqa: E402


class Proc:
    """One `gamenight serve` process."""

    def __init__(self, db: str, redis: str | None, data: Path) -> None:
        self.port = single.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-c", "from gamenight.cli import main; main()", "serve"]
        cmd += ["--port", str(self.port), "--db", db]
        if redis:
            cmd += ["--redis", redis]
        env = {
            **os.environ,
            "GAMENIGHT_DATA": str(data),
            "GAMENIGHT_SOCKETS_PER_ADDRESS": "1000000",
        }
        self.log = open(data / f"server-{self.port}.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=self.log)
        for _ in range(400):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server on {self.port} did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


@contextlib.contextmanager
def processes(db: str, redis: str | None, data: Path, n: int) -> Iterator[list[Proc]]:
    procs: list[Proc] = []
    try:
        for _ in range(n):  # one after the other: the first one migrates the schema
            procs.append(Proc(db, redis, data))
        yield procs
    finally:
        for p in procs:
            p.stop()


async def one_table(procs: list[Proc], i: int, rng: random.Random, stats: Any) -> None:
    """A Drop or Stop table created on process i, seat 0 there, seat 1 on process i+1."""
    await asyncio.sleep(rng.uniform(0, 1.0))
    home, other = procs[i % len(procs)], procs[(i + 1) % len(procs)]
    async with httpx.AsyncClient(base_url=home.base, timeout=60) as http:
        body = {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "seed": rng.randrange(2**40),
            "practice": True,  # the bench replays each log from its seed
        }
        r = await single.post(http, "/api/tables", body)
        tid = r.json()["id"]
        tokens = []
        for seat, proc in ((0, home), (1, other)):
            r = await single.post(
                http, f"{proc.base}/api/tables/{tid}/join", {"seat": seat, "name": f"p{seat}"}
            )
            tokens.append(r.cookies[f"gn_seat_{tid}"])
            http.cookies.delete(f"gn_seat_{tid}")
        clients = [
            asyncio.create_task(
                single.seat_client(
                    f"ws://127.0.0.1:{proc.port}/ws/tables/{tid}",
                    tid,
                    tokens[seat],
                    seat,
                    random.Random(rng.random()),
                    stats,
                )
            )
            for seat, proc in ((0, home), (1, other))
        ]
        await asyncio.sleep(0.3)  # both sockets open before the game starts
        r = await single.post(http, f"/api/tables/{tid}/start")
        if not single.started(r):
            stats.errors.append(r.text)
        await asyncio.gather(*clients)


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (from /proc)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def children(pid: int) -> list[int]:
    """`pid` and every process whose parent it is (PostgreSQL's backends)."""
    out = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
    return out


class Meters:
    """CPU used by the servers, PostgreSQL and Redis during one phase."""

    def __init__(self, procs: list[Proc], postmaster: int | None, redis: int | None) -> None:
        self.groups = {
            "servers": lambda: [p.proc.pid for p in procs],
            "postgres": lambda: children(postmaster) if postmaster else [],
            "redis": lambda: [redis] if redis else [],
        }

    def read(self) -> dict[str, float]:
        return {name: cpu_seconds(pids()) for name, pids in self.groups.items()}


def lost_tables(db: str, stats: Any) -> int:
    """Tables whose stored log does not replay to the final state their player saw."""
    engine = connect(db)
    store = Store(engine)
    game = gamenight.load("drop-or-stop", players=2)
    lost = 0
    try:
        for tid, final in stats.finals.items():
            row, history = store.table(tid), store.history(tid)
            steps = [(s, game.action_from_json(a)) for s, a in history]
            state = game.replay(row.seed, steps) if row is not None else None
            if state is None or state.view(0) != final or row.status != "finished":  # type: ignore[union-attr]
                lost += 1
    finally:
        engine.dispose()
    return lost


def phase(
    procs: list[Proc], db: str, tables: int, think: float, seed: int, meters: Meters
) -> dict[str, Any]:
    single.THINK = think
    stats = single.Stats()
    rng = random.Random(seed)

    async def all_tables() -> float:
        start = time.perf_counter()
        await asyncio.gather(*(one_table(procs, i, rng, stats) for i in range(tables)))
        return time.perf_counter() - start

    before = meters.read()
    elapsed = asyncio.run(all_tables())
    after = meters.read()
    ms = sorted(x * 1000 for x in stats.latencies)
    cpu = {
        f"cpu_ms_per_action_{k}": round(1000 * (after[k] - before[k]) / max(1, len(ms)), 2)
        for k in before
    }
    return {
        **cpu,
        "actions": len(ms),
        "actions_per_s": round(len(ms) / elapsed, 1),
        "median_ms": round(statistics.median(ms), 2) if ms else None,
        "p99_ms": round(single.quantile(ms, 0.99), 2) if ms else None,
        "errors": len(stats.errors),
        "first_error": stats.errors[0] if stats.errors else None,
        "unfinished": tables - len(stats.finals),
        "lost": lost_tables(db, stats),
    }


def setup(
    name: str, procs: list[Proc], db: str, args: argparse.Namespace, meters: Meters
) -> dict[str, Any]:
    out: dict[str, Any] = {"setup": name}
    for label, think, tables in (
        ("latency", args.think, args.tables),
        ("throughput", 0.0, 3 * args.tables),  # everyone answers at once: saturate
    ):
        seed = len(name) * 7 + int(think * 10)
        figures = phase(procs, db, tables, think, seed, meters)
        out.update({f"{label}_{k}": v for k, v in figures.items()})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--think", type=float, default=0.3)
    args = ap.parse_args()
    if pg_tools() is None or not have_redis():
        sys.exit("bench/cluster.py needs PostgreSQL and redis-server (Debian packages)")
    work = Path(tempfile.mkdtemp(prefix="gamenight-bench-cluster-"))
    results = []
    sqlite = f"sqlite:///{work / 'anchor.sqlite3'}"
    with processes(sqlite, None, work, 1) as procs:
        results.append(setup("sqlite_1_process", procs, sqlite, args, Meters(procs, None, None)))
    with postgres_cluster(work / "pg") as pg:
        postmaster = int((work / "pg" / "pgdata" / "postmaster.pid").read_text().split()[0])
        redis = Redis(work / "redis").start()
        redis_pid = redis.proc.pid if redis.proc else None
        try:
            with processes(pg, redis.url, work, 1) as procs:
                meters = Meters(procs, postmaster, redis_pid)
                results.append(setup("cluster_1_process", procs, pg, args, meters))
            with processes(pg, redis.url, work, args.processes) as procs:
                meters = Meters(procs, postmaster, redis_pid)
                name = f"cluster_{args.processes}_processes"
                results.append(setup(name, procs, pg, args, meters))
        finally:
            redis.stop()
    for r in results:
        print(json.dumps(r))
    anchor, many = results[0], results[-1]
    summary = {
        "figure": "cluster_summary",
        "processes": args.processes,
        "lost_actions_tables": sum(r["latency_lost"] + r["throughput_lost"] for r in results),
        "p99_ms_sqlite_1": anchor["latency_p99_ms"],
        f"p99_ms_cluster_{args.processes}": many["latency_p99_ms"],
        "throughput_ratio_cluster_n_to_sqlite_1": round(
            many["throughput_actions_per_s"] / anchor["throughput_actions_per_s"], 2
        ),
        "throughput_ratio_cluster_n_to_cluster_1": round(
            many["throughput_actions_per_s"] / results[1]["throughput_actions_per_s"], 2
        ),
        "cores": os.cpu_count(),
        "load_average_at_end": os.getloadavg()[0],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
