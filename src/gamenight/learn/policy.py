"""The `learned` bot: a small trained policy network run with numpy.

A game ships its policies as `learned.npz` in its package (`gamenight/games/<game>/`), one
network per number of players, keys `p{players}/w0`, `p{players}/b0`, ... : dense layers
with tanh between them, the last one giving a logit per action of the game's fixed action
space. `bot:learned?path=FILE.npz` plays a file of the same shape instead (what
`gamenight train` writes, by default `./learned-<game>.npz`); the `learned` bot exists for
the games that ship a policy. The bot encodes the seat's view (`game.encode`), masks
illegal actions and plays the most likely legal one (or samples, with `greedy=false`),
and checks the network's shapes when seated. A policy trained on seat frames (a file with
`p{players}/frame`: Arne's since 2026-12) reads the view turned so that its seat is seat 0,
and its actions in that frame. A network reads the first
features of the encoding, as many as its first layer takes: a game may append features to
its encoding (keeping the old ones first) without retraining the shipped policy.
"""

from __future__ import annotations

import functools
import importlib.resources
import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, State, has_seat_frame
from gamenight.engine.registry import games, spec

FILE = "learned.npz"


def policy_path(game_name: str) -> Path:
    """Where a game's shipped policies live (the file may be missing)."""
    return Path(str(importlib.resources.files(spec(game_name).package))) / FILE


@functools.cache
def _read(path: str, stamp: tuple[int, int]) -> dict[str, np.ndarray]:
    """The arrays of a policy file, cached by its path and (mtime, size): a file rewritten
    by `gamenight train` is read again."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise ValueError("one array, not an .npz archive")
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise BadInput(f"policy file {path} is not a readable .npz archive ({err})") from err


def _load(path: str) -> dict[str, np.ndarray]:
    try:
        st = Path(path).stat()
    except OSError as err:
        raise BadInput(f"policy file {path}: {err.strerror or err}") from err
    return _read(path, (st.st_mtime_ns, st.st_size))


def _shape_error(arrays: dict[str, np.ndarray], prefix: str, count: int) -> str | None:
    """What is wrong with the layers `prefix`w0.. in `arrays`, or None."""
    previous = None
    for i in range(count):
        w, b = arrays.get(f"{prefix}w{i}"), arrays.get(f"{prefix}b{i}")
        if w is None or b is None:
            return f"layer {i} needs both {prefix}w{i} and {prefix}b{i}"
        if w.ndim != 2 or b.shape != (w.shape[0],):
            return f"layer {i}: weights {w.shape} and bias {b.shape} do not fit"
        if previous is not None and w.shape[1] != previous:
            return f"layer {i} reads {w.shape[1]} values; layer {i - 1} gives {previous}"
        if not np.issubdtype(w.dtype, np.floating) or not np.issubdtype(b.dtype, np.floating):
            return f"layer {i}: weights and bias must be floats"
        previous = w.shape[0]
    return None


def layers(
    game_name: str, players: int, path: str | Path | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weights, bias) of each layer of the policy for `players` seats, from `path`
    (default: the game's shipped file). A missing or malformed file is a one-line BadInput."""
    arrays, source = _arrays(game_name, path)
    prefix = f"p{players}/"
    count = sum(1 for k in arrays if k.startswith(prefix + "w"))
    if count == 0:
        found = sorted(
            {k.split("/")[0][1:] for k in arrays if k.startswith("p") and "/" in k},
            key=lambda n: int(n) if n.isdigit() else 0,
        )
        verb = "shipped" if source == game_name else "it has"
        raise BadInput(
            f"{source} has no learned policy for {players} players; {verb}: "
            f"{', '.join(found) or 'none'}" + (" players" if found else "")
        )
    problem = _shape_error(arrays, prefix, count)
    if problem:
        raise BadInput(f"{source}: not a policy for {players} players: {problem}")
    return [(arrays[f"{prefix}w{i}"], arrays[f"{prefix}b{i}"]) for i in range(count)]


def framed(game_name: str, players: int, path: str | Path | None = None) -> bool:
    """Whether the policy for `players` seats reads the seat frame (`Game.seat_frame`):
    its file holds `p{players}/frame` (`gamenight train` writes it for a game that has
    one); older files read the table as it is numbered."""
    arrays, _ = _arrays(game_name, path)
    flag = arrays.get(f"p{players}/frame")
    return flag is not None and bool(flag.size) and bool(flag.reshape(-1)[0])


