"""A deck file of any shape is a deck or a one-line refusal: never another exception."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.engine.core import BadInput
from gamenight.games.drop_or_stop.components import deck_from_json, preset_json
from tests.drop_it.test_board_file import ANY_JSON, paths

VALID = preset_json("standard")
PLACES = paths(VALID)


def test_the_standard_deck_parses() -> None:
    assert deck_from_json(VALID)


@settings(max_examples=300, deadline=None)
@given(place=st.sampled_from(PLACES), value=ANY_JSON)
def test_any_value_anywhere_is_a_deck_or_one_line(place: tuple[Any, ...], value: Any) -> None:
    doc = copy.deepcopy(VALID)
    inner = doc
    for step in place[:-1]:
        inner = inner[step]
    inner[place[-1]] = value
    try:
        deck_from_json(doc)
    except BadInput as err:
        assert "\n" not in str(err), str(err)


@settings(max_examples=100, deadline=None)
@given(doc=ANY_JSON)
def test_any_json_document_is_refused_in_one_line(doc: Any) -> None:
    try:
        deck_from_json(doc)
    except BadInput as err:
        assert "\n" not in str(err)
