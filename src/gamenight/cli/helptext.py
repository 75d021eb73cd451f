"""Help in the terminal's language (issue 46): every help text, placeholder (`--games
NUMBER`) and word of the frame around them (Usage:, Options:, [default: ...]).

A help text is written once, in English, marked with N_ where it is declared (in an
`Annotated` option or `@app.command(help=...)`), and translated when the command is built:
Typer builds the click commands afresh at each run, so `Command` and `Group` translate their
help, their options' help and placeholders in the language of that run (LANG, or `use`).
A help text with a value in it is declared with `filled` ("one of: {games}"), so that it is
translated before the value goes in. The frame's own words are in `click_words`.
"""

from __future__ import annotations

import weakref
from typing import Any

import typer
from typer._click.formatting import HelpFormatter
from typer.core import TyperCommand, TyperGroup

from gamenight.i18n import _

# English text as declared -> (message, its fields): the texts declared with `filled`.
_FILLED: dict[str, tuple[str, dict[str, str]]] = {}


def filled(message: str, **fields: str) -> str:
    """`message` with `fields` put in, in English now; `said` later puts them into its
    translation (`filled(N_("one of: {games}"), games="arne, drop-it")`)."""
    english = message.format(**fields)
    _FILLED[english] = (message, fields)
    return english


def said(text: str | None) -> str | None:
    """A declared help text or placeholder in the current language (None and "" as they
    are: gettext's "" is the catalogue's header)."""
    if not text:
        return text
    message, fields = _FILLED.get(text, (text, {}))
    return _(message).format(**fields) if fields else _(message)


class Formatter(HelpFormatter):
    """Click's help layout with "Usage:" in the terminal's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        usage = _("Usage:") + " "  # (a `_` inside an f-string is not extracted)
        super().write_usage(prog, args, usage if prefix is None else prefix)


class Context(typer.Context):
    formatter_class = Formatter


# The parameters already translated (a command's are translated once, when first asked
# for: the help option and completion options are added after the command is built).
_translated: weakref.WeakSet[Any] = weakref.WeakSet()


class _Said:
    """What Command and Group share: their words translated when built."""

    help: str | None
    short_help: str | None
    options_metavar: str | None

    def _translate(self) -> None:
        self.help = said(self.help)
        self.short_help = said(self.short_help)
        self.options_metavar = said(self.options_metavar)  # "[OPTIONS]"

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if param not in _translated:
                param.help = said(param.help)
                param.metavar = said(param.metavar)
                _translated.add(param)
        return params


class Command(_Said, TyperCommand):
    """A command whose help is in the terminal's language."""

    context_class = Context

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._translate()


class Group(_Said, TyperGroup):
    """The root command: its help, and its list of commands, in the terminal's language."""

    context_class = Context

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._translate()
        self.subcommand_metavar = _(self.subcommand_metavar)  # "COMMAND [ARGS]..."
