"""The root command: the Typer app every command registers on, and `run`, which never
shows a traceback.

Start-up is kept short (`gamenight --help` and `gamenight games` in a few tenths of a
second): the command modules import what a command needs when it runs, not when it loads.
"""

from __future__ import annotations

import codecs
import sys
from typing import Annotated, Any

import typer

from gamenight.cli import output
from gamenight.cli.click_words import install, refusal
from gamenight.cli.helptext import Command, Group, filled
from gamenight.cli.output import BAD_INPUT, INTERRUPTED, STOPPED, err, fail
from gamenight.engine.registry import games
from gamenight.games.terminal_text import ASCII
from gamenight.i18n import N_, _


def _flags_without_pydantic() -> None:
    """Typer coerces every parameter's value through a pydantic TypeAdapter it builds on
    first use, even the absent value (None) of the --help and completion flags: `gamenight
    games` imported pydantic for them, 66 ms of its 0.3 s. A flag's value is a bool or
    None and needs no adapter; other parameters keep Typer's coercion. (A Typer without
    this hook is left as it is; tests/terminal/test_start_up.py would tell.)"""
    try:
        from typer import core
        from typer._coercion import PassThroughRuntimeParam
    except ImportError:  # pragma: no cover - another Typer
        return
    build = getattr(core, "build_runtime_param", None)
    if build is None or getattr(build, "gamenight", False):
        return

    def build_light(descriptor: Any) -> Any:
        if descriptor.annotation is bool and descriptor.file_annotation is None:
            return PassThroughRuntimeParam(
                annotation=bool, parameter_info=descriptor.parameter_info
            )
        return build(descriptor)

    build_light.gamenight = True  # type: ignore[attr-defined]
    core.build_runtime_param = build_light


_flags_without_pydantic()
install()  # Typer's own words (Options:, [default: ...]) from our catalogue

# Help as plain text (click's layout): Typer's Rich help loads Markdown and traceback
# modules, a third of `gamenight --help`'s start-up. Help text is then never Rich markup
# either ("[learn]" is shown as written). Every help text is in the terminal's language
# (helptext: translated when the commands are built, at each run).
app = typer.Typer(
    cls=Group,
    help=filled(
        N_("gamenight: play, simulate and study tabletop games ({games})."),
        games=", ".join(games()),
    ),
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def gamenight_version() -> str:
    """The installed gamenight's version (written into results files too)."""
    from importlib.metadata import PackageNotFoundError, version

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
            help=N_("Print the version and exit."),
        ),
    ] = False,
) -> None:
    """gamenight: play, simulate and study tabletop games."""


# The module that registers each command, in the order `--help` lists them (a new command
# is its module and a line here). Running a command imports only its own module: the
# others, and the building of their options, are a good part of the start-up.
COMMANDS = {
    "play": "gamenight.cli.table",
    "replay": "gamenight.cli.table",
    "simulate": "gamenight.cli.batch",
    "tournament": "gamenight.cli.batch",
    "report": "gamenight.cli.batch",
    "games": "gamenight.cli.info",
    "options": "gamenight.cli.info",
    "bots": "gamenight.cli.info",
    "rules": "gamenight.cli.rules",
    "learn": "gamenight.cli.learn",
    "serve": "gamenight.cli.info",
    "train": "gamenight.learn.command",
    "export": "gamenight.cli.archive",
    "tune": "gamenight.cli.tune",
}
# Commands whose module does not register itself: (function, short help); the module's HELP
# is the long help.
UNREGISTERED = {
    "train": ("train_command", N_("Train a policy for the learned bot (needs the [learn] extra).")),
    "export": (
        "export_command",
        N_("Write the open archive of played games (anonymised Parquet)."),
    ),
    "tune": (
        "tune_command",
        N_("Search a game's settings for the ones that meet a balance goal."),
    ),
}


def register_commands(argv: list[str] | None = None) -> typer.Typer:
    """The app with the command `argv` names on it, or with every command (`--help`, no
    command, a wrong one: all are listed). Each module registers its own commands when
    imported, except those in UNREGISTERED (`train` lives in learn/, the optional [learn]
    extra)."""
    import importlib

    named = argv[0] if argv else None
    for module in dict.fromkeys([COMMANDS[named]] if named in COMMANDS else COMMANDS.values()):
        found = importlib.import_module(module)
        for name, (function, short) in UNREGISTERED.items():
            known = any(command.name == name for command in app.registered_commands)
            if COMMANDS[name] == module and not known:
                long = getattr(found, "HELP", None)  # (N_-marked; else the docstring)
                app.command(name, short_help=short, help=long)(getattr(found, function))
    for command in app.registered_commands:  # each one's help in the terminal's language
        if not issubclass(command.cls or Command, Command):  # (typer's default: TyperCommand)
            command.cls = Command
    return app


def _in_ascii(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: a character the terminal cannot show is written as its ASCII
    (terminal_text.ASCII: "…" as "...", "§" as "section "), or "?" if it has none."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(ASCII.get(ch, "?") for ch in bad), error.end


codecs.register_error("gamenight-ascii", _in_ascii)


def _tolerant_streams() -> None:
    """A terminal that cannot show a character (an ASCII-only locale) gets its ASCII
    fallback instead of a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="gamenight-ascii")


def _crash_report(error: BaseException) -> str:
    """Write the traceback of an unexpected error to a file; returns its path."""
    import tempfile
    import traceback

    with tempfile.NamedTemporaryFile(
        "w", prefix="gamenight-crash-", suffix=".txt", delete=False
    ) as file:
        traceback.print_exception(error, file=file)
    return file.name


def run(argv: list[str] | None = None) -> int:
    """The command `argv` (None: this process's arguments); returns the exit code. Errors
    end as one line on stderr; Ctrl+C is left to `gamenight.cli.main`, which says it."""
    _tolerant_streams()
    output.reset()
    try:
        given = sys.argv[1:] if argv is None else argv
        code = register_commands(given)(args=given, prog_name="gamenight", standalone_mode=False)
    except typer.Abort:  # the input ended at a question (click's EOFError)
        err.print(_("stopped"))
        return STOPPED
    except typer.TyperException as error:  # a bad argument: one line, and where help is
        if type(error).__name__ == "NoArgsIsHelpError":  # `gamenight` alone: the help
            print(error.format_message())
            return 0
        message = refusal(error)  # in the terminal's language
        context = getattr(error, "ctx", None)
        see = _("see: {command} --help")
        hint = f" ({see.format(command=context.command_path)})" if context is not None else ""
        code = int(getattr(error, "exit_code", BAD_INPUT))
        fail(f"{message}{hint}", code)
        return code
    except Exception as error:  # a bug, not a person's mistake: one line, details in a file
        try:
            where = " (" + _("details in {path}").format(path=_crash_report(error)) + ")"
        except OSError:
            where = ""
        said = _("unexpected {kind}: {error}").format(kind=type(error).__name__, error=error)
        fail(f"{said}{where}", STOPPED)
        return STOPPED
    if code == INTERRUPTED and not output.said_interrupted():
        raise KeyboardInterrupt  # Typer turned a Ctrl+C nobody caught into exit 130
    return code if isinstance(code, int) else 0
