"""Issue 45 item 6: seat numbers people read and type are player numbers, from 1.

Options whose value is a seat (declared `setting(..., seat=True)`: Arne's `first_seat`,
Drop It's `start_seat`, Drop or Stop's `first_start_seat`) were shown and typed as the
engine's index: `gamenight options arne` showed `first_seat 0`, `--set first_seat=1` meant
the second player, and a wrong value was refused with "a seat 0..n-1". The engine, its
JSON and saved games keep counting from 0; the terminal counts players from 1.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamenight.cli.table import parse_sets
from gamenight.engine.core import BadInput
from gamenight.engine.options import describe_options
from gamenight.engine.registry import load, options_class
from tests.terminal.helpers import assert_one_line_error, gamenight

SEAT_OPTIONS = {"arne": "first_seat", "drop-it": "start_seat", "drop-or-stop": "first_start_seat"}
# What a person must never read about a seat: the engine's ranges from 0
ENGINE_RANGE = re.compile(r"\b0\s*(\.\.|-|to)\s*\d|\bseat 0\b|\bside 0\b|seat index 0\.")


@pytest.mark.parametrize("game", SEAT_OPTIONS)
def test_seat_options_are_declared_once_and_described(game: str) -> None:
    rows = {r["name"]: r for r in describe_options(options_class(game))}
    assert [name for name, r in rows.items() if r["seat"]] == [SEAT_OPTIONS[game]]


@pytest.mark.parametrize(
    ("game", "default"), [("arne", "1"), ("drop-it", "1"), ("drop-or-stop", "random")]
)
def test_options_show_a_seat_option_as_a_player_number(game: str, default: str) -> None:
    """`gamenight options arne` showed `first_seat  0  text`."""
    run = gamenight("options", game)
    assert run.code == 0, run
    name = SEAT_OPTIONS[game]
    row = re.search(rf"│ {name}\s*│ (\S+)\s*│ (.*?)│", run.out)
    assert row, run.out
    assert row.group(1) == default
    assert row.group(2).startswith("a player number")
    # nor, anywhere in the table, the engine's seats ("seat s plays for team s % 2")
    assert not re.search(r"\bseat (0|s|index)\b|\bside 0\b|% 2", run.out)


@pytest.mark.parametrize(("typed", "starts"), [("1", 1), ("2", 2)])
def test_set_takes_a_player_number(typed: str, starts: int) -> None:
    """`--set first_start_seat=2` is player 2 (the engine's seat 1); it was the engine's
    seat 2, which a 2-player game refused."""
    run = gamenight(
        "play", "drop-or-stop", "--seats", "bot,bot", "--seed", "1",
        "--set", f"first_start_seat={typed}",
    )  # fmt: skip
    assert run.code == 0, run
    assert f"Round 1: player {starts} has the start card" in run.out


def test_the_engine_keeps_its_seat_index() -> None:
    assert parse_sets(["first_seat=1"], "arne") == {"first_seat": 0}
    assert parse_sets(["start-seat=2", "teams=yes"], "drop-it") == {
        "start_seat": 1,
        "teams": "yes",
    }
    assert parse_sets(["first_start_seat=Random"], "drop-or-stop") == {"first_start_seat": "random"}
    assert load("arne", players=3, **parse_sets(["first_seat=3"], "arne")).start(1).first_seat == 2


BAD = {
    "0": "is a player number (1 for the first player) or 'random', got '0'",
    "-1": "is a player number",
    "abc": "is a player number",
    "1.5": "is a player number",
    "": "is a player number",
    "٣": "is a player number",  # a digit, not an ASCII one
    "4": "there is no player 4 of 3",
    "99999999999999999999": "there is no player 99999999999999999999 of 3",
}


@pytest.mark.parametrize("typed", BAD)
def test_a_wrong_seat_is_one_line_in_player_numbers(typed: str) -> None:
    run = gamenight(
        "play", "arne", "--seats", "bot,bot,bot", "--seed", "1", "--set", f"first_seat={typed}"
    )
    assert_one_line_error(run)
    line = run.err_lines[0]
    assert BAD[typed] in line, line
    assert "first_seat" in line and not ENGINE_RANGE.search(line), line
    if typed == "4":
        assert "player 1 to 3, or 'random'" in line


# Every command that takes --set reads a seat the same way (a wrong one: one line).
COMMANDS = {
    "simulate": ["simulate", "drop-or-stop", "--games", "2", "--workers", "1"],
    "tournament": ["tournament", "drop-or-stop", "--bots", "random,easy", "--games", "2"],
    "report": ["report", "drop-or-stop", "--games", "2", "--workers", "1"],
    "tune": ["tune", "drop-or-stop", "--goal", "first-seat win rate within 50±2%", "--vary",
             "target=10..12"],
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("typed", "said"), [("0", "is a player number"), ("3", "no player 3 of 2")]
)
def test_every_command_with_set_counts_players_from_1(
    command: str, typed: str, said: str, tmp_path: object
) -> None:
    argv = [*COMMANDS[command], "--players", "2", "--set", f"first_start_seat={typed}"]
    if command in ("report", "tune"):
        argv += ["--out", f"{tmp_path}/out"]
    run = gamenight(*argv)
    assert_one_line_error(run)
    assert said in run.err_lines[0] and not ENGINE_RANGE.search(run.err_lines[0]), run.err


def test_the_engine_refusal_says_the_player_number_too() -> None:
    """Programs keep passing the engine's index; its refusal names the player as well."""
    with pytest.raises(BadInput) as refused:
        load("arne", players=3, first_seat=3)
    said = str(refused.value)
    assert "no player 4 of 3" in said and "seat index 3" in said and "player 1 to 3" in said
    with pytest.raises(BadInput, match="there is no team 3 of 2"):
        load("drop-it", players=4, teams=True, start_seat=2)
    with pytest.raises(BadInput, match=r"must be player 1 to 2, or 'random', got 'first'"):
        load("drop-or-stop", players=2, first_start_seat="first")
    with pytest.raises(BadInput, match="first_seat"):
        load("arne", players=3, first_seat=True)  # a bool is no seat
    assert load("arne", players=3, first_seat=2).start(1).first_seat == 2


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(SEAT_OPTIONS)),
    players=st.integers(2, 4),
    typed=st.one_of(
        st.text(max_size=12),
        st.integers(-5, 8).map(str),
        st.sampled_from(["random", "RANDOM", " 2 ", "+1", "0x1", "1_0", "²", "1e0"]),
    ),
)
def test_any_typed_seat_is_a_player_or_a_refusal_in_player_words(
    game: str, players: int, typed: str
) -> None:
    name = SEAT_OPTIONS[game]
    try:
        options = parse_sets([f"{name}={typed}"], game)
        built = load(game, players=players, **options)
    except BadInput as refused:
        said = str(refused)
        ours = said.replace(typed, "") if typed else said  # (what was typed is said back)
        assert "player" in said and not ENGINE_RANGE.search(ours), said
        assert "\n" not in said
        return
    seat = getattr(built.options, name)
    if typed.strip().lower() == "random":
        assert seat == "random"
    else:
        assert seat == int(typed.strip()) - 1 and 0 <= seat < players


