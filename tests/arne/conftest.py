"""Shared fixtures of the Arne tests.

`table(...)` starts a game, lets the players choose colours in seat order, then rearranges
the cards: given hands, displays, discard pile and draw pile (top last); every other card is
put in the box's draw pile under the given ones unless `deck_size` trims it. The state is
then at the start of the MAIN window of `turn_seat` (its draw already made).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import gamenight
from gamenight.games.arne import actions as A
from gamenight.games.arne.components import Stack
from gamenight.games.arne.phases import Phase
from gamenight.games.arne.state import EMPTY, ArneState


def make_table(
    players: int = 3,
    colours: tuple[str, ...] | None = None,
    hands: dict[int, list[str]] | None = None,
    displays: dict[int, list[str]] | None = None,
    discard: list[str] | None = None,
    deck: list[str] | None = None,
    deck_size: int | None = None,
    turn_seat: int = 0,
    seed: int = 0,
    **options: Any,
) -> ArneState:
    game = gamenight.load("arne", players=players, first_seat=turn_seat, **options)
    state: ArneState = game.start(seed)
    if colours is None:
        colours = tuple(game.deck_colours[: (game.teams if game.team else players)])
    i = 0
    while state.phase == Phase.COLOUR:
        state.act(state.actors[0], A.ChooseColour(colours[i]))
        i += 1
    arrange(state, hands or {}, displays or {}, discard or [], deck or [], deck_size)
    return state


def _stack(state: ArneState, spec: str, take: Any) -> Stack:
    """'red P500+X3+CRUSH+LOCK+CHAMELEON' as a stack of card ids."""
    base, *extra = spec.split("+")
    parts = {e: take(e) for e in extra}
    return Stack(
        take(base),
        parts.get("CHAMELEON", -1),
        parts.get("X3", -1),
        parts.get("CRUSH", -1),
        parts.get("LOCK", -1),
    )


def arrange(
    state: ArneState,
    hands: dict[int, list[str]],
    displays: dict[int, list[str]],
    discard: list[str],
    deck: list[str],
    deck_size: int | None,
) -> None:
    g = state.game
    free = sorted(state.all_cards())
    kind = g.card_kind
    names = g.name_kind

    def take(name: str) -> int:
        k = names[name]
        for i, c in enumerate(free):
            if kind[c] == k:
                return free.pop(i)
        raise AssertionError(f"no card {name} left in this deck")

    state.hands = [sorted(take(x) for x in hands.get(p, [])) for p in range(g.n)]
    state.displays = [
        [_stack(state, s, take) for s in displays.get(j, [])] for j in range(g.n_displays)
    ]
    state.discard = [take(x) for x in discard]
    top = [take(x) for x in deck]
    rest = list(free)
    if deck_size is not None:
        keep = max(0, deck_size - len(top))
        # cards not needed are put face up under the discard pile, so none is lost
        state.discard = rest[: len(rest) - keep] + state.discard
        rest = rest[len(rest) - keep :]
    state.deck = rest + top
    state.known = [[EMPTY] * g.n for _ in range(g.n)]
    # private events of the original deal no longer match the arranged hands: drop them
    state.drop_private_events()
    state.in_play = -1
    state.declared = None


@pytest.fixture
def table() -> Callable[..., ArneState]:
    """The factory `make_table(players=3, hands=..., displays=..., ...)`."""
    return make_table


@pytest.fixture
def dummy_table(table: Callable[..., ArneState]) -> Callable[..., ArneState]:
    """A two-player dummy game (red and green chosen), arranged like `table`."""

    def make(**arrangement: Any) -> ArneState:
        return table(players=2, variant="dummy", colours=("red", "green"), **arrangement)

    return make
