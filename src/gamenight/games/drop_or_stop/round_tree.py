"""One 2-player Drop or Stop round as a public tree over card multisets, for CFR.

The round of §5 with its chance written out: both hidden hands are dealt from a full,
freshly shuffled deck (R5, R7), then every DROP reveals one card of what is left (R11).
What both seats see is public: each tableau and who is still active (§6). The tree keys a
public node by the two tableaux as *multisets* of card kinds (and whose turn it is and
who has stopped): the order in which the cards came is forgotten, so nodes that differ only
in that order are one node (the tree is a DAG). A seat's information set is its hidden hand
and the public node. The chance of every card depends on both hands (they are not in the
pile), so values and reaches are vectors over the *joint* hands (starter's hand, other's
hand), with the exact probabilities of a 39-card deck without replacement.

Seats are named by role: S, the round's start seat, moves first (R9); O is the other.

Three rules of play shrink the tree and change no result (`prune=False` keeps the second
one out: the seat left alone against a certainly-over seat then decides like any other,
which a best response to a bot needs, as a bot may draw there):
- a seat whose tableau alone is over the target even with the smallest hand (visible
  minimum > target - smallest hand: "certainly over", R32) is stopped at once: it cannot
  win the round (R18), and that is public;
- a seat playing alone while the stopped seat is certainly over stops: it wins the round
  by stopping unless it is over already, and no draw can change that;
- DROP is offered while a card is left to draw (R14) and, if the game forbids drawing
  when over (R12a), only to hands that are not over.

Nodes are numbered in an order where every edge goes forward (by cards drawn, then both
active before one alone before the end), and grouped by (phase, mover, cards drawn), so the
solvers walk the tree a group at a time with numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Any

import numpy as np

from gamenight.games.drop_or_stop.scoring import round_total

START, OTHER = 0, 1  # roles: the start seat, the other seat
BOTH, S_ALONE, O_ALONE, END = 0, 1, 2, 3  # phases of a public node
# Round outcomes, in the order of a context's utilities: S alone wins, O alone wins, both
# win (a tie, R19), nobody wins (both over).
S_WINS, O_WINS, TIE, NOBODY = 0, 1, 2, 3


@dataclass(frozen=True)
class Rules:
    """What a round tree needs of a Drop or Stop game: its card kinds and settings."""

    values: tuple[int, ...]  # each kind's value (a flex card's low value)
    flex: tuple[bool, ...]
    copies: tuple[int, ...]
    target: int = 11
    flex_values: tuple[int, int] = (1, 5)
    hand_size: int = 2
    overflow_drop: bool = True  # R12a: ALLOW_DROP_WHEN_OVERFLOWED
    ids: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: Any) -> Rules:
        """The rules of a loaded Drop or Stop game (any deck; two players are assumed)."""
        kinds = game.deck.kinds
        return cls(
            values=tuple(k.value for k in kinds),
            flex=tuple(k.flex for k in kinds),
            copies=tuple(k.copies for k in kinds),
            target=game.options.target,
            flex_values=(int(game.flex_values[0]), int(game.flex_values[1])),
            hand_size=game.options.hand_size,
            overflow_drop=game.options.allow_drop_when_overflowed,
            ids=tuple(k.id for k in kinds),
        )

    @property
    def kinds(self) -> int:
        return len(self.values)

    @property
    def smallest_hand(self) -> int:
        values = sorted(v for v, c in zip(self.values, self.copies, strict=True) for _ in range(c))
        return sum(values[: self.hand_size])

    @property
    def live_limit(self) -> int:
        """The highest visible minimum at which a seat is not certainly over (R32)."""
        return self.target - self.smallest_hand

    def total(self, counts: tuple[int, ...] | np.ndarray) -> int:
        """§7 total of cards given as counts per kind; -1 is OVERFLOW."""
        fixed = sum(
            int(c) * v for c, v, f in zip(counts, self.values, self.flex, strict=True) if not f
        )
        flex = sum(int(c) for c, f in zip(counts, self.flex, strict=True) if f)
        t = round_total(fixed, flex, self.target, self.flex_values)
        return -1 if t is None else t

    def visible_min(self, counts: tuple[int, ...]) -> int:
        return sum(c * v for c, v in zip(counts, self.values, strict=True))


def multisets(
    rules: Rules, size: int, bound: tuple[int, ...] | None = None
) -> list[tuple[int, ...]]:
    """Every multiset of `size` kinds within `bound` (default: the copies), as counts."""
    bound = bound or rules.copies
    out: list[tuple[int, ...]] = []

    def rec(k: int, left: int, chosen: list[int]) -> None:
        if k == len(bound) - 1:
            if left <= bound[k]:
                out.append((*chosen, left))
            return
        for c in range(min(left, bound[k]) + 1):
            rec(k + 1, left - c, [*chosen, c])

    rec(0, size, [])
    return out


def falling(n: int, k: int) -> float:
    """n (n-1) ... (n-k+1): the ways to draw k given cards one by one from n."""
    return float(math.prod(range(n - k + 1, n + 1))) if k > 0 else 1.0


class RoundTree:
    """The public tree of one 2-player round (see the module docstring)."""

    def __init__(self, rules: Rules, prune: bool = True) -> None:
        self.rules = rules
        self.prune = prune
        k = rules.kinds
        copies = np.asarray(rules.copies)
        self.deck_size = int(copies.sum())
        hs = rules.hand_size
        # Hands, and joint hands (S's, O's) with their prior chance (R7).
        self.hands = multisets(rules, hs)
        self.hand_counts = np.asarray(self.hands, dtype=np.int64).reshape(len(self.hands), k)
        orderings = [
            math.factorial(hs) / math.prod(math.factorial(c) for c in h) for h in self.hands
        ]
        joint, prior = [], []
        for a, b in product(range(len(self.hands)), repeat=2):
            both = self.hand_counts[a] + self.hand_counts[b]
            if (both <= copies).all():
                joint.append((a, b))
                ways = orderings[a] * orderings[b]
                ways *= math.prod(
                    falling(int(c), int(m)) for c, m in zip(copies, both, strict=True)
                )
                prior.append(ways / falling(self.deck_size, 2 * hs))
        self.joint = np.asarray(joint, dtype=np.int64)  # (J, 2): hand index of S, of O
        self.prior = np.asarray(prior)
        self.joint_counts = self.hand_counts[self.joint[:, 0]] + self.hand_counts[self.joint[:, 1]]
        # Multisets a tableau can be: live ones, then one card past them.
        self._build_multisets()
        self._build_nodes()

    # -- multisets ---------------------------------------------------------------------
    def _build_multisets(self) -> None:
        rules = self.rules
        limit = rules.live_limit
        room = self.deck_size - 2 * rules.hand_size
        live: list[tuple[int, ...]] = []
        size = 0
        while True:
            found = [m for m in multisets(rules, size) if rules.visible_min(m) <= limit]
            if not found or size > room:
                break
            live += found
            size += 1
        final = list(live)
        seen = set(live)
        for m in live:
            for kind in range(rules.kinds):
                grown = tuple(c + (i == kind) for i, c in enumerate(m))
                if grown[kind] <= rules.copies[kind] and grown not in seen:
                    seen.add(grown)
                    final.append(grown)
        self.tableaux = final  # index -> counts
        self.tableau_index = {m: i for i, m in enumerate(final)}
        self.tableau_counts = np.asarray(final, dtype=np.int64).reshape(len(final), rules.kinds)
        self.live = np.asarray([rules.visible_min(m) <= limit for m in final])
        self.tableau_size = self.tableau_counts.sum(axis=1)
        # §7 total of hand + tableau, for every hand and tableau (-1: OVERFLOW).
        self.totals = np.asarray(
            [[rules.total(tuple(h + m)) for m in self.tableau_counts] for h in self.hand_counts],
            dtype=np.int64,
        )

    def grow(self, tableau: int, kind: int) -> int:
        """The tableau with one more card of `kind`, or -1 past the multisets kept."""
        grown = tuple(c + (i == kind) for i, c in enumerate(self.tableaux[tableau]))
        return self.tableau_index.get(grown, -1)

    # -- nodes -------------------------------------------------------------------------
    def _children(self, key: tuple[int, int, int]) -> list[tuple[int, int, int] | None]:
        """STOP's child, then DROP's child per kind (None: that card cannot come)."""
        phase, ts, to = key
        mover = self.mover_of(key)
        rules = self.rules
        alone = O_ALONE if mover == START else S_ALONE
        stop = (alone if phase == BOTH else END, ts, to)
        drawn = self.tableau_counts[ts] + self.tableau_counts[to]
        left = self.deck_size - 2 * rules.hand_size - int(drawn.sum())
        out: list[tuple[int, int, int] | None] = [stop]
        for kind in range(rules.kinds):
            if left <= 0 or drawn[kind] >= rules.copies[kind]:
                out.append(None)
                continue
            mine = ts if mover == START else to
            grown = self.grow(mine, kind)
            nts, nto = (grown, to) if mover == START else (ts, grown)
            if not self.live[grown]:  # certainly over: stopped, and the other stops (module doc)
                out.append((END if self.prune or phase != BOTH else alone, nts, nto))
            elif phase == BOTH:
                out.append((BOTH, nts, nto))
            else:
                out.append((phase, nts, nto))
        return out

    def mover_of(self, key: tuple[int, int, int]) -> int:
        phase, ts, to = key
        if phase == BOTH:
            return START if self.tableau_size[ts] == self.tableau_size[to] else OTHER
        return START if phase == S_ALONE else OTHER

    def _build_nodes(self) -> None:
        root = (
            BOTH,
            self.tableau_index[(0,) * self.rules.kinds],
            self.tableau_index[(0,) * self.rules.kinds],
        )
        seen = {root}
        frontier = [root]
        edges: dict[tuple[int, int, int], list[tuple[int, int, int] | None]] = {}
        while frontier:
            nxt = []
            for key in frontier:
                if key[0] == END:
                    continue
                kids = self._children(key)
                edges[key] = kids
                for kid in kids:
                    if kid is not None and kid not in seen:
                        seen.add(kid)
                        nxt.append(kid)
            frontier = nxt

        def order(key: tuple[int, int, int]) -> tuple[int, ...]:
            phase, ts, to = key
            depth = int(self.tableau_size[ts] + self.tableau_size[to])
            if phase == END:
                return (1, 0, 0, ts, to)
            return (0, depth, phase, ts, to)

        keys = sorted(seen, key=order)
        self.keys = keys
        self.index = {key: i for i, key in enumerate(keys)}
        self.decisions = sum(1 for key in keys if key[0] != END)
        n = len(keys)
        kinds = self.rules.kinds
        self.phase = np.asarray([key[0] for key in keys], dtype=np.int64)
        self.ts = np.asarray([key[1] for key in keys], dtype=np.int64)
        self.to = np.asarray([key[2] for key in keys], dtype=np.int64)
        self.mover = np.asarray(
            [self.mover_of(key) if key[0] != END else -1 for key in keys], dtype=np.int64
        )
        # child[node, 0] = STOP's child, child[node, 1 + kind] = DROP's child; -1: none.
        self.child = np.full((n, kinds + 1), -1, dtype=np.int64)
        for key, kids in edges.items():
            row = self.index[key]
            for slot, kid in enumerate(kids):
                if kid is not None:
                    self.child[row, slot] = self.index[kid]
        self.root = self.index[root]
        # Groups of decision nodes: contiguous, one mover each, every child in a later group.
        self.groups: list[tuple[int, int]] = []
        start = 0
        for i in range(1, self.decisions + 1):
            if i == self.decisions or (order(keys[i])[:3], self.mover[i]) != (
                order(keys[start])[:3],
                self.mover[start],
            ):
                self.groups.append((start, i))
                start = i

    # -- per-node tables ------------------------------------------------------------------
    def hand_of_mover(self, node: int) -> np.ndarray:
        """For every joint hand, the index of the mover's hand (J,)."""
        return self.joint[:, int(self.mover[node])]

    def chance(self, start: int, stop: int) -> np.ndarray:
        """P(the next card is of each kind) at decision nodes start..stop-1, per joint hand:
        (nodes, J, kinds), the cards left being the deck minus both hands and tableaux."""
        drawn = self.tableau_counts[self.ts[start:stop]] + self.tableau_counts[self.to[start:stop]]
        left = (
            np.asarray(self.rules.copies)[None, None, :]
            - drawn[:, None, :]
            - self.joint_counts[None]
        )
        left = np.maximum(left, 0).astype(np.float64)
        total = left.sum(axis=2, keepdims=True)
        return np.divide(left, total, out=np.zeros_like(left), where=total > 0)

    def may_drop(self, start: int, stop: int) -> np.ndarray:
        """Whether each hand of the mover may DROP at nodes start..stop-1: (nodes, hands)."""
        has_child = np.asarray((self.child[start:stop, 1:] >= 0).any(axis=1))
        allowed: np.ndarray = np.repeat(has_child[:, None], len(self.hands), axis=1)
        if not self.rules.overflow_drop:
            mine = np.where(
                self.mover[start:stop] == START, self.ts[start:stop], self.to[start:stop]
            )
            allowed &= self.totals[:, mine].T >= 0  # R12a: an overflowed hand only STOPs
        return allowed

    @cached_property
    def outcomes(self) -> np.ndarray:
        """The outcome of every END node for every joint hand: (ends, J) of S_WINS..NOBODY."""
        ends = np.arange(self.decisions, len(self.keys))
        ts = self.totals[self.joint[:, 0][None, :], self.ts[ends][:, None]]
        to = self.totals[self.joint[:, 1][None, :], self.to[ends][:, None]]
        out = np.where(ts > to, S_WINS, np.where(to > ts, O_WINS, TIE))
        return np.where((ts < 0) & (to < 0), NOBODY, out).astype(np.int8)
