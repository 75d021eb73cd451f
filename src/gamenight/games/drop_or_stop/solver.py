"""Exact round analysis for Drop or Stop: enumeration of the unseen cards, no sampling.

A round is a finite stochastic game once every opponent follows a known stop rule. The
round value `win_chance` sums over every way the unseen cards can lie (the opponents'
hidden hands, then every card drawn in turn), memoised on the multiset of cards left, so
it is exact. Players are described by (fixed sum, flex count) of their round cards, which
is all the §7 valuation needs.

Opponent model: a threshold rule "DROP while my total is below s" (the threshold bot's core
rule). Each opponent's s is fitted to what the seat has seen of it: the public record of
earlier rounds (R29 shows every hand and the order of every tableau, so each past decision
and the total it was made at are known).

The exact count grows with every hidden hand: at a round's start it is hundreds of
thousands of positions at 3 players and tens of millions at 4. `exact_count` stops past a
budget of positions (`TooCostly`), and `sampled_chances` estimates the same two numbers from
sampled deals and shuffles instead, with a 95% margin (the coach shows which it is).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.games.drop_or_stop.scoring import round_total

OVER = -1  # a total above the target


@dataclass(frozen=True)
class Table:
    """The card kinds of a deck and the target, as the solver needs them."""

    ids: tuple[str, ...]
    flex: tuple[bool, ...]
    value: tuple[int, ...]
    target: int
    flex_values: tuple[int, int]

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        ids = tuple(sorted(view["cards"]))
        return cls(
            ids,
            tuple(view["cards"][c]["flex"] for c in ids),
            tuple(view["cards"][c]["value"] for c in ids),
            view["target"],
            (view["flex_values"][0], view["flex_values"][1]),
        )

    # A status is (lowest total, flex cards that could still count high), canonical so
    # that statuses with the same future share memo entries: past the target everything
    # is OVER, and no more than target // (hi - lo) flex cards can ever count high.
    @classmethod
    def from_game(cls, game: Any) -> tuple[Table, tuple[int, ...]]:
        """The table of a loaded Drop or Stop game and its deck counts (same kind order)."""
        table = cls.from_view(game.start(0).view(0))
        copies = {k.id: k.copies for k in game.deck.kinds}
        return table, tuple(copies[c] for c in table.ids)

    def add(self, status: tuple[int, int], kind: int) -> tuple[int, int]:
        low, flex = status
        lo, hi = self.flex_values
        if self.flex[kind]:
            low, flex = low + lo, min(flex + 1, self.target // (hi - lo))
        else:
            low += self.value[kind]
        return (self.target + 1, 0) if low > self.target else (low, flex)

    def total(self, status: tuple[int, int]) -> int:
        low, flex = status
        t = round_total(low - flex * self.flex_values[0], flex, self.target, self.flex_values)
        return OVER if t is None else t

    def status_of(self, cards: Sequence[str]) -> tuple[int, int]:
        status = (0, 0)
        index = {c: i for i, c in enumerate(self.ids)}
        for c in cards:
            status = self.add(status, index[c])
        return status


def hands(pool: tuple[int, ...], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of `size` kinds drawable from `pool`, with its number of ways."""
    out: list[tuple[tuple[int, ...], int]] = []

    def rec(start: int, left: int, chosen: list[int], ways: int, counts: list[int]) -> None:
        if left == 0:
            out.append((tuple(chosen), ways))
            return
        for k in range(start, len(counts)):
            if counts[k] == 0:
                continue
            taken = chosen.count(k)
            counts[k] -= 1
            chosen.append(k)
            # choose one more of kind k: ways grows by (available) / (taken + 1) overall
            rec(k, left - 1, chosen, ways * (counts[k] + 1) // (taken + 1), counts)
            chosen.pop()
            counts[k] += 1

    rec(0, size, [], 1, list(pool))
    return out


@dataclass(frozen=True)
class Round:
    """A round seen from one seat, ready to be solved."""

    table: Table
    me: int
    statuses: tuple[tuple[int, int] | None, ...]  # None: hidden hand not yet known
    tableau_status: tuple[tuple[int, int], ...]  # each seat's visible part
    active: tuple[bool, ...]
    current: int
    pool: tuple[int, ...]  # unseen kinds: other hands + draw pile (or hands only, see below)
    draw_known: tuple[int, ...] | None  # the draw pile's multiset when it is public (R30)
    draw_left: int
    discard: tuple[int, ...]
    thresholds: tuple[int, ...]  # the stop rule of each opponent
    hand_filters: tuple[frozenset[tuple[int, ...]] | None, ...]  # hands consistent so far
    hand_size: int
    optimize_me: bool = True  # False: `me` follows thresholds[me] like everyone else


class TooCostly(Exception):
    """The exact count needs more positions than its budget."""


def win_chances(r: Round) -> tuple[float, float]:
    """(P(win) if `me` drops now, P(win) if it stops now), playing best afterwards: the
    chance that seat `me` is among the round winners (R19; a shared win counts)."""
    drop, stop, _ = exact_count(r)
    return drop, stop


def exact_count(r: Round, budget: int | None = None) -> tuple[float, float, int]:
    """`win_chances` and the number of positions it solved; past `budget` positions it
    stops with TooCostly (the same sums in the same order otherwise, so the same floats)."""
    table = r.table
    n = len(r.statuses)
    me = r.me
    discard_size = sum(r.discard)
    add_memo: dict[tuple[tuple[int, int], int], tuple[int, int]] = {}
    total_memo: dict[tuple[int, int], int] = {}
    memo: dict[tuple[Any, ...], float] = {}

    def total(status: tuple[int, int]) -> int:
        t = total_memo.get(status)
        if t is None:
            t = total_memo[status] = table.total(status)
        return t

    def add(status: tuple[int, int], k: int) -> tuple[int, int]:
        key = (status, k)
        out = add_memo.get(key)
        if out is None:
            out = add_memo[key] = table.add(status, k)
        return out

    def play(
        statuses: tuple[tuple[int, int], ...],
        active: tuple[bool, ...],
        current: int,
        draw: tuple[int, ...],
        draw_left: int,
        reshuffled: bool,
    ) -> float:
        if total(statuses[me]) == OVER:
            return 0.0  # R18: nothing brings an overflowed seat back
        if not any(active):
            totals = [total(s) for s in statuses]
            return 1.0 if totals[me] == max(totals) else 0.0
        key = (statuses, active, current, draw, draw_left, reshuffled)
        value = memo.get(key)
        if value is not None:
            return value
        can_draw = draw_left > 0 or (not reshuffled and discard_size > 0)
        if current == me and r.optimize_me:
            stop = step(statuses, active, current, draw, draw_left, reshuffled, False)
            value = stop
            # A total of exactly the target cannot be improved (R20), so stop there.
            if can_draw and total(statuses[me]) != table.target:
                value = max(
                    stop, step(statuses, active, current, draw, draw_left, reshuffled, True)
                )
        else:
            t = total(statuses[current])
            drops = can_draw and t != OVER and t < r.thresholds[current]
            value = step(statuses, active, current, draw, draw_left, reshuffled, drops)
        memo[key] = value
        if budget is not None and len(memo) > budget:
            raise TooCostly(f"the exact count needs more than {budget} positions")
        return value

    def step(
        statuses: tuple[tuple[int, int], ...],
        active: tuple[bool, ...],
        current: int,
        draw: tuple[int, ...],
        draw_left: int,
        reshuffled: bool,
        drop: bool,
    ) -> float:
        if not drop:
            flags = list(active)
            flags[current] = False
            after = tuple(flags)
            return play(statuses, after, _next_active(after, current), draw, draw_left, reshuffled)
        if draw_left == 0:  # R13: the discard pile becomes the draw pile
            draw, draw_left, reshuffled = r.discard, discard_size, True
        size = sum(draw)
        nxt = _next_active(active, current)
        value = 0.0
        for k, count in enumerate(draw):
            if count:
                left = list(draw)
                left[k] -= 1
                now = list(statuses)
                now[current] = add(statuses[current], k)
                value += count * play(
                    tuple(now), active, nxt, tuple(left), draw_left - 1, reshuffled
                )
        return value / size

    def decide(statuses: tuple[tuple[int, int], ...], draw: tuple[int, ...]) -> tuple[float, float]:
        args = (statuses, r.active, r.current, draw, r.draw_left, False)
        if r.current != me or not r.optimize_me:
            value = play(*args)
            return (value, value)
        stop = step(*args, False)
        if r.draw_left == 0 and discard_size == 0:  # no card left to drop (R14)
            return (stop, stop)
        return (step(*args, True), stop)

    # Deal the unknown hands (chance), weighting each by the ways it can be drawn and
    # keeping only hands consistent with what the opponent did this round.
    def deal(
        seat: int, statuses: list[tuple[int, int] | None], pool: tuple[int, ...]
    ) -> tuple[float, float]:
        if seat == n:
            known = tuple(s for s in statuses if s is not None)
            return decide(known, r.draw_known if r.draw_known is not None else pool)
        if statuses[seat] is not None:
            return deal(seat + 1, statuses, pool)
        options = hands(pool, r.hand_size)
        allowed = r.hand_filters[seat]
        kept = [(h, w) for h, w in options if allowed is None or h in allowed] or options
        weight = sum(w for _, w in kept)
        drop = stop = 0.0
        for hand, ways in kept:
            left = list(pool)
            status = r.tableau_status[seat]
            for k in hand:
                left[k] -= 1
                status = add(status, k)
            statuses[seat] = status
            d, s = deal(seat + 1, statuses, tuple(left))
            drop += ways * d
            stop += ways * s
        statuses[seat] = None
        return (drop / weight, stop / weight)

    drop, stop = deal(0, list(r.statuses), r.pool)
    return drop, stop, len(memo)


@dataclass(frozen=True)
class Sampled:
    """`sampled_chances`' estimates, each with the half-width of its 95% interval."""

    drop: float
    stop: float
    drop_margin: float
    stop_margin: float
    samples: int
    steps: int  # turns played in all the sampled rounds (the work done)


Z95 = 1.96  # the normal quantile of a two-sided 95% interval


def margin95(wins: int, n: int) -> float:
    """The larger half of the Wilson 95% interval around wins / n (never 0 for n < oo:
    a chance never seen in n rounds is still up to about 4 / n)."""
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre + half - p, p - (centre - half))


