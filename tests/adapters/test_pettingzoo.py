"""PettingZoo's own conformance tests (api_test, seed_test, render_test) on every game's AEC env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from gamenight.adapters.pettingzoo import env, raw_env
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
        render_test(lambda render_mode=None: env(name, render_mode=render_mode, **options))


def test_observation_is_the_seat_view_and_mask_its_legal_actions():
    e = env("arne", players=4)
    e.reset(seed=5)
    agent = e.agent_selection
    seat = int(agent.split("_")[1])
    obs, *_ = e.last()
    state = e.unwrapped.game_state
    assert np.array_equal(obs["observation"], e.game.encode(state.view(seat)))
    legal = {e.game.action_index(a) for a in state.actions(seat)}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    # Other hands do not show: a determinized twin gives the same observation.
    import random

    twin = state.determinize(seat, random.Random(1))
    assert np.array_equal(e.game.encode(twin.view(seat)), obs["observation"])


def test_reset_seed_plays_game_start_seed_and_illegal_action_is_refused():
    e = raw_env("drop-or-stop", players=3)
    e.reset(seed=11)
    assert e.game_state.history == [] and e.game_seed == 11
    seat = e.game_state.actors[0]
    assert e.agent_selection == f"player_{seat}"
    mask = e.last()[0]["action_mask"]
    if not mask.all():
        with pytest.raises(IllegalAction):
            e.step(int(np.flatnonzero(mask == 0)[0]))


def test_drop_or_stop_gets_a_round_cap_and_rewards_are_payoffs():
    e = env("drop-or-stop")
    assert e.unwrapped.game.options.max_rounds == 100 and e.game.max_decisions is not None
    e.reset(seed=3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    payoff = e.unwrapped.game_state.outcome().payoff
    assert [total[f"player_{s}"] for s in range(3)] == pytest.approx(list(payoff))


def test_drop_it_renders_an_rgb_array():
    e = env("drop-it", render_mode="rgb_array")
    e.reset(seed=1)
    picture = e.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    assert picture.std() > 0


def _play_out(e, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_state_is_every_seats_view_and_not_shadowed():
    e = env("drop-or-stop", players=2)
    e.reset(seed=4)
    inner = e.unwrapped
    glob = e.state()
    assert glob.shape == inner.state_space.shape
    views = [inner.game.encode(inner.game_state.view(s)) for s in range(2)]
    assert np.array_equal(glob, np.concatenate(views))


def test_an_illegal_action_ends_the_game_with_the_illegal_reward():
    """PettingZoo's convention (TerminateIllegalWrapper): the mover gets -1, the rest 0."""
    e = env("arne", players=3)
    e.reset(seed=2)
    obs, *_ = e.last()
    mover = e.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[mover] == -1.0
    assert sum(e.rewards.values()) == -1.0
    with pytest.raises(IllegalAction):  # the bare environment refuses it instead
        bare = raw_env("arne", players=3)
        bare.reset(seed=2)
        bare.step(illegal)


def test_zero_sum_reward_is_plus_minus_one_in_two_player_games():
    for seed in range(6):
        total = _play_out(env("drop-or-stop", players=2, reward="zero_sum"), seed)
        assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_class_metadata_lists_every_render_mode_and_an_instance_its_own():
    from gamenight.adapters.pettingzoo import GamenightAEC

    assert "human" in GamenightAEC.metadata["render_modes"]
    assert raw_env("arne").metadata["render_modes"] == ["human", "ansi"]
    assert "rgb_array" in raw_env("drop-it").metadata["render_modes"]


@pytest.mark.parametrize(
    ("name", "options"), [("arne", {"players": 3}), ("drop-or-stop", {"players": 2})]
)
def test_the_parallel_env_passes_pettingzoos_test_and_lets_windows_answer_at_once(name, options):
    """PettingZoo's parallel_api_test; in Arne's reaction windows (A15-A17) every seat of
    the window answers in the same step (the priority seat anything, the others a pass in
    advance or WAIT); elsewhere one seat at a time."""
    from pettingzoo.test import parallel_api_test

    from gamenight.adapters.pettingzoo import parallel_env

    parallel_api_test(parallel_env(name, **options), num_cycles=200)
    env = parallel_env(name, max_cycles=150, **options)
    observations, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    together = 0
    while env.agents:
        answering = [a for a, o in observations.items() if o["action_mask"][:-1].any()]
        together += len(answering) > 1
        window = env.game_state.window_seats()
        assert len(answering) == max(1, len(window))
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
        }
        observations, *_ = env.step(actions)
    assert env.cycles <= 150
    assert (together > 0) == (name == "arne")


def test_the_parallel_env_refuses_an_action_outside_the_mask():
    from gamenight.adapters.pettingzoo import parallel_env
    from gamenight.engine import IllegalAction

    env = parallel_env("drop-or-stop", players=2)
    observations, _ = env.reset(seed=1)
    waiting = next(a for a, o in observations.items() if not o["action_mask"][:-1].any())
    before = list(env.game_state.history)
    with pytest.raises(IllegalAction):
        env.step({waiting: 0})
    assert env.game_state.history == before
