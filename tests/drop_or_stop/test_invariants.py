"""Invariants over random Drop or Stop games (hypothesis) and the shared contract checker."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine import IllegalAction, check, snapshot
from tests.drop_or_stop.helpers import all_cards

OPTION_SETS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "deck": "descending"},
    {"players": 4, "deck": "1to6", "allow_drop_when_overflowed": False},
    {"players": 2, "max_rounds": 2, "first_start_seat": 1},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_contract_checker_passes(options):
    assert check(gamenight.load("drop-or-stop", **options), games=4) > 0


games_ = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "deck": st.sampled_from(["standard", "descending", "1to6"]),
        "allow_drop_when_overflowed": st.booleans(),
    }
)


def _play(data, options, seed, steps=400):
    """A game driven by hypothesis: each decision is drawn; yields the state every step."""
    state = gamenight.load("drop-or-stop", **options).start(seed)
    for _ in range(steps):
        if state.over:
            return
        yield state
        seat = state.actors[0]
        state.act(seat, data.draw(st.sampled_from(state.actions(seat))))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), options=games_, seed=st.integers(0, 2**31))
def test_R26_cards_never_created_or_lost(data, options, seed):
    for state in _play(data, options, seed):
        assert all_cards(state) == list(range(39))
        counts: dict[str, int] = {}
        for c in all_cards(state):
            counts[state.game.card_id[c]] = counts.get(state.game.card_id[c], 0) + 1
        assert counts == {k.id: k.copies for k in state.game.deck.kinds}


@settings(max_examples=40, deadline=None)
@given(data=st.data(), options=games_, seed=st.integers(0, 2**31))
def test_R27_replay_is_exact(data, options, seed):
    states = list(_play(data, options, seed))
    if not states:
        return
    state = states[-1]
    again = state.game.replay(seed, state.history)
    assert snapshot(again) == snapshot(state)
    assert again.draw == state.draw and again.hands == state.hands


@settings(max_examples=30, deadline=None)
@given(data=st.data(), options=games_, seed=st.integers(0, 2**31))
def test_R25_no_seat_sees_another_seats_hand(data, options, seed):
    """A seat's view and events stay the same however the other hands are resampled
    (test_R25_determinize_really_resamples_other_hands shows the resampling bites)."""
    rng = random.Random(seed)
    for state in _play(data, options, seed, steps=60):
        for seat in range(state.game.players):
            other = state.determinize(seat, rng)
            assert other.view(seat) == state.view(seat)
            assert other.events(seat) == state.events(seat)
            assert other.info_key(seat) == state.info_key(seat)
            view = state.view(seat)
            assert all(set(s) & {"hand", "cards"} == set() for s in view["seats"])
            for event in state.events(seat):
                assert event.kind != "hand" or event.data["seat"] == seat


def test_R25_determinize_really_resamples_other_hands():
    state = gamenight.load("drop-or-stop", players=3).start(5)
    rng = random.Random(1)
    samples = {tuple(map(tuple, state.determinize(0, rng).hands[1:])) for _ in range(20)}
    assert len(samples) > 10
    assert all(state.determinize(0, rng).hands[0] == state.hands[0] for _ in range(5))


@settings(max_examples=30, deadline=None)
@given(data=st.data(), options=games_, seed=st.integers(0, 2**31))
def test_every_legal_action_accepted_every_other_refused(data, options, seed):
    for state in _play(data, options, seed, steps=80):
        game = state.game
        seat = state.actors[0]
        legal = state.actions(seat)
        for index in range(game.num_actions):
            action = game.action_at(index)
            trial = state.copy()
            before = snapshot(trial)
            if action in legal:
                trial.act(seat, action)
            else:
                with pytest.raises(IllegalAction) as err:
                    trial.act(seat, action)
                assert err.value.reason
                assert snapshot(trial) == before
        for other in range(game.players):
            if other != seat:
                with pytest.raises(IllegalAction, match="owes no decision"):
                    state.copy().act(other, legal[0])
