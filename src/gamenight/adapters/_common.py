"""What the adapters share: a game with a decision bound, and text pictures of a table."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
from typing import Any

from gamenight.engine.core import BadInput, Game, State
from gamenight.engine.options import options_to_json
from gamenight.engine.registry import load

# Drop or Stop has no bound of its own (R34); environments need one. A capped game ends
# `truncated` by the rules' own cap; random play never needs more than about ten rounds.
DEFAULT_MAX_ROUNDS = 100


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
    package = state.game.name.replace("-", "_")
    try:
        ui = importlib.import_module(f"gamenight.games.{package}.terminal")
    except ImportError:
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
