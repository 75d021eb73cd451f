"""The hot path's stand-ins for `random` calls draw exactly what the originals draw
(R5, R6: a seed fixes the whole game, so one extra or missing draw changes every game)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gamenight.engine.rng import seeded_random
from gamenight.games.drop_or_stop.state import random_below


@given(st.integers(min_value=-(2**80), max_value=2**80))
def test_seeded_random_is_random_random(seed: int) -> None:
    assert seeded_random(seed).getstate() == random.Random(seed).getstate()


def test_seeded_random_takes_other_seeds_like_random() -> None:
    assert seeded_random("abc").getstate() == random.Random("abc").getstate()  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=10**6))
def test_random_below_is_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [random_below(ours, n) for _ in range(20)] == [theirs.randrange(n) for _ in range(20)]
    assert ours.getstate() == theirs.getstate()
