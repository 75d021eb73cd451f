"""Drop or Stop, many games at once: N tables advanced in lockstep with numpy.

The rules are the engine's (rules.py, spec §5/§8), written over arrays: every live table
makes one decision per step, the policies decide for whole groups of tables at once, and
round scoring and dealing run for every table that needs them in one go. What stays in
Python per game is the engine's own random stream, so that a game here is the engine's
game: the deck order comes from `random.Random(seed)` exactly as `DropOrStopState` draws it
(R5: one `random()` key per card, sorted; then the start seat, R6), and a reshuffle (R13,
rare) replays the engine's shuffle of the discard pile with the same generator. So every
game emits (seed, history) and `game.replay(seed, history)` reaches the same outcome.

Policies are array code (`Policy`): `ThresholdPolicy` is the threshold bot decision for
decision (the same results as the engine's `ThresholdBot`), `RandomPolicy` and
`ForwardPolicy` (a learned policy's forward pass, pluggable) draw their uniforms from a
counter-based stream keyed by the game's seed and decision number, so a game's result does
not depend on which other games share its batch (any worker count gives the same results),
but differs from the engine's `RandomBot` stream: their distributions agree (tested).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from gamenight.engine.core import Action, Outcome
from gamenight.engine.driver import RandomBot
from gamenight.games.drop_or_stop import DROP, STOP, DropOrStop
from gamenight.games.drop_or_stop.bots import ThresholdBot
from gamenight.games.drop_or_stop.components import DECK_SIZE

_HIDDEN_HAND_GUESS = 6  # ThresholdBot's guess of an opponent's hidden hand
_WORDS_PER_KEY = 2  # random.random() is built from two 32-bit Mersenne Twister words
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def uniforms(keys: np.ndarray, counters: np.ndarray) -> np.ndarray:
    """Uniforms in [0, 1), one per (key, counter) pair: SplitMix64 of key + counter."""
    z = keys.astype(np.uint64) + (counters.astype(np.uint64) + np.uint64(1)) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


class Policy(Protocol):
    """Decides for every table in `slots`, where `seat` is to act: True is DROP.

    Only tables where DROP is legal are asked about (the rest STOP, R12a/R14)."""

    def __call__(self, tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray: ...


class Tables:
    """N tables of one Drop or Stop game, held as arrays (one row per table)."""

    def __init__(self, game: DropOrStop, size: int, *, record: bool = True) -> None:
        self.game = game
        self.record = record  # keep every decision for `histories` (not in endless use)
        n = self.players = game.players
        opts = game.options
        self.kind_of = np.asarray(game.card_kind, dtype=np.int64)
        kinds = self.kinds = int(self.kind_of.max()) + 1
        self.is_flex = np.asarray(game.is_flex, dtype=bool)
        self.low = np.asarray(game.low_value, dtype=np.int64)
        self.fixed_value = np.where(self.is_flex, 0, self.low)
        self.copies = np.bincount(self.kind_of, minlength=kinds)
        first = np.searchsorted(self.kind_of, np.arange(kinds))  # cards are grouped by kind
        self.kind_flex = self.is_flex[first]
        self.kind_value = self.fixed_value[first]
        self.target = opts.target
        self.flex_lo, self.flex_hi = game.flex_values
        self.hand_size = opts.hand_size
        self.wins_to_win = opts.wins_to_win
        self.allow_overflow_drop = opts.allow_drop_when_overflowed
        self.first_start_seat = opts.first_start_seat
        self.max_rounds = opts.max_rounds
        self.smallest_hand = game.smallest_hand
        self.size = size
        cards = np.int16
        self.draw = np.zeros((size, DECK_SIZE), dtype=cards)
        self.draw_len = np.zeros(size, dtype=np.int64)
        self.discard = np.zeros((size, DECK_SIZE), dtype=cards)
        self.discard_len = np.zeros(size, dtype=np.int64)
        self.hands = np.zeros((size, n, self.hand_size), dtype=cards)
        self.tableaux = np.zeros((size, n, DECK_SIZE), dtype=cards)
        self.tableau_len = np.zeros((size, n), dtype=np.int64)
        self.fixed_sum = np.zeros((size, n), dtype=np.int64)
        self.flex_count = np.zeros((size, n), dtype=np.int64)
        self.visible_min = np.zeros((size, n), dtype=np.int64)
        self.hand_kinds = np.zeros((size, n, kinds), dtype=np.int64)
        self.public_kinds = np.zeros((size, kinds), dtype=np.int64)  # discard + tableaux
        self.active = np.zeros((size, n), dtype=bool)
        self.wins = np.zeros((size, n), dtype=np.int64)
        self.current = np.zeros(size, dtype=np.int64)
        self.start_seat = np.zeros(size, dtype=np.int64)
        self.round = np.zeros(size, dtype=np.int64)
        self.decisions = np.zeros(size, dtype=np.int64)
        self.cards_drawn = np.zeros(size, dtype=np.int64)
        self.live = np.zeros(size, dtype=bool)
        self.truncated = np.zeros(size, dtype=bool)
        self.key = np.zeros(size, dtype=np.uint64)  # the seed, for counter-based uniforms
        self.seeds: list[int] = [0] * size
        # random() keys drawn by a slot's reshuffles so far: its generator is rebuilt from
        # the seed when a reshuffle needs it, not held (2.5 KB of state a table, more than
        # half of what a table held; R13 comes about once in 30 two-player games)
        self.keys_drawn = np.zeros(size, dtype=np.int64)
        self.log: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        # per scored round (with `record`): its tables, their round wins after it, and
        # whether the round's start seat won it and its edge in the round (state.start_edge),
        # for `stats` (the engine's `stats()`)
        self.rounds_log: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._seat_steps = np.arange(1, n + 1)

    # -- setup ----------------------------------------------------------------------------
    def start(self, slots: np.ndarray, seeds: Sequence[int]) -> None:
        """Start a game from each seed in its slot: the engine's shuffle (R5) and start
        seat (R6) from `random.Random(seed)`, then the first deal."""
        words = bytearray()
        starts = []
        fixed_start = self.first_start_seat != "random"
        n = self.players
        for slot, seed in zip(slots.tolist(), seeds, strict=True):
            rng = random.Random(seed)
            words += rng.getrandbits(32 * _WORDS_PER_KEY * DECK_SIZE).to_bytes(
                4 * _WORDS_PER_KEY * DECK_SIZE, "little"
            )
            starts.append(int(self.first_start_seat) if fixed_start else rng.randrange(n))
            self.seeds[slot] = seed
        raw = np.frombuffer(bytes(words), dtype="<u4").reshape(len(slots), DECK_SIZE, 2)
        raw = raw.astype(np.uint64)
        # random.random(): (a >> 5) * 2**26 + (b >> 6), over 2**53; sorting needs no division.
        keys = (raw[:, :, 0] >> np.uint64(5)) * np.uint64(67108864) + (raw[:, :, 1] >> np.uint64(6))
        self.draw[slots] = np.argsort(keys, axis=1, kind="stable")
        self.draw_len[slots] = DECK_SIZE
        self.discard_len[slots] = 0
        self.public_kinds[slots] = 0
        self.wins[slots] = 0
        self.round[slots] = 0
        self.decisions[slots] = 0
        self.cards_drawn[slots] = 0
        self.truncated[slots] = False
        self.keys_drawn[slots] = 0
        self.live[slots] = True
        self.start_seat[slots] = starts
        self.key[slots] = np.asarray(seeds, dtype=np.uint64)
        self._deal(slots)

    def _reshuffle(self, slot: int) -> None:
        """R13 with the engine's shuffle: one `random()` key per discarded card, in order."""
        size = int(self.discard_len[slot])
        cards = self.discard[slot, :size].tolist()
        draw_key = self._stream(slot).random
        keys = {c: draw_key() for c in cards}
        self.keys_drawn[slot] += size
        cards.sort(key=keys.__getitem__)
        self.draw[slot, :size] = cards
        self.draw_len[slot] = size
        self.discard_len[slot] = 0
        self.public_kinds[slot] -= np.bincount(self.kind_of[cards], minlength=self.kinds)

    def _stream(self, slot: int) -> random.Random:
        """The slot's generator where the engine's is now: rebuilt from the seed, past the
        first shuffle, the start seat and every earlier reshuffle's keys (a `random()` is
        two 32-bit words, as `getrandbits(64)` is)."""
        rng = random.Random(self.seeds[slot])
        rng.getrandbits(32 * _WORDS_PER_KEY * DECK_SIZE)
        if self.first_start_seat == "random":
            rng.randrange(self.players)
        drawn = int(self.keys_drawn[slot])
        if drawn:
            rng.getrandbits(64 * drawn)
        return rng

    def _pop(self, slots: np.ndarray) -> np.ndarray:
        """The top card of each slot's draw pile, reshuffling empty piles first (R13)."""
        lengths = self.draw_len[slots]
        if not lengths.all():
            for slot in slots[lengths == 0].tolist():
                self._reshuffle(slot)
            lengths = self.draw_len[slots]
        lengths = lengths - 1
        self.draw_len[slots] = lengths
        self.cards_drawn[slots] += 1
        return self.draw[slots, lengths].astype(np.int64)

    def _deal(self, slots: np.ndarray) -> None:
        """R7, R8, R9: a new round; HAND_SIZE cards each from the start seat clockwise."""
        n = self.players
        self.round[slots] += 1
        starts = self.start_seat[slots]
        self.fixed_sum[slots] = 0
        self.flex_count[slots] = 0
        self.hand_kinds[slots] = 0
        for i in range(n):
            seats = (starts + i) % n
            for j in range(self.hand_size):
                cards = self._pop(slots)
                self.hands[slots, seats, j] = cards
                self.fixed_sum[slots, seats] += self.fixed_value[cards]
                self.flex_count[slots, seats] += self.is_flex[cards]
                self.hand_kinds[slots, seats, self.kind_of[cards]] += 1
        self.tableau_len[slots] = 0
        self.visible_min[slots] = 0
        self.active[slots] = True
        self.current[slots] = starts

    # -- what a seat may know ---------------------------------------------------------------
    def totals(self, fixed: np.ndarray, flex: np.ndarray) -> np.ndarray:
        """§7 closed form over arrays; -1 is OVERFLOW (R17)."""
        lo, hi = self.flex_lo, self.flex_hi
        low = fixed + flex * lo
        best = low + (hi - lo) * np.minimum(flex, (self.target - low) // (hi - lo))
        return np.where(low > self.target, -1, best)

    def own_total(self, slots: np.ndarray, seat: int) -> np.ndarray:
        return self.totals(self.fixed_sum[slots, seat], self.flex_count[slots, seat])

    def can_drop(self, slots: np.ndarray) -> np.ndarray:
        """R14 (no card left anywhere) and R12a (over the target, if so set) leave STOP only."""
        cards_left = (self.draw_len[slots] > 0) | (self.discard_len[slots] > 0)
        if self.allow_overflow_drop:
            return cards_left
        seats = self.current[slots]
        total = self.totals(self.fixed_sum[slots, seats], self.flex_count[slots, seats])
        return cards_left & (total >= 0)

    def overflow_risk(self, slots: np.ndarray, seat: int) -> np.ndarray:
        """The chance that one more card from the seat's unseen multiset (R32) overflows it."""
        unseen = self.copies - self.public_kinds[slots] - self.hand_kinds[slots, seat]
        fixed = self.fixed_sum[slots, seat][:, None]
        flex = self.flex_count[slots, seat][:, None]
        after = self.totals(fixed + self.kind_value, flex + self.kind_flex)
        count = unseen.sum(axis=1)
        bad = (unseen * (after < 0)).sum(axis=1)
        return np.where(count > 0, bad / np.maximum(count, 1), 1.0)

    # -- play -----------------------------------------------------------------------------
    def apply(self, slots: np.ndarray, drop: np.ndarray) -> np.ndarray:
        """Every table in `slots` takes its decision (True = DROP, R11; False = STOP, R12);
        rounds that end are scored and dealt anew. Returns the slots whose game ended."""
        seats = self.current[slots]
        if self.record:
            self.log.append((slots, seats, drop))
        self.decisions[slots] += 1
        dropping, droppers = slots[drop], seats[drop]
        if dropping.size:
            cards = self._pop(dropping)
            at = self.tableau_len[dropping, droppers]
            self.tableaux[dropping, droppers, at] = cards
            self.tableau_len[dropping, droppers] = at + 1
            self.fixed_sum[dropping, droppers] += self.fixed_value[cards]
            self.flex_count[dropping, droppers] += self.is_flex[cards]
            self.visible_min[dropping, droppers] += self.low[cards]
            self.public_kinds[dropping, self.kind_of[cards]] += 1
        stop = ~drop
        self.active[slots[stop], seats[stop]] = False
        # §5 nextActive: the seats after the mover clockwise, the mover itself last (R9).
        order = (seats[:, None] + self._seat_steps) % self.players
        waiting = self.active[slots[:, None], order]
        more = waiting.any(axis=1)
        nxt = order[np.arange(len(slots)), waiting.argmax(axis=1)]
        self.current[slots[more]] = nxt[more]
        if more.all():
            return slots[:0]
        return self._score(slots[~more])

    def _score(self, slots: np.ndarray) -> np.ndarray:
        """R15-R24 for every table whose round ended; returns the tables whose game ended."""
        totals = self.totals(self.fixed_sum[slots], self.flex_count[slots])
        best = totals.max(axis=1, keepdims=True)
        won = (totals == best) & (best >= 0)  # R18-R20
        self.wins[slots] += won
        if self.record:
            start_won = won[np.arange(len(slots)), self.start_seat[slots]]
            self.rounds_log.append((slots, self.wins[slots], start_won, self._edge(won, start_won)))
        over = (self.wins[slots] >= self.wins_to_win).any(axis=1)  # R21
        ended = slots[over]
        going = slots[~over]
        self._discard_round(going)  # R22
        if self.max_rounds is not None:  # R34
            capped = self.round[going] >= self.max_rounds
            self.truncated[going[capped]] = True
            ended = np.concatenate([ended, going[capped]])
            going = going[~capped]
        self.live[ended] = False
        self.start_seat[going] = (self.start_seat[going] + 1) % self.players  # R23
        if going.size:
            self._deal(going)  # R24
        return ended

    def _edge(self, won: np.ndarray, start_won: np.ndarray) -> np.ndarray:
        """state.start_edge over rows: the start seat's share of the round's win minus the
        mean share of the others, as one division of whole numbers (the engine's float)."""
        others = max(1, self.players - 1)
        k = won.sum(axis=1).astype(np.int64)
        own = start_won.astype(np.int64)
        edge = (own * others - (k - own)) / np.maximum(k * others, 1)
        return np.where((k > 0) & (self.players > 1), edge, 0.0)

    def _discard_round(self, slots: np.ndarray) -> None:
        """R22 in the engine's order: per seat, its hand then its tableau."""
        if not slots.size:
            return
        base = self.discard_len[slots].copy()
        columns = np.arange(DECK_SIZE)
        for seat in range(self.players):
            for j in range(self.hand_size):
                self.discard[slots, base] = self.hands[slots, seat, j]
                base += 1
            lengths = self.tableau_len[slots, seat]
            rows, cols = np.nonzero(columns[None, :] < lengths[:, None])
            self.discard[slots[rows], base[rows] + cols] = self.tableaux[slots[rows], seat, cols]
            base += lengths
        self.discard_len[slots] = base
        self.public_kinds[slots] += self.hand_kinds[slots].sum(axis=1)

    def decide(self, slots: np.ndarray, policies: Sequence[Policy]) -> np.ndarray:
        """Each table's decision from the policy of the seat to act (STOP where it must)."""
        drop = self.can_drop(slots)
        seats = self.current[slots]
        for seat, policy in enumerate(policies):
            asked = (seats == seat) & drop
            if asked.any():
                drop[asked] = policy(self, slots[asked], seat)
        return drop

    def stats(self, slots: Sequence[int]) -> list[dict[str, float]]:
        """Each finished slot's `stats()` as the engine's state gives them: its length, the
        lead's story (state.lead_story, here over arrays: the round wins after each round)
        and, per round, whether the seat that started it won it and its edge in the round."""
        if not self.record:
            raise ValueError("these tables were made with record=False")
        size, n = self.size, self.players
        leader = np.full(size, -1)
        changes = np.zeros(size, dtype=np.int64)
        behind = np.zeros((size, n), dtype=bool)  # below the leaders after some round
        for scored, wins, _, _ in self.rounds_log:  # rounds in the order they were played
            best = wins.max(axis=1, keepdims=True)
            sole = (wins == best).sum(axis=1) == 1
            top = wins.argmax(axis=1)
            before = leader[scored]
            changes[scored] += sole & (before >= 0) & (top != before)
            leader[scored] = np.where(sole, top, before)
            behind[scored] |= wins < best
        final = self.wins
        winners = (final == final.max(axis=1, keepdims=True)) & ~self.truncated[:, None]
        comeback = (winners & behind).any(axis=1)
        wanted = np.asarray(slots)
        start_won = _by_slot(
            wanted,
            [log[0] for log in self.rounds_log],
            [log[2] for log in self.rounds_log],
            [log[3] for log in self.rounds_log],
        )
        out = []
        for slot, decisions, rounds, lead_changes, came_back in zip(
            wanted.tolist(),
            self.decisions[wanted].tolist(),
            self.round[wanted].tolist(),
            changes[wanted].tolist(),
            comeback[wanted].tolist(),
            strict=True,
        ):
            stats: dict[str, float] = {
                "decisions": decisions,
                "rounds": rounds,
                "lead_changes": float(lead_changes),
                "comeback": float(came_back),
            }
            for r, (won, edge) in enumerate(start_won[slot], 1):
                stats[f"start_won.r{r}"] = float(won)
                stats[f"start_edge.r{r}"] = float(edge)
            out.append(stats)
        return out

    def histories(self, slots: Sequence[int]) -> list[list[tuple[int, Action]]]:
        """Each slot's decisions as the engine's history, (seat, DROP or STOP) in order."""
        if not self.record:
            raise ValueError("these tables were made with record=False")
        wanted = np.asarray(slots)
        steps = _by_slot(
            wanted,
            [s for s, _, _ in self.log],
            [s for _, s, _ in self.log],
            [d for _, _, d in self.log],
        )
        return [
            [(seat, DROP if drop else STOP) for seat, drop in steps[s]] for s in wanted.tolist()
        ]


def _by_slot(
    wanted: np.ndarray, slots: list[np.ndarray], *columns: list[np.ndarray]
) -> dict[int, list[tuple[Any, ...]]]:
    """Each wanted slot's rows of a per-step log (parallel lists of arrays: the slots, then
    each value), in the order they were logged."""
    out: dict[int, list[tuple[Any, ...]]] = {int(s): [] for s in wanted.tolist()}
    if not slots:
        return out
    every_slot = np.concatenate(slots)
    picked = np.flatnonzero(np.isin(every_slot, wanted))
    picked = picked[np.argsort(every_slot[picked], kind="stable")]  # log order within a slot
    values = [np.concatenate(column)[picked].tolist() for column in columns]
    for slot, *row in zip(every_slot[picked].tolist(), *values, strict=True):
        out[slot].append(tuple(row))
    return out


# -- policies ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RandomPolicy:
    """Uniform over {DROP, STOP}, from the game's counter-based stream."""

    def __call__(self, tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray:
        return uniforms(tables.key[slots], tables.decisions[slots]) < 0.5


@dataclass(frozen=True)
class ThresholdPolicy:
    """`ThresholdBot` over arrays, rule for rule (bots.py), so its games are the engine's."""

    stop_at: int = 8
    max_risk: float = 0.5

    def __call__(self, tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray:
        total = tables.own_total(slots, seat)
        risk = tables.overflow_risk(slots, seat)
        others = [s for s in range(tables.players) if s != seat]
        others_active = tables.active[slots][:, others].any(axis=1)
        visible = tables.visible_min[slots][:, others]
        in_reach = visible + tables.smallest_hand <= tables.target
        rivals = np.where(in_reach, visible + _HIDDEN_HAND_GUESS, 0)
        best = rivals.max(axis=1, initial=0)
        last_word = (total <= best) & (risk <= max(self.max_risk, 0.6))
        keep_going = (total < self.stop_at) & (risk <= self.max_risk)
        return (total >= 0) & np.where(others_active, keep_going, last_word)


FEATURES = 8


def features(tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray:
    """What a learned policy sees, one row per table (all in [0, 1]): own total, overflow,
    overflow risk, own and best rival round wins, share of other seats still in, best
    rival's visible minimum, draw pile size."""
    n = tables.players
    total = tables.own_total(slots, seat)
    others = [s for s in range(n) if s != seat]
    out = np.empty((len(slots), FEATURES), dtype=np.float32)
    out[:, 0] = np.maximum(total, 0) / tables.target
    out[:, 1] = total < 0
    out[:, 2] = tables.overflow_risk(slots, seat)
    out[:, 3] = tables.wins[slots, seat] / tables.wins_to_win
    out[:, 4] = tables.wins[slots][:, others].max(axis=1, initial=0) / tables.wins_to_win
    out[:, 5] = tables.active[slots][:, others].mean(axis=1)
    out[:, 6] = tables.visible_min[slots][:, others].max(axis=1, initial=0) / tables.target
    out[:, 7] = tables.draw_len[slots] / DECK_SIZE
    return out


@dataclass(frozen=True)
class ForwardPolicy:
    """A learned policy: `forward(features) -> P(DROP)` per row (e.g. a network's forward
    pass in numpy); DROP is sampled from it, or taken when above 1/2 if `greedy`."""

    forward: Callable[[np.ndarray], np.ndarray]
    greedy: bool = False

    def __call__(self, tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray:
        chance = np.asarray(self.forward(features(tables, slots, seat)), dtype=np.float64)
        if self.greedy:
            return chance > 0.5
        return uniforms(tables.key[slots], tables.decisions[slots]) < chance


def policy_for(bot: Any) -> Policy | None:
    """The array policy that plays as `bot` does, or None if it has none. A `ThresholdBot`
    becomes the same decisions; a `RandomBot` the same distribution (another stream)."""
    if type(bot) is ThresholdBot:
        return ThresholdPolicy(bot.stop_at, bot.max_risk)
    if type(bot) is RandomBot:
        return RandomPolicy()
    return None


def exact(policy: Policy) -> bool:
    """Whether `policy` makes the engine bot's very decisions (not only its distribution)."""
    return isinstance(policy, ThresholdPolicy)


# -- whole batches ---------------------------------------------------------------------------
@dataclass
class Played:
    """A finished batch: per game its seed, round wins, truncation and counts."""

    tables: Tables
    seeds: list[int]

    @property
    def wins(self) -> np.ndarray:
        return self.tables.wins

    def outcome(self, i: int) -> Outcome:
        """R21 winners share the game; R34 a capped game is truncated (as the engine)."""
        return Outcome.from_scores(
            self.tables.wins[i].tolist(), truncated=bool(self.tables.truncated[i])
        )

    def histories(self, games: Sequence[int]) -> list[list[tuple[int, Action]]]:
        return self.tables.histories(games)

    @property
    def decisions(self) -> int:
        return int(self.tables.decisions.sum())

    @property
    def chance_steps(self) -> int:
        """Cards drawn (dealt or dropped): the chance steps OpenSpiel would count."""
        return int(self.tables.cards_drawn.sum())


def play(game: DropOrStop, seeds: Sequence[int], policies: Sequence[Policy]) -> Played:
    """Play one game per seed, all in lockstep, seat s deciding by `policies[s]`."""
    if len(policies) != game.players:
        raise ValueError(f"{game.players} seats but {len(policies)} policies")
    tables = Tables(game, len(seeds))
    live = np.arange(len(seeds))
    tables.start(live, seeds)
    while live.size:
        ended = tables.apply(live, tables.decide(live, policies))
        if ended.size:
            live = live[tables.live[live]]
    return Played(tables, list(seeds))
