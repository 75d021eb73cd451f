"""A board file (spec §3.10) of any shape is a board or a one-line refusal: never another
exception (a designer's typo must not crash `gamenight play drop-it --set board=FILE`)."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.engine.core import BadInput
from gamenight.games.drop_it.board import DEFAULT_BOARD, parse_board

VALID = json.loads(DEFAULT_BOARD.read_text())
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in `doc` a value sits (dict keys and list indices)."""
    found = [prefix] if prefix else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += paths(value, (*prefix, index))
    return found


PLACES = paths(VALID)


def test_the_default_board_parses() -> None:
    assert parse_board(VALID).levels == VALID["levels"]


@settings(max_examples=400, deadline=None)
@given(place=st.sampled_from(PLACES), value=ANY_JSON)
def test_any_value_anywhere_is_a_board_or_one_line(place: tuple[Any, ...], value: Any) -> None:
    doc = copy.deepcopy(VALID)
    inner = doc
    for step in place[:-1]:
        inner = inner[step]
    inner[place[-1]] = value
    try:
        parse_board(doc)
    except BadInput as err:
        assert "\n" not in str(err) and str(err).startswith("board: "), str(err)


@settings(max_examples=100, deadline=None)
@given(doc=ANY_JSON)
def test_any_json_document_is_refused_in_one_line(doc: Any) -> None:
    try:
        parse_board(doc)
    except BadInput as err:
        assert "\n" not in str(err)
