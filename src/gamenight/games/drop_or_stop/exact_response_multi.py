"""Exact best response in a real Drop or Stop round at any table size (2-4 players), cards
seen in order: the certificate of exact_response.py for 3 and 4 players.

A profile gives every seat a policy (every seat the same bot, asked through the engine:
`BotSeat`). For each seat the certificate is the gain that seat can make by deviating
alone: its best payoff against the others' policies, exact over the real first round (a
full deck, R5; every hidden hand dealt, R7; every card in the order it came, with its exact
chance without replacement, R11), minus its payoff when it keeps its own policy. The best
responder sees what its seat sees (its hand and the public record, R25, R29-R32) and
remembers all of it, in order. Summed over the seats the gains are the profile's NashConv;
their mean is its exploitability per seat, the figure exact_response.py gives at two
players (NashConv / 2, the game being constant-sum there).

**What a round is worth** is a named choice (`Valuation`). A round's result is the set of
its winners (R19: equal best totals share the round; nobody wins when every seat is over),
and a valuation gives every seat a payoff for each set of winners:

- `ROUND_SHARE` (the figures): a seat's share of the round win, 1/|winners| to each winner
  and 0 to every other seat; a round nobody wins gives nobody anything. A seat's payoff is
  its chance of winning the round, a shared win counted as its share. A seat over the
  target gets 0 whatever the others do, so once the responder is certainly over (R32) it is
  worth 0 from there on and its walk ends there: exact, not a pruning guess.
- `ENGINE_PAYOFF`: the engine's payoff of a game that this one round decides (one round win
  to win, a one-round cap): `Outcome.from_scores` of the round wins, a round nobody wins
  being a truncated game worth 1/2 to all (R34). It is what OpenSpiel's adapter returns, and
  the tests check this module against OpenSpiel's own best response with it. At 3-4 players
  it is a rank payoff (each other seat beaten counts 1/(n-1), each tie half of that).

With two players both give a winner 1 and a tie 1/2 each, as exact_response.py's tests
value a round (`ROUND_WIN`); a round nobody wins is 0 to both under `ROUND_SHARE` and 1/2
under `ENGINE_PAYOFF`.

**The walk** goes over public histories, as exact_response.py's does. At each it holds,
for every seat playing its policy, the probability per hand of the moves that seat made
with it (its reach; a deal's reach is the product over the seats) and returns, for every
hand of the responder, its best payoff summed over the others' hands and the cards to
come, weighted by reach and chance. Chance enters at the end of the round only: the chance
of a deal and of the cards drawn, in any one order, depends on the multiset of all those
cards alone (`Round.deal_chances`). The value is linear in each seat's reach, so histories
that reach the same public node (every tableau as a multiset, who is active, who moves)
with proportional reaches are met once (a memo keyed by the node and the normalised
reaches; a policy that reads the order names what it reads, `SeatPolicy.memo`). At the end
of the round the sum runs over the joint hands each policy seat may hold there (its reach
above 0): 21^3 = 9,261 deals at most at 3 players, 21^4 = 194,481 at 4. With no responder
the same walk gives every seat's payoff under the profile (`profile_values`).

No rule of play is assumed of anyone: a policy seat is asked wherever it is to move (also
when certainly over; a bot that draws on is followed), and the only shortcut is the one
above for `ROUND_SHARE`. Used by bench/equilibrium.py and tests.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any, Protocol

import numpy as np

from gamenight.engine.core import Outcome
from gamenight.games.drop_or_stop.actions import DROP
from gamenight.games.drop_or_stop.actions import STOP as STOP_ACTION
from gamenight.games.drop_or_stop.exact_response import History, replay
from gamenight.games.drop_or_stop.round_tree import Rules, falling, multisets

# A public node: (each seat's tableau as an index of `Round.tableaux`, the active seats as
# bits, the seat to move; -1 once nobody is active: the round is scored).
Node = tuple[tuple[int, ...], int, int]
KEEP_CHANCES = 50_000  # deal chances kept, one row per multiset of cards drawn


# -- what a round is worth ------------------------------------------------------------------
@dataclass(frozen=True)
class Valuation:
    """A named way to value a round's result: `payoff(players, winners)`, every seat's
    payoff when exactly the seats `winners` win the round (none: nobody wins, R19)."""

    name: str
    payoff: Callable[[int, tuple[int, ...]], tuple[float, ...]]

    def table(self, players: int) -> np.ndarray:
        """(2**players, players): every seat's payoff for every set of winners (as bits)."""
        out = np.zeros((1 << players, players))
        for code in range(1 << players):
            out[code] = self.payoff(players, tuple(s for s in range(players) if code >> s & 1))
        return out

    def losers_get_nothing(self, players: int) -> bool:
        """Whether a seat that does not win is worth 0 whatever the others get (then a seat
        over the target, which cannot win (R18), is worth 0 from then on)."""
        bits = (np.arange(1 << players)[:, None] >> np.arange(players)[None, :]) & 1
        return bool((self.table(players)[bits == 0] == 0.0).all())


