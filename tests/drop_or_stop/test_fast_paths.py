"""The hot path's stand-ins for `random` calls draw exactly what the originals draw
(R5, R6: a seed fixes the whole game, so one extra or missing draw changes every game;
the generators themselves: tests/engine/test_rng.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gamenight.games.drop_or_stop.state import random_below


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=10**6))
def test_random_below_is_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [random_below(ours, n) for _ in range(20)] == [theirs.randrange(n) for _ in range(20)]
    assert ours.getstate() == theirs.getstate()
