"""The `gamenight` command as a person uses it (typer's runner feeds the keyboard)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gamenight.cli import app
from gamenight.engine import load_game

runner = CliRunner()


def test_play_explains_bad_input_and_finishes(tmp_path):
    save = tmp_path / "game.json"
    keys = "x\nd\n" + "s\n" * 300
    result = runner.invoke(
        app,
        ["play", "drop-or-stop", "--seats", "you,bot,bot", "--seed", "3", "--save", str(save)],
        input=keys,
    )
    assert result.exit_code == 0, result.output
    assert "type d (drop) or s (stop), not 'x'" in result.output
    assert "Your hand:" in result.output and "your total:" in result.output
    assert "reveal:" in result.output
    assert "Game over: " in result.output
    game, seed, history = load_game(save)
    assert seed == 3 and game.players == 3
    final = game.replay(seed, history)
    assert final.over
    winners = final.outcome().winners
    assert f"Game over: player {winners[0] + 1} " in result.output  # players count from 1
    assert ("You win." if winners == [0] else f"Player {winners[0] + 1} wins") in result.output


def test_replay_shows_moves_and_reaches_the_same_end(tmp_path):
    save = tmp_path / "game.json"
    runner.invoke(
        app,
        ["play", "drop-or-stop", "--seats", "bot,bot:random", "--seed", "8", "--save", str(save)],
    )
    result = runner.invoke(app, ["replay", str(save), "--reveal"])
    assert result.exit_code == 0, result.output
    game, seed, history = load_game(save)
    assert f"{len(history):4d}. player" in result.output
    out = game.replay(seed, history).outcome()
    winners = " and ".join(f"player {s + 1}" for s in out.winners)
    assert f"Game over: {winners} " in result.output


def test_play_with_unfinished_input_saves_what_was_played(tmp_path):
    save = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "drop-or-stop", "--seats", "you,bot", "--seed", "1", "--save", str(save)],
        input="d\n",
    )
    assert "game left unfinished" in result.output
    _, _, history = load_game(save)
    assert history


def test_bad_option_and_bad_seat_are_clear_errors():
    result = runner.invoke(app, ["play", "drop-or-stop", "--seats", "you,bot", "--set", "target=x"])
    assert result.exit_code == 2 and "must be a whole number" in result.output
    result = runner.invoke(app, ["play", "drop-or-stop", "--seats", "you,bot:genius"])
    assert result.exit_code == 2 and "has no bot 'genius'" in result.output
    result = runner.invoke(app, ["play", "drop-or-stop", "--seats", "you"])
    assert result.exit_code == 2 and "2-4 players" in result.output


def test_replay_of_a_broken_file_is_a_clear_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "gamenight-replay/1", "game": "drop-or-stop"}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "'options' must be an object of options" in result.output


def test_simulate_prints_a_table(tmp_path):
    out = tmp_path / "r.json"
    args = ["simulate", "drop-or-stop", "--games", "300", "--bots", "threshold,random"]
    result = runner.invoke(app, [*args, "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "rounds per game" in result.output
    rows = json.loads(out.read_text())["results"]
    assert len(rows) == 300
    wins = sum(0 in r["winners"] for r in rows)
    assert wins > 200  # the threshold bot is far better than random


def test_simulate_is_the_same_for_any_number_of_workers(tmp_path):
    results = []
    for workers in ("1", "2"):
        out = tmp_path / f"r{workers}.json"
        args = ["simulate", "drop-or-stop", "--games", "60", "--bots", "threshold,random,random"]
        runner.invoke(app, [*args, "--workers", workers, "--seed", "4", "--out", str(out)])
        results.append(json.loads(out.read_text()))
    assert results[0] == results[1] and len(results[0]["results"]) == 60


def test_listing_commands():
    assert "drop-or-stop" in runner.invoke(app, ["games"]).output
    assert "threshold" in runner.invoke(app, ["bots", "drop-or-stop"]).output
    assert "wins_to_win" in runner.invoke(app, ["options", "drop-or-stop"]).output
