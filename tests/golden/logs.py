"""Golden event logs: seeded games of every game and variant, pinned while code moves.

Each game is played by seeded random bots; what is pinned is a digest of every event as
each seat (and a spectator) saw it, plus the history and the outcome. `python -m
tests.golden.logs` rewrites `digests.json` (only after a change of behaviour made on
purpose, named in the commit); `python -m tests.golden.logs --dump DIR` writes the full
logs as JSON lines, to diff two versions of the code.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import gamenight
from gamenight.engine.driver import RandomBot, play

GAMES_PER_CASE = 50
DIGESTS = Path(__file__).with_name("digests.json")

# (game, case name, options): every variant of every game at a size it allows
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("drop-or-stop", "2p", {"players": 2}),
    ("drop-or-stop", "3p", {"players": 3}),
    ("drop-or-stop", "4p-descending", {"players": 4, "deck": "descending"}),
    ("drop-or-stop", "3p-1to6", {"players": 3, "deck": "1to6"}),
    ("arne", "2p", {"players": 2}),
    ("arne", "4p", {"players": 4}),
    ("arne", "3p-losing", {"players": 3, "mode": "losing"}),
    ("arne", "3p-learning", {"players": 3, "learning": True}),
    ("arne", "3p-dummy", {"players": 3, "variant": "dummy"}),
    ("arne", "4p-team", {"players": 4, "variant": "team"}),
    ("drop-it", "2p", {"players": 2}),
    ("drop-it", "3p-jokers", {"players": 3, "jokers": True}),
    ("drop-it", "4p-teams", {"players": 4, "teams": True}),
    ("drop-it", "2p-shape-edges", {"players": 2, "edge_mode": "shape"}),
    ("drop-it", "2p-easy-edges", {"players": 2, "edge_mode": "none"}),
]


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


def game_log(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The full record of one seeded game: events per seat, history and outcome."""
    game = gamenight.load(name, **options)
    bots = [RandomBot(seed * 31 + s) for s in range(game.players)]
    state = play(game, bots, seed)
    seats: list[int | None] = [*range(game.players), None]
    return {
        "seed": seed,
        "options": options,
        "history": [[seat, action.to_json()] for seat, action in state.history],
        "events": {str(seat): [_plain(e.to_json()) for e in state.events(seat)] for seat in seats},
        "outcome": _plain(state.outcome().to_json()),
    }


def digest(log: dict[str, Any]) -> str:
    text = json.dumps(log, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def case_digests(name: str, options: dict[str, Any], games: int = GAMES_PER_CASE) -> list[str]:
    return [digest(game_log(name, options, seed)) for seed in range(games)]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--dump"]:
        out = Path(argv[1])
        out.mkdir(parents=True, exist_ok=True)
        for name, case, options in CASES:
            with open(out / f"{name}-{case}.jsonl", "w") as f:
                for seed in range(GAMES_PER_CASE):
                    f.write(json.dumps(game_log(name, options, seed), sort_keys=True) + "\n")
        return
    table = {f"{name}/{case}": case_digests(name, options) for name, case, options in CASES}
    DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
