"""The learned bot: numpy inference of the shipped policies, and export from training."""

from __future__ import annotations

import numpy as np
import pytest

from gamenight import bots
from gamenight.engine import BadInput, load, play
from gamenight.learn.policy import layers, logits, shipped_games


@pytest.mark.parametrize(("name", "players"), [("drop-or-stop", 2), ("arne", 2)])
def test_shipped_policy_plays_legal_games(name, players):
    assert name in shipped_games()
    game = load(name, players=players)
    learned = bots.make_seat("bot:learned", game, 0)
    state = play(game, [learned, bots.make_seat("bot:random", game, 1)], seed=4)
    assert state.over


def test_a_missing_policy_is_a_clear_error():
    with pytest.raises(BadInput, match="no learned policy for 3 players; shipped: 2"):
        layers("arne", 3)
    assert "drop-it" not in shipped_games()
    with pytest.raises(BadInput, match="has no bot 'learned'"):
        bots.make_seat("bot:learned", load("drop-it"), 0)


def test_numpy_inference_matches_the_trained_network(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch

    from gamenight.learn import train as training

    env = training.make_env("drop-or-stop", 2, ["bot:random"], seed=0)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    path = tmp_path / "learned.npz"
    training.export(model, 2, path)
    with np.load(path) as data:
        net = [(data[f"p2/w{i}"], data[f"p2/b{i}"]) for i in range(3)]
    obs, _ = env.reset(seed=1)
    with torch.no_grad():
        features = model.policy.mlp_extractor.policy_net(torch.as_tensor(obs[None]))
        theirs = model.policy.action_net(features).numpy()[0]
    assert np.allclose(logits(net, obs.astype(np.float64)), theirs, atol=1e-4)


def _shipped_players(name):
    from gamenight.learn.policy import _load, policy_path

    return sorted({int(key.split("/")[0][1:]) for key in _load(str(policy_path(name)))})


@pytest.mark.parametrize("name", ["drop-or-stop", "arne"])
def test_the_learned_bot_is_medium_where_a_policy_is_shipped(name):
    """Medium is `bot:learned` at every table size with a shipped policy, and the level a
    seat asks for at that size plays it; other sizes keep their heuristic."""
    shipped = _shipped_players(name)
    module = __import__(f"gamenight.games.{name.replace('-', '_')}.bots", fromlist=["x"])
    assert list(module.LEARNED_PLAYERS) == shipped
    heuristic = f"bot:{module.HEURISTIC}"
    for players in range(2, 5):
        medium = bots.levels(name, players)["medium"]
        assert medium == ("bot:learned" if players in shipped else heuristic)
    game = load(name, players=shipped[0])
    seat = bots.make_seat("medium", game, 0)
    assert type(seat).__name__ == "LearnedBot"
