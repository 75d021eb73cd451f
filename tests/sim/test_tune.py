"""The balance search (sim/tune.py, cli/tune.py): it finds a planted first-seat advantage
and the setting that removes it, and refuses bad goals, options and budgets in one line.

The planted imbalance is a small test game, `planted-coin`, registered as a game package
registers its SPEC (only for these tests): each of two seats tosses once, and seat 0 (the
seat asked first) wins with probability 0.5 + (favour - komi) / 100. With the default
favour of 15 it wins 65% of games; komi=15 gives the fair 50%; colour does nothing.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np
import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gamenight.engine import registry
from gamenight.engine.core import Action, BadInput, Game, Outcome, State
from gamenight.engine.driver import RandomBot
from gamenight.engine.options import setting
from gamenight.engine.registry import load
from gamenight.engine.spec import GameSpec
from gamenight.sim.report import Setting
from gamenight.sim.runner import GameResult, wilson
from gamenight.sim.tune import (
    BY_KEY,
    FIGURES,
    Budget,
    Sample,
    Trial,
    estimate,
    main_sample,
    paired_change,
    parse_budget,
    parse_goal,
    parse_goals,
    parse_vary,
    skill_sample,
    tune,
    write_page,
)

NAME = "planted-coin"
FAVOUR = 15  # points of win rate the planted option gives seat 0 by default


# -- the test game ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CoinOptions:
    players: int = setting(2, "two seats", min=2, max=2)
    favour: int = setting(FAVOUR, "points seat 0 is favoured by (the planted imbalance)", min=0)
    komi: int = setting(0, "points given back to seat 1", choices=(0, 5, 10, 15, 20, 25))
    colour: str = setting("red", "the coin's colour: changes nothing", choices=("red", "blue"))


@dataclass(frozen=True, slots=True)
class Toss(Action):
    kind: ClassVar[str] = "toss"


TOSS = Toss()


class CoinState(State):
    def __init__(self, game: CoinGame, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.history = []
        self._log = []
        self._actors = (0,)
        self.winner = -1

    def actions(self, seat: int) -> list[Action]:
        return [TOSS] if seat in self._actors else []

    def _apply(self, seat: int, action: Action) -> None:
        self._emit("tossed", seat=seat)
        if seat == 0:
            self._actors = (1,)
            return
        options = self.game.options
        favoured = 0.5 + (options.favour - options.komi) / 100
        self.winner = 0 if self.rng.random() < favoured else 1
        self._actors = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"tossed": len(self.history), "winner": self.winner}

    def outcome(self) -> Outcome:
        return Outcome.from_scores([float(self.winner == s) for s in range(2)])

    def copy(self) -> Self:
        new = self._copy_shell()
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def determinize(self, seat: int, rng: random.Random) -> Self:
        new = self.copy()
        new.rng = random.Random(rng.random())
        return new


class CoinGame(Game):
    name = NAME
    Options = CoinOptions
    action_types = (Toss,)

    @property
    def players(self) -> int:
        return 2

    def start(self, seed: int) -> State:
        return CoinState(self, seed)

    @property
    def num_actions(self) -> int:
        return 1

    def action_index(self, action: Action) -> int:
        return 0

    def action_at(self, index: int) -> Action:
        return TOSS

    @property
    def max_decisions(self) -> int | None:
        return 2

    @property
    def encoding_size(self) -> int:
        return 1

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        return np.zeros(1, dtype=np.float32)


# The bots module of the test game is this module: BOTS, HEURISTIC and LEVELS.
BOTS = {"random": RandomBot}
HEURISTIC = "random"
LEVELS = {"easy": "bot:random", "medium": "bot:random", "hard": "bot:random"}

SPEC = GameSpec(
    name=NAME,
    title="Planted coin",
    pitch="Two tosses; the first seat is favoured by a known amount.",
    players=(2, 2),
    default_players=2,
    length="1 min",
    difficulty="easy",
    game="planted_coin:CoinGame",
    bots="planted_coin",
    terminal="planted_coin",
    web="none.js",
)


@pytest.fixture
def planted(tmp_path_factory, monkeypatch) -> Iterator[str]:
    """The test game for one test: a package `planted_coin` (a game is a package: the
    registry looks for its data files there) with this module's game and bots, its SPEC
    registered as a game package registers its own."""
    folder = tmp_path_factory.mktemp("games")
    (folder / "planted_coin").mkdir()
    (folder / "planted_coin" / "__init__.py").write_text(
        f"from {__name__} import BOTS, HEURISTIC, LEVELS, CoinGame  # noqa: F401\n"
    )
    monkeypatch.syspath_prepend(str(folder))
    registry.games()  # the real games first, so they are not discovered over it later
    registry.register(SPEC)
    try:
        yield NAME
    finally:
        registry._SPECS.pop(NAME, None)
        sys.modules.pop("planted_coin", None)


# -- the acceptance test ------------------------------------------------------------------------
def test_tune_finds_the_planted_first_seat_advantage_and_the_setting_that_removes_it(
    planted, tmp_path
):
    goal = parse_goal("first-seat win rate within 50±3%")
    axes = parse_vary(planted, ["komi,colour"], {})
    tuned = tune(planted, [goal], axes, parse_budget("30000 games"), trial_games=250)
    first = BY_KEY["first_seat"]
    before = estimate(first, tuned.default.played.sample)
    after = estimate(first, tuned.proposed.played.sample)
    assert before.low <= 0.5 + FAVOUR / 100 <= before.high  # the planted 65%, reproduced
    assert before.low > 0.53 and not tuned.default.met
    assert tuned.changed == {"komi": (0, 15)}  # the one change that removes it; colour stays
    assert tuned.proposed.met and after.low < 0.5 + goal.tolerance
    change = paired_change(first, tuned.default.played.sample, tuned.proposed.played.sample)
    assert abs(change.diff + FAVOUR / 100) < goal.tolerance and change.high < 0  # the amount
    assert change.p < 1e-6
    assert abs(tuned.games - 30000) < 1000 and len(tuned.trials) > 30
    assert any(c.params == {"komi": 15, "colour": "red"} for c in tuned.race)
    # the colour changes no game: a setting and its twin in another colour race as one
    assert all(c.params["colour"] == "red" for c in tuned.race)

    index = write_page(tuned, tmp_path / "page")
    page = index.read_text()
    for name in re.findall(r"<img src='([^']+)'", page):
        assert (index.parent / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "komi" in page and "first-seat win rate within 50±3%" in page
    assert "95% interval" in page and "McNemar" in page
    assert (index.parent / "report" / "index.html").is_file()
    trials = (index.parent / "trials.csv").read_text().splitlines()
    assert trials[0] == "trial,komi,colour,blocks,first_seat,loss,seconds,refused"
    assert len(trials) == len(tuned.trials) + 1


def test_the_page_escapes_what_it_shows(planted, tmp_path):
    """An option's value reaches the page only as text."""
    goal = parse_goal("first-seat win rate within 50±3%")
    axes = parse_vary(planted, ["komi"], {})
    tuned = tune(planted, [goal], axes, Budget(games=3000), trial_games=200)
    tuned.trials.append(Trial(99, {"komi": "<i>trial</i>"}, 1.0, {"first_seat": 0.5}, 1))
    tuned.trials.append(Trial(100, {"komi": "<i>refused</i>"}, None, refused="<i>why</i>"))
    tuned.race[-1].label = "<i>raced</i>"
    tuned.fixed = {"<i>option</i>": "<i>value</i>"}
    page = write_page(tuned, tmp_path / "page").read_text()
    assert "<i>" not in page
    for shown in ("trial", "refused", "why", "raced", "option", "value"):
        assert f"&lt;i&gt;{shown}&lt;/i&gt;" in page


