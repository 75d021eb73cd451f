"""White cards (spec 4.4, A20-A28): one small function per card type, in tables.

`WHITE_TARGETS[card type]` lists the legal declarations of a card in the active player's
hand; `RESOLVE[action type]` carries out a declared card once its PRE window closed (A12);
demands (A24/A25) are answered card by card through `start_demand` and `give_one`.

These functions are parts of the state machine (state.py calls them; they change the state
they are given and write its events through `_emit` / `emit_cards`).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from gamenight.engine.core import Action
from gamenight.games.arne import actions as A
from gamenight.games.arne.components import EMPTY, NONE, POINT_TYPES, Stack

if TYPE_CHECKING:
    from gamenight.games.arne.game import Arne
    from gamenight.games.arne.state import ArneState

POINT_CARDS = "P"  # a demand of point cards of one colour (A24)
BLACK_CARDS = "B"  # a demand of black cards (A25)


class Demand(NamedTuple):
    """A demand being answered (A24/A25): `target` hands `left` more cards to `demander`;
    point cards of `colour` go face up onto `display`, black cards face down."""

    target: int
    demander: int
    cards: str  # POINT_CARDS or BLACK_CARDS
    colour: int
    left: int
    display: int

    def fits(self, game: Arne, kind: int) -> bool:
        """Whether a card of `kind` answers this demand."""
        if self.cards == POINT_CARDS:
            return game.is_point[kind] and game.kind_colour[kind] == self.colour
        return game.is_black[kind]


# ==========================================================================================
# white cards: legal declarations (A20-A28)
# ==========================================================================================
WhiteTargets = Callable[["ArneState", int, int, list[Action]], None]


def _point_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A21: the discard pile, or a new stack in a display of the card's colour: the
    player's own or the dummy's (losing game: any other player's display of that colour)."""
    game = state.game
    colour = game.kind_colour[kind]
    row = game.point_actions[kind]
    out.append(row[0])  # the discard pile
    own = state.seat_colour[state.seat_of[player]]
    if game.losing:
        targets = state.displays_of.get(colour, ()) if colour != own else ()
    else:
        dummy = state.display_colour[game.n] if game.dummy else NONE
        targets = state.displays_of.get(colour, ()) if colour in (own, dummy) else ()
    for display in targets:
        out.append(row[display + 1])


def _x3_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A22: any stack without an X3."""
    x3_actions = state.game.x3_actions
    for display, stacks in enumerate(state.displays):
        row = x3_actions[display]
        for position, stack in enumerate(stacks):
            if stack.x3 < 0:
                out.append(row[position])


def _take_random_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A23: any other player."""
    row = state.game.take_random_actions
    out.extend(row[other] for other in range(state.game.n) if other != player)


def _demand_black_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A25: any other player."""
    row = state.game.demand_black_actions
    out.extend(row[other] for other in range(state.game.n) if other != player)


def _swap_places_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A27: any other player."""
    row = state.game.swap_actions
    out.extend(row[other] for other in range(state.game.n) if other != player)


def _demand_points_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    """A24: the player's own colour into their own display (losing game: another colour
    into a display of that colour)."""
    game = state.game
    own = state.own_colour(player)
    rows = game.demand_points_actions
    others = [other for other in range(game.n) if other != player]
    if game.losing:
        for colour, displays in state.displays_of.items():
            if colour == own or colour < 0:
                continue
            for display in displays:
                out.extend(rows[(other, colour, display)] for other in others)
    else:
        own_display = state.seat_of[player]
        out.extend(rows[(other, own, own_display)] for other in others)


def _draw_three_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    out.append(state.game.draw_three_action)  # A26


def _pass_hands_targets(state: ArneState, player: int, kind: int, out: list[Action]) -> None:
    out.append(state.game.pass_hands_action)  # A28


WHITE_TARGETS: dict[str, WhiteTargets] = {
    **dict.fromkeys(POINT_TYPES, _point_targets),
    "X3": _x3_targets,
    "TAKE_RANDOM": _take_random_targets,
    "DEMAND_POINTS": _demand_points_targets,
    "DEMAND_BLACK": _demand_black_targets,
    "DRAW_THREE": _draw_three_targets,
    "PASS_HANDS": _pass_hands_targets,
    "SWAP_PLACES": _swap_places_targets,
}


def white_actions(state: ArneState, player: int) -> list[Action]:
    """A20-A28: the active player's declarable white cards with every legal target."""
    game = state.game
    card_kind, targets = game.card_kind, game.white_targets  # WHITE_TARGETS per kind
    out: list[Action] = []
    previous = NONE
    for card in state.hands[player]:
        kind = card_kind[card]
        if kind != previous:
            previous = kind
            add = targets[kind]
            if add is not None:
                add(state, player, kind, out)
    return out


