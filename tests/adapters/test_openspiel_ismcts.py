"""OpenSpiel's own ISMCTS as the bot `openspiel-ismcts` (adapters/openspiel_ismcts.py): it
plays whole games with legal moves, reproducibly, sees only what its seat knows, and sits
in `gamenight tournament` like any bot (issue 17, item 5: bot strength from tournaments)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gamenight
from gamenight.bots import available, make
from gamenight.engine.core import BadInput, State


def _decision(seed: int, players: int = 2) -> State:
    """An Arne position with at least four legal actions for the seat to move."""
    game = gamenight.load("arne", players=players)
    state = game.start(seed)
    rng = random.Random(seed)
    while len(state.history) < 10 or len(state.actions(state.actors[0])) < 4:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    return state


def _root_stats(bot: Any) -> dict[int, tuple[float, float]]:
    root = bot.search._root_node
    return {a: (c.visits, round(float(c.return_sum), 9)) for a, c in root.child_info.items()}


def test_it_is_a_bot_of_every_game_and_plays_a_whole_game_reproducibly() -> None:
    game = gamenight.load("arne", players=2)
    assert "openspiel-ismcts" in available("arne") and "openspiel-ismcts" in available("drop-it")

    def play() -> list[Any]:
        bot = make("openspiel-ismcts", game, seed=11, iterations=15)
        other = make("greedy", game, seed=2)
        state = game.start(3)
        while state.actors:
            seat = state.actors[0]
            action = (bot if seat == 0 else other).choose(state, seat)
            assert action in state.actions(seat)
            state.act(seat, action)
        return list(state.history)

    first = play()
    assert first == play() and len(first) > 20


def test_its_search_sees_only_what_its_seat_knows() -> None:
    """The same seed on any state of one information set (the opponent's hand and the
    deck resampled) gives the same search, visit for visit; another seed does not."""
    state = _decision(7)
    game, seat = state.game, state.actors[0]
    bot = make("openspiel-ismcts", game, seed=5, iterations=80)
    bot.choose(state, seat)
    seen = _root_stats(bot)
    for k in range(3):
        world = state.determinize(seat, random.Random(100 + k))
        assert world.view(1 - seat) != state.view(1 - seat)  # the hidden cards differ
        again = make("openspiel-ismcts", game, seed=5, iterations=80)
        again.choose(world, seat)
        assert _root_stats(again) == seen
    other = make("openspiel-ismcts", game, seed=6, iterations=80)
    other.choose(state, seat)
    assert _root_stats(other) != seen


def test_a_time_budget_searches_until_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the search's own clock, stepped 1 ms per reading so that no load can make one
    simulation outlast the budget (CI at load 8.5 once did: 57 ms for the first)."""
    import types

    from gamenight.adapters import openspiel_ismcts

    readings = iter(range(10**6))
    clock = types.SimpleNamespace(perf_counter=lambda: next(readings) / 1000)
    monkeypatch.setattr(openspiel_ismcts, "time", clock)
    state = _decision(8)
    bot = make("openspiel-ismcts", state.game, seed=1, seconds=0.05)
    bot.choose(state, state.actors[0])
    assert bot.search.search_time >= 0.05 and bot.last_iterations > 1


def test_bad_settings_and_turns_are_refused_in_a_sentence() -> None:
    state = _decision(9)
    with pytest.raises(BadInput, match="iterations >= 1 or seconds > 0"):
        make("openspiel-ismcts", state.game, iterations=0)
    bot = make("openspiel-ismcts", state.game, iterations=5)
    with pytest.raises(BadInput, match="not the one to move"):
        bot.choose(state, 1 - state.actors[0])


def test_it_sits_in_a_tournament() -> None:
    from tests.terminal.helpers import gamenight as run_cli

    run = run_cli(
        "tournament", "arne", "--bots", "greedy,openspiel-ismcts?iterations=10", "--games", "2",
        "--workers", "1",
    )  # fmt: skip
    assert run.code == 0, run
    assert "openspiel" in run.out  # (the table may cut the name short)
