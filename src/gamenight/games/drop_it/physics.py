"""The physics world (spec §3.8, §4, D12, D14, D16, D17a), on pymunk 7.

The State keeps the world as plain data: the settled poses and the space's snapshot
(immutable tuples, `snapshot.py`). Every drop restores a fresh space from that snapshot, adds
the new piece, steps with a fixed `dt` until the pile is at rest or the timeout, resets
velocities and snapshots the result (D17a). pymunk caches contact impulses that positions
alone do not carry (pymunk#181), so a space rebuilt from poses or run on without the round
trip would not reproduce a replay bit for bit; the round trip does, in every process.
"""

from __future__ import annotations

import functools
import math
import operator
import threading
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pymunk
import pymunk.batch
from pymunk._chipmunk import lib

from gamenight.games.drop_it import snapshot
from gamenight.games.drop_it.board import Board
from gamenight.games.drop_it.components import Outline
from gamenight.games.drop_it.scoring import Placed, Pose, distance, near, place
from gamenight.games.drop_it.settings import PhysicsConfig


@dataclass(frozen=True, slots=True)
class DropResult:
    """One simulated drop: the new world, every piece's pose and how it ended (D14, D17)."""

    world: snapshot.World
    poses: tuple[tuple[str, float, float, float], ...]  # (piece id, x, y, θ), release order
    settled: bool
    steps: int
    # (step, packed doubles x, y, θ, vx, vy, ω per piece): a frame is the settle loop's own
    # read of that step, so sampling costs no extra call into pymunk
    frames: tuple[tuple[int, bytes], ...]


def empty_world(board: Board, cfg: PhysicsConfig) -> snapshot.World:
    """§3.8 + §4: the empty space with the three walls, as a snapshot (turn 0 of D17a)."""
    space = pymunk.Space()
    space.gravity = (0.0, -cfg.gravity)
    space.iterations = cfg.iterations
    space.collision_slop = cfg.collision_slop
    space.damping = cfg.damping
    if cfg.sleep:
        space.sleep_time_threshold = cfg.sleep_time
        space.idle_speed_threshold = cfg.idle_speed
    w, h = board.width, board.height
    for a, b in (
        ((-10.0, -10.0), (-10.0, h + 150.0)),  # left, right, floor: this order
        ((w + 10.0, -10.0), (w + 10.0, h + 150.0)),
        ((-10.0, -10.0), (w + 10.0, -10.0)),
    ):
        wall = pymunk.Segment(space.static_body, a, b, 10.0)
        wall.friction = cfg.wall_friction
        wall.elasticity = cfg.wall_elasticity
        space.add(wall)
    return snapshot.dumps(space, [])


def restore(world: snapshot.World) -> pymunk.Space:
    """A fresh space from a snapshot (D17a); body and shape objects are new each time."""
    return snapshot.loads(world)


def _pieces(space: pymunk.Space) -> list[pymunk.Body]:
    dynamic, body_type = pymunk.Body.DYNAMIC, lib.cpBodyGetType  # what `b.body_type` reads
    return [b for b in space.bodies if body_type(b._body) == dynamic]


def poses(space: pymunk.Space) -> tuple[tuple[str, float, float, float], ...]:
    """Every piece's (id, x, y, θ) in the order the pieces were added."""
    return tuple((b.piece_id, b.position.x, b.position.y, b.angle) for b in _pieces(space))


def add_piece(
    space: pymunk.Space,
    piece_id: str,
    outline: Outline,
    pose: Pose,
    density: float,
    cfg: PhysicsConfig,
) -> pymunk.Body:
    """Put one piece into `space` at `pose`, at rest, with the board's material (§4)."""
    body = pymunk.Body()
    body.position = pose[0], pose[1]
    body.angle = pose[2]
    body.piece_id = piece_id  # no leading "_": pymunk drops those when pickling (D17a)
    shape: pymunk.Shape
    if outline.is_circle:
        shape = pymunk.Circle(body, outline.radius)
    else:
        shape = pymunk.Poly(body, list(outline.vertices), radius=0.0)
    shape.density = density
    shape.friction = cfg.piece_friction
    shape.elasticity = cfg.piece_elasticity
    shape.piece_id = piece_id
    space.add(body, shape)
    return body


