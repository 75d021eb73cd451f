"""Every named setting of spec section 11 is an option, and bad values say what is allowed."""

import dataclasses

import pytest

import gamenight
from gamenight.engine.core import BadInput
from gamenight.games.arne import Options

SPEC_SETTINGS = (
    "mode",
    "variant",
    "learning",
    "hand_size",
    "colours",
    "colour_names",
    "star_colours",
    "colour_assignment",
    "first_seat",
    "reverse_mode",
    "two_player_reverse_as_stop",
    "pre_resolution_windows",
    "thief_may_take_thief",
    "demand_selection",
    "chameleon_same_colour_allowed",
    "chameleon_in_final_round",
    "dummy_deck_player_count",
    "dummy_thief_allowed",
    "dummy_reverse_in_final_round",
    "team_open_hands",
    "tie_rule",
    "series_games",
    "series_target_score",
)


def test_A1_every_spec_setting_is_an_option():
    names = {f.name for f in dataclasses.fields(Options)}
    assert set(SPEC_SETTINGS) <= names and "players" in names


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"players": 1}, "players"),
        ({"reverse_mode": "spin"}, "reverse_mode"),
        ({"colours": "red,green"}, "6 different colour ids"),
        ({"star_colours": "red,pink"}, "star_colours"),
        ({"colour_names": "c5purple"}, "id=name"),
        ({"first_seat": "youngest"}, "first_seat"),
        ({"hand_size": 0}, "hand_size"),
        ({"series_games": 0}, "series_games"),
        ({"flavour": "x"}, "no option 'flavour'"),
        ({"learning": "maybe"}, "true or false"),
    ],
)
def test_bad_options_raise_clear_errors(given, message):
    with pytest.raises(BadInput, match=message):
        gamenight.load("arne", **given)


def test_options_from_strings_like_a_command_line():
    game = gamenight.load(
        "arne",
        players="3",
        learning="yes",
        first_seat="2",
        colour_names="c5=violet,c6=amber",
        colours="a,b,c,d,c5,c6",
    )
    assert game.options.first_seat == 2 and game.options.learning
    assert game.options.colour_name("c5") == "violet"
    assert game.deck_colours == ("a", "b", "c", "d")
