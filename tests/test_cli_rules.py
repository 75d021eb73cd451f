"""`gamenight rules GAME [CARD]` (issue 46, item 2): the rules in player words by section,
one card's or piece's rule, and a wrong game or card as one line, never a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gamenight.engine.registry import games, spec
from tests.terminal.helpers import GAMENIGHT, assert_one_line_error, environment, gamenight


@pytest.mark.parametrize("name", games())
def test_rules_shows_every_section_and_entry_within_80_columns(name: str) -> None:
    run = gamenight("rules", name)
    assert run.code == 0, run.err
    rules = spec(name).player_rules()
    for section in rules.SECTIONS:
        assert section.title in run.out
    for entry in rules.ENTRIES:
        assert f"{entry.name}:" in run.out
    assert all(len(line) <= 80 for line in run.out.splitlines()), run.out
    assert not any(line.endswith(" ") for line in run.out.splitlines())


def test_rules_of_one_card_by_its_name_or_id() -> None:
    by_name = gamenight("rules", "arne", "stop!")
    assert by_name.code == 0, by_name.err
    assert by_name.out.startswith("Stop!:") and "next turn" in by_name.out
    assert "(A34, A37)" in by_name.out
    by_id = gamenight("rules", "arne", "take_random")
    assert by_id.out.startswith("Take a card:"), by_id.out
    piece = gamenight("rules", "drop-it", "Diamond")
    assert piece.out.startswith("Diamond:") and "D19" in piece.out, piece.out


def test_an_unknown_card_is_one_line_listing_the_known_ones() -> None:
    run = gamenight("rules", "arne", "joker")
    assert_one_line_error(run)
    assert "'joker'" in run.err and "CHAMELEON" in run.err and "SWAP_PLACES" in run.err


def test_an_unknown_game_is_one_line_listing_the_games() -> None:
    run = gamenight("rules", "chess")
    assert_one_line_error(run)
    assert all(name in run.err for name in games()), run.err


def test_rules_in_an_ascii_only_terminal(tmp_path: Path) -> None:
    done = subprocess.run(
        [*GAMENIGHT, "rules", "arne"],
        capture_output=True, text=True, encoding="ascii", cwd=tmp_path, timeout=60,
        env=environment(PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "?" not in done.stdout.replace("Why not?", "") and "The count" in done.stdout
