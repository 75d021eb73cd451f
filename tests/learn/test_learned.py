"""The learned bot: numpy inference of the shipped policies, and export from training."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from gamenight import bots
from gamenight.engine import BadInput, load, play
from gamenight.learn.policy import Forward, layers, logits, shipped_games


@pytest.mark.parametrize(
    ("name", "players"),
    [("drop-or-stop", 2), ("arne", 2), ("arne", 3), ("arne", 4), ("arne", 5), ("arne", 6),
     ("drop-it", 2)],
)  # fmt: skip
def test_shipped_policy_plays_legal_games(name, players):
    assert name in shipped_games()
    game = load(name, players=players)
    learned = bots.make_seat("bot:learned", game, 0)
    others = [bots.make_seat("bot:random", game, s) for s in range(1, players)]
    state = play(game, [learned, *others], seed=4)
    assert state.over


def test_a_missing_policy_is_a_clear_error():
    with pytest.raises(BadInput, match="no learned policy for 3 players; shipped: 2 players"):
        layers("drop-it", 3)
    with pytest.raises(BadInput, match="no learned policy for 7 players; shipped: 2, 3, 4, 5, 6"):
        layers("arne", 7)


def test_every_game_seats_a_trained_file(tmp_path, monkeypatch):
    """`gamenight train GAME` says "play it with bot:learned?path=FILE": that must work for
    a game that ships no policy of its own (drop-it's self-play failed: "has no bot
    'learned'"), and without a file such a game says so in one line."""
    from gamenight.learn import policy

    game = load("drop-it", players=2)
    net = _stop_net(game, logits=np.zeros(game.num_actions))
    path = tmp_path / "mine.npz"
    np.savez(path, **net)
    seat = bots.make_seat(f"bot:learned?path={path}", game, 0)
    assert play(game, [seat, bots.make_seat("bot:random", game, 1)], seed=2).over
    monkeypatch.setattr(policy, "policy_path", lambda name: tmp_path / "none.npz")
    with pytest.raises(BadInput, match=r"drop-it ships no learned policy; train one"):
        bots.make_seat("bot:learned", game, 0)


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


@pytest.mark.parametrize("name", ["drop-or-stop", "arne", "drop-it"])
def test_the_bots_one_decision_pass_is_the_whole_network(name):
    """`Forward` (only the set features in, only the legal logits out) gives the full
    network's scores, on real views of random games at every shipped size."""
    rng = np.random.default_rng(0)
    for players in _shipped_players(name):
        game = load(name, players=players)
        net = layers(name, players)
        forward = Forward(net)
        state, checked = game.start(players), 0
        while not state.over and checked < 12:
            seat = state.actors[0]
            legal = state.actions(seat)
            index = [game.action_index(a) for a in legal]
            x = game.encode(state.view(seat))[: net[0][0].shape[1]].astype(np.float32)
            assert np.allclose(forward(x, index), logits(net, x)[index], atol=1e-4)
            checked += 1
            state.act(seat, legal[int(rng.integers(len(legal)))])


def _shipped_players(name):
    from gamenight.learn.policy import _load, policy_path

    return sorted({int(key.split("/")[0][1:]) for key in _load(str(policy_path(name)))})


@pytest.mark.parametrize(
    ("name", "every"), [("drop-or-stop", [2, 3, 4]), ("arne", [2, 3, 4, 5, 6])]
)
def test_the_learned_bot_is_medium_where_it_is_strong_enough(name, every):
    """A policy ships for every size in `every` (self-play made Arne's 3-6); medium is
    `bot:learned` only at the sizes the game names (LEARNED_PLAYERS: where it was measured
    at least as strong as the heuristic), and the level a seat asks for at that size plays
    it; other sizes keep their heuristic."""
    assert _shipped_players(name) == every
    module = __import__(f"gamenight.games.{name.replace('-', '_')}.bots", fromlist=["x"])
    shipped = list(module.LEARNED_PLAYERS)
    assert set(shipped) <= set(every)
    heuristic = f"bot:{module.HEURISTIC}"
    for players in range(2, 5):
        medium = bots.levels(name, players)["medium"]
        assert medium == ("bot:learned" if players in shipped else heuristic)
    game = load(name, players=shipped[0])
    seat = bots.make_seat("medium", game, 0)
    assert type(seat).__name__ == "LearnedBot"


# -- a trained file instead of the shipped one (gamenight train --out, bot:learned?path=) --


def _stop_net(game, players=2, logits=(-5.0, 5.0), hidden=4):
    """A network for `game` whose logits are `logits` whatever it sees."""
    return {
        f"p{players}/w0": np.zeros((hidden, game.encoding_size), np.float32),
        f"p{players}/b0": np.zeros(hidden, np.float32),
        f"p{players}/w1": np.zeros((game.num_actions, hidden), np.float32),
        f"p{players}/b1": np.asarray(logits, np.float32),
    }


def test_train_writes_to_the_current_directory_by_default(tmp_path, monkeypatch):
    """`gamenight train` without --out leaves the shipped policy (the medium level) alone."""
    from typer.testing import CliRunner

    from gamenight.cli import app
    from gamenight.learn import train as training
    from gamenight.learn.policy import policy_path

    written = []

    def fake_train(game, players, opponents, steps, seed=0, out=None, on_progress=None):
        written.append(out)
        return out

    monkeypatch.setattr(training, "train", fake_train)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["train", "drop-or-stop", "--opponents", "random"])
    assert result.exit_code == 0, result.output
    assert written == [Path("learned-drop-or-stop.npz")]
    assert training.default_out("arne") == Path("learned-arne.npz")
    assert policy_path("drop-or-stop").resolve() != (tmp_path / written[0]).resolve()
    assert "bot:learned?path=learned-drop-or-stop.npz" in result.output


