"""'Why not?' (issue 46 item 3): every Arne choice the rules refuse gets a sentence in player
words, from refusals.py, told only from what the asking player may know."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine.core import IllegalAction
from gamenight.games.arne import actions as A
from gamenight.games.arne.refusals import REASONS

from .helpers import act, to_final

OTHER = REASONS["other"]
JARGON = re.compile(r"\b[ADR]\d+\b|legal:|not legal now|seat \d|\(\w+=|Action\(|_")


def refusal(state, action, seat=None):
    seat = state.actors[0] if seat is None else seat
    with pytest.raises(IllegalAction) as caught:
        state.act(seat, action)
    return str(caught.value)


def test_A33_a_lock_on_a_locked_stack_says_it_is_already_locked(table):
    state = table(hands={1: ["LOCK"]}, displays={0: ["red P500+CRUSH", "red P50+CRUSH+LOCK"]})
    act(state, A.PASS)
    assert refusal(state, A.Lock(0, 1)) == "you can't lock this stack: it is already locked"


def test_A33_a_lock_on_an_uncrushed_point_card_says_where_locks_go(table):
    state = table(hands={1: ["LOCK"]}, displays={0: ["red P500+CRUSH", "red P100"]})
    act(state, A.PASS)
    assert "only on a crushed stack or on a -200" in refusal(state, A.Lock(0, 1))


def test_A32_a_crush_twice_or_on_a_minus200_says_why(table):
    state = table(hands={1: ["CRUSH"]}, displays={0: ["red P500+CRUSH", "red MINUS200", "red P50"]})
    act(state, A.PASS)
    assert refusal(state, A.Crush(0, 0)) == "you can't crush this stack: it is already crushed"
    assert "only point cards can be crushed" in refusal(state, A.Crush(0, 1))


def test_A32_a_crush_with_no_target_on_the_table_says_so(table):
    state = table(hands={1: ["CRUSH"]}, displays={0: ["red P500+CRUSH"]})
    act(state, A.PASS)
    # the page asks with no particular stack (-1) for a card that has no use now
    assert "no stack on the table can be crushed" in refusal(state, A.Crush(-1, -1))


def test_A15_A9_a_black_card_out_of_priority_or_in_the_white_step_says_wait(table):
    state = table(hands={0: ["red P50"], 2: ["CRUSH"]}, displays={0: ["red P500"]})
    assert state.actors[0] == 0 and 2 in state.actors  # player 3 may pass in advance
    assert "wait until it is your chance to answer" in refusal(state, A.Crush(0, 0), seat=2)
    assert "it is not your turn" in refusal(state, A.PlayPoint("P50", "red", -1), seat=2)


def test_A8_A9_one_white_card_per_turn(table):
    state = table(hands={0: ["red P50", "red P100"]})
    act(state, A.PlayPoint("P50", "red", 0))
    assert state.window == 2 and state.actors[0] == 1  # END window, player 2 first
    act(state, A.PASS)
    act(state, A.PASS)
    assert refusal(state, A.PlayPoint("P100", "red", 0)) == (
        "you can't play another white card: one white card per turn"
    )


def test_A21_a_point_card_into_another_colour_or_anothers_display(table):
    state = table(hands={0: ["green P50", "red P100"]})
    assert "only into a display of its own colour" in refusal(state, A.PlayPoint("P100", "red", 1))
    assert "your point cards go into your own display" in refusal(
        state, A.PlayPoint("P50", "green", 1)
    )
    assert (
        refusal(state, A.PlayPoint("P500", "red", 0))
        == "you can't play a red 500: you do not hold one"
    )


def test_A22_a_tripler_on_a_stack_that_has_one(table):
    state = table(hands={0: ["X3"]}, displays={1: ["green P500+X3", "green P50"]})
    assert "already has one" in refusal(state, A.Triple(1, 0))


def test_A23_A27_yourself_is_no_target(table):
    state = table(hands={0: ["TAKE_RANDOM", "SWAP_PLACES"]})
    assert refusal(state, A.TakeRandom(0)) == "you can't choose yourself: choose another player"
    assert refusal(state, A.SwapPlaces(7)) == "you can't do that: there is no such player"


def test_A41_stop_and_white_cards_in_the_final_round(table):
    state = table(hands={1: ["STOP", "red P50"]}, deck_size=0)
    to_final(state)
    while state.actors[0] != 1:
        act(state, A.PASS)
    assert "no turn follows it" in refusal(state, A.Stop())
    assert "only black cards now" in refusal(state, A.PlayPoint("P50", "red", -1))


def test_A29_a_thief_on_an_empty_pile_or_a_stack_without_chameleon(table):
    state = table(hands={1: ["THIEF"]}, displays={0: ["red P500+CHAMELEON", "red P50"]})
    act(state, A.PASS)
    assert refusal(state, A.ThiefDiscard()) == "you can't take from the discard pile: it is empty"
    assert "only a stack with a chameleon" in refusal(state, A.ThiefStack(0, 1))
    assert refusal(state, A.ThiefStack(1, 0)) == "you can't do that: there is no such stack"


def test_A31_a_chameleon_into_the_colour_of_its_card(table):
    state = table(hands={1: ["CHAMELEON", "red P500"]})
    act(state, A.PASS)
    assert "a display of another colour" in refusal(state, A.Chameleon("P500", "red", 0))
    assert "you do not hold one" in refusal(state, A.Chameleon("P100", "red", 1))


def test_A24_A25_a_demand_answered_with_a_card_that_does_not_fit(table):
    state = table(hands={0: ["DEMAND_BLACK"], 1: ["CRUSH", "LOCK", "green P50"]})
    act(state, A.DemandBlack(1))
    while state.phase != 3:  # GIVE
        act(state, A.PASS)
    assert refusal(state, A.Give("P50", "green")) == (
        "you can't hand over a green 50: you were asked for black cards"
    )
    assert "hand over the cards you were asked for" in refusal(state, A.PASS)
    assert "first hand over the cards" in refusal(state, A.Crush(0, 0))


VARIANTS = [
    {"players": 3},
    {"players": 2, "mode": "losing"},
    {"players": 3, "variant": "dummy"},
    {"players": 4, "variant": "team"},
    {"players": 5, "mode": "losing", "variant": "dummy"},
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(which=3, seed=3686, steps=26)  # A30: a -200 into another colour's display (CI)
@given(
    which=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 10**6), steps=st.integers(0, 120)
)
def test_every_refused_action_of_the_action_space_gets_player_words(which, seed, steps):
    """Every action of the fixed action space is refused with a sentence of REASONS (never
    the fallback, no clause ids or engine words) exactly when it is not legal, and the
    sentence depends only on what the player may know: it is the same in a determinized
    copy (other hands and the deck resampled)."""
    game = gamenight.load("arne", **VARIANTS[which])
    rng = random.Random(seed)
    state = game.start(seed)
    for _ in range(steps):
        if state.over:
            return
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    if state.over:
        return
    every = [game.action_at(i) for i in range(game.num_actions)]
    for seat in state.actors[:2]:
        legal = set(state.actions(seat))
        twin = state.determinize(seat, random.Random(seed + 1))
        for action in rng.sample(every, min(150, len(every))):
            reason = state._refusal(seat, action)
            assert (reason is None) == (action in legal), (action, reason)
            if reason is not None:
                assert reason != OTHER, action
                assert not JARGON.search(reason), reason
                assert twin._refusal(seat, action) == reason


field = st.one_of(st.integers(-(2**40), 2**40), st.sampled_from([-1, 0, 1, 2, 3, 99]))
text = st.one_of(st.text(max_size=12), st.sampled_from(["red", "c5", "P50", "X3", "MINUS200", ""]))


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(A.ACTION_TYPES),
    display=field,
    stack=field,
    target=field,
    card=text,
    colour=text,
    seed=st.integers(0, 50),
)
def test_a_hostile_action_gets_a_sentence_never_a_crash(
    kind, display, stack, target, card, colour, seed
):
    """An action parsed from any message (any number, any text in its fields) is refused
    with one of the sentences, or is legal; nothing raises."""
    state = gamenight.load("arne", players=3, variant="dummy").start(seed)
    while state.phase == 0:  # COLOUR
        act(state, state.actions(state.actors[0])[0])
    values = {"display": display, "stack": stack, "target": target, "card": card, "colour": colour}
    fields = [f for f in kind.__dataclass_fields__ if f != "kind"]
    action = kind(**{f: values.get(f, True) for f in fields})
    for seat in state.actors:
        reason = state._refusal(seat, action)
        assert reason is None or (reason and "\n" not in reason and reason != OTHER)
