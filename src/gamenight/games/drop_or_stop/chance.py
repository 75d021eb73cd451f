"""Drop or Stop's randomness as explicit chance outcomes, for solvers (CFR, best response).

The engine draws every card from its seeded shuffle (R5, R13). A solver wants each unseen
card as a chance node with its outcomes and their probabilities. This module gets that
from the engine without changing it: after the engine dealt or dropped, each new card is a
*slot*; a chance outcome is the kind of card in the slot, with probability (cards of that
kind still unfixed in the slot's shuffle) / (all of them), and fixing it swaps a card of
that kind into the slot from the cards shuffled with it (the other unfixed slots and the
draw pile). The draw pile stays a uniform shuffle of what is left, so the game played is
the real one, with the same odds.

The hooks a game offers an explicit-chance adapter (here as functions; a game's state could
offer them as methods): `check(game)`, `outcome_count(game)`, `new_slots(state, since)`,
`outcomes(state, pending)`, `fix(state, pending, outcome)` and `outcome_name(game, outcome)`.
The first start seat is random in the engine before any card is dealt, so explicit chance
needs it fixed (`first_start_seat=0`).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from gamenight.engine.core import BadInput, Event
from gamenight.games.drop_or_stop import DropOrStop, DropOrStopState


class Slot(NamedTuple):
    """One card whose kind a chance node decides: in `pile` ("hand" or "tableau") of
    `seat` at `position`; `event` is the index in the log of the event that shows it."""

    pile: str
    seat: int
    position: int
    event: int


def check(game: DropOrStop) -> None:
    """Refuse options under which some randomness is not a card (the random start seat)."""
    if game.options.first_start_seat == "random":
        raise BadInput(
            "explicit chance needs a fixed first start seat, e.g. first_start_seat=0 (the "
            "random one is drawn before any card and is not a chance outcome here)"
        )


def outcome_count(game: DropOrStop) -> int:
    """Outcomes are kind indices of the deck (§2.2)."""
    return len(game.deck.kinds)


def outcome_name(game: DropOrStop, outcome: int) -> str:
    return f"card {game.deck.kinds[outcome].id}"


def new_slots(state: DropOrStopState, since: int) -> list[Slot]:
    """The cards drawn by the events logged from index `since` on (R7 deals, R11 drops)."""
    found = []
    for index in range(since, len(state._log)):
        event = state._log[index]
        seat = event.data.get("seat") if event.kind in ("hand", "dropped") else None
        if seat is None:
            continue
        if event.kind == "hand":
            found += [Slot("hand", seat, i, index) for i in range(len(event.data["cards"]))]
        else:
            found.append(Slot("tableau", seat, len(state.tableaux[seat]) - 1, index))
    return found


def _pile(state: DropOrStopState, slot: Slot) -> list[int]:
    return state.hands[slot.seat] if slot.pile == "hand" else state.tableaux[slot.seat]


def _pool(state: DropOrStopState, pending: list[Slot]) -> list[tuple[list[int], int]]:
    """Where the cards shuffled together with the first pending slot's card lie now: the
    unfixed slots and the draw pile, of the same shuffle generation (R13)."""
    generation = state.card_generation
    first = _pile(state, pending[0])[pending[0].position]
    spots = [(_pile(state, s), s.position) for s in pending]
    spots += [(state.draw, i) for i in range(len(state.draw))]
    return [(pile, i) for pile, i in spots if generation[pile[i]] == generation[first]]


def outcomes(state: DropOrStopState, pending: list[Slot]) -> list[tuple[int, float]]:
    """(kind index, probability) for the card in `pending[0]`, sorted by kind."""
    kind = state.game.card_kind
    counts = Counter(kind[pile[i]] for pile, i in _pool(state, pending))
    total = sum(counts.values())
    return [(k, counts[k] / total) for k in sorted(counts)]


def fix(state: DropOrStopState, pending: list[Slot], outcome: int) -> None:
    """Make the card in `pending[0]` one of kind `outcome` (swapped in from its pool)."""
    kind = state.game.card_kind
    pool = _pool(state, pending)
    here_pile, here = pool[0]
    if kind[here_pile[here]] != outcome:
        for pile, i in pool[1:]:
            if kind[pile[i]] == outcome:
                here_pile[here], pile[i] = pile[i], here_pile[here]
                break
        else:
            raise BadInput(f"no {outcome_name(state.game, outcome)} is left to draw")
    for slot in pending:  # the swap may have changed a later unfixed slot's card too
        _rewrite(state, slot)
    state.recount()


def _rewrite(state: DropOrStopState, slot: Slot) -> None:
    """The event that shows `slot` names the card now there (a new Event: copies of the
    state share the old one)."""
    ids = state.game.card_id
    old = state._log[slot.event]
    if slot.pile == "hand":
        data = {**old.data, "cards": [ids[c] for c in state.hands[slot.seat]]}
    else:
        data = {**old.data, "card": ids[state.tableaux[slot.seat][slot.position]]}
    state._log[slot.event] = Event(old.kind, data, old.to)
