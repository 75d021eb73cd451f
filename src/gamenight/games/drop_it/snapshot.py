"""The settled world as plain data and back (D17a), at a fraction of pickle's cost.

The world used to be `pickle.dumps(space)`; a restore, `pickle.loads`. pymunk's own
`Space.__getstate__` reads every body and shape property one at a time and, per cached
arbiter, rebuilds a map of all bodies and shapes (quadratic in the pile); its
`__setstate__` goes through generic per-attribute loops and a `__setattr__` hook for every
value. Here the same values are kept as plain immutable tuples, not even pickled (one
`pymunk.batch` read for the
bodies, one shape map for the arbiters, each arbiter's contacts as the bytes of its C
array), and `loads` makes exactly the C calls `pickle.loads` makes, in the same order
(bodies, the static body, shapes, then the space, its settings, the adds, the counters and
the cached arbiters), calling the C setters pymunk's properties call and doing what
pymunk's `Space.add` does for new objects, without a Python frame per value. The restored
space is the one `pickle.loads(pickle.dumps(space))` gives: tests/drop_it/test_snapshot.py
compares both restores through pymunk's own pickling and after stepping them, on whole
games; golden logs pin the rest. A space with anything else (a collision handler, a
constraint, a body callback, another shape type) is pickled as before, and `loads` takes
both forms.
"""

from __future__ import annotations

import pickle
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

import pymunk
import pymunk.batch
from pymunk._chipmunk import ffi, lib

_F = pymunk.batch.BodyFields
# pymunk writes a body's fields in this order: x, y, θ, vx, vy, ω, fx, fy, τ (BODY_ID goes
# to the int buffer)
_STATE_FIELDS = _F.POSITION | _F.ANGLE | _F.VELOCITY | _F.ANGULAR_VELOCITY | _F.FORCE | _F.TORQUE
_READ_FIELDS = _F.BODY_ID | _STATE_FIELDS
_SPACE_SETTINGS = tuple(pymunk.Space._pickle_attrs_general)
_SHAPES = (pymunk.Poly, pymunk.Segment, pymunk.Circle)
_BUFFER = pymunk.batch.Buffer()  # one per process: pymunk never frees a Buffer's arrays
_CONTACT_BYTES = ffi.sizeof("cpContact")  # plain doubles and a hash: no pointers
FORMAT = "drop-it-world-2"
# A world: (FORMAT, settings, body rows, static body row, shape rows, counters, arbiters),
# all immutable; or the pickled space, for a space this module does not know.
World = tuple[Any, ...] | bytes

Body = pymunk.Body

# The C setters pymunk's property setters call, called directly: the same C calls with
# the same values, without a Python frame (and pymunk's `__setattr__` hook) for each.
# Space: in pymunk's pickle order; `threads` does nothing on a space that is not threaded.
_SPACE_SETTERS = tuple(
    {
        "iterations": lib.cpSpaceSetIterations,
        "gravity": lib.cpSpaceSetGravity,
        "damping": lib.cpSpaceSetDamping,
        "idle_speed_threshold": lib.cpSpaceSetIdleSpeedThreshold,
        "sleep_time_threshold": lib.cpSpaceSetSleepTimeThreshold,
        "collision_slop": lib.cpSpaceSetCollisionSlop,
        "collision_bias": lib.cpSpaceSetCollisionBias,
        "collision_persistence": lib.cpSpaceSetCollisionPersistence,
        "threads": None,
    }[name]
    for name in _SPACE_SETTINGS
)
# Shape: the order of pymunk's `Shape._pickle_attrs_general`, as `_shape_row` reads them.
_SHAPE_SETTERS = (
    lib.cpShapeSetSensor,
    lib.cpShapeSetCollisionType,
    lib.cpShapeSetFilter,
    lib.cpShapeSetElasticity,
    lib.cpShapeSetFriction,
    lib.cpShapeSetSurfaceVelocity,
    lib.cpShapeSetHashID,
)


class _Known(NamedTuple):
    """What `loads` built, with the rows it built them from. A body's mass, moment, centre
    of gravity and id, every shape row and the space's settings never change once made (a
    drop only adds a piece and moves bodies), so `dumps` of the same space takes them from
    here instead of reading them back; only the bodies' motion is read again."""

    static: pymunk.Body
    static_row: tuple[Any, ...]
    settings: tuple[Any, ...]
    bodies: list[pymunk.Body]
    body_consts: list[tuple[Any, ...]]  # (mass, moment, type), (cog x, cog y, id)
    body_ids: list[int]  # `Body.id`, the order pymunk.batch reads them in
    shapes: list[pymunk.Shape]
    shape_rows: list[tuple[Any, ...]]