def simulate_drop(
    world: snapshot.World,
    piece_id: str,
    outline: Outline,
    pose: Pose,
    velocity: tuple[float, float],
    angular_velocity: float,
    density: float,
    cfg: PhysicsConfig,
    frame_every: int = 0,
) -> DropResult:
    """Release one piece at `pose` into the restored world and step to rest (D14, D17a).

    `frame_every` > 0 samples the poses of all pieces every that many steps (and at the
    end) for animation.
    """
    space = restore(world)
    body = add_piece(space, piece_id, outline, pose, density, cfg)
    # the C setters `body.velocity = ...` and `body.angular_velocity = ...` call
    lib.cpBodySetVelocity(body._body, velocity)
    lib.cpBodySetAngularVelocity(body._body, angular_velocity)

    bodies = _pieces(space)
    # A world of tuples comes back through snapshot.loads, which adds its bodies in order
    # to a new space, and add_piece appends: Chipmunk keeps dynamic bodies in the order
    # they were added (only a removal reorders them), so the batch order needs no check.
    batched = not cfg.sleep and (isinstance(world, tuple) or _batch_order_ok(space, bodies))
    if batched:
        steps, settled, frames = _settle_batched(space, len(bodies), cfg, frame_every)
    else:
        steps, settled, frames = _settle_per_body(space, bodies, cfg, frame_every)
    if settled and cfg.zero_velocity_at_rest:  # D14: stale spin would return after a restore
        for b in bodies:  # the C setters the properties call, without a frame per body
            lib.cpBodySetVelocity(b._body, (0.0, 0.0))
            lib.cpBodySetAngularVelocity(b._body, 0.0)
    ids = [b.piece_id for b in bodies]
    if cfg.sleep:
        final = poses(space)
    else:
        # the last frame is the last step's read (positions are untouched by the reset)
        f, width = (
            (memoryview(frames[-1][1]).cast("d"), 6)
            if batched and frames
            else (
                _read(space, _POSE, len(bodies)),
                3,
            )
        )
        final = tuple(
            (pid, f[width * i], f[width * i + 1], f[width * i + 2]) for i, pid in enumerate(ids)
        )
    return DropResult(snapshot.dumps(space, bodies), final, settled, steps, tuple(frames))


# -- settling (D14) ---------------------------------------------------------------------------
_FIELDS = pymunk.batch.BodyFields
_MOTION = _FIELDS.VELOCITY | _FIELDS.ANGULAR_VELOCITY  # (vx, vy, ω) per body
_POSE = _FIELDS.POSITION | _FIELDS.ANGLE  # (x, y, θ) per body
_FRAME = _POSE | _MOTION  # (x, y, θ, vx, vy, ω) per body: pymunk writes fields in that order


_LOCAL = threading.local()


def _buffer(which: int) -> pymunk.batch.Buffer:
    """This thread's batch buffers, made once and reused: pymunk frees a Buffer's C arrays
    never, and cffi lets other threads run during the C calls."""
    try:
        buffers: tuple[pymunk.batch.Buffer, ...] = _LOCAL.buffers
    except AttributeError:
        buffers = _LOCAL.buffers = (pymunk.batch.Buffer(), pymunk.batch.Buffer())
    buf = buffers[which]
    buf.clear()
    return buf


def _read(space: pymunk.Space, fields: pymunk.batch.BodyFields, n: int) -> memoryview[float]:
    """One C call for three doubles of every body; the first `n` bodies are the pieces.
    The view is valid until the next `_read` in this thread."""
    buf = _buffer(1)
    pymunk.batch.get_space_bodies(space, fields, buf)
    return memoryview(buf.float_buf()).cast("d")[: 3 * n]


