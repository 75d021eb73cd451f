"""Arne's coach (issue 13, item 8): the hard bot's search from the seat's knowledge only."""

from __future__ import annotations

import random

import pytest

from gamenight.bots import search_settings
from gamenight.bots.ismcts import ISMCTSBot
from gamenight.games.arne import Arne
from gamenight.games.arne.coach import SEED, SHOWN, advice
from gamenight.games.arne.state import ArneState


def position(players: int, seed: int, min_options: int = 4) -> ArneState:
    """A game played at random until the seat to act has a real choice to make."""
    state = Arne.from_options(players=players).start(seed)
    rng = random.Random(seed)
    while True:
        seat = state.actors[0]
        legal = state.actions(seat)
        if len(legal) >= min_options and legal[0].kind != "choose_colour":
            return state
        state.act(seat, rng.choice(legal))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
def test_the_advice_is_equal_on_states_the_seat_cannot_tell_apart(players: int, seed: int) -> None:
    state = position(players, seed)
    seat = state.actors[0]
    twins = [state.determinize(seat, random.Random(k)) for k in (10, 11)]
    assert twins[0].hands != twins[1].hands  # the hidden cards really differ
    assert twins[0].info_key(seat) == twins[1].info_key(seat) == state.info_key(seat)
    assert advice(twins[0], seat) == advice(twins[1], seat) == advice(state, seat)


def test_the_advice_is_the_best_three_legal_plays_by_search_share() -> None:
    state = position(2, 3)
    seat = state.actors[0]
    got = advice(state, seat)
    legal = [a.to_json() for a in state.actions(seat)]
    options = got["options"]
    assert len(options) == min(SHOWN, len(legal))
    assert all(o["action"] in legal for o in options)
    shares = [o["share"] for o in options]
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1
    assert all(0 <= o["value"] <= 1 for o in options)
    assert got["iterations"] == 1000 and got["players"] == 2
    # The first is the hard bot's own choice from the same search.
    bot = ISMCTSBot(seed=SEED, **search_settings("arne", 2))
    assert bot.choose(state, seat).to_json() == options[0]["action"]


def test_a_forced_move_needs_no_search() -> None:
    state = Arne.from_options(players=2).start(5)
    rng = random.Random(5)
    while len(state.actions(state.actors[0])) != 1:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    got = advice(state, state.actors[0])
    assert got["iterations"] == 0 and got["options"][0]["share"] == 1.0
