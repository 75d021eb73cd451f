"""Drop or Stop rule clauses R1-R34 (rules/drop-or-stop.md §8), one or more tests each."""

from __future__ import annotations

import json

import pytest

import gamenight
from gamenight.engine import BadInput, IllegalAction
from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.drop_or_stop.components import PRESETS, load_deck, preset_json
from gamenight.games.drop_or_stop.scoring import round_winners, terminal_reward, value_cards
from tests.drop_or_stop.helpers import all_cards, arrange


def game(**options):
    return gamenight.load("drop-or-stop", **options)


def kinds(cards: str) -> list[tuple[bool, int]]:
    return [(True, 1) if c == "F" else (False, int(c)) for c in cards.split(",")]


# -- players and components ---------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_R1_two_to_four_players(players):
    assert game(players=players).players == players


@pytest.mark.parametrize("players", [1, 5])
def test_R1_other_player_counts_refused(players):
    with pytest.raises(BadInput, match=r"2-4 players \(R1\)"):
        game(players=players)


def test_R1_configuration_can_allow_more_players():
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


def test_R2_deck_file_replaces_the_preset(tmp_path):
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
def test_R2_bad_deck_files_are_refused_with_a_reason(tmp_path, change, message):
    doc = preset_json("standard")
    change(doc)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(BadInput, match=message):
        game(deck=str(path))


def test_R2_deck_file_settings_apply_unless_given(tmp_path):
    doc = preset_json("standard") | {"target": 12, "winsToWin": 2}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(doc))
    assert game(deck=str(path)).options.target == 12
    assert game(deck=str(path), target=11).options.target == 11


def test_R2_unreadable_deck_is_a_clear_error(tmp_path):
    with pytest.raises(BadInput, match="neither a preset"):
        game(deck="huge")
    path = tmp_path / "deck.json"
    path.write_text("{not json")
    with pytest.raises(BadInput, match="not JSON"):
        game(deck=str(path))


def test_R3_wins_start_at_zero():
    state = game().start(1)
    assert state.wins == [0, 0, 0]
    assert [s["wins"] for s in state.view(0)["seats"]] == [0, 0, 0]


def test_R4_play_moves_clockwise():
    g = game(players=4)
    state = arrange(g, [["D1", "D1"], ["D2", "D2"], ["D3", "D3"], ["D4", "D1"]], start=2)
    order = []
    for _ in range(4):
        order.append(state.actors[0])
        state.act(state.actors[0], DROP)
    assert order == [2, 3, 0, 1]


# -- setup and dealing --------------------------------------------------------------------
def test_R5_fresh_game_draws_from_all_39_cards_shuffled():
    g = game(players=2)
    a, b = g.start(1), g.start(2)
    assert a.discard == []
    assert len(a.draw) == 39 - 4
    assert sorted(a.draw + a.hands[0] + a.hands[1]) == list(range(39))
    assert a.draw != b.draw


def test_R6_first_start_seat_fixed_or_seeded():
    assert game(first_start_seat=2).start(5).start_seat == 2
    seats = {game(players=4).start(seed).start_seat for seed in range(40)}
    assert seats == {0, 1, 2, 3}
    assert game().start(9).start_seat == game().start(9).start_seat
    with pytest.raises(BadInput, match="first_start_seat"):
        game(first_start_seat=3)


def test_R7_deal_two_each_from_start_seat_clockwise():
    g = game(players=3)
    # Round 1 ends at once; round 2 deals from seat 1 (R23) in order 1, 2, 0.
    state = arrange(
        g,
        [["D1", "D1"], ["D1", "D1"], ["D1", "D1"]],
        draw_next=["D2", "D2", "D3", "D3", "D4", "D4"],
    )
    for seat in (0, 1, 2):
        state.act(seat, STOP)
    assert state.round == 2
    got = [[g.card_id[c] for c in h] for h in state.hands]
    assert got == [["D4", "D4"], ["D2", "D2"], ["D3", "D3"]]


def test_R7_private_hand_event_only_to_its_seat():
    state = game().start(3)
    for seat in range(3):
        hands = [e for e in state.events(seat) if e.kind == "hand"]
        assert len(hands) == 1 and hands[0].data["seat"] == seat
    assert not [e for e in state.events(None) if e.kind == "hand"]


