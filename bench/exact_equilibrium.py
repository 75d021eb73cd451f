"""How close the exact Drop or Stop player is to the 2-player round equilibrium.

1. Solves the 2-player round as a zero-sum game between stop thresholds (exact, solver.py)
   and prints the equilibrium thresholds for the start seat and the other seat.
2. Plays `exact` against the equilibrium rule (a bot that draws while below it) and prints
   exact's win rate with a 95% interval, and how often exact's decisions agree with what
   the equilibrium rule would have done in the same spot.
Prints one JSON line per figure.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import linprog  # a bench dependency (pyproject extra "bench")

import gamenight
from gamenight.bots import make_seat
from gamenight.engine import play
from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.drop_or_stop.solver import Table, threshold_round
from gamenight.sim.runner import wilson_fraction


def threshold_equilibrium(
    table: Table, deck: Sequence[int], choices: Sequence[int] = tuple(range(5, 12))
) -> dict[str, Any]:
    """The 2-player round as a zero-sum game between stop thresholds (the start seat's
    s0 against the other seat's s1; payoff P(start seat wins) - P(other wins)), solved
    by linear programming: the equilibrium stop policy within threshold rules."""
    k = len(choices)
    payoff = np.zeros((k, k))
    for i, s0 in enumerate(choices):
        for j, s1 in enumerate(choices):
            first = threshold_round(table, deck, (s0, s1), 0)
            second = threshold_round(table, deck, (s0, s1), 1)
            payoff[i, j] = first - second

    def solve(matrix: Any) -> tuple[Any, float]:
        # max v s.t. x^T M >= v, sum x = 1, x >= 0  (variables x..., v)
        rows, cols = matrix.shape
        c = np.zeros(rows + 1)
        c[-1] = -1.0
        a_ub = np.hstack([-matrix.T, np.ones((cols, 1))])
        a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
        bounds = [(0, None)] * rows + [(None, None)]
        res = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds)
        return res.x[:rows], float(res.x[-1])

    start_mix, value = solve(payoff)
    other_mix, _ = solve(-payoff.T)
    return {
        "choices": list(choices),
        "payoff": payoff.tolist(),
        "start_seat": {s: float(p) for s, p in zip(choices, start_mix, strict=True) if p > 1e-6},
        "other_seat": {s: float(p) for s, p in zip(choices, other_mix, strict=True) if p > 1e-6},
        "value": value,
    }


GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 200


class Rule:
    """Draw while the own total is below `s`."""

    def __init__(self, s: int) -> None:
        self.s = s

    def choose(self, state, seat):  # type: ignore[no-untyped-def]
        total = state.view(seat)["own_total"]
        if DROP in state.actions(seat) and total != "OVERFLOW" and total < self.s:
            return DROP
        return STOP


class Watching:
    """Wraps the exact bot and counts how often it agrees with the rule."""

    def __init__(self, bot, rule: Rule) -> None:  # type: ignore[no-untyped-def]
        self.bot, self.rule = bot, rule
        self.same = self.total = 0

    def choose(self, state, seat):  # type: ignore[no-untyped-def]
        action = self.bot.choose(state, seat)
        if len(state.actions(seat)) > 1:
            self.total += 1
            self.same += action == self.rule.choose(state, seat)
        return action


def main() -> None:
    game = gamenight.load("drop-or-stop", players=2)
    table, deck = Table.from_game(game)
    eq = threshold_equilibrium(table, deck)
    print(json.dumps({"figure": "equilibrium_start_seat", "value": eq["start_seat"]}))
    print(json.dumps({"figure": "equilibrium_other_seat", "value": eq["other_seat"]}))
    s = max(eq["start_seat"], key=eq["start_seat"].get)
    rule = Rule(s)
    points = 0.0
    watch = None
    for seed in range(GAMES):
        watch = Watching(make_seat("bot:exact", game, seed), rule) if watch is None else watch
        seats = [watch, rule] if seed % 2 == 0 else [rule, watch]
        points += play(game, seats, seed).outcome().payoff[seed % 2]
    rate, lo, hi = wilson_fraction(points, GAMES)
    print(
        json.dumps(
            {
                "figure": "exact_vs_equilibrium_rule_win_rate",
                "value": round(rate, 3),
                "interval95": [round(lo, 3), round(hi, 3)],
                "games": GAMES,
            }
        )
    )
    assert watch is not None
    print(
        json.dumps(
            {
                "figure": "exact_agrees_with_equilibrium_rule",
                "value": round(watch.same / max(1, watch.total), 3),
                "decisions": watch.total,
            }
        )
    )


if __name__ == "__main__":
    main()
