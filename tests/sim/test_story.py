"""The report's designer sections (sim/story.py) and the stats they read: lead changes and
comebacks, per-round figures (Drop or Stop's start seat, R23), skill curves, Parquet."""

from __future__ import annotations

import csv
import itertools

import pytest

from gamenight import bots
from gamenight.engine import load, play
from gamenight.games.drop_or_stop.state import lead_story
from gamenight.sim.report import Setting, run_report
from gamenight.sim.runner import GameResult
from gamenight.sim.story import lead, per_round, skill_curves


def test_lead_story_counts_changes_of_a_sole_leader_and_comebacks():
    # seat 2 leads, a tie, seat 1 leads, a tie, seat 2 leads and wins
    story = lead_story([[0, 0, 1], [1, 1, 1], [1, 2, 1], [1, 2, 2], [1, 2, 3]], (2,))
    assert story == {"lead_changes": 2.0, "comeback": 1.0}
    # a wire-to-wire win: no change, no comeback; a tie at the top is no lead change
    assert lead_story([[1, 0], [1, 1], [2, 1]], (0,)) == {"lead_changes": 0.0, "comeback": 0.0}


def _played(seed, players=3):
    game = load("drop-or-stop", players=players)
    seats = [bots.make_seat("bot:threshold", game, s) for s in range(players)]
    return play(game, seats, seed)


@pytest.mark.parametrize("seed", range(8))
def test_drop_or_stop_stats_tell_the_lead_and_each_rounds_start_seat(seed):
    """Checked against the public log: `dealt` names each round's start seat (R23) and
    `revealed` its winners and the standings."""
    state = _played(seed)
    stats = state.stats()
    starts = {e.data["round"]: e.data["start_seat"] for e in state.log if e.kind == "dealt"}
    reveals = [e.data for e in state.log if e.kind == "revealed"]
    for result in reveals:
        r = result["round"]
        assert stats[f"start_won.r{r}"] == float(starts[r] in result["winners"])
    winners = state.outcome().winners
    behind = any(step["wins"][w] < max(step["wins"]) for step in reveals for w in winners)
    assert stats["comeback"] == float(behind)
    leaders = [
        s["wins"].index(max(s["wins"])) for s in reveals if s["wins"].count(max(s["wins"])) == 1
    ]
    changes = sum(a != b for a, b in itertools.pairwise(leaders))
    assert stats["lead_changes"] == changes


def _result(i, winners, stats, truncated=False):
    return GameResult(i, i, (0.0, 0.0), winners, (0.5, 0.5), truncated, stats)


def test_lead_and_per_round_figures_from_results():
    results = [
        _result(0, (0,), {"lead_changes": 1.0, "comeback": 1.0, "start_won.r1": 1.0}),
        _result(
            1,
            (1,),
            {"lead_changes": 0.0, "comeback": 0.0, "start_won.r1": 0.0, "start_won.r2": 1.0},
        ),
        _result(2, (), {"lead_changes": 3.0, "comeback": 0.0}, truncated=True),
    ]
    figures = lead(results)
    assert figures is not None
    assert figures["lead_changes"] == pytest.approx(4 / 3)
    assert (figures["comebacks"], figures["decided"]) == (1, 2)  # a truncated game has no winner
    assert per_round(results) == {"start_won": {1: (1, 2), 2: (1, 1)}}
    assert lead([_result(0, (0,), {"decisions": 3.0})]) is None


def test_report_shows_the_lead_the_start_seat_per_round_and_writes_parquet(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    index = run_report("drop-or-stop", 60, tmp_path / "r", sweep=[("players", ["2", "3"])], seed=2)
    page = index.read_text()
    assert "The lead" in page and "comebacks" in page
    assert "Does the seat that starts a round win it?" in page
    assert (index.parent / "round_start_won.png").is_file()
    assert "mean start_won" not in page  # per-round keys get their own section, not columns
    rows = list(csv.DictReader((index.parent / "games.csv").open()))
    table = pq.read_table(index.parent / "games.parquet").to_pylist()
    assert len(table) == len(rows) == 120
    assert [r["seed"] for r in table] == [int(r["seed"]) for r in rows]
    assert {"lead_changes", "comeback", "start_won.r1"} <= set(table[0])
    assert sum(r["comeback"] for r in table) == sum(float(r["comeback"]) for r in rows)


def test_skill_curves_rotate_one_level_against_easy_bots():
    game = load("drop-or-stop", players=2)
    column = Setting("players=2", {"players": 2}, game)
    [curve] = skill_curves("drop-or-stop", [column], 80, seed=1)
    assert set(curve) == {"easy", "medium", "hard"}
    assert all(games == 80 for _, games in curve.values())  # 40 games in each seat
    rates = {level: wins / games for level, (wins, games) in curve.items()}
    assert rates["hard"] > rates["easy"]  # exact beats a fixed stop-at-6 (levels_for(2))


def test_report_with_skill_games_draws_the_curve(tmp_path):
    index = run_report(
        "drop-or-stop",
        10,
        tmp_path / "s",
        players=2,
        skill_games=10,
        seed=4,
    )
    page = index.read_text()
    assert "Does the setting reward skill?" in page and "hard minus easy" in page
    assert (index.parent / "skill.png").is_file()
