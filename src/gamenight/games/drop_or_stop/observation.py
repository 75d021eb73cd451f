"""What a Drop or Stop seat may see (§6, R25, R29-R32) and its fixed-length encoding.

`view` and `encode` live together, like OpenSpiel's Observer: the encoding reads nothing
but the view, so a learner sees exactly what the seat may see.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from gamenight.engine.features import Feature, layout
from gamenight.games.drop_or_stop.components import DECK_SIZE

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

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


# -- tensors ----------------------------------------------------------------------------------


def observation_features(game: DropOrStop) -> list[Feature]:
    """The observation tensor (`encode`), block by block; seats are counted from the
    viewer clockwise (seat0 is the viewer, seat1 the next to the left, ...)."""
    k = len(game.deck.kinds)
    kinds = "/".join(kind.id for kind in game.deck.kinds)
    most = max(kind.copies for kind in game.deck.kinds)
    out = [
        Feature("hand", k, f"own hand: cards of each kind ({kinds}) (R31)", game.options.hand_size),
        Feature("total", 1, "own §7 total / TARGET; 0 when OVERFLOW (R31)"),
        Feature("overflow", 1, "1 when the own total is OVERFLOW (R17)"),
    ]
    for j in range(game.players):
        who = "you" if j == 0 else f"the seat {j} to your left"
        out += [
            Feature(f"seat{j}.tableau", k, f"{who}: tableau cards of each kind (R32)", most),
            Feature(f"seat{j}.active", 1, f"{who}: 1 while active in the round (R12)"),
            Feature(f"seat{j}.wins", 1, f"{who}: round wins / WINS_TO_WIN (R20)"),
            Feature(f"seat{j}.to_act", 1, f"{who}: 1 when to act (R9)"),
            Feature(f"seat{j}.start", 1, f"{who}: 1 when holding the start card (R23)"),
        ]
    return [
        *out,
        Feature("discard", k, "discard pile: cards of each kind / copies of that kind (§6)"),
        Feature("unseen", k, "other hands + draw pile: cards of each kind / copies (R32)"),
        Feature("draw_pile", 1, "draw pile size / 39 (§6)"),
        Feature("round", 1, "round number / 20, at most 1"),
    ]


def turns_per_round(game: DropOrStop) -> int:
    """R15: a round has at most 39 - N turns."""
    return DECK_SIZE - game.players


def information_features(game: DropOrStop) -> list[Feature]:
    """The information state tensor: the observation, then this round's turns in order
    (what the observation leaves out: who drew which card when, and when each stopped)."""
    k = len(game.deck.kinds)
    n = game.players
    turns = turns_per_round(game)
    return [
        *observation_features(game),
        Feature(
            "turns",
            turns * n * (k + 1),
            f"this round, turn t (0..{turns - 1}): 1 at t*{n * (k + 1)} + j*{k + 1} + x, the "
            f"mover j seats to your left, x the kind it drew (0..{k - 1}) or {k} for STOP",
        ),
    ]


def highs(features: list[Feature]) -> np.ndarray:
    """The largest value of every entry (a Box's `high`)."""
    return np.concatenate([np.full(f.size, f.high, dtype=np.float32) for f in features])


def encoding_size(game: DropOrStop) -> int:
    return layout(game, observation_features)[0]


def information_size(game: DropOrStop) -> int:
    return layout(game, information_features)[0]


def encode(game: DropOrStop, view: Mapping[str, Any]) -> np.ndarray:
    """The observation tensor of `view`; blocks as `observation_features` says."""
    n = game.players
    size, at = layout(game, observation_features)
    out = np.zeros(size, dtype=np.float32)
    index = game.kind_index
    for cid in view["hand"] or ():
        out[at["hand"].start + index[cid]] += 1
    total = view["own_total"]
    out[at["total"]] = 0.0 if total in (None, "OVERFLOW") else total / game.options.target
    out[at["overflow"]] = 1.0 if total == "OVERFLOW" else 0.0
    me = view["seat"] or 0
    for j in range(n):
        s = (me + j) % n
        info = view["seats"][s]
        base = at[f"seat{j}.tableau"].start
        for cid in info["tableau"]:
            out[base + index[cid]] += 1
        out[at[f"seat{j}.active"]] = info["active"]
        out[at[f"seat{j}.wins"]] = info["wins"] / game.options.wins_to_win
        out[at[f"seat{j}.to_act"]] = view["to_act"] == s
        out[at[f"seat{j}.start"]] = view["start_seat"] == s
    copies = [kind.copies for kind in game.deck.kinds]
    for name in ("discard", "unseen"):
        base = at[name].start
        for cid, count in view[name].items():
            out[base + index[cid]] = count / copies[index[cid]]
    out[at["draw_pile"]] = view["draw_pile_size"] / DECK_SIZE
    out[at["round"]] = min(view["round"], 20) / 20
    return out


def encode_information(
    game: DropOrStop, view: Mapping[str, Any], events: Sequence[Any]
) -> np.ndarray:
    """The information state tensor: `encode(view)`, then this round's turns from the
    seat's event stream (`state.events(seat)`), in order."""
    k = len(game.deck.kinds)
    n = game.players
    out = np.zeros(information_size(game), dtype=np.float32)
    size = encoding_size(game)
    out[:size] = encode(game, view)
    start = max((i for i, e in enumerate(events) if e.kind == "dealt"), default=len(events))
    me = view["seat"] or 0
    turn = 0
    width = n * (k + 1)
    for event in events[start:]:
        if event.kind not in ("dropped", "stopped") or turn >= turns_per_round(game):
            continue
        j = (event.data["seat"] - me) % n
        x = game.kind_index[event.data["card"]] if event.kind == "dropped" else k
        out[size + turn * width + j * (k + 1) + x] = 1.0
        turn += 1
    return out


def compact_event(event: Any) -> str:
    """One event in the short form of the information state string (adapters/tensors.py):
    `N2s0` started (players, start seat), `R3s1` a deal (round, start seat), `hD1,D3` the
    own hand (sorted), `1+D4` seat 1 drew a D4, `0.` seat 0 stopped, `~D1:3,D2:1` a
    reshuffle and what it moved (R30), `=D1,D4;D2,FLEX` the reveal (R29: the hands; totals
    and winners follow from the cards), `over`, `cap` (R34). Anything else: canonical."""
    data = event.data
    kind = event.kind
    if kind == "started":
        return f"N{data['players']}s{data['start_seat']}"
    if kind == "dealt":
        return f"R{data['round']}s{data['start_seat']}"
    if kind == "hand":
        return "h" + ",".join(sorted(data["cards"]))
    if kind == "dropped":
        return f"{data['seat']}+{data['card']}"
    if kind == "stopped":
        return f"{data['seat']}."
    if kind == "reshuffled":
        return "~" + ",".join(f"{c}:{k}" for c, k in sorted(data["cards"].items()))
    if kind == "revealed":
        return "=" + ";".join(",".join(sorted(hand)) for hand in data["hands"])
    if kind == "game_over":
        return "over"
    if kind == "truncated":
        return "cap"
    return f"{kind}{json.dumps(dict(data), sort_keys=True, separators=(',', ':'))}"
