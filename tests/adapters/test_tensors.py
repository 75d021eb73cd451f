"""Tensors and information states as a contract (adapters/tensors.py): every game declares
its observation and information state tensors block by block, the READMEs' tables are
those declarations, the vector env sees the very observation tensor, and information
state strings stay short and canonical."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import gamenight
from gamenight.adapters.openspiel import canonical_information
from gamenight.adapters.tensors import (
    BUDGET,
    features,
    information_size,
    information_string,
    information_tensor,
    observation_module,
    readme_tables,
)
from gamenight.engine import load
from gamenight.engine.features import offsets

GAMES = Path(gamenight.__file__).parent / "games"
CONFIGS = [
    ("drop-or-stop", {"players": 2}),
    ("drop-or-stop", {"players": 4}),
    ("arne", {"players": 3}),
    ("arne", {"players": 4, "variant": "team", "team_open_hands": True}),
    ("arne", {"players": 3, "variant": "dummy"}),
    ("drop-it", {}),
]


def _states(game, games=3, steps=400, seed=0):
    rng = random.Random(seed)
    for number in range(games):
        state = game.start(number)
        for _ in range(steps):
            if state.over:
                break
            yield state
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
        yield state


@pytest.mark.parametrize("readme", ["drop_or_stop", "arne", "drop_it"])
def test_every_readme_table_is_the_codes(readme):
    text = (GAMES / readme / "README.md").read_text()
    tables = readme_tables(text)
    assert len(tables) == 2
    for found, made in tables:
        assert found == made, "rewrite with: python -m gamenight.adapters.tensors --readme FILE"


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=str)
def test_the_tables_size_both_tensors(name, options):
    game = load(name, **options)
    observed = features(game)
    informed = features(game, information=True)
    assert sum(f.size for f in observed) == game.encoding_size
    assert informed[: len(observed)] == observed  # the observation comes first
    assert sum(f.size for f in informed) == information_size(game)
    assert len({f.name for f in informed}) == len(informed)
    state = next(_states(game, games=1))
    assert information_tensor(state, 0).shape == (information_size(game),)
    assert np.array_equal(
        information_tensor(state, 0)[: game.encoding_size], game.encode(state.view(0))
    )


@pytest.mark.parametrize("players", [2, 3])
def test_every_drop_or_stop_block_is_written(players):
    """Each declared block of both tensors takes more than one value over random games: a
    block the code never fills, or fills elsewhere, would not (or would break another)."""
    game = load("drop-or-stop", players=players)
    module = observation_module(game)
    blocks = offsets(module.information_features(game))
    seen: dict[str, set[bytes]] = {name: set() for name in blocks}
    for state in _states(game, games=12):
        for seat in range(players):
            tensor = information_tensor(state, seat)
            for name, where in blocks.items():
                seen[name].add(tensor[where].tobytes())
    assert [name for name, values in seen.items() if len(values) < 2] == []


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=str)
def test_the_information_state_ignores_what_the_seat_may_not_see(name, options):
    game = load(name, **options)
    rng = random.Random(3)
    for count, state in enumerate(_states(game, games=2, steps=120)):
        if count % 9 or state.over:
            continue
        seat = state.actors[0]
        twin = state.determinize(seat, rng)
        assert information_string(twin, seat) == information_string(state, seat)
        assert np.array_equal(information_tensor(twin, seat), information_tensor(state, seat))


def test_information_strings_differ_with_what_the_seat_saw():
    """The short form is one-to-one with the full canonical information (the seat's
    events, cards of a deal sorted: their order tells nothing)."""
    game = load("drop-or-stop", players=3)
    strings = {}
    for state in _states(game, games=6):
        for seat in range(3):
            key = (seat, canonical_information(state, seat))
            text = information_string(state, seat)
            assert strings.setdefault(text, key) == key
    assert len(strings) > 200


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("drop-or-stop", {"players": 4}),
        ("arne", {"players": 12, "variant": "team"}),
        ("drop-it", {"players": 4}),
    ],
    ids=str,
)
def test_information_strings_fit_the_budget_in_the_largest_tables(name, options):
    game = load(name, **options)
    longest = 0
    for state in _states(game, games=1, steps=2000):
        longest = max(longest, len(information_string(state, 0)))
    assert longest <= BUDGET


def test_a_long_history_keeps_its_newest_events_readable():
    game = load("arne", players=4)
    state = list(_states(game, games=1, steps=300))[-1]
    text = information_string(state, 1)
    assert text.startswith("p1|#") and text.endswith(f"act:{int(1 in state.actors)}")
    assert len(text) <= BUDGET and text.count("|") > 5


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_gamenight_drop_or_stop", {"players": 3}),
        ("python_gamenight_arne", {"players": 3}),
        ("python_gamenight_drop_it", {}),
    ],
)
def test_openspiel_gives_the_information_state_tensor(name, params):
    game = pyspiel.load_game(name, {**params, "rng_seed": 2})
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(30):
        if state.is_terminal():
            break
        for player in range(game.num_players()):
            tensor = np.asarray(state.information_state_tensor(player))
            assert tensor.shape == tuple(game.information_state_tensor_shape())
            assert np.array_equal(tensor, information_tensor(state.inner, player))
            assert len(state.information_state_string(player)) <= BUDGET
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 4])
def test_the_vector_env_sees_the_observation_tensor(players):
    """`vector_env.observe` over arrays equals `game.encode(view)` of the engine's game
    replayed from each table's seed and history, at every step and after the end."""
    from gamenight.games.drop_or_stop import batched
    from gamenight.games.drop_or_stop.vector_env import DropOrStopVectorEnv, observe

    game = load("drop-or-stop", players=players)
    tables = batched.Tables(game, 6)
    seeds = list(range(40, 46))
    live = np.arange(6)
    tables.start(live, seeds)
    policies = [batched.RandomPolicy()] * players
    while live.size:
        for seat in range(players):
            rows = observe(tables, live, seat)
            for row, slot in zip(rows, live.tolist(), strict=True):
                state = game.replay(seeds[slot], tables.histories([slot])[0])
                assert np.allclose(row, game.encode(state.view(seat)), atol=1e-6)
        ended = tables.apply(live, tables.decide(live, policies))
        for slot in ended.tolist():
            state = game.replay(seeds[slot], tables.histories([slot])[0])
            row = observe(tables, np.array([slot]), 0)[0]
            assert np.allclose(row, game.encode(state.view(0)), atol=1e-6)
        live = live[tables.live[live]]
    env = DropOrStopVectorEnv(game, 4)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (4, game.encoding_size) and env.observation_space.contains(obs)
