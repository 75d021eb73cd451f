"""Random generators made the cheap way, with the very streams `random.Random` gives.

`random.Random()` seeds itself from the OS (a `getrandom` call and a Mersenne Twister
seeding from it, its `__init__`), which a copy then throws away with `setstate`; searches
copy states on every iteration, so that was a system call and a seeding each.
"""

from __future__ import annotations

import random
from _random import Random as _BaseRandom


def seeded_random(seed: int) -> random.Random:
    """`random.Random(seed)`, the same generator and stream, without the two Python-level
    calls (`Random.__init__`, `Random.seed`) in front of the C seeding, for an int seed."""
    if type(seed) is not int:
        return random.Random(seed)
    rng = random.Random.__new__(random.Random)
    _BaseRandom.seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.seed sets
    return rng


def copied_random(rng: random.Random) -> random.Random:
    """A new generator in `rng`'s exact state (its future draws the same), not seeded first."""
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new