def test_a_skill_gap_goal_plays_skill_games(planted):
    """Easy and hard are the same bot here: the gap is about 0, so the default meets it."""
    goal = parse_goal("skill gap within 0±10%")
    axes = parse_vary(planted, ["colour"], {})
    tuned = tune(planted, [goal], axes, Budget(games=2400), trial_games=100)
    gap = estimate(BY_KEY["skill_gap"], tuned.default.played.sample)
    assert gap.low <= 0 <= gap.high and tuned.default.met and not tuned.changed


def test_a_figure_the_game_does_not_record_is_refused(planted):
    goal = parse_goal("round-start win rate within 50±2%")
    with pytest.raises(BadInput, match="does not record round-start win rate"):
        tune(planted, [goal], parse_vary(planted, ["komi"], {}), Budget(games=400), trial_games=50)


# -- figures ------------------------------------------------------------------------------------
def test_a_yes_no_figure_has_the_reports_wilson_interval_and_mcnemar_test():
    base = Sample({"first_seat": ([1.0] * 60 + [0.0] * 40, [1.0] * 100)})
    same = paired_change(BY_KEY["first_seat"], base, base)
    assert (same.diff, same.p) == (0.0, 1.0)
    found = estimate(BY_KEY["first_seat"], base)
    assert (found.value, found.low, found.high) == wilson(60, 100)
    other = Sample({"first_seat": ([0.0] * 100, [1.0] * 100)})
    change = paired_change(BY_KEY["first_seat"], base, other)
    assert change.diff == pytest.approx(-0.6) and change.p < 1e-10


