"""The `gamenight` command: play, replay, simulate and study any game in the terminal.

`app` is the Typer app; each module below registers its commands on it (a new command is a
new module and one line here). `main` is the console entry point.
"""

import inspect

from rich.markup import escape

from gamenight.cli import batch, info, table  # noqa: F401  (they register their commands)
from gamenight.cli.app import app, main
from gamenight.learn.command import train_command

# Training lives in learn/ (the optional [learn] extra). Typer reads help as Rich markup, so
# its docstring is escaped: "[learn]" would otherwise vanish from `gamenight --help`.
app.command("train", help=escape(inspect.getdoc(train_command) or ""))(train_command)

__all__ = ["app", "main"]