def test_train_names_the_file_it_writes_and_refuses_a_missing_folder(tmp_path, monkeypatch):
    """numpy adds ".npz" to `--out x.txt`: the file said and the seat printed are that one
    (they named x.txt, which the seat then could not read); a folder that is not there is
    one line, as every other command's output, not made from the root."""
    from typer.testing import CliRunner

    from gamenight.cli import app
    from gamenight.learn import train as training

    written = []

    def fake_train(game, players, opponents, steps, seed=0, out=None, on_progress=None):
        written.append(out)
        return out

    monkeypatch.setattr(training, "train", fake_train)
    out = tmp_path / "x.txt"
    result = CliRunner().invoke(app, ["train", "drop-or-stop", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert written == [tmp_path / "x.txt.npz"]
    assert f"bot:learned?path={tmp_path / 'x.txt.npz'}'" in result.output.replace("\n", "")
    missing = tmp_path / "no" / "such" / "p.npz"
    result = CliRunner().invoke(app, ["train", "drop-or-stop", "--out", str(missing)])
    assert result.exit_code == 2
    assert "the folder" in result.output and "does not exist" in result.output
    assert not (tmp_path / "no").exists() and len(written) == 1


def test_the_learned_bot_plays_a_given_file(tmp_path):
    game = load("drop-or-stop", players=2)
    path = tmp_path / "mine.npz"
    np.savez(path, **_stop_net(game))
    bot = bots.make_seat(f"bot:learned?path={path}", game, 0)
    state = game.start(3)
    seat = state.actors[0]
    assert bot.choose(state, seat) == game.action_at(1)  # always stop
    # retrained (another size, so the rewrite shows even within one clock tick): read again
    np.savez(path, **_stop_net(game, logits=(5.0, -5.0), hidden=5))
    bot = bots.make_seat(f"bot:learned?path={path}", game, 0)
    assert bot.choose(state, seat) == game.action_at(0)
    assert play(game, [bot, bots.make_seat("bot:random", game, 1)], seed=4).over


def _error(text, game):
    with pytest.raises(BadInput) as err:
        bots.make_seat(text, game, 0)
    message = str(err.value)
    assert "\n" not in message
    return message


def test_a_missing_or_bad_policy_file_is_a_one_line_error(tmp_path):
    game = load("drop-or-stop", players=2)
    assert "not found" in _error(f"bot:learned?path={tmp_path / 'none.npz'}", game)
    (tmp_path / "policy.txt").write_text("x")
    assert "expected a .npz" in _error(f"bot:learned?path={tmp_path / 'policy.txt'}", game)
    (tmp_path / "text.npz").write_text("not an archive")
    assert "not a readable .npz" in _error(f"bot:learned?path={tmp_path / 'text.npz'}", game)
    np.savez(tmp_path / "three.npz", **_stop_net(load("drop-or-stop", players=3), players=3))
    message = _error(f"bot:learned?path={tmp_path / 'three.npz'}", game)
    assert "no learned policy for 2 players; it has: 3 players" in message
    broken = _stop_net(game)
    broken["p2/w1"] = np.zeros((2, 5), np.float32)
    np.savez(tmp_path / "shapes.npz", **broken)
    assert "layer 1 reads 5 values" in _error(f"bot:learned?path={tmp_path / 'shapes.npz'}", game)
    wide = _stop_net(game)
    wide["p2/w1"] = np.zeros((3, 4), np.float32)
    wide["p2/b1"] = np.zeros(3, np.float32)
    np.savez(tmp_path / "actions.npz", **wide)
    assert "3 action logits" in _error(f"bot:learned?path={tmp_path / 'actions.npz'}", game)


@pytest.mark.parametrize("sizes", [[10, 5], [10, 7, 5], [10, 8, 7, 5]])
def test_the_one_decision_pass_takes_networks_of_any_depth(sizes):
    """One layer (a linear policy, as the DAgger test's learner), two, three (CI found the
    one-layer case unpacked wrongly)."""
    rng = np.random.default_rng(1)
    net = [
        (rng.standard_normal((o, i)).astype(np.float32), rng.standard_normal(o).astype(np.float32))
        for i, o in itertools.pairwise(sizes)
    ]
    x = (rng.random(10) < 0.5).astype(np.float32)
    assert np.allclose(Forward(net)(x, [0, 2, 4]), logits(net, x)[[0, 2, 4]], atol=1e-5)
