"""The settled world as bytes and back (D17a), at a fraction of pickle's cost.

The world used to be `pickle.dumps(space)`; a restore, `pickle.loads`. pymunk's own
`Space.__getstate__` reads every body and shape property one at a time and, per cached
arbiter, rebuilds a map of all bodies and shapes (quadratic in the pile); its
`__setstate__` goes through generic per-attribute loops and a `__setattr__` hook for every
value. Here the same values are kept as plain tuples (one `pymunk.batch` read for the
bodies, one shape map for the arbiters), and `loads` makes exactly the calls
`pickle.loads` makes, in the same order (bodies, the static body, shapes, then the space,
its settings, the adds, the counters and the cached arbiters), with the property setters
called directly. The restored space is the one `pickle.loads(pickle.dumps(space))` gives:
tests/drop_it/test_snapshot.py compares both restores through pymunk's own pickling and
after stepping them, on whole games; golden logs pin the rest. A space with anything else
(a collision handler, a constraint, a body callback, another shape type) is pickled as
before, and `loads` takes both forms.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pymunk
import pymunk.batch
from pymunk._chipmunk import lib

_F = pymunk.batch.BodyFields
# pymunk writes a body's fields in this order: x, y, θ, vx, vy, ω, fx, fy, τ
_STATE_FIELDS = _F.POSITION | _F.ANGLE | _F.VELOCITY | _F.ANGULAR_VELOCITY | _F.FORCE | _F.TORQUE
_SPACE_SETTINGS = tuple(pymunk.Space._pickle_attrs_general)
_SHAPES = (pymunk.Poly, pymunk.Segment, pymunk.Circle)
_BUFFER = pymunk.batch.Buffer()  # one per process: pymunk never frees a Buffer's arrays
FORMAT = "drop-it-world-1"

Body = pymunk.Body


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """A property's setter, called directly: what setattr runs, minus pymunk's
    `__setattr__` hook."""
    setter: Callable[[Any, Any], None] = getattr(cls, name).fset
    return setter


_set_force, _set_angle = _setter(Body, "force"), _setter(Body, "angle")
_set_position, _set_cog = _setter(Body, "position"), _setter(Body, "center_of_gravity")
_set_velocity, _set_spin = _setter(Body, "velocity"), _setter(Body, "angular_velocity")
_set_torque = _setter(Body, "torque")
_SHAPE_SETTERS = tuple(
    _setter(pymunk.Shape, name)
    for name in (
        "sensor",
        "collision_type",
        "filter",
        "elasticity",
        "friction",
        "surface_velocity",
        "_hashid",
    )
)
_set_mass, _set_density = _setter(pymunk.Shape, "mass"), _setter(pymunk.Shape, "density")
_SPACE_SETTERS = tuple(_setter(pymunk.Space, name) for name in _SPACE_SETTINGS)


@dataclass(frozen=True)
class _Known:
    """What `loads` built, with the rows it built them from. A body's mass, moment, centre
    of gravity and id and every shape row never change once made (a drop only adds a
    piece and moves bodies), so `dumps` of the same space takes them from here instead of
    reading them back; only the bodies' motion is read again."""

    static: pymunk.Body
    static_row: tuple[Any, ...]
    bodies: list[pymunk.Body]
    body_consts: list[tuple[Any, ...]]  # (mass, moment, type), (cog x, cog y, id)
    shapes: list[pymunk.Shape]
    shape_rows: list[tuple[Any, ...]]


def _prefix(known: list[Any], now: Sequence[Any]) -> bool:
    return len(known) <= len(now) and all(a is b for a, b in zip(known, now, strict=False))