def _prefix(known: list[Any], now: Sequence[Any]) -> bool:
    return len(known) <= len(now) and all(a is b for a, b in zip(known, now, strict=False))


def dumps(space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> World:
    """The world of `space`; `bodies` are its bodies in the order they were added. A space
    from `loads` must have had nothing changed but its bodies' motion and new pieces."""
    shapes = list(space.shapes)
    static = space._static_body
    known: _Known | None = space.__dict__.get("_snapshot_known")
    if known is not None and not (
        known.static is static and _prefix(known.bodies, bodies) and _prefix(known.shapes, shapes)
    ):
        known = None
    new_bodies = bodies[len(known.bodies) :] if known else bodies
    new_shapes = shapes[len(known.shapes) :] if known else shapes
    new = (*new_bodies, *new_shapes, *(() if known else (static,)))
    if (
        space._handlers
        or space._constraints
        or space.threaded
        or static is None
        or _custom(space, _SPACE_OWN)
        or list(space._bodies) != list(bodies)
        or not all(type(s) in _SHAPES for s in new_shapes)
        or any(b._velocity_func or b._position_func for b in (*new_bodies, static))
        or any(_custom(o, _PIECE_OWN) for o in new)
        or _custom(static, _BODY_OWN)
    ):
        return pickle.dumps(space)
    buf = _BUFFER
    buf.clear()
    pymunk.batch.get_space_bodies(space, _READ_FIELDS, buf)  # ids and motion in one call
    ids = [*known.body_ids, *(b.id for b in new_bodies)] if known else [b.id for b in bodies]
    if list(memoryview(buf.int_buf()).cast("P")[: len(bodies)]) != ids:
        return pickle.dumps(space)
    f = memoryview(buf.float_buf()).cast("d")
    consts = list(known.body_consts) if known else []
    consts += [_body_consts(b) for b in new_bodies]
    body_rows = tuple(
        (*head, *f[9 * i : 9 * i + 9], *tail) for i, (head, tail) in enumerate(consts)
    )
    index: dict[pymunk.Body | None, int] = {b: i for i, b in enumerate(bodies)}
    index[static] = -1
    shape_rows = list(known.shape_rows) if known else []
    shape_rows += [_shape_row(s, index) for s in new_shapes]
    by_cp = {s._shape: k for k, s in enumerate(shapes)}
    arbiters = []
    for a in space._get_arbiters():
        surface_vr, normal, count = a.surface_vr, a.n, a.count
        arbiters.append(
            (
                by_cp[a.a],
                by_cp[a.b],
                a.e,
                a.u,
                surface_vr.x,
                surface_vr.y,
                normal.x,
                normal.y,
                a.swapped,
                a.stamp,
                a.state,
                # the contacts as their bytes: the same doubles and hashes, bit for bit
                ffi.buffer(a.contacts, count * _CONTACT_BYTES)[:] if count else b"",
            )
        )
    cp = space._space
    return (
        FORMAT,
        known.settings if known else _settings(space),
        body_rows,
        known.static_row if known else _static_row(static),
        tuple(shape_rows),
        (
            lib.cpSpaceGetShapeIDCounter(cp),
            lib.cpSpaceGetTimestamp(cp),
            lib.cpSpaceGetCurrentTimeStep(cp),
        ),
        tuple(arbiters),
    )


def _settings(space: pymunk.Space) -> tuple[Any, ...]:
    return tuple(_plain(getattr(space, name)) for name in _SPACE_SETTINGS)


def _body_consts(b: pymunk.Body) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(mass, moment, type), (cog x, cog y, piece id): with the C getters pymunk's
    properties call."""
    cp = b._body
    cog = lib.cpBodyGetCenterOfGravity(cp)
    return (
        (lib.cpBodyGetMass(cp), lib.cpBodyGetMoment(cp), lib.cpBodyGetType(cp)),
        (cog.x, cog.y, b.__dict__.get("piece_id")),
    )


def _static_row(static: pymunk.Body) -> tuple[Any, ...]:
    return (
        static.mass,
        static.moment,
        *static.force,
        static.angle,
        *static.position,
        *static.center_of_gravity,
        *static.velocity,
        static.angular_velocity,
        static.torque,
    )


def _custom(obj: Any, own: frozenset[str]) -> bool:
    """Has `obj` an attribute pickle would keep as a "custom" one (no leading "_"), other
    than those in `own`? `own` also names the private attributes pymunk gives it, so the
    usual answer is a set difference that comes out empty."""
    return any(k[0] != "_" for k in obj.__dict__.keys() - own)


_BODY_OWN = frozenset({"_body", "_constraints", "_data_handle", "_shapes", "_space"})
_PIECE_OWN = _BODY_OWN | {"_h", "_shape", "piece_id"}  # a piece's body or shape
_SPACE_OWN = frozenset(
    {
        "_add_later",
        "_bodies",
        "_bodies_to_check",
        "_constraints",
        "_handlers",
        "_locked",
        "_post_step_callbacks",
        "_remove_later",
        "_removed_shapes",
        "_shapes",
        "_snapshot_known",
        "_space",
        "_static_body",
        "threaded",
    }
)


def _plain(value: Any) -> Any:
    """A Vec2d or ShapeFilter as a plain tuple (cffi reads both the same), else itself."""
    return tuple(value) if isinstance(value, tuple) else value


def _shape_row(s: pymunk.Shape, index: dict[pymunk.Body | None, int]) -> tuple[Any, ...]:
    """What pickle keeps of a shape, read with the C getters pymunk's properties call."""
    cp = s._shape
    if isinstance(s, pymunk.Poly):
        verts = (lib.cpPolyShapeGetVert(cp, i) for i in range(lib.cpPolyShapeGetCount(cp)))
        init: tuple[Any, ...] = (
            "poly",
            tuple((v.x, v.y) for v in verts),
            lib.cpPolyShapeGetRadius(cp),
        )
    elif isinstance(s, pymunk.Segment):
        init = ("segment", tuple(s.a), tuple(s.b), s.radius)
    else:
        assert isinstance(s, pymunk.Circle)
        init = ("circle", s.radius, tuple(s.offset))
    shape_filter, surface_v = lib.cpShapeGetFilter(cp), lib.cpShapeGetSurfaceVelocity(cp)
    return (
        index[s.body],
        init,
        (
            bool(lib.cpShapeGetSensor(cp)),
            lib.cpShapeGetCollisionType(cp),
            (shape_filter.group, shape_filter.categories, shape_filter.mask),
            lib.cpShapeGetElasticity(cp),
            lib.cpShapeGetFriction(cp),
            (surface_v.x, surface_v.y),
            lib.cpShapeGetHashID(cp),
        ),
        lib.cpShapeGetMass(cp),
        lib.cpShapeGetDensity(cp),
        s.__dict__.get("piece_id"),
    )


def _contacts(raw: bytes) -> Any:
    """pymunk's `_contacts_from_dicts`: a new contact array holding these contacts."""
    out = lib.cpContactArrAlloc(len(raw) // _CONTACT_BYTES)
    if raw:
        ffi.memmove(out, raw, len(raw))
    return out


def _body(
    mass: float,
    moment: float,
    kind: int,
    force: tuple[float, float],
    angle: float,
    position: tuple[float, float],
    cog: tuple[float, float],
    velocity: tuple[float, float],
    spin: float,
    torque: float,
) -> Body:
    """A body made as pickle.loads makes it: the constructor, then the properties in
    pymunk's order (the dynamic bodies and the static one alike)."""
    b = Body(mass, moment, kind)
    cp = b._body
    lib.cpBodySetForce(cp, force)
    lib.cpBodySetAngle(cp, angle)
    lib.cpBodySetPosition(cp, position)
    lib.cpBodySetCenterOfGravity(cp, cog)
    lib.cpBodySetVelocity(cp, velocity)
    lib.cpBodySetAngularVelocity(cp, spin)
    lib.cpBodySetTorque(cp, torque)
    return b


def _shape(owner: pymunk.Body, init: tuple[Any, ...], values: tuple[Any, ...]) -> pymunk.Shape:
    """A shape made as pickle.loads makes it: the constructor, then the properties."""
    shape: pymunk.Shape
    if init[0] == "poly":
        shape = pymunk.Poly(owner, init[1], None, init[2])
    elif init[0] == "segment":
        shape = pymunk.Segment(owner, init[1], init[2], init[3])
    else:
        shape = pymunk.Circle(owner, init[1], init[2])
    cp = shape._shape
    for setter, value in zip(_SHAPE_SETTERS, values, strict=True):
        setter(cp, value)
    return shape


def loads(world: World) -> pymunk.Space:
    """A fresh space from a world, as `pickle.loads` of the pickled space would give."""
    if isinstance(world, bytes):
        space = pickle.loads(world)
        if not isinstance(space, pymunk.Space):
            raise ValueError(f"a Drop It world's bytes hold a {type(space).__name__}")
        return space
    tag, settings, body_rows, static_row, shape_rows, counters, arbiters = world
    if tag != FORMAT:
        raise ValueError(f"a Drop It world of format {tag!r}, not {FORMAT!r}")
    # pickle.loads builds the bodies, the static body and the shapes first (each from
    # its constructor, then its properties in pymunk's order), then the space.
    bodies = []
    for mass, moment, kind, x, y, angle, vx, vy, w, fx, fy, torque, cx, cy, pid in body_rows:
        b = _body(mass, moment, kind, (fx, fy), angle, (x, y), (cx, cy), (vx, vy), w, torque)
        if pid is not None:
            b.__dict__["piece_id"] = pid
        bodies.append(b)
    smass, smoment, sfx, sfy, sangle, sx, sy, scx, scy, svx, svy, sw, storque = static_row
    static = _body(
        smass,
        smoment,
        Body.STATIC,
        (sfx, sfy),
        sangle,
        (sx, sy),
        (scx, scy),
        (svx, svy),
        sw,
        storque,
    )
    owners = [*bodies, static]  # index -1: the static body
    shapes: list[pymunk.Shape] = []
    for owner, init, values, mass, density, pid in shape_rows:
        shape = _shape(owners[owner], init, values)
        if mass > 0:
            lib.cpShapeSetMass(shape._shape, mass)
        if density > 0:
            lib.cpShapeSetDensity(shape._shape, density)
        if pid is not None:
            shape.__dict__["piece_id"] = pid
        shapes.append(shape)
    space = pymunk.Space(False)
    cp = space._space
    space.__dict__["_snapshot_known"] = _Known(
        static,
        static_row,
        settings,
        bodies,
        [(row[:3], row[12:]) for row in body_rows],
        [b.id for b in bodies],
        shapes,
        list(shape_rows),
    )
    for setter, value in zip(_SPACE_SETTERS, settings, strict=True):
        if setter is not None:
            setter(cp, value)
    _add(space, bodies, static, shapes)
    id_counter, stamp, step = counters
    lib.cpSpaceSetShapeIDCounter(cp, id_counter)
    lib.cpSpaceSetTimestamp(cp, stamp)
    lib.cpSpaceSetCurrentTimeStep(cp, step)
    for a, b, e, u, svx, svy, nx, ny, swapped, arb_stamp, state, contacts in arbiters:
        arb = lib.cpArbiterNew(shapes[a]._shape, shapes[b]._shape)
        arb.e = e
        arb.u = u
        arb.surface_vr = (svx, svy)
        arb.count = len(contacts) // _CONTACT_BYTES
        arb.contacts = _contacts(contacts)
        arb.n = (nx, ny)
        arb.swapped = swapped
        arb.stamp = arb_stamp
        arb.state = state
        lib.cpSpaceAddCachedArbiter(cp, arb)
    return space


def _add(
    space: pymunk.Space,
    bodies: list[pymunk.Body],
    static: pymunk.Body,
    shapes: list[pymunk.Shape],
) -> None:
    """`space.add(*bodies)`, the static body, `space.add(*shapes)` as pickle.loads does them:
    what pymunk's `_add_body`, `_setup_static_body` and `_add_shape` do, in their order,
    without their checks (every object here is new and in no space)."""
    cp = space._space
    ref = weakref.ref(space)
    space_bodies, to_check, space_shapes = space._bodies, space._bodies_to_check, space._shapes
    for b in bodies:
        b.__dict__["_space"] = ref  # what pymunk's __setattr__ hook would write
        space_bodies[b] = None
        to_check.add(b)
        lib.cpSpaceAddBody(cp, b._body)
    space._static_body = static
    static.__dict__["_space"] = ref
    lib.cpSpaceAddBody(cp, static._body)
    for shape in shapes:
        shape.__dict__["_space"] = ref
        space_shapes[shape] = None
        lib.cpSpaceAddShape(cp, shape._shape)
