"""Work done outside the event loop, in worker processes: bot decisions and heavy actions
(a Drop It drop runs the physics). Everything here is a plain function of picklable data."""

from __future__ import annotations

from typing import Any

from gamenight.engine.core import Action, State


def bot_choose(state: State, seat: int, text: str, seed: int) -> dict[str, Any]:
    """The JSON form of the move the bot `text` makes for `seat`."""
    from gamenight.bots import make_seat
    from gamenight.engine.core import BadInput

    try:
        bot = make_seat(text, state.game, seed)
    except (BadInput, ImportError, ModuleNotFoundError):
        import random

        return random.Random(seed).choice(state.actions(seat)).to_json()
    return bot.choose(state, seat).to_json()


def apply(state: State, seat: int, action: Action) -> State:
    """`state` after `seat` did `action` (IllegalAction propagates, as raised by `act`)."""
    state.act(seat, action)
    return state


def warm() -> int:
    """Import the games once in a fresh worker, so the first real task is fast."""
    import gamenight.bots  # noqa: F401
    from gamenight.engine.registry import games

    games()  # imports every game package

    return 0
