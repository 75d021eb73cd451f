"""Black cards (spec 4.5, A29-A35): one small function per card type, in tables.

`BLACK_TARGETS[card type]` lists the legal black actions of a card in a hand (A41 in the
final round); `BLACK_EFFECTS[action type]` resolves one completely (A19), the cards going
to the discard pile in order (A18).

These functions are parts of the state machine (state.py calls them; they change the state
they are given and write its events through `_emit`).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from gamenight.engine.core import Action
from gamenight.games.arne import actions as A
from gamenight.games.arne.actions import cached_json
from gamenight.games.arne.components import NONE, Stack

if TYPE_CHECKING:
    from gamenight.games.arne.state import ArneState


class Pending(NamedTuple):
    """A STOP or REVERSE waiting for the end of the turn (A37)."""

    kind: str  # "STOP" or "REVERSE"
    player: int


# ==========================================================================================
# black cards: legal actions (A29-A35; A41 in the final round)
# ==========================================================================================
BlackTargets = Callable[["ArneState", int, bool, list[Action]], None]


def _crush_targets(state: ArneState, player: int, final: bool, out: list[Action]) -> None:
    """A32: a stack of a point card without a CRUSH."""
    game = state.game
    is_minus, card_kind = game.is_minus, game.card_kind
    for display, stacks in enumerate(state.displays):
        row = game.crush_actions[display]
        for position, stack in enumerate(stacks):
            if stack.crush < 0 and not is_minus[card_kind[stack.base]]:
                out.append(row[position])


def _lock_targets(state: ArneState, player: int, final: bool, out: list[Action]) -> None:
    """A33: a crushed stack, or a -200."""
    game = state.game
    is_minus, card_kind = game.is_minus, game.card_kind
    for display, stacks in enumerate(state.displays):
        row = game.lock_actions[display]
        for position, stack in enumerate(stacks):
            if stack.lock < 0 and (stack.crush >= 0 or is_minus[card_kind[stack.base]]):
                out.append(row[position])


def _thief_targets(state: ArneState, player: int, final: bool, out: list[Action]) -> None:
    """A29: the top of the discard pile (not a THIEF unless allowed), or a chameleon stack
    in another display (the dummy's if allowed)."""
    game = state.game
    options = game.options
    if options.thief_may_take_thief and thieves(state, player) <= state.fetched[player]:
        return
    if state.discard:
        top = state.discard[-1]
        if options.thief_may_take_thief or game.kind_type[game.card_kind[top]] != "THIEF":
            out.append(game.thief_discard_action)
    own = state.seat_of[player]
    for display, stacks in enumerate(state.displays):
        if display == own or (display == game.n and not options.dummy_thief_allowed):
            continue
        row = game.thief_stack_actions[display]
        for position, stack in enumerate(stacks):
            if stack.chameleon >= 0:
                out.append(row[position])


def _stop_targets(state: ArneState, player: int, final: bool, out: list[Action]) -> None:
    if not final:  # A34, A41
        out.append(state.game.stop_action)


def _reverse_targets(state: ArneState, player: int, final: bool, out: list[Action]) -> None:
    game = state.game
    if not final or (game.dummy and game.options.dummy_reverse_in_final_round):  # A35, A52
        out.append(game.reverse_action)


BLACK_TARGETS: dict[str, BlackTargets] = {
    "CRUSH": _crush_targets,
    "LOCK": _lock_targets,
    "THIEF": _thief_targets,
    "STOP": _stop_targets,
    "REVERSE": _reverse_targets,
}


def minus_targets(state: ArneState, kind: int, out: list[Action]) -> None:
    """A30: a -200 into a display of its colour."""
    row = state.game.minus_actions[kind]
    for display in state.displays_of.get(state.game.kind_colour[kind], ()):
        out.append(row[display])


def chameleon_targets(state: ArneState, carried: list[int], final: bool, out: list[Action]) -> None:
    """A31: a chameleon carries a base card of the hand into a display (not of the card's
    own colour unless allowed; in the final round A41 as the option says)."""
    game = state.game
    options = game.options
    rule = options.chameleon_in_final_round if final else "all"
    same_colour_ok = options.chameleon_same_colour_allowed
    colours = state.display_colour
    for kind in carried:
        if rule == "none" or (rule == "minus200_only" and not game.is_minus[kind]):
            continue
        colour = game.kind_colour[kind]
        row = game.chameleon_actions[kind]
        for display in range(game.n_displays):
            if same_colour_ok or colours[display] != colour:
                out.append(row[display])


def black_actions(state: ArneState, player: int, final: bool) -> list[Action]:
    """A29-A35 (A41 in the final round): black actions of `player` with their targets."""
    game = state.game
    card_kind, targets = game.card_kind, game.black_targets  # BLACK_TARGETS per kind
    is_base, is_minus, is_black = game.is_base, game.is_minus, game.is_black
    out: list[Action] = []
    carried: list[int] = []  # base cards a chameleon could carry (A31)
    has_chameleon = False
    previous = NONE
    for card in state.hands[player]:
        kind = card_kind[card]
        if kind == previous:
            continue
        previous = kind
        if is_base[kind]:
            carried.append(kind)
            if is_minus[kind]:
                minus_targets(state, kind, out)
        elif is_black[kind]:
            add = targets[kind]
            if add is not None:
                add(state, player, final, out)
            else:  # the CHAMELEON: its targets depend on the whole hand
                has_chameleon = True
    if has_chameleon and carried:
        chameleon_targets(state, carried, final, out)
    return out


def thieves(state: ArneState, player: int) -> int:
    """The THIEF cards in the hand (A29 with thief_may_take_thief)."""
    card_kind, kind_type = state.game.card_kind, state.game.kind_type
    return sum(1 for card in state.hands[player] if kind_type[card_kind[card]] == "THIEF")


# ==========================================================================================
# black cards: effects (A29-A35), each resolved completely (A19), cards to the pile (A18)
# ==========================================================================================
def _minus_two_hundred(state: ArneState, player: int, action: A.MinusTwoHundred) -> None:
    """A30: a new stack in the display."""
    card = state.take(player, state.game.kind_of[("MINUS200", action.colour)])
    state.displays[action.display].append(Stack(card))
    state._emit("black", player=player, action=cached_json(action))


def _chameleon(state: ArneState, player: int, action: A.Chameleon) -> None:
    """A31: the chameleon and the card it carries form a new stack."""
    kind_of = state.game.kind_of
    chameleon = state.take(player, kind_of[("CHAMELEON", "")])
    card = state.take(player, kind_of[(action.card, action.colour)])
    state.displays[action.display].append(Stack(card, chameleon))
    state._emit("black", player=player, action=cached_json(action))


def _crush(state: ArneState, player: int, action: A.Crush) -> None:
    """A32: a CRUSH onto the stack."""
    card = state.take(player, state.game.kind_of[("CRUSH", "")])
    stacks = state.displays[action.display]
    stacks[action.stack] = stacks[action.stack]._replace(crush=card)
    state._emit("black", player=player, action=cached_json(action))


def _lock(state: ArneState, player: int, action: A.Lock) -> None:
    """A33: a LOCK onto the stack."""
    card = state.take(player, state.game.kind_of[("LOCK", "")])
    stacks = state.displays[action.display]
    stacks[action.stack] = stacks[action.stack]._replace(lock=card)
    state._emit("black", player=player, action=cached_json(action))


def _thief_discard(state: ArneState, player: int, action: A.ThiefDiscard) -> None:
    """A29.1: the top card of the discard pile into the hand, in sight of everybody."""
    game = state.game
    thief = state.take(player, game.kind_of[("THIEF", "")])
    card = state.discard.pop()
    insort(state.hands[player], card)
    for knower in range(game.n):
        if knower != player:
            state.known[knower][player] = state.known[knower][player] | {card}
    state.discard.append(thief)
    kind = game.card_kind[card]
    if game.kind_type[kind] == "THIEF":
        fetched = list(state.fetched)
        fetched[player] += 1
        state.fetched = tuple(fetched)
    state._emit("black", player=player, action=cached_json(action), card=game.kind_name[kind])


def _thief_stack(state: ArneState, player: int, action: A.ThiefStack) -> None:
    """A29.2: a chameleon stack moves into the thief's own display; landing in a display
    of its printed colour it loses the chameleon."""
    game = state.game
    thief = state.take(player, game.kind_of[("THIEF", "")])
    stack = state.displays[action.display].pop(action.stack)
    own = state.seat_of[player]
    removed = game.kind_colour[game.card_kind[stack.base]] == state.seat_colour[own]
    if removed:  # the stack now counts by its printed colour
        state.discard.append(stack.chameleon)
        stack = stack._replace(chameleon=NONE)
    state.displays[own].append(stack)
    state.discard.append(thief)
    state._emit(
        "black",
        player=player,
        action=cached_json(action),
        to_display=own,
        chameleon_removed=removed,
    )


def _stop(state: ArneState, player: int, action: A.Stop) -> None:
    """A34, A37: the player moves next."""
    state.discard.append(state.take(player, state.game.kind_of[("STOP", "")]))
    state.pending = Pending("STOP", player)
    state._emit("black", player=player, action=cached_json(action))


def _reverse(state: ArneState, player: int, action: A.Reverse) -> None:
    """A35, A37: the direction turns (dummy game A51, A52: the player takes the dummy)."""
    game = state.game
    state.discard.append(state.take(player, game.kind_of[("REVERSE", "")]))
    if game.dummy:
        if not state.in_final_round or game.options.dummy_reverse_in_final_round:
            state.dummy_controller = state.seat_of[player]
        state._emit(
            "black", player=player, action=cached_json(action), dummy_seat=state.dummy_controller
        )
    else:
        state.pending = Pending("REVERSE", player)
        state._emit("black", player=player, action=cached_json(action))


BLACK_EFFECTS: dict[type[Action], Callable[[ArneState, int, Any], None]] = {
    A.MinusTwoHundred: _minus_two_hundred,
    A.Chameleon: _chameleon,
    A.Crush: _crush,
    A.Lock: _lock,
    A.ThiefDiscard: _thief_discard,
    A.ThiefStack: _thief_stack,
    A.Stop: _stop,
    A.Reverse: _reverse,
}
