"""The `gamenight` command's start-up time (issue 45, item 6).

Runs `gamenight --help` and `gamenight games` as a person does (the console script, this
checkout's `src` first on PYTHONPATH), RUNS times each, one after the other, output thrown
away. Figures: the median wall time of each (and the fastest, what a quiet machine gives),
the CPU time (user + system) of the median run, and the anchor measured in the same run:
a bare `python -c pass`, and each command's median as a ratio of it. Goal: `--help` and
`games` each in at most 0.3 s (median). Before the lazy imports: `--help` 1.2-1.5 s and
`games` 2.5-3 s (every game imported, numpy and pymunk with them; `games` built each game
24 times).

Usage: python bench/cli.py [RUNS]
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from goals import figure, load_average, serve_env

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 9
GOAL_S = 0.3
GAMENIGHT = str(Path(sys.executable).parent / "gamenight")
COMMANDS = {"help": [GAMENIGHT, "--help"], "games": [GAMENIGHT, "games"]}
ANCHOR = [sys.executable, "-c", "pass"]


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_run(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(median wall, fastest wall, CPU of the median run) over RUNS runs, after one
    unmeasured run (bytecode written, files in the page cache)."""
    timed(argv, env)
    runs = sorted(timed(argv, env) for _ in range(RUNS))
    wall, cpu = runs[len(runs) // 2]
    return wall, runs[0][0], cpu


def run() -> None:
    env = serve_env(Path(tempfile.mkdtemp(prefix="gamenight-bench-")), COLUMNS="80")
    anchor, anchor_best, _ = median_run(ANCHOR, env)
    figure("cli_python_start_s", value=round(anchor, 3), fastest=round(anchor_best, 3))
    for name, argv in COMMANDS.items():
        wall, best, cpu = median_run(argv, env)
        figure(
            f"cli_{name}_start_s",
            f"`gamenight {argv[1]}` in <= {GOAL_S} s (median of {RUNS} runs)",
            wall <= GOAL_S,
            value=round(wall, 3),
            fastest=round(best, 3),
            cpu_s=round(cpu, 3),
            ratio_to_python_start=round(wall / anchor, 1),
            load_average=load_average(),
        )


if __name__ == "__main__":
    run()
