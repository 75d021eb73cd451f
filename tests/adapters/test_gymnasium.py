"""Gymnasium's env checker on every game against named bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from gamenight.adapters.gymnasium import make
from gamenight.engine import BadInput

CASES = [
    ("drop-or-stop", ["bot:threshold", "bot:random"], {}),
    ("arne", ["bot:random"], {"players": 3}),
    ("drop-it", ["bot:random"], {}),
]


@pytest.mark.parametrize(("name", "opponents", "options"), CASES)
def test_check_env_passes(name, opponents, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded encodings are reported as warnings
        check_env(make(name, opponents=opponents, render_mode="ansi", **options))


def test_episode_against_bots_ends_with_the_learners_payoff():
    env = make("drop-or-stop", opponents=["bot:threshold", "bot:random"], seat=1)
    assert env.game.players == 3
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    done = False
    reward = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    assert reward == env.game_state.outcome().payoff[1]


def test_illegal_action_is_penalised_and_changes_nothing():
    env = make("arne", opponents=["bot:random"], players=3)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(env.game_state.history)
    obs2, reward, terminated, _truncated, info = env.step(illegal)
    assert info["illegal"] and reward == -1.0 and not terminated
    assert len(env.game_state.history) == before
    assert np.array_equal(obs2["observation"], obs["observation"])


def test_bad_opponents_are_refused():
    with pytest.raises(BadInput):
        make("drop-or-stop", opponents=["bot:nobody", "bot"])
    with pytest.raises(BadInput):
        make("drop-or-stop", opponents=["bot", "bot", "bot"], players=3)


def test_registered_with_gymnasium_and_seed_stays_out_of_the_observation():
    import gymnasium

    env = gymnasium.make("gamenight/drop-or-stop-v0", opponents=["bot:random"], players=2)
    obs, info = env.reset(seed=9)
    assert info == {} and set(obs) == {"observation", "action_mask"}
    again = make("drop-or-stop", opponents=["bot:random"], players=2)
    obs2, _ = again.reset(seed=9)
    assert np.array_equal(obs["observation"], obs2["observation"])
    assert env.unwrapped.game_seed == again.game_seed


def test_one_opponent_means_a_two_player_game():
    assert make("drop-or-stop", opponents=["bot:threshold"]).game.players == 2
    assert make("arne", opponents=["bot:random"] * 3).game.players == 4
    with pytest.raises(BadInput):
        make("drop-or-stop", opponents="bot:threshold")
    # With players given, one text still stands for every other seat.
    assert make("drop-or-stop", opponents=["bot"], players=4).opponent_texts == ["bot"] * 3


def test_gymnasium_make_with_rgb_array_does_not_warn_and_human_prints(capsys):
    import gymnasium

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(
            "gamenight/drop-or-stop-v0", opponents=["bot:random"], render_mode="human"
        )
    assert env.unwrapped.game.players == 2
    env.reset(seed=1)
    assert env.render() is None
    assert "round" in capsys.readouterr().out.lower()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gymnasium.make("gamenight/drop-it-v0", opponents=["bot:random"], render_mode="rgb_array")


def test_zero_sum_reward():
    env = make("drop-or-stop", opponents=["bot:threshold"], reward="zero_sum")
    rewards = set()
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        rewards.add(reward)
    assert rewards <= {-1.0, 0.0, 1.0} and -1.0 in rewards
