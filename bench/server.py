"""Load benchmark of the web server: 100 live tables over real WebSockets on loopback.

Starts `gamenight serve` in its own process on a fresh SQLite file, creates TABLES Drop or
Stop tables with two people each, and drives every seat with a scripted client that plays a
random legal move whenever it is asked. Figure: the time from sending an action to receiving
its broadcast (the state with the next version) on the same socket. Anchor, in the same run
on the same server: a bare WebSocket echo (/ws/echo) under the same concurrency (one client
per table doing round trips of a message of the same size, timed only once every echo
client is connected, so the anchor is a round trip on an established socket, as an action
is). Afterwards every table's stored
log is replayed and compared with the final state its players saw (no lost actions).

Every table of a round is set up (created, joined, both sockets open) before any game
starts; the games then start over a second. The figure also prints the load generator's own
loop lag while games are played (`server_client_lag_p99_ms`): what it adds to the actions.

Scripted players pause before each move (uniform, mean THINK seconds; 0 makes every client
answer at once, a closed-loop stress test). The echo clients send a message of the size of
a state message at the same rate, each pausing before its first send as a seat does.
Prints one JSON line per figure. Goal (issue 6, item 9): p99 < 50 ms and <= 3x the echo's
p99, no errors, no lost actions. Issue 17 measured this stress test (a move every 0.5 s on
average per seat, 100 tables set up inside the timed run) at 4-7x a fair echo; its own
<= 3x goal is bench/capacity.py's, at 100 tables and human pacing (item 4).
Stop 39 (2026-12-05): until then the echo clients, released by the barrier all at once,
sent their first round together: a burst no table's seats make. Echo p99 2.1-21.8 ms over
14 `make bench` runs (p99 ratio 0.22-3.25, met in 13); with the first send paused like the
others, 0.95 and 0.93 ms against our 6.16 and 6.39 ms, 6.5x and 6.9x (two probe runs, load
0.5-1.0): the <= 3x goal is not met against the fair echo. The tail: the table set-up
inside the run (9-17 of the 34 slowest actions), and stalls of 7-20 ms around a game's
last move that hold up the moves in flight at other tables; outside set-up p99 5.2-5.4
ms, and 4.2-4.7 ms without last moves.
Stop 40 (2026-12-05, a niced 1 s tournament on both cores, load 2.3-2.9): both causes cut.
- A game's end cost the database thread about 4 ms of SQLAlchemy: a trip there to store
  the status before the last broadcast, then a rating pass that read the table, its seats
  and two account tables even for a practice table. Now the status is one statement in
  the event loop (as an action's store) and a table that cannot be rated is marked in one
  write. The server's own p99 (`server_side_p99_ms`): 1.2-5.7 ms, median 2.8, against
  4.2-5.9, median 5.0, before (4 runs each, calm and flooded, taken in turn with the old
  code). With the tournament beside them the echo's p99 was 3.9-4.7 ms (0.9 on a quiet
  machine), and our calm p99 7.5-13.5 ms with either code: the figure needs a quiet one.
- Set-up inside the timed run lagged this process's own loop (an HTTP client per table is
  20-50 ms of SSL set-up): 14-79 ms, added to the actions it timed (a lag monitor: the 1%
  slowest actions fell in its lag). One shared HTTP client did worse (lag p99 23-40 ms,
  our p99 34-74 ms; why not looked into), so the set-up now comes before the games, as
  the echo's connections do: lag p99 4-17 ms (8-71 before, in the same runs).

Then the same run again on a fresh server with one flooding client besides (issue 11): it
opens a socket on a table of its own and sends `sync` messages as fast as it can without
reading the replies, reconnecting whenever the server closes it. Goal: the other tables'
p99 within 2x of the run without it.
Stop 28 (2026-12-02): until then the server was started with `serve()` from `python -c`,
so without `gamenight serve`'s collector settings: p99 51.79 and 30.73 ms (echo p99 4.57,
2.60) in two `make bench` runs. Started as a user starts it: 13.73 and 10.56 ms (echo 3.96,
3.43; ratios 3.47 and 3.08, not met by a little; the server's own p99 7.5 and 6.6 ms,
every table's set-up and start inside the run), load 0.3-1.1.
Stop 32 (2026-12-03, a niced 1 s tournament on both cores, load 2-3): 20 and 21 of the 33
slowest actions (the p99) were a game's last move, p50 5.8-6.1 ms against 1.3-1.6 ms for
the others. Each finished game ran a pass over every unrated table in a thread of its own,
before its last broadcast: the passes raced (2 and 7 "rating table ... failed" tracebacks
per run in the server log) and queued behind each other. Now one table is rated, in the
database thread, after the broadcast: last moves p50 3.2 ms, 2 of the 33 slowest.
Usage: python bench/server.py [TABLES] [GAMES_PER_TABLE] [THINK]
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

import gamenight
from gamenight.server.db import Store, connect
from goals import figure, load_average, serve_command, serve_env, started

TABLES = int(sys.argv[1]) if len(sys.argv) > 1 else 100
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 2
THINK = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5  # mean seconds before each move
ECHO_ROUNDS = 30


def think() -> float:
    """A scripted player's pause before answering: uniform in [0, 2 * THINK]."""
    return random.uniform(0.0, 2 * THINK)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.finals: dict[str, dict[str, Any]] = {}
        self.server_side: dict[str, Any] = {}
        self.sizes: list[int] = []
        self.lag: list[float] = []  # the load generator's own loop lag, seconds


