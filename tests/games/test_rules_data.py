"""The rules in player words (issue 46, item 2): every game has `rules.py` of the same shape,
every clause it cites exists in its spec, and every card type and piece has an entry (the
lists come from the game's own components)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gamenight
from gamenight.engine.registry import spec
from gamenight.engine.spec import RulesEntry, RulesSection

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
ALL = gamenight.games()
CLAUSE = re.compile(r"^[A-Z]\d+[a-z]?$")


@pytest.mark.parametrize("name", ALL)
def test_every_game_has_rules_of_the_same_shape(name: str) -> None:
    rules = spec(name).player_rules()
    assert isinstance(rules.ENTRIES_TITLE, str) and rules.ENTRIES_TITLE
    assert rules.SECTIONS and all(isinstance(s, RulesSection) for s in rules.SECTIONS)
    assert rules.ENTRIES and all(isinstance(e, RulesEntry) for e in rules.ENTRIES)
    for keys in ([s.key for s in rules.SECTIONS], [e.key for e in rules.ENTRIES]):
        assert len(keys) == len(set(keys)), keys
    for section in rules.SECTIONS:
        assert section.title and section.paragraphs and section.clauses, section.key
        assert all(p.strip() and "  " not in p for p in section.paragraphs), section.key
    for entry in rules.ENTRIES:
        assert entry.name and entry.rule and entry.clauses, entry.key
        assert re.fullmatch(r"[\w-]+", entry.key), entry.key


@pytest.mark.parametrize("name", ALL)
def test_every_cited_clause_exists_in_the_spec(name: str) -> None:
    rules = spec(name).player_rules()
    cited = {c for part in (*rules.SECTIONS, *rules.ENTRIES) for c in part.clauses}
    assert all(CLAUSE.match(c) for c in cited), sorted(cited)
    path = SHARED / spec(name).rules
    if not path.is_file():
        pytest.skip(f"no spec at {path} (the shared rules are not checked out here)")
    text = path.read_text()
    missing = [c for c in sorted(cited) if not re.search(rf"(?<!\w){c}(?!\w)", text)]
    assert not missing, f"{name} cites clauses its spec lacks: {missing}"


def _entry_keys(name: str) -> set[str]:
    return {e.key for e in spec(name).player_rules().ENTRIES}


def test_every_arne_card_type_has_an_entry() -> None:
    from gamenight.games.arne.components import TYPE_IDS

    missing = set(TYPE_IDS) - _entry_keys("arne")
    assert not missing, missing


def test_every_drop_it_piece_has_an_entry() -> None:
    from gamenight.games.drop_it.board import load_board
    from gamenight.games.drop_it.components import all_pieces

    kinds = {piece.kind for piece in all_pieces(load_board())}
    missing = kinds - _entry_keys("drop-it")
    assert not missing, missing


def test_every_drop_or_stop_card_kind_has_an_entry() -> None:
    from gamenight.games.drop_or_stop.components import PRESETS

    # every preset's cards are fixed numbers ("D3") or FLEX, the only kinds (R2)
    kinds = {"flex" if card == "FLEX" else "number" for deck in PRESETS.values() for card in deck}
    missing = kinds - _entry_keys("drop-or-stop")
    assert not missing, missing


@pytest.mark.parametrize("name", ALL)
def test_the_rules_travel_as_json(name: str) -> None:
    rules = spec(name).player_rules()
    for part in (*rules.SECTIONS, *rules.ENTRIES):
        shown = part.to_json()
        assert shown["key"] == part.key and shown["clauses"] == list(part.clauses)
