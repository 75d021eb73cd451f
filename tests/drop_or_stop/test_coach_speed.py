"""The coach's first advice at a round's start in bounded work at every table size (issue
45 b): the exact count took 0.01-0.09 s at 2 players, 1.4-7.2 s at 3 and over 120 s at 4.
Now it is exact up to EXACT_POSITIONS positions and estimated from SAMPLES sampled rounds
past that, with the estimate's 95% margin in the advice.

No wall-clock limits here: the work is counted (positions, sampled rounds and turns), and
the CPU time is compared with a fixed piece of work timed beside it (the `unit`, the exact
count of one 2-player round start, five times). The 1 s goal itself is measured by
bench/coach_speed.py.
"""

from __future__ import annotations

import contextlib
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from gamenight.games.drop_or_stop import DropOrStop, DropOrStopState
from gamenight.games.drop_or_stop.coach import EXACT, EXACT_POSITIONS, SAMPLES, advice
from gamenight.games.drop_or_stop.solver import (
    TooCostly,
    exact_count,
    round_from_view,
    sampled_chances,
    win_chances,
)

UNITS = 20  # a first advice's CPU at most this many units (5-8 at 3-4 players; 1 s ~ 20)


class OverBudget(Exception):
    pass


def unit() -> float:
    """CPU seconds of the fixed work the budget is counted in (the least of three runs)."""
    state = DropOrStop.from_options(players=2).start(0)
    seat = state.actors[0]
    situation = round_from_view(state.view(seat), state.events(seat))
    runs = []
    for _ in range(3):
        began = time.process_time()
        for _ in range(5):
            exact_count(situation)
        runs.append(time.process_time() - began)
    return min(runs)


@contextlib.contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Stop the work past `seconds` of CPU (so the old 4-player count fails, not hangs)."""

    def ring(_signum: int, _frame: Any) -> None:
        raise OverBudget(f"over {seconds:.2f} s of CPU")

    old = signal.signal(signal.SIGPROF, ring)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def round_start(players: int, seed: int) -> tuple[DropOrStopState, int]:
    state = DropOrStop.from_options(players=players).start(seed)
    return state, state.actors[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_advice_of_a_round_is_within_its_budget(players: int) -> None:
    budget = UNITS * unit()
    for seed in (0, 1, 2):
        state, seat = round_start(players, seed)
        began = time.process_time()
        with cpu_budget(3 * budget):
            got = advice(state, seat)
        spent = time.process_time() - began
        assert spent <= budget, f"{players} players, seed {seed}: {spent:.2f} s > {budget:.2f}"
        if got["method"] == "exact":
            assert got["positions"] <= EXACT_POSITIONS
            assert all(o["margin"] is None for o in got["options"])
        else:
            assert got["method"] == "sampled" and got["samples"] == SAMPLES
            assert got["steps"] <= 2 * SAMPLES * 40  # a round is at most about 40 turns
        assert all(0 <= o["value"] <= 1 for o in got["options"])
    if players == 2:
        assert got["method"] == "exact" and got["how"] == EXACT  # cheap: exact, as before


def test_an_estimate_says_so_with_its_margin() -> None:
    state, seat = round_start(4, 0)
    with cpu_budget(3 * UNITS * unit()):
        got = advice(state, seat)
    assert got["method"] == "sampled" and "sampled" in got["how"]
    assert all(0 < o["margin"] < 0.03 for o in got["options"])
    assert got["best"] == max(got["options"], key=lambda o: o["value"])["action"]["type"]
    # The same position seen by a seat that cannot tell two deals apart: the same advice.
    twins = [state.determinize(seat, random.Random(k)) for k in (1, 2)]
    assert advice(twins[0], seat) == advice(twins[1], seat) == got


def test_within_budget_the_exact_count_is_the_old_one() -> None:
    """The budget only stops the count: under it, the same floats as win_chances."""
    state, seat = round_start(2, 3)
    situation = round_from_view(state.view(seat), state.events(seat))
    drop, stop, positions = exact_count(situation, EXACT_POSITIONS)
    assert (drop, stop) == win_chances(situation)
    with pytest.raises(TooCostly):
        exact_count(situation, positions - 1)


def positions_with_exact_counts() -> list[tuple[int, int]]:
    """(players, seed) of positions whose exact count takes well under a second."""
    return [(2, 0), (2, 3), (3, 5), (3, 7)]


@pytest.mark.parametrize(("players", "seed"), positions_with_exact_counts())
def test_the_estimate_holds_the_exact_count_within_its_margin(players: int, seed: int) -> None:
    state = DropOrStop.from_options(players=players).start(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 4)):
        mover = state.actors[0]
        state.act(mover, rng.choice(state.actions(mover)))
    seat = state.actors[0]
    situation = round_from_view(state.view(seat), state.events(seat))
    drop, stop, _ = exact_count(situation, 200_000)
    found = sampled_chances(situation, SAMPLES, seed=13)
    assert abs(found.drop - drop) <= found.drop_margin, (found, drop)
    assert abs(found.stop - stop) <= found.stop_margin, (found, stop)