def has_white(state: ArneState, player: int) -> bool:
    """`bool(white_actions(state, player))` without building the list: every white card
    but an X3 or a DEMAND_POINTS always has a use (A20); an X3 needs a stack without one."""
    hand = state.hands[player]
    if not hand:
        return False
    game = state.game
    card_kind, is_black, kind_type = game.card_kind, game.is_black, game.kind_type
    for card in hand:
        kind = card_kind[card]
        if is_black[kind]:
            continue
        if kind_type[kind] == "DEMAND_POINTS":  # A24: it may have no target (losing game)
            return bool(white_actions(state, player))
        if kind_type[kind] != "X3":
            return True
        if any(stack.x3 < 0 for stacks in state.displays for stack in stacks):
            return True
    return False


# The white action card each declaration plays (A22-A28).
WHITE_CARD: dict[type[Action], str] = {
    A.Triple: "X3",
    A.TakeRandom: "TAKE_RANDOM",
    A.DemandPoints: "DEMAND_POINTS",
    A.DemandBlack: "DEMAND_BLACK",
    A.DrawThree: "DRAW_THREE",
    A.PassHands: "PASS_HANDS",
    A.SwapPlaces: "SWAP_PLACES",
}


def declared_kind(game: Arne, action: Action) -> int:
    """The kind of the white card a declaration plays (A10)."""
    if isinstance(action, A.PlayPoint):
        return game.kind_of[(action.card, action.colour)]
    return game.kind_of[(WHITE_CARD[type(action)], "")]


# ==========================================================================================
# white cards: resolving a declared card (A12, A21-A28)
# ==========================================================================================
def _play_point(state: ArneState, action: A.PlayPoint) -> None:
    """A21: onto the discard pile, or as a new stack in the display."""
    if action.display < 0:
        state.discard.append(state.in_play)
    else:
        state.displays[action.display].append(Stack(state.in_play))
    state.in_play = NONE


def _triple(state: ArneState, action: A.Triple) -> None:
    """A22: the X3 goes onto the stack."""
    stacks = state.displays[action.display]
    stacks[action.stack] = stacks[action.stack]._replace(x3=state.in_play)
    state.in_play = NONE


def _take_random(state: ArneState, action: A.TakeRandom) -> None:
    """A23: a uniformly random card; taker and victim see it, others only that it moved."""
    taker, target = state.active, action.target
    hand = state.hands[target]
    if not hand:
        state._emit("took_random", player=taker, target=target, moved=False)
        return
    card = hand.pop(state.rng.randrange(len(hand)))
    insort(state.hands[taker], card)
    known = state.known
    for knower in range(state.game.n):
        if knower == taker:
            known[knower][target] = known[knower][target] - {card}
        elif knower == target:
            known[knower][taker] = known[knower][taker] | {card}
        else:
            known[knower][target] = EMPTY  # any known card of target may be the one that left
    state._emit("took_random", player=taker, target=target, moved=True)
    state.emit_cards("card_taken", frozenset({taker, target}), [card], player=taker, target=target)


def _demand_points(state: ArneState, action: A.DemandPoints) -> None:
    """A24: up to two point cards of the named colour, face up into the display."""
    colour = state.game.colours.index(action.colour)
    start_demand(state, Demand(action.target, state.active, POINT_CARDS, colour, 0, action.display))


def _demand_black(state: ArneState, action: A.DemandBlack) -> None:
    """A25: up to two black cards, face down to the demander."""
    start_demand(state, Demand(action.target, state.active, BLACK_CARDS, NONE, 0, NONE))


def _draw_three(state: ArneState, action: A.DrawThree) -> None:
    state.draw(state.active, 3)  # A26


def _swap_places(state: ArneState, action: A.SwapPlaces) -> None:
    """A27: players exchange seats; hands go with them, displays and colours stay."""
    player, target = state.active, action.target
    seat_of, player_at = state.seat_of, state.player_at
    player_seat, target_seat = seat_of[player], seat_of[target]
    seat_of[player], seat_of[target] = target_seat, player_seat
    player_at[player_seat], player_at[target_seat] = target, player
    game = state.game
    if game.team:  # A54: teams follow the seats; say so
        teams = [seat_of[someone] % game.teams for someone in range(game.n)]
        state._emit("swapped", player=player, target=target, seat_of=list(seat_of), teams=teams)
        if game.options.team_open_hands:
            _reopen_hands(state, player_seat, target_seat)
    else:
        state._emit("swapped", player=player, target=target, seat_of=list(seat_of))


def _reopen_hands(state: ArneState, first_seat: int, second_seat: int) -> None:
    """A47 with open hands: former team-mates keep knowing each other's hands, new
    team-mates are shown theirs."""
    game = state.game
    teams = game.teams
    for seat in (first_seat, second_seat):
        for other in range(game.n):
            if other != seat and other % teams == seat % teams:
                player, mate = state.player_at[seat], state.player_at[other]
                state.emit_cards("team_hand", frozenset({mate}), state.hands[player], player=player)
                state.emit_cards("team_hand", frozenset({player}), state.hands[mate], player=mate)
    old_seat = {state.player_at[first_seat]: second_seat, state.player_at[second_seat]: first_seat}
    for player, old in old_seat.items():
        for other in range(game.n):
            mate = state.player_at[other]
            if mate not in old_seat and other % teams == old % teams:
                state.known[player][mate] = frozenset(state.hands[mate])
                state.known[mate][player] = frozenset(state.hands[player])


