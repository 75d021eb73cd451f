"""What a new player met in a play-through of the terminal (each test failed before):

1. typed words pick the one action they name ("red" for "choose colour red"); words that
   fit several actions are refused in one line that lists them;
2. players are numbered from 1, as on the web pages, and the end says who won plainly;
3. Drop or Stop's wins column and cards need no guessing ("1 of 3", "[3]", a legend once);
4. a long junk input is echoed shortened, so the refusal stays one line;
5. `gamenight --help` shows "[learn]" (it was eaten as Rich markup);
6. `gamenight games` gives the player counts of the variants too, as the web lobby does.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.cli import output
from gamenight.cli.table import terminal_of
from gamenight.engine.core import BadInput, State
from gamenight.engine.registry import load, spec
from gamenight.games.arne import actions as A
from gamenight.games.drop_or_stop import DROP, STOP
from tests.terminal.helpers import assert_one_line_error, gamenight

ARNE = ("play", "arne", "--seats", "you,bot,bot", "--seed", "1")
DROP_OR_STOP = ("play", "drop-or-stop", "--seats", "you,bot,bot", "--seed", "3")


def _arne_start() -> State:
    return load("arne", players=3).start(1)  # seat 0 chooses a colour first


# --- 1. words of one action ----------------------------------------------------------------


@pytest.mark.parametrize("typed", ["red", "colour red", "RED", "choose colour red", " Red! "])
def test_arne_words_that_name_one_action_are_enough(typed: str) -> None:
    state = _arne_start()
    assert terminal_of("arne").parse(typed, state, 0) == A.ChooseColour("red")


def test_arne_red_at_the_first_prompt_chooses_red() -> None:
    run = gamenight(*ARNE, keys="red\n")
    assert "is not a legal action" not in run.out
    assert "player 1 takes red" in run.out


def test_words_that_fit_several_actions_are_refused_listing_them() -> None:
    ui = terminal_of("arne")
    with pytest.raises(BadInput) as refused:
        ui.parse("colour", _arne_start(), 0)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 200
    assert "fits 4 actions" in message and "1 = red, 2 = green" in message
    assert "number" in message


def test_arne_crush_by_display_and_stack_numbers_from_1() -> None:
    """ "crush 2 1" is display 2, stack 1 as the screen numbers them (from 1)."""
    ui = terminal_of("arne")
    for seed in range(50):
        state, rng = load("arne", players=3).start(seed), random.Random(seed)
        while not state.over:
            seat = state.actors[0]
            crushes = [a for a in state.actions(seat) if isinstance(a, A.Crush)]
            if crushes:
                crush = crushes[-1]
                line = f"crush display {crush.display + 1} stack {crush.stack + 1}"
                assert ui.describe(crush) == line
                assert (
                    ui.parse(f"crush {crush.display + 1} {crush.stack + 1}", state, seat) == crush
                )
                return
            state.act(seat, rng.choice(state.actions(seat)))
    pytest.skip("no crush offered in 50 games")


@pytest.mark.parametrize(("typed", "action"), [("draw", DROP), ("keep", STOP), ("D", DROP)])
def test_drop_or_stop_words_of_a_line(typed: str, action: object) -> None:
    state = load("drop-or-stop", players=3, first_start_seat=0).start(3)
    assert terminal_of("drop-or-stop").parse(typed, state, 0) == action


# --- 2. players from 1, and who won ----------------------------------------------------------


def test_drop_or_stop_numbers_players_from_1_and_says_who_won() -> None:
    run = gamenight(*DROP_OR_STOP, keys="s\n" * 300)
    assert run.code == 0, run.err
    assert not re.search(r"\b[Pp]layer 0\b", run.out)
    assert "player 1 (you)" in run.out and re.search(r"Player [23] (stops|drops)", run.out)
    assert "Winner(s)" not in run.out and " - wins" not in run.out
    last = run.out.strip().splitlines()[-1]
    assert re.fullmatch(r"You win\.|Player [23] wins\.|.* share the win\.", last), last
    assert re.search(r"Game over: (player [123]( and )?)+ (wins|share the win)\.", run.out)


def test_arne_and_drop_it_number_players_from_1(tmp_path: Path) -> None:
    arne = gamenight(*ARNE, keys="1\n")
    assert "player 1 (you)" in arne.out and not re.search(r"\bplayer 0\b", arne.out)
    assert "=== game 1, display 1 begins" in arne.out
    drop_it = gamenight(
        "play", "drop-it", "--seats", "you,bot", "--seed", "1", "--set", "start_seat=1",
        "--pictures", str(tmp_path), keys="1 120 0\n",
    )  # fmt: skip
    assert "player 1 (side 1) drops" in drop_it.out
    assert not re.search(r"\b(player|side) 0\b", drop_it.out)


def test_replay_seat_counts_from_1(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    gamenight("play", "drop-or-stop", "--seats", "bot,bot", "--seed", "3", "--save", str(path))
    second = gamenight("replay", str(path), "--seat", "2")
    assert second.code == 0 and "player 2 (you)" in second.out
    assert_one_line_error(gamenight("replay", str(path), "--seat", "0"))


# --- 3. Drop or Stop's wins and cards ----------------------------------------------------


def test_drop_or_stop_wins_and_cards_are_explained_once() -> None:
    run = gamenight(*DROP_OR_STOP, keys="s\n" * 300)
    assert "[D" not in run.out  # a card is its value: [3], or [FLEX]
    assert run.out.count("[3] is worth 3") == 1  # the legend, once (not on every redraw)
    assert "first to 3 round wins" in run.out and "0 of 3" in run.out
    assert not re.search(r"│ [*.]{3} ", run.out)  # the old "*.." marks


# --- 4. a long input is echoed short ---------------------------------------------------------


@pytest.mark.parametrize("game", ["drop-or-stop", "arne", "drop-it"])
def test_long_junk_is_echoed_short(game: str) -> None:
    state = load(game, players=2).start(1)
    seat = state.actors[0]
    junk = "x" * 300
    with pytest.raises(BadInput) as refused:
        terminal_of(game).parse(junk, state, seat)
    message = str(refused.value)
    assert "x" * 41 not in message and "…" in message  # 40 characters of it, then "…"
    assert len(message) <= 130 and "\n" not in message


def test_long_junk_at_the_prompt_is_one_line_on_screen() -> None:
    run = gamenight(*DROP_OR_STOP, keys="y" * 300 + "\n")
    refusal = [line for line in run.out.splitlines() if "yyyy" in line]
    assert len(refusal) == 1 and len(refusal[0]) <= 110, refusal


def test_long_seats_are_echoed_short() -> None:
    run = gamenight("play", "drop-or-stop", "--seats", "," * 300)
    assert_one_line_error(run)
    assert len(run.err_lines[0]) < 200


# --- 5. help keeps its brackets ------------------------------------------------------------


def test_help_shows_the_learn_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # Typer's help console: no wrapping
    run = gamenight("--help")
    assert "(needs the [learn] extra)" in run.out
    assert "needs the  extra" not in run.out


# --- 6. player counts as the lobby gives them --------------------------------------------


def test_games_lists_the_player_counts_of_the_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.out, "width", 250)  # one table row per game
    out = " ".join(gamenight("games").out.split())
    assert "team variant: 4-12, even" in out and "dummy variant: 2-5" in out
    assert "with teams: 2-6" in out
    for name, top in [("arne", 12), ("drop-it", 6)]:
        assert spec(name).players[1] == top  # the number on the web lobby's card


def test_drop_or_stop_says_the_decks_own_flex_values(tmp_path: Path) -> None:
    """A deck file may give FLEX other values (§2.2): the table said "1 or 5" whatever the deck."""
    from gamenight.games.drop_or_stop import terminal as dos_terminal
    from gamenight.games.drop_or_stop.components import preset_json

    doc = preset_json("standard")
    doc["flexValues"] = [2, 6]
    for entry in doc["deck"]:
        if entry["kind"] == "flex":
            entry["values"] = [2, 6]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    state = load("drop-or-stop", players=2, deck=str(path)).start(1)
    console = Console(record=True, width=100)
    console.print(dos_terminal.render(state.view(0)))
    assert "FLEX counts 2 or 6" in console.export_text()
