"""D17a: the fast snapshot is `pickle.dumps` of the space, byte for byte."""

from __future__ import annotations

import pickle
import random

import pymunk
import pytest

from gamenight.games.drop_it import physics as ph
from gamenight.games.drop_it import snapshot

from .helpers import game


@pytest.mark.parametrize(
    ("options", "seed"), [({}, 0), ({"jitter": True}, 5), ({"sleep": True}, 2), ({}, 11)]
)
def test_D17a_snapshot_is_pickle_dumps_byte_for_byte(
    options: dict[str, object], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every drop of a whole random game, the settled space's snapshot is exactly what
    pickle.dumps writes (so every restore is unchanged), and so is a restored world's."""
    fast = snapshot.dumps
    compared = []

    def both(space: pymunk.Space, bodies: list[pymunk.Body]) -> bytes:
        made = fast(space, bodies)
        assert made == pickle.dumps(space)
        compared.append(len(bodies))
        return made

    monkeypatch.setattr(snapshot, "dumps", both)
    g = game(**options)
    s = g.start(seed)
    rng = random.Random(seed)
    while s.actors:
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
        space = ph.restore(s.world)
        assert fast(space, ph._pieces(space)) == pickle.dumps(space)
    assert compared == list(range(1, g.total_pieces + 1))


def test_D17a_snapshot_falls_back_for_what_it_does_not_know() -> None:
    """A collision handler (not in Drop It's world) goes through pickle.dumps itself."""
    s = game().start(0)
    rng = random.Random(0)
    for _ in range(3):
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
    space = ph.restore(s.world)
    space.on_collision(1, 2)
    body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    space.add(body)
    assert snapshot.dumps(space, ph._pieces(space)) == pickle.dumps(space)
