"""Arne's ways to play (spec section 7) as option sets, and the player counts each allows:
one table for soaks, reports and tests."""

from __future__ import annotations

from typing import Any

from gamenight.engine.core import BadInput

VARIANTS: dict[str, dict[str, Any]] = {
    "normal": {},
    "losing": {"mode": "losing"},
    "learning": {"learning": True},
    "dummy": {"variant": "dummy"},
    "team": {"variant": "team"},
}


def combinations(players: range = range(2, 7)) -> list[tuple[int, str]]:
    """(players, variant) for every variant the options allow at that count."""
    from gamenight.games.arne.game import Arne

    out = []
    for n in players:
        for name, options in VARIANTS.items():
            try:
                Arne.from_options(players=n, **options)
            except BadInput:
                continue
            out.append((n, name))
    return out
