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


def test_R2_a_setting_given_at_its_default_stays_given_when_the_options_travel(tmp_path):
    """A deck file's setting applies unless given; given at the engine's default (target=11
    against the file's 12), it must stay given through saved options (`options_to_json`),
    the adapters and OpenSpiel's parameters. It was dropped as a default and the file's
    value came back: simulate, report, tournament, Gymnasium and OpenSpiel ran target 12."""
    import gamenight
    from gamenight.adapters import gymnasium as gym_adapter
    from gamenight.engine.options import options_to_json

    doc = preset_json("standard") | {"target": 12, "winsToWin": 2}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    given = gamenight.load("drop-or-stop", players=2, deck=str(path), target=11)
    again = gamenight.load("drop-or-stop", **options_to_json(given.options))
    assert (again.options.target, again.options.wins_to_win) == (11, 2)
    from_file = gamenight.load("drop-or-stop", players=2, deck=str(path))
    again = gamenight.load("drop-or-stop", **options_to_json(from_file.options))
    assert (again.options.target, again.options.wins_to_win) == (12, 2)
    env = gym_adapter.make("drop-or-stop", opponents=["bot"], deck=str(path), target=11)
    assert env.game.options.target == 11


def test_R2_openspiel_runs_the_parameters_its_game_string_shows(tmp_path):
    """OpenSpiel fills every parameter with its default before the game sees them, so a
    parameter at its default cannot be told from one not given: through OpenSpiel every
    parameter counts as given, and the game runs what its string says (it said target=11
    and ran the deck file's 12)."""
    pyspiel = pytest.importorskip("pyspiel")
    import gamenight.adapters.openspiel  # noqa: F401  (registers the games)

    doc = preset_json("standard") | {"target": 12}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    name = "python_gamenight_drop_or_stop"
    for params in ({"deck": str(path), "target": 11}, {"deck": str(path)}):
        game = pyspiel.load_game(name, {"players": 2, **params})
        assert "target=11" in str(game) and game.inner.options.target == 11
    given = pyspiel.load_game(name, {"players": 2, "deck": str(path), "target": 12})
    assert given.inner.options.target == 12
