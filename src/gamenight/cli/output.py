"""Where the command writes: results on stdout, errors on stderr, never as Rich markup.

Both consoles have markup off, so a `[` typed by a person, in a file name or in a card
name is shown as typed; styles come only from `Text` objects built here.
"""

from __future__ import annotations

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from gamenight.i18n import DEFAULT, _, current
from gamenight.i18n.refusals import translate

out = Console(markup=False, highlight=False)
err = Console(stderr=True, markup=False, highlight=False)

# Exit codes: 0 done, 1 stopped early (input ended, a failure of the machine), 2 bad input
# (a wrong argument, file or option), 130 interrupted by Ctrl+C (the shell's convention).
STOPPED = 1
BAD_INPUT = 2
INTERRUPTED = 130


def say(text: str, style: str | None = None) -> None:
    """One piece of text on stdout, shown exactly as given."""
    out.print(Text(text, style=style or ""))


def show(renderable: RenderableType) -> None:
    out.print(renderable)


def one_line(message: str) -> str:
    """`message` on one line, in the terminal's language when it is a sentence the engine
    or the server says (a `Reason`: an option's, a move's or a file's problem)."""
    return " ".join(translate(message).split())


def warn(message: str) -> None:
    """A one-line notice on stderr (something went wrong, the command goes on)."""
    err.print(Text.assemble((_("note") + ": ", "yellow"), one_line(message)), soft_wrap=True)


def fail(message: str, code: int = BAD_INPUT) -> typer.Exit:
    """Print one line `error: ...` on stderr; returns the Exit to raise."""
    err.print(Text.assemble((_("error") + ": ", "bold red"), one_line(message)), soft_wrap=True)
    return typer.Exit(code)


_said = {"interrupted": False}


def reset() -> None:
    """A new command in this process (tests run several): nothing said yet."""
    _said["interrupted"] = False


def said_interrupted() -> bool:
    return _said["interrupted"]


def interrupted(message: str) -> typer.Exit:
    """Ctrl+C during a run: one line on stderr saying how far it got and what was kept,
    in yellow (a person stopped it; it is not an error); returns the Exit (130) to raise."""
    err.print(
        Text.assemble((_("interrupted") + " ", "bold yellow"), one_line(message)), soft_wrap=True
    )
    _said["interrupted"] = True
    return typer.Exit(INTERRUPTED)


# Numbers as the terminal's language writes them (1,234.5 / 1.234,5 / 1 234,5; 12.5% /
# 12,5 %): the digits are Python's rounding of the value, so an English line is the same
# whatever the language code did, and only the separators and the percent sign change.
def whole(n: int) -> str:
    """A whole number with its thousands grouped: 1,000 / 1.000 / 1 000."""
    return _localized(f"{n:,}")


def fixed(value: float, digits: int = 2, sign: bool = False) -> str:
    """`value` with `digits` decimals (and a + before a positive one if `sign`)."""
    return _localized(f"{value:{'+' if sign else ''},.{digits}f}")


def significant(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant digits (0.0123, 1.2e-05)."""
    return _localized(f"{value:.{digits}g}")


def percent(share: float, digits: int = 1, sign: bool = False) -> str:
    """A share (0.125) as a percentage: 12.5% / 12,5 % / 12,5%."""
    figure = fixed(100 * share, digits, sign)
    lang = current()
    if lang == DEFAULT:
        return f"{figure}%"
    from babel.numbers import format_percent

    return format_percent(0, locale=lang).replace("0", figure, 1)


def _localized(english: str) -> str:
    lang = current()
    if lang == DEFAULT:
        return english
    from babel.numbers import get_decimal_symbol, get_group_symbol

    symbols = {",": get_group_symbol(lang), ".": get_decimal_symbol(lang)}
    return "".join(symbols.get(ch, ch) for ch in english)
