"""A balance report on a small run: an HTML page whose images exist."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from gamenight.cli import app
from gamenight.engine import BadInput
from gamenight.sim.report import parse_sweep, run_report


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