def _share(players: int, winners: tuple[int, ...]) -> tuple[float, ...]:
    return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(players))


def _engine(players: int, winners: tuple[int, ...]) -> tuple[float, ...]:
    wins = [int(s in winners) for s in range(players)]
    return Outcome.from_scores(wins, truncated=not winners).payoff


ROUND_SHARE = Valuation("round_share", _share)
ENGINE_PAYOFF = Valuation("engine_payoff", _engine)


# -- the cards of a first round -------------------------------------------------------------
class Round:
    """The combinatorics of a real first round at `players` seats: the hands a seat can
    hold, every deal (one cell of an (H,) * players array), each tableau met so far (a
    multiset of card kinds) with the §7 total it makes with every hand."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = n = players
        k = rules.kinds
        hs = rules.hand_size
        self.copies = np.asarray(rules.copies, dtype=np.int64)
        self.deck_size = int(self.copies.sum())
        self.room = self.deck_size - n * hs  # the draw pile after the deal (R7)
        self.hands = multisets(rules, hs)
        h = len(self.hands)
        self.hand_counts = np.asarray(self.hands, dtype=np.int64).reshape(h, k)
        orderings = np.asarray(
            [math.factorial(hs) / math.prod(math.factorial(c) for c in hand) for hand in self.hands]
        )
        # Every deal: the multiset of all its cards (an index of `combos`; len(combos) if
        # the deck cannot give it) and the ways its cards can come in dealing order (R7).
        self.combos = np.asarray(multisets(rules, n * hs), dtype=np.int64).reshape(-1, k)
        taken = self.hand_counts[np.indices((h,) * n)].sum(axis=0)  # (H,)*n + (k,)
        radix = (n * hs + 1) ** np.arange(k)
        codes, known = taken @ radix, self.combos @ radix
        order = np.argsort(known)
        at = np.minimum(np.searchsorted(known[order], codes), len(order) - 1)
        found = known[order][at] == codes
        self.cell_combo = np.where(found, order[at], len(self.combos))
        self.cell_ways = np.where(found, reduce(np.multiply, np.ix_(*[orderings] * n)), 0.0)
        self.deals = int(found.sum())
        # after[kind][drawn, dealt] = (copies)_(drawn + dealt): 0 past the copies
        self.after = [
            np.asarray(
                [
                    [falling(c, d + j) if d + j <= c else 0.0 for j in range(n * hs + 1)]
                    for d in range(c + 1)
                ]
            )
            for c in (int(c) for c in self.copies)
        ]
        self._chances: dict[bytes, np.ndarray] = {}
        self.first_cards = falling(self.deck_size, n * hs)
        self.tableaux: list[tuple[int, ...]] = []
        self.tableau_index: dict[tuple[int, ...], int] = {}
        self.tableau_counts: list[np.ndarray] = []
        self.totals: list[np.ndarray] = []  # per tableau: §7 total with each hand, -1 OVERFLOW
        self.over: list[bool] = []  # per tableau: over with every hand (certainly over)
        self._grown: dict[tuple[int, int], int] = {}
        self.empty = self.tableau((0,) * k)

    def tableau(self, counts: tuple[int, ...]) -> int:
        """The index of the tableau `counts`, registered when first met."""
        found = self.tableau_index.get(counts)
        if found is None:
            found = self.tableau_index[counts] = len(self.tableaux)
            self.tableaux.append(counts)
            self.tableau_counts.append(np.asarray(counts, dtype=np.int64))
            totals = np.asarray(
                [self.rules.total(tuple(hand + counts)) for hand in self.hand_counts],
                dtype=np.int64,
            )
            self.totals.append(totals)
            self.over.append(bool((totals < 0).all()))
        return found

    def grow(self, tableau: int, kind: int) -> int:
        found = self._grown.get((tableau, kind))
        if found is None:
            counts = list(self.tableaux[tableau])
            counts[kind] += 1
            found = self._grown[(tableau, kind)] = self.tableau(tuple(counts))
        return found

    def deal_chances(self, drawn: np.ndarray) -> np.ndarray:
        """For each row of `drawn` (cards drawn per kind) and every multiset of dealt cards
        (`combos`, then 0 for a deal the deck cannot give): the chance of one dealing order
        of it followed by those cards in one order, prod_k (copies_k)_(dealt_k + drawn_k) /
        (deck)_(dealt + drawn) (R7, R11: order-free). Kept per row (up to `KEEP_CHANCES`)."""
        rows = []
        for counts in drawn:
            key = counts.tobytes()
            found = self._chances.get(key)
            if found is None:
                if len(self._chances) >= KEEP_CHANCES:
                    self._chances.clear()
                found = np.zeros(len(self.combos) + 1)
                found[:-1] = 1.0 / (self.first_cards * falling(self.room, int(counts.sum())))
                for kind, count in enumerate(counts):
                    found[:-1] *= self.after[kind][count][self.combos[:, kind]]
                self._chances[key] = found
            rows.append(found)
        return np.asarray(rows)

    def next_active(self, seat: int, active: int) -> int:
        """§5 nextActive: the first active seat after `seat`, `seat` itself last; -1: none."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if active >> nxt & 1:
                return nxt
        return -1

    def children(self, node: Node) -> tuple[Node, list[tuple[int, Node]]]:
        """STOP's child and (kind, DROP's child) for every kind that can still come (R11,
        R14: in round 1 the discard pile is empty, so a DROP needs the draw pile)."""
        tabs, active, mover = node
        left = active & ~(1 << mover)
        nxt = self.next_active(mover, left)
        stop: Node = (tabs, left, nxt) if nxt >= 0 else (tabs, 0, -1)
        drawn = self.drawn(tabs)
        if int(drawn.sum()) >= self.room:
            return stop, []
        after = self.next_active(mover, active)
        drops = []
        for kind in range(self.rules.kinds):
            if drawn[kind] < self.copies[kind]:
                grown = list(tabs)
                grown[mover] = self.grow(tabs[mover], kind)
                drops.append((kind, (tuple(grown), active, after)))
        return stop, drops

    def drawn(self, tabs: tuple[int, ...]) -> np.ndarray:
        counts: np.ndarray = sum((self.tableau_counts[t] for t in tabs), np.zeros_like(self.copies))
        return counts

    def possible(self, tabs: tuple[int, ...]) -> np.ndarray:
        """Per hand, whether the cards out (`tabs`) leave it for a seat."""
        left = self.copies - self.drawn(tabs)
        fits: np.ndarray = (self.hand_counts <= left).all(axis=1)
        return fits

    def may_drop(self, tableau: int) -> np.ndarray:
        """Per hand, whether R12a lets it draw with `tableau` (not over, unless allowed)."""
        if self.rules.overflow_drop:
            return np.ones(len(self.hands), dtype=bool)
        allowed: np.ndarray = self.totals[tableau] >= 0
        return allowed


