"""One action at a time: where an action's latency goes when nothing else happens (issue 17,
item 4; a diagnostic beside bench/capacity.py, no goal).

Starts `gamenight serve` on a fresh SQLite file (environment passed through, so arms such
as GAMENIGHT_INLINE_DB=1 or GAMENIGHT_GC_THRESHOLDS=0,2,400 can be compared), seats two
people at a Drop or Stop table and plays ACTIONS random legal moves, each sent only after
both sockets have the last state: the time from sending an action to the next state on
the same socket. Then as many round trips of a state-sized message on /ws/echo. Prints
p50 / p90 / p99 of both and the count of actions slower than SLOW_MS.

With --profile FILE the server is recorded with py-spy (4 kHz, idle samples kept, as
speedscope JSON); the main thread's busy stretches of 2 ms or more are then summed by
function, which names what the slow actions were doing.

Sixth session (2026-12-01, both cores busy with niced searches, load 2.1-2.6), 1,500
actions a run, two runs an arm:
- as shipped: p50 0.68-0.79 ms; p99 5.3-5.4 ms, 4.2-4.5 ms without the games' last
  actions; 57-66 other actions slower than 1.5 ms. The echo: p50 0.10-0.15, p99 0.24-0.30.
- GAMENIGHT_INLINE_DB=1: p50 0.50-0.51 ms; p99 3.6-4.6 ms, 1.1-1.2 ms without the last
  actions; 9-10 other actions slower than 1.5 ms.
- A game's last action takes 3.7-4.7 ms (p50) in both: it is rated and stored as
  finished, two more trips to the database, before its broadcast. Games here end every
  ~65 actions, so these are the p99; in bench/capacity.py's windows few games end.
- The garbage collector switched off (GAMENIGHT_GC_THRESHOLDS=0,2,400) left as many slow
  actions as shipped: they are not collections.
So on a busy machine the tail of an ordinary action is the database thread's two
wake-ups (the loop hands the write over and is woken when it is stored), not our code. At
100 tables under the same load (bench/capacity.py 100 --seconds 20, arms alternated
twice): p50 1.77 / 1.76 ms and p99 6.09 / 6.46 ms with the thread, 1.24 / 1.36 and
5.31 / 4.65 inline.

Seventh session (2026-12-02): so an accepted action is now stored in the loop when
SQLite's write lock is free at once, and in the database thread otherwise (Hub.store_action;
a locked database still does not stall the loop:
tests/server/test_security.py::test_a_locked_database_does_not_stall_the_event_loop).
Both cores busy with niced searches, 800 actions, arms alternated twice: p50 1.20 / 1.31 ms
with every call in the thread (GAMENIGHT_INLINE_DB=none), 0.90 / 0.71 ms as shipped.

Usage: python bench/latency.py [--actions 1500] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from capacity import BIN, free_port, quantile, seat_table, server_said, wait_healthy

SLOW_MS = 1.5


async def next_state(ws: Any, above: int = -1) -> dict[str, Any]:
    """The next state message above version `above`, with its size in `bytes`."""
    while True:
        raw = await ws.recv()
        msg = json.loads(raw)
        if msg.get("type") == "state" and "view" in msg and msg["version"] > above:
            return {**msg, "bytes": len(raw)}


async def new_table(http: Any, port: int) -> list[Any]:
    """A started two-person table: its two seat sockets."""
    import websockets

    async def post(path: str, body: Any) -> Any:
        r = await http.post(path, json=body)
        http.cookies.clear()  # each seat's cookie is passed on its own socket
        return r

    tid, tokens, owner = await seat_table(post, random.Random(), bot=False)
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    sockets = [
        await websockets.connect(
            url, additional_headers={"Cookie": f"gn_seat_{tid}={t}"}, compression=None
        )
        for t in tokens
    ]
    for ws in sockets:
        await ws.recv()
    await http.post(f"/api/tables/{tid}/start", headers={"Cookie": owner})
    http.cookies.clear()
    return sockets


async def drive(port: int, actions: int, spy: list[str]) -> dict[str, Any]:
    import httpx
    import websockets

    latencies: list[float] = []
    last: list[int] = []  # which actions ended their game
    sizes: list[int] = []
    profiler = None
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        sockets = await new_table(http, port)
        states = [await next_state(ws) for ws in sockets]
        while len(latencies) < actions:
            if states[0]["view"]["over"]:
                for ws in sockets:
                    await ws.close()
                sockets = await new_table(http, port)
                states = [await next_state(ws) for ws in sockets]
                continue
            asked = [i for i, s in enumerate(states) if s.get("asked")]
            if not asked:  # one socket is behind: catch it up
                top = max(s["version"] for s in states)
                states = [
                    s if s["version"] == top else await next_state(ws, s["version"])
                    for s, ws in zip(states, sockets, strict=True)
                ]
                continue
            if spy and profiler is None and len(latencies) >= 200:
                profiler = subprocess.Popen(
                    spy, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
                await asyncio.sleep(1.0)
            i = asked[0]
            version = states[i]["version"]
            move = random.choice(states[i]["actions"])
            sent = time.perf_counter()
            await sockets[i].send(json.dumps({"type": "act", "version": version, "action": move}))
            states[i] = await next_state(sockets[i], version)
            latencies.append(time.perf_counter() - sent)
            if states[i]["view"]["over"]:  # rated and stored as finished before its broadcast
                last.append(len(latencies) - 1)
            sizes.append(states[i]["bytes"])
            states[1 - i] = await next_state(sockets[1 - i], states[i]["version"] - 1)
        if profiler is not None:
            profiler.send_signal(2)
            profiler.wait(60)
        size = round(sum(sizes) / len(sizes))
        echo: list[float] = []
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/echo", compression=None)
        payload = json.dumps({"type": "act", "version": 1, "pad": "x" * size})
        for _ in range(actions):
            sent = time.perf_counter()
            await ws.send(payload)
            json.loads(await ws.recv())
            echo.append(time.perf_counter() - sent)
    ms = [1000 * x for x in latencies]
    ended = set(last)
    within = [x for k, x in enumerate(ms) if k not in ended]
    echo_ms = [1000 * x for x in echo]
    return {
        "actions": len(ms),
        "p50_ms": round(quantile(ms, 0.5), 3),
        "p90_ms": round(quantile(ms, 0.9), 3),
        "p99_ms": round(quantile(ms, 0.99), 3),
        f"slower_than_{SLOW_MS}_ms": sum(x > SLOW_MS for x in ms),
        "games_ended": len(ended),
        "last_actions_p50_ms": round(quantile([ms[k] for k in last], 0.5), 3),
        "p99_ms_without_last_actions": round(quantile(within, 0.99), 3),
        f"slower_than_{SLOW_MS}_ms_without_last_actions": sum(x > SLOW_MS for x in within),
        "echo_p50_ms": round(quantile(echo_ms, 0.5), 3),
        "echo_p90_ms": round(quantile(echo_ms, 0.9), 3),
        "echo_p99_ms": round(quantile(echo_ms, 0.99), 3),
        "state_message_bytes": size,
    }


def busy_stretches(path: Path, at_least: int = 8) -> list[tuple[float, str]]:
    """The main thread's stretches of `at_least` busy samples or more (2 ms at 4 kHz):
    each function's share of their samples."""
    data = json.loads(path.read_text())
    frames = data["shared"]["frames"]
    main = next(p for p in data["profiles"] if "MainThread" in p["name"])
    stretches: list[list[list[int]]] = [[]]
    for stack in main["samples"]:
        if not stack or frames[stack[-1]]["name"] == "Runner.run":  # the loop waiting
            stretches.append([])
        else:
            stretches[-1].append(stack)
    share: collections.Counter[str] = collections.Counter()
    total = 0
    for stretch in stretches:
        if len(stretch) < at_least:
            continue
        for stack in stretch:
            total += 1
            for name in {frames[f]["name"] for f in stack}:
                share[name] += 1
    return [(round(100 * n / total, 1), name) for name, n in share.most_common(25)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--profile", type=Path, default=None)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gamenight-latency-"))
    port = free_port()
    env = {
        **os.environ,
        "GAMENIGHT_DATA": str(tmp),
        "GAMENIGHT_TABLES_PER_MINUTE": "1000000",
        "GAMENIGHT_SOCKETS_PER_ADDRESS": "1000000",
    }
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - open for the server's lifetime
    db = f"sqlite:///{tmp / 'bench.sqlite3'}"
    server = subprocess.Popen(
        [str(BIN / "gamenight"), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db],
        env=env,
        stdout=log,
        stderr=log,
    )
    spy: list[str] = []
    if args.profile is not None:
        exe = shutil.which("py-spy", path=str(BIN)) or "py-spy"
        spy = [exe, "record", "-p", str(server.pid), "-r", "4000", "--format", "speedscope"]
        spy += ["--nonblocking", "--idle", "-o", str(args.profile)]
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server)
        result = asyncio.run(drive(port, args.actions, spy))
    finally:
        server.terminate()
        server.wait(30)
    result["server_log"] = server_said(tmp / "server.log")
    print(json.dumps(result), flush=True)
    if args.profile is not None and args.profile.exists():
        for percent, name in busy_stretches(args.profile):
            print(f"{percent:5.1f}% {name}")
    sys.exit(0)


if __name__ == "__main__":
    main()
