"""Drop or Stop scoring (spec §7, R16-R20): pure functions of cards, no state."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

OVERFLOW = None  # a round total above the target even with every flex card low (R17)
OVERFLOW_RANK = -math.inf  # an OVERFLOW total's rank at reveal: below every total (R19)


def round_total(
    fixed_sum: int, flex_count: int, target: int = 11, flex_values: tuple[int, int] = (1, 5)
) -> int | None:
    """§7 closed form: the highest total <= target over every flex choice, else OVERFLOW."""
    lo, hi = flex_values
    low = fixed_sum + flex_count * lo
    if low > target:
        return OVERFLOW
    return low + (hi - lo) * min(flex_count, (target - low) // (hi - lo))


def flex_choices(
    fixed_sum: int, flex_count: int, target: int = 11, flex_values: tuple[int, int] = (1, 5)
) -> list[int]:
    """The value §7 gives each flex card (high ones first); all low when OVERFLOW (R29)."""
    lo, hi = flex_values
    total = round_total(fixed_sum, flex_count, target, flex_values)
    if total is None:
        return [lo] * flex_count
    high = (total - fixed_sum - flex_count * lo) // (hi - lo)
    return [hi] * high + [lo] * (flex_count - high)


def value_cards(
    values: Iterable[tuple[bool, int]], target: int = 11, flex_values: tuple[int, int] = (1, 5)
) -> int | None:
    """Total of cards given as (is_flex, fixed_value) pairs (R17)."""
    fixed_sum = flex_count = 0
    for is_flex, value in values:
        if is_flex:
            flex_count += 1
        else:
            fixed_sum += value
    return round_total(fixed_sum, flex_count, target, flex_values)


def round_winners(totals: Sequence[int | None]) -> list[int]:
    """R18-R19: every non-OVERFLOW seat with the best total; none if all overflowed."""
    valid = [t for t in totals if t is not None]
    if not valid:
        return []
    best = max(valid)
    return [seat for seat, t in enumerate(totals) if t == best]


def terminal_reward(
    winners: Sequence[int], players: int, constant_sum: bool = False
) -> list[float]:
    """R28's suggested reward: 1 per co-winner (or 1/|winners| each when constant-sum)."""
    share = 1.0 / len(winners) if constant_sum and winners else 1.0
    return [share if seat in winners else 0.0 for seat in range(players)]
