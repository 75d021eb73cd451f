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
from gamenight.games.arne.rules import GIVE, WHITE

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
    _keep_possible(state, seat, slots, pool)
    sigma: dict[int, int] = {}
    i = 0
    for p, unknown in slots:
        fresh = sorted(pool[i : i + len(unknown)])
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


def _keep_possible(
    state: ArneState, seat: int, slots: list[tuple[int, list[int]]], pool: list[int]
) -> None:
    """Public facts about a hand that the next decision relies on stay true in the sample:
    while a demand is answered, its target holds at least `left` fitting cards (A24/A25:
    the count is public); in the white step the active player holds a playable white card
    (A9: the step is only entered then). Fitting cards of the shuffled pool are swapped into
    that player's part if needed (a function of the pool order and public facts only)."""
    g = state.game
    ck = g.card_kind
    if state.phase == GIVE and state.give is not None:
        player, _, mode, ci, need = state.give

        def fits(c: int) -> bool:
            return state._fits(ck[c], mode, ci)
    elif state.phase == WHITE:
        player, need = state.active, 1
        x3_target = any(st[2] < 0 for disp in state.displays for st in disp)

        def fits(c: int) -> bool:
            k = ck[c]
            return not g.k_black[k] and (g.k_type[k] != "X3" or x3_target)
    else:
        return
    start = 0
    for p, unknown in slots:
        if p == player:
            break
        start += len(unknown)
    else:
        return  # that hand is not resampled
    end = start + len(unknown)
    need -= sum(1 for c in state.known[seat][player] if fits(c))
    have = sum(1 for c in pool[start:end] if fits(c))
    if have >= need:
        return
    donors = [i for i in range(len(pool)) if not start <= i < end and fits(pool[i])]
    for i in range(start, end):
        if have >= need:
            break
        if not fits(pool[i]):
            j = donors.pop(0)
            pool[i], pool[j] = pool[j], pool[i]
            have += 1
