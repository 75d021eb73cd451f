"""The Typer app every command registers on, and `main`, which never shows a traceback."""

from __future__ import annotations

import sys
import tempfile
import traceback
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from gamenight.cli.output import BAD_INPUT, INTERRUPTED, STOPPED, err, fail
from gamenight.engine.registry import games

app = typer.Typer(
    help=f"gamenight: play, simulate and study tabletop games ({', '.join(games())}).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def gamenight_version() -> str:
    """The installed gamenight's version (written into results files too)."""
    try:
        return version("gamenight")
    except PackageNotFoundError:
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        print(f"gamenight {gamenight_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_show_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """gamenight: play, simulate and study tabletop games."""


def _tolerant_streams() -> None:
    """A terminal that cannot show a character (an ASCII-only locale) gets '?' instead of
    a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def _crash_report(error: BaseException) -> str:
    """Write the traceback of an unexpected error to a file; returns its path."""
    with tempfile.NamedTemporaryFile(
        "w", prefix="gamenight-crash-", suffix=".txt", delete=False
    ) as file:
        traceback.print_exception(error, file=file)
    return file.name


def main(argv: list[str] | None = None) -> None:
    """The `gamenight` entry point: errors end as one line on stderr and an exit code."""
    _tolerant_streams()
    try:
        code = app(args=argv, prog_name="gamenight", standalone_mode=False)
    except typer.Abort:
        err.print("stopped")
        sys.exit(STOPPED)
    except typer.TyperException as error:  # a bad argument: one line, and where help is
        message = error.format_message() if hasattr(error, "format_message") else str(error)
        if type(error).__name__ == "NoArgsIsHelpError":  # `gamenight` alone: the help
            print(message)
            sys.exit(0)
        context = getattr(error, "ctx", None)
        hint = f" (see: {context.command_path} --help)" if context is not None else ""
        code = int(getattr(error, "exit_code", BAD_INPUT))
        fail(f"{message}{hint}", code)
        sys.exit(code)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(INTERRUPTED)
    except Exception as error:  # a bug, not a person's mistake: one line, details in a file
        try:
            where = f" (details in {_crash_report(error)})"
        except OSError:
            where = ""
        fail(f"unexpected {type(error).__name__}: {error}{where}", STOPPED)
        sys.exit(STOPPED)
    if isinstance(code, int) and code:
        sys.exit(code)