def _batch_order_ok(space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> bool:
    """The batch reader walks Chipmunk's body arrays: the pieces must come first, in release
    order, followed by nothing but the space's static body (which holds the walls)."""
    buf = _buffer(1)
    pymunk.batch.get_space_bodies(space, _FIELDS.BODY_ID, buf)
    ids = list(memoryview(buf.int_buf()).cast("P"))
    n = len(bodies)
    return ids[:n] == [b.id for b in bodies] and set(ids[n:]) <= {space.static_body.id}


def _settle_batched(
    space: pymunk.Space, n: int, cfg: PhysicsConfig, frame_every: int
) -> tuple[int, bool, list[tuple[int, bytes]]]:
    """D14 without sleeping: after every step read (vx, vy, ω) of all pieces in one C call.

    The test is the per-body one, value for value: a step is quiet unless some piece has
    vx·vx + vy·vy >= V_REST² or |ω| >= W_REST (with SLEEP off no piece is ever asleep).
    With frames on, that one read also takes (x, y, θ), and a frame is its raw doubles,
    decoded only when asked for.
    """
    v2, w_rest = cfg.v_rest * cfg.v_rest, cfg.w_rest
    rest_steps, max_steps, dt = cfg.rest_steps, cfg.max_steps, cfg.dt
    step_ = space.step
    buf = _buffer(0)
    get, clear, float_buf = pymunk.batch.get_space_bodies, buf.clear, buf.float_buf
    fast_v, fast_w = v2.__le__, w_rest.__le__
    mul, add = operator.mul, operator.add
    fields, width = (_FRAME, 6) if frame_every else (_MOTION, 3)
    vx_at = width - 3  # (vx, vy, ω) are the last three doubles of a body's read
    end = width * n  # the pieces; the static body after them never moves
    frames: list[tuple[int, bytes]] = []
    quiet = 0
    step = 0
    settled = False
    while step < max_steps:
        step_(dt)
        step += 1
        clear()
        get(space, fields, buf)
        m = memoryview(float_buf()).cast("d")[:end]
        vx, vy = m[vx_at::width], m[vx_at + 1 :: width]
        if any(map(fast_v, map(add, map(mul, vx, vx), map(mul, vy, vy)))) or any(
            map(fast_w, map(abs, m[vx_at + 2 :: width]))
        ):
            quiet = 0
        else:
            quiet += 1
        if frame_every and step % frame_every == 0:
            frames.append((step, m.tobytes()))
        if quiet >= rest_steps:
            settled = True
            break
    if frame_every and (not frames or frames[-1][0] != step):
        # the last step's read is still in `m` (no step at all: read the start)
        frames.append((step, m.tobytes() if step else _read_frame(space, n)))
    return step, settled, frames


def _settle_per_body(
    space: pymunk.Space, bodies: Sequence[pymunk.Body], cfg: PhysicsConfig, frame_every: int
) -> tuple[int, bool, list[tuple[int, bytes]]]:
    """D14 one body at a time: needed with SLEEP on (sleeping pieces count as quiet)."""
    newest_first = bodies[::-1]  # the falling piece is usually the one still moving
    v2, w_rest = cfg.v_rest * cfg.v_rest, cfg.w_rest
    rest_steps, max_steps, dt = cfg.rest_steps, cfg.max_steps, cfg.dt
    frames: list[tuple[int, bytes]] = []
    quiet = 0
    step = 0
    settled = False
    while step < max_steps:
        space.step(dt)
        step += 1
        for b in newest_first:  # D14: quiet = every awake piece below V_REST and W_REST
            v = b.velocity
            if (
                v.x * v.x + v.y * v.y >= v2 or abs(b.angular_velocity) >= w_rest
            ) and not b.is_sleeping:
                quiet = 0
                break
        else:
            quiet += 1
        if frame_every and step % frame_every == 0:
            frames.append((step, _frame(bodies)))
        if quiet >= rest_steps:
            settled = True
            break
    if frame_every and (not frames or frames[-1][0] != step):
        frames.append((step, _frame(bodies)))
    return step, settled, frames


def _frame(bodies: Sequence[pymunk.Body]) -> bytes:
    return array(
        "d", [v for b in bodies for v in (*b.position, b.angle, *b.velocity, b.angular_velocity)]
    ).tobytes()


def _read_frame(space: pymunk.Space, n: int) -> bytes:
    buf = _buffer(0)
    pymunk.batch.get_space_bodies(space, _FRAME, buf)
    return memoryview(buf.float_buf()).cast("d")[: 6 * n].tobytes()


def decode_frame(frame: bytes) -> list[tuple[float, float, float]]:
    """A frame's (x, y, θ) per piece, in release order."""
    f = memoryview(frame).cast("d")
    return [(f[i], f[i + 1], f[i + 2]) for i in range(0, len(f), 6)]


# -- release placement (D11, D12) ------------------------------------------------------------
@functools.lru_cache(maxsize=4096)  # the grid's angles recur on every turn
def extent(outline: Outline, angle: float) -> tuple[float, float, float, float]:
    """The outline's bounding box offsets (xmin, ymin, xmax, ymax) about its centroid."""
    p = place(outline, (0.0, 0.0, angle))
    return p.bbox()


def feasible_x_range(
    board: Board, outline: Outline, angle: float, clearance: float
) -> tuple[float, float]:
    """D11: the x range that keeps the piece's extent within [X_CLEARANCE, W - X_CLEARANCE]."""
    x0, _, x1, _ = extent(outline, angle)
    lo, hi = clearance - x0, board.width - clearance - x1
    return (lo, hi) if lo <= hi else ((lo + hi) / 2, (lo + hi) / 2)


def release_y(
    board: Board,
    outline: Outline,
    x: float,
    angle: float,
    depth: float,
    others: Sequence[Placed],
    clearance: float,
) -> float:
    """D12: lower the piece from above on a 0.5 mm grid; stop before it comes too close.

    y0 puts the lowest point at H - depth. Candidates are y0 + 0.5 j; the release is at the
    smallest k such that every candidate from k upwards is at distance >= RELEASE_CLEARANCE
    from every piece.
    """
    _, ymin, _, _ = extent(outline, angle)
    y0 = board.height - depth - ymin
    if not others:
        return y0
    top = max(o.top() for o in others)
    # First j whose lowest point is more than the clearance above every piece: all clear.
    j = max(0, math.floor((top + clearance - (y0 + ymin)) / 0.5) + 1)
    while j > 0:
        me = place(outline, (x, y0 + 0.5 * (j - 1), angle))
        if any(near(me, o, clearance) and distance(me, o) < clearance for o in others):
            break
        j -= 1
    return y0 + 0.5 * j


def placed_all(
    shapes: Mapping[str, Outline],
    kinds: Mapping[str, str],
    poses_: Sequence[tuple[str, float, float, float]],
) -> list[Placed]:
    """The placed outlines of every piece in the world."""
    return [place(shapes[kinds[pid]], (x, y, a)) for pid, x, y, a in poses_]
