"""The review ranks a played move by the coach's own numbers (issue 45): Drop or Stop's
review called "Stop — the coach's #2; it preferred: Drop 68.3%" a mistake right above "Stop
100.0%", because the rank was the played action's place in the fixed [Drop, Stop] list.
Now the rank is the number of options the coach valued higher, for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine.registry import spec
from gamenight.games.arne.coach import REVIEW_ITERATIONS
from gamenight.games.drop_or_stop.coach import advice as drop_or_stop_advice
from gamenight.server.review_coach import TIE, best_of, rank_of, review_step

COACHED = [name for name in gamenight.games() if spec(name).coach]


def option(kind: str, value: float | None, margin: float | None = None) -> dict[str, Any]:
    return {"action": {"type": kind}, "label": kind.title(), "value": value, "margin": margin}


def test_a_stop_worth_more_than_the_drop_is_the_coachs_choice() -> None:
    """The issue's page: Drop 68.3%, Stop 100.0%, Stop played."""
    advice = {"options": [option("drop", 0.683), option("stop", 1.0)]}
    assert rank_of({"type": "stop"}, advice) == 0
    assert rank_of({"type": "drop"}, advice) == 1
    assert best_of(advice) == 1


def test_equal_values_are_all_the_coachs_choice() -> None:
    advice = {"options": [option("drop", 0.25), option("stop", 0.25 + TIE / 10)]}
    assert rank_of({"type": "drop"}, advice) == rank_of({"type": "stop"}, advice) == 0


def test_estimates_within_their_margins_are_not_called_a_mistake() -> None:
    close = {"options": [option("drop", 0.46, 0.013), option("stop", 0.45, 0.013)]}
    assert rank_of({"type": "stop"}, close) == 0
    apart = {"options": [option("drop", 0.50, 0.013), option("stop", 0.45, 0.013)]}
    assert rank_of({"type": "stop"}, apart) == 1
    assert best_of(close) == best_of(apart) == 0


def test_options_without_values_keep_the_coachs_order_and_bad_values_do_not_count() -> None:
    only = {"options": [{"action": {"type": "keep"}, "value": None}]}
    assert rank_of({"type": "keep"}, only) == 0 and best_of(only) == 0
    odd = {"options": [option("drop", float("nan")), option("stop", 0.1), "junk"]}
    assert rank_of({"type": "stop"}, odd) == 0 and best_of(odd) == 1
    assert rank_of({"type": "pass"}, odd) is None and rank_of({"type": "pass"}, {}) is None


values = st.floats(min_value=0, max_value=1, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(values, min_size=1, max_size=6), st.data())
def test_rank_counts_the_options_worth_more(worths: list[float], data: st.DataObject) -> None:
    """Rank 0 exactly for the highest valued options; `best` is one of them."""
    advice = {"options": [option(f"a{i}", v) for i, v in enumerate(worths)]}
    i = data.draw(st.integers(0, len(worths) - 1))
    rank = rank_of({"type": f"a{i}"}, advice)
    assert rank == sum(1 for v in worths if v > worths[i] + TIE)
    assert (rank == 0) == (worths[i] >= max(worths) - TIE)
    assert worths[best_of(advice)] >= max(worths) - TIE


def positions(name: str, seed: int, count: int) -> list[tuple[Any, Any, int]]:
    """(game, state, seat) at the first `count` decisions with a choice of a random game."""
    game = spec(name).game_class().from_options(players=2)
    state = game.start(seed)
    rng = random.Random(seed)
    found: list[tuple[Any, Any, int]] = []
    while state.actors and len(found) < count:
        seat = state.actors[0]
        legal = state.actions(seat)
        if len(legal) >= 2:
            found.append((game, state.copy(), seat))
        state.act(seat, rng.choice(legal))
    return found


@pytest.mark.parametrize("name", COACHED)
def test_every_games_review_ranks_its_highest_valued_option_first(name: str) -> None:
    """For every coached game, on review advice: an option is ranked 0 exactly when no
    option is worth more, and the one the page names as preferred is worth the most."""
    count = 1 if name == "drop-it" else 4  # Drop It's coach simulates its drops (1 s)
    checked = 0
    for game, state, seat in positions(name, 3, count):
        _, advice = review_step(game, 3, state, [], seat)
        assert advice is not None
        valued = [o["value"] for o in advice["options"] if o.get("value") is not None]
        top = max(valued, default=None)
        for o in advice["options"]:
            rank = rank_of(o["action"], advice)
            if o.get("value") is not None and top is not None:
                assert (rank == 0) == (o["value"] >= top - TIE), (o, advice)
        best = advice["options"][best_of(advice)]
        assert top is None or best["value"] == top
        checked += 1
    assert checked == count


def test_a_seat_that_always_takes_the_coachs_best_is_never_called_wrong() -> None:
    """Drop or Stop, 2 players: seat 0 plays the coach's `best` at every decision (Stop
    whenever stopping wins at least as often); the review ranks every one of them 0."""
    game = spec("drop-or-stop").game_class().from_options(players=2)
    state, rng, history = game.start(11), random.Random(11), []
    while state.actors:
        seat = state.actors[0]
        legal = state.actions(seat)
        if seat == 0 and len(legal) >= 2:
            action = {"type": drop_or_stop_advice(state, 0)["best"]}
        else:
            action = rng.choice(legal).to_json()
        history.append((seat, action))
        state.act(seat, game.action_from_json(action))
    reviewed, stops, last, position = 0, 0, 0, None
    for k, (seat, played) in enumerate(history):
        if seat != 0:
            continue
        position, advice = review_step(game, 11, position, history[last:k], 0)
        last = k
        if advice is None:
            continue
        reviewed += 1
        stops += played["type"] == "stop"
        assert rank_of(played, advice) == 0, (played, advice)
    assert reviewed >= 3 and stops >= 1  # a Stop was reviewed: the old rank called it #2


def test_arnes_review_searches_on_the_review_budget() -> None:
    """Issue 45 (c): a review asks every decision of a game, so Arne's coach searches
    REVIEW_ITERATIONS there (the live coach 1,000): a 60-decision review is 18,000 searches,
    not 60,000."""
    [(game, state, seat)] = positions("arne", 1, 1)
    _, advice = review_step(game, 1, state, [], seat)
    assert advice is not None and advice["iterations"] == REVIEW_ITERATIONS
    assert 60 * advice["iterations"] <= 20_000