def test_R8_new_round_everyone_active_tableaux_empty():
    g = game(players=2)
    state = arrange(g, [["D1", "D2"], ["D1", "D3"]])
    state.act(0, DROP)
    state.act(1, STOP)
    state.act(0, STOP)
    assert state.round == 2
    assert state.active == [True, True]
    assert state.tableaux == [[], []]


# -- turns --------------------------------------------------------------------------------
def test_R9_passed_players_are_skipped_and_last_player_goes_again():
    g = game(players=3)
    state = arrange(g, [["D1", "D1"]] * 3, start=1)
    assert state.actors == (1,)
    state.act(1, STOP)
    assert state.actors == (2,)
    state.act(2, STOP)
    assert state.actors == (0,)
    state.act(0, DROP)
    assert state.actors == (0,)  # the only active player takes turns in a row


def test_R10_legal_set_is_drop_and_stop():
    state = game().start(4)
    seat = state.actors[0]
    assert state.actions(seat) == [DROP, STOP]
    for other in range(3):
        if other != seat:
            assert state.actions(other) == []


def test_R11_drop_draws_exactly_one_card_face_up():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], draw_next=["D4", "D5"])
    events = state.act(0, DROP)
    assert [g.card_id[c] for c in state.tableaux[0]] == ["D4"]
    assert [(e.kind, e.data) for e in events] == [("dropped", {"seat": 0, "card": "D4"})]
    assert events[0].to is None
    assert state.actors == (1,)


def test_R12_stop_on_first_turn_keeps_hand_for_scoring():
    g = game(players=2)
    state = arrange(g, [["D5", "D4"], ["D1", "D1"]], draw_next=["D2"])
    state.act(0, STOP)
    state.act(1, DROP)
    state.act(1, STOP)
    assert state.results[0]["totals"] == [9, 4]
    assert state.results[0]["winners"] == [0]


def test_R12a_overflow_not_announced_and_drop_still_allowed():
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D1", "D1"]], draw_next=["D5", "D1"])
    events = state.act(0, DROP)  # seat 0 is now at 15
    assert state.total(0) is None
    assert [e.kind for e in events] == ["dropped"]
    state.act(1, DROP)
    assert state.actions(0) == [DROP, STOP]
    assert state.view(1)["seats"][0]["active"] is True


def test_R12a_flag_off_forces_a_stop_that_looks_voluntary():
    g = game(players=2, allow_drop_when_overflowed=False)
    state = arrange(g, [["D5", "D5"], ["D1", "D1"]], draw_next=["D5", "D1"])
    state.act(0, DROP)
    state.act(1, DROP)
    assert state.actions(0) == [STOP]
    assert state.actors == (0,)  # asked like any turn, no automatic move
    events = state.act(0, STOP)
    assert [(e.kind, e.data) for e in events] == [("stopped", {"seat": 0})]


def test_R13_reshuffle_only_when_drawing_from_an_empty_pile():
    g = game(players=2)
    state = arrange(
        g,
        [["D1", "D1"], ["D1", "D1"]],
        draw_next=["D2"],
        discard=["D3", "D3", "D4"],
        rest="discard",
    )
    discard_before = sorted(state.discard)
    state.act(0, DROP)  # takes the last draw card, no reshuffle yet
    assert not [e for e in state.events(None) if e.kind == "reshuffled"]
    assert state.draw == []
    events = state.act(1, DROP)
    assert events[0].kind == "reshuffled"
    assert sorted(state.draw + state.tableaux[1]) == discard_before
    assert state.discard == []
    assert [g.card_id[c] for c in state.hands[0]] == ["D1", "D1"]  # hands never reshuffled


def test_R14_both_piles_empty_only_stop():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], draw_next=["D2"], rest="discard")
    state.discard = []
    state.draw = state.draw[-1:]
    state.act(0, DROP)
    assert state.actions(1) == [STOP]
    with pytest.raises(IllegalAction, match="not legal"):
        state.act(1, DROP)


def test_R15_round_ends_when_nobody_is_active():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    assert state.round == 1
    state.act(1, STOP)
    assert state.round == 2 and state.results[-1]["round"] == 1


