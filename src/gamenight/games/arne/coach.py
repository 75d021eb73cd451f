"""The coach: what the hard bot (ISMCTS) thinks of the seat's options, in numbers.

`advice(state, seat)` searches the seat's information set: every iteration starts from
`state.determinize(seat, rng)` with a fixed seed, so the advice is the same for any two
states the seat cannot tell apart (it knows no more than the player). The search is the
hard bot's own (the game's ISMCTS settings), on 1,000 iterations: 0.6-0.9 s of CPU.

`review_advice` is the same search on REVIEW_ITERATIONS, for the review of a finished game
(server/review_coach.py), which asks it at every decision: at 1,000 iterations a 60-decision
game took a minute of CPU and 119 s on a busy server; at 300 about 15 s.
"""

from __future__ import annotations

from typing import Any

from gamenight.bots import search_settings
from gamenight.bots.ismcts import ISMCTSBot
from gamenight.engine.core import State

ITERATIONS = 1000  # about 0.7 s of CPU a decision (rollouts cut after 20 decisions)
REVIEW_ITERATIONS = 300  # a review's, every decision of a game (bench/coach_speed.py)
SEED = 13  # fixed: the same position always gets the same advice
SHOWN = 3


def advice(state: State, seat: int, iterations: int = ITERATIONS) -> dict[str, Any]:
    """The seat's best plays by ISMCTS visit share (`share`, of `iterations` searches), each
    with its mean payoff (`value`: at 2 players the chance to win; at more, 1 for first
    place down to 0 for last)."""
    legal = state.actions(seat)
    settings = search_settings(state.game.name, state.game.players)
    settings["iterations"] = iterations
    players = state.game.players
    if len(legal) == 1:
        options = [{"action": legal[0].to_json(), "share": 1.0, "value": None}]
        return {"players": players, "iterations": 0, "options": options}
    bot = ISMCTSBot(seed=SEED, **settings)
    children = bot.search(state, seat)
    total = sum(child.visits for child in children) or 1
    ranked = sorted(children, key=lambda n: (-n.visits, -n.reward))
    options = [
        {
            "action": child.action.to_json(),
            "share": child.visits / total,
            "value": child.reward / child.visits if child.visits else None,
        }
        for child in ranked[:SHOWN]
        if child.action is not None
    ]
    return {"players": players, "iterations": bot.last_iterations, "options": options}


def review_advice(state: State, seat: int) -> dict[str, Any]:
    """`advice` on the review's budget (REVIEW_ITERATIONS searches)."""
    return advice(state, seat, REVIEW_ITERATIONS)
