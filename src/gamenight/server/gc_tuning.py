"""The garbage collector of `gamenight serve` (issue 17: young collections were under 12 of
the 34 slowest actions at 100 tables).

Everything loaded before serving (the app's modules, the games, the web stack) lives as
long as the process: `freeze` moves it out of every later collection, so a full
collection walks only the live tables. A young collection runs after THRESHOLDS[0] net
allocations instead of 700, and an older one after more young ones: an accepted action
allocates thousands of objects (a state copy, views, messages), most freed by reference
counting, and at the default thresholds the collector kept promoting live tables' states
and walking them again. Measured by bench/capacity.py at 1,000 tables (wall time on a
loaded machine, whole runs): 5,004 / 454 / 39 collections of generation 0 / 1 / 2 taking
132 s over 30,865 players' actions with the defaults (4.3 ms per action); 54 / 2 / 0
taking 8.6 s over 18,161 with (20,000, 2, 400) (0.47 ms per action).

A middle collection (generation 1) runs after every third young one (THRESHOLDS[1] = 2,
not 20), and a full one after THRESHOLDS[2] of those (its pace: below): what a middle
collection walks is what survived the young ones since the last, and when 1,000 tables'
connections come up nearly all of it survives (about 200 objects a WebSocket).
With 20, the first middle collection after that burst walked 310,000 objects in one
pause of 160-250 ms, inside the measured window; with 2 the same work comes in pieces
(bench/capacity.py at 1,000 tables, 10 s windows at load 3, paired runs 2026-12-01:
longest middle pause 63-76 ms CPU against 162-239 ms; p99 27.6 and 69.5 ms against 97.8
and 240 ms).

A young collection after 4,000 net allocations, not 20,000 (2026-12-02, stop 28):
at 1,000 tables the slowest actions were those that arrived during a pause, and a pause
walks what was allocated since the last, so five times the collections at a fifth of the
size each cost about the same in all and hold an action up for less. bench/capacity.py
at 1,000 tables, 40 s windows, arms alternated, load 0.2-0.9: with 20,000 p99 44.2 and
36.5 ms, max 107 and 99 ms, longest middle pause 96-101 ms CPU, 1.21 and 1.13 ms CPU per
action; with 4,000 p99 24.6, 40.7 and 38.6 ms, max 56, 73 and 79 ms, longest middle
pause 48-57 ms, 1.06-1.20 ms per action, the collectors' total the same (0.8-0.96 s a
run). With 1,000 the median rose (3.8 against 1.8-2.1 ms) and so did CPU per action (1.46
ms). The full collection's threshold went from 400 to 2,000 with it, so a full one still
comes after as many allocations as before (2,000 x 3 x 4,000 = 400 x 3 x 20,000).

Collections run between events, not inside them (stop 33): the automatic collector runs
where the allocation that crosses a threshold happens, that is inside the handling of an
action or a bot's move (nearly every allocation is one), so each collection holds up
whatever is in flight. Now `tune` turns the automatic collector off and
`collect_between_events`, a task of the server's event loop, runs the collection the
thresholds call for every PERIOD seconds, between the loop's callbacks: an action is held
up only if it arrives during a collection or waits on the database thread then.
bench/capacity.py counts the timed actions in flight during a collection (the server logs
each collection's span on the shared monotonic clock). At 100 tables, 30 s windows, load
2.1 (a tournament on both cores): automatic 3 of 816 actions, 2 of the 8 slowest (p99
5.47 ms); between events 0 of 819 (p99 5.17 ms), the same number of collections and CPU
per action within noise. At 100 tables the collections are part of the tail, not most of
it; the quiet-machine figure is left to a `make bench` run.

GAMENIGHT_GC_THRESHOLDS="700,10,10" sets other thresholds, GAMENIGHT_GC_FREEZE=0 leaves
everything in the collections and GAMENIGHT_GC_BETWEEN_EVENTS=0 keeps the automatic
collector (to compare). With GAMENIGHT_GC_LOG=path the server appends,
at exit, one JSON line with the count and pause times of collections per generation (the
capacity bench reads it). With GAMENIGHT_TRACEMALLOC=path it traces allocations (slower)
and appends the 40 biggest allocation sites (and 25 biggest files) to that file on every SIGUSR1.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import time
from typing import Any

THRESHOLDS = (4_000, 2, 2_000)
PERIOD = 0.01  # seconds between looks at the allocation counts (a look costs about 1 us)


def tune(preload: list[str]) -> None:
    """Import `preload` (the modules the server will use anyway), collect once, freeze what
    is left, and raise the collection thresholds."""
    import importlib

    for name in preload:
        importlib.import_module(name)
    gc.collect()
    if os.environ.get("GAMENIGHT_GC_FREEZE", "1") != "0":
        gc.freeze()
    chosen = os.environ.get("GAMENIGHT_GC_THRESHOLDS")
    gc.set_threshold(*(tuple(int(x) for x in chosen.split(",")) if chosen else THRESHOLDS))
    if os.environ.get("GAMENIGHT_GC_BETWEEN_EVENTS", "1") != "0":
        gc.disable()  # collect_between_events runs the collections
    path = os.environ.get("GAMENIGHT_GC_LOG")
    if path:
        _record_pauses(path)
    traced = os.environ.get("GAMENIGHT_TRACEMALLOC")
    if traced:
        _trace_memory(traced)


def due_generation() -> int | None:
    """The generation the automatic collector would collect now (the oldest whose count is
    over its threshold), or None. CPython also puts a full collection off until a quarter
    of the long-lived objects are new; that count is not visible from Python, and at these
    thresholds a full collection is rare either way."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if counts[generation] > thresholds[generation]:
            return generation
    return None


