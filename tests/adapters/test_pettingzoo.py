"""PettingZoo's own conformance tests (api_test, seed_test) on every game's AEC env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from gamenight.adapters.pettingzoo import env
from gamenight.engine import IllegalAction

GAMES = [
    ("drop-or-stop", {}),
    ("drop-or-stop", {"players": 4, "deck": "descending"}),
    ("arne", {}),
    ("arne", {"players": 3, "learning": True}),
    ("drop-it", {}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_api_test_and_seed_test_pass(name, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded encodings are reported as warnings
        api_test(env(name, render_mode="ansi", **options), num_cycles=1000)
        seed_test(lambda: env(name, **options), num_cycles=500)


def test_observation_is_the_seat_view_and_mask_its_legal_actions():
    e = env("arne", players=4)
    e.reset(seed=5)
    agent = e.agent_selection
    seat = int(agent.split("_")[1])
    obs, *_ = e.last()
    state = e.state
    assert np.array_equal(obs["observation"], e.game.encode(state.view(seat)))
    legal = {e.game.action_index(a) for a in state.actions(seat)}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    # Other hands do not show: a determinized twin gives the same observation.
    import random

    twin = state.determinize(seat, random.Random(1))
    assert np.array_equal(e.game.encode(twin.view(seat)), obs["observation"])


def test_reset_seed_plays_game_start_seed_and_illegal_action_is_refused():
    e = env("drop-or-stop", players=3)
    e.reset(seed=11)
    assert e.state.history == [] and e.game_seed == 11
    seat = e.state.actors[0]
    assert e.agent_selection == f"player_{seat}"
    mask = e.last()[0]["action_mask"]
    if not mask.all():
        with pytest.raises(IllegalAction):
            e.step(int(np.flatnonzero(mask == 0)[0]))


def test_drop_or_stop_gets_a_round_cap_and_rewards_are_payoffs():
    e = env("drop-or-stop")
    assert e.game.options.max_rounds == 100 and e.game.max_decisions is not None
    e.reset(seed=3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    payoff = e.state.outcome().payoff
    assert [total[f"player_{s}"] for s in range(3)] == pytest.approx(list(payoff))


def test_drop_it_renders_an_rgb_array():
    e = env("drop-it", render_mode="rgb_array")
    e.reset(seed=1)
    picture = e.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    assert picture.std() > 0
