"""The one loop that plays a game to the end with a bot (or person) per seat."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from gamenight.engine.core import Action, Event, Game, State


class Bot(Protocol):
    """Anything that decides for a seat. It may use only what the seat may know:
    `state.view(seat)`, `state.events(seat)` and `state.determinize(seat, rng)`."""

    def choose(self, state: State, seat: int) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded RNG."""

    quick = True  # a move costs microseconds (see gamenight.bots.is_quick)

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(state.actions(seat))


class TooLong(RuntimeError):
    """A game ran past `max_decisions` (a rules bug or an unbounded game without a cap)."""


def play(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    *,
    on_events: Callable[[State, list[Event]], None] | None = None,
    limit: int | None = None,
) -> State:
    """Play from `seed` until the game is over, asking `actors[0]` each time."""
    if len(bots) != game.players:
        raise ValueError(f"{game.name} has {game.players} seats but {len(bots)} bots were given")
    state = game.start(seed)
    limit = limit if limit is not None else game.max_decisions
    while state.actors:
        seat = state.actors[0]
        events = state.act(seat, bots[seat].choose(state, seat))
        if on_events is not None:
            on_events(state, events)
        if limit is not None and len(state.history) > limit:
            raise TooLong(f"{game.name} ran past {limit} decisions")
    return state
