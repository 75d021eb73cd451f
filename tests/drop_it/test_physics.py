"""The physics world: rest, tolerances under physics, determinism and snapshots (D11..D17a)."""

from __future__ import annotations

import math
import pickle
import random

import pymunk
import pytest

from gamenight.games.drop_it import Drop, DropItState
from gamenight.games.drop_it import physics as ph
from gamenight.games.drop_it.actions import normalise_angle
from gamenight.games.drop_it.scoring import place
from gamenight.games.drop_it.state import hand_noise

from .helpers import game


def play_random(state: DropItState, drops: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(drops):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))


def test_D14_N6_piece_dropped_on_the_empty_floor_rests_at_level_1() -> None:
    s = game().start(0)
    s.act(0, Drop("red-square", 120.0, 0.0))
    rec = s.records[-1]
    assert rec["settled"] and rec["level"] == 1
    pid, x, y, a = s.poses[0]
    assert pid == "red-square-0" and x == pytest.approx(120.0, abs=1e-3)
    assert y == pytest.approx(18.0, abs=0.2) and a == pytest.approx(0.0, abs=1e-6)
    # D14: settled after REST_STEPS quiet steps, time counted in whole steps.
    assert rec["time"] == rec["steps"] * game().options.dt
    assert game().physics.rest_steps == 120 and game().physics.max_steps == 4800


@pytest.mark.parametrize(("gap", "touch"), [(0.45, True), (0.55, False)])
def test_N4_D20_same_colour_contact_under_physics_at_the_tolerance(gap: float, touch: bool) -> None:
    s = game(edge_mode="none").start(0)
    s.act(0, Drop("red-square", 60.0, 0.0))
    s.act(1, Drop("blue-square", 200.0, 0.0))
    s.act(0, Drop("yellow-square", 60.0 + 36.0 + gap, 0.0))
    found = {v["rule"] for v in s.records[-1]["violations"]}
    assert found == ({"SHAPE"} if touch else set())
    s2 = game(edge_mode="none").start(0)
    s2.act(0, Drop("red-square", 60.0, 0.0))
    s2.act(1, Drop("blue-circle", 200.0, 0.0))
    s2.act(0, Drop("red-triangle", 60.0 + 18.0 + 22.0 + gap, 0.0))
    found = {v["rule"] for v in s2.records[-1]["violations"]}
    assert found == ({"COLOUR"} if touch else set())


def test_D17a_settled_stack_stays_settled_after_a_restore() -> None:
    s = game().start(3)
    play_random(s, 12, seed=3)
    space = ph.restore(s.world)
    for _ in range(480):  # two more simulated seconds with nothing added
        space.step(game().options.dt)
    after = ph.poses(space)
    for (pid, x, y, a), (pid2, x2, y2, a2) in zip(s.poses, after, strict=True):
        assert pid == pid2
        assert math.hypot(x - x2, y - y2) < 0.05 and abs(a - a2) < 1e-3


def test_D17a_same_seed_and_actions_give_bit_identical_poses() -> None:
    g = game(jitter=True)
    a = g.start(11)
    play_random(a, 36, seed=5)
    b = g.replay(11, a.history)
    assert a.poses == b.poses  # exact floats, not approx
    assert [r["noise"] for r in a.records] == [r["noise"] for r in b.records]
    assert a.scores == b.scores


def test_D17a_piece_ids_survive_the_pickle_round_trip() -> None:
    s = game().start(0)
    s.act(0, Drop("red-circle", 30.0, 0.0))
    space = ph.restore(s.world)
    assert [b.piece_id for b in space.bodies] == ["red-circle-0"]
    assert [sh.piece_id for sh in space.shapes if hasattr(sh, "piece_id")] == ["red-circle-0"]


def test_D14_timeout_is_assessed_and_play_goes_on() -> None:
    s = game(t_max=0.05).start(0)
    s.act(0, Drop("red-square", 120.0, 0.0))
    rec = s.records[-1]
    assert not rec["settled"] and rec["steps"] == 12 and rec["level"] >= 1
    assert s.actors == (1,)


def test_D14_sleeping_variant_settles_too() -> None:
    s = game(sleep=True).start(0)
    play_random(s, 4)
    assert all(r["settled"] for r in s.records)


def test_D12_release_is_lifted_above_a_pile_that_sticks_out() -> None:
    s = game().start(0)
    s.poses = (("blue-square-0", 120.0, 270.0, 0.0),)  # a static pose, for release_pose only
    pose = s.release_pose(Drop("red-square", 120.0, 0.0))
    # Lowest point must be >= 1 mm above the pile's top (288): y = 282 + 0.5 k >= 307.
    assert pose["y"] == 307.0
    # Beside the pile the release height is the plain one: lowest point at the rim.
    pose = s.release_pose(Drop("red-square", 20.0, 0.0))
    assert pose["y"] == 264.0 + 18.0


def test_D12_release_never_enters_a_pocket_unreachable_from_above() -> None:
    s = game().start(0)
    s.poses = (("blue-square-0", 120.0, 230.0, 0.0),)
    # Deep release (depth = full height) right above the pile: stops 1 mm above it.
    pose = s.release_pose(Drop("red-square", 120.0, 0.0, 36.0))
    me = place(game().shapes["square"], (pose["x"], pose["y"], 0.0))
    assert me.bottom() - 248.0 >= 1.0 and me.bottom() - 248.0 < 1.5


