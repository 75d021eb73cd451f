"""A balance report on a small run: an HTML page whose images exist."""

from __future__ import annotations

import csv
import re

import pytest
from typer.testing import CliRunner

from gamenight.cli import app
from gamenight.engine import BadInput, load
from gamenight.sim.report import parse_sweep, parse_sweeps, run_report


def _images(index):
    page = index.read_text()
    files = re.findall(r"<img src='([^']+)'", page)
    assert files
    for name in files:
        path = index.parent / name
        assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return page, files


def test_sweep_report_has_every_figure_side_by_side(tmp_path):
    index = run_report(
        "drop-or-stop",
        40,
        tmp_path / "r",
        sweep=("deck", ["standard", "descending"]),
        workers=2,
        seed=3,
    )
    page, files = _images(index)
    assert {"winrate.png", "position.png", "scores.png", "length.png", "ties.png"} <= set(files)
    assert "sweep.png" in files
    assert "deck=standard" in page and "deck=descending" in page
    assert "95% interval" in page and "shared wins" in page


def test_report_command_with_set_and_bots(tmp_path):
    out = tmp_path / "arne"
    result = CliRunner().invoke(
        app,
        [
            "report", "arne", "--games", "12", "--out", str(out), "--bots", "random",
            "--set", "learning=true", "--workers", "1",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page, files = _images(out / "index.html")
    assert "sweep.png" not in files and "learning" in page


def test_bad_sweeps_and_options_are_explained(tmp_path):
    with pytest.raises(BadInput, match="option=v1,v2"):
        parse_sweep("deck")
    result = CliRunner().invoke(
        app,
        ["report", "drop-or-stop", "--games", "5", "--out", str(tmp_path), "--sweep", "deck=nope"],
    )
    assert result.exit_code == 2 and "error" in result.output


def test_two_sweeps_make_a_grid_with_paired_tests_and_tables(tmp_path):
    out = tmp_path / "grid"
    result = CliRunner().invoke(
        app,
        [
            "report", "drop-or-stop", "--games", "30", "--out", str(out), "--workers", "1",
            "--sweep", "deck=standard,descending", "--sweep", "players=2,3",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page, _ = _images(out / "index.html")
    for label in (
        "deck=standard, players=2",
        "deck=standard, players=3",
        "deck=descending, players=2",
        "deck=descending, players=3",
    ):
        assert label in page
    assert "Paired against deck=standard, players=2" in page and "McNemar" in page
    rows = list(csv.DictReader((out / "games.csv").open()))
    assert len(rows) == 4 * 30
    first = [r for r in rows if r["setting"] == "deck=standard, players=2"]
    again = [r for r in rows if r["setting"] == "deck=descending, players=2"]
    assert [r["seed"] for r in first] == [r["seed"] for r in again]  # the same deals
    assert all(float(r["margin"]) >= 0 and float(r["spread"]) >= float(r["margin"]) for r in rows)
    # Every plot fits the page (max-width 1400px) without shrinking: six panels in one
    # row were drawn 2,400 px wide and shown at half size, their labels unreadable.
    for name in ("winrate.png", "position.png", "scores.png", "length.png", "sweep.png"):
        assert _png_size(out / name)[0] <= 1400, name


def test_a_grid_of_sweeps_lays_panels_out_by_sweep():
    """Rows of the grid are the first sweep's values, columns the last one's; the sweep
    plot draws a panel per deck with players along x (a line never joins settings that
    differ in two options); a tick puts one option per line."""
    from gamenight.sim.plots import per_row, sweep_panels, tick
    from gamenight.sim.report import settings

    columns = settings(
        "drop-or-stop", {}, [("deck", ["standard", "descending"]), ("players", ["2", "3", "4"])]
    )
    assert per_row(columns) == 3
    panels = sweep_panels(columns)
    assert [title for title, _ in panels] == ["deck=standard", "deck=descending"]
    assert [x for x, _ in panels[1][1]] == ["players=2", "players=3", "players=4"]
    assert [s.players for _, s in panels[1][1]] == [2, 3, 4]
    one = settings("drop-or-stop", {}, [("deck", ["standard", "descending"])])
    assert per_row(one) == 2 and len(sweep_panels(one)) == 1
    assert tick("deck=standard, players=2") == "deck=standard\nplayers=2"


def _png_size(path):
    data = path.read_bytes()
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_paired_test_sees_a_real_difference_and_not_a_null_one():
    from gamenight.sim.report import Setting, paired_tests
    from gamenight.sim.runner import GameResult

    def setting(first_wins: list[int], lengths: list[int]) -> Setting:
        game = load("drop-or-stop", players=2)
        results = [
            GameResult(i, i, (1.0, 0.0) if w else (0.0, 1.0), (0,) if w else (1,), (1.0, 0.0)
                       if w else (0.0, 1.0), False, {"decisions": float(n)})
            for i, (w, n) in enumerate(zip(first_wins, lengths, strict=True))
        ]  # fmt: skip
        return Setting("s", {}, game, results, [0] * len(results))

    base = setting([1, 0] * 20, [10] * 40)
    same = paired_tests(base, setting([1, 0] * 20, [10] * 40))
    assert same["first_won_p"] == 1.0 and same["length_p"] == 1.0
    shifted = paired_tests(base, setting([1] * 40, [12 + i % 3 for i in range(40)]))
    assert shifted["first_won_p"] < 1e-4 and shifted["length_p"] < 1e-4


def test_the_same_option_swept_twice_is_refused():
    with pytest.raises(BadInput, match="twice"):
        parse_sweeps(["deck=standard", "deck=descending"])
