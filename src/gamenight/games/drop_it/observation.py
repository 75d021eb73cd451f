"""What a Drop It seat sees (open information, D35 keeps only the future hand noise
hidden) and its fixed-length encoding, together like OpenSpiel's Observer."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from gamenight.engine.features import Feature, layout
from gamenight.games.drop_it import scoring

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from gamenight.games.drop_it.game import DropIt
    from gamenight.games.drop_it.state import DropItState


class SideView(TypedDict):
    """One side (a seat, or a team under V4) as everybody sees it."""

    side: int
    seats: list[int]
    colours: list[str]
    score: int
    total: int
    tokens: list[str]
    jokers: int
    supply: list[str]


class PieceView(TypedDict):
    """A settled piece: id (D33), centroid in mm and angle in radians."""

    id: str
    x: float
    y: float
    angle: float


class View(TypedDict):
    """`state.view(seat)`: a JSON-ready snapshot; `seat` None is a spectator."""

    game: str
    board: str
    edge_mode: str
    jokers_variant: bool
    seat: int | None
    side: int | None
    turn: int
    turns: int
    phase: str
    active_side: int | None
    actors: list[int]
    sides: list[SideView]
    pieces: list[PieceView]
    last: dict[str, Any] | None
    pending_joker: bool
    frames: dict[str, Any] | None


# The view's word for each phase (pages and the terminal read these).
PHASE_WORDS = ("drop", "joker", "over")


def view(state: DropItState, seat: int | None) -> View:
    """Everything on the table (open information); only the future hand noise is hidden."""
    game = state.game
    n = game.options.sides
    totals = state.final_totals()
    over = state.over
    return {
        "game": "drop-it",
        "board": game.board.id,
        "edge_mode": game.options.edge_mode,
        "jokers_variant": game.options.jokers,
        "seat": seat,
        "side": None if seat is None else game.side_of(seat),
        "turn": state.turn,
        "turns": game.total_pieces,
        "phase": PHASE_WORDS[state.phase],
        "active_side": None if over else state.active_side,
        "actors": list(state.actors),
        "sides": [
            {
                "side": s,
                "seats": list(game.members(s)),
                "colours": list(game.colours[s]),
                "score": state.scores[s],
                "total": totals[s],
                "tokens": scoring.tokens(totals[s], len(game.colours[s])),  # D28
                "jokers": state.jokers[s],
                "supply": list(state.supplies[s]),
            }
            for s in range(n)
        ],
        "pieces": [{"id": p, "x": x, "y": y, "angle": a} for p, x, y, a in state.poses],
        "last": state.pending or (state.records[-1] if state.records else None),
        "pending_joker": state.pending is not None,
        "frames": state.frames,
    }


SIDE_SLOTS = 4  # sides seen from the viewer: the viewer's side first (at most 4 sides)


def observation_features(game: DropIt) -> list[Feature]:
    """The observation tensor (`encode`), block by block."""
    out = [
        Feature(
            f"piece{i}",
            7,
            f"{piece.id}: [on the board, x / board width, y / board height, cos angle, "
            "sin angle, in my supply, in any supply]",
        )
        for i, piece in enumerate(game.pieces)
    ]
    out += [
        Feature(
            f"side{j}",
            5,
            ("my side" if j == 0 else f"the side {j} after mine")
            + ": [present, total / 100, jokers / 2, mine, to drop]",
        )
        for j in range(SIDE_SLOTS)
    ]
    return [
        *out,
        Feature(
            "turn",
            6,
            "[turn / pieces, joker phase, game over, last drop's level / 8, its raw points "
            "/ 20, it broke a rule]",
        ),
    ]


def information_features(game: DropIt) -> list[Feature]:
    """The information state tensor: the observation, then every scored drop in order
    (open information: the board shows the rest; only the future hand noise is hidden)."""
    return [
        *observation_features(game),
        Feature(
            "drops",
            game.total_pieces * (SIDE_SLOTS + 2),
            f"drop t (0..{game.total_pieces - 1}): [its side from mine one-hot ({SIDE_SLOTS}), "
            "points awarded / 20, joker used]",
        ),
    ]


def encoding_size(game: DropIt) -> int:
    return layout(game, observation_features)[0]


def information_size(game: DropIt) -> int:
    return layout(game, information_features)[0]


def encode(game: DropIt, view: Mapping[str, Any]) -> np.ndarray:
    """Per piece (canonical order): on board, x/W, y/H, cos θ, sin θ, in my supply, in any
    supply; per side seen from the viewer (4 slots): present, score, jokers, mine, active;
    then turn, phase and the last drop's level, raw points and violation flag
    (`observation_features`)."""
    size, at = layout(game, observation_features)
    out = np.zeros(size, dtype=np.float32)
    index = {p.id: i for i, p in enumerate(game.pieces)}
    w, h = game.board.width, game.board.height
    for p in view["pieces"]:
        i = at[f"piece{index[p['id']]}"].start
        out[i : i + 5] = (
            1.0,
            p["x"] / w,
            p["y"] / h,
            math.cos(p["angle"]),
            math.sin(p["angle"]),
        )
    me = view["side"]
    for s in view["sides"]:
        for pid in s["supply"]:
            i = at[f"piece{index[pid]}"].start
            out[i + 6] = 1.0
            if s["side"] == me:
                out[i + 5] = 1.0
    n = len(view["sides"])
    for s in view["sides"]:
        out[at[f"side{(s['side'] - (me or 0)) % n}"]] = (
            1.0,
            s["total"] / 100.0,
            s["jokers"] / 2.0,
            float(s["side"] == me),
            float(s["side"] == view["active_side"]),
        )
    last = view["last"] or {}
    out[at["turn"]] = (
        view["turn"] / game.total_pieces,
        float(view["phase"] == "joker"),
        float(view["phase"] == "over"),
        last.get("level", 0) / 8.0,
        last.get("raw_points", 0) / 20.0,
        float(bool(last.get("violations"))),
    )
    return out


def encode_information(game: DropIt, view: Mapping[str, Any], events: Sequence[Any]) -> np.ndarray:
    """The information state tensor: `encode(view)`, then each `scored` event of the
    seat's stream (`state.events(seat)`) in the slot of its turn."""
    out = np.zeros(information_size(game), dtype=np.float32)
    size = encoding_size(game)
    out[:size] = encode(game, view)
    me = view["side"] or 0
    n = len(view["sides"])
    width = SIDE_SLOTS + 2
    for event in events:
        if event.kind != "scored":
            continue
        turn = event.data["turn"]
        if not 0 <= turn < game.total_pieces:
            continue
        base = size + turn * width
        out[base + (event.data["side"] - me) % n] = 1.0
        out[base + SIDE_SLOTS] = event.data["awarded"] / 20.0
        out[base + SIDE_SLOTS + 1] = float(event.data["joker_used"])
    return out