def test_D11_angle_normalised_x_and_depth_clamped_and_recorded() -> None:
    assert normalise_angle(-1e-18) == 0.0 and normalise_angle(7.0) == pytest.approx(7 - 2 * math.pi)
    s = game().start(0)
    s.act(0, Drop("red-square", 500.0, 0.0, 99.0))
    rel = s.records[-1]["release"]
    assert rel["x"] == 240.0 - 0.5 - 18.0 and rel["depth"] == 36.0
    lo, hi = game().feasible_x_range(game().shapes["diamond"], math.pi / 2)
    assert (lo, hi) == pytest.approx((27.5, 212.5))


def test_D11_strict_mode_refuses_out_of_range_with_the_limits() -> None:
    from gamenight.engine.core import IllegalAction

    s = game(strict=True).start(0)
    with pytest.raises(IllegalAction, match=r"between 18\.5 and 221\.5 mm"):
        s.act(0, Drop("red-square", 5.0, 0.0))
    with pytest.raises(IllegalAction, match="at that depth"):
        s.act(0, Drop("red-square", 100.0, 0.0, -1.0))
    s.act(0, Drop("red-square", 18.5, 0.0))


def test_D16_hand_noise_is_seeded_clamped_and_scaled() -> None:
    sig = game().sigmas
    a = hand_noise(7, 3, sig, 1.0)
    assert a == hand_noise(7, 3, sig, 1.0) and a != hand_noise(7, 4, sig, 1.0)
    for value, sigma in zip(a, sig, strict=True):
        assert abs(value) <= 3 * sigma
    assert hand_noise(7, 3, sig, 0.0) == [0.0, 0.0, 0.0, 0.0]
    big = [hand_noise(1, t, (1.0,), 1.0)[0] for t in range(3000)]
    assert all(-3.0 <= v <= 3.0 for v in big)
    assert 0.9 < (sum(v * v for v in big) / len(big)) ** 0.5 < 1.1


def test_D16_jitter_noise_is_recorded_and_applied() -> None:
    s = game(jitter=True).start(4)
    s.act(0, Drop("red-square", 120.0, 0.0))
    rec = s.records[-1]
    expected = hand_noise(4, 0, game().sigmas, 1.0)
    assert list(rec["noise"].values()) == pytest.approx(expected, abs=1e-12)
    assert rec["release"]["x"] == pytest.approx(120.0 + expected[0])


def test_D15_geometry_agrees_with_the_pymunk_query_shortcut() -> None:
    """N4 cross-check: the engine's shape_query (rounded query shape) finds the same neighbours."""
    s = game().start(2)
    play_random(s, 20, seed=2)
    space = ph.restore(s.world)
    shapes = {sh.piece_id: sh for sh in space.shapes if hasattr(sh, "piece_id")}
    g = game()
    last = s.records[-1]
    me = shapes[last["piece"]]
    body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    body.position, body.angle = me.body.position, me.body.angle
    outline = g.shapes[last["piece"].split("-")[1]]
    q: pymunk.Shape = (
        pymunk.Circle(body, outline.radius + 0.5)
        if outline.is_circle
        else pymunk.Poly(body, list(outline.vertices), radius=0.5)
    )
    q.cache_bb()
    hits = {
        h.shape.piece_id
        for h in space.shape_query(q)
        if hasattr(h.shape, "piece_id") and h.shape.piece_id != last["piece"]
    }
    assert hits == set(last["touching"])


def test_D17a_bit_identical_in_another_process_with_another_hash_seed() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import gamenight, random\n"
        "g = gamenight.load('drop-it', jitter=True)\n"
        "s = g.start(9); r = random.Random(9)\n"
        "for _ in range(8):\n"
        "    seat = s.actors[0]; s.act(seat, r.choice(s.actions(seat)))\n"
        "print(repr(s.poses))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    s = game(jitter=True).start(9)
    play_random(s, 8, seed=9)
    assert out.strip() == repr(s.poses)


def test_D14_batched_rest_test_equals_the_per_body_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path (one pymunk.batch read per step) is the D14 test value for value: the
    same steps, poses and frames as the per-body loop, on a pile of 20 pieces."""
    g = game(jitter=True)
    s = g.start(7)
    play_random(s, 20, seed=7)
    space = ph.restore(s.world)
    assert ph._batch_order_ok(space, ph._pieces(space))  # the fast path is the one taken
    # A pickled space (not the snapshot's tuples) makes simulate_drop check the batch order,
    # so the check can send it down the per-body path.
    pickled = pickle.dumps(space)
    outline = g.shapes["triangle"]
    drop = ("green-triangle-9", outline, (150.0, 380.0, 0.3), (15.0, 0.0), 0.1)
    rest = (g.board.areal_density, g.physics)
    fast = ph.simulate_drop(s.world, *drop, *rest, frame_every=5)
    same = ph.simulate_drop(pickled, *drop, *rest, frame_every=5)  # the order checked
    assert (same.poses, same.steps, same.frames) == (fast.poses, fast.steps, fast.frames)
    monkeypatch.setattr(ph, "_batch_order_ok", lambda space, bodies: False)
    slow = ph.simulate_drop(pickled, *drop, *rest, frame_every=5)
    assert (fast.poses, fast.steps, fast.settled) == (slow.poses, slow.steps, slow.settled)
    assert fast.frames == slow.frames and len(fast.frames) >= 2
    last = ph.decode_frame(fast.frames[-1][1])
    assert last == [p[1:] for p in fast.poses]
    unframed = ph.simulate_drop(s.world, *drop, *rest, frame_every=0)
    assert (unframed.poses, unframed.steps, unframed.frames) == (fast.poses, fast.steps, ())
