"""Simulation throughput with 1 and 2 workers on each backend (processes, ray).

Prints one JSON line per figure: games per second for each game, backend and worker count,
then the speed-up of 2 workers over 1 per game and backend, and whether the results were
identical (they must be: seeds are derived, not drawn). The pool (worker processes, or the
Ray runtime with that many CPUs) is part of the timed run for processes and started before
the clock for Ray (a runtime is started once and reused). Goal: speed-up >= 1.8 on a 2-core
machine for Arne and Drop It. Other load on the machine lowers the figures.

Usage: python bench/scale.py [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from typing import Any

from gamenight.sim.runner import Job, run

# (game, seats, games at scale 1): about 20 s for one worker each.
CASES: list[tuple[str, tuple[str, ...], int]] = [
    ("arne", ("bot:greedy",) * 4, 320),
    ("drop-it", ("bot:random",) * 2, 10),
    ("drop-or-stop", ("bot:threshold",) * 3, 5000),
]


def timed(job: Job, games: int, workers: int, backend: str) -> tuple[float, list[Any]]:
    start = time.perf_counter()
    results = run(job, games, workers=workers, backend=backend)
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--backends", default="processes,ray")
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    for backend in args.backends.split(","):
        if backend == "ray":
            import ray

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
                rates = {}
                outputs = {}
                for workers in (1, 2):
                    seconds, results = timed(job, games, workers, backend)
                    rates[workers] = games / seconds
                    outputs[workers] = results
                    print(
                        json.dumps(
                            {
                                "figure": "throughput",
                                "game": name,
                                "seats": ",".join(seats),
                                "backend": backend,
                                "workers": workers,
                                "games": games,
                                "seconds": round(seconds, 2),
                                "games_per_second": round(games / seconds, 2),
                            }
                        ),
                        flush=True,
                    )
                speedup = rates[2] / rates[1]
                print(
                    json.dumps(
                        {
                            "figure": "speedup_2_workers",
                            "game": name,
                            "backend": backend,
                            "speedup": round(speedup, 2),
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