# -- policies -------------------------------------------------------------------------------
class SeatPolicy(Protocol):
    """The policy of one seat: P(DROP) for each hand it may hold at a node where it moves."""

    ordered: bool  # reads the order of the public history (then `memo` must say what)

    def drop(self, node: Node, history: History, hands: np.ndarray) -> np.ndarray:
        """P(DROP) per hand (`Round.hands` order) at `node`, reached by `history`; only the
        entries where `hands` (bool) is set are read."""
        ...

    def memo(self, history: History, node: Node) -> Hashable:
        """What of `history` the seat's decisions at `node` and after read besides the node
        (None if nothing)."""
        ...


class EngineStates:
    """Engine states of round 1 (seat 0 starts) by public history: each is its history
    played under some deal that fits it, made from its parent's by one move (a copy, a card
    of the kind drawn put on top of the draw pile, `act`); None where that cannot be (the
    card is in a hand, or R12a refuses the move to the hand there). The newest `keep` are
    kept."""

    def __init__(self, game: Any, keep: int = 20_000) -> None:
        self.game = game
        self.keep = keep
        self.states: dict[History, Any] = {}

    def get(self, history: History) -> Any:
        if history in self.states:
            return self.states[history]
        if history:
            parent = self.get(history[:-1])
            state = None if parent is None else self._advance(parent, *history[-1])
        else:
            state = self.game.start(0)
        self.states[history] = state
        if len(self.states) > self.keep:
            del self.states[next(iter(self.states))]
        return state

    def _advance(self, parent: Any, seat: int, kind: int) -> Any:
        state = parent.copy()
        action: Any = STOP_ACTION
        if kind >= 0:
            action = DROP
            draw, kinds = state.draw, self.game.card_kind
            at = next((i for i in range(len(draw) - 1, -1, -1) if kinds[draw[i]] == kind), -1)
            if at >= 0:
                draw[at], draw[-1] = draw[-1], draw[at]
            elif not self._from_hand(state, kind):
                return None
        if action not in state.actions(seat):
            return None
        state.act(seat, action)
        return state

    def _from_hand(self, state: Any, kind: int) -> bool:
        """Put a card of `kind` held in a hand on top of the draw pile, the hand taking
        the top card instead (a deal that fits the history as well, if the rules let
        every hand draw, R12a)."""
        if not state.draw or not self.game.allow_overflow_drop:
            return False
        for held in state.hands:
            for i, card in enumerate(held):
                if self.game.card_kind[card] == kind:
                    held[i], state.draw[-1] = state.draw[-1], card
                    state.recount()
                    return True
        return False


