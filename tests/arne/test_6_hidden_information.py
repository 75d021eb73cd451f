"""Spec 6, hidden information: what each seat sees and what determinize keeps (A47, A48, A58)."""

from __future__ import annotations

import random

import gamenight
from gamenight.engine.driver import RandomBot
from gamenight.games.arne import actions as A
from gamenight.games.arne.bots import GreedyBot
from gamenight.games.arne.phases import Phase
from tests.arne.helpers import act, hand, pass_round


def test_A47_team_hands_secret_unless_open(table):
    state = table(players=4, variant="team", colours=("c5", "c6"), hands={2: ["c5 P100"]})
    assert "team_hands" not in state.view(0)
    state = table(
        players=4,
        variant="team",
        colours=("c5", "c6"),
        hands={2: ["c5 P100"]},
        team_open_hands=True,
    )
    assert state.view(0)["team_hands"] == {"2": ["c5 P100"]}


def test_A48_same_seed_same_game():
    game = gamenight.load("arne", players=4, colour_assignment="random", first_seat="random")
    a, b = game.start(11), game.start(11)
    assert a.deck == b.deck and a.hands == b.hands
    bots = [RandomBot(i) for i in range(4)]
    while not a.over:
        seat = a.actors[0]
        action = bots[seat].choose(a, seat)
        a.act(seat, action)
        b.act(seat, action)
    assert a.outcome() == b.outcome() and a.view(None) == b.view(None)


