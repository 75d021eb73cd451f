"""Arne's randomness as explicit chance outcomes, for solvers (OpenSpiel's chance nodes).

The engine takes every random thing from its seeded RNG. A solver wants each one as a
chance node with its outcomes and their probabilities. This module gets that from the
engine without changing it (the default game is untouched), in two ways:

- **Cards from the draw pile** (A4 deal, A7 draw, A26 DRAW_THREE). After the engine dealt
  or drew, each new card is a *slot* (`Card`). A chance outcome is the kind of card in the
  slot, with probability (cards of that kind nobody has seen) / (all of them): the unseen
  cards are the draw pile and the slots not yet decided. Fixing an outcome swaps a card of
  that kind into the slot from those unseen cards (everywhere the state names the two
  card ids: hands, draw pile, knowledge, private events). The draw pile stays a uniform
  shuffle of what is left, so the game played is the real one with the same odds, and
  the order the pile was shuffled in never matters.
- **A random choice the rules make while an action is carried out** (A23 TAKE_RANDOM's
  card, A49 the dummy's colour, A24/A25 with `demand_selection=random`). The engine asks
  its RNG for `randrange(n)`. Here the action is held back (`Pick`), each `randrange(n)`
  it asks is a chance node with the n answers equally likely, and the action is then
  carried out with those answers. (So TAKE_RANDOM takes each card of the target's hand
  with probability 1/n, exactly as in the engine.)

The hooks an explicit-chance adapter calls (see adapters/openspiel.py): `check(game)`,
`outcome_count(game)`, `outcome_name(game, outcome)`, `new_slots(state, since)`,
`outcomes(state, pending)`, `fix(state, pending, outcome)` and `act(state, seat, action,
pending)`. Randomness drawn at the very start, before any chance node can be asked (a
random first seat, colours dealt at random), is refused by `check`.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from gamenight.engine.core import Action, BadInput, Event
from gamenight.games.arne.game import Arne
from gamenight.games.arne.state import ArneState

# The private events that show cards coming from the draw pile (A4, A7, A26).
FROM_THE_PILE = ("hand", "drew_cards")


class Card(NamedTuple):
    """A card from the draw pile whose kind a chance node decides: the card id now in
    that place (ids of one kind are interchangeable; fixing may swap ids)."""

    card: int


class Pick(NamedTuple):
    """`seat`'s `action`, held back until the rules' random choices in it are made:
    `answers` to the `randrange` calls so far; the next call asks for one of `n`."""

    seat: int
    action: Action
    answers: tuple[int, ...]
    n: int


Slot = Card | Pick


class _Ask(Exception):
    """The rules asked for one more random choice than was given."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class _Answers:
    """Stands in for the state's RNG while a held action is carried out."""

    def __init__(self, answers: tuple[int, ...]) -> None:
        self.answers = answers
        self.used = 0

    def randrange(self, n: int) -> int:
        if self.used == len(self.answers):
            raise _Ask(n)
        answer = self.answers[self.used]
        self.used += 1
        return answer

    def shuffle(self, items: list[int]) -> None:
        """A later game of a series shuffles a new draw pile (A55): its order does not
        matter here, every card drawn from it is a chance node over what is left.
        (Colours dealt at random, the other shuffle, are refused by `check`.)"""


def check(game: Arne) -> None:
    """Refuse options whose randomness comes before the first decision (not a chance
    node here)."""
    if game.options.first_seat == "random":
        raise BadInput(
            "explicit chance needs a fixed first seat, e.g. first_seat=0 (the random one "
            "is drawn before any card and is not a chance outcome here)"
        )
    if game.options.colour_assignment == "random":
        raise BadInput(
            "explicit chance needs colour_assignment=choose_in_seat_order (colours dealt "
            "at random are drawn before any card and are not chance outcomes here)"
        )


def outcome_count(game: Arne) -> int:
    """Outcomes 0..K-1 are card kinds; K + j is answer j of a random choice, at most one
    per card (TAKE_RANDOM picks from a hand)."""
    return len(game.kinds) + game.num_cards


def outcome_name(game: Arne, outcome: int) -> str:
    kinds = len(game.kinds)
    if outcome < kinds:
        return f"card {game.kind_name[outcome]}"
    return f"random choice {outcome - kinds}"