def test_a_shared_win_counts_one_over_k_so_a_fair_game_gives_one_in_n():
    """A game shared by both seats is half a win for the first seat (the report's turn
    position counts it whole: then a fair game with ties reads above 50%)."""

    def result(winners: tuple[int, ...]) -> GameResult:
        return GameResult(0, 0, (1.0, 1.0), winners, (0.5, 0.5), False, {"decisions": 4})

    game = load("drop-or-stop", players=2)
    games = [result((0, 1)), result((1,)), result((0,)), result((0, 1))]
    setting = Setting("s", {"players": 2}, game, games, first=[0, 1, 1, 1])
    sample = main_sample(setting)
    assert sample.value("first_seat") == pytest.approx(0.5)  # 0.5 + 1 + 0 + 0.5 of 4
    assert sample.value("first_seat_advantage") == pytest.approx(0.0)
    assert estimate(BY_KEY["first_seat"], sample).low < 0.5


def test_per_round_figures_read_the_games_start_won_and_start_edge():
    def result(stats: dict[str, float]) -> GameResult:
        return GameResult(0, 0, (1.0, 1.0), (0,), (1.0, 0.0), False, stats)

    game = load("drop-or-stop", players=2)
    games = [
        result(
            {"start_won.r1": 1.0, "start_won.r2": 0.0, "start_edge.r1": 1.0, "start_edge.r2": -1.0}
        ),
        result({"start_won.r1": 1.0, "start_edge.r1": 0.0}),
    ]
    sample = main_sample(Setting("s", {"players": 2}, game, games, first=[0, 0]))
    assert sample.value("round_start") == pytest.approx(2 / 3)
    assert sample.value("round_start_advantage") == pytest.approx(0.0)
    assert not main_sample(Setting("s", {}, game, [result({})], first=[0])).has("round_start")