def test_R15_round_length_is_bounded():
    g = game(players=2)
    state = g.start(11)
    turns = 0
    while state.round == 1:
        state.act(state.actors[0], DROP if state.actions(state.actors[0])[0] == DROP else STOP)
        turns += 1
    assert turns <= 39 - 2


# -- scoring ------------------------------------------------------------------------------
def test_R16_reveal_shows_every_hand_including_silent_stoppers():
    g = game(players=2)
    state = arrange(g, [["D2", "D3"], ["D4", "FLEX"]], draw_next=["D1"])
    state.act(0, STOP)
    state.act(1, DROP)
    events = state.act(1, STOP)
    reveal = next(e for e in events if e.kind == "revealed")
    assert reveal.to is None
    assert reveal.data["hands"] == [["D2", "D3"], ["D4", "FLEX"]]
    assert reveal.data["tableaux"] == [[], ["D1"]]


SPEC_VECTORS = [
    ("5,5", 10),
    ("5,5,2", None),
    ("F,F,1", 11),
    ("F,5", 10),
    ("F,5,1", 11),
    ("F,F,5", 11),
    ("F,4,3", 8),
    ("F,F,F", 11),
    ("F,2,3", 10),
    ("F,F,5,5", None),
    ("F,F,F,F", 8),
    ("F,F,F,F,4", 8),
    ("F,5,5", 11),
    ("1,1", 2),
    ("6,5", 11),
]


@pytest.mark.parametrize(("cards", "expected"), SPEC_VECTORS)
def test_R17_valuation_test_vectors(cards, expected):
    assert value_cards(kinds(cards)) == expected


def test_R17_closed_form_equals_brute_force():
    from itertools import product

    for fixed in range(0, 15):
        for flex in range(0, 6):
            totals = [fixed + sum(choice) for choice in product((1, 5), repeat=flex)]
            best = max((t for t in totals if t <= 11), default=None)
            assert value_cards([(False, fixed)] * (fixed > 0) + [(True, 1)] * flex) == best


def test_R17_flex_values_shown_at_reveal():
    g = game(players=2)
    state = arrange(g, [["FLEX", "FLEX"], ["D1", "D1"]], draw_next=["D1"])
    state.act(0, DROP)
    state.act(1, STOP)
    state.act(0, STOP)
    assert state.results[0]["flex"][0] == [5, 5]
    assert state.results[0]["totals"][0] == 11


def test_R18_overflow_never_wins():
    assert round_winners([None, 2]) == [1]


def test_R19_rulebook_example_ties_share_the_round():
    # A = 10, B = 10, C = 12 (OVERFLOW), D = 9.
    assert round_winners([10, 10, None, 9]) == [0, 1]


def test_R19_everyone_over_nobody_wins():
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D5", "D4"]], draw_next=["D5", "D5"])
    state.act(0, DROP)
    state.act(1, DROP)
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.results[0]["winners"] == []
    assert state.wins == [0, 0]


def test_R20_one_win_per_round_win_and_no_bonus_for_11():
    g = game(players=3)
    state = arrange(g, [["D5", "D5"], ["D5", "D5"], ["D1", "D1"]], draw_next=["D1", "D1"])
    state.act(0, DROP)  # 11
    state.act(1, DROP)  # 11
    for seat in (2, 0, 1):
        state.act(seat, STOP)
    assert state.wins == [1, 1, 0]


# -- end of round and game ----------------------------------------------------------------
def test_R21_game_ends_at_three_wins_shared():
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D5", "D5"]])
    state.wins = [2, 2]
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.over
    assert state.outcome().winners == (0, 1)
    assert state.view(None)["winners"] == [0, 1]


def test_R22_round_cards_to_discard_draw_pile_keeps_order():
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D4", "D4"]], draw_next=["D1"])
    state.act(0, DROP)
    state.act(1, STOP)
    draw_before = list(state.draw)
    state.act(0, STOP)
    assert sorted(g.card_id[c] for c in state.discard) == ["D1", "D4", "D4", "D5", "D5"]
    dealt = 4
    assert state.draw == draw_before[: len(draw_before) - dealt]


