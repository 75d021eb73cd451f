"""Drop It rules: options, actions and the turn state machine of spec §6 (D1..D35, V1..V4).

A turn is AWAIT_ACTION -> RELEASE (D11, D12, D16) -> SIMULATE (D14, D17a) -> ASSESS (D18..D26)
-> [JOKER_DECISION] (V3) -> AWARD (D27) -> ADVANCE (D8, V4). The world is plain data on the
state: the settled poses and the pickled pymunk space (immutable bytes), so `copy()` is cheap
and a replay is bit for bit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, Outcome, State
from gamenight.engine.options import setting
from gamenight.games.drop_it import physics, scoring
from gamenight.games.drop_it.board import COLOURS, KINDS, Board, load_board
from gamenight.games.drop_it.components import (
    BUNDLES,
    SEAT_COLOURS,
    SYMMETRY,
    Outline,
    Piece,
    all_pieces,
    outlines,
)

TAU = 2 * math.pi
PHYSICS = physics.PhysicsConfig()  # §4 defaults, one place for options and physics
TOLERANCES = scoring.Tolerances()  # N1 defaults


@dataclass(frozen=True)
class DropItOptions:
    """Every named setting of the spec (§2.3, §4, D4, D8, D11, D16, D34, N1, V1..V4)."""

    players: int = setting(2, "number of players (D3-D5); with teams, 2-6 people", min=2, max=6)
    teams: bool = setting(False, "two teams, seats alternating: seat s plays for team s % 2 (V4)")
    edge_mode: str = setting(
        "color",
        "edge faces: color (D7), shape (V1) or none (easy, V2)",
        choices=("color", "shape", "none"),
    )
    jokers: bool = setting(False, "joker variant: 2 per side, 3 points each if unused (V3)")
    board: str = setting(
        "", "path of a board JSON file (spec §3.10); empty: board_default_v1", served=("",)
    )
    start_seat: int | str = setting(0, "START_SEAT: the side that drops first, or 'random' (D8)")
    seat_colours: str = setting(
        "", "SEAT_COLOURS (D34), e.g. 'red,blue,green' or 'red+yellow,blue+green'; empty: default"
    )
    strict: bool = setting(
        False, "refuse an x or depth outside its limits instead of clamping it (D11)"
    )
    max_depth: float | str = setting(
        "piece_height",
        "MAX_DEPTH_MODE (D11): 'piece_height', 'zero' or a number of mm",
        ceiling=1000,
    )
    jitter: bool = setting(False, "JITTER: seeded hand noise on every drop (D16)")
    jitter_scale: float = setting(
        1.0, "JITTER_SCALE: one factor on all noise sigmas (D16)", min=0.0
    )
    jitter_x: float = setting(1.0, "sigma of the x offset in mm (D16)", min=0.0)
    jitter_angle: float = setting(2.0, "sigma of the angle offset in degrees (D16)", min=0.0)
    jitter_vx: float = setting(20.0, "sigma of the horizontal release speed in mm/s (D16)", min=0.0)
    jitter_spin: float = setting(0.2, "sigma of the release spin in rad/s (D16)", min=0.0)
    touch_tol: float = setting(TOLERANCES.touch, "TOUCH_TOL in mm (N1, N4, N5)", min=0.0)
    level_eps: float = setting(TOLERANCES.level, "LEVEL_EPS in mm (N1, N6)", min=0.0)
    bonus_eps: float = setting(TOLERANCES.bonus, "BONUS_EPS in mm (N1, N7)", min=0.0)
    height_eps: float = setting(TOLERANCES.height, "HEIGHT_EPS in mm (N1, N8)", min=0.0)
    release_clearance: float = setting(1.0, "RELEASE_CLEARANCE in mm (D12)", min=0.0)
    x_clearance: float = setting(0.5, "X_CLEARANCE to the side walls in mm (D11)", min=0.0)
    gravity: float = setting(PHYSICS.gravity, "GRAVITY in mm/s², downwards (§4)", min=0.0)
    dt: float = setting(
        PHYSICS.dt, "DT, the fixed time step in s (§4)", min=1e-5, max=0.1, floor=1 / 1000
    )
    iterations: int = setting(
        PHYSICS.iterations, "ITERATIONS of the pymunk solver (§4)", min=1, ceiling=100
    )
    collision_slop: float = setting(PHYSICS.collision_slop, "COLLISION_SLOP in mm (§4)", min=0.0)
    damping: float = setting(
        PHYSICS.damping, "DAMPING, velocity kept per second (§4)", min=0.0, max=1.0
    )
    piece_friction: float = setting(
        PHYSICS.piece_friction, "per-shape friction of a piece (§4)", min=0.0
    )
    wall_friction: float = setting(
        PHYSICS.wall_friction, "per-shape friction of a wall (§4)", min=0.0
    )
    piece_elasticity: float = setting(
        PHYSICS.piece_elasticity, "per-shape elasticity of a piece (§4)", min=0.0
    )
    wall_elasticity: float = setting(
        PHYSICS.wall_elasticity, "per-shape elasticity of a wall (§4)", min=0.0
    )
    sleep: bool = setting(PHYSICS.sleep, "SLEEP: let resting pieces sleep in pymunk (§4, D14)")
    sleep_time: float = setting(
        PHYSICS.sleep_time, "sleep_time_threshold in s when SLEEP is on (§4)", min=0.0
    )
    idle_speed: float = setting(
        PHYSICS.idle_speed, "idle_speed_threshold in mm/s when SLEEP is on (§4)", min=0.0
    )
    v_rest: float = setting(PHYSICS.v_rest, "V_REST in mm/s (D14)", min=0.0)
    w_rest: float = setting(PHYSICS.w_rest, "W_REST in rad/s (D14)", min=0.0)
    t_rest: float = setting(PHYSICS.t_rest, "T_REST in simulated s (D14)", min=0.0, ceiling=5)
    t_max: float = setting(
        PHYSICS.t_max, "T_MAX, the settling timeout in simulated s (D14)", min=0.0, ceiling=30
    )
    zero_velocity_at_rest: bool = setting(
        PHYSICS.zero_velocity_at_rest, "ZERO_VELOCITY_AT_REST (D14)"
    )
    x_bins: int = setting(
        13, "x positions per piece and angle in the action grid", min=2, max=241, ceiling=41
    )
    angle_bins: int = setting(
        6, "angles per symmetry period in the action grid (circles: 1)", min=1, max=360, ceiling=24
    )
    frame_every: int = setting(
        8, "sample the drop's trajectory every this many steps (0: off)", min=0
    )

    def __post_init__(self) -> None:
        if not self.teams and self.players > 4:
            raise BadInput(
                f"drop-it has 2-4 players (D3-D5), or 2-6 in teams (V4); got "
                f"{self.players} without teams"
            )
        sides = 2 if self.teams else self.players
        if self.start_seat != "random" and self.start_seat not in range(sides):
            raise BadInput(
                f"start_seat must be 'random' or a side 0..{sides - 1} (D8), got "
                f"{self.start_seat!r}"
            )
        if isinstance(self.max_depth, str) and self.max_depth not in ("piece_height", "zero"):
            raise BadInput("max_depth must be 'piece_height', 'zero' or a number of mm (D11)")
        if not isinstance(self.max_depth, str) and not self.max_depth >= 0:
            raise BadInput("max_depth in mm must be 0 or more (D11)")
        load_board(self.board)  # BadInput if the file is missing or malformed
        side_colours(self)

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players


def side_colours(options: DropItOptions) -> tuple[tuple[str, ...], ...]:
    """D34: the colours of each side, from `seat_colours` or the defaults."""
    n = options.sides
    if not options.seat_colours:
        return SEAT_COLOURS[n]
    sides = tuple(
        tuple(c.strip() for c in part.split("+")) for part in options.seat_colours.split(",")
    )
    flat = [c for side in sides for c in side]
    per_side = 2 if n == 2 else 1
    if (
        len(sides) != n
        or any(len(s) != per_side for s in sides)
        or len(set(flat)) != len(flat)
        or any(c not in COLOURS for c in flat)
    ):
        example = ",".join("+".join(s) for s in SEAT_COLOURS[n])
        raise BadInput(
            f"seat_colours for {n} sides needs {per_side} distinct colour(s) per "
            f"side from {', '.join(COLOURS)}, like {example!r}; got "
            f"{options.seat_colours!r}"
        )
    return sides


Options = DropItOptions


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """D11: drop `piece` (an id like "red-square-1", or "red-square", D33) with its centroid
    at `x` mm, turned `angle` radians counter-clockwise, lowest point `depth` mm below the rim.
    """

    kind: ClassVar[str] = "drop"
    piece: str
    x: float
    angle: float
    depth: float = 0.0


@dataclass(frozen=True, slots=True)
class Joker(Action):
    """V3: after a drop that broke a rule, spend a joker (score it anyway) or keep it."""

    kind: ClassVar[str] = "joker"
    spend: bool


SPEND = Joker(True)
KEEP = Joker(False)


def normalise_angle(theta: float) -> float:
    """D11: theta % 2π, and 0.0 where Python's % returns exactly 2π for tiny negatives."""
    t = theta % TAU
    return 0.0 if t == TAU else t