def test_drop_or_stop_records_the_start_seats_round_edge_so_tune_can_aim_at_it():
    """Issue 48's worked example: Drop or Stop's per-round start edge (`start_edge.rN`, the
    start seat's share of the round, 1/k of a round won by k seats, minus the other seats'
    mean share) as each round's public record (R29, R23) gives it, so that `round-start
    advantage` is a goal the search takes for it instead of refusing."""
    from gamenight.bots import make_seat
    from gamenight.engine.driver import play
    from gamenight.engine.seeds import derive_seed

    for players in (2, 3, 4):
        game = load("drop-or-stop", players=players)
        for i in range(30):
            bots = [make_seat("bot:threshold", game, derive_seed(5, i, s)) for s in range(players)]
            state: Any = play(game, bots, derive_seed(5, i))  # a DropOrStopState
            stats = state.stats()
            assert state.results
            for record in state.results:
                start = (state.start_seat - (state.round - record["round"])) % players  # R23
                won = record["winners"]
                share = [(seat in won) / len(won) if won else 0.0 for seat in range(players)]
                others = (sum(share) - share[start]) / (players - 1)
                edge = stats[f"start_edge.r{record['round']}"]
                assert edge == pytest.approx(share[start] - others)
    goal = parse_goal("round-start advantage within 0±1 points")
    assert goal.text == "round-start advantage within 0±1 points"  # (said "0±1%")
    axes = parse_vary("drop-or-stop", ["target=10..11"], {})
    tuned = tune("drop-or-stop", [goal], axes, Budget(games=1500), players=2, trial_games=100)
    found = estimate(BY_KEY["round_start_advantage"], tuned.default.played.sample)
    assert -0.2 < found.low < found.value < found.high < 0.2


def test_the_commands_help_names_every_figure():
    from gamenight.cli.tune import FIGURE_NAMES

    assert FIGURE_NAMES.split(", ") == [f.name for f in FIGURES]


def test_a_rate_over_rounds_is_a_ratio_with_games_as_clusters():
    """Round-start wins: 2 of 3 rounds in one game, 1 of 1 in the other -> 3/4."""
    sample = Sample({"round_start": ([2.0, 1.0] * 50, [3.0, 1.0] * 50)})
    found = estimate(BY_KEY["round_start"], sample)
    assert found.value == pytest.approx(0.75) and found.low < 0.75 < found.high


def test_the_skill_gap_pairs_hard_and_easy_on_one_deal():
    def result(winners: tuple[int, ...]) -> GameResult:
        return GameResult(0, 0, (0.0, 0.0), winners, (0.5, 0.5), False, {})

    hard = [[result((0,)), result((1,))], [result((1,)), result((1,))]]
    easy = [[result((1,)), result((1,))], [result((1,)), result((0,))]]
    sample = skill_sample({"hard": hard, "easy": easy})
    assert sample.units["skill_gap"][0] == [1.0, 0.0, 0.0, 1.0]


# -- goals, options to vary, budgets ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "target", "tolerance"),
    [
        ("first-seat win rate within 50±2%", "first_seat", 0.5, 0.02),
        ("First seat win rate within 50 +- 2", "first_seat", 0.5, 0.02),
        ("round-start win rate within 50+/-2.5%", "round_start", 0.5, 0.025),
        ("first-seat advantage within 0±1.5%", "first_seat_advantage", 0.0, 0.015),
        ("game length within 30±3", "length", 30.0, 3.0),
        ("lead changes within 1±0.25", "lead_changes", 1.0, 0.25),
        ("score_spread within 2±0.5", "spread", 2.0, 0.5),
        ("bot-skill gap within 30±5%", "skill_gap", 0.3, 0.05),
    ],
)
def test_goals_parse_into_figure_target_and_tolerance(text, key, target, tolerance):
    goal = parse_goal(text)
    assert goal.figure.key == key
    assert goal.target == pytest.approx(target) and goal.tolerance == pytest.approx(tolerance)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("first-seat win rate", "FIGURE within TARGET±TOLERANCE"),
        ("first-seat win rate = 50%", "FIGURE within TARGET±TOLERANCE"),
        ("luck within 50±2%", "no figure 'luck'; figures: first-seat win rate"),
        ("game length within 30±3%", "game length is not a rate"),
        ("first-seat win rate within 150±2%", "a percentage from 0 to 100"),
        ("first-seat win rate within 50±0%", "tolerance must be a number above 0"),
    ],
)
def test_bad_goals_are_one_line_errors(text, says):
    with pytest.raises(BadInput, match=re.escape(says)):
        parse_goal(text)


def test_goals_name_each_figure_once():
    with pytest.raises(BadInput, match="twice"):
        parse_goals(["game length within 30±3", "game length within 20±3"])
    with pytest.raises(BadInput, match="at least one"):
        parse_goals([])


