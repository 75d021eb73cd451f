"""The `learned` bot: a small trained policy network run with numpy.

A game ships its policies as `learned.npz` in its package (`gamenight/games/<game>/`), one
network per number of players, keys `p{players}/w0`, `p{players}/b0`, ... : dense layers
with tanh between them, the last one giving a logit per action of the game's fixed action
space. The bot encodes the seat's view (`game.encode`), masks illegal actions and plays the
most likely legal one (or samples, with `greedy=false`). A network reads the first
features of the encoding, as many as its first layer takes: a game may append features to
its encoding (keeping the old ones first) without retraining the shipped policy.
"""

from __future__ import annotations

import functools
import importlib.resources
import random
from pathlib import Path

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, State
from gamenight.engine.registry import games, spec

FILE = "learned.npz"


def policy_path(game_name: str) -> Path:
    """Where a game's shipped policies live (the file may be missing)."""
    return Path(str(importlib.resources.files(spec(game_name).package))) / FILE


@functools.cache
def _load(path: str) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def layers(game_name: str, players: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weights, bias) of each layer of the policy for `players` seats."""
    path = policy_path(game_name)
    if not path.is_file():
        raise BadInput(f"{game_name} ships no learned policy")
    arrays = _load(str(path))
    prefix = f"p{players}/"
    count = sum(1 for k in arrays if k.startswith(prefix + "w"))
    if count == 0:
        shipped = sorted({k.split("/")[0][1:] for k in arrays}, key=int)
        raise BadInput(
            f"{game_name} has no learned policy for {players} players; shipped: "
            f"{', '.join(shipped)} players"
        )
    return [(arrays[f"{prefix}w{i}"], arrays[f"{prefix}b{i}"]) for i in range(count)]


def shipped_games() -> tuple[str, ...]:
    """The games with a learned policy file."""
    return tuple(name for name in games() if policy_path(name).is_file())


def logits(net: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    for i, (w, b) in enumerate(net):
        x = x @ w.T + b
        if i < len(net) - 1:
            x = np.tanh(x)
    return x


class LearnedBot:
    """Plays a shipped policy network (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, greedy: bool = True) -> None:
        self.game = game
        self.net = layers(game.name, game.players)
        self.inputs = self.net[0][0].shape[1]
        if self.inputs > game.encoding_size:
            raise BadInput(
                f"the learned {game.name} policy reads {self.inputs} features; "
                f"this game encodes {game.encoding_size}"
            )
        self.greedy = greedy
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if len(legal) == 1:
            return legal[0]
        game = self.game
        x = game.encode(state.view(seat)).astype(np.float64)
        out = logits(self.net, x[: self.inputs])
        index = [game.action_index(a) for a in legal]
        scores = out[index]
        if self.greedy:
            return legal[int(np.argmax(scores))]
        p = np.exp(scores - scores.max())
        return self.rng.choices(legal, weights=list(p / p.sum()))[0]
