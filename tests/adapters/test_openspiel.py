"""OpenSpiel's own checks on the registered games, and OpenSpiel's ISMCTS playing Arne."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import gamenight.adapters.openspiel as adapter

SIMS = [
    ("python_gamenight_drop_or_stop", {}, 5),
    ("python_gamenight_drop_or_stop", {"players": 2, "options": "deck=descending"}, 3),
    ("python_gamenight_arne", {"players": 3}, 1),
    ("python_gamenight_arne", {"players": 4, "options": "learning=true"}, 1),
    ("python_gamenight_drop_it", {}, 1),
]


def test_the_three_games_are_registered():
    names = {g.short_name for g in pyspiel.registered_games()}
    assert set(adapter.NAMES.values()) <= names
    game = pyspiel.load_game("python_gamenight_arne")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


@pytest.mark.parametrize(("short", "params", "sims"), SIMS)
def test_random_sim_test_passes(short, params, sims):
    game = pyspiel.load_game(short, {**params, "rng_seed": 1})
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_same_rng_seed_same_games_and_clone_is_lazy_safe():
    def play(seed: int) -> str:
        game = pyspiel.load_game("python_gamenight_drop_or_stop", {"rng_seed": seed})
        state = game.new_initial_state()
        twin = state.clone()  # the clone plays the same deal as the original
        rng = random.Random(0)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            twin.apply_action(action)
        assert str(twin) == str(state) and twin.returns() == state.returns()
        return str(state)

    assert play(3) == play(3)


def test_resample_keeps_the_information_state():
    game = pyspiel.load_game("python_gamenight_arne", {"players": 3, "rng_seed": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    other = adapter.seeded_resampler(5)(state, player)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_string(player) == state.observation_string(player)
    assert other.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_arne_through_the_adapter():
    game = pyspiel.load_game(
        "python_gamenight_arne", {"players": 3, "options": "learning=true", "rng_seed": 4}
    )
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    bot.set_resampler(adapter.seeded_resampler(0))
    state = game.new_initial_state()
    rng = random.Random(1)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            searched += len(state.legal_actions()) > 1
            action = bot.step(state)
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert searched > 0
    assert sum(state.returns()) == pytest.approx(1.5)
