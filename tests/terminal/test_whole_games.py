"""Issue 15: one whole game of each game through the real prompt, in a pseudo-terminal of
80 columns (pexpect), with an illegal input in each and, in Arne, a black card played out
of turn. Each game takes a few seconds (the opponent is the random bot).

Issue 45: a whole game of every variant of every game, as `gamenight games` lists them,
saved and replayed (Arne's dummy variant crashed on its first screen, its replay at the
end); Arne's table and question fit the 80x24 screen at every prompt."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

from gamenight.cli.info import variants
from gamenight.engine.registry import games
from tests.terminal.helpers import SRC, gamenight

pexpect = pytest.importorskip("pexpect")

PROMPT = "your move: "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(tmp_path: Path, *argv: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": SRC, "TERM": "xterm-256color", "COLUMNS": "80"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-c", "from gamenight.cli import main; main()", *argv],
        cwd=str(tmp_path),
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        codec_errors="replace",  # a screen read mid-character must not end the test
        timeout=60,
    )


def screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, screen(child)[-3000:]
    return ANSI.sub("", child.before or "")


def test_drop_or_stop_whole_game(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "drop-or-stop", "--seats", "you,bot:random", "--seed", "5")
    child.expect(PROMPT)
    child.sendline("fly")
    child.expect(re.escape("type d (drop) or s (stop), not 'fly'"))
    moves = 0
    while child.expect([PROMPT, r"\bresult\b"]) == 0:
        child.sendline("d" if moves % 3 == 0 else "s")  # a drop refused over the target is retried
        moves += 1
    assert moves > 0
    end = finish(child)
    assert "place" in end and "wins" in end


def test_drop_it_whole_game(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "drop-it", "--seats", "you,bot:random", "--seed", "2")
    child.expect(PROMPT)
    child.sendline("purple blob 1 2")
    child.expect("neither a colour")
    drops = 0
    while child.expect([PROMPT, r"\bresult\b"]) == 0:
        child.sendline(f"1 {60 + 10 * (drops % 12)} {15 * (drops % 5)}")  # line 1: a piece
        drops += 1
    end = finish(child)
    assert drops >= 18  # every piece of our side, by its line number
    assert re.search(r"You win\.|Player \d wins\.|share the win\.", end)
    pictures = sorted(p.name for p in tmp_path.glob("drop-it-2-*.png"))
    assert len(pictures) == 36 and pictures[0] == "drop-it-2-001.png"  # one per drop


def _answer_arne(board: str) -> tuple[str, bool]:
    """The number to type and whether it plays a black card out of turn: a reaction when
    it is someone else's turn and there is one, otherwise the first choice."""
    lines = dict(re.findall(r"^\s+(\d+)\. (.+?)\s*$", board, re.MULTILINE))
    others_turn = re.search(r"turn: player 2\b", board) is not None
    if others_turn:
        for number, words in lines.items():
            if words != "pass":
                return number, True
    return "1", False


def test_arne_whole_game_with_a_black_card_out_of_turn(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "arne", "--seats", "you,bot:random", "--seed", "3")
    transcript = io.StringIO()
    child.logfile_read = transcript
    child.expect(PROMPT)
    child.sendline("fly away")
    child.expect("is not a legal action now")
    out_of_turn = 0
    prompts = 0
    board = screen(child)
    while True:
        answer, black = _answer_arne(board)
        out_of_turn += black
        child.sendline(answer)
        prompts += 1
        if child.expect([PROMPT, r"\bresult\b"]) == 1:
            break
        board = screen(child)
        assert "error" not in board.lower()
    end = finish(child)
    assert out_of_turn >= 1, "no black card was played out of turn"
    played = ANSI.sub("", transcript.getvalue())
    assert "player 1 answers:" in played  # the black card, in the log
    # Alone at the keyboard, a window where only "pass" is possible is not asked: one line.
    assert "player 1 (you): pass (no other choice)" in played
    assert re.search(r"^\s+1\. pass\s*$\n(?!\s+2\.)", played, re.MULTILINE) is None
    assert re.search(r"You win\.|Player \d wins\.|share the win\.", end) and prompts > 0


def test_pass_and_play_clears_the_screen_between_people(tmp_path: Path) -> None:
    """Issue 14 item 7: several people at one keyboard; the screen is cleared and the next
    person named before their hand is shown, in a reaction window too."""
    child = spawn(tmp_path, "play", "arne", "--seats", "you,you,bot", "--seed", "3")
    try:
        asked: list[int] = []
        for _ in range(8):
            child.expect(r"Pass the keyboard to player (\d)")
            assert "\x1b[2J" in (child.before or "")  # what was on screen is gone
            person = int(child.match.group(1))
            asked.append(person)
            child.sendline("")
            child.expect(PROMPT)
            board = screen(child)
            assert f"player {person} (you)" in board
            assert f"player {3 - person} (you)" not in board
            child.sendline("1")
        assert set(asked) == {1, 2}  # players count from 1, as on screen
    finally:
        child.terminate(force=True)


# What a person types at every prompt of each game: the first move listed (Drop It: the
# piece of line 1, then x and angle).
FIRST_MOVE = {"drop-it": "1 120 0"}
VARIANTS = [
    (name, variant.label or "defaults", variant.options, variant.counts)
    for name in games()
    for variant in variants(name)
]


def test_every_variant_is_played() -> None:
    listed = {(name, label) for name, label, _, _ in VARIANTS}
    assert ("arne", "dummy variant") in listed and ("arne", "team variant") in listed
    assert ("drop-it", "with teams") in listed
    assert {name for name, _, _, _ in VARIANTS} == set(games())


def _players(name: str, counts: list[int]) -> int:
    """A count of players only this variant takes (5 at Drop It with teams), if there is
    one small enough for a table that fits the screen, else the variant's fewest."""
    base = variants(name)[0].counts
    return next((n for n in counts if n not in base and n <= 6), counts[0])


def _lines_on_screen(output: str) -> int:
    return len(output.replace("\r\n", "\n").rstrip("\n").split("\n"))


@pytest.mark.parametrize(
    ("name", "label", "options", "counts"),
    VARIANTS,
    ids=[f"{name}, {label}" for name, label, _, _ in VARIANTS],
)
def test_a_whole_game_of_every_variant(
    tmp_path: Path, name: str, label: str, options: dict[str, object], counts: list[int]
) -> None:
    players = _players(name, counts)
    sets = [word for key, value in options.items() for word in ("--set", f"{key}={value}")]
    seats = ",".join(["you"] + ["bot:random"] * (players - 1))
    save = tmp_path / "game.json"
    argv = ["play", name, "--seats", seats, "--seed", "4", "--save", str(save), *sets]
    child = spawn(tmp_path, *argv)
    prompts = 0
    while child.expect([PROMPT, r"\bresult\b"]) == 0:
        screen_so_far = ANSI.sub("", child.before or "")
        if name == "arne":  # the table (from its first line) and the question, on one screen
            table = screen_so_far[screen_so_far.rindex("Arne - game") :]
            assert _lines_on_screen(table) <= 24, table  # its last line is the prompt
        child.sendline(FIRST_MOVE.get(name, "1"))
        prompts += 1
    end = finish(child)
    assert prompts > 0
    assert re.search(r"You win\.|Player \d+ wins\.|share the win\.|no result", end), end[-500:]
    replayed = gamenight("replay", str(save))
    assert replayed.code == 0, replayed.err
    assert "result" in replayed.out  # the result table, or "no result" at a length limit
