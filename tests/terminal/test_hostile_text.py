"""Issue 15 item 1: text is never markup, and no text crashes a command.

Arbitrary strings go to every argument of every command and to the move prompt of every
game; each run ends with exit 0, or with one `error:` line on stderr and a non-zero code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamenight.engine.registry import games
from tests.terminal.helpers import Run, assert_one_line_error, gamenight

# Text a person can type on one line (a newline would be two answers).
LINE = st.text(
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    ),
    max_size=40,
)
HOSTILE = st.one_of(
    LINE,
    st.sampled_from(
        ["[/x]", "[bold]hello", "[red]", "[/]", "[link=x]y[/link]", "\\[x]", "%s{0}", "¹", "²٣"]
    ),
)
SLOW = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def assert_handled(run: Run) -> None:
    assert "Traceback" not in run.out + run.err, run
    if run.code == 0:
        assert run.err_lines == [] or all(line.startswith("note:") for line in run.err_lines)
    else:
        assert_one_line_error(run)


def _not_a_port(text: str) -> bool:
    try:
        return not 1 <= int(text) <= 65535
    except ValueError:
        return True


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saved") / "game.json"
    gamenight("play", "drop-or-stop", "--seats", "bot,bot", "--seed", "3", "--save", str(path))
    return path


def _commands(text: str, saved: Path) -> list[tuple[str, ...]]:
    """Every command with `text` in each of its arguments (nothing that would run long)."""
    few = ("--games", "1", "--workers", "1")
    found: list[tuple[str, ...]] = [
        ("options", text),
        ("bots", text),
        ("play", text, "--seats", "bot,bot"),
        ("play", "drop-or-stop", "--seats", text, "--seed", "1"),
        ("play", "drop-or-stop", "--seats", "bot,bot", "--seed", text),
        ("play", "drop-or-stop", "--seats", "bot,bot", "--set", text),
        ("play", "arne", "--seats", "bot:random,bot:random", "--mode", text),
        ("play", "arne", "--seats", "bot:random,bot:random", "--variant", text),
        ("replay", text),
        ("replay", str(saved), "--seat", text),
        ("simulate", text, *few),
        ("simulate", "drop-or-stop", *few, "--bots", text),
        ("simulate", "drop-or-stop", *few, "--set", text),
        ("simulate", "drop-or-stop", *few, "--backend", text),
        ("tournament", "drop-or-stop", "--bots", text, *few),
        ("report", "drop-or-stop", *few, "--sweep", text, "--out", "/nonexistent/r"),
        ("report", text, *few),
        (text,),
    ]
    if _not_a_port(text):
        found.append(("serve", "--port", text))
    return found


@SLOW
@given(text=HOSTILE)
def test_any_text_in_any_argument_is_handled(text: str, saved: Path) -> None:
    for argv in _commands(text, saved):
        assert_handled(gamenight(*argv, keys=""))


# The first prompt of each game, and what one legal answer there looks like.
FIRST_PROMPT = {
    "drop-or-stop": ("--seats", "you,bot:random", "--seed", "1"),
    "arne": ("--seats", "you,bot:random", "--seed", "1"),
    "drop-it": ("--seats", "you,bot:random", "--seed", "1", "--set", "start_seat=1"),
}


def test_every_game_has_a_prompt_test() -> None:
    assert sorted(FIRST_PROMPT) == games()


@pytest.mark.parametrize("game", sorted(FIRST_PROMPT))
@settings(max_examples=25, deadline=None)
@given(text=HOSTILE)
def test_any_text_at_the_move_prompt_is_handled(game: str, text: str, tmp_path_factory) -> None:
    pictures = tmp_path_factory.mktemp("pictures")
    run = gamenight(
        "play", game, *FIRST_PROMPT[game], "--pictures", str(pictures), keys=text + "\n"
    )
    assert_handled(run)
    assert run.code == 1 and "game left unfinished" in run.err  # the input ended, no crash


@pytest.mark.parametrize("game", sorted(FIRST_PROMPT))
@pytest.mark.parametrize("typed", ["[/x]", "[bold]hello", "[red]x[/red]"])
def test_typed_text_is_shown_as_typed(game: str, typed: str, tmp_path: Path) -> None:
    run = gamenight(
        "play", game, *FIRST_PROMPT[game], "--pictures", str(tmp_path), keys=typed + "\n"
    )
    assert typed in run.out, run.out[-2000:]


def test_drop_it_hint_keeps_its_brackets(tmp_path: Path) -> None:
    run = gamenight("play", "drop-it", *FIRST_PROMPT["drop-it"], "--pictures", str(tmp_path))
    assert "[depth mm]" in run.out  # once eaten as markup