def test_A58_thief_taken_card_stays_known_in_every_sample(table):
    state = table(hands={1: ["THIEF", "CRUSH"], 2: ["STOP"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    for r in range(20):
        d = state.determinize(2, random.Random(r))
        assert "green P1000" in hand(d, 1)


def test_A58_pass_hands_known_cards_move_with_the_hand(table):
    state = table(hands={0: ["PASS_HANDS", "red P50", "red P1000"], 1: ["CRUSH"], 2: ["LOCK"]})
    act(state, A.PassHands())
    for r in range(20):
        d = state.determinize(0, random.Random(r))
        assert sorted(hand(d, 1)) == ["red P1000", "red P50"]  # player 0 gave them
        assert hand(d, 0) == ["LOCK"]


def test_A58_victim_of_take_random_knows_the_card(table):
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green X2"], 2: ["STOP"]})
    act(state, A.TakeRandom(1))
    pass_round(state)
    for r in range(10):
        assert "green X2" in hand(state.determinize(1, random.Random(r)), 0)


def test_A58_demand_black_giver_knows_third_party_does_not(table):
    state = table(hands={0: ["DEMAND_BLACK"], 1: ["STOP", "CRUSH", "LOCK"], 2: ["THIEF"]})
    act(state, A.DemandBlack(1))
    pass_round(state)
    act(state, A.Give("STOP", ""))
    act(state, A.Give("LOCK", ""))
    for r in range(10):
        assert sorted(hand(state.determinize(1, random.Random(r)), 0)) == ["LOCK", "STOP"]
    seen = {tuple(sorted(hand(state.determinize(2, random.Random(r)), 0))) for r in range(40)}
    assert len(seen) > 1  # player 2 cannot know which two cards moved
    d = state.determinize(2, random.Random(3))
    gives = [a for _, a in d.history if isinstance(a, A.Give)]
    assert sorted(f"{a.card}" for a in gives) == sorted(
        n.split()[-1] for n in hand(d, 0)
    )  # hidden choices rewritten to match


def test_A17_A20_no_white_turn_looks_like_any_other_to_others(table):
    a = table(hands={0: ["X3", "CRUSH"]}, seed=3)
    b = table(hands={0: ["CRUSH", "STOP"]}, seed=3)
    pass_round(a)
    pass_round(b)
    strip = [(e.kind, dict(e.data)) for e in a.events(1)[-6:]]
    other = [(e.kind, dict(e.data)) for e in b.events(1)[-6:]]
    assert strip == other


def test_views_never_show_other_hands(table):
    state = table(hands={0: ["red P50"], 1: ["green P1000", "THIEF"], 2: ["CRUSH"]})
    before = state.view(0)
    old = state.hands[1]
    state.hands[1] = sorted(state.deck[:2])  # other hidden cards for player 1
    state.deck = state.deck[2:] + old
    after = state.view(0)
    assert before["hand"] == after["hand"]
    assert before["seats"] == after["seats"]


def test_greedy_bot_ignores_hidden_cards():
    game = gamenight.load("arne", players=3)
    state = game.start(5)
    rng = random.Random(0)
    for _ in range(60):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    seat = state.actors[0]
    for r in range(5):
        twin = state.determinize(seat, random.Random(r))
        assert GreedyBot(7).choose(twin, seat) == GreedyBot(7).choose(state, seat)


def test_A25_determinized_target_can_still_answer_the_demand(table):
    state = table(
        players=3, hands={0: ["DEMAND_BLACK"], 1: ["STOP", "CRUSH", "red P50"], 2: ["green P100"]}
    )
    act(state, A.DemandBlack(1))
    pass_round(state)
    assert state.phase == Phase.GIVE
    for seat in (0, 2):
        for r in range(30):
            d = state.determinize(seat, random.Random(r))
            assert len(d.actions(1)) >= 1
            d.act(1, d.actions(1)[0])
            assert d.actions(1)


def test_A58_states_a_seat_cannot_tell_apart_determinize_alike(table):
    """Player 1 hands over STOP or CRUSH (with LOCK) to player 2: player 0 cannot tell the
    two games apart, so its determinizations are the same, history included."""
    from gamenight.engine import snapshot

    def game(first):
        state = table(
            turn_seat=2,
            hands={2: ["DEMAND_BLACK"], 0: ["green P100"], 1: ["STOP", "CRUSH", "LOCK", "red P50"]},
        )
        act(state, A.DemandBlack(1))
        pass_round(state)
        act(state, first)
        act(state, A.Give("LOCK", ""))
        pass_round(state)
        return state

    a, b = game(A.Give("STOP", "")), game(A.Give("CRUSH", ""))
    assert hand(a, 2) != hand(b, 2) and a.info_key(0) == b.info_key(0)
    for r in range(10):
        da, db = a.determinize(0, random.Random(r)), b.determinize(0, random.Random(r))
        assert snapshot(da) == snapshot(db) and da.history == db.history


def test_A58_played_copy_is_one_the_others_knew(table):
    """Player 0 passes a CRUSH to player 1, who then draws a second CRUSH (or a LOCK) and
    plays a CRUSH: copies are interchangeable, so the copy player 0 knew is the one that
    goes, and player 0 cannot tell the two games apart in any determinization."""
    from gamenight.engine import snapshot

    def game(drawn):
        state = table(
            hands={0: ["PASS_HANDS", "CRUSH"], 1: ["STOP"]},
            deck=[drawn],
            displays={2: ["yellow P100"]},
        )
        act(state, A.PassHands())
        pass_round(state)  # seat 1's turn: draws the card
        act(state, A.Crush(2, 0))
        return state

    a, b = game("CRUSH"), game("LOCK")
    assert a.info_key(0) == b.info_key(0) and hand(a, 1) != hand(b, 1)
    for r in range(10):
        da, db = a.determinize(0, random.Random(r)), b.determinize(0, random.Random(r))
        assert snapshot(da) == snapshot(db)


def test_A9_determinized_active_player_can_still_play_the_white_step(table):
    state = table(hands={0: ["red P50", "CRUSH"], 1: ["STOP"], 2: ["LOCK"]})
    pass_round(state)
    assert state.phase == Phase.WHITE
    for r in range(40):
        d = state.determinize(1, random.Random(r))
        assert d.actions(0)
