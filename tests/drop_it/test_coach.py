"""Drop It's coach (issue 13, item 8): the planner's best drops, from the seat's knowledge."""

from __future__ import annotations

import random

import pytest

from gamenight.games.drop_it import DropIt, DropItState
from gamenight.games.drop_it.bots import PlannerBot
from gamenight.games.drop_it.coach import SHOWN, advice, worth


def after(drops: int, **options: object) -> DropItState:
    """A game after `drops` planner drops (jokers kept)."""
    state = DropIt.from_options(**options).start(3)
    bot = PlannerBot(seed=1, samples=4)
    for _ in range(drops):
        seat = state.actors[0]
        state.act(seat, bot.choose(state, seat))
    return state


@pytest.mark.parametrize("options", [{}, {"jitter": True}])
def test_the_advice_is_equal_on_states_the_seat_cannot_tell_apart(options: dict) -> None:
    state = after(2, **options)
    seat = state.actors[0]
    twins = [state.determinize(seat, random.Random(k)) for k in (1, 2)]
    assert twins[0].game_seed != twins[1].game_seed  # the future hand noise differs
    assert advice(twins[0], seat) == advice(twins[1], seat) == advice(state, seat)


def test_without_jitter_the_expected_points_are_what_the_drop_scores() -> None:
    state = after(2)
    seat = state.actors[0]
    got = advice(state, seat)
    options = got["options"]
    assert len(options) == SHOWN
    points = [o["points"] for o in options]
    assert points == sorted(points, reverse=True)
    for option in options:
        trial = state.copy()
        trial.act(seat, state.game.action_from_json(option["action"]))
        record = trial.pending or trial.records[-1]
        assert worth(record) == option["points"]
        # The ghost is where the piece came to rest.
        pose = next(p for p in trial.poses if p[0] == record["piece"])
        assert option["rest"] == {"x": pose[1], "y": pose[2], "angle": pose[3]}
        # Advised as the page sends it: x in hundredths of a mm, angle in 1e-4 rad.
        assert round(option["action"]["x"], 2) == option["action"]["x"]
        assert round(option["action"]["angle"], 4) == option["action"]["angle"]


def test_at_the_joker_step_the_coach_says_what_the_planner_would_do() -> None:
    state = DropIt.from_options(jokers=True).start(0)
    rng = random.Random(0)
    while state.pending is None:  # V3: a broken rule with a joker in hand
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    got = advice(state, state.actors[0])
    raw = state.pending["raw_points"]
    assert got["joker"] == {"type": "joker", "spend": raw >= 4}
    assert [o["action"] for o in got["options"]] == [got["joker"]]
