"""The engine contract shared by every game and every interface (see README.md here)."""

from gamenight.engine.check import ContractError, check, snapshot
from gamenight.engine.codec import load_game, save_game
from gamenight.engine.core import (
    Action,
    BadInput,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Reason,
    State,
)
from gamenight.engine.driver import Bot, RandomBot, TooLong, play
from gamenight.engine.options import build_options, describe_options, setting
from gamenight.engine.registry import game_class, games, load, register

__all__ = [
    "Action",
    "BadInput",
    "Bot",
    "ContractError",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "RandomBot",
    "Reason",
    "State",
    "TooLong",
    "build_options",
    "check",
    "describe_options",
    "game_class",
    "games",
    "load",
    "load_game",
    "play",
    "register",
    "save_game",
    "setting",
    "snapshot",
]
