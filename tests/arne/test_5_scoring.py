"""Spec section 5: the formula and the worked examples of 5.2 (A45, A46)."""

import math

from hypothesis import given
from hypothesis import strategies as st

from gamenight.games.arne import actions as A
from gamenight.games.arne.components import FACE
from gamenight.games.arne.scoring import ScoredStack, active, display_score, player_scores
from tests.arne.helpers import act, to_final


def S(base, **kw):
    return ScoredStack(base, **kw)


def test_A45_example_1_red_display_4500():
    stacks = [
        S("P1000"),
        S("P500", x3=True),
        S("P100", crush=True),
        S("P50", crush=True, lock=True),
        S("X2"),
        S("MINUS200", x3=True),
        S("MINUS200", chameleon=True, lock=True),
    ]
    assert display_score(stacks) == 4500


def test_A45_example_2_x2_x3_crush_lock():
    base = [S("P200"), S("P100")]
    assert display_score([*base, S("X2", x3=True)]) == 1800
    assert display_score([*base, S("X2", x3=True, crush=True)]) == 300
    assert display_score([*base, S("X2", x3=True, crush=True, lock=True)]) == 1800


def test_A45_example_3_two_x2_multiply():
    assert display_score([S("P1000"), S("X2"), S("X2", chameleon=True)]) == 4000


def test_A45_example_4_negative_score():
    assert display_score([S("X2"), S("MINUS200")]) == -200


def test_A45_minus200_never_doubled_and_locked_is_void():
    assert display_score([S("P100"), S("X2"), S("MINUS200")]) == 0
    assert display_score([S("MINUS200", x3=True)]) == -600
    assert display_score([S("MINUS200", lock=True)]) == 0


def test_A45_example_5_chameleon_and_thief_sequence():
    yellow = [S("P1000", chameleon=True)]
    assert display_score(yellow) == 1000
    blue = [S("P1000")]  # stolen, chameleon removed
    assert display_score(blue) == 1000
    assert display_score([S("P1000", crush=True)]) == 0
    assert display_score([S("P1000", crush=True, lock=True)]) == 1000


def test_A52_example_6_dummy_adds_to_controller():
    scores = player_scores([1500, 0, 0, 700], [0, 1, 2], dummy_display=3, dummy_controller=0)
    assert scores[0] == 2200


def test_A46_A54_scores_by_seat_and_team():
    assert player_scores([10, 20, 30], [2, 0, 1]) == [30, 10, 20]
    assert player_scores([10, 20, 30, 40], [0, 1, 2, 3], team_of_seat=[0, 1, 0, 1]) == [
        40,
        60,
        40,
        60,
    ]


def test_A45_live_preview_in_every_view(table):
    state = table(displays={0: ["red P200", "red P100", "red X2+X3"]})
    view = state.view(2)
    assert view["displays"][0]["score"] == 1800 and view["scores"][0] == 1800


def test_A46_score_by_the_seat_held_at_the_end(table):
    state = table(hands={0: ["SWAP_PLACES"]}, displays={1: ["green P1000"]}, deck_size=0)
    act(state, A.SwapPlaces(1))
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.outcome().scores[0] == 1000 and state.outcome().winners == (0,)


@given(
    st.lists(
        st.builds(
            ScoredStack,
            st.sampled_from(["P50", "P100", "P200", "P500", "P1000", "X2", "MINUS200"]),
            st.booleans(),
            st.booleans(),
            st.booleans(),
            st.booleans(),
        ),
        max_size=8,
    )
)
def test_A45_score_counts_exactly_the_active_stacks(stacks):
    """5.1 / A45 as written: POINTS * FACTOR - PENALTY over the stacks `active` keeps
    (display_score has the test inlined, for speed)."""
    kept = [s for s in stacks if active(s)]
    mult = [3 if s.x3 else 1 for s in kept]
    points = sum(
        FACE[s.base] * m
        for s, m in zip(kept, mult, strict=True)
        if s.base not in ("X2", "MINUS200")
    )
    factor = math.prod(2 * m for s, m in zip(kept, mult, strict=True) if s.base == "X2")
    penalty = sum(200 * m for s, m in zip(kept, mult, strict=True) if s.base == "MINUS200")
    assert display_score(stacks) == points * factor - penalty
