"""Hidden information (section 6, A47, A48, A58) and the worked turn of section 8."""

import random

import gamenight
from gamenight.engine.driver import RandomBot
from gamenight.games.arne import actions as A
from gamenight.games.arne.bots import GreedyBot
from tests.arne.helpers import act, hand, pass_round, stack_names, table


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


def test_A58_thief_taken_card_stays_known_in_every_sample():
    state = table(hands={1: ["THIEF", "CRUSH"], 2: ["STOP"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    for r in range(20):
        d = state.determinize(2, random.Random(r))
        assert "green P1000" in hand(d, 1)


def test_A58_pass_hands_known_cards_move_with_the_hand():
    state = table(hands={0: ["PASS_HANDS", "red P50", "red P1000"], 1: ["CRUSH"], 2: ["LOCK"]})
    act(state, A.PassHands())
    for r in range(20):
        d = state.determinize(0, random.Random(r))
        assert sorted(hand(d, 1)) == ["red P1000", "red P50"]  # player 0 gave them
        assert hand(d, 0) == ["LOCK"]


def test_A58_victim_of_take_random_knows_the_card():
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green X2"], 2: ["STOP"]})
    act(state, A.TakeRandom(1))
    pass_round(state)
    for r in range(10):
        assert "green X2" in hand(state.determinize(1, random.Random(r)), 0)


def test_A58_demand_black_giver_knows_third_party_does_not():
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


def test_A17_A20_no_white_turn_looks_like_any_other_to_others():
    a = table(hands={0: ["X3", "CRUSH"]}, seed=3)
    b = table(hands={0: ["CRUSH", "STOP"]}, seed=3)
    pass_round(a)
    pass_round(b)
    strip = [(e.kind, dict(e.data)) for e in a.events(1)[-6:]]
    other = [(e.kind, dict(e.data)) for e in b.events(1)[-6:]]
    assert strip == other


def test_views_never_show_other_hands():
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


def test_worked_turn_of_section_8():
    # Seats 0 Red (Ann), 1 Green (Ben), 2 Blue (Cy); Ann's turn.
    state = table(
        colours=("red", "green", "blue"),
        hands={
            0: ["CHAMELEON", "blue P500", "DEMAND_POINTS"],
            1: ["CRUSH", "red P100"],
            2: ["THIEF", "STOP"],
        },
    )
    act(state, A.Chameleon("P500", "blue", 0))  # 1. black action, Ann keeps priority
    assert state.actors[0] == 0
    act(state, A.DemandPoints(1, "red", 0))
    assert state.window == 1 and state.actors[0] == 1  # 2. PRE window starts with Ben
    act(state, A.Crush(0, 0))
    act(state, A.PASS)
    act(state, A.PASS)  # Cy
    act(state, A.PASS)  # Ann -> closed
    # 3. RESOLVE: Ben's only red card goes face up into Ann's display
    assert stack_names(state, 0) == ["blue P500", "red P100"]
    assert state.view(None)["discard"][-1] == "DEMAND_POINTS"
    assert state.window == 2 and state.actors[0] == 1  # 4. END window starts with Ben
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))  # Cy takes the chameleon stack with its crush
    blue = state.view(None)["displays"][2]["stacks"]
    assert blue == [
        {"base": "blue P500", "chameleon": False, "x3": False, "crush": True, "lock": False}
    ]
    assert state.view(None)["discard"][-2:] == ["CHAMELEON", "THIEF"]
    act(state, A.Stop())
    act(state, A.PASS)
    assert state.quiet == 1
    act(state, A.PASS)  # Ann
    act(state, A.PASS)  # Ben -> closed (counter 3)
    # 5. END_OF_TURN: STOP(Cy) -> Cy's turn
    assert state.turn_seat == 2 and state.active == 2


def test_A25_determinized_target_can_still_answer_the_demand():
    state = table(
        players=3, hands={0: ["DEMAND_BLACK"], 1: ["STOP", "CRUSH", "red P50"], 2: ["green P100"]}
    )
    act(state, A.DemandBlack(1))
    pass_round(state)
    assert state.phase == 3
    for seat in (0, 2):
        for r in range(30):
            d = state.determinize(seat, random.Random(r))
            assert len(d.actions(1)) >= 1
            d.act(1, d.actions(1)[0])
            assert d.actions(1)


def test_A58_states_a_seat_cannot_tell_apart_determinize_alike():
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


def test_A58_played_copy_is_one_the_others_knew():
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


def test_A9_determinized_active_player_can_still_play_the_white_step():
    state = table(hands={0: ["red P50", "CRUSH"], 1: ["STOP"], 2: ["LOCK"]})
    pass_round(state)
    assert state.phase == 2
    for r in range(40):
        d = state.determinize(1, random.Random(r))
        assert d.actions(0)
