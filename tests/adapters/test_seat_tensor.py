"""A seat's tensor (game.encode(view)) carries nothing the seat may not see: a
determinized twin (other hands and the deck resampled) encodes alike. (That it carries all
the seat may see, e.g. Arne's known cards in other hands, A58, is issue 16 item 3: open.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamenight.engine import load


def _states(name, options, games=20):
    game = load(name, **options)
    rng = random.Random(0)
    for seed in range(games):
        state = game.start(seed)
        while not state.over:
            seat = state.actors[0]
            yield game, state, seat
            state.act(seat, rng.choice(state.actions(seat)))


@pytest.mark.parametrize("name", ["drop-or-stop", "arne"])
def test_the_tensor_ignores_what_the_seat_may_not_see(name):
    rng = random.Random(1)
    for count, (game, state, seat) in enumerate(_states(name, {"players": 3}, games=5)):
        if count % 7:
            continue
        twin = state.determinize(seat, rng)
        assert np.array_equal(game.encode(twin.view(seat)), game.encode(state.view(seat)))
