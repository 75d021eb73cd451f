"""One contract test for every registered game (gamenight.games()), and the rule that a
game is declared once: no module above `games/` names a particular game.

A fourth game added as a package under games/ (see engine/README.md's checklist) is
picked up here without editing this file.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

import gamenight
from gamenight.bots import LEVELS, levels, make_seat
from gamenight.engine import check
from gamenight.engine.registry import spec

SRC = Path(gamenight.__file__).parent
ALL = gamenight.games()


@pytest.mark.parametrize("name", ALL)
def test_spec_is_complete(name: str) -> None:
    found = spec(name)
    low, high = found.players
    assert 1 <= low <= found.default_players <= high
    assert found.title and found.pitch and found.length
    assert found.difficulty in ("easy", "medium", "hard")
    assert (SRC / "web" / "games" / found.web).is_file()
    assert hasattr(found.module("terminal"), "render")
    assert found.module("bots").BOTS
    game = gamenight.load(name, players=found.default_players)
    assert game.name == name and game.players == found.default_players


@pytest.mark.parametrize("name", ALL)
def test_contract_holds(name: str) -> None:
    game = gamenight.load(name, players=spec(name).players[0])
    assert check(game, games=1, probe_every=8) > 0


@pytest.mark.parametrize("name", ALL)
def test_every_level_makes_a_bot(name: str) -> None:
    game = gamenight.load(name, players=spec(name).default_players)
    table = levels(name, game.players)
    assert set(table) == set(LEVELS)
    for level in LEVELS:
        assert hasattr(make_seat(level, game, seed=1), "choose")


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of a source file without comments and docstrings: prose may
    give a game as an example, code may not."""
    text = path.read_text()
    if path.suffix != ".py":
        lines = text.splitlines()
        prose = r"//.*|<!--.*?-->|/\*.*?\*/"
        return [(n, re.sub(prose, "", line)) for n, line in enumerate(lines, 1)]
    kept: dict[int, str] = {}
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        prose = token.type == tokenize.COMMENT or (
            token.type == tokenize.STRING
            and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL)
        )
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
        if not prose:
            for row in range(token.start[0], token.end[0] + 1):
                kept[row] = kept.get(row, "") + " " + token.string
    return sorted(kept.items())


def _mentions() -> list[str]:
    """Lines of code outside games/ that name a particular game (id, package or title)."""
    words: list[str] = []
    for name in ALL:
        found = spec(name)
        words += [name, name.replace("-", "_"), found.title]
    choices = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])({choices})(?![\w-])")
    hits = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".js", ".html", ".css") or "games" in path.parts:
            continue
        for number, line in _code_lines(path):
            if pattern.search(line):
                hits.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    return hits


def test_no_module_outside_games_names_a_game() -> None:
    hits = _mentions()
    assert not hits, "game names outside games/ (ask the GameSpec instead):\n" + "\n".join(hits)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("value", ["drop", {"type": "drop"}, 0, None])
def test_a_thing_that_is_not_an_action_is_said_so(name: str, value: object) -> None:
    """`state.act(seat, "drop")` said "drop is not legal now; legal: drop, stop" (a
    researcher's first try); now it says it is not an action and where to get one, and
    the state is unchanged."""
    from gamenight.engine import IllegalAction

    game = gamenight.load(name, players=spec(name).default_players)
    state = game.start(3)
    seat, before = state.actors[0], len(state.history)
    with pytest.raises(IllegalAction, match=r"is not an action: take one from state\.actions"):
        state.act(seat, value)  # type: ignore[arg-type]
    assert len(state.history) == before and state.actors[0] == seat
