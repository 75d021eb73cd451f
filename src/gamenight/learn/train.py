"""`gamenight train GAME`: MaskablePPO (sb3-contrib) against chosen bots, exported as numpy.

Needs the `[learn]` extra (sb3-contrib, CPU torch). The learner sits in a random seat each
episode (the Gymnasium adapter with `opponents`), sees only its seat's encoded view,
and is masked to legal actions. The policy network (two tanh layers) is written under
`p{players}/` into `out`, by default `learned-<game>.npz` in the current directory (other
table sizes already in that file are kept). The `learned` bot plays it with numpy:
`bot:learned?path=learned-<game>.npz`. The shipped policy (the `medium` level) changes only
when `out` names the game's `learned.npz` in its package on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from gamenight.engine.core import BadInput

HIDDEN = (64, 64)


def default_out(game: str) -> Path:
    """Where a training run writes when not told: `learned-<game>.npz` in the current
    directory, never the installed package's shipped policy."""
    return Path(f"learned-{game}.npz")


def _require() -> tuple[Any, Any, Any]:
    try:
        import gymnasium as gym
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError as err:
        raise BadInput(
            "training needs the learn extra: pip install 'gamenight[learn]' "
            "(sb3-contrib and CPU torch)"
        ) from err
    return gym, torch, MaskablePPO


class LearnerSeat(gymnasium.Env[Any, Any]):
    """The learner's side of a GamenightEnv (`self.env`, chosen anew by `reset` in each
    subclass): the observation is the encoded view alone, the mask is asked for apart
    (MaskablePPO's `action_masks`)."""

    env: Any

    def use_spaces(self, env: Any) -> None:
        spaces = env.observation_space
        assert isinstance(spaces, gymnasium.spaces.Dict)
        self.observation_space = spaces["observation"]
        self.action_space = env.action_space
        self.env = env

    def begin(self, seed: int) -> Any:
        obs, info = self.env.reset(seed=seed)
        return obs["observation"], info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs["observation"], reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def frames(game: str, players: int) -> bool:
    """Whether training sees this game in seat frames (`Game.seat_frame`: the learner in
    seat 0, so every seat's play is one policy's); the written policy says so."""
    from gamenight.engine import load
    from gamenight.engine.core import has_seat_frame

    return has_seat_frame(load(game, players=players))


def make_env(game: str, players: int, opponents: Sequence[str], seed: int, **options: Any) -> Any:
    """One training environment: the learner at a random seat against `opponents`."""
    from gamenight.adapters.gymnasium import GamenightEnv

    frame = frames(game, players)

    class RandomSeat(LearnerSeat):
        """The learner's seat changes every episode."""

        def __init__(self) -> None:
            texts = [opponents[i % len(opponents)] for i in range(players - 1)]
            self.envs = [
                GamenightEnv(game, texts, seat=s, players=players, seat_frame=frame, **options)
                for s in range(players)
            ]
            self.use_spaces(self.envs[0])
            self.rng = random.Random(seed)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            self.env = self.rng.choice(self.envs)
            return self.begin(self.rng.getrandbits(31))

    return RandomSeat()


def new_model(env: Any, seed: int, rollout: int = 2048, hidden: Sequence[int] = HIDDEN) -> Any:
    """The MaskablePPO every training run starts from (tanh layers of `hidden` units, gamma
    1, a little entropy), collecting `rollout` decisions per update."""
    _, _, MaskablePPO = _require()
    return MaskablePPO(
        "MlpPolicy",
        env,
        seed=seed,
        verbose=0,
        n_steps=rollout,
        batch_size=min(256, rollout),
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": list(hidden), "vf": list(hidden)}},
        device="cpu",
    )


def train(
    game: str,
    players: int,
    opponents: Sequence[str],
    steps: int,
    seed: int = 0,
    out: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
    **options: Any,
) -> Path:
    """Train and write the policy into `out` (default: `default_out(game)`)."""
    _, torch, _ = _require()
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    env = make_env(game, players, opponents, seed, **options)

    class Progress(BaseCallback):
        def _on_step(self) -> bool:
            if on_progress is not None:
                on_progress(self.training_env.num_envs)
            return True

    model = new_model(env, seed)
    model.learn(total_timesteps=steps, callback=Progress())
    path = out if out is not None else default_out(game)
    export(model, players, path, frames(game, players))
    return path


def layers_of(model: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """The policy network's dense layers as float32 (weights, bias), as the `learned` bot
    plays them."""
    import torch

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    return [
        (
            layer.weight.detach().numpy().astype(np.float32),
            layer.bias.detach().numpy().astype(np.float32),
        )
        for layer in linears
    ]


def export(model: Any, players: int, path: Path, frame: bool = False) -> None:
    """The policy network's layers as float32 arrays under `p{players}/` in `path`
    (`frame`: it reads seat frames)."""
    write_layers(layers_of(model), players, path, frame)


def snapshot_layers(snapshot: Any, players: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weight, bias) layers under `p{players}/` of an opened policy file."""
    count = sum(1 for k in snapshot.files if k.startswith(f"p{players}/w"))
    return [(snapshot[f"p{players}/w{i}"], snapshot[f"p{players}/b{i}"]) for i in range(count)]


def write_layers(layers: Any, players: int, path: Path, frame: bool = False) -> None:
    """`layers` under `p{players}/` in `path`, the file's other table sizes kept; `frame`:
    the policy reads seat frames (`p{players}/frame`, see `learn/policy.py`)."""
    arrays: dict[str, np.ndarray] = {}
    if path.is_file():
        with np.load(path) as old:
            arrays = {k: old[k] for k in old.files if not k.startswith(f"p{players}/")}
    for i, (weight, bias) in enumerate(layers):
        arrays[f"p{players}/w{i}"] = weight
        arrays[f"p{players}/b{i}"] = bias
    if frame:
        arrays[f"p{players}/frame"] = np.ones(1, dtype=np.int8)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
