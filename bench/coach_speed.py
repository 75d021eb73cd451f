"""The coach's speed (issue 45): Drop or Stop's first advice of a round, and the review of a
60-decision Arne game.

1. Time to the first advice at a round's start (the seat to act first, nothing drawn yet)
   at 2, 3 and 4 players, the worst of SEEDS deals, in this process. Goal: within 1 s at
   every size. Before: 0.01-0.09 s at 2 players, 1.4-7.2 s at 3, over 120 s at 4 (the exact
   count; now exact up to its budget, then an estimate from sampled rounds with its margin).
2. The review of an Arne game in which the reviewed seat made DECISIONS decisions (2
   players, random play, cut at the seat's DECISIONS-th; about half of them with a choice,
   which the coach searches), computed as the server does: review_coach's decision jobs
   one after another in a pool of two worker processes, from the first job to the last.
   Goal: within 20 s. Before: 119 s (the live coach's 1,000-iteration search at every
   decision; `--live` measures that again).

Usage: python bench/coach_speed.py [SEEDS] [DECISIONS] [--live]
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
import types
from typing import Any

from gamenight.engine.registry import spec
from gamenight.games.drop_or_stop import DropOrStop
from gamenight.games.drop_or_stop.coach import advice
from gamenight.server import review_coach, workers
from gamenight.server.budget import Asker
from gamenight.server.coach import run_advice
from goals import figure, load_average

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
SEEDS = int(ARGS[0]) if ARGS else 5
DECISIONS = int(ARGS[1]) if len(ARGS) > 1 else 60
LIVE = "--live" in sys.argv


def first_advice(players: int) -> tuple[float, float, str]:
    """The worst wall and CPU seconds of the first advice over SEEDS round starts."""
    wall = cpu = 0.0
    methods = set()
    for seed in range(SEEDS):
        state = DropOrStop.from_options(players=players).start(seed)
        seat = state.actors[0]
        began, began_cpu = time.perf_counter(), time.process_time()
        got = advice(state, seat)
        wall = max(wall, time.perf_counter() - began)
        cpu = max(cpu, time.process_time() - began_cpu)
        methods.add(got["method"])
    return wall, cpu, "+".join(sorted(methods))


def arne_game(decisions: int, seed: int = 0) -> tuple[Any, list[tuple[int, Any]]]:
    """A 2-player Arne game played at random, cut after seat 0's `decisions`th decision
    (seed 0 has 62, 35 of them with a choice)."""
    game = spec("arne").game_class().from_options(players=2)
    state, rng, history, made = game.start(seed), random.Random(seed), [], 0
    while state.actors and made < decisions:
        seat = state.actors[0]
        legal = state.actions(seat)
        made += seat == 0
        action = rng.choice(legal)
        history.append((seat, action.to_json()))
        state.act(seat, action)
    return game, history


def live_step(game: Any, seed: Any, state: Any, moves: list[Any], seat: int) -> Any:
    """review_step with the live coach's budget (for --live)."""
    if state is None:
        state = game.start(seed)
    for s, obj in moves:
        state.act(s, game.action_from_json(obj))
    if len(state.actions(seat)) < 2:
        return state, None
    return state, run_advice(game.name, state, seat)


async def review_seconds(game: Any, history: list[tuple[int, Any]], seed: int) -> tuple[float, int]:
    """The review's seconds, and how many decisions it searched (those with a choice)."""
    pool = workers.WorkerPool(lambda: workers.make_pool("process", 2), workers_n=2)
    try:
        await pool.run(workers.warm)
        reviews = review_coach.Reviews(lambda: types.SimpleNamespace(pool=pool))  # type: ignore[arg-type, return-value]
        if LIVE:
            original = reviews.step

            async def step(asker: Asker, *args: Any) -> Any:
                return await pool.run_for(asker, "review", live_step, *args)

            reviews.step = step  # type: ignore[method-assign]
            del original
        review = review_coach.Review(seat=0, total=sum(1 for s, _ in history if s == 0))
        began = time.perf_counter()
        await reviews.compute(review, game, seed, history, Asker("bench", "127.0.0.1"))
        spent = time.perf_counter() - began
        assert review.error is None and review.done == review.total == DECISIONS, review.error
        return spent, len(review.steps)
    finally:
        pool.shutdown()


def main() -> None:
    for players in (2, 3, 4):
        wall, cpu, method = first_advice(players)
        figure(
            f"drop_or_stop_first_advice_{players}p_s",
            goal="<= 1 s at a round's start",
            met=wall <= 1.0,
            value=round(wall, 3),
            cpu=round(cpu, 3),
            method=method,
            seeds=SEEDS,
        )
    game, history = arne_game(DECISIONS)
    seconds, searched = asyncio.run(review_seconds(game, history, 0))
    figure(
        f"arne_review_{DECISIONS}_decisions_s",
        goal="<= 20 s",
        met=seconds <= 20.0,
        value=round(seconds, 1),
        budget="live coach (1,000 iterations)" if LIVE else "review (300 iterations)",
        decisions=DECISIONS,
        searched=searched,
        per_search_s=round(seconds / max(1, searched), 3),
    )
    figure("load_average", value=load_average())


if __name__ == "__main__":
    main()
