"""Exact best response in a real 2-player Drop or Stop round, cards seen in order.

The certificate for the equilibrium and for every bot: against a fixed policy of one seat,
the other seat's best payoff, computed over the real round (§5) as people play it: every
card in the order it came, the exact chance of each card from the 39-card deck without
replacement, both hidden hands dealt (R7). The responder sees what a seat sees (its own
hand and the public record, R25, R29-R32) and remembers all of it; the policy it answers
may read anything that seat sees, in order too (`Policy.ordered`).

The walk goes over public histories; at each, it holds the weight of every joint hand
(deal chance x card chance x the policy's probability of the moves it made with its
hand) and returns, for each hand of the responder, its best payoff summed over the hands
the other may hold. Histories that differ only in the order of cards lead to the same
future when the policy does not read order, and the future payoff is homogeneous in the
other seat's reach: such histories are met once (memo on the multiset node and the
normalised reach). A policy that reads order (the `exact` bot) names what of the order it
reads (`Policy.memo`), and that joins the memo's key.

Used by bench/equilibrium.py and tests; it knows nothing of the solver but the tree's
nodes (round_tree.py, for the multisets, phases and forced stops it shares with the game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from gamenight.games.drop_or_stop.actions import DROP
from gamenight.games.drop_or_stop.actions import STOP as STOP_ACTION
from gamenight.games.drop_or_stop.round_tree import BOTH, O_ALONE, OTHER, S_ALONE, START, RoundTree

# A public history of the round: (seat, kind) for a DROP that revealed a card of `kind`,
# (seat, -1) for a STOP, in order.
History = tuple[tuple[int, int], ...]


class Policy(Protocol):
    """The policy answered: P(DROP) for each hand of the seat to move at a node."""

    ordered: bool  # reads the order of the public history (then `memo` must say what)

    def drop(self, node: int, history: History) -> np.ndarray:
        """P(DROP) per hand of the mover (tree.hands order) at decision `node`."""
        ...

    def memo(self, history: History, node: int) -> Hashable:
        """What of `history` the policy's decisions at `node` and after read besides the
        node (None if nothing)."""
        ...


@dataclass
class TablePolicy:
    """A policy given as a table over a tree's decision nodes (CFR's output). `rows` maps
    the nodes of the tree it is asked about to rows of the table (-1: STOP), when that tree
    is another (the unpruned tree of a bot's best response, say)."""

    table: np.ndarray  # (rows, hands): P(DROP)
    rows: np.ndarray | None = None
    ordered: bool = False

    def drop(self, node: int, history: History) -> np.ndarray:
        row = node if self.rows is None else int(self.rows[node])
        return self.table[row] if row >= 0 else np.zeros(self.table.shape[1])

    def memo(self, history: History, node: int) -> Hashable:
        return None


def rows_between(tree: RoundTree, solved: RoundTree) -> np.ndarray:
    """For every decision node of `tree`, the same public node of `solved` (-1 if the
    solved tree has none: a node its pruning left out, where the policy stops)."""
    return np.asarray(
        [solved.index.get(key, -1) for key in tree.keys[: tree.decisions]], dtype=np.int64
    )


@dataclass
class Responder:
    """The best response of seat `seat` (S or O) to `policy` (the other seat) in a round
    whose outcomes are worth `utilities` to S (S_WINS, O_WINS, TIE, NOBODY)."""

    tree: RoundTree
    seat: int
    policy: Policy
    utilities: np.ndarray
    memo: dict[Hashable, np.ndarray] = field(default_factory=dict)
    visited: int = 0

    def __post_init__(self) -> None:
        tree = self.tree
        self.mine = tree.joint[:, self.seat]
        self.ends: dict[int, np.ndarray] = {}
        self.theirs = tree.joint[:, 1 - self.seat]
        u = np.asarray(self.utilities, dtype=np.float64)
        self.mine_u = u if self.seat == START else 1.0 - u
        copies = np.asarray(tree.rules.copies)
        self.left0 = copies[None, :] - tree.joint_counts  # (J, kinds) after the deal
        self.room = tree.deck_size - 2 * tree.rules.hand_size
        self.may: dict[int, np.ndarray] = {}
        # falling[n, k] = n (n-1) ... (n-k+1), 0 when k > n (and for n < 0)
        top = int(copies.max()) + 1
        self.falling = np.asarray(
            [
                [math.prod(range(n - k + 1, n + 1)) if k <= n else 0 for k in range(top)]
                for n in range(top)
            ],
            dtype=np.float64,
        )
        self.left0 = np.maximum(self.left0, 0)

    def chance(self, node: int) -> np.ndarray:
        """Deal and card chance of reaching `node`'s tableaux in any one order, per joint
        hand: prior x prod_k (left_k)_(t_k) / (room)_(t), order-free."""
        tree = self.tree
        drawn = tree.tableau_counts[tree.ts[node]] + tree.tableau_counts[tree.to[node]]
        ways = self.falling[self.left0, drawn[None, :]].prod(axis=1)
        return tree.prior * ways / math.prod(range(self.room - int(drawn.sum()) + 1, self.room + 1))

    def may_drop(self, node: int) -> np.ndarray:
        found = self.may.get(node)
        if found is None:
            found = self.may[node] = self.tree.may_drop(node, node + 1)[0]
        return found

    def value(self) -> float:
        """The responder's best expected payoff (in [0, 1])."""
        reach = np.ones(len(self.tree.hands))
        return float(self._walk(self.tree.root, reach, ()).sum())

    def _walk(self, node: int, reach: np.ndarray, history: History) -> np.ndarray:
        """Best payoff per responder hand, summed over the other's hands weighted by
        `reach` (the policy's probability of its moves so far, per its hand) and chance."""
        tree = self.tree
        if node >= tree.decisions:  # END: the round is scored (R16-R20), linear in reach
            return reach @ self._end(node)
        top = float(reach.max())
        if top <= 0.0:
            return np.zeros(len(tree.hands))
        scaled = reach / top
        key = (node, np.round(scaled, 12).tobytes(), self.policy.memo(history, node))
        found = self.memo.get(key)
        if found is not None:
            return found * top
        self.visited += 1
        result = self._decide(node, scaled, history)
        self.memo[key] = result
        return result * top

    def _end(self, node: int) -> np.ndarray:
        """(other's hand, responder's hand) -> chance x the responder's payoff at END."""
        found = self.ends.get(node)
        if found is None:
            tree = self.tree
            outcome = tree.outcomes[node - tree.decisions]
            found = np.zeros((len(tree.hands), len(tree.hands)))
            found[self.theirs, self.mine] = self.chance(node) * self.mine_u[outcome]
            self.ends[node] = found
        return found

    def _decide(self, node: int, reach: np.ndarray, history: History) -> np.ndarray:
        tree = self.tree
        mover = int(tree.mover[node])
        stop_child, drop_children = tree.child[node, 0], tree.child[node, 1:]
        if mover == self.seat:
            stop = self._walk(int(stop_child), reach, (*history, (mover, -1)))
            drop = np.zeros_like(stop)
            for kind, kid in enumerate(drop_children):
                if kid >= 0:
                    drop += self._walk(int(kid), reach, (*history, (mover, kind)))
            return np.where(self.may_drop(node) & (drop > stop), drop, stop)
        p = np.where(self.may_drop(node), self.policy.drop(node, history), 0.0)
        total = self._walk(int(stop_child), reach * (1 - p), (*history, (mover, -1)))
        going = reach * p
        if going.any():
            for kind, kid in enumerate(drop_children):
                if kid >= 0:
                    total = total + self._walk(int(kid), going, (*history, (mover, kind)))
        return total


def best_response(
    tree: RoundTree, seat: int, policy: Policy, utilities: np.ndarray
) -> tuple[float, int]:
    """(best payoff of `seat` against `policy`, histories visited)."""
    responder = Responder(tree, seat, policy, np.asarray(utilities))
    return responder.value(), responder.visited


def nash_conv(
    tree: RoundTree,
    policy_s: Policy,
    policy_o: Policy,
    utilities: np.ndarray,
) -> tuple[float, float, float]:
    """(best payoff of S against policy_o, of O against policy_s, their sum minus 1): the
    sum is how much two best responders gain over the game's constant sum."""
    best_s, _ = best_response(tree, START, policy_o, utilities)
    best_o, _ = best_response(tree, OTHER, policy_s, utilities)
    return best_s, best_o, best_s + best_o - 1.0


def game_best_responses(
    tree: RoundTree,
    policies: dict[tuple[int, int], tuple[Policy, Policy]],
    wins_to_win: int,
    passes: int = 3,
    on_round: Callable[..., None] | None = None,
    workers: int = 1,
) -> dict[tuple[int, int, int], float]:
    """Best payoff of a responder in every context (a, b) and role (S or O) of the full
    game against `policies[(a, b)]` = (S's policy, O's policy), the responder's later
    rounds answered best too: key (a, b, role). A round nobody wins ties (a, b) to (b, a);
    those are iterated `passes` times, from the most a responder could get (1): the best
    payoff grows with what later rounds are worth, so every pass gives upper bounds, each
    closer to the fixed point. With `workers` > 1 the two roles of a context are answered
    at once, in forked processes (Linux)."""
    import multiprocessing

    from gamenight.games.drop_or_stop.cfr import contexts

    best: dict[tuple[int, int, int], float] = {}
    _SHARED[:] = [tree, policies]
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None

    levels = sorted({a + b for a, b in contexts(wins_to_win)}, reverse=True)
    for level in levels:
        group = [c for c in contexts(wins_to_win) if sum(c) == level]
        for _ in range(passes if any(c[::-1] in group for c in group) else 1):
            for a, b in group:
                asks = [(a, b, r, _responder_utilities(a, b, r, best, wins_to_win)) for r in (0, 1)]
                found = pool.map(_answer, asks) if pool is not None else [_answer(x) for x in asks]
                for (_, _, role, _), (value, visited) in zip(asks, found, strict=True):
                    best[(a, b, role)] = value
                    if on_round is not None:
                        on_round(a, b, role, value, visited)
    if pool is not None:
        pool.close()
    _SHARED.clear()
    return best


_SHARED: list[Any] = []  # (tree, policies) for the forked workers of game_best_responses


def _answer(ask: tuple[int, int, int, np.ndarray]) -> tuple[float, int]:
    a, b, role, u = ask
    tree, policies = _SHARED
    return best_response(tree, role, policies[(a, b)][1 - role], u)


def _responder_utilities(
    a: int, b: int, role: int, best: dict[tuple[int, int, int], float], wins_to_win: int
) -> np.ndarray:
    """S's payoff per outcome such that the responder (in `role`) gets its own later best:
    the responder is O in the next context if it is S now (R23), and S if it is O."""
    nxt = OTHER if role == START else START

    def after(sa: int, sb: int) -> float:
        done_s, done_o = sa >= wins_to_win, sb >= wins_to_win
        if done_s and done_o:
            mine = 0.5
        elif done_s or done_o:
            mine = 1.0 if (done_s if role == START else done_o) else 0.0
        else:  # not yet known (a cycle's first pass): the most it could be, 1
            mine = best.get((sb, sa, nxt), 1.0)
        return mine if role == START else 1.0 - mine  # as S's payoff

    return np.asarray([after(a + 1, b), after(a, b + 1), after(a + 1, b + 1), after(a, b)])


# -- a bot of the engine as a policy over the tree ------------------------------------------
class BotPolicy:
    """A Drop or Stop bot (`choose(state, seat)`) as a `Policy` of the round's first deal,
    playing role `seat` (S or O): for each hand it may hold, the engine state of that
    public history is built (the hands placed, the draw pile stacked so that the history's
    cards come out, the history played through `act`) and the bot is asked. The other seat
    gets some hand consistent with the cards out; a bot reads only its own view, so which
    one does not matter (the engine's contract, checked by its tests). `game` must have
    `first_start_seat=0` (S is seat 0).

    `reads`: what of the order the bot reads, None if nothing (its answers are cached per
    node and hand); else a function of the history, joined to the cache key."""

    def __init__(
        self,
        tree: RoundTree,
        game: Any,
        seat: int,
        make_bot: Callable[[], Any],
        reads: Callable[[History], Hashable] | None = None,
    ) -> None:
        self.tree = tree
        self.game = game
        self.seat = seat
        self.make_bot = make_bot
        self.reads = reads
        self.ordered = reads is not None
        self.cache: dict[Hashable, np.ndarray] = {}
        self.asked = 0
        kinds = tree.rules.kinds
        self.cards_of = [
            [c for c, k in enumerate(game.card_kind) if k == kind] for kind in range(kinds)
        ]

    def memo(self, history: History, node: int) -> Hashable:
        if self.reads is None or not self._acts_later(node):
            return None
        return self.reads(history)

    def _acts_later(self, node: int) -> bool:
        phase = int(self.tree.phase[node])
        return phase == BOTH or phase == (S_ALONE if self.seat == START else O_ALONE)

    def drop(self, node: int, history: History) -> np.ndarray:
        key = (node, None if self.reads is None else self.reads(history))
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._ask(node, history)
        return found

    def _ask(self, node: int, history: History) -> np.ndarray:
        tree = self.tree
        out = np.zeros(len(tree.hands))
        may = tree.may_drop(node, node + 1)[0]
        for hand, counts in enumerate(tree.hand_counts):
            if not may[hand]:
                continue
            state = self.state(counts, history)
            if state is None:
                continue
            if DROP not in state.actions(self.seat):  # the rules stop this hand here
                continue
            self.asked += 1
            choice = self.make_bot().choose(state, self.seat)
            out[hand] = choice if isinstance(choice, float) else float(choice is DROP)
        return out

    def state(self, counts: np.ndarray, history: History) -> Any:
        """The engine state after `history` with `counts` in the bot's hand, or None if
        those cards are not left."""
        tree = self.tree
        used = np.zeros(tree.rules.kinds, dtype=np.int64)
        for _, kind in history:
            if kind >= 0:
                used[kind] += 1
        left = np.asarray(tree.rules.copies) - used - counts
        if (left < 0).any():
            return None
        for other in tree.hand_counts:  # the first hand of the other seat that fits
            if (other <= left).all():
                state = self._replay(counts, other, history)
                if state is not None:
                    return state
        return None

    def _replay(self, counts: np.ndarray, other: np.ndarray, history: History) -> Any:
        return replay(
            self.game, self.cards_of, ((self.seat, counts), (1 - self.seat, other)), history
        )


def replay(
    game: Any,
    cards_of: list[list[int]],
    hands: Sequence[tuple[int, np.ndarray]],
    history: History,
) -> Any:
    """The engine state of a round 1 (seat 0 starts) after `history`, each seat of `hands`
    (seat, cards of each kind) holding those cards and the draw pile stacked so that the
    history's cards come out in order; None if the rules refuse a move of it (R12a: a hand
    over the target may not draw). `cards_of[kind]`: the game's cards of that kind."""
    pools = [list(cards) for cards in cards_of]
    dealt: list[list[int]] = [[] for _ in range(game.players)]
    for seat, hand in hands:
        for kind, count in enumerate(hand):
            dealt[seat] += [pools[kind].pop() for _ in range(int(count))]
    drawn = [pools[kind].pop() for _, kind in history if kind >= 0]
    state = game.start(0)
    state.hands = dealt
    state.draw = [c for pool in pools for c in pool] + drawn[::-1]  # top: the end
    state.recount()
    for seat, kind in history:
        action = DROP if kind >= 0 else STOP_ACTION
        if action not in state.actions(seat):  # R12a: that hand may not draw over
            return None
        state.act(seat, action)
    return state


def exact_bot_reads(
    tree: RoundTree, seat: int, threshold: int = 8
) -> Callable[[History], Hashable]:
    """What the `exact` bot in role `seat` reads of the order in round 1
    (solver.round_from_view): which hands of the other seat are consistent with its draws,
    in order, and its stop under the stop rule `threshold` (the prior: there is no earlier
    round to fit it to)."""
    totals = tree.totals
    other = 1 - seat
    never = np.full(len(tree.hands), -1)

    def total(counts: list[int]) -> np.ndarray:
        index = tree.tableau_index.get(tuple(counts), -1)
        return totals[:, index] if index >= 0 else never

    def reads(history: History) -> Hashable:
        counts = [0] * tree.rules.kinds
        fits = np.ones(len(tree.hands), dtype=bool)
        for who, kind in history:
            if who != other:
                continue
            t = total(counts)
            if kind < 0:
                fits &= (t < 0) | (t >= threshold)
                continue
            fits &= (t >= 0) & (t < threshold)
            counts[kind] += 1
        return fits.tobytes()

    return reads
