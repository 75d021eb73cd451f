"""The words Typer and its click write around ours, in the terminal's language (issue 46).

Typer 0.29 carries its own click (`typer._click`). A few of its words (Options:, [default:
...], No such command) are read through gettext's `_` in `typer.core`, which `install` binds
to our catalogue; the rest are written in its code, so they are said again here, in the same
English words, from our catalogue: the usage line and the help option by helptext's classes,
the completion options' help by `helptext.said`, a refusal of what was typed by `refusal`.
Extraction cannot find any of them in Typer, so each is listed here with N_ (the msgids are
Typer's own English, so English reads as Typer writes it).
"""

from __future__ import annotations

import re
from typing import Any

import typer.core
from typer._click import exceptions as click_errors

from gamenight.i18n import N_, _, ngettext

# Read by typer.core through its `_` (see `install`).
TYPER_CORE = (
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    N_("No such command {name!r}."),
    N_("Missing command."),
    N_("Aborted!"),
    N_("(dynamic)"),
    N_("env var: {var}"),
)
# Written in typer's code; said again by helptext (the usage line, the placeholders, the help
# and completion options).
FRAME = (
    N_("Usage:"),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
# Why a typed value is refused, as pydantic says it (typer checks values with it): its error
# type -> its message, with the error's limits as fields.
VALUE_REFUSALS = {
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "less_than": N_("Input should be less than {lt}"),
}


def install() -> None:
    """typer.core's words from our catalogue, in the language of the moment."""
    typer.core._ = _


_EXTRA = re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", re.S)
_SUGGESTED = re.compile(r"(?P<message>.*)\. Did you mean (?P<names>.*)\?", re.S)
_NO_VALUE = re.compile(r"Option (?P<name>.*) does not take a value\.", re.S)
_NEEDS_VALUE = re.compile(r"Option (?P<name>.*) requires an argument\.", re.S)


def refusal(error: Exception) -> str:
    """A refusal of what was typed (a click UsageError) in the terminal's language; one
    Typer words differently from these is shown as it says it (English)."""
    if isinstance(error, click_errors.NoSuchOption):
        said = _("No such option: {option}").format(option=error.option_name)
        if error.possibilities:
            options = ", ".join(sorted(error.possibilities))
            said += " " + _("(Possible options: {options})").format(options=options)
        return said
    if isinstance(error, click_errors.MissingParameter):
        return _missing(error)
    if isinstance(error, click_errors.BadParameter):
        name = _hint(error)
        reason = _value_refusal(error)
        if name is None:
            return _("Invalid value: {reason}").format(reason=reason)
        return _("Invalid value for {name}: {reason}").format(name=name, reason=reason)
    message = str(getattr(error, "message", error))
    suggested = _SUGGESTED.fullmatch(message)
    if suggested:  # "No such command 'plya'. Did you mean 'play'?" (the first part: typer.core)
        mean = _("Did you mean {commands}?").format(commands=suggested["names"])
        return f"{suggested['message']}. {mean}"
    extra = _EXTRA.fullmatch(message)
    if extra:
        count = len(extra["args"].split())
        return ngettext(
            "Got unexpected extra argument ({arguments})",
            "Got unexpected extra arguments ({arguments})",
            count,
        ).format(arguments=extra["args"])
    for pattern, words in (
        (_NO_VALUE, N_("Option {name} does not take a value.")),
        (_NEEDS_VALUE, N_("Option {name} requires an argument.")),
    ):
        found = pattern.fullmatch(message)
        if found:
            return _(words).format(name=found["name"])
    formatted = getattr(error, "format_message", None)
    return str(formatted()) if formatted is not None else message


def _hint(error: Any) -> str | None:
    """The parameter a refusal is about, as click names it ('--games', 'GAME')."""
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint()
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    return hint


def _missing(error: Any) -> str:
    name = _hint(error)
    kind = error.param_type or (error.param.param_type_name if error.param else "parameter")
    if kind == "argument":
        said = _("Missing argument {name}.")
    elif kind == "option":
        said = _("Missing option {name}.")
    else:
        said = _("Missing parameter {name}.")
    return said.format(name=name or "").replace(" .", ".")


def _value_refusal(error: Any) -> str:
    """Why a value was refused: pydantic's reason in our words, when we know it."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
        except (IndexError, TypeError):
            first = None
        if first is not None and first.get("type") in VALUE_REFUSALS:
            limits = {key: str(value) for key, value in (first.get("ctx") or {}).items()}
            return _(VALUE_REFUSALS[first["type"]]).format(**limits)
    return str(error.message)
