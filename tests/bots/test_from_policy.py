"""Bring your own policy (issue 47, item 4): `bots.from_policy` seats a function, an SB3
model or a saved model; registration reaches worker processes; every mistake is one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight import bots
from gamenight.engine import BadInput, load, play
from gamenight.sim.tournament import play_tournament

ROOT = Path(__file__).resolve().parents[2]


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize(("name", "players"), [("drop-or-stop", 2), ("arne", 4)])
def test_a_function_plays_whole_games(name: str, players: int) -> None:
    game = load(name, players=players)
    seen: list[tuple[int, int]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation.shape[0], mask.shape[0]))
        return first_legal(observation, mask)

    mine = bots.from_policy(policy)(game, 0)
    others = [bots.make_seat("bot:random", game, s) for s in range(1, players)]
    assert play(game, [mine, *others], seed=2).over
    assert seen and set(seen) == {(game.encoding_size, game.num_actions)}


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=5), st.none()))
def test_whatever_a_policy_answers_is_a_legal_move_or_one_line(answer: Any) -> None:
    game = load("drop-or-stop", players=2)
    state = game.start(3)
    seat = state.actors[0]
    bot = bots.from_policy(lambda observation, mask: answer)(game, 0)
    try:
        action = bot.choose(state, seat)
    except BadInput as err:
        assert "\n" not in str(err) and str(err).startswith("policy ")
    else:
        assert action in state.actions(seat)


def test_mistakes_are_one_line(tmp_path: Path) -> None:
    game = load("drop-or-stop", players=2)
    state = game.start(3)
    with pytest.raises(BadInput, match=r"policy boom failed: ZeroDivisionError"):

        def boom(observation: np.ndarray, mask: np.ndarray) -> int:
            return 1 // 0

        bots.from_policy(boom)(game, 0).choose(state, state.actors[0])
    with pytest.raises(BadInput, match=r"chose action 999, which is not legal here"):
        bots.from_policy(lambda o, m: 999)(game, 0).choose(state, state.actors[0])
    with pytest.raises(BadInput, match="from_policy takes a function"):
        bots.from_policy(42)
    with pytest.raises(BadInput, match=r"no saved model at .*nothing\.zip"):
        bots.from_policy(tmp_path / "nothing")


def test_play_tournament_takes_its_players_without_options() -> None:
    """The issue saw `play_tournament(game, {}, bots, players=2)` fail (the game's
    default size, 3 seats, for 2 bots)."""
    tour = play_tournament("drop-or-stop", {}, ["bot:random", "bot:threshold"], 2, 4)
    assert tour.players == 2 and len(tour.matches) == 4
    with pytest.raises(BadInput, match="the options say 3 players, the tournament 2"):
        play_tournament("drop-or-stop", {"players": 3}, ["bot:random", "bot:threshold"], 2, 4)


def test_the_readme_example_runs_as_written_with_worker_processes(tmp_path: Path) -> None:
    """README.md's "Bring your own bot", saved as mine.py and run: its policy is seated in
    the tournament's worker processes (registered in the parent only)."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Bring your own bot") :]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    assert len(block.strip().splitlines()) <= 12
    (tmp_path / "mine.py").write_text(block)
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "mine.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    share, low, high, games = eval(done.stdout.strip())  # a tuple of numbers, as printed
    assert games == 40 and 0 <= low <= share <= high <= 1


def test_a_trained_model_and_its_saved_file_play(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="SB3 models need the [learn] extra")
    from sb3_contrib import MaskablePPO

    from gamenight.learn.train import make_env

    model = MaskablePPO("MlpPolicy", make_env("drop-or-stop", 2, ["bot:random"], 0), n_steps=64,
                        batch_size=32, seed=0, device="cpu")  # fmt: skip
    model.learn(total_timesteps=64)
    model.save(tmp_path / "mine")
    game = load("drop-or-stop", players=2)
    for policy in (model, str(tmp_path / "mine"), str(tmp_path / "mine.zip")):
        seats = [bots.from_policy(policy)(game, 0), bots.make_seat("bot:threshold", game, 1)]
        assert play(game, seats, seed=5).over
    # a saved model reaches worker processes by its path
    script = (
        "from gamenight import bots\n"
        "from gamenight.sim.tournament import play_tournament\n"
        "if __name__ == '__main__':\n"
        f"    bots.register('saved', bots.from_policy({str(tmp_path / 'mine')!r}))\n"
        "    seats = ['bot:saved', 'bot:random']\n"
        "    t = play_tournament('drop-or-stop', {}, seats, 2, 8, workers=2)\n"
        "    print(len(t.matches))\n"
    )
    (tmp_path / "saved.py").write_text(script)
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "saved.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "8"


def test_a_model_trained_on_the_gymnasium_adapter_plays(tmp_path: Path) -> None:
    """The README's adapter (`adapters.gymnasium.make`) gives a dict observation; a model
    trained on it is asked with that dict (it failed with an IndexError before)."""
    pytest.importorskip("sb3_contrib", reason="SB3 models need the [learn] extra")
    from sb3_contrib import MaskablePPO

    from gamenight.adapters.gymnasium import make

    env = make("drop-or-stop", opponents=["bot:threshold"])
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    model.save(tmp_path / "adapter")
    game = load("drop-or-stop", players=2)
    for policy in (model, str(tmp_path / "adapter.zip")):
        seats = [bots.from_policy(policy)(game, 0), bots.make_seat("bot:threshold", game, 1)]
        assert play(game, seats, seed=5).over


SEEN_ME: list[float] = []  # what `framed_last` read as seat 0's "is me" flag


def framed_last(observation: np.ndarray, mask: np.ndarray) -> int:
    """A top-level policy (a worker can find it): the last legal index; notes its flag."""
    from gamenight.engine.features import layout
    from gamenight.games.arne.observation import observation_features

    game = load("arne", players=4)
    SEEN_ME.append(float(observation[layout(game, observation_features)[1]["seat0"].start + 1]))
    return int(np.flatnonzero(mask)[-1])


def test_a_policy_that_learned_in_seat_frames_is_shown_its_frame_from_every_seat() -> None:
    """`from_policy(fn, seat_frame=True)`: a policy trained with GamenightEnv(seat_frame=True)
    sees, from every seat, itself as seat 0 (its "is me" flag) and the mask of the frame's
    actions; its answer is played as the table's action; a worker process gets the flag too."""
    from gamenight.bots.policy import policy_from_spawn

    game = load("arne", players=4)
    SEEN_ME.clear()
    factory = bots.from_policy(framed_last, seat_frame=True)
    state = play(game, [factory(game, s) for s in range(4)], seed=5)
    assert state.over and SEEN_ME and set(SEEN_ME) == {1.0}  # every seat saw itself first
    assert factory.spawn is not None
    again = policy_from_spawn(factory.spawn)
    assert again.seat_frame and again.policy is framed_last
    assert not policy_from_spawn(bots.from_policy(framed_last).spawn or "").seat_frame
    with pytest.raises(BadInput, match="reads seat frames; drop-or-stop has none"):
        factory(load("drop-or-stop", players=2), 0)