def hand_noise(seed: int, turn: int, sigmas: tuple[float, ...], scale: float) -> list[float]:
    """D16: (dx, dθ, dvx, dω) from `random.Random(f"dropit:{seed}:{turn}")` by Box–Muller
    on `random()` only, each clamped at ±3 σ."""
    rng = random.Random(f"dropit:{seed}:{turn}")
    values = []
    for sigma in sigmas:
        u1, u2 = rng.random(), rng.random()
        z = math.sqrt(-2 * math.log(1 - u1)) * math.cos(TAU * u2)
        s = scale * sigma
        values.append(min(max(s * z, -3 * s), 3 * s))
    return values


class DropItState(State):
    game: DropIt

    def __init__(self, game: DropIt, seed: int) -> None:
        self.game = game
        self.history = []
        self._log = []
        self.game_seed = seed  # D35: secret; a determinized copy gets another one
        options = game.options
        n = options.sides
        start = options.start_seat
        self.start_side = (
            random.Random(f"dropit:{seed}:start").randrange(n) if start == "random" else int(start)
        )  # D8
        self.turn = 0
        self.scores = [0] * n  # D9
        self.jokers = [2 if options.jokers else 0] * n  # V3
        self.side_drops = [0] * n  # V4: a team's own drops so far, for member rotation
        self.supplies = game.deal(self.start_side)
        self.world = game.empty_world
        self.poses: tuple[tuple[str, float, float, float], ...] = ()
        self.records: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None  # a record awaiting the joker decision
        # The last drop's trajectory: raw frames, turned into the view's form when asked for.
        self._trajectory: tuple[tuple[str, ...], tuple[tuple[int, bytes], ...]] | None = None
        self._frames: dict[str, Any] | None = None
        self._emit(
            "started",
            sides=[
                {
                    "side": s,
                    "seats": list(game.members(s)),
                    "colours": list(game.colours[s]),
                    "supply": list(self.supplies[s]),
                }
                for s in range(n)
            ],
            start_side=self.start_side,
            board=game.board.id,
            edge_mode=options.edge_mode,
            jokers=options.jokers,
        )
        self._actors = (self._seat_to_drop(),)

    # -- who plays -------------------------------------------------------------------------
    @property
    def active_side(self) -> int:
        """D8 / V4: turn t is played by side (START_SEAT + t) mod n."""
        return (self.start_side + self.turn) % self.game.options.sides

    def _seat_to_drop(self) -> int:
        """V4: the team's q-th own drop is made by member q mod m."""
        side = self.active_side
        members = self.game.members(side)
        return members[self.side_drops[side] % len(members)]

    # -- the contract -----------------------------------------------------------------------
    def actions(self, seat: int) -> list[Action]:
        """The grid of legal drops (D10, D33), or the joker choice (V3)."""
        if not self._actors or seat != self._actors[0]:
            return []
        if self.pending is not None:
            return [SPEND, KEEP]
        kinds = {pid.rsplit("-", 1)[0] for pid in self.supplies[self.active_side]}
        return [a for ck in self.game.grid_keys if ck in kinds for a in self.game.grid[ck]]

    def _refusal(self, seat: int, action: Action) -> str | None:
        if self.pending is not None:
            if isinstance(action, Joker):
                return None
            return "a joker decision is pending: spend it (joker spend=true) or keep it (V3)"
        if isinstance(action, Joker):
            return "a joker may be spent only right after a drop that broke a rule (V3)"
        if not isinstance(action, Drop):
            return f"{action} is not a Drop It action"
        side = self.active_side
        try:
            piece = self.resolve(action.piece)
        except BadInput as err:
            return str(err)
        if piece is None:
            left = sorted({p.rsplit("-", 1)[0] for p in self.supplies[side]})
            return (
                f"{action.piece} is not in side {side}'s supply (D10); pieces left: "
                f"{', '.join(left)}"
            )
        for name in ("x", "angle", "depth"):
            if not math.isfinite(getattr(action, name)):
                return f"{name} must be a finite number, got {getattr(action, name)!r}"
        if self.game.options.strict:
            outline = self.game.shapes[piece.split("-")[1]]
            angle = normalise_angle(action.angle)
            lo, hi = self.game.feasible_x_range(outline, angle)
            if not lo <= action.x <= hi:
                return (
                    f"x = {action.x} is outside {lo:.2f}..{hi:.2f} mm for {piece} at angle "
                    f"{angle:.4f} rad (D11, strict)"
                )
            deepest = self.game.max_depth(outline, angle)
            if not 0.0 <= action.depth <= deepest:
                return f"depth must be within 0..{deepest:.2f} mm for this piece (D11, strict)"
        return None

    def resolve(self, name: str) -> str | None:
        """D33: the full piece id meant by `name` in the active side's supply, or None."""
        parts = name.split("-")
        if len(parts) not in (2, 3) or parts[0] not in COLOURS or parts[1] not in KINDS:
            raise BadInput(
                f"{name!r} is not a piece: use <colour>-<kind>[-<n>], colours "
                f"{', '.join(COLOURS)}, kinds {', '.join(KINDS)} (D33)"
            )
        supply = self.supplies[self.active_side]
        if len(parts) == 3:
            return name if name in supply else None
        return next((p for p in supply if p.startswith(name + "-")), None)

    def release_pose(self, action: Drop, noise: list[float] | None = None) -> dict[str, Any]:
        """D11 / D12 without side effects: the clamped action and the release pose."""
        game = self.game
        piece = self.resolve(action.piece)
        if piece is None:
            raise BadInput(f"{action.piece} is not in the active side's supply")
        outline = game.shapes[piece.split("-")[1]]
        dx, dtheta = (noise[0], noise[1]) if noise else (0.0, 0.0)
        angle = normalise_angle(action.angle + dtheta)
        lo, hi = game.feasible_x_range(outline, angle)
        x = min(max(action.x + dx, lo), hi)
        depth = min(max(action.depth, 0.0), game.max_depth(outline, angle))
        others = physics.placed_all(game.shapes, game.kinds, self.poses)
        y = physics.release_y(
            game.board, outline, x, angle, depth, others, game.options.release_clearance
        )
        return {"piece": piece, "x": x, "y": y, "angle": angle, "depth": depth}

    def _apply(self, seat: int, action: Action) -> None:
        if isinstance(action, Joker):
            assert self.pending is not None
            decided, self.pending = self.pending, None
            self._award(decided, action.spend)
            return
        assert isinstance(action, Drop)
        game, options = self.game, self.game.options
        side = self.active_side
        noise = [0.0, 0.0, 0.0, 0.0]
        if options.jitter:  # D16
            noise = hand_noise(self.game_seed, self.turn, game.sigmas, options.jitter_scale)
        release = self.release_pose(action, noise)
        piece = release["piece"]
        self.supplies[side] = tuple(p for p in self.supplies[side] if p != piece)  # D10
        result = physics.simulate_drop(
            self.world,
            piece,
            game.shapes[piece.split("-")[1]],
            (release["x"], release["y"], release["angle"]),
            (noise[2], 0.0),
            noise[3],
            game.board.areal_density,
            game.physics,
            options.frame_every,
        )
        self.world, self.poses = result.world, result.poses
        if options.frame_every:
            self._trajectory = (tuple(p[0] for p in result.poses), result.frames)
            self._frames = None
        found = scoring.assess(
            game.board,
            game.shapes,
            {p: (x, y, a) for p, x, y, a in self.poses},
            piece,
            options.edge_mode,
            game.tolerances,
        )
        record: dict[str, Any] = {  # D17
            "turn": self.turn,
            "side": side,
            "seat": seat,
            "piece": piece,
            "requested": action.to_json(),
            "noise": {"dx": noise[0], "dangle": noise[1], "dvx": noise[2], "dspin": noise[3]},
            "release": release,
            "settled": result.settled,
            "steps": result.steps,
            "time": result.steps * options.dt,
            "poses": [list(p) for p in self.poses],
            **found.to_json(),
        }
        self._emit("dropped", **record)
        if found.violations and self.jokers[side] > 0:  # V3: decide after seeing the result
            self.pending = record
            self._actors = (seat,)
        else:
            self._award(record, False)

    def _award(self, record: dict[str, Any], joker: bool) -> None:
        """D23, D27, N9, V3: add the awarded points for good, then ADVANCE (D29)."""
        side = record["side"]
        if joker:
            self.jokers[side] -= 1
        points = scoring.awarded(record["raw_points"], record["violations"], joker)
        self.scores[side] += points
        record = {**record, "joker_used": joker, "awarded": points}
        self.records.append(record)
        self._emit(
            "scored",
            turn=record["turn"],
            side=side,
            piece=record["piece"],
            joker_used=joker,
            awarded=points,
            total=self.scores[side],
        )
        self.turn += 1
        self.side_drops[side] += 1
        if self.turn >= self.game.total_pieces:  # D29
            totals = self.final_totals()
            self._emit(
                "game_over",
                totals=totals,
                unused_jokers=list(self.jokers),
                winners=[s for s in range(len(totals)) if totals[s] == max(totals)],
            )
            self._actors = ()
        else:
            self._actors = (self._seat_to_drop(),)

    @property
    def frames(self) -> dict[str, Any] | None:
        """The last drop's trajectory for animation: piece ids, sampled steps, poses."""
        if self._frames is None and self._trajectory is not None:
            pieces, frames = self._trajectory
            self._frames = {
                "pieces": list(pieces),
                "steps": [f[0] for f in frames],
                # 0.01 mm and 1e-4 rad are plenty for animation and keep the view small.
                "poses": [
                    [
                        [round(x, 2), round(y, 2), round(a, 4)]
                        for x, y, a in physics.decode_frame(f[1])
                    ]
                    for f in frames
                ],
            }
        return self._frames

    def final_totals(self) -> list[int]:
        """D30, D31: drop points plus 3 per unused joker (at the end of the game)."""
        if not self.over:
            return list(self.scores)
        return [s + 3 * j for s, j in zip(self.scores, self.jokers, strict=True)]

    def view(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        n = game.options.sides
        totals = self.final_totals()
        return {
            "game": "drop-it",
            "board": game.board.id,
            "edge_mode": game.options.edge_mode,
            "jokers_variant": game.options.jokers,
            "seat": seat,
            "side": None if seat is None else game.side_of(seat),
            "turn": self.turn,
            "turns": game.total_pieces,
            "phase": "over" if self.over else ("joker" if self.pending else "drop"),
            "active_side": None if self.over else self.active_side,
            "actors": list(self._actors),
            "sides": [
                {
                    "side": s,
                    "seats": list(game.members(s)),
                    "colours": list(game.colours[s]),
                    "score": self.scores[s],
                    "total": totals[s],
                    "tokens": scoring.tokens(totals[s], len(game.colours[s])),  # D28
                    "jokers": self.jokers[s],
                    "supply": list(self.supplies[s]),
                }
                for s in range(n)
            ],
            "pieces": [{"id": p, "x": x, "y": y, "angle": a} for p, x, y, a in self.poses],
            "last": self.pending or (self.records[-1] if self.records else None),
            "pending_joker": self.pending is not None,
            "frames": self.frames,
        }

    def outcome(self) -> Outcome:
        """D32: highest total wins, ties share; every seat gets its side's total."""
        totals = self.final_totals()
        return Outcome.from_scores([totals[self.game.side_of(s)] for s in range(self.game.players)])

    def estimate(self) -> tuple[float, ...]:
        """For rollouts cut short: rank the sides by points so far, unused jokers included."""
        totals = [s + 3 * j for s, j in zip(self.scores, self.jokers, strict=True)]
        return Outcome.from_scores(
            [totals[self.game.side_of(s)] for s in range(self.game.players)]
        ).payoff

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new._log = list(self._log)
        new.scores = list(self.scores)
        new.jokers = list(self.jokers)
        new.side_drops = list(self.side_drops)
        new.supplies = list(self.supplies)
        new.records = list(self.records)
        return new

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Open information except the future hand noise (D35): reseed it from `rng`."""
        new = self.copy()
        new.game_seed = rng.getrandbits(62)
        return new


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
    @property
    def encoding_size(self) -> int:
        return 7 * self.total_pieces + 5 * 4 + 6

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """Per piece (canonical order): on board, x/W, y/H, cos θ, sin θ, in my supply, in any
        supply; per side seen from the viewer (4 slots): present, score, jokers, mine, active;
        then turn, phase and the last drop's level, raw points and violation flag."""
        out = np.zeros(self.encoding_size, dtype=np.float32)
        index = {p.id: i for i, p in enumerate(self.pieces)}
        w, h = self.board.width, self.board.height
        for p in view["pieces"]:
            i = 7 * index[p["id"]]
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
                out[7 * index[pid] + 6] = 1.0
                if s["side"] == me:
                    out[7 * index[pid] + 5] = 1.0
        base = 7 * self.total_pieces
        n = len(view["sides"])
        for s in view["sides"]:
            slot = (s["side"] - (me or 0)) % n
            out[base + 5 * slot : base + 5 * slot + 5] = (
                1.0,
                s["total"] / 100.0,
                s["jokers"] / 2.0,
                float(s["side"] == me),
                float(s["side"] == view["active_side"]),
            )
        tail = base + 20
        last = view["last"] or {}
        out[tail : tail + 6] = (
            view["turn"] / self.total_pieces,
            float(view["phase"] == "joker"),
            float(view["phase"] == "over"),
            last.get("level", 0) / 8.0,
            last.get("raw_points", 0) / 20.0,
            float(bool(last.get("violations"))),
        )
        return out
