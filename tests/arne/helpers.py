"""Small helpers on Arne states for the rule tests (tables are arranged by the `table`
fixture of conftest.py)."""

from __future__ import annotations

from gamenight.engine.core import Action
from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase
from gamenight.games.arne.state import ArneState


def act(state: ArneState, action: Action, seat: int | None = None) -> None:
    """The action by the player who owes it (or `seat`)."""
    state.act(state.actors[0] if seat is None else seat, action)


def pass_round(state: ArneState, times: int | None = None) -> None:
    """Everybody passes until the current window closes (or `times` passes)."""
    phase, kind, game_no = state.phase, state.window, state.game_no
    count = 0
    while state.phase == phase and state.window == kind and state.actors:
        before = len(state.history)
        state.act(state.actors[0], A.PASS)
        count += 1
        assert len(state.history) == before + 1
        if times is not None and count >= times:
            return
        if state.quiet == 0 or state.game_no != game_no:
            return


def names(state: ArneState, cards: list[int]) -> list[str]:
    g = state.game
    return [g.kind_name[g.card_kind[c]] for c in cards]


def hand(state: ArneState, p: int) -> list[str]:
    return names(state, state.hands[p])


def stack_names(state: ArneState, j: int) -> list[str]:
    return [s["base"] for s in state.view(None)["displays"][j]["stacks"]]


def stacks(state: ArneState, display: int) -> list[dict]:
    """The stacks of a display as the spectator's view shows them."""
    return state.view(None)["displays"][display]["stacks"]


def to_final(state: ArneState) -> None:
    """Finish the current (last) turn: pass everything, play any forced white card."""
    while state.phase != Phase.FINAL:
        seat = state.actors[0]
        if state.phase == Phase.WHITE:
            act(state, state.actions(seat)[0])
        else:
            act(state, A.PASS)
