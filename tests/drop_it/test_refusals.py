"""'Why not?' (issue 46 item 3): a Drop It move the rules refuse gets a sentence in player
words (refusals.py): no clause ids, no 'side', no Python reprs."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.engine.core import IllegalAction
from gamenight.games.drop_it import KEEP, SPEND, Drop
from gamenight.games.drop_it.state import DropItState

from .helpers import game

JARGON = re.compile(r"\b[DVN]\d+\b|\bside\b|supply|Drop\(|nan|inf\b|rad\b")


def refusal(state: DropItState, action: object, seat: int) -> str:
    with pytest.raises(IllegalAction) as caught:
        state.act(seat, action)  # type: ignore[arg-type]
    return str(caught.value)


def test_D10_another_sides_piece_names_your_own() -> None:
    s = game().start(0)
    words = refusal(s, Drop("blue-circle", 100.0, 0.0), 0)
    assert words.startswith("you can't drop a blue circle: it is not one of your pieces (yours:")
    assert "red circle" in words and not JARGON.search(words)


def test_D10_a_piece_already_dropped() -> None:
    s = game().start(0)
    s.act(0, Drop("red-circle", 100.0, 0.0))
    s.act(1, Drop("blue-circle", 100.0, 0.0))
    words = refusal(s, Drop("red-circle-0", 100.0, 0.0), 0)
    assert words == (
        "you can't drop that red circle: it is on the board already; take another of them"
    )


def test_D33_no_such_piece_says_what_a_piece_is() -> None:
    s = game().start(0)
    words = refusal(s, Drop("purple-blob", 100.0, 0.0), 0)
    assert "there is no such piece" in words and "circle" in words and "red" in words


def test_D11_strict_outside_the_slot_in_millimetres() -> None:
    s = game(strict=True).start(0)
    words = refusal(s, Drop("red-square", 5.0, 0.0), 0)
    assert words == (
        "you can't drop a red square there: turned this way it fits the slot only "
        "between 18.5 and 221.5 mm"
    )


def test_V3_joker_only_right_after_a_broken_rule(joker_pending: DropItState) -> None:
    s = joker_pending
    assert "first spend a joker or keep it" in refusal(s, Drop("red-circle", 100.0, 0.0), 0)
    s.act(0, KEEP)
    assert refusal(s, SPEND, 1) == (
        "you can't use a joker now: only right after a drop that broke a rule"
    )


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 120.0, -1.0, 1e300, math.nan, math.inf]),
)


@settings(max_examples=300, deadline=None)
@given(
    piece=st.one_of(
        st.text(max_size=20),
        st.sampled_from(["red-circle", "blue-circle-2", "red-circle-9", "green-", "-", ""]),
    ),
    x=numbers,
    angle=numbers,
    depth=numbers,
    strict=st.booleans(),
)
def test_a_hostile_drop_gets_player_words_never_a_crash(
    piece: str, x: float, angle: float, depth: float, strict: bool
) -> None:
    s = game(strict=strict).start(0)
    reason = s._refusal(0, Drop(piece, x, angle, depth))
    if reason is not None:
        assert reason.startswith("you can't") and "\n" not in reason
        assert not JARGON.search(reason.replace(f'"{piece[:30]}"', "")), reason
