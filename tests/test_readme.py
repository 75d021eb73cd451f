"""The READMEs' examples run as written, and README.md's bot tables agree with the code.

`python tests/test_readme.py` prints the bot tables as README.md should have them.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ADAPTERS = ROOT / "src" / "gamenight" / "adapters" / "README.md"
DROP_OR_STOP = ROOT / "src" / "gamenight" / "games" / "drop_or_stop" / "README.md"
EXAMPLE_DECK = ROOT / "docs" / "drop-or-stop-deck.json"


def _blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(), re.S)


def _run(block: str, name: str) -> dict[str, object]:
    namespace: dict[str, object] = {}
    exec(compile(block, name, "exec"), namespace)
    return namespace


def test_readme_python_example_runs():
    blocks = _blocks(README, "python")
    assert blocks, "README has a python example"
    namespace = _run(blocks[0], "README.md")
    final = namespace["final"]
    assert final.over  # type: ignore[attr-defined]
    assert namespace["game"].players == 3  # type: ignore[attr-defined]


def bot_tables() -> str:
    """README.md's bot tables, made from the code: every bot of each game (the default
    first), then each level's seat for every group of table sizes with the same levels."""
    from gamenight import bots
    from gamenight.engine.registry import games, spec

    lines = ["| game | bots (the default first) |", "| --- | --- |"]
    for name in games():
        default = bots.default_bot(name)
        names = [f"`{default}` (default)"]
        names += [f"`{b}`" for b in sorted(set(bots.available(name)) - {default})]
        lines.append(f"| {name} | {', '.join(names)} |")
    lines += ["", "| game | players | easy | medium | hard |", "| --- | --- | --- | --- | --- |"]
    for name in games():
        low, high = spec(name).players
        groups: list[tuple[int, int, dict[str, str]]] = []
        for n in range(low, high + 1):
            levels = bots.levels(name, n)
            if groups and groups[-1][2] == levels:
                groups[-1] = (groups[-1][0], n, levels)
            else:
                groups.append((n, n, levels))
        for first, last, levels in groups:
            count = str(first) if first == last else f"{first}-{last}"
            seats = " | ".join(f"`{levels[level]}`" for level in bots.LEVELS)
            lines.append(f"| {name} | {count} | {seats} |")
    return "\n".join(lines) + "\n"


def test_readme_bot_tables_agree_with_the_code():
    # made in a fresh interpreter: a test may register a bot of its own in this one
    tables = subprocess.run(
        [sys.executable, __file__], capture_output=True, text=True, check=True
    ).stdout
    assert tables in README.read_text(), (
        "README.md's bot tables differ from the code; they should read:\n" + tables
    )


# -- src/gamenight/adapters/README.md -------------------------------------------------------


def test_adapters_readme_python_examples_run():
    blocks = _blocks(ADAPTERS, "python")
    assert len(blocks) >= 2, "the adapters README has its examples"
    for i, block in enumerate(blocks):
        _run(block, f"adapters/README.md block {i}")


def test_adapters_readme_openspiel_example_loads_the_game():
    pyspiel = pytest.importorskip("pyspiel")
    namespace = _run(_blocks(ADAPTERS, "python")[0], "adapters/README.md")
    game = namespace["game"]
    assert isinstance(game, pyspiel.Game)
    assert game.num_players() == 4
    assert game.get_parameters()["learning"] is True


def test_adapters_readme_illegal_action_example_shows_what_it_says():
    """The README's illegal-action example: `env()` ends the game, -1 for the mover and
    0 for the others, nothing raised; `raw_env()` raises and keeps the state."""
    namespace = _run(_blocks(ADAPTERS, "python")[1], "adapters/README.md")
    assert namespace["wrapped_rewards"] == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}
    assert namespace["raised"] == "IllegalAction"
    assert namespace["unchanged"] is True


# -- src/gamenight/games/drop_or_stop/README.md: the deck file --------------------------------


def test_drop_or_stop_readme_deck_example_is_the_example_file_and_loads():
    import json

    from gamenight.engine import load
    from gamenight.games.drop_or_stop.components import load_deck

    blocks = _blocks(DROP_OR_STOP, "json")
    assert blocks, "the Drop or Stop README shows a deck file"
    assert json.loads(blocks[0]) == json.loads(EXAMPLE_DECK.read_text())
    assert load_deck(str(EXAMPLE_DECK)).size == 39
    game = load("drop-or-stop", players=2, deck=str(EXAMPLE_DECK))
    assert game.options.target == json.loads(blocks[0])["target"]  # the file's setting
    assert load("drop-or-stop", deck=str(EXAMPLE_DECK), target=11).options.target == 11


def test_drop_or_stop_readme_simulate_command_runs(monkeypatch):
    """The README's command, run from the repository's root as written."""
    from typer.testing import CliRunner

    from gamenight.cli import app

    line = next(
        line
        for line in "\n".join(_blocks(DROP_OR_STOP, "sh")).splitlines()
        if line.startswith("gamenight simulate")
    )
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, shlex.split(line.split("#")[0])[1:])
    assert result.exit_code == 0, result.output


if __name__ == "__main__":
    print(bot_tables(), end="")
