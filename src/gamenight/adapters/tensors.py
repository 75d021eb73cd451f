"""Tensors and information states as a contract, for every game.

Each game's `observation.py` declares its tensors block by block (`observation_features`,
`information_features`: name, size, meaning, usual largest value) and fills them from
those declarations (`encode`, `encode_information`), so the tables below are the code's
own layout:

- the observation tensor: `game.encode(state.view(seat))`, what the seat sees now;
- the information state tensor: the observation, then what the seat has seen happen that
  the view no longer shows (`encode_information(game, view, state.events(seat))`);
- the information state string (`information_string`): the seat's event stream in a
  compact form, at most `BUDGET` characters: when the readable form is longer, its oldest
  events are replaced by a digest of them (blake2b), so the string stays equal for equal
  information and, but for a digest collision, different for different information.

    python -m gamenight.adapters.tensors drop-or-stop [--players 2] [--information]

prints a game's table in Markdown; `python -m gamenight.adapters.tensors --readme FILE`
rewrites the tables of a README (between `<!-- tensor ... -->` marks; a test checks them).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from types import ModuleType
from typing import Any

import numpy as np

from gamenight.engine.core import Event, Game, State
from gamenight.engine.registry import spec

BUDGET = 2000  # characters of an information state string


def observation_module(game: Game) -> ModuleType:
    """The game's observation module (every game has one: see DESIGN.md)."""
    return importlib.import_module(f"{spec(game.name).package}.observation")


def features(game: Game, information: bool = False) -> list[Any]:
    module = observation_module(game)
    found: list[Any] = (
        module.information_features(game) if information else module.observation_features(game)
    )
    return found


def information_size(game: Game) -> int:
    return int(observation_module(game).information_size(game))


def information_tensor(state: State, seat: int) -> np.ndarray:
    """The information state tensor of `seat` (see the module docstring)."""
    game = state.game
    module = observation_module(game)
    tensor: np.ndarray = module.encode_information(game, state.view(seat), state.events(seat))
    return tensor


def table(game: Game, information: bool = False) -> str:
    """The tensor's blocks as a Markdown table: feature, offset, size, meaning. For the
    information state tensor, only the blocks after the observation's."""
    rows = ["| feature | offset | size | meaning |", "| --- | --- | --- | --- |"]
    skip = len(features(game)) if information else 0
    at = 0
    for i, f in enumerate(features(game, information)):
        if i >= skip:
            rows.append(f"| `{f.name}` | {at} | {f.size} | {f.meaning} |")
        at += f.size
    return "\n".join(rows)


MARK = re.compile(
    r"(<!-- tensor (observation|information) (\{[^\n]*?\}) -->\n)"  # the mark and options
    r"((?:(?!<!--).)*?)"  # the table (no other mark inside)
    r"(\n?<!-- /tensor -->)",
    re.S,
)


def readme_tables(text: str, fill: bool = True) -> list[tuple[str, str]]:
    """The (found, generated) table of every `<!-- tensor KIND {options} -->` block of a
    README; `python -m gamenight.adapters.tensors --readme FILE` rewrites them."""
    from gamenight.engine.registry import load

    out = []
    for match in MARK.finditer(text):
        options = json.loads(match.group(3))
        game = load(options.pop("game"), **options)
        out.append((match.group(4), table(game, match.group(2) == "information")))
    return out


def fill_readme(path: str) -> None:
    from gamenight.engine.registry import load

    def put(match: re.Match[str]) -> str:
        options = json.loads(match.group(3))
        game = load(options.pop("game"), **options)
        made = table(game, match.group(2) == "information")
        return match.group(1) + made + "\n<!-- /tensor -->"

    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(MARK.sub(put, text))


# -- information state strings ----------------------------------------------------------------
def _sortable(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def canonical_event(event: Event) -> str:
    """One event as the seat saw it, in a canonical text: lists of names in a private
    event sorted (the order of cards dealt tells nothing). A game may shorten its own
    events (`compact_event` in its observation module)."""
    data = dict(event.data)
    if event.to is not None:
        data = {k: sorted(v) if _sortable(v) else v for k, v in data.items()}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return f"{event.kind}{text}"


def information_string(state: State, seat: int, budget: int = BUDGET) -> str:
    """The seat's information state as a compact string of at most `budget` characters:
    the seat (`p1`: OpenSpiel's tabular solvers key every player's information states in
    one table), its events (a game's own short codes where it has them), `|`-separated,
    and whether it is to act; the oldest events become `#<count>:<digest>` when the whole
    is too long."""
    module = observation_module(state.game)
    compact = getattr(module, "compact_event", canonical_event)
    parts = [compact(e) for e in state.events(seat)]
    head, tail = f"p{seat}", f"act:{int(seat in state.actors)}"
    text = "|".join([head, *parts, tail])
    if len(text) <= budget:
        return text
    digest_room = 48  # "#<count>:<32 hex>|"
    kept: list[str] = []
    room = budget - len(head) - len(tail) - 2 - digest_room
    for part in reversed(parts):
        if len(part) + 1 > room:
            break
        kept.append(part)
        room -= len(part) + 1
    cut = len(parts) - len(kept)
    digest = hashlib.blake2b("\x1e".join(parts[:cut]).encode(), digest_size=16).hexdigest()
    return "|".join([head, f"#{cut}:{digest}", *reversed(kept), tail])


def main(argv: list[str] | None = None) -> None:
    import argparse

    from gamenight.engine.registry import load

    parser = argparse.ArgumentParser(prog="python -m gamenight.adapters.tensors")
    parser.add_argument("game", help="a game, or a README whose tables to rewrite (--readme)")
    parser.add_argument("--readme", action="store_true")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--information", action="store_true")
    args = parser.parse_args(argv)
    if args.readme:
        fill_readme(args.game)
        return
    given = {} if args.players is None else {"players": args.players}
    print(table(load(args.game, **given), args.information))


if __name__ == "__main__":
    main()
