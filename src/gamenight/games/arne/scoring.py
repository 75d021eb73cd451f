"""Scoring (spec section 5), a pure function of the table.

A stack is described by `ScoredStack(base, x3, crush, lock)`: the base card type (P50..P1000, X2
or MINUS200) and its attachments. The chameleon does not change a score (A46).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gamenight.games.arne.components import FACE


class ScoredStack(NamedTuple):
    """What scoring sees of a stack: its base card type and which attachments it has."""

    base: str
    x3: bool = False
    crush: bool = False
    lock: bool = False
    chameleon: bool = False


def active(stack: ScoredStack) -> bool:
    """5.1: a crushed point card counts only when its crush is locked; a locked -200 is void."""
    if stack.base == "MINUS200":
        return not stack.lock
    return (not stack.crush) or stack.lock


def display_score(stacks: Iterable[ScoredStack]) -> int:
    """5.1 / A45: POINTS * FACTOR - PENALTY over the stacks that count (`active`, inlined:
    searches score a display for every action they weigh)."""
    points = 0
    factor = 1
    penalty = 0
    for base, x3, crush, lock, _ in stacks:
        if base == "MINUS200":
            if not lock:
                penalty += 600 if x3 else 200
        elif lock or not crush:
            if base == "X2":
                factor *= 6 if x3 else 2
            else:
                points += FACE[base] * (3 if x3 else 1)
    return points * factor - penalty


def player_scores(
    display_scores: Sequence[int],
    seat_of: Sequence[int],
    *,
    team_of_seat: Sequence[int] | None = None,
    dummy_display: int | None = None,
    dummy_controller: int | None = None,
) -> list[int]:
    """A46, A52, A54: each player's result from the seat they hold at the end.

    `display_scores[i]` is the score of seat i's display (the dummy display at
    `dummy_display`); with teams, a player gets the sum of their team's displays.
    """
    n = len(seat_of)
    seat_score = list(display_scores[:n])
    if dummy_display is not None and dummy_controller is not None and dummy_controller >= 0:
        seat_score[dummy_controller] += display_scores[dummy_display]
    if team_of_seat is not None:
        team_total: dict[int, int] = {}
        for seat in range(n):
            team_total[team_of_seat[seat]] = (
                team_total.get(team_of_seat[seat], 0) + seat_score[seat]
            )
        return [team_total[team_of_seat[seat_of[p]]] for p in range(n)]
    return [seat_score[seat_of[p]] for p in range(n)]