def test_R23_start_card_moves_left():
    g = game(players=3)
    state = arrange(g, [["D1", "D1"]] * 3, start=2)
    for seat in (2, 0, 1):
        state.act(seat, STOP)
    assert state.start_seat == 0 and state.actors == (0,)


def test_R24_next_round_is_dealt():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.round == 2
    assert [len(h) for h in state.hands] == [2, 2]
    assert sum(1 for e in state.events(None) if e.kind == "dealt") == 2


# -- information and invariants (more in test_invariants.py) ------------------------------
def test_R25_view_shows_own_hand_only():
    state = game().start(8)
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == [state.game.card_id[c] for c in state.hands[seat]]
        assert all("hand" not in s for s in view["seats"])
        assert all(s["hand_size"] == 2 for s in view["seats"])
    assert state.view(None)["hand"] is None


def test_R26_cards_conserved_through_a_game():
    g = game(players=4)
    state = g.start(2)
    while not state.over:
        assert all_cards(state) == list(range(39))
        seat = state.actors[0]
        state.act(
            seat, DROP if (state.total(seat) or 99) < 8 and DROP in state.actions(seat) else STOP
        )
    assert all_cards(state) == list(range(39))


def test_R27_same_seed_same_game():
    g = game()
    a, b = g.start(21), g.start(21)
    assert a.draw == b.draw and a.hands == b.hands and a.start_seat == b.start_seat


def test_R28_suggested_rewards():
    assert terminal_reward([0, 2], 3) == [1.0, 0.0, 1.0]
    assert terminal_reward([0, 2], 3, constant_sum=True) == [0.5, 0.0, 0.5]


def test_R29_reveal_record_stays_public():
    g = game(players=2)
    state = arrange(g, [["D2", "D3"], ["D4", "D4"]])
    state.act(0, STOP)
    state.act(1, STOP)
    for seat in (0, 1, None):
        record = state.view(seat)["rounds"]
        assert record[0]["hands"] == [["D2", "D3"], ["D4", "D4"]]
        assert record[0]["totals"] == [5, 8] and record[0]["winners"] == [1]


def test_R30_reshuffle_is_public_with_its_multiset():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], discard=["D3", "D3", "FLEX"], rest="discard")
    state.draw = []
    state.discard = state.discard[:3]
    events = state.act(0, DROP)
    assert events[0].kind == "reshuffled" and events[0].to is None
    assert events[0].data["cards"] == {"D3": 2, "FLEX": 1}


def test_R31_own_total_visible_even_after_stopping():
    g = game(players=2)
    state = arrange(g, [["FLEX", "D5"], ["D1", "D1"]])
    state.act(0, STOP)
    assert state.view(0)["hand"] == ["FLEX", "D5"]
    assert state.view(0)["own_total"] == 10
    assert state.view(1)["own_total"] == 2


def test_R32_public_display_and_unseen_multiset():
    g = game(players=2)
    state = arrange(
        g, [["D1", "D1"], ["D2", "D2"]], tableaux=[["D5", "D5"], []], draw_next=["FLEX"]
    )
    state.act(0, DROP)
    seat0 = state.view(1)["seats"][0]
    assert seat0["tableau"] == ["D5", "D5", "FLEX"]
    assert seat0["visible_min"] == 11 and seat0["flex_count"] == 1
    assert seat0["certainly_over"] is True  # 11 + smallest hand 2 > 11
    view = state.view(1)
    assert "draw" not in view and "draw_pile" not in view
    unseen = view["unseen"]
    assert sum(unseen.values()) == 39 - 3 - 2  # deck - tableaux - own hand
    assert unseen["D5"] == 5 and unseen["D2"] == 5 and unseen["FLEX"] == 3


def test_R33_no_undo_a_stop_is_final():
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    state.act(1, DROP)
    assert state.actors == (1,)
    with pytest.raises(IllegalAction, match="owes no decision"):
        state.act(0, DROP)


def test_R34_round_cap_truncates_without_winners():
    g = game(players=2, max_rounds=1)
    state = arrange(g, [["D1", "D1"], ["D1", "D2"]])
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.over and state.truncated
    out = state.outcome()
    assert out.truncated and out.winners == () and out.payoff == (0.5, 0.5)
    assert g.max_decisions == 37
    assert game().max_decisions is None