async def collect_between_events(period: float = PERIOD) -> None:
    """While automatic collection is off, run the collections it would have run, from the
    event loop between callbacks (never in the middle of handling a message)."""
    while True:
        await asyncio.sleep(period)
        if gc.isenabled():
            continue  # the automatic collector is on (GAMENIGHT_GC_BETWEEN_EVENTS=0)
        generation = due_generation()
        if generation is not None:
            gc.collect(generation)


def _trace_memory(path: str) -> None:
    import signal
    import tracemalloc

    tracemalloc.start()

    def dump(_signum: int, _frame: Any) -> None:
        snapshot = tracemalloc.take_snapshot()
        stats = snapshot.statistics("lineno")
        with open(path, "a") as out:
            total = sum(s.size for s in stats)
            out.write(f"traced {total / 1024:.0f} KB in {len(stats)} sites\n")
            for stat in stats[:40]:
                out.write(f"{stat}\n")
            out.write("by file:\n")
            for stat in snapshot.statistics("filename")[:25]:
                out.write(f"{stat}\n")

    signal.signal(signal.SIGUSR1, dump)


def _record_pauses(path: str) -> None:
    # wall time and the thread's CPU time: on a busy machine a pause's wall time includes
    # the time the process waited for a core, its CPU time only the collector's own work
    pauses: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
    spans: list[tuple[float, float]] = []  # (start, end) on the machine's monotonic clock
    started = [0.0, 0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            now = time.perf_counter()
            pauses[info["generation"]].append((now - started[0], time.thread_time() - started[1]))
            spans.append((started[0], now))

    def summary(values: list[float]) -> dict[str, Any]:
        ordered = sorted(values)
        if not ordered:
            return {"total_ms": 0, "p99_ms": 0.0, "max_ms": 0.0}
        return {
            "total_ms": round(1000 * sum(ordered), 1),
            "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 2),
            "max_ms": round(1000 * ordered[-1], 2),
        }

    def write() -> None:
        line: dict[str, Any] = {
            "frozen": gc.get_freeze_count(),
            "thresholds": gc.get_threshold(),
            "automatic": gc.isenabled(),
        }
        for gen, times in pauses.items():
            line[f"gen{gen}"] = {
                "count": len(times),
                **summary([wall for wall, _ in times]),
                "cpu": summary([cpu for _, cpu in times]),
            }
        # perf_counter is CLOCK_MONOTONIC, shared by the machine's processes: a load
        # generator can tell which of its actions were in flight during a collection
        line["spans"] = [(round(a, 6), round(b, 6)) for a, b in spans]
        with open(path, "a") as out:
            out.write(json.dumps(line) + "\n")

    gc.callbacks.append(callback)
    atexit.register(write)