@pytest.mark.parametrize("game", SEAT_OPTIONS)
def test_a_results_title_says_the_seat_option_as_it_was_typed(game: str) -> None:
    """`simulate --set first_seat=2` printed "first_seat=1" over its results (the engine's
    index): the title now reads back what the person typed."""
    name = SEAT_OPTIONS[game]
    run = gamenight("simulate", game, "--games", "2", "--players", "2", "--set", f"{name}=2")
    assert run.code == 0, run.err
    assert f"{name}=2," in run.out and f"{name}=1," not in run.out


def test_a_report_sweeps_a_seat_option_in_player_numbers(tmp_path) -> None:
    """`report --sweep first_seat=1,2`: player 1 and 2 (seats 0 and 1), labelled as typed;
    0 is refused in one line, as --set refuses it."""
    from gamenight.sim.report import settings as report_settings

    found = report_settings("arne", {"players": 2}, ("first_seat", ["1", "2", "random"]))
    assert [(s.label, s.game.options.first_seat) for s in found] == [
        ("first_seat=1", 0),
        ("first_seat=2", 1),
        ("first_seat=random", "random"),
    ]
    out = tmp_path / "report"
    refused = gamenight(
        "report", "arne", "--games", "2", "--sweep", "first_seat=0,1", "--out", str(out)
    )
    assert_one_line_error(refused)
    assert "player number" in refused.err
