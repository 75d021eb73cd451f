"""The one JSON codec for actions and saved games (seed + history)."""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamenight.engine.core import Action, BadInput, Game, said
from gamenight.i18n import N_

_SCALARS: dict[Any, tuple[type, ...]] = {
    int: (int,),
    float: (int, float),
    str: (str,),
    bool: (bool,),
}


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Check one JSON value against a field's type hint; tuples arrive as lists."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        for option in typing.get_args(hint):
            if option is type(None):
                if value is None:
                    return None
                continue
            try:
                return _coerce(name, value, option)
            except BadInput:
                continue
        raise BadInput(
            said(
                N_("field '{name}': {value} fits none of {types}"),
                name=name,
                value=repr(value),
                types=hint,
            )
        )
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise BadInput(
                said(N_("field '{name}' must be a list, got {value}"), name=name, value=repr(value))
            )
        (item,) = typing.get_args(hint)[:1]
        return tuple(_coerce(name, v, item) for v in value)
    if hint is typing.Any:
        return value
    allowed = _SCALARS.get(hint)
    if allowed is None:
        raise BadInput(
            said(N_("field '{name}' has an unsupported type {type}"), name=name, type=hint)
        )
    if (isinstance(value, bool) and hint is not bool) or not isinstance(value, allowed):
        raise BadInput(
            said(
                N_("field '{name}' must be {type}, got {value}"),
                name=name,
                type=hint.__name__,
                value=repr(value),
            )
        )
    return float(typing.cast(float, value)) if hint is float else value


@dataclasses.dataclass(frozen=True)
class _Shape:
    """What decoding needs of one action class, worked out once: resolving its type hints
    (`typing.get_type_hints`) on every action was 7% of the server's time under load."""

    names: tuple[str, ...]
    allowed: frozenset[str]  # the names and "type"
    required: tuple[str, ...]
    hints: dict[str, Any]


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type[Action]) -> _Shape:
    found = _SHAPES.get(cls)
    if found is None:
        found = _SHAPES[cls] = _new_shape(cls)
    return found


def _new_shape(cls: type[Action]) -> _Shape:
    fields = dataclasses.fields(cls)
    return _Shape(
        names=tuple(f.name for f in fields),
        allowed=frozenset(["type", *(f.name for f in fields)]),
        required=tuple(
            f.name
            for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ),
        hints=typing.get_type_hints(cls),
    )


@functools.lru_cache(maxsize=256)
def _kinds(types: tuple[type[Action], ...]) -> dict[str, type[Action]]:
    return {t.kind: t for t in types}


def action_from_json(obj: Any, types: Sequence[type[Action]]) -> Action:
    """Build an action from its JSON form, or raise BadInput saying what is wrong."""
    by_kind = _kinds(tuple(types))
    if not isinstance(obj, dict):
        raise BadInput(
            said(N_("an action is a JSON object with a 'type', got {value}"), value=repr(obj))
        )
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in by_kind:
        raise BadInput(
            said(
                N_("unknown action type {kind}; known: {known}"),
                kind=repr(kind),
                known=", ".join(sorted(by_kind)),
            )
        )
    cls = by_kind[kind]
    shape = _shape(cls)
    names = shape.names
    extra = obj.keys() - shape.allowed
    if extra:
        raise BadInput(
            said(
                N_("action {kind} has no field(s) {extra}; fields: {fields}"),
                kind=repr(kind),
                extra=sorted(extra),
                fields=list(names),
            )
        )
    missing = [n for n in shape.required if n not in obj]
    if missing:
        raise BadInput(
            said(N_("action {kind} needs field(s) {missing}"), kind=repr(kind), missing=missing)
        )
    hints = shape.hints
    return cls(**{n: _coerce(n, obj[n], hints[n]) for n in names if n in obj})


def save_game(
    path: str | Path, game: Game, seed: int, history: Sequence[tuple[int, Action]]
) -> None:
    """Write a replay file: the game, its options, the seed and every decision."""
    from gamenight.engine.options import options_to_json

    doc = {
        "format": "gamenight-replay/1",
        "game": game.name,
        "options": options_to_json(game.options),
        "seed": seed,
        "history": [{"seat": seat, "action": a.to_json()} for seat, a in history],
    }
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")


def load_game(path: str | Path) -> tuple[Game, int, list[tuple[int, Action]]]:
    """Read a replay file written by `save_game`; BadInput says what is wrong with it."""
    from gamenight.engine.registry import load

    try:
        doc = json.loads(Path(path).read_text())
    except OSError as err:
        raise BadInput(
            said(N_("cannot read {path}: {problem}"), path=path, problem=err.strerror)
        ) from err
    except json.JSONDecodeError as err:
        raise BadInput(said(N_("{path} is not JSON: {error}"), path=path, error=err)) from err
    if not isinstance(doc, dict) or doc.get("format") != "gamenight-replay/1":
        raise BadInput(
            said(N_("{path} is not a gamenight replay (format gamenight-replay/1)"), path=path)
        )
    for key, kind, words in (
        ("game", str, N_("a game's name")),
        ("options", dict, N_("an object of options")),
        ("seed", int, N_("a whole number")),
        ("history", list, N_("a list of moves")),
    ):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise BadInput(
                said(N_("{path}: '{key}' must be {what}"), path=path, key=key, what=said(words))
            )
    game = load(doc["game"], **doc["options"])
    history = []
    for i, step in enumerate(doc["history"]):
        if not isinstance(step, dict) or not isinstance(step.get("seat"), int):
            raise BadInput(
                said(
                    N_("{path}: history[{index}] needs an integer 'seat' and an 'action'"),
                    path=path,
                    index=i,
                )
            )
        try:
            history.append((step["seat"], game.action_from_json(step.get("action"))))
        except BadInput as err:
            raise BadInput(
                said(N_("{path}: history[{index}]: {problem}"), path=path, index=i, problem=err)
            ) from err
    return game, doc["seed"], history
