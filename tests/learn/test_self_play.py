"""`gamenight train --self-play` (issue 47, item 3): a league of the learner's past
policies, reproducible from its seed, measured per generation, started as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gamenight import bots
from gamenight.engine import load, play

pytest.importorskip("sb3_contrib", reason="self-play trains with the [learn] extra")

from gamenight.learn.selfplay import SELF, LeagueEnv, self_play


def arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def tiny(tmp: Path, seed: int) -> tuple[list[object], dict[str, np.ndarray]]:
    out = tmp / f"s{seed}" / "learned-arne.npz"
    curve = self_play("arne", 3, 2, 64, seed=seed, judge_games=3, out=out)
    return [vars(p) for p in curve], arrays(out)


def test_a_run_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    curve, net = tiny(tmp_path, 5)
    again, net_again = tiny(tmp_path / "again", 5)
    _other, net_other = tiny(tmp_path, 6)
    assert curve == again
    layers = {f"p3/{k}{i}" for k in "wb" for i in range(3)}
    assert net.keys() == net_again.keys() == layers | {"p3/frame"}  # Arne learns in frames
    assert all(np.array_equal(net[k], net_again[k]) for k in net)
    assert not all(np.array_equal(net[k], net_other[k]) for k in net)


def test_each_generation_joins_the_league_and_is_measured(tmp_path: Path) -> None:
    out = tmp_path / "learned-arne.npz"
    curve = self_play("arne", 3, 3, 64, seed=1, judge_games=3, out=out)
    assert [p.generation for p in curve] == [1, 2, 3]
    assert [p.decisions for p in curve] == [64, 128, 192]
    assert all(0 <= p.win_share <= 1 and p.games == 3 for p in curve)
    league = tmp_path / "learned-arne-league"
    assert sorted(f.name for f in league.glob("gen*.npz")) == ["gen1.npz", "gen2.npz", "gen3.npz"]
    assert json.loads((league / "curve.json").read_text())[2]["decisions"] == 192
    assert (league / "curve.png").read_bytes()[:4] == b"\x89PNG"
    # the last generation is the policy written, and it plays
    assert all(np.array_equal(v, arrays(league / "gen3.npz")[k]) for k, v in arrays(out).items())
    table = load("arne", players=3)
    seats = [bots.make_seat(f"bot:learned?path={out}", table, 0)] + [
        bots.make_seat("bot:random", table, s) for s in (1, 2)
    ]
    assert play(table, seats, seed=3).over


def test_the_league_gives_half_the_seats_to_the_newest_snapshot() -> None:
    env = LeagueEnv("arne", 3, ["bot:random", "bot:greedy"], seed=0)
    assert {env.opponent() for _ in range(50)} == {"bot:random", "bot:greedy"}
    env.snapshots = ["old", "new"]
    drawn = [env.opponent() for _ in range(4000)]
    assert abs(drawn.count("new") / len(drawn) - SELF) < 0.03
    # the rest is uniform over the anchors and the older snapshots
    for other in ("bot:random", "bot:greedy", "old"):
        assert abs(drawn.count(other) / len(drawn) - (1 - SELF) / 3) < 0.03


def test_without_snapshots_every_seat_is_an_anchor(tmp_path: Path) -> None:
    """`--no-snapshots`: the league's snapshots are kept and judged, but never seated; the
    network trains against the anchors alone (a best response to them)."""
    from gamenight.cli import app

    seated: list[str] = []
    real = LeagueEnv.opponent

    def spy(self: LeagueEnv) -> str:
        seated.append(real(self))
        return seated[-1]

    out = tmp_path / "learned-drop-or-stop.npz"
    args = ["train", "drop-or-stop", "--self-play", "--generations", "2", "--steps", "64"]
    args += ["--judge-games", "2", "--opponents", "threshold", "--no-snapshots"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LeagueEnv, "opponent", spy)
        result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "learned-drop-or-stop-league" / "gen2.npz").is_file()
    assert len(seated) > 10 and set(seated) == {"bot:threshold"}


def test_the_command_trains_by_self_play(tmp_path: Path) -> None:
    from gamenight.cli import app

    out = tmp_path / "mine.npz"
    args = ["train", "arne", "--players", "3", "--self-play", "--generations", "2"]
    args += ["--steps", "64", "--judge-games", "2", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "generation 2: 128 decisions" in result.output
    assert f"bot:learned?path={out}" in result.output.replace("\n", "")
    assert arrays(out).keys() == {f"p3/{k}{i}" for k in "wb" for i in range(3)} | {"p3/frame"}


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--judge", "nobody"], "arne has no bot 'nobody'"),
        (["--opponents", "bot:nobody"], "arne has no bot 'nobody'"),
        (["--players", "1"], "players"),
        (["--hidden", "64,x"], "--hidden takes whole numbers"),
        (["--hidden", "0"], "--hidden takes whole numbers"),
        (["--generations", "0"], "--imitate"),
    ],
)
def test_a_bad_self_play_request_is_one_line(tmp_path: Path, extra: list[str], said: str) -> None:
    from gamenight.cli import app

    args = ["train", "arne", "--self-play", "--steps", "64", "--out", str(tmp_path / "x.npz")]
    result = CliRunner().invoke(app, args + extra)
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.npz").exists()


def test_arne_learns_in_seat_frames_and_the_policy_says_so(tmp_path: Path) -> None:
    """Arne's seats are alike: the demonstrations are each seat's frame (its "is me" flag on
    seat 0, its own display display 0), and the written policy is marked to be played so."""
    from gamenight.engine.features import layout
    from gamenight.games.arne.observation import observation_features
    from gamenight.learn.policy import framed
    from gamenight.learn.selfplay import demonstrations

    game = load("arne", players=4)
    at = layout(game, observation_features)[1]
    obs, masks, acts, _ = demonstrations("arne", 4, "bot:greedy", 400, seed=3)
    me = obs[:, at["seat0"].start + 1].astype(np.float32)
    assert me.min() == 1.0  # every decision, whichever seat made it, is seat 0's
    assert masks[np.arange(len(acts)), acts].all()  # the teacher's move is a legal one
    out = tmp_path / "learned-arne.npz"
    self_play("arne", 4, 1, 64, seed=1, judge_games=2, out=out)
    assert framed("arne", 4, out) and not framed("drop-or-stop", 2)


def test_imitation_learns_the_teachers_moves() -> None:
    """Behaviour cloning (--imitate): after teaching, the policy's greedy move agrees with
    the teacher's on decisions it never saw, far above the untaught network's agreement."""
    from sb3_contrib import MaskablePPO

    from gamenight.learn.selfplay import demonstrations, teach

    def agreement(model: MaskablePPO) -> float:
        obs, masks, acts, _ = demonstrations("drop-or-stop", 2, "bot:threshold", 600, seed=99)
        chosen = [
            model.predict(o.astype(np.float32), action_masks=m, deterministic=True)[0]
            for o, m in zip(obs, masks, strict=True)
        ]
        return float(np.mean(np.asarray(chosen) == acts))

    env = LeagueEnv("drop-or-stop", 2, ["bot:random"], seed=0)
    model = MaskablePPO("MlpPolicy", env, seed=0, device="cpu")
    before = agreement(model)
    accuracy = teach(model, "drop-or-stop", 2, "bot:threshold", 3000, seed=1)
    after = agreement(model)
    assert accuracy > 0.8 and after > 0.8 and after > before + 0.2, (before, accuracy, after)


def test_dagger_records_the_states_the_learner_reaches_with_the_teachers_moves() -> None:
    """DAgger (teach's rounds): with a learner, the learner plays and the teacher only labels.
    A learner that always stops reaches other states than the teacher's own games, and the
    labels stay the teacher's: `threshold` draws on a low total, which the learner never does."""
    from gamenight.learn.selfplay import demonstrations

    game = load("drop-or-stop", players=2)
    stop = game.action_index(next(a for a in game.start(0).actions(0) if a.kind == "stop"))
    bias = np.full(game.num_actions, -10.0, dtype=np.float32)
    bias[stop] = 10.0
    always_stop = [(np.zeros((game.num_actions, game.encoding_size), np.float32), bias)]
    own = demonstrations("drop-or-stop", 2, "bot:threshold", 300, seed=5)
    reached = demonstrations("drop-or-stop", 2, "bot:threshold", 300, seed=5, learner=always_stop)
    assert not np.array_equal(own[0], reached[0])  # other states
    assert (reached[2] != stop).mean() > 0.3  # the teacher's moves: mostly not the learner's


def test_the_command_imitates_before_self_play(tmp_path: Path) -> None:
    from gamenight.cli import app

    out = tmp_path / "mine.npz"
    args = ["train", "drop-or-stop", "--self-play", "--generations", "1", "--steps", "64"]
    args += ["--judge-games", "2", "--imitate", "threshold", "--imitate-decisions", "200"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "imitation, round 0 of 0: agrees with bot:threshold on" in result.output
    bad = CliRunner().invoke(app, [*args[:-4], "--imitate", "nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "has no bot 'nobody'" in bad.output


def test_keep_best_writes_the_generation_the_judge_rated_highest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run can decline (a newcomer saw 90%, 55%, 40% and got the 40% one): with
    `--keep-best` the file holds the judge's best generation; other table sizes in the
    file are kept."""
    from gamenight.cli import app
    from gamenight.learn import selfplay

    rated = iter([0.2, 0.9, 0.4])  # generation 2 is the judge's best
    monkeypatch.setattr(selfplay, "judge", lambda *a: (next(rated), 0.1, 0.5))
    out = tmp_path / "learned-arne.npz"
    np.savez(out, **{"p5/w0": np.ones((2, 2), np.float32)})
    args = ["train", "arne", "--players", "3", "--self-play", "--generations", "3"]
    args += ["--steps", "64", "--judge-games", "2", "--keep-best", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "written: generation 2, the best against the judge" in result.output
    league = arrays(tmp_path / "learned-arne-league" / "gen2.npz")
    written = arrays(out)
    assert "p5/w0" in written
    assert all(np.array_equal(written[k], v) for k, v in league.items() if k.startswith("p3/"))
    last = arrays(tmp_path / "learned-arne-league" / "gen3.npz")
    assert not np.array_equal(written["p3/w0"], last["p3/w0"])
