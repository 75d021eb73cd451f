"""engine/rng.py: generators made the cheap way give the very streams `random.Random` gives
(a seed fixes a whole game, so one extra or missing draw changes every game)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gamenight.engine.rng import copied_random, seeded_random


@given(st.integers(min_value=-(2**80), max_value=2**80))
def test_seeded_random_is_random_random(seed: int) -> None:
    assert seeded_random(seed).getstate() == random.Random(seed).getstate()


def test_seeded_random_takes_other_seeds_like_random() -> None:
    assert seeded_random("abc").getstate() == random.Random("abc").getstate()  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=700))
def test_copied_random_goes_on_like_the_original_and_apart_from_it(seed: int, used: int) -> None:
    original = random.Random(seed)
    original.gauss(0, 1)  # a state with a cached gauss value is copied too
    for _ in range(used):
        original.random()
    copy = copied_random(original)
    assert copy.getstate() == original.getstate()
    assert [copy.random() for _ in range(5)] == [original.random() for _ in range(5)]
    copy.random()  # drawing from the copy leaves the original alone
    assert copy.getstate() != original.getstate()
