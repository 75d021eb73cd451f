"""A game declared once: the facts every layer above `games/` reads about it.

Like the block at the top of OpenSpiel's `kuhn_poker.py`: each game package defines
`SPEC = GameSpec(...)` at the top of its `__init__.py` and registers it on the last line.
The registry, bots, adapters, server, CLI and pages ask the spec; none of them names a
game. Module paths are strings so that listing the games imports nothing heavy (Drop It's
physics is only imported when the game is loaded).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """Everything above `games/` may know about one game."""

    name: str  # the id used everywhere: gamenight.load(name), URLs, files ("drop-or-stop")
    title: str  # for people: "Drop or Stop"
    pitch: str  # one line in player words
    players: tuple[int, int]  # fewest and most seats the options allow (variants may narrow it)
    default_players: int
    length: str  # typical length of one game, in player words ("15 min")
    difficulty: str  # to learn: "easy", "medium" or "hard"
    game: str  # "module:Class" of its Game
    bots: str  # module with BOTS, HEURISTIC; optionally LEVELS, ISMCTS, SEARCH_HEURISTIC, ...
    terminal: str  # module with the terminal table (render, ...)
    web: str  # the browser table, a file under web/games/
    heavy: bool = False  # `act` runs physics: servers apply it in a worker process
    windows: bool = False  # seats may answer out of turn in timed reaction windows
    pictures: str | None = None  # module with `rgb(state)`/`page_data(options)`, where drawn
    chance: str | None = None  # module with explicit chance hooks (OpenSpiel's chance nodes)
    coach: str | None = None  # module with the coach's advice for a seat (web tables)
    batched: str | None = None  # module running many games in lockstep with numpy (sim/)
    moments: tuple[str, ...] = ()  # event kinds that end a round: servers pause to show them
    rules: str = ""  # the spec file under shared/rules/, for readers

    def player_rules(self) -> ModuleType:
        """The rules in player words: the `rules` module of the game's package (the same name
        in every game), with SECTIONS and ENTRIES (`RulesSection`, `RulesEntry`), which the
        rules panel beside a table and `gamenight rules` show."""
        return importlib.import_module(f"{self.package}.rules")

    def tutorial(self) -> ModuleType:
        """The guided first game: the `tutorial` module of the game's package (the same name
        in every game), with TUTORIAL (`engine.tutorial.Tutorial`), which the tutorial page
        (/learn/GAME) and `gamenight learn` play through the shared runner."""
        return importlib.import_module(f"{self.package}.tutorial")

    def module(self, which: str) -> ModuleType:
        """One of the game's modules by field name ("bots", "terminal", "pictures")."""
        path = getattr(self, which)
        if not path:
            raise LookupError(f"{self.name} has no {which} module")
        return importlib.import_module(path.partition(":")[0])

    @property
    def package(self) -> str:
        """The game's package, where its data files live (shipped policies, boards)."""
        return self.game.partition(":")[0]

    def game_class(self) -> Any:
        module, _, cls = self.game.partition(":")
        return getattr(importlib.import_module(module), cls)

    def to_json(self) -> dict[str, Any]:
        """The spec as the lobby shows it (no module paths)."""
        return {
            "name": self.name,
            "title": self.title,
            "pitch": self.pitch,
            "players": list(self.players),
            "default_players": self.default_players,
            "length": self.length,
            "difficulty": self.difficulty,
            "heavy": self.heavy,
            "windows": self.windows,
            "web": self.web,
        }


@dataclass(frozen=True)
class RulesSection:
    """One section of a game's rules in player words (its `rules.py`), with the spec's
    clause ids it covers (shown small)."""

    key: str  # stable id ("turn"), for links and tests
    title: str
    paragraphs: tuple[str, ...]
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "paragraphs": list(self.paragraphs),
            "clauses": list(self.clauses),
        }


@dataclass(frozen=True)
class RulesEntry:
    """The rule of one card, piece or term in player words; `key` is the component's own id
    (Arne's card type "X3", Drop It's piece kind "circle")."""

    key: str
    name: str
    rule: str
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "rule": self.rule,
            "clauses": list(self.clauses),
        }
