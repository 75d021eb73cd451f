"""Determinization (A58): resample what a seat cannot know, keep what it can.

A seat knows its own hand, everything public, and the cards `known[seat][p]` it tracked into
other hands (section 6). The rest of the other hands and the draw pile form one pool,
sorted before it is shuffled, so that two states the seat cannot tell apart give the same
result. A map `sigma` from the old unknown cards to the new ones (slot by slot: in card
order within each hand, by position in the draw pile) rewrites other seats' private events,
knowledge and hidden choices so that they match the new cards.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from gamenight.engine.core import Event
from gamenight.games.arne.rules import GIVE

if TYPE_CHECKING:
    from gamenight.games.arne.rules import ArneState

S = TypeVar("S", bound="ArneState")


def determinize(state: S, seat: int, rng: random.Random) -> S:
    """A58: keep what `seat` knows (its hand, known cards in other hands, everything
    public); resample other hands' unknown cards and the draw pile from the sorted pool;
    rewrite other seats' private events, knowledge and hidden choices to match; reseed."""
    new = state.copy()
    g = state.game
    n = g.n
    mine = state.known[seat]
    open_to = set(state._open_hands(seat))
    slots: list[tuple[int, list[int]]] = []
    pool: list[int] = []
    for p in range(n):
        if p == seat or p in open_to:
            continue
        kn = mine[p]
        unknown = [c for c in state.hands[p] if c not in kn]
        slots.append((p, unknown))
        pool.extend(unknown)
    pool.extend(state.deck)
    pool.sort()
    rng.shuffle(pool)
    if state.phase == GIVE and state.give is not None:
        _keep_demand_possible(state, seat, slots, pool)
    sigma: dict[int, int] = {}
    i = 0
    for p, unknown in slots:
        fresh = sorted(pool[i: i + len(unknown)])
        i += len(unknown)
        sigma.update(zip(unknown, fresh, strict=True))
        new.hands[p] = sorted([*mine[p], *fresh]) if mine[p] else fresh
    new.deck = pool[i:]
    sigma.update(zip(state.deck, new.deck, strict=True))
    for q in range(n):
        if q == seat:
            continue
        row = new.known[q]
        for p in range(n):
            if row[p]:
                row[p] = frozenset(sigma.get(c, c) for c in row[p])
    names = g.k_name
    ck = g.card_kind
    for idx, (li, ids, hist) in enumerate(state._priv):
        ev = state._log[li]
        if ev.to is not None and seat in ev.to:
            continue
        moved = tuple(sorted(sigma.get(c, c) for c in ids))
        if moved == ids:
            continue
        data = dict(ev.data)
        data["cards"] = [names[ck[c]] for c in moved]
        new._log[li] = Event(ev.kind, data, ev.to)
        new._priv[idx] = (li, moved, hist)
        if hist >= 0:
            who, _ = new.history[hist]
            new.history[hist] = (who, g.a_give[ck[moved[0]]])
    new.rng = random.Random(rng.getrandbits(64))
    return new

def _keep_demand_possible(state: ArneState, seat: int, slots: list[tuple[int, list[int]]],
                          pool: list[int]) -> None:
    """While a demand is answered, its target publicly holds at least `left` fitting
    cards (A24/A25 counts are public): swap fitting cards of the shuffled pool into the
    target's part if needed (a function of the pool order and public facts only)."""
    assert state.give is not None
    t, _, mode, ci, left = state.give
    ck = state.game.card_kind
    start = 0
    for p, unknown in slots:
        if p == t:
            break
        start += len(unknown)
    else:
        return  # the target's hand is not resampled
    end = start + len(slots[[p for p, _ in slots].index(t)][1])
    need = left - sum(1 for c in state.known[seat][t] if state._fits(ck[c], mode, ci))
    have = sum(1 for c in pool[start:end] if state._fits(ck[c], mode, ci))
    if have >= need:
        return
    donors = [i for i in range(len(pool))
              if not start <= i < end and state._fits(ck[pool[i]], mode, ci)]
    for i in range(start, end):
        if have >= need:
            break
        if not state._fits(ck[pool[i]], mode, ci):
            j = donors.pop(0)
            pool[i], pool[j] = pool[j], pool[i]
            have += 1
