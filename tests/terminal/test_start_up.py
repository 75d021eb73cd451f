"""Issue 45 item 6: the command starts fast and can be stopped at any moment.

`gamenight --help` took 1.2-1.5 s and `gamenight games` 2.5-3 s: listing the games
imported every game (Drop It's physics, numpy) and `games` built each game 24 times. Their
times are measured in bench/cli.py; here, what they must not load. Ctrl+C in the first
second of a command printed a traceback (it came while Python was still importing).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.terminal.helpers import GAMENIGHT, environment

HEAVY = ("numpy", "matplotlib", "gamenight.sim.runner", "sqlalchemy")
GAME_MODULES = ("game", "state", "bots", "terminal")


def _loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=environment()
    )
    assert run.returncode == 0, run.stderr
    loaded: list[str] = json.loads(run.stdout.strip().splitlines()[-1])
    return loaded


def _games_modules(loaded: list[str]) -> list[str]:
    """The games' own modules (not their light `__init__`) among `loaded`."""
    return [m for m in loaded if m.startswith("gamenight.games.") and m.count(".") == 3]


def test_listing_the_games_imports_only_their_declarations() -> None:
    """`gamenight.games()` imported pymunk and numpy (each game's package loaded its game)."""
    loaded = _loaded_after("import gamenight\nassert gamenight.games()")
    assert not [m for m in loaded if m in HEAVY or m == "pymunk"]
    assert _games_modules(loaded) == []


def test_the_public_api_is_the_same() -> None:
    import gamenight
    from gamenight.engine import core

    assert gamenight.games() == ["arne", "drop-it", "drop-or-stop"]
    assert gamenight.State is core.State and gamenight.BadInput is core.BadInput
    assert gamenight.load("drop-or-stop", players=3).start(7).actors
    assert sorted(gamenight.__all__) == sorted(
        ["Action", "BadInput", "Event", "Game", "IllegalAction", "Outcome", "State", "games",
         "load"]
    )  # fmt: skip
    from gamenight.games.arne import Arne
    from gamenight.games.drop_it import KEEP, SPEND, Drop

    assert Arne.__name__ == "Arne" and Drop and KEEP != SPEND


@pytest.mark.parametrize("command", ["--help", "games"])
def test_help_and_games_build_no_game(command: str) -> None:
    """`--help` needs the commands' words; `games` each game's options (validated, no game
    built: it built each game 24 times, importing every game module)."""
    loaded = _loaded_after(
        "from gamenight.cli import main\n"
        "try:\n"
        f"    main([{command!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert not [m for m in loaded if m in HEAVY]
    assert not [m for m in _games_modules(loaded) if m.rpartition(".")[2] in GAME_MODULES]
    # Drop It's options read their defaults from plain data (settings.py), not from the
    # physics engine: `games` loaded pymunk and the scoring geometry (0.41 s against 0.3 s)
    assert not [m for m in loaded if m == "pymunk" or m.endswith(("physics", "scoring"))]
    # Typer coerced the absent value of the --help and completion flags through a pydantic
    # TypeAdapter (pydantic: 66 ms of `games`); translations load Babel only when asked
    assert not [m for m in loaded if m.partition(".")[0] in LIBRARIES_NOT_AT_START]


LIBRARIES_NOT_AT_START = ("pydantic", "pydantic_core", "babel", "yaml", "markdown_it")


# The commands stopped early, and what each waits on: a long run, or a person at the prompt.
EARLY = {
    "games": ["games"],
    "play": ["play", "drop-or-stop", "--seats", "you,bot", "--seed", "1"],
    "simulate": ["simulate", "drop-or-stop", "--games", "1000000", "--workers", "1"],
}


def as_a_shell_starts_it() -> None:
    """In the child before exec: Ctrl+C as a terminal's shell leaves it (default, not
    blocked). A child inherits an ignored or blocked SIGINT from the process that starts it:
    in CI (stop 51) both cases here once ran on as if no Ctrl+C came (`play` then met the
    end of its input, `simulate` ran 60 s), which no shell does to a command it starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.parametrize("command", EARLY)
def test_ctrl_c_in_the_first_second_is_one_line(command: str) -> None:
    """Ctrl+C (SIGINT to the terminal's whole process group) at moments from 0.2 s to
    1 s after the start: never a traceback; one line, exit 130 (or done, exit 0)."""
    for delay in (0.2, 0.35, 0.5, 0.75, 1.0):
        run = subprocess.Popen(
            [*GAMENIGHT, *EARLY[command]],
            stdin=subprocess.PIPE,  # kept open: `play` waits at its prompt
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
            start_new_session=True,
            preexec_fn=as_a_shell_starts_it,
        )
        time.sleep(delay)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=60)
        lines = [line for line in err.splitlines() if line.strip()]
        assert "Traceback" not in out + err, (delay, err)
        assert run.returncode in (0, 130, -signal.SIGINT), (delay, run.returncode, err)
        assert len(lines) <= 1, (delay, err)
        if run.returncode == 130:
            assert lines and lines[0].startswith("interrupted"), (delay, err)


def test_the_table_of_commands_names_every_command() -> None:
    """Running a command imports only the module its line in COMMANDS names: a command
    missing there would be found by `--help` only."""
    import typer.main

    from gamenight.cli import app
    from gamenight.cli.root import COMMANDS

    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    assert sorted(group.commands) == sorted(COMMANDS)
    loaded = _loaded_after(
        "from gamenight.cli import main\ntry:\n    main(['games'])\nexcept SystemExit:\n    pass\n"
    )
    assert "gamenight.cli.info" in loaded and "gamenight.cli.batch" not in loaded
