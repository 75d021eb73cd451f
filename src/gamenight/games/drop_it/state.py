"""Drop It rules: the turn state machine of spec §6 (D1..D35, V1..V4).

A turn is AWAIT_ACTION -> RELEASE (D11, D12, D16) -> SIMULATE (D14, D17a) -> ASSESS (D18..D26)
-> [JOKER_DECISION] (V3) -> AWARD (D27) -> ADVANCE (D8, V4); after the 36th, GAME_END (D29).
The world is plain data on the state: the settled poses and the space's snapshot
(immutable tuples), so `copy()` is cheap and a replay is bit for bit.
"""

from __future__ import annotations

import json
import math
import random
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Self

from gamenight.engine.core import Action, BadInput, Outcome, State
from gamenight.games.drop_it import observation, physics, scoring
from gamenight.games.drop_it import refusals as why
from gamenight.games.drop_it.actions import KEEP, SPEND, TAU, Drop, Joker, normalise_angle
from gamenight.games.drop_it.board import COLOURS, KINDS

if TYPE_CHECKING:
    from gamenight.games.drop_it.game import DropIt


class Phase(IntEnum):
    """The states of spec §6 a decision can be owed in, and the end (D29)."""

    AWAIT_ACTION = 0  # the active side drops (D10)
    JOKER_DECISION = 1  # V3: spend a joker on the drop just assessed, or keep it
    GAME_END = 2  # D29


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

    @property
    def phase(self) -> Phase:
        """Where the turn machine (§6) waits: a drop, a joker decision (V3), or the end."""
        if not self._actors:
            return Phase.GAME_END
        return Phase.AWAIT_ACTION if self.pending is None else Phase.JOKER_DECISION

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
        """D10, D11, D33, V3; the reasons in player words (refusals.py)."""
        if self.pending is not None:
            if isinstance(action, Joker):
                return None
            return why.say("joker_first")  # V3
        if isinstance(action, Joker):
            return why.say("joker_not_now")  # V3
        if not isinstance(action, Drop):
            return why.say("not_drop_it")
        side = self.active_side
        words = why.piece_words(action.piece)
        try:
            piece = self.resolve(action.piece)
        except BadInput:  # D33
            return why.say(
                "no_such_piece",
                piece=json.dumps(action.piece[:30], ensure_ascii=False),  # control chars escaped
                colours=", ".join(COLOURS),
                kinds=", ".join(KINDS),
            )
        if piece is None:  # D10
            return self._not_in_supply(side, action.piece, words)
        isfinite = math.isfinite
        for name in ("x", "angle", "depth"):
            if not isfinite(getattr(action, name)):
                return why.say("not_a_number", what=why.aim_word(name))
        if self.game.options.strict:  # D11
            outline = self.game.shapes[piece.split("-")[1]]
            angle = normalise_angle(action.angle)
            lo, hi = self.game.feasible_x_range(outline, angle)
            if not lo <= action.x <= hi:
                return why.say("outside", piece=words, lo=f"{lo:.1f}", hi=f"{hi:.1f}")
            deepest = self.game.max_depth(outline, angle)
            if not 0.0 <= action.depth <= deepest:
                return why.say("too_deep", piece=words, deepest=f"{deepest:.1f}")
        return None

    def _not_in_supply(self, side: int, name: str, words: str) -> str:
        """D10: a piece of another side, or one the side has used up."""
        supply = self.supplies[side]
        if not supply:
            return why.say("nothing_left", piece=words)
        kind = "-".join(name.split("-")[:2])
        left = why.kinds_left(supply)
        if any(p.startswith(kind + "-") for p in supply):  # "red-circle-0" used, another left
            return why.say("this_one_used", piece=why.piece_name(name))
        if any(p.startswith(kind + "-") for p in self.game.deal(self.start_side)[side]):
            return why.say("all_used", piece=words, left=left)
        return why.say("not_yours", piece=words, left=left)

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
        prefix = name + "-"
        return next((p for p in supply if p.startswith(prefix)), None)

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
            # GAME_END before the totals: D31's 3 points per unused joker count only then,
            # and the event must say what outcome() says (D32).
            self._actors = ()
            totals = self.final_totals()
            self._emit(
                "game_over",
                totals=totals,
                unused_jokers=list(self.jokers),
                winners=[s for s in range(len(totals)) if totals[s] == max(totals)],
            )
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
        """What `seat` sees (everything but the future hand noise, D35); see observation.View."""
        return observation.view(self, seat)  # type: ignore[return-value]

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
        new = self._copy_shell()
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
