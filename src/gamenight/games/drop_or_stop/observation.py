"""What a Drop or Stop seat may see (§6, R25, R29-R32) and its fixed-length encoding.

`view` and `encode` live together, like OpenSpiel's Observer: the encoding reads nothing
but the view, so a learner sees exactly what the seat may see.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from gamenight.games.drop_or_stop.components import DECK_SIZE

if TYPE_CHECKING:
    from collections.abc import Mapping

    from gamenight.games.drop_or_stop.game import DropOrStop
    from gamenight.games.drop_or_stop.state import DropOrStopState


class SeatView(TypedDict):
    """One seat as everybody sees it (R25: the tableau is public, the hand is not)."""

    tableau: list[str]
    visible_min: int
    flex_count: int
    tableau_value: int | str
    certainly_over: bool
    active: bool
    wins: int
    hand_size: int


class View(TypedDict):
    """`state.view(seat)`: a JSON-ready snapshot; `seat` None is a spectator."""

    game: str
    seat: int | None
    players: int
    round: int
    start_seat: int
    to_act: int | None
    target: int
    flex_values: list[int]
    cards: dict[str, dict[str, Any]]
    wins_to_win: int
    hand: list[str] | None
    own_total: int | str | None
    seats: list[SeatView]
    draw_pile_size: int
    discard_pile_size: int
    discard: dict[str, int]
    unseen: dict[str, int]
    rounds: list[dict[str, Any]]
    legal: list[str]
    over: bool
    winners: list[int]
    truncated: bool


def shown(total: int | None) -> int | str:
    """A total as players read it: OVERFLOW (R17) or the number."""
    return "OVERFLOW" if total is None else total


def view(state: DropOrStopState, seat: int | None) -> View:
    """What `seat` may see (§6, R25, R29-R32); None is a spectator."""
    game = state.game
    ids = game.card_id
    lowest_hand = game.smallest_hand
    over = not state.actors
    seats: list[SeatView] = []
    for s in range(game.players):
        tableau = state.tableaux[s]
        visible_min = sum(game.low_value[c] for c in tableau)
        seats.append(
            {
                "tableau": [ids[c] for c in tableau],
                "visible_min": visible_min,
                "flex_count": sum(game.is_flex[c] for c in tableau),
                "tableau_value": shown(game.value(tableau)),
                "certainly_over": visible_min + lowest_hand > game.options.target,
                "active": state.active[s] and not over,
                "wins": state.wins[s],
                "hand_size": len(state.hands[s]),
            }
        )
    known = list(state.discard)
    for tableau in state.tableaux:
        known.extend(tableau)
    if over:  # the final reveal showed every hand (R29)
        for hand in state.hands:
            known.extend(hand)
    own = state.hands[seat] if seat is not None else []
    if not over:
        known.extend(own)
    unseen = Counter(game.card_id) - Counter(ids[c] for c in known)
    return {
        "game": game.name,
        "seat": seat,
        "players": game.players,
        "round": state.round,
        "start_seat": state.start_seat,
        "to_act": None if over else state.actors[0],
        "target": game.options.target,
        "flex_values": list(game.flex_values),
        "cards": game.card_table,
        "wins_to_win": game.options.wins_to_win,
        "hand": None if seat is None else [ids[c] for c in own],  # R31
        "own_total": None if seat is None else shown(state.total(seat)),
        "seats": seats,
        "draw_pile_size": len(state.draw),
        "discard_pile_size": len(state.discard),
        "discard": game.multiset(state.discard),
        "unseen": dict(sorted(unseen.items())),  # R32
        "rounds": list(state.results),  # R29 (a copy: a view is a snapshot)
        "legal": [a.kind for a in state.actions(seat)] if seat is not None else [],
        "over": over,
        "winners": list(state.outcome().winners) if over else [],
        "truncated": state.truncated,
    }


def encoding_size(game: DropOrStop) -> int:
    k = len(game.deck.kinds)
    return k + 2 + game.players * (k + 4) + 2 * k + 2


def encode(game: DropOrStop, view: Mapping[str, Any]) -> np.ndarray:
    """Own hand, own total, every seat from the viewer's left (tableau, active, wins,
    to act, start), discard and unseen counts, pile size and round."""
    k = len(game.deck.kinds)
    n = game.players
    out = np.zeros(encoding_size(game), dtype=np.float32)
    index = game.kind_index
    for cid in view["hand"] or ():
        out[index[cid]] += 1
    total = view["own_total"]
    target = game.options.target
    out[k] = 0.0 if total in (None, "OVERFLOW") else total / target
    out[k + 1] = 1.0 if total == "OVERFLOW" else 0.0
    me = view["seat"] or 0
    base = k + 2
    for j in range(n):
        s = (me + j) % n
        info = view["seats"][s]
        for cid in info["tableau"]:
            out[base + index[cid]] += 1
        out[base + k] = info["active"]
        out[base + k + 1] = info["wins"] / game.options.wins_to_win
        out[base + k + 2] = view["to_act"] == s
        out[base + k + 3] = view["start_seat"] == s
        base += k + 4
    copies = [kind.copies for kind in game.deck.kinds]
    for cid, count in view["discard"].items():
        out[base + index[cid]] = count / copies[index[cid]]
    base += k
    for cid, count in view["unseen"].items():
        out[base + index[cid]] = count / copies[index[cid]]
    base += k
    out[base] = view["draw_pile_size"] / DECK_SIZE
    out[base + 1] = min(view["round"], 20) / 20
    return out
