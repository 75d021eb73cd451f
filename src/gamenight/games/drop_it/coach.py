"""The coach: the planner bot's (PlannerBot) best drops, with their expected points.

`advice(state, seat)` ranks the seat's drops by the planner's static estimate and simulates
the best few in full on `state.determinize(seat, rng)` (the table is open; only the future
hand noise is resampled), with a fixed seed, so the advice is the same for any two states the
seat cannot tell apart. Each drop comes with where its piece came to rest in the first
simulation, for the page to draw as a ghost. Drops are advised as the page sends them (x to
0.01 mm, angle to 0.0001 rad): a pile can tip either way on less than that.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from gamenight.engine.core import Action, State
from gamenight.games.drop_it.actions import Drop
from gamenight.games.drop_it.bots import PlannerBot, joker_policy
from gamenight.games.drop_it.state import DropItState

SEED = 13  # fixed: the same position always gets the same advice
SIMULATIONS = 24  # the planner's own budget of physics runs per decision (about a second)
SHOWN = 3


def as_sent(action: Action) -> Action:
    """The drop as the page sends it (drop-it.js rounds the aim the same way)."""
    assert isinstance(action, Drop)
    return replace(action, x=round(action.x, 2), angle=round(action.angle, 4))


def worth(record: dict[str, Any]) -> float:
    """A drop's points as the planner counts them: a rule broken with a joker in hand is
    worth its raw points less the joker's 3 (spent only from 4 raw points, V3)."""
    if "awarded" in record:
        return float(record["awarded"])
    raw = int(record["raw_points"])
    return float(raw - 3) if raw >= 4 else 0.0


def advice(state: State, seat: int) -> dict[str, Any]:
    """The seat's best drops by mean awarded points (`points`, also the `value` a review
    ranks by), best first; in the joker step, the planner's choice (not valued)."""
    assert isinstance(state, DropItState)
    if state.pending is not None:
        choice = joker_policy(state.view(seat))
        option = {
            "action": choice.to_json(),
            "piece": None,
            "points": None,
            "value": None,
            "rest": None,
        }
        return {"measure": "the planner's choice", "options": [option], "joker": choice.to_json()}
    planner = PlannerBot(seed=SEED)
    per = planner.samples_per_drop(state)
    rng = random.Random(SEED)
    found = []
    for order, ranked in enumerate(planner.ranked_drops(state, seat)[: SIMULATIONS // per]):
        action = as_sent(ranked)
        points, rest = [], None
        for _ in range(per):
            trial = state.determinize(seat, rng)
            trial.act(seat, action)
            record = trial.pending or trial.records[-1]
            points.append(worth(record))
            if rest is None:
                rest = next(
                    (
                        {"x": x, "y": y, "angle": a}
                        for p, x, y, a in trial.poses
                        if p == record["piece"]
                    ),
                    None,
                )
        found.append((sum(points) / per, -order, action, rest, record["piece"]))
    found.sort(key=lambda f: (f[0], f[1]), reverse=True)
    options = [
        {"action": action.to_json(), "piece": piece, "points": mean, "value": mean, "rest": rest}
        for mean, _, action, rest, piece in found[:SHOWN]
    ]
    return {"measure": "expected points", "simulations": per * len(found), "options": options}