async def lag_monitor(stats: Stats, playing: asyncio.Event) -> None:
    """How late this process's event loop wakes from a 10 ms sleep while games are played
    (as capacity.py): a late load generator adds its lag to the actions it times."""
    while True:
        await playing.wait()
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        if playing.is_set():  # not a wake-up late for the next round's set-up
            stats.lag.append(time.perf_counter() - before - 0.01)


async def seat_client(
    url: str, tid: str, token: str, seat: int, rng: random.Random, stats: Stats
) -> None:
    headers = {"Cookie": f"gn_seat_{tid}={token}"}
    async with websockets.connect(
        url, additional_headers=headers, max_size=2**22, compression=None
    ) as ws:
        sent_at: dict[int, float] = {}
        acted: set[int] = set()
        async for raw in ws:
            msg = json.loads(raw)
            stats.sizes.append(len(raw))
            if msg["type"] == "refused":
                stats.errors.append(msg["reason"])
                continue
            if msg["type"] != "state" or "view" not in msg:
                continue
            version = msg["version"]
            if version - 1 in sent_at:
                stats.latencies.append(time.perf_counter() - sent_at.pop(version - 1))
            if msg["view"]["over"]:
                if seat == 0:
                    stats.finals[tid] = msg["view"]
                return
            if msg.get("asked") and version not in acted:
                acted.add(version)
                action = rng.choice(msg["actions"])
                await asyncio.sleep(think())
                sent_at[version] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "version": version, "action": action}))


