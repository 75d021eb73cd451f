"""Simulation throughput with 1 and 2 workers on each backend (processes, ray).

Prints one JSON line per figure: games per second for each game, backend and worker count,
then the speed-up of 2 workers over 1 per game and backend, and whether the results were
identical (they must be: seeds are derived, not drawn). The pool (worker processes, or the
Ray runtime with that many CPUs) is part of the timed run for processes and started before
the clock for Ray (a runtime is started once and reused). Each figure is the best of
`--rounds` interleaved runs. Goal: speed-up >= 1.8 on a 2-core machine for Arne and Drop It.

Anchor: other load on the machine lowers every parallel figure, so each speed-up line also
carries `anchor_speedup`, the 2-process speed-up of a pure CPU loop (no I/O, no pickling)
measured next to it in the same run, and `efficiency` = speedup / anchor_speedup: the
share of the parallelism the machine offered at that moment that the simulation used.

Usage: python bench/scale.py [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import time
from typing import Any

from gamenight.sim.runner import Job, run

# (game, seats, games at scale 1): 15-30 s for one worker each on an idle machine.
CASES: list[tuple[str, tuple[str, ...], int]] = [
    ("arne", ("bot:greedy",) * 4, 240),
    ("drop-it", ("bot:random",) * 2, 14),
    ("drop-or-stop", ("bot:threshold",) * 3, 4000),
]


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def anchor_speedup(tasks: int = 6, n: int = 4_000_000) -> float:
    """Wall-time speed-up of 2 worker processes over 1 on a pure CPU loop, right now."""
    times = {}
    for workers in (1, 2):
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            pool.map(_spin, [1] * workers)  # started before the clock
            start = time.perf_counter()
            pool.map(_spin, [n] * tasks, chunksize=1)
            times[workers] = time.perf_counter() - start
    return times[1] / times[2]


def timed(job: Job, games: int, workers: int, backend: str) -> tuple[float, list[Any]]:
    start = time.perf_counter()
    results = run(job, games, workers=workers, backend=backend)
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--backends", default="processes,ray")
    parser.add_argument("--rounds", type=int, default=2, help="best of this many runs")
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    for backend in args.backends.split(","):
        if backend == "ray":
            import ray

            os.environ.setdefault("RAY_worker_niceness", "0")  # as the runner's own runtime
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        try:
            for name, seats, base in CASES:
                games = max(2, int(base * args.scale))
                job = Job(name, (), seats, 7)
                rates = {1: 0.0, 2: 0.0}
                outputs = {}
                for _ in range(args.rounds):
                    for workers in (1, 2):
                        seconds, results = timed(job, games, workers, backend)
                        rates[workers] = max(rates[workers], games / seconds)
                        outputs[workers] = results
                for workers in (1, 2):
                    print(
                        json.dumps(
                            {
                                "figure": "throughput",
                                "game": name,
                                "seats": ",".join(seats),
                                "backend": backend,
                                "workers": workers,
                                "games": games,
                                "games_per_second": round(rates[workers], 2),
                            }
                        ),
                        flush=True,
                    )
                speedup = rates[2] / rates[1]
                anchor = anchor_speedup()
                print(
                    json.dumps(
                        {
                            "figure": "speedup_2_workers",
                            "game": name,
                            "backend": backend,
                            "speedup": round(speedup, 2),
                            "anchor_speedup": round(anchor, 2),
                            "efficiency": round(speedup / anchor, 2),
                            "identical_results": outputs[1] == outputs[2],
                            "cpus": cpus,
                            "goal": ">= 1.8 (arne, drop-it)",
                            "met": speedup >= 1.8 if name != "drop-or-stop" else None,
                        }
                    ),
                    flush=True,
                )
        finally:
            if backend == "ray":
                ray.shutdown()


if __name__ == "__main__":
    main()
