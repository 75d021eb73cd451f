"""Drop or Stop bots. They read only `state.view(seat)` (what the seat may see, §6)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from gamenight.engine.core import Action, State
from gamenight.engine.driver import RandomBot
from gamenight.games.drop_or_stop.actions import DROP, STOP
from gamenight.games.drop_or_stop.equilibrium import EquilibriumBot
from gamenight.games.drop_or_stop.scoring import value_cards
from gamenight.games.drop_or_stop.solver import round_from_view, win_chances

# The expected value of a hidden hand under the standard deck: used to guess how much an
# opponent holds behind their tableau.
_HIDDEN_HAND_GUESS = 6


class ThresholdBot:
    """Draw until the own total reaches `stop_at`, adjusted by what the seat knows.

    - never draw when already over the target (it cannot win the round, R18);
    - count cards: stop when the chance that the next card overflows (from the unseen
      multiset, R32) is above `max_risk`;
    - when every other seat has passed, draw only while behind the best opponent guess
      (tableau value + an average hidden hand), since nothing more is to be gained.
    """

    quick = True  # tens of microseconds a move (see gamenight.bots.is_quick)
    # a total (the target's ceiling is 100) and a chance (see gamenight.bots.make)
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"stop_at": (0, 100), "max_risk": (0, 1)}

    def __init__(self, seed: int = 0, stop_at: int = 8, max_risk: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.stop_at = stop_at
        self.max_risk = max_risk

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if DROP not in legal:
            return STOP
        view = state.view(seat)
        total = view["own_total"]
        if total == "OVERFLOW":
            return STOP
        risk = overflow_risk(view)
        others = [s for i, s in enumerate(view["seats"]) if i != seat]
        if not any(s["active"] for s in others):
            rivals = [
                s["visible_min"] + _HIDDEN_HAND_GUESS for s in others if not s["certainly_over"]
            ]
            best = max(rivals, default=0)
            return DROP if total <= best and risk <= max(self.max_risk, 0.6) else STOP
        if total >= self.stop_at or risk > self.max_risk:
            return STOP
        return DROP


def overflow_risk(view: dict[str, Any]) -> float:
    """The chance that one more card from the seat's unseen multiset (R32) overflows it."""
    table = view["cards"]
    flex = (view["flex_values"][0], view["flex_values"][1])
    seat = view["seat"]
    held = [(table[c]["flex"], table[c]["value"]) for c in view["hand"]]
    held += [(table[c]["flex"], table[c]["value"]) for c in view["seats"][seat]["tableau"]]
    unseen = view["unseen"]
    total = sum(unseen.values())
    if total == 0:
        return 1.0
    bad = sum(
        n
        for cid, n in unseen.items()
        if value_cards([*held, (table[cid]["flex"], table[cid]["value"])], view["target"], flex)
        is None
    )
    return bad / total


class ExactBot:
    """DROP or STOP by the exact chance of winning the round (solver.py): every way the
    unseen cards can lie is enumerated, opponents follow the stop rule fitted to what this
    seat has seen of them, and this seat plays best afterwards.

    It is a best response to an opponent model, not an equilibrium: it assumes that
    every opponent draws while its total is below a threshold s (fitted to the decisions
    the reveals of earlier rounds showed, R29; 8 until there are any) and that its hidden
    hand is consistent with that rule and its draws so far; and it maximises the chance
    of winning this round, not the game (the round wins standing is not read). Against an
    opponent who does not play a threshold rule it can be exploited: bench/equilibrium.py
    measures by how much."""

    ranges: ClassVar[dict[str, tuple[float, float]]] = {"prior": (0, 100)}  # a total

    def __init__(self, seed: int = 0, prior: int = 8) -> None:
        self.prior = prior
        self.last: tuple[float, float] = (0.0, 0.0)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if DROP not in legal:
            return STOP
        situation = round_from_view(state.view(seat), state.events(seat), self.prior)
        drop, stop = win_chances(situation)
        self.last = (drop, stop)
        return DROP if drop > stop else STOP


# `equilibrium` (equilibrium.py): the solved 2-player policy of equilibrium.npz.
BOTS = {
    "random": RandomBot,
    "threshold": ThresholdBot,
    "exact": ExactBot,
    "equilibrium": EquilibriumBot,
}
LEVELS = {"easy": "bot:threshold?stop_at=6", "medium": "bot:threshold", "hard": "bot:exact"}


# The shipped learned policy (learned.npz, one network per table size; `bot:learned`) is
# medium where one is shipped: it plays between threshold and exact. Tournaments of 200
# games per group (2026-12-01): it finished ahead of threshold in 61% (54-68%) at 2
# players, 63% (56-70%) at 3 and 64% (61-67%) at 4; behind exact in 60% (53-67%) at 2
# and 3 (exact at 4 players takes over a minute a game: not measured).
LEARNED_PLAYERS = (2, 3, 4)


def levels_for(players: int) -> dict[str, str]:
    """The exact player's enumeration grows with every hidden hand: at 3-4 players a
    decision can take seconds, so `hard` is ISMCTS there. Medium is the learned policy
    where one is shipped for the table size."""
    levels = dict(LEVELS)
    if players > 2:
        levels["hard"] = "bot:ismcts?iterations=400&rollout=heuristic"
    if players in LEARNED_PLAYERS:
        levels["medium"] = "bot:learned"
    return levels


HEURISTIC = "threshold"