def _one_line_or_parsed(parse: Any, *args: Any) -> None:
    try:
        parse(*args)
    except BadInput as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message and len(message) < 400


GOALISH = st.one_of(
    st.text(),
    st.from_regex(
        r"[a-z _\-]{0,30} within -?[0-9]{0,4}(\.[0-9]*)? ?%? ?(±|\+-|\+/-)? ?[0-9.]{0,6}"
    ),
    st.builds(
        "{} within {}±{}{}".format,
        st.sampled_from([*sorted(k for k in BY_KEY), "first-seat win rate", "x\ny", ""]),
        st.text(max_size=6),
        st.text(max_size=6),
        st.sampled_from(["", "%", " points", "\n"]),
    ),
)


@settings(max_examples=300, deadline=None)
@given(GOALISH)
def test_hostile_goal_strings_parse_or_get_one_line(text):
    _one_line_or_parsed(parse_goal, text)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.lists(
            st.one_of(
                st.sampled_from(["deck", "target", "players", "hand-size", "first_start_seat"]),
                st.text(max_size=12),
            ),
            max_size=4,
        ).map(",".join),
        st.builds(
            "{}={}".format,
            st.sampled_from(["target", "deck", "allow_drop_when_overflowed", "max_rounds"]),
            st.text(max_size=12),
        ),
    )
)
def test_hostile_vary_names_parse_or_get_one_line(text):
    _one_line_or_parsed(parse_vary, "drop-or-stop", [text], {"wins_to_win": "3"})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_hostile_budgets_parse_or_get_one_line(text):
    _one_line_or_parsed(parse_budget, text)


def test_vary_reads_the_declared_ranges():
    axes = {
        a.name: a
        for a in parse_vary(
            "drop-or-stop",
            ["deck,target", "allow-drop-when-overflowed,first_start_seat=random|0|1"],
            {},
        )
    }
    assert axes["deck"].values == ("standard", "descending", "1to6")  # the served presets
    assert (axes["target"].low, axes["target"].high, axes["target"].whole) == (1, 100, True)
    assert axes["allow_drop_when_overflowed"].values == (False, True)
    assert axes["first_start_seat"].values == ("random", 0, 1)
    narrowed = parse_vary("drop-or-stop", ["target=9..13,hand_size=1|2|3"], {})
    assert (narrowed[0].low, narrowed[0].high) == (9, 13)
    assert narrowed[1].values == (1, 2, 3)


@pytest.mark.parametrize(
    ("texts", "fixed", "says"),
    [
        (["luck"], {}, "drop-or-stop has no option 'luck'; options: deck, target"),
        (["players"], {}, "players is the table, not a rule"),
        (["first_start_seat"], {}, "first_start_seat declares no range to search"),
        (["target"], {"target": "12"}, "target is also given with --set"),
        (["target,target=9..12"], {}, "names target twice"),
        (["target=0..1000"], {}, "target=0 is outside its range (1 or more)"),
        (["target=12..9"], {}, "needs LOW < HIGH"),
        (["deck=standard"], {}, "two or more different values"),
        (["deck=1..3"], {}, "deck is not a number"),
        (["target=a|b"], {}, "must be a whole number"),
        ([",,"], {}, "give at least one"),
    ],
)
def test_bad_vary_is_a_one_line_error(texts, fixed, says):
    with pytest.raises(BadInput, match=re.escape(says)):
        parse_vary("drop-or-stop", texts, fixed)


def test_budgets_are_time_or_games():
    assert parse_budget("20m") == Budget(seconds=1200)
    assert parse_budget("90 s") == Budget(seconds=90)
    assert parse_budget("1h") == Budget(seconds=3600)
    assert parse_budget("5000 games") == Budget(games=5000)
    for bad in ("", "20", "0m", "-5m", "20 parsecs", "5m 5m"):
        with pytest.raises(BadInput, match="--budget takes a time"):
            parse_budget(bad)
    with pytest.raises(BadInput, match="a whole number of games"):
        parse_budget("1.5 games")


