"""Arne's window pace (issue 45, item 4): how long a reaction window nobody answers stays open.

Two people (scripted over WebSockets, as pages: they play their own decisions at once and
touch nothing in any window) and an `easy` bot play 3-player Arne at the server's default
table settings (`gamenight serve` on a fresh SQLite file). Each person's socket times every
window from the first state showing it to the first showing another or none, leaving out
windows in which a black card was played. Goal: the median <= 1.5 s. Before issue 45 every
person waited out their own countdown (3 s each at the server's default), so a window of
two people was open over 6 s.

Usage: python bench/window_pace.py [WINDOWS]   (default 40 windows)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from goals import figure, load_average, served

GOAL_SECONDS = 1.5
WANTED = int(sys.argv[1]) if len(sys.argv) > 1 else 40


async def person(port: int, tid: str, token: str, spans: list[float], stop: asyncio.Event) -> None:
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    headers = {"Cookie": f"gn_seat_{tid}={token}"}
    current: str | None = None
    since, played, turns = 0.0, False, 0
    async with websockets.connect(url, additional_headers=headers, compression=None) as ws:
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            if msg.get("type") != "state" or "view" not in msg:
                continue
            if "moment" in msg:
                await ws.send(json.dumps({"type": "seen", "version": msg["version"]}))
            now, view = time.monotonic(), msg["view"]
            kinds = [e["kind"] for e in msg.get("events") or []]
            turns += kinds.count("turn")
            window = view.get("window")
            key = f"{window['kind']}/{turns}" if window else None
            if key != current:
                if current is not None and not played:
                    spans.append(now - since)
                current, since, played = key, now, False
            played = played or (key is not None and "black" in kinds)
            if view.get("over"):
                stop.set()
            elif msg.get("asked") and not window and msg.get("actions"):
                action = msg["actions"][0]  # its own decision, at once
                await ws.send(
                    json.dumps({"type": "act", "version": msg["version"], "action": action})
                )


async def measure(base: str, port: int) -> list[float]:
    spans: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while len(spans) < WANTED:
            r = await http.post(
                "/api/tables",
                json={"game": "arne", "options": {"players": 3}, "seats": ["open", "open", "easy"]},
            )
            r.raise_for_status()
            tid = r.json()["id"]
            tokens = []
            for seat, name in ((0, "Ann"), (1, "Bob")):
                joined = await http.post(
                    f"/api/tables/{tid}/join", json={"seat": seat, "name": name}
                )
                joined.raise_for_status()
                tokens.append(joined.cookies[f"gn_seat_{tid}"])
                http.cookies.delete(f"gn_seat_{tid}")  # (the owner cookie stays: start)
            stop = asyncio.Event()
            mine: list[float] = []
            people = [asyncio.create_task(person(port, tid, t, mine, stop)) for t in tokens]
            await asyncio.sleep(0.3)
            (await http.post(f"/api/tables/{tid}/start")).raise_for_status()
            end = time.monotonic() + 240
            while not stop.is_set() and len(spans) + len(mine) // 2 < WANTED:
                assert time.monotonic() < end, "the game stalled"
                await asyncio.sleep(0.2)
            stop.set()
            await asyncio.gather(*people)
            spans.extend(mine[::2])  # each window is seen by both people: count it once
    return spans


def run() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gamenight-bench-"))
    with served(tmp, GAMENIGHT_TABLES_PER_MINUTE="100000") as (base, port):
        spans = asyncio.run(measure(base, port))
    median = statistics.median(spans)
    figure(
        "window_pace_median_s",
        f"a 3-player Arne window nobody answers (2 people, 1 bot, default settings) is open "
        f"<= {GOAL_SECONDS} s at the median",
        median <= GOAL_SECONDS,
        value=round(median, 2),
        windows=len(spans),
        p90_s=round(sorted(spans)[int(0.9 * (len(spans) - 1))], 2),
        load=load_average(),
    )


if __name__ == "__main__":
    run()
