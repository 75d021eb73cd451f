"""Issue 15 items 3 and 4: player words on screen, and one name per participant in Arne,
also after players swap places (A56: a participant keeps their number)."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console

from gamenight.cli.table import terminal_of
from gamenight.engine.core import State
from gamenight.engine.registry import load

# Engine words that once reached the screen: lists, None, reprs (x=172.388...), clause ids.
# (A Drop or Stop card is shown by its value in brackets, "[3]"; a list has commas.)
ENGINE_WORDS = re.compile(
    r"\[\d+\s*[,.]|\bNone\b|\b[a-z_]+=\S|\d\.\d{4,}|(?<!\[)\b[RADNV]\d+[a-z]?\b(?!\])"
)


def _screen(renderable: object) -> str:
    console = Console(width=80, markup=False, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def _random_game(name: str, seed: int, players: int, until: str | None = None) -> State:
    game = load(name, players=players)
    state = game.start(seed)
    rng = random.Random(seed)
    limit = 2000 if name != "drop-it" else 12
    for _ in range(limit):
        if state.over or (until and any(e.kind == until for e in state.events(None))):
            break
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    return state


@pytest.mark.parametrize(("name", "players"), [("drop-or-stop", 3), ("arne", 3), ("drop-it", 2)])
def test_no_engine_words_on_screen(name: str, players: int) -> None:
    ui = terminal_of(name)
    for seed in range(3 if name != "drop-it" else 1):
        state = _random_game(name, seed, players)
        lines = [ui.describe_event(e) or "" for e in state.events(0)]
        lines += [ui.describe(a) for _, a in state.history]
        lines.append(_screen(ui.render(state.view(0))))
        for line in lines:
            assert not ENGINE_WORDS.search(line), line


def test_arne_names_agree_after_swapping_places() -> None:
    ui = terminal_of("arne")
    for seed in range(200):
        state = _random_game("arne", seed, 3, until="swapped")
        if any(e.kind == "swapped" for e in state.events(None)) and not state.over:
            break
    else:
        pytest.skip("no swap in 200 seeded games")
    view = state.view(0)
    moved = [s for s in view["seats"] if s["seat"] != s["player"]]
    assert moved, "a swap moves players to other places"
    text = _screen(ui.render(view))
    assert f"turn: player {view['active'] + 1}" in text  # players count from 1
    for place in view["seats"]:
        row = next(
            line for line in text.splitlines() if re.match(rf" ?{place['seat'] + 1} [a-z]+ ", line)
        )
        assert f"player {place['player'] + 1}" in row  # the display row names who sits there
    assert "seat" not in text  # places are "display N", people are "player N"


def test_arne_marks_the_player_whose_turn_it_is_after_a_swap() -> None:
    """After SWAP_PLACES the active player keeps the turn (A27): the star is on their row."""
    ui = terminal_of("arne")
    for seed in range(300):
        state = _random_game("arne", seed, 3, until="swapped")
        view = state.view(0)
        turn_place = next(s for s in view["seats"] if s["seat"] == view["turn_seat"])
        if not state.over and turn_place["player"] != view["active"]:
            break
    else:
        pytest.skip("no swap that moved the active player")
    starred = [line for line in _screen(ui.render(view)).splitlines() if " * " in line]
    assert len(starred) == 1 and f"player {view['active'] + 1} " in starred[0]
