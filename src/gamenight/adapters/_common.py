"""What the adapters share: a game with a decision bound, rewards, and pictures of a table.
What they need to know about a game beyond the engine contract they read from its GameSpec
(`gamenight.engine.registry.spec`)."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import numpy as np

from gamenight.engine.core import BadInput, Game, State
from gamenight.engine.options import options_to_json
from gamenight.engine.registry import load, spec

# Drop or Stop has no bound of its own (R34); environments need one. A capped game ends
# `truncated` by the rules' own cap; random play never needs more than about ten rounds.
DEFAULT_MAX_ROUNDS = 100


def render_modes(game: Game) -> list[str]:
    """The render modes of `game`: text always, an RGB array where the game draws itself."""
    modes = ["human", "ansi"]
    return [*modes, "rgb_array"] if spec(game.name).pictures else modes


def rgb(state: State) -> np.ndarray:
    """The game's own picture of `state` as an RGB array (height x width x 3, uint8)."""
    try:
        pictures = spec(state.game.name).module("pictures")
    except LookupError:
        raise BadInput(f"{state.game.name} has no picture; render modes: human, ansi") from None
    found: np.ndarray = pictures.rgb(state)
    return found


def render(state: State, mode: str | None) -> str | np.ndarray | None:
    """One render call of either environment: `human` prints the table and returns None."""
    if mode is None:
        return None
    if mode == "rgb_array":
        return rgb(state)
    text = ansi(state)
    if mode == "human":
        print(text, end="")
        return None
    return text


def check_render_mode(game: Game, mode: str | None) -> None:
    modes = render_modes(game)
    if mode is not None and mode not in modes:
        raise BadInput(f"render_mode must be one of {modes} or None, got {mode!r}")


REWARDS = ("payoff", "zero_sum")


def check_reward(reward: str) -> None:
    if reward not in REWARDS:
        raise BadInput(f"reward must be one of {list(REWARDS)}, got {reward!r}")


def scale_payoff(payoff: float, reward: str) -> float:
    """`payoff` (in [0, 1], 1 first) as the chosen reward: itself, or zero-sum 2p-1 in
    [-1, 1] (+1 win, -1 loss in two-player games; the seats' rewards sum to 0)."""
    return 2.0 * payoff - 1.0 if reward == "zero_sum" else payoff


def bounded_game(game: str | Game, **options: Any) -> Game:
    """`game` (a name or a loaded Game) with `options`, with a finite `max_decisions`.

    A game without a bound gets `max_rounds=DEFAULT_MAX_ROUNDS` unless one was given.
    """
    if isinstance(game, Game):
        if options:
            given = options_to_json(game.options) | {"players": game.players} | options
            game = load(game.name, **given)
    else:
        game = load(game, **options)
    if game.max_decisions is not None:
        return game
    names = {f.name for f in dataclasses.fields(game.options)}
    if "max_rounds" not in names:
        raise BadInput(f"{game.name} sets no bound on its length; adapters need one")
    given = options_to_json(game.options) | {"players": game.players}
    return load(game.name, **given, max_rounds=DEFAULT_MAX_ROUNDS)


def game_options(game: Game) -> dict[str, Any]:
    """The options that rebuild `game` with `gamenight.load` (plain, JSON-ready)."""
    return options_to_json(game.options) | {"players": game.players}


def ansi(state: State, seat: int | None = None) -> str:
    """The table as text, drawn by the game's terminal module from `view(seat)` (None: the
    spectator, who sees no hidden card); a generic listing when a game has none."""
    view = state.view(seat)
    try:
        ui = spec(state.game.name).module("terminal")
    except (ImportError, LookupError):
        ui = None
    if ui is not None and hasattr(ui, "render"):
        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        console.print(ui.render(view))
        return out.getvalue()
    lines = [f"{state.game.name}: actors {list(state.actors)}"]
    for key, value in view.items():
        text = json.dumps(value, default=str)
        lines.append(f"{key}: {text if len(text) <= 200 else text[:197] + '...'}")
    return "\n".join(lines) + "\n"
