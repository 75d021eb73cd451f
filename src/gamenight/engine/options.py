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

from gamenight.engine.core import BadInput, Reason, said
from gamenight.i18n import N_

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


def _allowed(field: dataclasses.Field[Any]) -> Reason:
    """What an option allows, as a piece of a sentence ("one of 'a', 'b'")."""
    meta = field.metadata
    if meta.get("choices"):
        return said(N_("one of {choices}"), choices=", ".join(repr(c) for c in meta["choices"]))
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and hi is not None:
        return said(N_("from {low} to {high}"), low=lo, high=hi)
    if lo is not None:
        return said(N_("{low} or more"), low=lo)
    if hi is not None:
        return said(N_("{high} or less"), high=hi)
    return said(N_("any value of the right type"))


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
        raise last or BadInput(
            said(N_("option '{name}': bad value {value}"), name=name, value=repr(value))
        )
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
            return False
        raise BadInput(
            said(
                N_("option '{name}' must be true or false, got {value}"),
                name=name,
                value=repr(value),
            )
        )
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise BadInput(
            said(
                N_("option '{name}' must be a whole number, got {value}"),
                name=name,
                value=repr(value),
            )
        )
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise BadInput(
            said(N_("option '{name}' must be a number, got {value}"), name=name, value=repr(value))
        )
    if hint is str:
        if isinstance(value, str):
            return value
        raise BadInput(
            said(N_("option '{name}' must be text, got {value}"), name=name, value=repr(value))
        )
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
            said(
                N_("{game} has no option {names}; options: {options}"),
                game=game,
                names=", ".join(repr(u) for u in unknown),
                options=", ".join(fields),
            )
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
            raise BadInput(
                said(
                    N_("{game} option '{name}' = {value} is not allowed: {allowed}"),
                    game=game,
                    name=name,
                    value=repr(value),
                    allowed=_allowed(field),
                )
            )
        values[name] = parsed
    try:
        return cls(**values)
    except (ValueError, TypeError) as err:
        if isinstance(err, BadInput):
            raise
        raise BadInput(said(N_("{game} options: {problem}"), game=game, problem=err)) from err


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
            raise BadInput(
                said(
                    N_("{game} option '{name}' is longer than {limit} characters"),
                    game=game,
                    name=name,
                    limit=MAX_TEXT,
                )
            )
        served = meta.get("served")
        if served is not None and value not in served:
            shown = ", ".join(repr(v) for v in served)
            raise BadInput(
                said(
                    N_("{game} option '{name}' on this server is a shipped preset: {presets}"),
                    game=game,
                    name=name,
                    presets=shown,
                )
            )
        parsed = _parse(name, value, hints[name])
        if not _is_number(parsed):
            continue
        if not math.isfinite(parsed):
            raise BadInput(
                said(
                    N_("{game} option '{name}' must be a finite number, got {value}"),
                    game=game,
                    name=name,
                    value=repr(value),
                )
            )
        top = ceiling_of(field)
        if top is not None and parsed > top:
            raise BadInput(
                said(
                    N_("{game} option '{name}' = {value} is above this server's ceiling {ceiling}"),
                    game=game,
                    name=name,
                    value=repr(value),
                    ceiling=f"{top:g}",
                )
            )
        bottom = meta.get("floor")
        if bottom is not None and parsed < bottom:
            raise BadInput(
                said(
                    N_("{game} option '{name}' = {value} is below this server's floor {floor}"),
                    game=game,
                    name=name,
                    value=repr(value),
                    floor=f"{bottom:g}",
                )
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
            said(
                N_(
                    "option '{name}' is a player number (1 for the first player) or 'random', "
                    "got {typed}"
                ),
                name=name,
                typed=repr(typed[:40]),
            )
        )
    return number - 1


def seat_refused(game: str, name: str, value: Any, count: int, who: str = "player") -> None:
    """Refuse a seat option that names none of `count` seats (BadInput, or None if it is
    'random' or a seat 0..count-1): in player numbers first, as people count, then the
    engine's index for programs. `who`: "player", or "team" where the seats are teams."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if value == "random" or (whole and 0 <= value < count):
        return
    words: dict[str, object] = {"game": game, "name": name, "count": count, "who": who}
    if whole:
        raise BadInput(
            said(_NO_SUCH_SEAT.get(who, _NO_SUCH_SEAT[""]), number=value + 1, index=value, **words)
        )
    typed = repr(str(value)[:40])
    raise BadInput(said(_NOT_A_SEAT.get(who, _NOT_A_SEAT[""]), value=typed, **words))


# seat_refused's sentences for a player's and a team's seat ("": another `who`, its word
# as it is)
_NO_SUCH_SEAT = {
    "player": N_(
        "{game} option '{name}': there is no player {number} of {count} (seat index "
        "{index}; the engine counts seats from 0); choose player 1 to {count}, or 'random'"
    ),
    "team": N_(
        "{game} option '{name}': there is no team {number} of {count} (seat index "
        "{index}; the engine counts seats from 0); choose team 1 to {count}, or 'random'"
    ),
    "": N_(
        "{game} option '{name}': there is no {who} {number} of {count} (seat index "
        "{index}; the engine counts seats from 0); choose {who} 1 to {count}, or 'random'"
    ),
}
_NOT_A_SEAT = {
    "player": N_("{game} option '{name}' must be player 1 to {count}, or 'random', got {value}"),
    "team": N_("{game} option '{name}' must be team 1 to {count}, or 'random', got {value}"),
    "": N_("{game} option '{name}' must be {who} 1 to {count}, or 'random', got {value}"),
}


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
