"""Drop or Stop: Players and components (spec §2-§3; R1-R4)."""

from __future__ import annotations

import json

import pytest

from gamenight.engine import BadInput
from gamenight.games.drop_or_stop import DROP
from gamenight.games.drop_or_stop.components import PRESETS, load_deck, preset_json
from tests.drop_or_stop.helpers import arrange


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R1_two_to_four_players(players, game):
    assert game(players=players).players == players


@pytest.mark.parametrize("players", [1, 5])
def test_R1_other_player_counts_refused(players, game):
    with pytest.raises(BadInput, match=r"2-4 players \(R1\)"):
        game(players=players)


def test_R1_configuration_can_allow_more_players(game):
    assert game(players=5, max_players=5).players == 5


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_R2_every_preset_has_39_cards(preset):
    deck = load_deck(preset)
    assert deck.size == 39
    assert all(k.flex == (k.id == "FLEX") for k in deck.kinds)


def test_R2_standard_deck_composition():
    deck = load_deck("standard")
    assert {k.id: k.copies for k in deck.kinds} == PRESETS["standard"]
    assert [k.value for k in deck.kinds if not k.flex] == [1, 2, 3, 4, 5]


def test_R2_deck_file_replaces_the_preset(tmp_path, game):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(preset_json("descending")))
    g = game(deck=str(path))
    assert {k.id: k.copies for k in g.deck.kinds} == PRESETS["descending"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["deck"][0].update(copies=6), "must have exactly 39"),
        (lambda d: d["deck"][5].update(values=[1, 6]), "must equal flexValues"),
        (lambda d: d["deck"][0].update(kind="wild"), "'fixed' or 'flex'"),
        (lambda d: d.update(colour="red"), "unknown key"),
        (lambda d: d.update(firstStartSeat=7), "first_start_seat"),
    ],
)
def test_R2_bad_deck_files_are_refused_with_a_reason(tmp_path, change, message, game):
    doc = preset_json("standard")
    change(doc)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(BadInput, match=message):
        game(deck=str(path))


def test_R2_deck_file_settings_apply_unless_given(tmp_path, game):
    doc = preset_json("standard") | {"target": 12, "winsToWin": 2}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    assert game(deck=str(path)).options.target == 12
    assert game(deck=str(path), target=11).options.target == 11


def test_R2_unreadable_deck_is_a_clear_error(tmp_path, game):
    with pytest.raises(BadInput, match="neither a preset"):
        game(deck="huge")
    path = tmp_path / "deck.json"
    path.write_text("{not json")
    with pytest.raises(BadInput, match="not JSON"):
        game(deck=str(path))


def test_R3_wins_start_at_zero(game):
    state = game().start(1)
    assert state.wins == [0, 0, 0]
    assert [s["wins"] for s in state.view(0)["seats"]] == [0, 0, 0]


def test_R4_play_moves_clockwise(game):
    g = game(players=4)
    state = arrange(g, [["D1", "D1"], ["D2", "D2"], ["D3", "D3"], ["D4", "D1"]], start=2)
    order = []
    for _ in range(4):
        order.append(state.actors[0])
        state.act(state.actors[0], DROP)
    assert order == [2, 3, 0, 1]
