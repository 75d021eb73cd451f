"""The settled world as bytes (D17a): `pickle.dumps(space)`, byte for byte, at less cost.

pymunk's own `Space.__getstate__` reads every body and shape property one at a time and, for
each cached arbiter, rebuilds a map of all bodies and shapes (quadratic in the pile). Here
the same state is built from one `pymunk.batch` read of the bodies and one shape map, and
handed to the standard pickler through `reducer_override`: the bytes are exactly those of
`pickle.dumps(space)` (tests/drop_it/test_snapshot.py checks it on whole games), so the
restore (`pickle.loads`) and every replay stay as they were. Anything this does not know (a
collision handler, a constraint, a body the batch read does not list in order, another
shape type) falls back to `pickle.dumps`.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Sequence
from typing import Any

import pymunk
import pymunk.batch
from pymunk import _version
from pymunk._chipmunk import lib
from pymunk.arbiter import _contacts_to_dicts
from pymunk.vec2d import Vec2d

_F = pymunk.batch.BodyFields
# pymunk writes a body's fields in this order: x, y, θ, vx, vy, ω, fx, fy, τ
_STATE_FIELDS = _F.POSITION | _F.ANGLE | _F.VELOCITY | _F.ANGULAR_VELOCITY | _F.FORCE | _F.TORQUE
_SPACE_GENERAL = tuple(pymunk.Space._pickle_attrs_general)
_BUFFER = pymunk.batch.Buffer()  # one per process: pymunk never frees a Buffer's arrays


class _WorldPickler(pickle.Pickler):
    """The standard pickler, with the states of this space's objects computed ahead."""

    states: dict[int, dict[str, list[tuple[str, Any]]]]

    def reducer_override(self, obj: Any) -> Any:
        state = self.states.get(id(obj))
        if state is None:
            return NotImplemented
        # What object.__reduce_ex__(protocol >= 2) gives, with the same state.
        return (copyreg.__newobj__, (type(obj),), state, None, None)  # type: ignore[attr-defined]


def dumps(space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> bytes:
    """`pickle.dumps(space)`; `bodies` are the space's bodies in order (all dynamic)."""
    shapes = list(space.shapes)
    if (
        space._handlers
        or space.constraints
        or list(space.bodies) != list(bodies)
        or not all(type(s) in (pymunk.Poly, pymunk.Segment, pymunk.Circle) for s in shapes)
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
    states: dict[int, dict[str, list[tuple[str, Any]]]] = {}
    for i, b in enumerate(bodies):
        o = 9 * i
        states[id(b)] = {
            "init": [("mass", b.mass), ("moment", b.moment), ("body_type", b.body_type)],
            "general": [
                ("force", Vec2d(f[o + 6], f[o + 7])),
                ("angle", f[o + 2]),
                ("position", Vec2d(f[o], f[o + 1])),
                ("center_of_gravity", b.center_of_gravity),
                ("velocity", Vec2d(f[o + 3], f[o + 4])),
                ("angular_velocity", f[o + 5]),
                ("torque", f[o + 8]),
            ],
            "custom": [(k, v) for k, v in b.__dict__.items() if k[0] != "_"],
            "special": [
                ("is_sleeping", b.is_sleeping),
                ("_velocity_func", b._velocity_func),
                ("_position_func", b._position_func),
            ],
        }
    for s in shapes:
        states[id(s)] = _shape_state(s)
    states[id(space)] = _space_state(space, list(bodies), shapes)
    out = io.BytesIO()
    pickler = _WorldPickler(out, pickle.DEFAULT_PROTOCOL)
    pickler.states = states
    pickler.dump(space)
    return out.getvalue()


def _shape_state(s: pymunk.Shape) -> dict[str, list[tuple[str, Any]]]:
    """`Shape.__getstate__` of a Poly, Segment or Circle, property for property."""
    init: list[tuple[str, Any]] = [("body", s.body)]
    if isinstance(s, pymunk.Poly):
        init += [("vertices", s.get_vertices()), ("transform", None), ("radius", s.radius)]
    elif isinstance(s, pymunk.Segment):
        init += [("a", s.a), ("b", s.b), ("radius", s.radius)]
    elif isinstance(s, pymunk.Circle):
        init += [("radius", s.radius), ("offset", s.offset)]
    general: list[tuple[str, Any]] = [
        ("sensor", s.sensor),
        ("collision_type", s.collision_type),
        ("filter", s.filter),
        ("elasticity", s.elasticity),
        ("friction", s.friction),
        ("surface_velocity", s.surface_velocity),
        ("_hashid", s._hashid),
    ]
    mass, density = s.mass, s.density
    if mass > 0:
        general.append(("mass", mass))
    if density > 0:
        general.append(("density", density))
    custom = [(k, v) for k, v in s.__dict__.items() if k[0] != "_"]
    return {"init": init, "general": general, "custom": custom, "special": []}


def _space_state(
    space: pymunk.Space, bodies: list[pymunk.Body], shapes: list[pymunk.Shape]
) -> dict[str, list[tuple[str, Any]]]:
    """`Space.__getstate__` without handlers or constraints; the arbiters' shapes looked up
    in one map."""
    cp = space._space
    by_cp = {s._shape: s for s in shapes}
    arbiters = []
    for a in space._get_arbiters():
        arbiters.append(
            {
                "e": a.e,
                "u": a.u,
                "surface_vr": (a.surface_vr.x, a.surface_vr.y),
                "a": by_cp[a.a],
                "b": by_cp[a.b],
                "count": a.count,
                "contacts": _contacts_to_dicts(a.contacts, a.count),
                "n": (a.n.x, a.n.y),
                "swapped": a.swapped,
                "stamp": a.stamp,
                "state": a.state,
            }
        )
    special: list[tuple[str, Any]] = [("pymunk_version", _version.version), ("bodies", bodies)]
    if space._static_body is not None:
        special.append(("_static_body", space._static_body))
    special += [
        ("shapes", shapes),
        ("constraints", []),
        ("_handlers", []),
        ("shapeIDCounter", lib.cpSpaceGetShapeIDCounter(cp)),
        ("stamp", lib.cpSpaceGetTimestamp(cp)),
        ("currentTimeStep", lib.cpSpaceGetCurrentTimeStep(cp)),
        ("arbiters", arbiters),
    ]
    return {
        "init": [("threaded", space.threaded)],
        "general": [(name, getattr(space, name)) for name in _SPACE_GENERAL],
        "custom": [(k, v) for k, v in space.__dict__.items() if k[0] != "_"],
        "special": special,
    }
