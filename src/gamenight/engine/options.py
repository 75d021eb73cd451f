"""Validated game options.

A game's options are a frozen dataclass whose fields are made with `setting(...)`: the
default, a help text, and the allowed values (choices or a range). `build_options` turns
user input (Python values, or strings from a command line or a web form) into that
dataclass or raises BadInput naming the option and what is allowed. `describe_options`
gives the same table to interfaces that generate forms.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from typing import Any, TypeVar

from gamenight.engine.core import BadInput

T = TypeVar("T")

DEFAULT_CEILING_FACTOR = 100  # undeclared ceiling: 100x the default (100 for a default of 0)
MAX_TEXT = 200  # characters of one text option from untrusted input


def setting(
    default: Any,
    help: str,
    *,
    choices: tuple[Any, ...] | None = None,
    min: float | None = None,
    max: float | None = None,
    ceiling: float | None = None,
    floor: float | None = None,
    served: tuple[Any, ...] | None = None,
    seat: bool = False,
    labels: dict[Any, str] | None = None,
) -> Any:
    """A named option with its default, help and allowed values.

    ceiling/floor bound what a server accepts from untrusted people (the work a table may
    cause); served: the only values a server accepts (e.g. presets, never a file path).
    seat: the value is a seat (the engine's index, from 0) or 'random'; people read and
    type it as a player number from 1 (`player_seat`, `seat_refused`, the lobby's form).
    labels: a choice -> its name in player words, where a form shows the choices (a choice
    without one is shown as it is typed). The help and the labels are English, written as
    literal strings: each game's catalogue has them (i18n/extract.py's `extract_options`)
    and `gamenight.i18n.options_in` says them in a language.
    """
    meta = {
        "help": help,
        "choices": choices,
        "min": min,
        "max": max,
        "ceiling": ceiling,
        "floor": floor,
        "served": served,
        "seat": seat,
        "labels": dict(labels or {}),
    }
    return dataclasses.field(default=default, metadata=meta)


def _allowed(field: dataclasses.Field[Any]) -> str:
    meta = field.metadata
    if meta.get("choices"):
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    if lo is not None:
        return f"{lo} or more"
    if hi is not None:
        return f"{hi} or less"
    return "any value of the right type"


def _parse(name: str, value: Any, hint: Any) -> Any:
    """Coerce one value to the field's type; strings from a command line are parsed."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        last: BadInput | None = None
        for option in typing.get_args(hint):
            if option is type(None):
                if value is None or (isinstance(value, str) and value.lower() in ("none", "")):
                    return None
                continue
            try:
                return _parse(name, value, option)
            except BadInput as err:
                last = err
        raise last or BadInput(f"option '{name}': bad value {value!r}")
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
            return False
        raise BadInput(f"option '{name}' must be true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise BadInput(f"option '{name}' must be a whole number, got {value!r}")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise BadInput(f"option '{name}' must be a number, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise BadInput(f"option '{name}' must be text, got {value!r}")
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The options' types, evaluated once per class (1 ms each time: `gamenight games`
    validates each game's options 96 times)."""
    return typing.get_type_hints(cls)


def build_options(cls: type[T], given: dict[str, Any], game: str) -> T:
    """The options dataclass from user input, validated field by field and as a whole."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise BadInput(
            f"{game} has no option {', '.join(repr(u) for u in unknown)}; "
            f"options: {', '.join(fields)}"
        )
    hints = _hints(typing.cast(type, cls))
    values = {}
    for name, value in given.items():
        field = fields[name]
        parsed = _parse(name, value, hints[name])
        meta = field.metadata
        bad = (
            (meta.get("choices") and parsed not in meta["choices"])
            or (meta.get("min") is not None and parsed is not None and parsed < meta["min"])
            or (meta.get("max") is not None and parsed is not None and parsed > meta["max"])
        )
        if bad:
            raise BadInput(f"{game} option '{name}' = {value!r} is not allowed: {_allowed(field)}")
        values[name] = parsed
    try:
        return cls(**values)
    except (ValueError, TypeError) as err:
        if isinstance(err, BadInput):
            raise
        raise BadInput(f"{game} options: {err}") from err


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def ceiling_of(field: dataclasses.Field[Any]) -> float | None:
    """The largest number a server accepts for this option (None: not a number option)."""
    meta = field.metadata
    if meta.get("ceiling") is not None:
        return float(meta["ceiling"])
    if meta.get("max") is not None:
        return float(meta["max"])
    default: Any = field.default
    if _is_number(default):
        return float(DEFAULT_CEILING_FACTOR * max(1.0, abs(float(default))))
    return None


def check_untrusted(cls: type, given: dict[str, Any], game: str) -> None:
    """Refuse option values a server must not take from strangers (BadInput says why):
    past the option's ceiling or floor, not one of its served values, or long text."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = _hints(cls)
    for name, value in given.items():
        field = fields.get(name)
        if field is None:
            continue  # build_options names unknown options
        meta = field.metadata
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise BadInput(f"{game} option '{name}' is longer than {MAX_TEXT} characters")
        served = meta.get("served")
        if served is not None and value not in served:
            shown = ", ".join(repr(v) for v in served)
            raise BadInput(f"{game} option '{name}' on this server is a shipped preset: {shown}")
        parsed = _parse(name, value, hints[name])
        if not _is_number(parsed):
            continue
        if not math.isfinite(parsed):
            raise BadInput(f"{game} option '{name}' must be a finite number, got {value!r}")
        top = ceiling_of(field)
        if top is not None and parsed > top:
            raise BadInput(
                f"{game} option '{name}' = {value!r} is above this server's ceiling {top:g}"
            )
        bottom = meta.get("floor")
        if bottom is not None and parsed < bottom:
            raise BadInput(
                f"{game} option '{name}' = {value!r} is below this server's floor {bottom:g}"
            )


def _labels(field: dataclasses.Field[Any]) -> list[str] | None:
    """Each choice's name in player words, in the order of the choices (None: no choices)."""
    choices = field.metadata.get("choices")
    if not choices:
        return None
    named = field.metadata.get("labels") or {}
    return [named.get(choice, str(choice)) for choice in choices]


def describe_options(cls: type) -> list[dict[str, Any]]:
    """Name, type, default, help and allowed values of every option (for forms and --help),
    in English (`gamenight.i18n.options_in`: in a language); `labels`: the choices' names
    in player words, in their order."""
    hints = _hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        rows.append(
            {
                "name": f.name,
                "type": getattr(hints[f.name], "__name__", str(hints[f.name])),
                "default": f.default,
                "help": f.metadata.get("help", ""),
                "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                "labels": _labels(f),
                "min": f.metadata.get("min"),
                "max": f.metadata.get("max"),
                "ceiling": ceiling_of(f),
                "floor": f.metadata.get("floor"),
                "served": list(f.metadata["served"]) if f.metadata.get("served") else None,
                "seat": bool(f.metadata.get("seat")),
            }
        )
    return rows


def seat_options(cls: type) -> tuple[str, ...]:
    """The names of the options declared `seat=True`."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("seat"))


def as_people_read(cls: type, options: dict[str, Any]) -> str:
    """`name=value, ...` as a person reads and types them: a seat option's seat index as
    its player number (first_seat=0 is "first_seat=1"); "default options" for none."""
    seats = seat_options(cls)

    def read(name: str, value: Any) -> Any:
        if name in seats and not isinstance(value, bool):
            if isinstance(value, int):
                return value + 1
            if isinstance(value, str) and value.isascii() and value.isdigit():
                return int(value) + 1
        return value

    return ", ".join(f"{k}={read(k, v)}" for k, v in options.items()) or "default options"


def player_seat(name: str, typed: str) -> int | str:
    """A seat option as a person types it (a player number from 1, or 'random') as the
    engine takes it (the seat index from 0, or 'random'); BadInput in player words."""
    text = typed.strip()
    if text.lower() == "random":
        return "random"
    number = int(text) if text.isascii() and text.isdigit() else 0
    if number < 1:
        raise BadInput(
            f"option '{name}' is a player number (1 for the first player) or 'random', "
            f"got {typed[:40]!r}"
        )
    return number - 1


def seat_refused(game: str, name: str, value: Any, count: int, who: str = "player") -> None:
    """Refuse a seat option that names none of `count` seats (BadInput, or None if it is
    'random' or a seat 0..count-1): in player numbers first, as people count, then the
    engine's index for programs. `who`: "player", or "team" where the seats are teams."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if value == "random" or (whole and 0 <= value < count):
        return
    allowed = f"{who} 1 to {count}, or 'random'"
    if whole:
        raise BadInput(
            f"{game} option '{name}': there is no {who} {value + 1} of {count} (seat index "
            f"{value}; the engine counts seats from 0); choose {allowed}"
        )
    raise BadInput(f"{game} option '{name}' must be {allowed}, got {str(value)[:40]!r}")


def options_to_json(options: Any) -> dict[str, Any]:
    """The options that differ from their defaults, so saved files stay short, and those
    the options' `kept_in_json()` names: an option whose default depends on another (a
    Drop or Stop deck file's settings), left out at the engine's default, would come back
    as the other option's value when the options are read back."""
    kept = set(options.kept_in_json()) if hasattr(options, "kept_in_json") else set()
    return {
        f.name: getattr(options, f.name)
        for f in dataclasses.fields(options)
        if f.name in kept or getattr(options, f.name) != f.default
    }
