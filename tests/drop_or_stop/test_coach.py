"""Drop or Stop's coach (issue 13, item 8) reads only what the seat knows."""

from __future__ import annotations

import random

from gamenight.games.drop_or_stop import DropOrStop
from gamenight.games.drop_or_stop.coach import advice


def test_the_advice_is_equal_on_states_the_seat_cannot_tell_apart() -> None:
    state = DropOrStop.from_options(players=3).start(4)
    rng = random.Random(4)
    for _ in range(3):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    seat = state.actors[0]
    twins = [state.determinize(seat, random.Random(k)) for k in (1, 2)]
    assert twins[0].info_key(seat) == twins[1].info_key(seat)
    got = advice(state, seat)
    assert advice(twins[0], seat) == advice(twins[1], seat) == got
    assert [o["action"]["type"] for o in got["options"]] == ["drop", "stop"]
    assert all(0 <= o["value"] <= 1 for o in got["options"])
