"""`simulate`, `tournament` and `report` as a new user meets them: Ctrl+C, what a results
file records, per-round stats, the batched path's stats, and small refusals and notes.
Each test failed on the code before these fixes."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamenight.engine.core import Outcome
from gamenight.sim import runner
from gamenight.sim.runner import GameResult, Tally
from tests.terminal.helpers import Run, gamenight

QUICK = ("--workers", "1")


@pytest.fixture
def ctrl_c_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`ctrl_c_after(k)`: the (k+1)-th game played in this process raises KeyboardInterrupt,
    as Ctrl+C does mid-game (one worker: the games are played here)."""
    real = runner.play_one

    def arm(k: int) -> None:
        played = [0]

        def play_one(job: runner.Job, index: int) -> GameResult:
            if played[0] >= k:
                raise KeyboardInterrupt
            played[0] += 1
            return real(job, index)

        monkeypatch.setattr(runner, "play_one", play_one)

    yield arm


def _interrupted_line(run: Run) -> str:
    assert run.code == 130, run
    assert "Traceback" not in run.out + run.err, run
    assert len(run.err_lines) == 1, run.err
    return run.err_lines[0]


# -- 1: Ctrl+C -----------------------------------------------------------------------------------
def test_interrupted_simulate_says_what_it_kept_in_a_valid_file(tmp_path: Path, ctrl_c_after):
    out = tmp_path / "int.json"
    out.write_text("[1, 2]")  # an earlier run's results
    ctrl_c_after(4)
    run = gamenight("simulate", "drop-or-stop", "--games", "30", "--bots", "random,random",
                    *QUICK, "--out", str(out))  # fmt: skip
    line = _interrupted_line(run)
    assert (
        line == f'interrupted after 4 of 30 games; those 4 are in {out} (marked "complete": false)'
    )
    written = json.loads(out.read_text())
    assert written["complete"] is False and written["played"] == 4
    assert [r["index"] for r in written["results"]] == [0, 1, 2, 3]
    assert [p.name for p in tmp_path.iterdir()] == ["int.json"]  # no temporary file left


def test_an_existing_file_is_kept_until_there_is_something_to_replace_it(
    tmp_path: Path, ctrl_c_after
):
    out = tmp_path / "int.json"
    out.write_text("[1, 2]")
    ctrl_c_after(0)
    run = gamenight("simulate", "drop-or-stop", "--games", "30", "--bots", "random,random",
                    *QUICK, "--out", str(out))  # fmt: skip
    assert "after 0 of 30 games" in _interrupted_line(run)
    assert out.read_text() == "[1, 2]"
    assert [p.name for p in tmp_path.iterdir()] == ["int.json"]


def test_interrupted_simulate_without_out_says_nothing_was_kept(ctrl_c_after):
    ctrl_c_after(3)
    run = gamenight("simulate", "arne", "--games", "10", "--bots", "random", *QUICK)
    assert _interrupted_line(run) == (
        "interrupted after 3 of 10 games; nothing was kept (--out FILE keeps each game as it ends)"
    )


def test_interrupted_tournament_is_one_line_and_writes_no_file(tmp_path: Path, ctrl_c_after):
    out = tmp_path / "t.json"
    ctrl_c_after(5)
    run = gamenight("tournament", "drop-or-stop", "--bots", "random,threshold", "--games", "20",
                    *QUICK, "--out", str(out))  # fmt: skip
    line = _interrupted_line(run)
    assert line.startswith("interrupted after 5 of 20 games; ") and f"{out} not written" in line
    assert list(tmp_path.iterdir()) == []


def test_interrupted_report_is_one_line_and_leaves_an_earlier_report(tmp_path: Path, ctrl_c_after):
    (tmp_path / "index.html").write_text("earlier report")
    ctrl_c_after(7)
    run = gamenight("report", "drop-or-stop", "--games", "20", "--bots", "random",
                    *QUICK, "--out", str(tmp_path))  # fmt: skip
    assert _interrupted_line(run).startswith("interrupted after 7 of about 20 games; ")
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]
    assert (tmp_path / "index.html").read_text() == "earlier report"


def test_report_files_are_written_whole_into_the_folder(tmp_path: Path):
    run = gamenight("report", "drop-or-stop", "--games", "10", *QUICK, "--out", str(tmp_path))
    assert run.code == 0, run
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "index.html" in names and "games.csv" in names
    assert not [n for n in names if n.startswith(".")]  # the working folder is gone


# -- 2: what a results file records --------------------------------------------------------------
def test_simulate_file_records_how_to_play_it_again(tmp_path: Path):
    out = tmp_path / "r.json"
    args = ("simulate", "drop-or-stop", "--games", "40", "--bots", "threshold,random",
            "--seed", "7", "--set", "deck=descending")  # fmt: skip
    run = gamenight(*args, *QUICK, "--out", str(out))
    assert run.code == 0, run
    assert "drop-or-stop: 40 games, 2 players, deck=descending, seed 7" in run.out
    written = json.loads(out.read_text())
    assert written["format"] == "gamenight-simulate/1" and written["gamenight"]
    assert written["game"] == "drop-or-stop" and written["players"] == 2
    assert written["options"] == {"deck": "descending"}
    assert written["options_played"]["deck"] == "descending"
    assert written["bots"] == ["bot:threshold", "bot:random"]
    assert (written["seed"], written["games"], written["played"]) == (7, 40, 40)
    assert written["complete"] is True
    again = tmp_path / "again.json"
    words = shlex.split(written["command"])
    assert words[:2] == ["gamenight", "simulate"]
    assert gamenight(*words[1:], *QUICK, "--out", str(again)).code == 0
    assert json.loads(again.read_text())["results"] == written["results"]


