"""One guest flooding the coach, and the other tables' pace (issue 43, item 3).

Starts `gamenight serve` in its own process on a fresh SQLite file (its worker pool: one
process per core, 1 to 4). A guest sits alone with a bot at an Arne table (on their turn:
Arne's coach is about a second of search per request). Two other tables are played by a
scripted person against a bot over real WebSockets: Drop It against the easy bot (every
drop's physics runs in the worker pool) and Arne against the hard bot (ISMCTS in the pool);
the person answers THINK seconds after being asked. Figure: the other tables' moves per
second with the guest holding FLOODERS coach requests in flight (each asked again as soon as
answered, after a second when refused), as a ratio of the same tables' pace without it. Each
window is WINDOW seconds on fresh tables with the same seeds (the same games, move for
move), in the order calm, flooded, flooded, calm, so a load that drifts weighs on both sides
alike. Goal: ratio >= 0.8. Before the scheduler (budget.py) the flood stopped every other
table (0 drops in 25 s against 3/s; the hard bot fell back to random moves after 12 s a
turn).

Usage: python bench/coach_flood.py [WINDOW] [FLOODERS]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import websockets

from goals import figure, load_average, served, started

WINDOW = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
FLOODERS = int(sys.argv[2]) if len(sys.argv) > 2 else 30
THINK = 0.3  # seconds the scripted person takes per move; the bots' bot_delay too


async def seated_table(
    http: httpx.AsyncClient, game: str, bot: str, seed: int, bot_delay: float = THINK
) -> tuple[str, str]:
    """A table of one person (seat 0, the seed chosen) and `bot`: its id and seat token."""
    r = await http.post(
        "/api/tables",
        json={
            "game": game,
            "seats": ["open", bot],
            "options": {"players": 2},
            "settings": {"bot_delay": bot_delay},
            "seed": seed,
            "sit": 0,
            "name": "Guest",
        },
    )
    r.raise_for_status()
    tid = r.json()["id"]
    return tid, r.cookies[f"gn_seat_{tid}"]


def random_action(msg: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal move for the seat asked in `msg` (a Drop It drop is aimed, not listed)."""
    view = msg["view"]
    if "sides" not in view:
        return dict(rng.choice(msg["actions"]))
    if view["phase"] == "joker":
        return {"type": "joker", "spend": True}
    supply = view["sides"][view["side"]]["supply"]
    x, angle = rng.uniform(20, 220), rng.uniform(0, 3)
    return {"type": "drop", "piece": rng.choice(supply), "x": x, "angle": angle, "depth": 0.0}


async def person(port: int, tid: str, token: str, stop: asyncio.Event) -> None:
    """Seat 0: a seeded random legal move THINK seconds after each time it is asked."""
    rng = random.Random(tid)
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    headers = {"Cookie": f"gn_seat_{tid}={token}"}
    async with websockets.connect(url, additional_headers=headers, compression=None) as ws:
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            if msg.get("type") != "state":
                continue
            if "moment" in msg:  # a round's moment: seen at once, as a page says it
                await ws.send(json.dumps({"type": "seen", "version": msg["version"]}))
            if msg.get("asked") and not msg["view"].get("over"):
                await asyncio.sleep(THINK)
                action = random_action(msg, rng)
                await ws.send(
                    json.dumps({"type": "act", "version": msg["version"], "action": action})
                )


async def flooder(
    http: httpx.AsyncClient, tid: str, token: str, stop: asyncio.Event, codes: list[int]
) -> None:
    headers = {"Cookie": f"gn_seat_{tid}={token}"}
    while not stop.is_set():
        r = await http.get(f"/api/tables/{tid}/coach", headers=headers)
        codes.append(r.status_code)
        if r.status_code != 200:
            await asyncio.sleep(1.0)


async def window(
    http: httpx.AsyncClient, port: int, flood: tuple[str, str] | None, codes: list[int]
) -> list[float]:
    """Moves per second of the two other tables over WINDOW seconds from their start."""
    tables = [
        await seated_table(http, "drop-it", "easy", 11),
        await seated_table(http, "arne", "hard", 11),
    ]
    stop = asyncio.Event()
    players = [asyncio.create_task(person(port, tid, token, stop)) for tid, token in tables]
    flooding = []
    if flood is not None:
        async with httpx.AsyncClient(base_url=http.base_url, timeout=120) as guest:
            flooding = [
                asyncio.create_task(flooder(guest, *flood, stop, codes)) for _ in range(FLOODERS)
            ]
            await asyncio.sleep(0.5)  # every request in flight
            rates = await measure(http, tables)
            stop.set()
            await asyncio.gather(*flooding, *players)
            return rates
    rates = await measure(http, tables)
    stop.set()
    await asyncio.gather(*players)
    return rates


async def measure(http: httpx.AsyncClient, tables: list[tuple[str, str]]) -> list[float]:
    await asyncio.sleep(0.3)  # the sockets open
    for tid, _ in tables:
        assert started(await http.post(f"/api/tables/{tid}/start"))
    await asyncio.sleep(WINDOW)
    rates = []
    for tid, token in tables:
        r = await http.get(f"/api/tables/{tid}", headers={"Cookie": f"gn_seat_{tid}={token}"})
        rates.append(r.json()["version"] / WINDOW)
    return rates


async def main(base: str, port: int) -> dict[str, Any]:
    codes: list[int] = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        guest = await seated_table(http, "arne", "bot:random", 3, bot_delay=0)
        assert started(await http.post(f"/api/tables/{guest[0]}/start"))
        headers = {"Cookie": f"gn_seat_{guest[0]}={guest[1]}"}
        for _ in range(100):  # the guest's turn: the coach has advice to compute
            if (await http.get(f"/api/tables/{guest[0]}/coach", headers=headers)).json()["advice"]:
                break
            await asyncio.sleep(0.1)
        await window(http, port, None, codes)  # both workers started, each game built there
        calm, flooded = [0.0, 0.0], [0.0, 0.0]
        for flood in (False, True, True, False):
            rates = await window(http, port, guest if flood else None, codes)
            for i, rate in enumerate(rates):
                (flooded if flood else calm)[i] += rate / 2
    return {"calm": calm, "flooded": flooded, "codes": codes}


def run() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gamenight-bench-"))
    many = {
        "GAMENIGHT_TABLES_PER_MINUTE": "100000",
        "GAMENIGHT_THINKING_TABLES_PER_ADDRESS": "1000",
        "GAMENIGHT_THINKING_TABLES_PER_PERSON": "1000",
    }
    with served(tmp, **many) as (base, port):
        found = asyncio.run(main(base, port))
    calm, flooded, codes = found["calm"], found["flooded"], found["codes"]
    ratio = sum(flooded) / sum(calm) if sum(calm) else 0.0
    figure("coach_flood_calm_moves_per_s", value=[round(x, 2) for x in calm])
    figure("coach_flood_flooded_moves_per_s", value=[round(x, 2) for x in flooded])
    figure(
        "coach_flood_requests",
        value=len(codes),
        answered=codes.count(200),
        refused_429=codes.count(429),
        other=len(codes) - codes.count(200) - codes.count(429),
    )
    figure(
        "coach_flood_goal_met",
        f"other tables' moves/s with {FLOODERS} coach requests in flight from one guest "
        ">= 0.8x without them",
        ratio >= 0.8,
        value=round(ratio, 2),
        per_table=[round(f / c, 2) if c else 0.0 for f, c in zip(flooded, calm, strict=True)],
        load=load_average(),
        workers=max(1, min(4, os.cpu_count() or 1)),
    )


if __name__ == "__main__":
    run()