def dumps(space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> bytes:
    """The world of `space`; `bodies` are its bodies in the order they were added. A space
    from `loads` must have had nothing changed but its bodies' motion and new pieces."""
    shapes = list(space.shapes)
    static = space._static_body
    known: _Known | None = space.__dict__.get("_snapshot_known")
    if known is not None and not (
        known.static is static and _prefix(known.bodies, bodies) and _prefix(known.shapes, shapes)
    ):
        known = None
    old_bodies = len(known.bodies) if known else 0
    old_shapes = len(known.shapes) if known else 0
    new = (*bodies[old_bodies:], *shapes[old_shapes:], *(() if known else (static,)))
    if (
        space._handlers
        or space.constraints
        or space.threaded
        or static is None
        or _public(space) - {"threaded"}
        or list(space.bodies) != list(bodies)
        or not all(type(s) in _SHAPES for s in shapes[old_shapes:])
        or any(b._velocity_func or b._position_func for b in (*bodies[old_bodies:], static))
        or not all(_public(o) <= {"piece_id"} for o in new)
        or _public(static)
    ):
        return pickle.dumps(space)
    buf = _BUFFER
    buf.clear()
    pymunk.batch.get_space_bodies(space, _F.BODY_ID, buf)
    ids = memoryview(buf.int_buf()).cast("P")
    if list(ids[: len(bodies)]) != [b.id for b in bodies]:
        return pickle.dumps(space)
    buf.clear()
    pymunk.batch.get_space_bodies(space, _STATE_FIELDS, buf)
    f = memoryview(buf.float_buf()).cast("d")
    consts = list(known.body_consts) if known else []
    consts += [
        ((b.mass, b.moment, b.body_type), (*b.center_of_gravity, b.__dict__.get("piece_id")))
        for b in bodies[old_bodies:]
    ]
    body_rows = tuple(
        (*head, *f[9 * i : 9 * i + 9], *tail) for i, (head, tail) in enumerate(consts)
    )
    index: dict[pymunk.Body | None, int] = {b: i for i, b in enumerate(bodies)}
    index[static] = -1
    shape_rows = list(known.shape_rows) if known else []
    shape_rows += [_shape_row(s, index) for s in shapes[old_shapes:]]
    by_cp = {s._shape: k for k, s in enumerate(shapes)}
    arbiters = []
    for a in space._get_arbiters():
        contacts = a.contacts
        arbiters.append(
            (
                by_cp[a.a],
                by_cp[a.b],
                a.e,
                a.u,
                a.surface_vr.x,
                a.surface_vr.y,
                a.n.x,
                a.n.y,
                a.swapped,
                a.stamp,
                a.state,
                tuple(_contact_row(contacts[i]) for i in range(a.count)),
            )
        )
    static_row = known.static_row if known else _static_row(static)
    cp = space._space
    world = (
        FORMAT,
        tuple(_plain(getattr(space, name)) for name in _SPACE_SETTINGS),
        body_rows,
        static_row,
        tuple(shape_rows),
        (
            lib.cpSpaceGetShapeIDCounter(cp),
            lib.cpSpaceGetTimestamp(cp),
            lib.cpSpaceGetCurrentTimeStep(cp),
        ),
        tuple(arbiters),
    )
    return pickle.dumps(world, pickle.HIGHEST_PROTOCOL)


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


def _public(obj: Any) -> set[str]:
    """The attributes pickle keeps as the object's "custom" ones."""
    return {k for k in obj.__dict__ if k[0] != "_"}


def _plain(value: Any) -> Any:
    """A Vec2d or ShapeFilter as a plain tuple (cffi reads both the same), else itself."""
    return tuple(value) if isinstance(value, tuple) else value


def _shape_row(s: pymunk.Shape, index: dict[pymunk.Body | None, int]) -> tuple[Any, ...]:
    if isinstance(s, pymunk.Poly):
        init: tuple[Any, ...] = ("poly", tuple(map(tuple, s.get_vertices())), s.radius)
    elif isinstance(s, pymunk.Segment):
        init = ("segment", tuple(s.a), tuple(s.b), s.radius)
    else:
        assert isinstance(s, pymunk.Circle)
        init = ("circle", s.radius, tuple(s.offset))
    return (
        index[s.body],
        init,
        (
            s.sensor,
            s.collision_type,
            tuple(s.filter),
            s.elasticity,
            s.friction,
            tuple(s.surface_velocity),
            s._hashid,
        ),
        s.mass,
        s.density,
        s.__dict__.get("piece_id"),
    )


def _contact_row(c: Any) -> tuple[float, ...]:
    return (
        c.r1.x,
        c.r1.y,
        c.r2.x,
        c.r2.y,
        c.nMass,
        c.tMass,
        c.bounce,
        c.jnAcc,
        c.jtAcc,
        c.jBias,
        c.bias,
        c.hash,
    )


def _contacts(rows: Sequence[tuple[float, ...]]) -> Any:
    """pymunk's `_contacts_from_dicts`, from rows."""
    out = lib.cpContactArrAlloc(len(rows))
    for i, (r1x, r1y, r2x, r2y, n_mass, t_mass, bounce, jn, jt, j_bias, bias, h) in enumerate(rows):
        c = out[i]
        c.r1.x = r1x
        c.r1.y = r1y
        c.r2.x = r2x
        c.r2.y = r2y
        c.nMass = n_mass
        c.tMass = t_mass
        c.bounce = bounce
        c.jnAcc = jn
        c.jtAcc = jt
        c.jBias = j_bias
        c.bias = bias
        c.hash = h
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
    _set_force(b, force)
    _set_angle(b, angle)
    _set_position(b, position)
    _set_cog(b, cog)
    _set_velocity(b, velocity)
    _set_spin(b, spin)
    _set_torque(b, torque)
    return b


def loads(world: bytes) -> pymunk.Space:
    """A fresh space from a world, as `pickle.loads` of the pickled space would give."""
    data = pickle.loads(world)
    if isinstance(data, pymunk.Space):
        return data
    tag, settings, body_rows, static_row, shape_rows, counters, arbiters = data
    assert tag == FORMAT, tag
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
        body = owners[owner]
        shape: pymunk.Shape
        if init[0] == "poly":
            shape = pymunk.Poly(body, init[1], None, init[2])
        elif init[0] == "segment":
            shape = pymunk.Segment(body, init[1], init[2], init[3])
        else:
            shape = pymunk.Circle(body, init[1], init[2])
        for setter, value in zip(_SHAPE_SETTERS, values, strict=True):
            setter(shape, value)
        if mass > 0:
            _set_mass(shape, mass)
        if density > 0:
            _set_density(shape, density)
        if pid is not None:
            shape.__dict__["piece_id"] = pid
        shapes.append(shape)
    space = pymunk.Space(False)
    space.__dict__["_snapshot_known"] = _Known(
        static,
        static_row,
        bodies,
        [(row[:3], row[12:]) for row in body_rows],
        shapes,
        list(shape_rows),
    )
    for setter, value in zip(_SPACE_SETTERS, settings, strict=True):
        setter(space, value)
    space.add(*bodies)
    space._static_body = static
    space._setup_static_body(static)
    space.add(*shapes)
    space.add()  # the constraints: none
    cp = space._space
    id_counter, stamp, step = counters
    lib.cpSpaceSetShapeIDCounter(cp, id_counter)
    lib.cpSpaceSetTimestamp(cp, stamp)
    lib.cpSpaceSetCurrentTimeStep(cp, step)
    for a, b, e, u, svx, svy, nx, ny, swapped, arb_stamp, state, contacts in arbiters:
        arb = lib.cpArbiterNew(shapes[a]._shape, shapes[b]._shape)
        arb.e = e
        arb.u = u
        arb.surface_vr = (svx, svy)
        arb.count = len(contacts)
        arb.contacts = _contacts(contacts)
        arb.n = (nx, ny)
        arb.swapped = swapped
        arb.stamp = arb_stamp
        arb.state = state
        lib.cpSpaceAddCachedArbiter(cp, arb)
    return space
