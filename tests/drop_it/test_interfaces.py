"""Pictures, bots and terminal pieces of Drop It, and replacing the board file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console

import gamenight
from gamenight.engine.core import BadInput
from gamenight.games.drop_it import KEEP, SPEND, Drop, DropItState, bots, render, terminal
from gamenight.games.drop_it.board import DEFAULT_BOARD

from .helpers import game


def played(drops: int, seed: int = 0, **options: object) -> DropItState:
    s = game(**options).start(seed)
    rng = random.Random(seed)
    for _ in range(drops):
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
    return s


# -- render --------------------------------------------------------------------------------
def test_render_svg_shows_pieces_and_highlights_the_last_drop(tmp_path: Path) -> None:
    s = game().start(0)
    s.act(0, Drop("red-circle", 20.5, 0.0))  # breaks EDGE: red outline
    text = render.svg(s)
    assert text.startswith("<svg") and text.count("<circle") >= 1 + 8  # piece + bonus circles
    assert "#c00000" in text and "broke EDGE (left-0)" in text
    s.act(1, Drop("blue-square", 150.0, 0.0))  # legal: green outline
    assert "#00a000" in render.svg(s.view(1))
    path = render.png(s, tmp_path / "t.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_trajectory_frames_end_at_the_settled_poses() -> None:
    s = played(3)
    frames = render.frames(s)
    assert len(frames) >= 2 and frames[-1]["step"] == s.records[-1]["steps"]
    for p, (_, x, y, _a) in zip(frames[-1]["pieces"], s.poses, strict=True):
        assert abs(p["x"] - x) <= 0.005 and abs(p["y"] - y) <= 0.005
    assert len(render.frame_svgs(s, every=10)) >= 1


# -- bots ----------------------------------------------------------------------------------
def test_bots_registry_exports() -> None:
    assert set(bots.BOTS) == {"random", "planner"} and bots.HEURISTIC == "planner"


def test_random_bot_plays_legal_grid_drops() -> None:
    s = game().start(0)
    bot = bots.RandomDropBot(seed=1)
    for _ in range(3):
        seat = s.actors[0]
        a = bot.choose(s, seat)
        assert a in s.actions(seat)
        s.act(seat, a)


def test_planner_picks_a_scoring_legal_drop() -> None:
    s = game().start(0)
    a = bots.PlannerBot(seed=0, samples=3).choose(s, 0)
    assert a in s.actions(0)
    s.act(0, a)
    assert s.records[-1]["awarded"] >= 1


def test_planner_ignores_the_hidden_noise_seed_D35() -> None:
    """Two states that differ only in the secret game seed get the same choice."""
    g = game(jitter=True)
    a, b = g.start(1), g.start(2)
    assert a.view(0) == b.view(0) and a.game_seed != b.game_seed
    pick = [bots.PlannerBot(seed=5, samples=4, jitter_samples=2).choose(s, 0) for s in (a, b)]
    assert pick[0] == pick[1]


def test_V3_bot_joker_policy_spends_at_four_or_more() -> None:
    assert bots.joker_policy({"last": {"raw_points": 4}}) == SPEND
    assert bots.joker_policy({"last": {"raw_points": 3}}) == KEEP


def test_bots_through_the_registry() -> None:
    from gamenight.bots import make

    bot = make("planner", game(), samples="2", budget_s="0.5")
    assert isinstance(bot, bots.PlannerBot) and bot.samples == 2


# -- terminal ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "piece", "x", "degrees", "depth"),
    [
        ("circle-red-1 120 30", "red-circle-1", 120.0, 30.0, 0.0),
        ("red circle 100 45", "red-circle", 100.0, 45.0, 0.0),
        ("yellow-tri 80 -15deg 5", "yellow-triangle", 80.0, -15.0, 5.0),
        ("rs 60 90", "red-square", 60.0, 90.0, 0.0),
    ],
)
def test_terminal_parse_drops(
    text: str, piece: str, x: float, degrees: float, depth: float
) -> None:
    import math

    a = terminal.parse(text, game().start(0), 0)
    assert isinstance(a, Drop)
    assert (a.piece, a.x, a.depth) == (piece, x, depth)
    assert a.angle == pytest.approx(math.radians(degrees))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type a piece"),
        ("red square", "give x"),
        ("purple 1 2", "neither a colour"),
        ("red 10 20", "colour and kind"),
    ],
)
def test_terminal_parse_explains_bad_input(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        terminal.parse(text, game().start(0), 0)


def test_terminal_joker_words_help_events_render_and_picture(tmp_path: Path) -> None:
    s = game(jokers=True).start(0)
    assert any("x from 20.5 to 219.5 mm" in line for line in terminal.describe_actions(s, 0))
    s.act(0, terminal.parse("red circle 20.5 0", s, 0))
    assert terminal.describe_actions(s, 0)[0].startswith("spend")
    with pytest.raises(BadInput, match="spend"):
        terminal.parse("red circle 20 0", s, 0)
    s.act(0, terminal.parse("keep", s, 0))
    lines = [terminal.describe_event(e) for e in s.events(0)]
    assert lines[0].startswith("Drop It on board_default_v1")
    assert "broke a rule: touches the edge" in lines[1]
    assert lines[2].startswith("side 1 scores 0")  # sides shown from 1
    console = Console(record=True, width=100)
    console.print(terminal.render(s.view(0)))
    text = console.export_text()
    assert "red ●2" in text and "last drop" in text
    assert terminal.picture(s, tmp_path / "p.png").exists()


# -- a user's board file (issue item 1) ------------------------------------------------------
def test_board_file_can_be_replaced(tmp_path: Path) -> None:
    doc = json.loads(DEFAULT_BOARD.read_text())
    doc["id"] = "my_board"
    doc["edge_cells"]["bottom"]["color_face"][0] = None  # D21: a blank cell
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    g = gamenight.load("drop-it", board=str(path))
    assert g.board.id == "my_board"
    s = g.start(0)
    s.act(0, Drop("red-square", 150.0, 0.0))
    s.act(1, Drop("green-circle", 20.5, 0.0))  # bottom-0 is blank now; left-0 is red
    assert s.records[-1]["violations"] == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("bonus_circles"), "missing key"),
        (lambda d: d["level_boundaries"][1].update(polyline=[[0.0, 40.0], [240.0, 30.0]]), "cross"),
        (lambda d: d["edge_cells"]["left"]["color_face"].__setitem__(0, "pink"), "pink"),
        (lambda d: d["bonus_circles"][0].update(center=[5.0, 20.0]), "inside the drop zone"),
    ],
)
def test_board_file_errors_say_what_is_wrong(tmp_path: Path, change, message: str) -> None:
    doc = json.loads(DEFAULT_BOARD.read_text())
    change(doc)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(BadInput, match=message):
        gamenight.load("drop-it", board=str(path))
