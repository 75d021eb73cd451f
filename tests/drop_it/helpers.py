"""Shared helpers for the Drop It tests: the default game and static-pose assessment."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import gamenight
from gamenight.games.drop_it import Drop, DropIt
from gamenight.games.drop_it.scoring import Assessment, Tolerances, assess


@lru_cache(maxsize=8)
def game(**options: Any) -> DropIt:
    loaded = gamenight.load("drop-it", **options)
    assert isinstance(loaded, DropIt)
    return loaded


def judge(
    dropped: tuple[str, float, float, float],
    *others: tuple[str, float, float, float],
    edge_mode: str = "color",
) -> Assessment:
    """Assess `dropped` (id, x, y, θ) among `others` on board_default_v1 (§12, no physics)."""
    g = game()
    poses = {pid: (x, y, a) for pid, x, y, a in (*others, dropped)}
    return assess(g.board, g.shapes, poses, dropped[0], edge_mode, Tolerances())


def rules(a: Assessment) -> set[str]:
    return {v["rule"] for v in a.violations}


SQRT3 = math.sqrt(3)


def corner_violation(g: gamenight.Game) -> gamenight.State:
    """Seat 0 drops its red circle into the left corner: the left level-1 cell is red (D21)."""
    s = g.start(0)
    s.act(0, Drop("red-circle", 20.5, 0.0))
    return s


def rules_of(record: dict[str, Any]) -> set[str]:
    return {v["rule"] for v in record["violations"]}
