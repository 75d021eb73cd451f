"""`check(game)`: the shared conformance checker every game's tests call.

It plays random games and asserts the contract of engine/README.md at every decision:
legal actions accepted, others refused with a reason and no change, JSON and index round
trips, views that are JSON, encodings of the right size, copies that are independent,
determinizations that keep what the seat knows and depend only on it (so nothing hidden
leaks into a seat's view or events), outcomes in range, and exact replay.
"""

from __future__ import annotations

import json
import random
from typing import Any

from gamenight.engine.core import Game, IllegalAction, State


class ContractError(AssertionError):
    """A game broke the engine contract; the message says where."""


def _fail(game: Game, seed: int, state: State, what: str) -> ContractError:
    return ContractError(f"{game.name} seed={seed} after {len(state.history)} decisions: {what}")


def _seats(game: Game) -> list[int | None]:
    return [*range(game.players), None]


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable about a state, for 'nothing changed' and 'same state' checks."""
    game = state.game
    return (
        state.actors,
        len(state.history),
        tuple(json.dumps(state.view(s), sort_keys=True) for s in _seats(game)),
        tuple(tuple(e.to_json().items()).__repr__() for e in state.log),
    )


def check(
    game: Game,
    *,
    games: int = 8,
    seed: int = 0,
    probe_every: int = 1,
    accept_samples: int = 4,
    max_steps: int = 3000,
) -> int:
    """Play `games` random games of `game` and assert the contract; returns decisions checked."""
    checked = 0
    for g in range(games):
        game_seed = seed * 1000 + g
        rng = random.Random(game_seed)
        state = game.start(game_seed)
        if state.game is not game:
            raise _fail(game, game_seed, state, "state.game is not the game that started it")
        step = 0
        while not state.over and step < max_steps:
            if step % probe_every == 0:
                _check_decision(game, game_seed, state, rng, accept_samples)
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
            step += 1
            checked += 1
        limit = game.max_decisions
        if limit is not None and len(state.history) > limit:
            raise _fail(game, game_seed, state, f"history longer than max_decisions={limit}")
        if state.over:
            _check_outcome(game, game_seed, state)
        _check_views(game, game_seed, state)
        replayed = game.replay(game_seed, state.history)
        if snapshot(replayed) != snapshot(state):
            raise _fail(game, game_seed, state, "replay(seed, history) differs from the game")
        if state.over and replayed.outcome() != state.outcome():
            raise _fail(game, game_seed, state, "replayed outcome differs")
    return checked


def _check_views(game: Game, seed: int, state: State) -> None:
    for s in _seats(game):
        view = state.view(s)
        try:
            json.dumps(view)
        except TypeError as err:
            raise _fail(game, seed, state, f"view({s}) is not JSON: {err}") from err
        for e in state.events(s):
            if not e.visible_to(s):
                raise _fail(game, seed, state, f"events({s}) holds {e.kind} meant for {e.to}")
            json.dumps(e.to_json())
        vector = game.encode(view)
        if vector.shape != (game.encoding_size,):
            raise _fail(game, seed, state, f"encode(view({s})) has shape {vector.shape}")


def _check_decision(game: Game, seed: int, state: State, rng: random.Random, samples: int) -> None:
    seat = state.actors[0]
    legal = state.actions(seat)
    if not legal:
        raise _fail(game, seed, state, f"seat {seat} is an actor with no legal action")
    if len(set(legal)) != len(legal):
        raise _fail(game, seed, state, "actions() lists an action twice")
    for action in legal:
        if game.action_from_json(json.loads(json.dumps(action.to_json()))) != action:
            raise _fail(game, seed, state, f"{action} does not survive its JSON form")
        index = game.action_index(action)
        if not 0 <= index < game.num_actions or game.action_at(index) != action:
            raise _fail(game, seed, state, f"{action} does not survive its index {index}")
    _check_views(game, seed, state)
    before = snapshot(state)

    # Every legal action is accepted (on copies, which must leave the original alone).
    for action in rng.sample(legal, min(samples, len(legal))):
        trial = state.copy()
        trial.act(seat, action)
        if snapshot(state) != before:
            raise _fail(game, seed, state, f"acting on a copy changed the original ({action})")

    # An illegal action and a seat out of turn are refused, and nothing changes.
    legal_set = set(legal)
    for index in rng.sample(range(game.num_actions), min(16, game.num_actions)):
        action = game.action_at(index)
        if action in legal_set:
            continue
        try:
            state.act(seat, action)
        except IllegalAction as err:
            if not err.reason:
                raise _fail(game, seed, state, "IllegalAction without a reason") from err
        else:
            raise _fail(game, seed, state, f"illegal {action} was accepted")
        if snapshot(state) != before:
            raise _fail(game, seed, state, f"refusing {action} changed the state")
        break
    for other in range(game.players):
        if other in state.actors:
            continue
        try:
            state.act(other, legal[0])
        except IllegalAction:
            pass
        else:
            raise _fail(game, seed, state, f"seat {other} acted out of turn")
        if snapshot(state) != before:
            raise _fail(game, seed, state, "refusing an out-of-turn action changed the state")
        break

    # Determinize keeps what the seat knows, depends only on it, and is seeded.
    for s in range(game.players):
        draw = rng.randrange(1 << 30)
        d = state.determinize(s, random.Random(draw))
        if d.view(s) != state.view(s):
            raise _fail(game, seed, state, f"determinize({s}) changed view({s})")
        if d.events(s) != state.events(s):
            raise _fail(game, seed, state, f"determinize({s}) changed events({s}): a leak")
        if d.info_key(s) != state.info_key(s):
            raise _fail(game, seed, state, f"determinize({s}) changed info_key({s})")
        if d.actors != state.actors or d.actions(s) != state.actions(s):
            raise _fail(game, seed, state, f"determinize({s}) changed actors or actions")
        if d.view(None) != state.view(None):
            raise _fail(game, seed, state, f"determinize({s}) changed the public view")
        again = state.determinize(s, random.Random(draw))
        if snapshot(again) != snapshot(d):
            raise _fail(game, seed, state, f"determinize({s}) is not a function of its rng")
        # A state `s` cannot tell apart must determinize the same way (sorted, not true order).
        twin = d.determinize(s, random.Random(draw + 1))
        direct = state.determinize(s, random.Random(draw + 1))
        if snapshot(twin) != snapshot(direct):
            raise _fail(game, seed, state, f"determinize({s}) depends on hidden facts")
        if snapshot(state) != before:
            raise _fail(game, seed, state, "determinize changed the original")


def _check_outcome(game: Game, seed: int, state: State) -> None:
    out = state.outcome()
    n = game.players
    if not (len(out.scores) == len(out.payoff) == len(out.ranks) == n):
        raise _fail(game, seed, state, "outcome lengths differ from the number of seats")
    if any(not 0.0 <= p <= 1.0 for p in out.payoff):
        raise _fail(game, seed, state, f"payoff out of [0, 1]: {out.payoff}")
    if any(w not in range(n) for w in out.winners):
        raise _fail(game, seed, state, f"winners {out.winners} are not seats")
    if state.actions(0) and state.over:
        raise _fail(game, seed, state, "a finished game still offers actions")
