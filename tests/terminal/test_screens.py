"""Issue 45 item 6: what the terminal shows, as a player reads it.

- the Arne table and the question (the moves, the prompt) fit one 80x24 screen;
- after PASS HANDS each received hand says whose it is, and from whom;
- an ASCII-only terminal (LANG=C) reads every symbol in ASCII, not "?";
- `options`, `simulate` and `replay` show values as a person types them, players from 1.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.cli.table import menu_pages, terminal_of
from gamenight.engine.core import State
from gamenight.engine.registry import load
from gamenight.games.arne import actions as A
from tests.terminal.helpers import GAMENIGHT, environment, gamenight

WIDTH, HEIGHT = 80, 24


def _height(renderable: object) -> int:
    console = Console(width=WIDTH, height=HEIGHT, file=open("/dev/null", "w"))  # noqa: SIM115
    return len(console.render_lines(renderable, console.options, pad=False))


def _prompts(players: int, variant: str, seed: int) -> list[State]:
    """Every state of a random Arne game in which seat 0 has a choice to make."""
    state = load("arne", players=players, variant=variant).start(seed)
    rng = random.Random(seed)
    asked = []
    while not state.over:
        seat = state.actors[0]
        legal = state.actions(seat)
        if seat == 0 and len(legal) > 1:
            asked.append(state.copy())
        state.act(seat, rng.choice(legal))
    return asked


# Every Arne variant as `gamenight games` lists them: 2-6, dummy 2-5, team 4-12 (even).
EVERY_ARNE = [
    *((players, "standard") for players in range(2, 7)),
    *((players, "dummy") for players in range(2, 6)),
    *((players, "team") for players in range(4, 13, 2)),
]


@pytest.mark.parametrize(("players", "variant"), EVERY_ARNE)
def test_arne_table_and_question_fit_80x24(players: int, variant: str) -> None:
    """At 80x24 the table plus the move list took more than 24 lines at 29 of 36 prompts
    (a boxed table, a stack per line, a move per line); the 5-player dummy game and the
    team game of 6 and more still did (26 to 40 lines). The prompt is the last line."""
    ui = terminal_of("arne")
    for seed in range(2):
        for state in _prompts(players, variant, seed):
            table = _height(ui.render(state.view(0)))
            pages = menu_pages(ui.describe_actions(state, 0), WIDTH, HEIGHT - table - 1)
            assert all(table + len(page) + 1 <= HEIGHT for page in pages)


def test_every_move_is_on_some_page_with_its_number() -> None:
    lines = [f"move number {i} with some words" for i in range(1, 61)]
    pages = menu_pages(lines, WIDTH, 8)
    assert len(pages) > 1 and all(len(page) <= 8 for page in pages)
    numbers = [
        [int(n) for n in re.findall(r"(\d+)\. move number \1 ", " ".join(page) + " ")]
        for page in pages
    ]
    assert sorted(n for page in numbers for n in page) == list(range(1, 61))
    assert pages[0][-1] == f"  ... {60 - len(numbers[0])} more: press Enter"
    assert pages[-1][-1] == "  ... back to the first: press Enter"
    few = menu_pages(lines[:5], WIDTH, 8)  # one column when it fits
    assert few == [[f"  {i}. {line}" for i, line in enumerate(lines[:5], 1)]]


def test_enter_at_the_prompt_shows_the_next_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a short screen the moves come in pages: Enter shows the table and the next."""
    from gamenight.cli import output

    monkeypatch.setattr(output.out, "height", 18)
    run = gamenight(
        "play", "drop-it", "--seats", "you,bot:random", "--seed", "2", "--pictures",
        str(tmp_path), keys="\n\n",
    )  # fmt: skip
    assert run.out.count("Drop It - turn 1/36") == 3  # the first page, the next, the first
    first, second, _ = run.out.split("Drop It - turn 1/36")[1:]
    shown = [re.findall(r"^ +(\d+)\. ", page, re.MULTILINE) for page in (first, second)]
    assert shown[0] and shown[1] and not set(shown[0]) & set(shown[1])
    assert "more: press Enter" in first and "back to the first: press Enter" in second