def new_slots(state: ArneState, since: int) -> list[Slot]:
    """The cards dealt or drawn by the events logged from index `since` on."""
    shown = {index: ids for index, ids, _ in state._private if index >= since}
    found: list[Slot] = []
    for index in range(since, len(state.log)):
        if state.log[index].kind in FROM_THE_PILE:
            found += [Card(card) for card in shown[index]]
    return found


def act(state: ArneState, seat: int, action: Action, pending: list[Slot]) -> ArneState:
    """Carry out `seat`'s decision; if the rules make a random choice in it, hold it back
    instead (a `Pick` appended to `pending`) and return the state unchanged."""
    return _try(state, Pick(seat, action, (), 0), pending, len(pending))


def _try(state: ArneState, pick: Pick, pending: list[Slot], at: int) -> ArneState:
    """The state after `pick`'s action with its answers, or `state` with the pick, asking
    for one more answer, inserted in `pending` at `at`."""
    trial = state.copy()
    rng, trial.rng = trial.rng, _Answers(pick.answers)  # type: ignore[assignment]
    try:
        trial.act(pick.seat, pick.action)
    except _Ask as ask:
        pending.insert(at, pick._replace(n=ask.n))
        return state
    trial.rng = rng
    return trial


def _unseen(state: ArneState, pending: list[Slot]) -> list[int]:
    """The cards nobody has seen: the undecided slots and the draw pile."""
    return [s.card for s in pending if isinstance(s, Card)] + state.deck


def outcomes(state: ArneState, pending: list[Slot]) -> list[tuple[int, float]]:
    """(outcome, probability) for `pending[0]`, sorted by outcome."""
    slot = pending[0]
    if isinstance(slot, Pick):
        offset = len(state.game.kinds)
        return [(offset + j, 1.0 / slot.n) for j in range(slot.n)]
    kind = state.game.card_kind
    counts = Counter(kind[card] for card in _unseen(state, pending))
    total = sum(counts.values())
    return [(k, counts[k] / total) for k in sorted(counts)]


def fix(state: ArneState, pending: list[Slot], outcome: int) -> ArneState:
    """Decide `pending[0]` (the adapter then drops it). A card: make it one of kind
    `outcome`, in place. A pick: carry out the held action with one more answer (a new
    state), or hold it for the next answer (a `Pick` inserted after `pending[0]`)."""
    slot = pending[0]
    if isinstance(slot, Pick):
        answer = outcome - len(state.game.kinds)
        if not 0 <= answer < slot.n:
            raise BadInput(f"{outcome_name(state.game, outcome)} is not one of {slot.n}")
        return _try(state, slot._replace(answers=(*slot.answers, answer)), pending, 1)
    card_kind = state.game.card_kind
    if card_kind[slot.card] != outcome:
        other = next((c for c in _unseen(state, pending)[1:] if card_kind[c] == outcome), None)
        if other is None:
            raise BadInput(f"no {outcome_name(state.game, outcome)} is left to draw")
        _swap(state, slot.card, other)
        pending[1:] = [Card(slot.card) if s == Card(other) else s for s in pending[1:]]
    return state


def _swap(state: ArneState, one: int, other: int) -> None:
    """Exchange the places of two unseen cards: hands (kept sorted), the draw pile, what
    seats know and the private events that name them (new Events: copies of the state
    share the old ones)."""
    swap = {one: other, other: one}

    def moved(card: int) -> int:
        return swap.get(card, card)

    state.hands = [
        sorted(map(moved, hand)) if one in hand or other in hand else hand for hand in state.hands
    ]
    state.deck = [moved(card) for card in state.deck]
    state.known = [
        [frozenset(map(moved, known)) if {one, other} & known else known for known in row]
        for row in state.known
    ]
    names, card_kind = state.game.kind_name, state.game.card_kind
    for index, (log_index, ids, decision) in enumerate(state._private):
        if one not in ids and other not in ids:
            continue
        new_ids = tuple(sorted(map(moved, ids)))
        old = state._log[log_index]
        data = {**old.data, "cards": [names[card_kind[c]] for c in new_ids]}
        state._log[log_index] = Event(old.kind, data, old.to)
        state._private[index] = (log_index, new_ids, decision)
