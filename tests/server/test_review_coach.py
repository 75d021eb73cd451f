"""The coach's review of a finished game (issue 13, item 8): the positions carried from job
to job are the game's own, and each decision gets the advice the coach gives there."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamenight.engine.core import Game
from gamenight.engine.registry import spec
from gamenight.server.coach import run_advice
from gamenight.server.review_coach import rank_of, review_step


def played_game(game: Game, seed: int, cap: int) -> list[tuple[int, Any]]:
    state = game.start(seed)
    rng = random.Random(seed)
    history = []
    while state.actors and len(history) < cap:
        seat = state.actors[0]
        action = rng.choice(state.actions(seat))
        history.append((seat, action.to_json()))
        state.act(seat, action)
    return history


@pytest.mark.parametrize(
    ("name", "options"), [("drop-or-stop", {"players": 2}), ("arne", {"players": 3})]
)
def test_each_decision_is_reviewed_on_the_position_it_was_made_in(name: str, options: dict) -> None:
    game = spec(name).game_class().from_options(**options)
    history = played_game(game, 3, cap=40)
    seat = 0
    state, last, reviewed = None, 0, 0
    for k, (s, played) in enumerate(history):
        if s != seat:
            continue
        state, advice = review_step(game, 3, state, history[last:k], seat)
        last = k
        truth = game.start(3)
        for t, obj in history[:k]:
            truth.act(t, game.action_from_json(obj))
        assert state.info_key(seat) == truth.info_key(seat)
        if len(truth.actions(seat)) < 2:
            assert advice is None
            continue
        reviewed += 1
        assert advice == run_advice(name, truth, seat, review=True)
        rank = rank_of(played, advice)
        assert rank is None or any(o["action"] == played for o in advice["options"])
    assert reviewed >= 1


def test_rank_of_finds_the_played_action_among_the_options() -> None:
    advice = {"options": [{"action": {"type": "drop"}}, {"action": {"type": "stop"}}]}
    assert rank_of({"type": "drop"}, advice) == 0
    assert rank_of({"type": "stop"}, advice) == 1
    assert rank_of({"type": "pass"}, advice) is None
    assert rank_of({"type": "pass"}, {}) is None