def test_pass_hands_says_whose_hand_each_player_receives() -> None:
    """After PASS HANDS a seat saw two lines "(hand received: ...)" without a name."""
    ui = terminal_of("arne")
    for seed in range(300):
        state = load("arne", players=3).start(seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.actors[0]
            legal = state.actions(seat)
            passes = [a for a in legal if isinstance(a, A.PassHands)]
            state.act(seat, passes[0] if passes else rng.choice(legal))
            if passes:
                lines = [ui.describe_event(e) or "" for e in state.events(seat)]
                received = [line for line in lines if "receives the hand of" in line]
                assert len(received) == 2, lines
                for line in received:
                    assert re.fullmatch(
                        r"  \(player \d receives the hand of player \d: .+\)", line
                    ), line
                assert not [line for line in lines if "hand received" in line]
                return
    pytest.skip("no PASS HANDS in 300 games")


def test_an_ascii_only_terminal_reads_every_symbol_in_ascii(tmp_path: Path) -> None:
    """Under LANG=C Drop It's pieces read "?3 ?2"; the option help "GRAVITY in mm/s?"."""
    ascii_terminal = environment(PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C")
    play = subprocess.run(
        [*GAMENIGHT, "play", "drop-it", "--seats", "you,bot:random", "--seed", "2"],
        input="", capture_output=True, text=True, encoding="ascii", env=ascii_terminal,
        cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert play.returncode == 1, play.stderr
    assert [line for line in play.stderr.splitlines() if line] == ["error: game left unfinished"]
    assert "?" not in play.stdout and "Drop It" in play.stdout
    assert "red o3 #2 ^2 <>2" in play.stdout  # circles, squares, triangles, diamonds
    assert "o red circle" in play.stdout and "> 1 (you)" in play.stdout  # whose turn
    options = subprocess.run(
        [*GAMENIGHT, "options", "drop-it"], capture_output=True, text=True, encoding="ascii",
        env={**ascii_terminal, "COLUMNS": "200"}, timeout=60,
    )  # fmt: skip
    assert options.returncode == 0, options.stderr
    assert "?" not in options.stdout and "mm/s^2" in options.stdout
    assert "(section 4)" in options.stdout


def test_options_show_values_as_they_are_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamenight.cli import output

    monkeypatch.setattr(output.out, "width", 250)
    run = gamenight("options", "arne")
    assert run.code == 0
    assert "c5=purple, c6=orange" in run.out
    assert "('c5'" not in run.out and "'purple')" not in run.out


def test_simulate_numbers_players_from_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's first column was "seat" 0..n-1."""
    from gamenight.cli import output

    monkeypatch.setattr(output.out, "width", 200)
    run = gamenight(
        "simulate", "drop-or-stop", "--games", "20", "--workers", "1", "--bots",
        "threshold,random,random",
    )  # fmt: skip
    assert run.code == 0, run.err
    rows = [line for line in run.out.splitlines() if "bot:" in line]
    assert [re.split(r"[│|]", row)[1].strip() for row in rows] == ["1", "2", "3"]
    assert re.search(r"[┃│|] player\s+[┃│|]", run.out)


def test_a_broken_replay_says_what_each_field_must_be(tmp_path: Path) -> None:
    """ "'seed' must be a int"."""
    path = tmp_path / "x.json"
    doc = {"format": "gamenight-replay/1", "game": "drop-or-stop", "options": {}}
    path.write_text(json.dumps({**doc, "seed": "x", "history": []}))
    run = gamenight("replay", str(path))
    assert run.code == 2 and "'seed' must be a whole number" in run.err
    path.write_text(json.dumps({**doc, "options": [], "seed": 1, "history": []}))
    assert "'options' must be an object of options" in gamenight("replay", str(path)).err