def _pass_hands(state: ArneState, action: A.PassHands) -> None:
    """A28: every hand goes to the occupant of the next seat in the turn direction."""
    n = state.game.n
    old = state.hands
    new: list[list[int]] = [[] for _ in range(n)]
    receiver = [0] * n  # who receives each player's hand
    for player in range(n):
        to = state.player_at[(state.seat_of[player] + state.direction) % n]
        receiver[player] = to
        new[to] = old[player]
    known = state.known
    moved: list[list[frozenset[int]]] = [[EMPTY] * n for _ in range(n)]
    for knower in range(n):
        for player in range(n):
            to = receiver[player]
            if to != knower and known[knower][player]:
                moved[knower][to] = known[knower][player]
        moved[knower][receiver[knower]] = frozenset(old[knower])  # the hand it gave away
    state.known = moved
    state.hands = new
    state._emit("hands_passed", hand_sizes=[len(hand) for hand in new], direction=state.direction)
    for player in range(n):
        to = receiver[player]
        state.emit_cards("hand_received", frozenset({player, to}), new[to], player=to, giver=player)


RESOLVE: dict[type[Action], Callable[[ArneState, Any], None]] = {
    A.PlayPoint: _play_point,
    A.Triple: _triple,
    A.TakeRandom: _take_random,
    A.DemandPoints: _demand_points,
    A.DemandBlack: _demand_black,
    A.DrawThree: _draw_three,
    A.SwapPlaces: _swap_places,
    A.PassHands: _pass_hands,
}


# ==========================================================================================
# demands (A24/A25)
# ==========================================================================================
# -- demands (A24/A25) ---------------------------------------------------------------------
def start_demand(state: ArneState, demand: Demand) -> None:
    """A24/A25: the count handed over is public at once; the target then picks the cards
    one per decision when there is a choice to make public-independently (count 2)."""
    game = state.game
    card_kind = game.card_kind
    target, demander = demand.target, demand.demander
    fitting = [card for card in state.hands[target] if demand.fits(game, card_kind[card])]
    count = min(2, len(fitting))
    cards = "black" if demand.cards == BLACK_CARDS else game.colours[demand.colour]
    state._emit("demand", player=demander, target=target, count=count, cards=cards)
    if demand.cards == BLACK_CARDS:
        # A58: third parties know where their known black cards of the target went only
        # when the count shows that the target handed over all of them.
        for knower in range(game.n):
            if knower in (demander, target):
                continue
            row = state.known[knower]
            known_black = frozenset(c for c in row[target] if game.is_black[card_kind[c]])
            if known_black:
                row[target] = row[target] - known_black
                if count < 2:
                    row[demander] = row[demander] | known_black
    if count == 0:
        return
    state.demand = demand._replace(left=count)
    if count < 2 or game.options.demand_selection == "random":
        while state.demand is not None:
            fit = [c for c in state.hands[target] if demand.fits(game, card_kind[c])]
            card = fit[0] if count < 2 else fit[state.rng.randrange(len(fit))]
            give_one(state, card_kind[card], chosen=False)
        return
    state.ask_to_give(target)


def give_one(state: ArneState, kind: int, chosen: bool) -> None:
    """Hand over one card of `kind` (A24: laid face up; A25: face down to the demander)."""
    game = state.game
    demand = state.demand
    assert demand is not None
    target, demander = demand.target, demand.demander
    if demand.cards == POINT_CARDS:
        card = state.take(target, kind)
        state.displays[demand.display].append(Stack(card))
        state._emit(
            "gave_point",
            target=target,
            player=demander,
            card=game.kind_name[kind],
            display=demand.display,
        )
    else:
        hand = state.hands[target]
        card = next(c for c in hand if game.card_kind[c] == kind)
        hand.remove(card)
        insort(state.hands[demander], card)
        state.known[demander][target] = state.known[demander][target] - {card}
        state.known[target][demander] = state.known[target][demander] | {card}
        state._emit("gave_black", target=target, player=demander)
        decision = len(state.history) if chosen else -1
        to = frozenset({demander, target})
        state.emit_cards("gave_card", to, [card], decision=decision, target=target, player=demander)
    if demand.left > 1:
        state.demand = demand._replace(left=demand.left - 1)
        return
    state.demand = None
    state.demand_answered()


def give_actions(state: ArneState) -> list[Action]:
    """A24/A25: the kinds the demand's target may hand over."""
    game = state.game
    demand = state.demand
    assert demand is not None
    out = []
    previous = NONE
    for card in state.hands[demand.target]:
        kind = game.card_kind[card]
        if kind != previous and demand.fits(game, kind):
            out.append(game.give_actions[kind])
        previous = kind
    return out