def sampled_chances(r: Round, samples: int, seed: int = 13) -> Sampled:
    """`win_chances` estimated from `samples` sampled rounds: the hidden hands dealt with
    the exact count's weights (the same filters), the draw pile shuffled, the opponents on
    their stop rules, and `me`, after its drop or stop now, deciding each later turn by one
    step of look-ahead as the exact count's `me` may (it sees every status: stop, or drop
    once and then stop, whichever wins more often if each opponent's further draws were
    independent). Both choices play the same deal and shuffle. That rule is not always the
    best, so the drop estimate is of a lower bound; on 3-player positions the exact count
    fell inside the margins (tests/drop_or_stop/test_coach_speed.py)."""
    table = r.table
    n = len(r.statuses)
    me = r.me
    target = table.target
    rng = random.Random(seed)
    samples = max(1, samples)
    add_memo: dict[tuple[tuple[int, int], int], tuple[int, int]] = {}
    total_memo: dict[tuple[int, int], int] = {}

    def total(status: tuple[int, int]) -> int:
        t = total_memo.get(status)
        if t is None:
            t = total_memo[status] = table.total(status)
        return t

    def add(status: tuple[int, int], k: int) -> tuple[int, int]:
        key = (status, k)
        out = add_memo.get(key)
        if out is None:
            out = add_memo[key] = table.add(status, k)
        return out

    # Each opponent's further draws, as `me`'s look-ahead guesses them: with replacement
    # from the unseen cards, until its rule stops it. ok(status, s, t): P(it ends at t or
    # below, or over).
    unseen = r.draw_known if r.draw_known is not None else r.pool
    size = sum(unseen) or 1
    chance = [c / size for c in unseen]
    ok_memo: dict[tuple[tuple[int, int], int, int], float] = {}

    def ok(status: tuple[int, int], threshold: int, t: int) -> float:
        key = (status, threshold, t)
        found = ok_memo.get(key)
        if found is not None:
            return found
        now = total(status)
        if now == OVER:
            value = 1.0
        elif now >= threshold:
            value = 1.0 if now <= t else 0.0
        else:
            value = sum(p * ok(add(status, k), threshold, t) for k, p in enumerate(chance) if p)
        ok_memo[key] = value
        return value

    def wins_if_stopped(statuses: list[tuple[int, int]], active: list[bool], t: int) -> float:
        if t == OVER:
            return 0.0
        value = 1.0
        for seat in range(n):
            if seat == me:
                continue
            if active[seat]:
                value *= ok(statuses[seat], r.thresholds[seat], t)
            elif total(statuses[seat]) > t:
                return 0.0
        return value

    def look_ahead(statuses: list[tuple[int, int]], active: list[bool], left: list[int]) -> bool:
        """Drop (True) or stop: stop now against drop once and then stop."""
        stop = wins_if_stopped(statuses, active, total(statuses[me]))
        cards = sum(left)
        drop = 0.0
        for k, count in enumerate(left):
            if count:
                drop += count * wins_if_stopped(statuses, active, total(add(statuses[me], k)))
        return drop > stop * cards

    # The hidden hands, seat by seat as the exact count deals them (kept hands by ways).
    kept_memo: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def kept(seat: int, pool: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (seat, pool)
        found = kept_memo.get(key)
        if found is None:
            options = hands(pool, r.hand_size)
            allowed = r.hand_filters[seat]
            chosen = [(h, w) for h, w in options if allowed is None or h in allowed] or options
            cumulative, running = [], 0
            for _, w in chosen:
                running += w
                cumulative.append(running)
            found = kept_memo[key] = ([h for h, _ in chosen], cumulative)
        return found

    def deal() -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        statuses: list[tuple[int, int]] = []
        pool = r.pool
        for seat in range(n):
            known = r.statuses[seat]
            if known is not None:
                statuses.append(known)
                continue
            options, cumulative = kept(seat, pool)
            if not options:  # fewer unseen cards than a hand (a view that counts otherwise)
                statuses.append(r.tableau_status[seat])
                continue
            hand = rng.choices(options, cum_weights=cumulative)[0]
            left = list(pool)
            status = r.tableau_status[seat]
            for k in hand:
                left[k] -= 1
                status = add(status, k)
            pool = tuple(left)
            statuses.append(status)
        return statuses, pool

    def shuffled(counts: Sequence[int]) -> list[int]:
        cards = [k for k, c in enumerate(counts) for _ in range(c)]
        rng.shuffle(cards)
        return cards

    discard_size = sum(r.discard)
    steps = 0

    def play(start: list[tuple[int, int]], deck: list[int], first_drop: bool) -> int:
        """One round from the deal: 1 if `me` is among its winners."""
        nonlocal steps
        statuses = list(start)
        active = list(r.active)
        left = [0] * len(table.ids)
        for k in deck:
            left[k] += 1
        pile, draw_left, reshuffled = deck, r.draw_left, False
        current, first = r.current, True
        while True:
            steps += 1
            if total(statuses[me]) == OVER:
                return 0  # R18
            if not any(active):
                totals = [total(s) for s in statuses]
                return 1 if totals[me] == max(totals) else 0
            can_draw = draw_left > 0 or (not reshuffled and discard_size > 0)
            if current == me and first and r.optimize_me:
                drop, first = first_drop and can_draw, False
            elif current == me and r.optimize_me:
                drop = can_draw and total(statuses[me]) != target
                if drop and draw_left > 0:
                    drop = look_ahead(statuses, active, left)
                elif drop:
                    drop = look_ahead(statuses, active, list(r.discard))
            else:
                t = total(statuses[current])
                drop = can_draw and t != OVER and t < r.thresholds[current]
            if drop and (draw_left == 0 or not pile):
                if reshuffled or not discard_size:
                    drop = False  # nothing left to draw (a view that counts otherwise)
                else:  # R13: the discard pile becomes the draw pile
                    pile, draw_left, reshuffled = shuffled(r.discard), discard_size, True
                    left = list(r.discard)
            if drop:
                k = pile.pop()
                left[k] -= 1
                draw_left -= 1
                statuses[current] = add(statuses[current], k)
            else:
                active[current] = False
            current = _next_active(tuple(active), current)

    drops = stops = 0
    for _ in range(samples):
        statuses, pool = deal()
        deck = shuffled(r.draw_known if r.draw_known is not None else pool)
        stops += play(statuses, list(deck), False)
        if r.current == me and r.optimize_me:
            drops += play(statuses, deck, True)
    if r.current != me or not r.optimize_me:
        drops = stops
    return Sampled(
        drops / samples,
        stops / samples,
        margin95(drops, samples),
        margin95(stops, samples),
        samples,
        steps,
    )


def _next_active(active: tuple[bool, ...], seat: int) -> int:
    n = len(active)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if active[other]:
            return other
    return seat


def fit_threshold(decisions: Sequence[tuple[int, bool]], prior: int = 8) -> int:
    """The stop threshold s that explains most (total, dropped) decisions; ties go to the
    value nearest the threshold bot's default."""
    if not decisions:
        return prior
    best = max(
        range(1, 14),
        key=lambda s: (
            sum((t != OVER and t < s) == dropped for t, dropped in decisions),
            -abs(s - prior),
        ),
    )
    return best


def round_from_view(view: dict[str, Any], events: Sequence[Any], prior: int = 8) -> Round:
    """The current round as `view["seat"]` sees it, with fitted opponent rules."""
    table = Table.from_view(view)
    index = {c: i for i, c in enumerate(table.ids)}
    me = view["seat"]
    n = view["players"]
    seats = view["seats"]

    def counts(multiset: dict[str, int]) -> list[int]:
        out = [0] * len(table.ids)
        for cid, k in multiset.items():
            out[index[cid]] += k
        return out

    # This round's events: drops in order, stops, and a reshuffle that made the draw public.
    start = max((i for i, e in enumerate(events) if e.kind == "dealt"), default=0)
    draw_known: list[int] | None = None
    stopped = [False] * n
    for e in events[start:]:
        if e.kind == "reshuffled":
            draw_known = counts(e.data["cards"])
        elif e.kind == "dropped" and draw_known is not None:
            draw_known[index[e.data["card"]]] -= 1
        elif e.kind == "stopped":
            stopped[e.data["seat"]] = True
    pool = counts(view["unseen"])
    if draw_known is not None:
        pool = [a - b for a, b in zip(pool, draw_known, strict=True)]

    thresholds = []
    for seat in range(n):
        decisions: list[tuple[int, bool]] = []
        for record in view["rounds"]:
            status = table.status_of(record["hands"][seat])
            for cid in record["tableaux"][seat]:
                decisions.append((table.total(status), True))
                status = table.add(status, index[cid])
            decisions.append((table.total(status), False))
        thresholds.append(fit_threshold(decisions, prior))

    size = len(view["hand"] or ())
    candidates = hands(tuple(pool), size)
    filters: list[frozenset[tuple[int, ...]] | None] = []
    statuses: list[tuple[int, int] | None] = []
    for seat in range(n):
        tableau = seats[seat]["tableau"]
        if seat == me:
            statuses.append(table.status_of([*view["hand"], *tableau]))
            filters.append(None)
            continue
        statuses.append(None)
        ok = set()
        for hand, _ in candidates:
            status = (0, 0)
            for k in hand:
                status = table.add(status, k)
            fits = True
            for cid in tableau:
                t = table.total(status)
                fits &= t != OVER and t < thresholds[seat]
                status = table.add(status, index[cid])
            if stopped[seat]:
                t = table.total(status)
                fits &= t == OVER or t >= thresholds[seat]
            if fits:
                ok.add(hand)
        filters.append(frozenset(ok))
    return Round(
        table=table,
        me=me,
        statuses=tuple(statuses),
        tableau_status=tuple(table.status_of(s["tableau"]) for s in seats),
        active=tuple(s["active"] for s in seats),
        current=view["to_act"],
        pool=tuple(pool),
        draw_known=tuple(draw_known) if draw_known is not None else None,
        draw_left=view["draw_pile_size"],
        discard=tuple(counts(view["discard"])),
        thresholds=tuple(thresholds),
        hand_filters=tuple(filters),
        hand_size=size,
    )


def threshold_round(
    table: Table, deck: Sequence[int], thresholds: Sequence[int], me: int, hand_size: int = 2
) -> float:
    """P(seat `me` wins a fresh round) when every seat, seat 0 first, draws while its
    total is below its threshold: exact, from the full shuffled deck."""
    n = len(thresholds)
    empty = (0, 0)
    r = Round(
        table=table,
        me=me,
        statuses=(None,) * n,
        tableau_status=(empty,) * n,
        active=(True,) * n,
        current=0,
        pool=tuple(deck),
        draw_known=None,
        draw_left=sum(deck) - n * hand_size,
        discard=(0,) * len(deck),
        thresholds=tuple(thresholds),
        hand_filters=(None,) * n,
        hand_size=hand_size,
        optimize_me=False,
    )
    return win_chances(r)[0]