def _arrays(game_name: str, path: str | Path | None) -> tuple[dict[str, np.ndarray], str]:
    """The arrays of `path` (default: the game's shipped file) and how to name it."""
    if path is None or str(path) == "":
        path = policy_path(game_name)
        if not path.is_file():
            raise BadInput(
                f"{game_name} ships no learned policy; train one (gamenight train "
                f"{game_name}) and seat bot:learned?path=FILE"
            )
        source = game_name
    else:
        path = Path(path)
        if path.suffix != ".npz":
            raise BadInput(f"policy file {path}: expected a .npz file (from gamenight train)")
        if not path.is_file():
            raise BadInput(f"policy file {path} not found")
        source = f"policy file {path}"
    return _load(str(path)), source


def shipped_games() -> tuple[str, ...]:
    """The games with a learned policy file."""
    return tuple(name for name in games() if policy_path(name).is_file())


@functools.cache
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def logits(net: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    # One BLAS thread: one observation's product is too small to share, and on a busy
    # machine BLAS threads waiting for a core made an Arne decision 15 ms instead of 1 ms.
    with _blas().limit(limits=1, user_api="blas"):
        for i, (w, b) in enumerate(net):
            x = x @ w.T + b
            if i < len(net) - 1:
                x = np.tanh(x)
    return x


class Forward:
    """One network's pass for one decision, as cheap as the decision allows: the first
    layer reads only the features that are not zero (an Arne view at 4 players has 3,676
    features, about a tenth of them set; the full product was 90% of a decision), and the
    last layer gives only the legal actions' logits. Equal to `logits(net, x)[index]` up
    to the float sums' order."""

    def __init__(self, net: list[tuple[np.ndarray, np.ndarray]]) -> None:
        (w0, b0), *self.middle = net[:-1] or net
        self.last_w, self.last_b = net[-1]
        self.first_rows = np.ascontiguousarray(w0.T)  # a feature's weights in one row
        self.first_b = b0
        self.dtype = w0.dtype
        self.single = len(net) == 1

    def __call__(self, x: np.ndarray, index: list[int]) -> np.ndarray:
        on = np.flatnonzero(x)
        with _blas().limit(limits=1, user_api="blas"):  # see `logits`
            h = x[on] @ self.first_rows[on] + self.first_b
            if self.single:
                return h[index]
            h = np.tanh(h)
            for w, b in self.middle:
                h = np.tanh(h @ w.T + b)
            return self.last_w[index] @ h + self.last_b[index]


class LearnedBot:
    """Plays a policy network: the shipped one, or the file `path` (see the module
    docstring)."""

    def __init__(self, game: Game, seed: int = 0, greedy: bool = True, path: str = "") -> None:
        self.game = game
        self.net = layers(game.name, game.players, path or None)
        self.inputs = self.net[0][0].shape[1]
        where = f"policy file {path}" if path else f"the learned {game.name} policy"
        if self.inputs > game.encoding_size:
            raise BadInput(
                f"{where} reads {self.inputs} features; this game encodes {game.encoding_size}"
            )
        outputs = self.net[-1][0].shape[0]
        if outputs != game.num_actions:
            raise BadInput(
                f"{where} gives {outputs} action logits; {game.name} has {game.num_actions} actions"
            )
        self.forward = Forward(self.net)
        self.framed = framed(game.name, game.players, path or None)
        if self.framed and not has_seat_frame(game):
            raise BadInput(f"{where} reads a seat frame; {game.name} has none")
        self.greedy = greedy
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise BadInput(f"seat {seat + 1} has no move to choose now")
        game = self.game
        # In the weights' own type: float64 features would copy every weight matrix to
        # float64 at each decision, ten times the cost of the product itself.
        view = state.view(seat)
        seen = legal
        if self.framed:
            frame = game.seat_frame(view)
            assert frame is not None  # (has_seat_frame, when seated)
            features, seen = frame.tensor(), [frame.to_frame(a) for a in legal]
        else:
            features = game.encode(view)
        x = features[: self.inputs].astype(self.forward.dtype)
        scores = self.forward(x, [game.action_index(a) for a in seen])
        if self.greedy:
            return legal[int(np.argmax(scores))]
        p = np.exp(scores - scores.max())
        return self.rng.choices(legal, weights=list(p / p.sum()))[0]