class BotSeat:
    """A Drop or Stop bot as the policy of `seat` in the first round (seat 0 starts:
    `game` must have `first_start_seat=0`): for each hand it may hold at a public history,
    the engine state of that history is built (exact_response.replay: the hands placed,
    the draw pile stacked so that the history's cards come out, the history played through
    `act`) and `bot.choose` is asked, the very call it plays with. The other seats get
    some hands consistent with the cards out and their moves; a bot reads only its own view,
    so which ones does not matter. One `bot` answers every question: its choice must depend
    on the state it is asked about only (true of every shipped Drop or Stop bot; a `float`
    answer is taken as P(DROP)).

    `reads`: what of the order the bot reads, None if nothing (its answers are kept per
    node and hand); else a function of the history, joined to the node. `states`: the
    engine states of the histories, shared by the bots of a profile."""

    def __init__(
        self,
        table: Round,
        game: Any,
        seat: int,
        bot: Any,
        reads: Callable[[History], Hashable] | None = None,
        states: EngineStates | None = None,
    ) -> None:
        self.table = table
        self.game = game
        self.seat = seat
        self.bot = bot
        self.reads = reads
        self.states = states or EngineStates(game)
        self.ordered = reads is not None
        # per node (hashed): P(DROP) per hand, NaN where not asked; or two bit masks
        self.answers: dict[bytes, int | np.ndarray] = {}
        self.bits = 1 << np.arange(len(table.hands), dtype=np.int64)
        self.asked = 0
        self.cards_of = [
            [c for c, k in enumerate(game.card_kind) if k == kind]
            for kind in range(table.rules.kinds)
        ]

    def memo(self, history: History, node: Node) -> Hashable:
        if self.reads is None or not node[1] >> self.seat & 1:  # it does not act again
            return None
        return self.reads(history)

    def drop(self, node: Node, history: History, hands: np.ndarray) -> np.ndarray:
        key = hashlib.blake2b(
            repr(node if self.reads is None else (node, self.reads(history))).encode(),
            digest_size=16,
        ).digest()
        p, asked = self._unpack(self.answers.get(key))
        missing = np.flatnonzero(hands & ~asked & self.table.possible(node[0]))
        if not len(missing):
            return p
        state = None
        for hand in missing:  # the history's state, the bot's hand swapped in
            counts = self.table.hand_counts[hand]
            if state is None:
                state = self.states.get(history)
            if state is None or not self._swap(state, counts):
                state = self.state(counts, history)  # a full replay
            p[hand] = self._ask(state)
        asked[missing] = True
        self.answers[key] = self._pack(p, asked)
        return p  # 0 for a hand not asked: no deal gives it here, or it never gets here

    def _unpack(self, stored: int | np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """(P(DROP) per hand, asked per hand) from `answers` (kept small: a node's answers
        are two bit masks while they are all 0 or 1)."""
        if stored is None:
            return np.zeros(len(self.bits)), np.zeros(len(self.bits), dtype=bool)
        if isinstance(stored, int):
            asked = (stored >> len(self.bits) & self.bits) != 0
            return ((stored & self.bits) != 0).astype(np.float64), asked
        return np.nan_to_num(stored), ~np.isnan(stored)

    def _pack(self, p: np.ndarray, asked: np.ndarray) -> int | np.ndarray:
        if ((p == 0.0) | (p == 1.0)).all():
            return int(self.bits[asked].sum()) << len(self.bits) | int(self.bits[p == 1.0].sum())
        return np.where(asked, p, np.nan)

    def _ask(self, state: Any) -> float:
        if state is None or DROP not in state.actions(self.seat):  # the rules stop it here
            return 0.0
        self.asked += 1
        choice = self.bot.choose(state, self.seat)
        return choice if isinstance(choice, float) else float(choice is DROP)

    def _swap(self, state: Any, counts: np.ndarray) -> bool:
        """Give the bot `counts` in `state`: each card it holds beyond them is exchanged
        for a wanted one from the draw pile or, if need be, from another hand (the public
        record unchanged: the state of the same history dealt otherwise); False if that
        cannot be (the other hands are kept where R12a could refuse one of their moves)."""
        kind = self.game.card_kind
        want = [int(c) for c in counts]
        keep, spare = [], []
        for card in state.hands[self.seat]:
            if want[kind[card]] > 0:
                want[kind[card]] -= 1
                keep.append(card)
            else:
                spare.append(card)
        if not spare:
            return True
        piles = [state.draw]
        if self.game.allow_overflow_drop:
            piles += [held for seat, held in enumerate(state.hands) if seat != self.seat]
        for pile in piles:
            for i, card in enumerate(pile):
                if spare and want[kind[card]] > 0:
                    want[kind[card]] -= 1
                    keep.append(card)
                    pile[i] = spare.pop()
        if spare:
            return False
        state.hands[self.seat] = keep
        state.recount()
        return True

    def state(self, counts: np.ndarray, history: History) -> Any:
        """The engine state after `history` with `counts` in the bot's hand, or None if
        those cards are not left."""
        table = self.table
        used = np.zeros_like(table.copies)
        for _, kind in history:
            if kind >= 0:
                used[kind] += 1
        left = table.copies - used - counts
        if (left < 0).any():
            return None
        hands = [(self.seat, counts)]
        for other in range(table.players):
            if other == self.seat:
                continue
            for held in table.hand_counts:  # the first hand that fits and allows its moves
                if (held <= left).all() and self._may_hold(other, held, history):
                    hands.append((other, held))
                    left = left - held
                    break
            else:
                return None
        return replay(self.game, self.cards_of, hands, history)

    def _may_hold(self, seat: int, held: np.ndarray, history: History) -> bool:
        """Whether `seat` holding `held` may have drawn as it did (R12a)."""
        rules = self.table.rules
        if rules.overflow_drop:
            return True
        cards = held.copy()
        for who, kind in history:
            if who == seat and kind >= 0:
                if rules.total(tuple(cards)) < 0:
                    return False
                cards[kind] += 1
        return True


# -- the walk -------------------------------------------------------------------------------
Reach = tuple[np.ndarray | None, ...]  # per seat: P(its moves so far) per hand; None: responder


class Walk:
    """One walk over the real round (module docstring): every seat with a policy plays it;
    `responder` (if not None; its entry of `policies` is not read) answers best, per hand.
    `run()` gives the responder's best payoff per hand (summed over everything else), or
    with no responder every seat's payoff under the profile.

    Two stretches of a round are done in one piece rather than node by node, each exact:
    the responder alone (everyone else stopped: nothing it sees can change but its own
    cards, so its best play is a backward pass over the tableaux it can reach, `_alone`),
    and a policy seat alone with the responder stopped (no one who remembers the order acts
    any more: the seat's reach is summed over the orders that lead to each tableau, a
    forward pass, `_policy_alone`; not for a policy that reads the order). Both score
    every end of the stretch in one array operation (`_scores`)."""

    def __init__(
        self,
        table: Round,
        policies: Sequence[SeatPolicy | None],
        valuation: Valuation,
        responder: int | None = None,
    ) -> None:
        n = table.players
        self.table = table
        self.policies = list(policies)
        self.responder = responder
        self.pay = valuation.table(n)
        self.stops_over = responder is not None and valuation.losers_get_nothing(n)
        self.zero = np.zeros(len(table.hands) if responder is not None else n)
        # (node, normalised reaches, what ordered policies read), hashed to 16 bytes -> the
        # value's bytes: a walk meets millions of histories
        self.memo: dict[bytes, bytes] = {}
        self.ends = 0
        self.report: Callable[[Walk], None] | None = None  # called every 100,000 entries
        self.ordered = any(
            getattr(p, "ordered", True) for s, p in enumerate(policies) if s != responder
        )

    @property
    def visited(self) -> int:
        """Public histories met (the memo's entries; a stretch done in one piece counts as
        one)."""
        return len(self.memo)

    def run(self) -> np.ndarray:
        table = self.table
        n = table.players
        ones = np.ones(len(table.hands))
        reach = tuple(None if s == self.responder else ones for s in range(n))
        root: Node = ((table.empty,) * n, (1 << n) - 1, 0)
        return self._walk(root, reach, ())

    def _walk(self, node: Node, reach: Reach, history: History) -> np.ndarray:
        tabs, active, mover = node
        responder = self.responder
        if self.stops_over and self.table.over[tabs[responder]]:  # type: ignore[index]
            return self.zero  # certainly over: worth 0 under this valuation, whatever comes
        scale = 1.0
        scaled = list(reach)
        digest = hashlib.blake2b(repr(node).encode(), digest_size=16)
        for seat, mine in enumerate(reach):
            if mine is not None:
                top = float(mine.max())
                if top <= 0.0:
                    return self.zero
                scale *= top
                scaled[seat] = mine = mine / top
                digest.update(mine.tobytes())
        if mover < 0:  # the round is scored (R16-R20), linear in every reach
            seat = 0 if responder is None else responder
            mine = reach[seat]
            return self._scores(
                tabs, seat, [tabs[seat]], reach, None if mine is None else mine[None]
            )[0]
        if self.ordered:
            reads = tuple(
                None if p is None or s == responder else p.memo(history, node)
                for s, p in enumerate(self.policies)
            )
            digest.update(repr(reads).encode())
        key = digest.digest()
        known = self.memo.get(key)
        if known is not None:
            return np.frombuffer(known) * scale
        now = tuple(scaled)
        if active != 1 << mover:
            found = self._decide(node, now, history)
        elif mover == responder:
            found = self._alone(node, now)
        elif getattr(self.policies[mover], "ordered", True):
            found = self._decide(node, now, history)
        else:
            found = self._policy_alone(node, now, history)
        self.memo[key] = found.tobytes()
        if self.report is not None and len(self.memo) % 100_000 == 0:
            self.report(self)
        return found * scale

    def _decide(self, node: Node, reach: Reach, history: History) -> np.ndarray:
        table = self.table
        tabs, _, mover = node
        stop_child, drops = table.children(node)
        may = table.may_drop(tabs[mover])
        if mover == self.responder:
            stop = self._walk(stop_child, reach, (*history, (mover, -1)))
            if not drops:
                return stop
            drop = np.zeros_like(stop)
            for kind, kid in drops:
                drop += self._walk(kid, reach, (*history, (mover, kind)))
            return np.where(may & (drop > stop), drop, stop)
        mine = reach[mover]
        policy = self.policies[mover]
        assert mine is not None and policy is not None
        p = np.zeros(len(mine))
        if drops:
            p = np.where(may, policy.drop(node, history, may & (mine > 0)), 0.0)
        kept = list(reach)
        kept[mover] = mine * (1.0 - p)
        total = self._walk(stop_child, tuple(kept), (*history, (mover, -1)))
        going = mine * p
        if going.any():
            kept[mover] = going
            for kind, kid in drops:
                total = total + self._walk(kid, tuple(kept), (*history, (mover, kind)))
        return total

    def _alone(self, node: Node, reach: Reach) -> np.ndarray:
        """The responder alone: every tableau it can reach from here, each scored as an end
        at once, then its best play backward (largest tableaux first)."""
        table = self.table
        tabs, _, me = node
        kids: dict[int, list[int]] = {}
        order = [tabs[me]]
        for tableau in order:  # breadth first: by size, so children come after parents
            if self.stops_over and table.over[tableau]:
                continue  # worth 0 (module docstring)
            grown = list(tabs)
            grown[me] = tableau
            _, drops = table.children((tuple(grown), 1 << me, me))
            if table.over[tableau] and not table.rules.overflow_drop:
                drops = []  # R12a: no hand may draw
            kids[tableau] = [kid[0][me] for _, kid in drops]
            for child in kids[tableau]:
                if child not in kids and child not in order:
                    order.append(child)
        live = [t for t in order if t in kids]
        stops = self._scores(tabs, me, live, reach)
        value: dict[int, np.ndarray] = {}
        for tableau, stop in zip(reversed(live), stops[::-1], strict=True):
            children = kids[tableau]
            if not children:
                value[tableau] = stop
                continue
            drop = np.zeros_like(stop)
            for child in children:
                drop += value.get(child, self.zero)
            may = table.may_drop(tableau)
            value[tableau] = np.where(may & (drop > stop), drop, stop)
        return value[tabs[me]]

    def _policy_alone(self, node: Node, reach: Reach, history: History) -> np.ndarray:
        """A policy seat alone (the responder, if any, stopped): its reach summed over the
        orders leading to every tableau it can reach (forward, by size), then every stop
        scored at once. A policy that does not read the order answers alike for every
        order, so any history leading to a tableau stands for all (the one found first)."""
        table = self.table
        tabs, active, me = node
        policy = self.policies[me]
        assert policy is not None
        mass: dict[int, np.ndarray] = {tabs[me]: reach[me]}  # type: ignore[dict-item]
        paths = {tabs[me]: history}
        order = [tabs[me]]
        stops: list[int] = []
        stayed: list[np.ndarray] = []
        for tableau in order:
            mine = mass.pop(tableau)
            grown = list(tabs)
            grown[me] = tableau
            here: Node = (tuple(grown), active, me)
            _, drops = table.children(here)
            p = np.zeros(len(mine))
            if drops:
                may = table.may_drop(tableau)
                p = np.where(may, policy.drop(here, paths[tableau], may & (mine > 0)), 0.0)
            stay = mine * (1.0 - p)
            if stay.any():
                stops.append(tableau)
                stayed.append(stay)
            going = mine * p
            if not going.any():
                continue
            for kind, kid in drops:
                child = kid[0][me]
                if child in mass:
                    mass[child] = mass[child] + going
                else:
                    mass[child] = going
                    paths[child] = (*paths[tableau], (me, kind))
                    order.append(child)
        if not stops:
            return self.zero
        return self._scores(tabs, me, stops, reach, np.asarray(stayed)).sum(axis=0)

    def _scores(
        self,
        tabs: tuple[int, ...],
        seat: int,
        tableaux: list[int],
        reach: Reach,
        varying: np.ndarray | None = None,
    ) -> np.ndarray:
        """Payoffs at the ends of the round where `seat` holds each of `tableaux` (the
        others as in `tabs`): summed over the deals each policy seat may hold (reach > 0),
        weighted by reach (`varying[i]`: `seat`'s for the i-th end) and chance; per end,
        per responder hand (or per seat with no responder)."""
        table = self.table
        n = table.players
        self.ends += len(tableaux)
        everyone = np.arange(len(table.hands))
        held = [everyone if r is None else np.flatnonzero(r) for r in reach]
        if varying is not None:
            held[seat] = np.flatnonzero(varying.any(axis=0))
        cells = np.ix_(*held)
        counts = np.asarray([table.tableaux[t] for t in tableaux], dtype=np.int64)
        fixed = table.drawn(tabs) - table.tableau_counts[tabs[seat]]
        chance = table.deal_chances(counts + fixed)  # (ends, combos + 1)
        weight = table.cell_ways[cells][None] * chance[:, table.cell_combo[cells]]

        def axis(s: int, x: np.ndarray, batch: bool = False) -> np.ndarray:
            return x.reshape([len(x) if batch else 1] + [-1 if i == s else 1 for i in range(n)])

        for s, mine in enumerate(reach):
            if mine is not None and s != seat:
                weight = weight * axis(s, mine[held[s]])
        if varying is not None:
            weight = weight * axis(seat, varying[:, held[seat]], batch=True)
        totals = [axis(s, table.totals[t][held[s]]) for s, t in enumerate(tabs)]
        mine_totals = np.asarray([table.totals[t] for t in tableaux])[:, held[seat]]
        totals[seat] = axis(seat, mine_totals, batch=True)
        best = reduce(np.maximum, totals)
        code = sum(((t == best) & (best >= 0)).astype(np.int64) << s for s, t in enumerate(totals))
        if self.responder is None:
            paid = weight[..., None] * self.pay[code]
            out: np.ndarray = paid.reshape(len(tableaux), -1, n).sum(axis=1)
            return out
        others = tuple(1 + s for s in range(n) if s != self.responder)
        summed: np.ndarray = (weight * self.pay[code, self.responder]).sum(axis=others)
        return summed


# -- the certificate ------------------------------------------------------------------------
@dataclass
class SeatGain:
    """What one seat gains by deviating alone: `best` - `own`."""

    seat: int
    best: float  # its best payoff against the others' policies
    own: float  # its payoff keeping its policy
    visited: int  # public histories the best response walked
    ends: int  # round ends it scored

    @property
    def gain(self) -> float:
        return self.best - self.own


def profile_values(
    table: Round, policies: Sequence[SeatPolicy], valuation: Valuation
) -> tuple[np.ndarray, Walk]:
    """Every seat's payoff when every seat plays its policy (and the walk, for its size)."""
    walk = Walk(table, policies, valuation)
    return walk.run(), walk


def best_value(
    table: Round, seat: int, policies: Sequence[SeatPolicy | None], valuation: Valuation
) -> tuple[float, Walk]:
    """`seat`'s best payoff against the other seats' policies."""
    walk = Walk(table, policies, valuation, responder=seat)
    return float(walk.run().sum()), walk


def certify(
    table: Round,
    policies: Sequence[SeatPolicy],
    valuation: Valuation,
    seats: Sequence[int] | None = None,
) -> list[SeatGain]:
    """The gain of every seat of `seats` (default all) by deviating alone from the profile
    `policies`: NashConv is their sum over all seats, exploitability their mean."""
    own, _ = profile_values(table, policies, valuation)
    found = []
    for seat in range(table.players) if seats is None else seats:
        best, walk = best_value(table, seat, policies, valuation)
        found.append(SeatGain(seat, best, float(own[seat]), walk.visited, walk.ends))
    return found


def bot_profile(table: Round, game: Any, make_bot: Callable[[int], Any]) -> list[BotSeat]:
    """Every seat of `game` (first_start_seat=0) played by `make_bot(seat)`."""
    states = EngineStates(game)
    return [
        BotSeat(table, game, seat, make_bot(seat), states=states) for seat in range(table.players)
    ]