def test_tournament_file_records_the_options_and_the_seed(tmp_path: Path):
    out = tmp_path / "t.json"
    run = gamenight("tournament", "drop-or-stop", "--bots", "random,threshold", "--games", "4",
                    "--seed", "3", "--set", "target=12", *QUICK, "--out", str(out))  # fmt: skip
    assert run.code == 0, run
    written = json.loads(out.read_text())
    assert written["seed"] == 3 and written["options_given"] == {"target": "12"}
    assert written["options"]["target"] == 12 and written["games_per_group"] == 4
    assert written["gamenight"] and len(written["games"]) == 4  # the list readers use


# -- 3: stats --------------------------------------------------------------------------------------
def _result(stats: dict[str, float]) -> GameResult:
    out = Outcome.from_scores([1, 0])
    return GameResult(0, 0, out.scores, out.winners, out.payoff, False, stats)


def test_a_per_round_stat_is_over_the_games_that_reached_the_round():
    tally = Tally.empty(2)
    tally.add(_result({"rounds": 4, "start_won.r4": 1.0}))
    tally.add(_result({"rounds": 3}))  # never reached round 4
    summary = tally.summary()
    assert summary.stats["start_won.r4"] == 1.0 and summary.stat_games["start_won.r4"] == 1
    assert summary.stats["rounds"] == 3.5


def test_simulate_prints_per_round_shares_over_the_games_that_reached_them():
    run = gamenight("simulate", "drop-or-stop", "--games", "200", "--bots", "threshold,random",
                    *QUICK)  # fmt: skip
    assert run.code == 0, run
    line = next(x for x in run.out.splitlines() if x.startswith("start_won.rN"))
    assert line.startswith("start_won.rN, over the games that reached round N: r1 ")
    assert "of 200" in line and "start_won.r4 per game" not in run.out
    assert "comebacks (the winner trailed at some point) in " in run.out


def test_batched_simulate_prints_the_engines_report():
    """Seen before: batches counted only decisions and rounds, so the default simulate of
    Drop or Stop lost the lead's story and the per-round shares."""
    args = ("simulate", "drop-or-stop", "--games", "100", "--bots", "threshold,threshold")
    batched = gamenight(*args, *QUICK)
    assert batched.code == 0, batched
    assert "played in lockstep batches (the same games and stats" in batched.out
    engine = gamenight(*args, *QUICK, "--no-batched")
    assert engine.code == 0, engine
    assert "lockstep" not in engine.out
    out = batched.out
    report = out[out.index("drop-or-stop: 100 games") : out.index("played in lockstep")]
    assert "lead changes per game" in report and "start_won.rN" in report
    assert report in engine.out  # the same games and the same stats either way


def test_arne_does_not_print_games_per_game():
    run = gamenight("simulate", "arne", "--games", "4", "--bots", "random", *QUICK)
    assert run.code == 0, run
    assert "games per game" not in run.out and "games per series" not in run.out
    assert "turns per game" in run.out


# -- 4: small ones --------------------------------------------------------------------------------
def test_tournament_says_when_it_plays_more_games_than_asked():
    run = gamenight("tournament", "drop-or-stop", "--bots", "random,threshold", "--games", "3",
                    *QUICK)  # fmt: skip
    assert run.code == 0, run
    assert run.err_lines == [
        "note: --games 3 plays 4 games per group of bots: every deal is played once in each "
        "of the 2 seat rotations, so the games round up to a multiple of 2"
    ]


def test_options_show_the_players_the_game_allows():
    run = gamenight("options", "drop-or-stop")
    assert run.code == 0, run
    row = next(x for x in run.out.splitlines() if "number of players" in x)
    assert " 2-4 " in row and "1 to 12" not in row


def test_a_ray_client_address_without_the_client_is_a_one_line_error(monkeypatch):
    pytest.importorskip("ray")
    import ray.client_builder
    from ray._private import utils

    def missing() -> ImportError:
        return ImportError("no grpc")

    monkeypatch.setattr(utils, "get_ray_client_dependency_error", missing)
    monkeypatch.setattr(ray.client_builder, "get_ray_client_dependency_error", missing)
    run = gamenight("simulate", "drop-or-stop", "--games", "5", *QUICK, "--backend", "ray",
                    "--address", "ray://127.0.0.1:10001")  # fmt: skip
    assert run.code == 2, run
    assert run.err_lines == [
        "error: --address ray://127.0.0.1:10001 connects through the Ray Client, which is not "
        "installed: pip install 'ray[client]' (or run on a cluster node with --address auto)"
    ]


@pytest.mark.parametrize("command", ["simulate", "tournament", "report"])
def test_a_bot_parameter_outside_the_bots_declared_range_is_one_line(command, tmp_path):
    extra = ("--out", str(tmp_path / "r")) if command == "report" else ()
    run = gamenight(command, "drop-or-stop", "--games", "2", "--bots",
                    "ismcts?iterations=0,random", *QUICK, *extra)  # fmt: skip
    assert run.code == 2, run
    assert run.err_lines == [
        "error: bot ismcts?iterations=0: ismcts needs iterations >= 1 or seconds > 0"
    ]