# -- the command --------------------------------------------------------------------------------
def _app() -> typer.Typer:
    """A small app with the command as the root registers it."""
    from gamenight.cli.tune import tune_command

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """A group, so that `tune` is a command name as in `gamenight tune`."""

    app.command("tune")(tune_command)
    return app


def test_the_command_writes_the_page_and_says_the_proposal(planted, tmp_path):
    out = tmp_path / "tuned"
    result = CliRunner().invoke(
        _app(),
        [
            "tune", planted, "--goal", "first-seat win rate within 50±3%", "--vary", "komi",
            "--budget", "8000 games", "--trial-games", "250", "--workers", "1",
            "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "proposed: komi 0 -> " in result.output  # which komi: the acceptance test above
    assert "first-seat win" in result.output and "page written to" in result.output
    assert (out / "index.html").is_file() and (out / "before_after.png").is_file()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--goal", "luck within 5±1", "--vary", "deck"], "no figure 'luck'"),
        (["--goal", "game length within 9±1", "--vary", "dek"], "no option 'dek'"),
        (["--goal", "game length within 9±1", "--vary", "deck", "--budget", "soon"], "--budget"),
        (
            ["--goal", "game length within 9±1", "--vary", "deck", "--set", "target=x"],
            "must be a whole number",
        ),
        (["--goal", "game length within 9±1", "--vary", "deck", "--bots", "genius"], "no bot"),
    ],
)
def test_bad_input_is_one_line_and_no_traceback(args, says, tmp_path):
    result = CliRunner().invoke(
        _app(), ["tune", "drop-or-stop", *args, "--out", str(tmp_path / "t"), "--workers", "1"]
    )
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1
    assert not (tmp_path / "t").exists()


def test_a_budget_too_small_to_search_still_gives_a_page(planted, tmp_path):
    """The default's first block, a race of one and the final are played whatever the
    budget: the page then says no change is proposed."""
    goal = parse_goal("first-seat win rate within 50±3%")
    tuned = tune(
        planted, [goal], parse_vary(planted, ["komi"], {}), Budget(games=1), trial_games=50
    )
    assert not tuned.trials and not tuned.changed and [c.label for c in tuned.race] == ["default"]
    page = write_page(tuned, tmp_path / "page").read_text()
    assert "No setting of the race did better than the default" in page
    assert "The default's figures" in page and "<th>proposed</th>" not in page


def test_a_space_the_game_refuses_ends_the_search(tmp_path):
    """Two hands of twenty cards or more from 39 are refused (too many cards): the search
    lists the refusals and stops, though a refusal spends none of a budget of games."""
    goal = parse_goal("game length within 15±3")
    axes = parse_vary("drop-or-stop", ["hand_size=20..30"], {})
    tuned = tune("drop-or-stop", [goal], axes, Budget(games=3000), players=2, trial_games=50)
    assert tuned.trials and all(t.loss is None for t in tuned.trials)
    assert "need more than 39 cards" in tuned.trials[0].refused and not tuned.changed
    page = write_page(tuned, tmp_path / "page").read_text()
    assert "refused: " in page


@pytest.mark.xdist_group("ray")  # one local Ray at a time
def test_ray_tunes_as_the_local_pool_does():
    """Under a budget of games the whole run repeats: the same trials, race and final
    figures on a local Ray runtime as on local worker processes."""
    pytest.importorskip("ray")
    goals = [parse_goal("game length within 12±1")]
    axes = parse_vary("drop-or-stop", ["deck,hand_size=1..3"], {})

    def tuned_on(backend: str) -> tuple[Any, ...]:
        tuned = tune(
            "drop-or-stop", goals, axes, Budget(games=2400), players=2, trial_games=100,
            workers=2, backend=backend,
        )  # fmt: skip
        return (
            [(t.params, t.values) for t in tuned.trials],
            [(c.label, c.games, c.loss) for c in tuned.race],
            tuned.proposed.params,
            tuned.proposed.played.sample.units,
        )

    assert tuned_on("ray") == tuned_on("processes")
