"""One first round of a small Drop or Stop deck, as the engine plays it and as OpenSpiel
sees it (one round win decides, a one-round cap, no drawing while over the target): the
tables the equilibrium and certificate tests check against OpenSpiel's own algorithms."""

from __future__ import annotations

import json
from typing import Any

import pyspiel

import gamenight
import gamenight.adapters.openspiel


def one_round(tmp_path: Any, players: int, target: int, deck: Any, hand_size: int = 1) -> Any:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck))
    options = {
        "players": players,
        "deck": str(path),
        "first_start_seat": 0,
        "hand_size": hand_size,
        "target": target,
        "wins_to_win": 1,
        "max_rounds": 1,
        "allow_drop_when_overflowed": False,
    }
    game = gamenight.load("drop-or-stop", **options)
    spiel = pyspiel.load_game(
        "python_gamenight_drop_or_stop", {**options, "chance": "explicit", "reward": "payoff"}
    )
    return game, spiel
