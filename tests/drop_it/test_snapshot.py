"""D17a: a world restored from the snapshot is the space pickle.loads(pickle.dumps(space))
gives, in every detail pymunk pickles and in how it goes on moving."""

from __future__ import annotations

import pickle
import random

import pymunk
import pytest

from gamenight.games.drop_it import physics as ph
from gamenight.games.drop_it import snapshot

from .helpers import game


def _state(space: pymunk.Space) -> bytes:
    """Everything pymunk pickles of a space, the cached arbiters in shape order: Chipmunk
    keys them by shape address, so the order it lists them in varies with memory layout
    (in every restore, pickle's too) while the simulation does not."""
    state = space.__getstate__()
    for i, (key, value) in enumerate(state["special"]):
        if key == "arbiters":
            value = sorted(value, key=lambda d: (d["a"]._hashid, d["b"]._hashid))
            state["special"][i] = (key, value)
    return pickle.dumps(state)


def _same_space(a: pymunk.Space, b: pymunk.Space) -> bool:
    return _state(a) == _state(b)


@pytest.mark.parametrize(
    ("options", "seed"), [({}, 0), ({"jitter": True}, 5), ({"sleep": True}, 2), ({}, 11)]
)
def test_D17a_snapshot_restores_what_pickle_restores(
    options: dict[str, object], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every drop of a whole random game: the snapshot's restore and pickle's restore of
    the settled space pickle to the same bytes, and still do after 240 more steps."""
    fast = snapshot.dumps
    compared = []

    def both(space: pymunk.Space, bodies: list[pymunk.Body]) -> bytes:
        world = fast(space, bodies)
        mine, reference = snapshot.loads(world), pickle.loads(pickle.dumps(space))
        assert _same_space(mine, reference)
        if len(bodies) % 6 == 1:  # stepping is slower: every sixth drop
            for _ in range(240):
                mine.step(1 / 240)
                reference.step(1 / 240)
            assert _same_space(mine, reference)
        compared.append(len(bodies))
        return world

    monkeypatch.setattr(snapshot, "dumps", both)
    g = game(**options)
    s = g.start(seed)
    rng = random.Random(seed)
    while s.actors:
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
    assert compared[-g.total_pieces :] == list(range(1, g.total_pieces + 1))


def test_D17a_the_empty_world_restores_as_pickle_would() -> None:
    g = game()
    space = ph.restore(g.empty_world)
    assert _same_space(space, pickle.loads(pickle.dumps(space)))
    assert len(space.shapes) == 3 and not space.bodies


def test_D17a_a_space_the_snapshot_does_not_know_is_pickled() -> None:
    """A collision handler and a kinematic body (not in Drop It's world) go through pickle."""
    s = game().start(0)
    rng = random.Random(0)
    for _ in range(3):
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
    space = ph.restore(s.world)
    space.add(pymunk.Body(body_type=pymunk.Body.KINEMATIC))
    world = snapshot.dumps(space, ph._pieces(space))
    assert isinstance(pickle.loads(world), pymunk.Space)
    assert _same_space(snapshot.loads(world), pickle.loads(pickle.dumps(space)))


def test_D17a_a_world_of_another_format_is_refused_with_its_tag() -> None:
    world = game().empty_world
    assert isinstance(world, tuple)
    with pytest.raises(ValueError, match="drop-it-world-1"):
        snapshot.loads(("drop-it-world-1", *world[1:]))
    with pytest.raises(ValueError, match="tuple"):
        snapshot.loads(pickle.dumps(world))  # bytes hold a pickled space, nothing else
