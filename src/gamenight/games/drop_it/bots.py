"""Drop It bots: `random` and `planner`.

Both use only `state.view(seat)`, `state.actions(seat)` and `state.determinize(seat, rng)`
(plus the game's public board data). The planner never searches a plain copy: a copy holds
the true future hand noise (D35), a determinized state holds noise drawn from the bot's rng.
"""

from __future__ import annotations

import random
import time
from typing import Any

from gamenight.engine.core import Action, State
from gamenight.games.drop_it import KEEP, SPEND, Drop, DropItState
from gamenight.games.drop_it.components import piece_of
from gamenight.games.drop_it.scoring import Tolerances, assess, distance, place


class RandomDropBot:
    """A random point of the drop grid; a random joker choice."""

    quick = True  # picking costs microseconds; the drop itself still runs in a worker

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.actions(seat))


def joker_policy(view: dict[str, Any]) -> Action:
    """V3 [DEFAULT] bot policy: spend a joker when the raw points are 4 or more."""
    return SPEND if (view["last"] or {}).get("raw_points", 0) >= 4 else KEEP


class PlannerBot:
    """Simulates candidate drops and picks the best expected score under the table's jitter.

    1. Every grid drop gets a cheap static estimate: the piece lowered straight down (no
       turning) until it would come within 1 mm of the pile or the floor, then judged with
       the landing rules at a slightly wider touch tolerance (it has not settled yet).
    2. The best estimates are simulated in full on determinized states (fresh noise per
       sample when the table jitters), and the mean awarded points decide. `samples` is the
       number of physics simulations per decision; `budget_s` caps the wall time.
    """

    def __init__(
        self,
        seed: int = 0,
        samples: int = 24,
        budget_s: float | None = None,
        jitter_samples: int = 3,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget_s = budget_s
        self.jitter_samples = jitter_samples

    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, DropItState)
        view = state.view(seat)
        if view["phase"] == "joker":
            return joker_policy(view)
        start = time.perf_counter()
        ranked = self.ranked_drops(state, seat)
        per = self.samples_per_drop(state)
        best: tuple[float, Action] | None = None
        budget = max(1, self.samples)
        for action in ranked[: max(1, budget // per)]:
            total = 0.0
            for _ in range(per):
                total += self._simulate(state, seat, action)
            mean = total / per
            if best is None or mean > best[0]:
                best = (mean, action)
            if self.budget_s is not None and time.perf_counter() - start > self.budget_s:
                break
        assert best is not None
        return best[1]

    def ranked_drops(self, state: DropItState, seat: int) -> list[Action]:
        """The seat's legal drops, best static estimate first (ties in random order)."""
        view = state.view(seat)
        game = state.game
        pile = [
            (p["id"], place(game.shapes[piece_of(p["id"]).kind], (p["x"], p["y"], p["angle"])))
            for p in view["pieces"]
        ]
        table = [(pid, shape, shape.bbox(), _pose(view, i)) for i, (pid, shape) in enumerate(pile)]
        return sorted(
            state.actions(seat),
            key=lambda a: (-self._estimate(state, table, a), self.rng.random()),
        )

    def samples_per_drop(self, state: DropItState) -> int:
        """Simulations per candidate drop: several when the table jitters, else one."""
        return self.jitter_samples if state.game.options.jitter else 1

    def _simulate(self, state: DropItState, seat: int, action: Action) -> float:
        trial = state.determinize(seat, self.rng)
        trial.act(seat, action)
        if trial.pending is not None:  # would we spend a joker on it?
            raw = int(trial.pending["raw_points"])
            return float(raw - 3) if raw >= 4 else 0.0
        return float(trial.records[-1]["awarded"])

    def _estimate(self, state: DropItState, table: list[Any], action: Action) -> float:
        """Static points of the drop lowered straight down (see the class docstring)."""
        assert isinstance(action, Drop)
        game = state.game
        piece = state.resolve(action.piece)
        assert piece is not None
        outline = game.shapes[piece_of(piece).kind]
        me = place(outline, (action.x, 0.0, action.angle))
        lo = me.bottom()
        x0, _, x1, _ = me.bbox()
        column = [row for row in table if row[2][2] >= x0 - 3 and row[2][0] <= x1 + 3]
        # Lower in 2 mm steps from above the local pile until the next step comes too close.
        y = max(max([row[2][3] for row in column], default=0.0) + 1.0 - lo, -lo)
        while y - 2.0 >= -lo:
            shape = place(outline, (action.x, y - 2.0, action.angle))
            bottom, top = shape.bottom() - 1.0, shape.top() + 1.0
            if any(
                row[2][1] <= top and row[2][3] >= bottom and distance(shape, row[1]) < 1.0
                for row in column
            ):
                break
            y -= 2.0
        poses = {row[0]: row[3] for row in column}  # only neighbours can touch it
        poses[piece] = (action.x, y, action.angle)
        found = assess(game.board, game.shapes, poses, piece, game.options.edge_mode, _WIDE)
        if found.violations:
            return -1.0 + 0.01 * found.raw_points
        return float(found.raw_points)


def _pose(view: dict[str, Any], i: int) -> tuple[float, float, float]:
    p = view["pieces"][i]
    return p["x"], p["y"], p["angle"]


_WIDE = Tolerances(touch=2.5)


BOTS: dict[str, type] = {"random": RandomDropBot, "planner": PlannerBot}
HEURISTIC = "planner"
# Difficulty levels: the planner's strength grows with the drops it simulates (about 0.1 s
# of physics each); ISMCTS is too slow here, since every rollout is a game of physics.
LEVELS = {
    "easy": "bot:random",
    "medium": "bot:planner?samples=6&jitter_samples=1",
    "hard": "bot:planner?samples=24",
}

# ISMCTS settings for Drop It: every decision is a drop simulated to rest, so the search
# is shallow and judged by the state's estimate (points so far) rather than by rollouts.
ISMCTS = {"iterations": 60, "max_rollout": 0}

# `gamenight simulate drop-it` without --bots seats random droppers: the planner thinks for
# seconds per drop, which mass simulation cannot afford (ask for it with --bots planner).
SIMULATE = "random"
