"""The blocks a game's tensors are made of. Each game's `observation.py` declares its
observation and information-state tensors as lists of `Feature`s (the READMEs' feature
tables and the adapters read the same lists); `layout` gives a list's size and places."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple


class Feature(NamedTuple):
    """One block of a tensor: its name, length, what it means and its usual largest value
    (a score can go past it: the adapters' boxes are unbounded where it can)."""

    name: str
    size: int
    meaning: str
    high: float = 1.0


def offsets(features: list[Feature]) -> dict[str, slice]:
    """Where each block lies in its tensor."""
    out, at = {}, 0
    for f in features:
        out[f.name] = slice(at, at + f.size)
        at += f.size
    return out


@functools.lru_cache(maxsize=1024)
def layout(game: Any, features: Callable[[Any], list[Feature]]) -> tuple[int, dict[str, slice]]:
    """The size of the tensor `features(game)` declares, and where each block lies. Kept per
    game (a game never changes): building the list, descriptions and all, cost Arne more
    than encoding the view itself (about 250 of 300 microseconds). Read, never changed."""
    blocks = features(game)
    return sum(f.size for f in blocks), offsets(blocks)