class Barrier:
    """Every echo client (every table) waits here until all are connected (set up): the
    connect burst of 100 sockets at once is not part of the round trips timed (it made the
    anchor flatter us)."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.arrived = 0
        self.all_in = asyncio.Event()

    async def wait(self) -> None:
        self.arrived += 1
        if self.arrived >= self.parties:
            self.all_in.set()
        await self.all_in.wait()


async def post(http: httpx.AsyncClient, url: str, body: Any = None) -> httpx.Response:
    """POST with a few retries: setting up 100 tables at once may meet a full backlog."""
    for attempt in range(5):
        try:
            return await http.post(url, json=body)
        except httpx.TransportError:
            await asyncio.sleep(0.2 * (attempt + 1))
    return await http.post(url, json=body)


async def one_table(
    base: str, port: int, rng: random.Random, stats: Stats, all_set: Barrier
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await post(
            http,
            "/api/tables",
            {
                "game": "drop-or-stop",
                "options": {"players": 2},
                "seats": ["open", "open"],
                "seed": rng.randrange(2**40),
                "practice": True,  # a chosen seed needs everyone's agreement
            },
        )
        tid = r.json()["id"]
        tokens = []
        for seat in (0, 1):
            r = await post(http, f"/api/tables/{tid}/join", {"seat": seat, "name": f"p{seat}"})
            tokens.append(r.cookies[f"gn_seat_{tid}"])
            http.cookies.delete(f"gn_seat_{tid}")
        url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
        clients = [
            asyncio.create_task(
                seat_client(url, tid, tokens[s], s, random.Random(rng.random()), stats)
            )
            for s in (0, 1)
        ]
        await asyncio.sleep(0.2)  # both sockets open before the game starts
        # Every table is set up before any game starts, as the echo clients all connect
        # before any round trip: set-up inside the timed run lagged this process's own
        # loop (20-50 ms per HTTP client made), and the lag was added to the actions timed.
        await all_set.wait()
        await asyncio.sleep(rng.uniform(0, 1.0))  # games start over a second, not at once
        r = await post(http, f"/api/tables/{tid}/start")
        if not started(r):
            stats.errors.append(r.text)
        await asyncio.gather(*clients)


async def echo_client(port: int, size: int, out: list[float], barrier: Barrier) -> None:
    payload = json.dumps({"type": "act", "version": 1, "pad": "x" * size})
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/echo", compression=None) as ws:
        await barrier.wait()
        for _ in range(ECHO_ROUNDS):
            # Pause first, as a seat thinks before it acts: released by the barrier all at
            # once, 100 clients sending together made a burst no table's seats make (echo
            # p99 2.1-21.8 ms in 14 `make bench` runs, against about 0.9 ms spread out).
            await asyncio.sleep(think() / 2)  # two seats per table: twice the message rate
            start = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            out.append(time.perf_counter() - start)


async def flooder(base: str, port: int, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """A hostile client: `sync` as fast as it can on a table of its own, never reading."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await post(http, "/api/tables", {"game": "drop-or-stop", "seats": ["open"] * 3})
        tid = r.json()["id"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    message = json.dumps({"type": "sync"})
    while not stop.is_set():
        try:
            async with websockets.connect(url, compression=None) as ws:
                counts["connections"] += 1
                for _ in range(10_000):
                    if stop.is_set():
                        break
                    await ws.send(message)
                    counts["sent"] += 1
                    if counts["sent"] % 50 == 0:
                        await asyncio.sleep(0)  # let this process's other clients run
        except (websockets.ConnectionClosed, OSError):
            counts["closed"] += 1
            await asyncio.sleep(0.05)


async def main(base: str, port: int, flood: bool) -> tuple[Stats, list[float], float]:
    stats = Stats()
    rng = random.Random(2026)
    stop = asyncio.Event()
    counts = {"connections": 0, "sent": 0, "closed": 0}
    flooding = asyncio.create_task(flooder(base, port, stop, counts)) if flood else None
    playing = asyncio.Event()
    monitor = asyncio.create_task(lag_monitor(stats, playing))
    start = time.perf_counter()
    for _ in range(GAMES):
        all_set = Barrier(TABLES)
        tables = (one_table(base, port, rng, stats, all_set) for _ in range(TABLES))
        round_ = asyncio.gather(*tables)
        all_in = asyncio.ensure_future(all_set.all_in.wait())
        # a table whose set-up failed ends the round (its error raised below), not a wait
        await asyncio.wait({all_in, round_}, return_when=asyncio.FIRST_COMPLETED)
        all_in.cancel()
        playing.set()
        await round_
        playing.clear()
    elapsed = time.perf_counter() - start
    monitor.cancel()
    if flooding is not None:
        stop.set()
        await flooding
        stats.server_side["flood"] = counts
    async with httpx.AsyncClient(base_url=base) as http:
        stats.server_side.update((await http.get("/api/metrics")).json())
    echo: list[float] = []
    barrier = Barrier(TABLES)
    await asyncio.gather(*(echo_client(port, 2500, echo, barrier) for _ in range(TABLES)))
    return stats, echo, elapsed


def run(flood: bool = False) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="gamenight-bench-"))
    db = f"sqlite:///{tmp / 'bench.sqlite3'}"
    port = free_port()
    # Every table of the benchmark comes from one address: lift the per-address limit.
    env = serve_env(
        tmp, GAMENIGHT_TABLES_PER_MINUTE="100000", GAMENIGHT_SOCKETS_PER_ADDRESS="1000000"
    )
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - open for the server's lifetime
    server = subprocess.Popen(serve_command(port, db), env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        stats, echo, elapsed = asyncio.run(main(base, port, flood))
    finally:
        server.terminate()
        server.wait(20)
    # Every table's stored log replays to the final state its players saw.
    store = Store(connect(db, lock=False))
    game = gamenight.load("drop-or-stop", players=2)
    lost = 0
    for tid, final in stats.finals.items():
        row = store.table(tid)
        history = store.history(tid)
        assert row is not None
        state = game.replay(row.seed, [(s, game.action_from_json(a)) for s, a in history])
        if state.view(0) != final or row.status != "finished":
            lost += 1
    ms = [x * 1000 for x in stats.latencies]
    echo_ms = [x * 1000 for x in echo]
    p99, echo_p99 = quantile(ms, 0.99), quantile(echo_ms, 0.99)
    prefix = "server_flooded" if flood else "server"
    figures = {
        "server_tables": TABLES * GAMES,
        "server_concurrent_tables": TABLES,
        "server_mean_think_s": THINK,
        "server_actions": len(ms),
        "server_actions_per_s": round(len(ms) / elapsed, 1),
        "server_action_to_broadcast_median_ms": round(statistics.median(ms), 2),
        "server_action_to_broadcast_p99_ms": round(p99, 2),
        "server_echo_median_ms": round(statistics.median(echo_ms), 2),
        "server_echo_p99_ms": round(echo_p99, 2),
        "server_p99_ratio_to_echo": round(p99 / echo_p99, 2),
        "server_client_lag_p99_ms": round(1000 * quantile(stats.lag, 0.99), 2),
        "server_client_lag_max_ms": round(1000 * max(stats.lag), 2),
        "server_side_median_ms": stats.server_side.get("median_ms"),
        "server_side_p99_ms": stats.server_side.get("p99_ms"),
        "server_state_message_mean_bytes": round(statistics.mean(stats.sizes)),
        "server_errors": len(stats.errors),
        "server_unfinished_tables": TABLES * GAMES - len(stats.finals),
        "server_lost_actions_tables": lost,
    }
    if flood:
        figures["server_flood_client"] = stats.server_side.get("flood")
    for name, value in figures.items():
        figure(name.replace("server", prefix, 1), value=value)
    figure(
        f"{prefix}_goal_met",
        "p99 < 50 ms and <= 3x the echo p99 (timed after connecting); no errors; no lost actions",
        p99 < 50
        and p99 <= 3 * echo_p99
        and not stats.errors
        and not lost
        and len(stats.finals) == TABLES * GAMES,
        value=round(p99, 2),
        echo_p99_ms=round(echo_p99, 2),
        ratio_to_echo=round(p99 / echo_p99, 2),
        load=load_average(),
    )
    if stats.errors:
        figure(f"{prefix}_first_error", value=stats.errors[0])
    return figures


if __name__ == "__main__":
    calm = run()
    flooded = run(flood=True)
    ratio = flooded["server_action_to_broadcast_p99_ms"] / calm["server_action_to_broadcast_p99_ms"]
    figure(
        "server_flood_goal_met",
        "other tables' p99 within 2x of the run without the flooding client",
        ratio <= 2 and not flooded["server_lost_actions_tables"],
        value=round(ratio, 2),
    )
