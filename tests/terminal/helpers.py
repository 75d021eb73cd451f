"""Run the `gamenight` command in this process, as the console entry point runs it."""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest.mock import patch

import gamenight
from gamenight.cli import main

# The gamenight these tests import (the source tree, or another one first on PYTHONPATH):
# what a command started in another process runs too.
SRC = str(Path(gamenight.__file__).resolve().parents[1])
GAMENIGHT = [sys.executable, "-c", "from gamenight.cli import main; main()"]


def environment(**extra: str) -> dict[str, str]:
    """This process's environment for a `gamenight` started in another process."""
    return {**os.environ, "PYTHONPATH": SRC, **extra}


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


def gamenight(*argv: str, keys: str = "") -> Run:
    """`gamenight ARGV` with `keys` typed at the keyboard (then the input ends)."""
    stdin, stdout, stderr = io.StringIO(keys), io.StringIO(), io.StringIO()
    code = 0
    with (
        patch.object(sys, "stdin", stdin),
        patch.object(sys, "stdout", stdout),
        patch.object(sys, "stderr", stderr),
    ):
        try:
            main(list(argv))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    return Run(code, stdout.getvalue(), stderr.getvalue())


def assert_one_line_error(run: Run) -> None:
    """A failure a person caused or met: non-zero exit, exactly one line on stderr, which
    is ours (not a traceback, not an unexpected error)."""
    assert run.code != 0, run
    assert len(run.err_lines) == 1, run.err
    line = run.err_lines[0]
    assert line.startswith("error: "), line
    assert "unexpected" not in line and "Traceback" not in run.out + run.err, run


def assert_one_line_interrupted(run: Run) -> None:
    """A run a person stopped with Ctrl+C: exit 130 and one line on stderr saying so,
    not as an error (no "error:", which the terminal shows in red)."""
    assert run.code == 130, run
    assert len(run.err_lines) == 1, run.err
    assert run.err_lines[0].startswith("interrupted"), run.err_lines[0]
    assert "Traceback" not in run.out + run.err, run
