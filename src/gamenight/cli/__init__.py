"""The `gamenight` command: play, replay, simulate and study any game in the terminal.

`app` is the Typer app; each module below registers its commands on it (a new command is a
new module and one line here). `main` is the console entry point.
"""

from gamenight.cli import batch, info, table  # noqa: F401  (they register their commands)
from gamenight.cli.app import app, main
from gamenight.learn.command import train_command

app.command("train")(train_command)  # training lives in learn/ (the optional [learn] extra)

__all__ = ["app", "main"]
