"""The `gamenight` command: play, replay, simulate and study any game in the terminal.

`main` is the console entry point; `app` is the Typer app with every command (each module
of this package registers its commands on it: a new command is a new module and one line
in `root.register_commands`). Nothing is imported before `main` runs, so that Ctrl+C at any
moment, even while the command is still loading, ends in one line and never a traceback.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (`typing` and `signal` are not imported before `main` runs)
if TYPE_CHECKING:
    from typing import Any

    from gamenight.cli.root import app

INTERRUPTED = 130  # as cli/output.py (not imported here: it loads Rich)

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """The `gamenight` entry point: every ending is an exit code and at most one line on
    stderr (`argv` None: the command line of this process, which ends with it)."""
    ends_the_process = argv is None
    try:
        from gamenight.cli.root import run

        code = run(argv)
    except KeyboardInterrupt:  # Ctrl+C while loading, or while saying how a run ended
        if ends_the_process:  # a second Ctrl+C now ends the process at once, quietly
            _default_ctrl_c()
        sys.stderr.write("interrupted\n")
        code = INTERRUPTED
    if ends_the_process:  # nor does Ctrl+C print a traceback while Python shuts down
        _default_ctrl_c()
    if code:
        sys.exit(code)


def _default_ctrl_c() -> None:
    """From now on Ctrl+C ends the process as the system does, without Python's traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def __getattr__(name: str) -> Any:
    if name != "app":
        raise AttributeError(f"module 'gamenight.cli' has no attribute {name!r}")
    from gamenight.cli.root import register_commands

    globals()["app"] = register_commands()
    return globals()["app"]
