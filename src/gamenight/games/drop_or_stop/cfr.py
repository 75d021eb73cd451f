"""Discounted CFR (DCFR) on the 2-player round tree (round_tree.py), vectorized with numpy.

A pass walks the public tree a group of nodes at a time; every quantity is an array over
(nodes of the group, joint hands), so one numpy operation does the work of thousands of
tree-walk steps. Per half-iteration (alternating updates, seat P):

- forward: the reach of every node for every joint hand, leaving out P's own choices
  (deal chance, card chance, the other seat's strategy); it is also the other seat's own
  reach, which weights its average strategy;
- backward: the value of every node for S (the start seat) under the current strategies;
  P's regrets at its nodes: for each hand, the reach-weighted gain of each action over the
  node's value.

DCFR (Brown and Sandholm 2019, alpha=1.5, beta=0, gamma=2) discounts old positive regrets
by t^a/(t^a+1), negative ones by 1/2, and the average strategy's old part by (t/(t+1))^g.

A round's result is worth what the game makes of it: `utilities[outcome]`, S's payoff for
each of S_WINS, O_WINS, TIE, NOBODY (a context of the full game, see equilibrium.py).

Nodes merge tableaux that hold the same cards in another order, so the strategy is a
function of (hand, public multisets). `best_response` here answers within that view (a
lower bound on the exploitability of the real game, where order is seen); the exact
answer is `exact_response.py`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gamenight.games.drop_or_stop.round_tree import OTHER, START, RoundTree

ALPHA, BETA, GAMMA = 1.5, 0.0, 2.0


@dataclass
class Group:
    """The arrays of one group of decision nodes (start..stop-1, one mover)."""

    start: int
    stop: int
    mover: int
    chance: np.ndarray  # (n, kinds, J): P(next card kind)
    may_drop: np.ndarray  # (n, hands)
    child: np.ndarray  # (n, 1 + kinds) into the value table (a zero row where none)
    hand: np.ndarray  # (J,): the mover's hand index in each joint hand
    onehot: np.ndarray = field(repr=False)  # (J, hands): sums joint hands by mover's hand
    # Per slot (STOP, then DROP of each kind): the rows whose child is a decision node
    # (None: every row) and those children.
    flows: list[tuple[int, np.ndarray | None, np.ndarray]] = field(default_factory=list, repr=False)


class RoundSolver:
    """DCFR for one round tree; `utilities` may change between calls (warm start)."""

    def __init__(self, tree: RoundTree, dtype: type = np.float32) -> None:
        self.tree = tree
        self.dtype = dtype
        d, j, h = tree.decisions, len(tree.joint), len(tree.hands)
        nodes = len(tree.keys)
        self.groups = []
        for start, stop in tree.groups:
            mover = int(tree.mover[start])
            hand = tree.joint[:, mover]
            child = tree.child[start:stop]
            flows: list[tuple[int, np.ndarray | None, np.ndarray]] = []
            for slot in range(child.shape[1]):
                kids = child[:, slot]
                inside = (kids >= 0) & (kids < d)
                if inside.all():
                    flows.append((slot, None, kids.copy()))
                elif inside.any():
                    flows.append((slot, np.flatnonzero(inside), kids[inside]))
            self.groups.append(
                Group(
                    start,
                    stop,
                    mover,
                    np.ascontiguousarray(tree.chance(start, stop).transpose(0, 2, 1), dtype=dtype),
                    tree.may_drop(start, stop),
                    np.where(child >= 0, child, nodes),
                    hand,
                    np.eye(h, dtype=dtype)[hand],
                    flows,
                )
            )
        self.regret = np.zeros((d, h, 2))  # [..., 0] STOP, [..., 1] DROP
        self.average_sum = np.zeros((d, h, 2))
        self.drop = np.zeros((d, h))  # the current strategy: P(DROP)
        for g in self.groups:
            self.drop[g.start : g.stop] = np.where(g.may_drop, 0.5, 0.0)
        self.reach: np.ndarray = np.zeros((d, j), dtype=dtype)
        # Values of every node for S, then a zero row (a missing child); END rows are set
        # by the utilities.
        self.values: np.ndarray = np.zeros((nodes + 1, j), dtype=dtype)
        self.value = self.values[:d]
        self.prior: np.ndarray = tree.prior.astype(dtype)
        self.iterations = 0
        self.utilities = np.zeros(4)
        self.touched = 0  # (node, joint hand) pairs visited, for nodes/s

    def set_utilities(self, utilities: np.ndarray) -> None:
        self.utilities = np.asarray(utilities, dtype=np.float64)
        d = self.tree.decisions
        self.values[d:-1] = self.utilities.astype(self.dtype)[self.tree.outcomes]

    # -- passes -------------------------------------------------------------------------
    def _forward(self, drop: np.ndarray, leave_out: int | None) -> np.ndarray:
        """Reach of every decision node per joint hand, with seat `leave_out`'s own
        choices left out (None: everyone's in)."""
        reach = self.reach
        reach.fill(0)
        reach[self.tree.root] = self.prior
        for g in self.groups:
            x = reach[g.start : g.stop]
            if g.mover == leave_out:
                p_drop: np.ndarray = g.may_drop[:, g.hand].astype(self.dtype)
                p_stop = None
            else:
                p_drop = drop[g.start : g.stop][:, g.hand].astype(self.dtype)
                p_stop = 1 - p_drop
            x_drop = x * p_drop
            for slot, rows, kids in g.flows:
                if slot == 0:
                    flow = x if p_stop is None else x * p_stop
                    reach[kids] += flow if rows is None else flow[rows]
                elif rows is None:
                    reach[kids] += x_drop * g.chance[:, slot - 1]
                else:
                    reach[kids] += x_drop[rows] * g.chance[rows, slot - 1]
            self.touched += x.size
        return reach

    def _child_values(self, g: Group) -> tuple[np.ndarray, np.ndarray]:
        """Values (for S) after STOP and after DROP at every node of `g`, per joint hand."""
        stop = self.values[g.child[:, 0]]
        after = self.values[g.child[:, 1:]]  # (n, kinds, J)
        drop = np.einsum("nkj,nkj->nj", after, g.chance)
        return stop, drop

    def _backward(
        self, drop: np.ndarray, update: int | None = None, respond: int | None = None
    ) -> None:
        """Values under `drop`; regrets of seat `update`; or seat `respond` best-responds
        (per hand and node, by the reach from the last forward pass)."""
        for g in reversed(self.groups):
            v_stop, v_drop = self._child_values(g)
            rows = slice(g.start, g.stop)
            sign = 1.0 if g.mover == START else -1.0
            if g.mover == respond:
                x = self.reach[rows]
                gain = sign * (x * (v_drop - v_stop)) @ g.onehot  # (n, hands)
                take = np.where(g.may_drop & (gain > 0), 1.0, 0.0)
                drop[rows] = take
            p_drop: np.ndarray = drop[rows][:, g.hand].astype(self.dtype)
            v = v_stop + p_drop * (v_drop - v_stop)
            self.value[rows] = v
            if g.mover == update:
                x = self.reach[rows]
                r_stop = sign * (x * (v_stop - v)) @ g.onehot
                r_drop = sign * (x * (v_drop - v)) @ g.onehot
                self._regret(g, r_stop, r_drop)

    def _regret(self, g: Group, r_stop: np.ndarray, r_drop: np.ndarray) -> None:
        t = self.iterations + 1
        rows = slice(g.start, g.stop)
        regret = self.regret[rows]
        positive = t**ALPHA / (t**ALPHA + 1)
        negative = t**BETA / (t**BETA + 1)
        regret *= np.where(regret > 0, positive, negative)
        regret[..., 0] += r_stop
        regret[..., 1] += np.where(g.may_drop, r_drop, 0.0)
        plus = np.maximum(regret, 0)
        plus[..., 1] *= g.may_drop
        total = plus.sum(axis=2)
        uniform = np.where(g.may_drop, 0.5, 0.0)
        self.drop[rows] = np.where(total > 0, plus[..., 1] / np.where(total > 0, total, 1), uniform)

    def _accumulate(self, seat: int) -> None:
        """Add `seat`'s current strategy to its average, weighted by its own reach (the
        reach just computed with the other seat left out)."""
        t = self.iterations + 1
        keep = (t / (t + 1)) ** GAMMA
        for g in self.groups:
            if g.mover != seat:
                continue
            rows = slice(g.start, g.stop)
            weight = self.reach[rows] @ g.onehot  # (n, hands)
            acc = self.average_sum[rows]
            acc *= keep
            acc[..., 0] += weight * (1 - self.drop[rows])
            acc[..., 1] += weight * self.drop[rows]

    # -- the solver ---------------------------------------------------------------------
    def iterate(self, iterations: int) -> None:
        for _ in range(iterations):
            for seat in (START, OTHER):
                self._forward(self.drop, leave_out=seat)
                self._accumulate(OTHER if seat == START else START)
                self._backward(self.drop, update=seat)
            self.iterations += 1

    def average(self) -> np.ndarray:
        """The average strategy: P(DROP) per (decision node, mover's hand)."""
        total = self.average_sum.sum(axis=2)
        fallback = self.drop
        return np.where(
            total > 0, self.average_sum[..., 1] / np.where(total > 0, total, 1), fallback
        )

    def evaluate(self, drop: np.ndarray) -> float:
        """S's expected payoff when both seats play `drop`."""
        self._backward(drop.copy())
        return float(self.prior @ self.value[self.tree.root].astype(np.float64))

    def best_response(self, drop: np.ndarray, seat: int) -> tuple[float, np.ndarray]:
        """`seat`'s best payoff against `drop` (within this tree's view: see the module
        docstring) and the responding strategy."""
        self._forward(drop, leave_out=seat)
        respond = drop.copy()
        self._backward(respond, respond=seat)
        value = float(self.prior @ self.value[self.tree.root].astype(np.float64))
        return (value if seat == START else 1.0 - value), respond

    def nash_conv(self, drop: np.ndarray) -> float:
        """Sum of both seats' best-response gains against `drop` (this tree's view)."""
        best_s, _ = self.best_response(drop, START)
        best_o, _ = self.best_response(drop, OTHER)
        return best_s + best_o - 1.0

    # -- the solver's state, per context ---------------------------------------------------
    def state(self) -> dict[str, np.ndarray | int]:
        return {
            "regret": self.regret.copy(),
            "average_sum": self.average_sum.copy(),
            "drop": self.drop.copy(),
            "iterations": self.iterations,
        }

    def start(self, state: dict[str, np.ndarray | int]) -> None:
        """Begin again from `state` (`state()` of a solver that has not iterated: no
        regrets, uniform play, no average)."""
        self.regret = np.array(state["regret"], dtype=np.float64)
        self.average_sum = np.array(state["average_sum"], dtype=np.float64)
        self.drop = np.array(state["drop"], dtype=np.float64)
        self.iterations = int(state["iterations"])


# -- the full game: a round's outcomes valued by the game they lead to --------------------
Context = tuple[int, int]  # (round wins of the start seat, round wins of the other seat)


def contexts(wins_to_win: int) -> list[Context]:
    """Every context of a 2-player game before it ends, most wins first."""
    return sorted(
        ((a, b) for a in range(wins_to_win) for b in range(wins_to_win)),
        key=lambda c: (-(c[0] + c[1]), -c[0]),
    )


def utilities(context: Context, values: dict[Context, float], wins_to_win: int) -> np.ndarray:
    """S's payoff for each round outcome (S_WINS, O_WINS, TIE, NOBODY) in `context`: 1 for
    a game won, 0 lost, 1/2 shared (R21, R28 constant-sum); otherwise the value of the
    next round for its start seat, which is O now (R23), so S gets 1 minus it."""
    a, b = context

    def after(sa: int, sb: int) -> float:
        done_s, done_o = sa >= wins_to_win, sb >= wins_to_win
        if done_s and done_o:
            return 0.5
        if done_s:
            return 1.0
        if done_o:
            return 0.0
        return 1.0 - values.get((sb, sa), 0.5)

    return np.asarray([after(a + 1, b), after(a, b + 1), after(a + 1, b + 1), after(a, b)])


@dataclass
class GameSolution:
    """The policy of every context and what it is worth to the start seat."""

    policies: dict[Context, np.ndarray]
    values: dict[Context, float]
    utilities: dict[Context, np.ndarray]
    nash_conv: dict[Context, float]  # within the tree's view (a lower bound)
    iterations: dict[Context, int]
    seconds: float = 0.0
    touched: int = 0


def solve_game(
    solver: RoundSolver,
    wins_to_win: int,
    iterations: int = 60,
    passes: int = 2,
    report: Callable[[Context, int, float, int], None] | None = None,
) -> GameSolution:
    """Every context from the last round back to the first (backward induction over the
    round wins, R20-R21), each solved afresh by `iterations` of DCFR. A round nobody wins
    (R19) is replayed with the start seat moved (R23), which ties (a, b) to (b, a) (and
    (a, a) to itself): each level of contexts is solved `passes` times, every pass with the
    values the previous one found (the first guesses 1/2 for those not yet solved)."""
    begin = time.perf_counter()
    touched0 = solver.touched
    fresh = solver.state()
    values: dict[Context, float] = {}
    policies: dict[Context, np.ndarray] = {}
    used: dict[Context, np.ndarray] = {}
    conv: dict[Context, float] = {}
    done: dict[Context, int] = {}
    levels = sorted({a + b for a, b in contexts(wins_to_win)}, reverse=True)
    for level in levels:
        group = [c for c in contexts(wins_to_win) if sum(c) == level]
        for p in range(passes):
            for context in group:
                solver.set_utilities(utilities(context, values, wins_to_win))
                solver.start(fresh)
                solver.iterate(iterations)
                average = solver.average()
                values[context] = solver.evaluate(average)
                policies[context] = average
                done[context] = done.get(context, 0) + solver.iterations
                if report is not None:
                    report(context, p, values[context], solver.iterations)
    for context in contexts(wins_to_win):  # last first: values as the final policies make them
        policy = policies[context]
        solver.set_utilities(utilities(context, values, wins_to_win))
        values[context] = solver.evaluate(policy)
        conv[context] = solver.nash_conv(policy)
        used[context] = solver.utilities
    return GameSolution(
        policies, values, used, conv, done, time.perf_counter() - begin, solver.touched - touched0
    )
