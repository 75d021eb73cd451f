"""Drop It the game: options resolved to board, pieces and physics, the seats and sides
(V4), the deal (D3-D5), and the integer action grid."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game
from gamenight.games.drop_it import observation, physics, scoring
from gamenight.games.drop_it.actions import KEEP, SPEND, Drop, Joker, normalise_angle
from gamenight.games.drop_it.board import COLOURS, KINDS, Board, load_board
from gamenight.games.drop_it.components import (
    BUNDLES,
    SYMMETRY,
    Outline,
    Piece,
    all_pieces,
    outlines,
)
from gamenight.games.drop_it.options import Options as DropItOptions
from gamenight.games.drop_it.options import side_colours
from gamenight.games.drop_it.state import DropItState


class DropIt(Game):
    """Drop It (Kosmos 2018): shapes fall into a vertical board; spec rules/drop-it.md."""

    name = "drop-it"
    Options = DropItOptions
    action_types = (Drop, Joker)

    def __init__(self, options: DropItOptions) -> None:
        super().__init__(options)
        self.options: DropItOptions = options
        o = options
        self.board: Board = load_board(o.board)
        self.shapes: dict[str, Outline] = outlines(self.board)
        self.pieces: tuple[Piece, ...] = all_pieces(self.board)
        self.kinds = {p.id: p.kind for p in self.pieces}
        self.total_pieces = len(self.pieces)  # D2: every piece is dropped
        self.colours = side_colours(o)
        self.tolerances = scoring.Tolerances(o.touch_tol, o.level_eps, o.bonus_eps, o.height_eps)
        self.physics = physics.PhysicsConfig(
            o.gravity,
            o.dt,
            o.iterations,
            o.collision_slop,
            o.damping,
            o.piece_friction,
            o.wall_friction,
            o.piece_elasticity,
            o.wall_elasticity,
            o.sleep,
            o.sleep_time,
            o.idle_speed,
            o.v_rest,
            o.w_rest,
            o.t_rest,
            o.t_max,
            o.zero_velocity_at_rest,
        )
        self.sigmas = (o.jitter_x, math.radians(o.jitter_angle), o.jitter_vx, o.jitter_spin)
        self.empty_world = physics.empty_world(self.board, self.physics)
        self._build_grid()

    # -- set-up -----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.options.players

    def members(self, side: int) -> tuple[int, ...]:
        """V4: team members in their fixed order (seats alternate); else the side's seat."""
        if not self.options.teams:
            return (side,)
        return tuple(s for s in range(self.players) if s % 2 == side)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.options.teams else seat

    def deal(self, start_side: int) -> list[tuple[str, ...]]:
        """D3, D4, D5, V4: each side's supply in canonical order (D33)."""
        sides = self.options.sides
        supplies = [
            [p.id for p in self.pieces if p.colour in self.colours[s]] for s in range(sides)
        ]
        split = [c for c in COLOURS if not any(c in cs for cs in self.colours)]
        if split:  # D4: 3 players; bundles X, Y, Z from the starting seat clockwise
            for i, bundle in enumerate(BUNDLES.values()):
                side = (start_side + i) % sides
                supplies[side] += [f"{split[0]}-{suffix}" for suffix in bundle]
        order = {p.id: i for i, p in enumerate(self.pieces)}
        return [tuple(sorted(s, key=order.__getitem__)) for s in supplies]

    def start(self, seed: int) -> DropItState:
        return DropItState(self, seed)

    # -- geometry helpers (D11) ------------------------------------------------------------
    def feasible_x_range(self, outline: Outline, angle: float) -> tuple[float, float]:
        return physics.feasible_x_range(self.board, outline, angle, self.options.x_clearance)

    def max_depth(self, outline: Outline, angle: float) -> float:
        """D11 MAX_DEPTH_MODE: the piece's vertical extent, 0, or min(d, extent)."""
        _, y0, _, y1 = physics.extent(outline, angle)
        mode = self.options.max_depth
        if mode == "zero":
            return 0.0
        if mode == "piece_height":
            return y1 - y0
        return min(float(mode), y1 - y0)

    # -- the integer action space: a fixed grid of drops, then the two joker choices ---------
    def _build_grid(self) -> None:
        """Per (colour, kind): angles over one symmetry period, x over the feasible range."""
        o = self.options
        self.grid: dict[str, list[Drop]] = {}
        for colour in COLOURS:
            for kind in KINDS:
                outline = self.shapes[kind]
                steps = 1 if kind == "circle" else o.angle_bins
                drops = []
                for j in range(steps):
                    angle = SYMMETRY[kind] * j / steps
                    lo, hi = self.feasible_x_range(outline, angle)
                    for i in range(o.x_bins):
                        drops.append(
                            Drop(
                                f"{colour}-{kind}",
                                hi if i == o.x_bins - 1 else lo + (hi - lo) * i / (o.x_bins - 1),
                                angle,
                                0.0,
                            )
                        )
                self.grid[f"{colour}-{kind}"] = drops
        self.grid_keys = tuple(self.grid)
        self._grid_list: list[Action] = [a for ck in self.grid_keys for a in self.grid[ck]]
        self._grid_list += [SPEND, KEEP]
        self._index = {a: i for i, a in enumerate(self._grid_list)}

    @property
    def num_actions(self) -> int:
        return len(self._grid_list)

    def action_index(self, action: Action) -> int:
        """The grid index; an off-grid drop maps to its nearest grid point."""
        if action in self._index:
            return self._index[action]
        if not isinstance(action, Drop):
            raise BadInput(f"{action} is not a Drop It action")
        ck = "-".join(action.piece.split("-")[:2])
        if ck not in self.grid:
            raise BadInput(f"{action.piece!r} is not a piece (D33)")
        angle = normalise_angle(action.angle)

        def gap(d: Drop) -> float:
            turn = abs(angle - d.angle) % SYMMETRY[ck.split("-")[1]]
            return abs(action.x - d.x) + 50.0 * min(turn, SYMMETRY[ck.split("-")[1]] - turn)

        return self._index[min(self.grid[ck], key=gap)]

    def action_at(self, index: int) -> Action:
        return self._grid_list[index]

    @property
    def max_decisions(self) -> int:
        """One drop per piece (D2), and at most one joker decision after each (V3)."""
        return self.total_pieces * (2 if self.options.jokers else 1)

    # -- learning encoding -------------------------------------------------------------------

    # -- learning encoding -------------------------------------------------------------------
    @property
    def encoding_size(self) -> int:
        return observation.encoding_size(self)

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """See observation.encode."""
        return observation.encode(self, view)
