"""Bots (greedy beats random) and the terminal pieces."""

import pytest
from rich.console import Console

import gamenight
from gamenight.engine.core import BadInput
from gamenight.engine.driver import RandomBot, play
from gamenight.games.arne import actions as A
from gamenight.games.arne import terminal
from gamenight.games.arne.bots import BOTS, HEURISTIC, GreedyBot
from gamenight.games.arne.phases import Phase


def test_bot_registry_names():
    assert BOTS["greedy"] is GreedyBot and HEURISTIC == "greedy" and "random" in BOTS


def test_greedy_beats_random_two_players():
    game = gamenight.load("arne", players=2)
    payoff = 0.0
    games = 200
    for i in range(games):
        seat = i % 2
        bots = [GreedyBot(i), RandomBot(i)] if seat == 0 else [RandomBot(i), GreedyBot(i)]
        payoff += play(game, bots, seed=i).outcome().payoff[seat]
    assert payoff / games > 0.65


def test_greedy_plays_sensibly(table):
    # lays its own points
    state = table(hands={0: ["red P1000", "green P50"]})
    state.phase = Phase.WHITE
    assert GreedyBot().choose(state, 0) == A.PlayPoint("P1000", "red", 0)
    # crushes the leader's big card
    state = table(hands={1: ["CRUSH"]}, displays={0: ["red P1000", "red P50"]})
    state.act(0, A.PASS)
    assert GreedyBot().choose(state, 1) == A.Crush(0, 0)
    # locks a crush on its own card, and -200 goes on the leader
    state = table(
        hands={1: ["LOCK", "red MINUS200"]}, displays={1: ["green P1000+CRUSH"], 0: ["red P500"]}
    )
    state.act(0, A.PASS)
    assert GreedyBot().choose(state, 1) == A.Lock(1, 0)
    state.act(1, A.Lock(1, 0))
    state2 = table(hands={1: ["red MINUS200"]}, displays={0: ["red P500"], 1: ["green P100"]})
    state2.act(0, A.PASS)
    assert GreedyBot().choose(state2, 1) == A.MinusTwoHundred("red", 0)
    # keeps a thief for a chameleon stack
    state = table(
        hands={1: ["THIEF"]}, discard=["yellow P50"], displays={0: ["yellow P1000+CHAMELEON"]}
    )
    state.act(0, A.PASS)
    assert GreedyBot().choose(state, 1) == A.ThiefStack(0, 0)
    state = table(hands={1: ["THIEF"]}, discard=["yellow P50"])
    state.act(0, A.PASS)
    assert GreedyBot().choose(state, 1) == A.PASS


def test_terminal_render_describe_parse(table):
    state = table(
        hands={0: ["red P100", "CRUSH", "STOP"]}, displays={1: ["green P500+X3", "green P50"]}
    )
    console = Console(record=True, width=120)
    console.print(terminal.render(state.view(0)))
    text = console.export_text()
    assert "red 100" in text and "1: 500 (x3)" in text and "may answer now (main)" in text
    lines = terminal.describe_actions(state, 0)
    # at the start of your own turn a pass lets the black cards answer first, then you play
    assert len(lines) == len(state.actions(0)) and lines[0] == terminal.OWN_TURN_PASS
    assert terminal.parse("1", state, 0) == A.PASS
    assert terminal.parse("pass", state, 0) == A.PASS
    assert terminal.parse("crush display 2 stack 1", state, 0) == A.Crush(1, 0)  # shown from 1
    assert terminal.parse("stop!", state, 0) == A.Stop()
    with pytest.raises(BadInput, match="no action number"):
        terminal.parse("99", state, 0)
    with pytest.raises(BadInput, match="not a legal action"):
        terminal.parse("fly away", state, 0)
    assert terminal.parse("pass", state, 1) == A.PASS  # a pass in advance
    fresh = gamenight.load("arne", players=3).start(0)
    with pytest.raises(BadInput, match="owe no decision"):
        terminal.parse("pass", fresh, 1)
    with pytest.raises(BadInput, match="fits"):
        terminal.parse("crush", state, 0)
    assert terminal.parse("play", state, 0) == A.PlayPoint("P100", "red", 0)
    for e in state.events(0):
        line = terminal.describe_event(e)
        assert line is None or isinstance(line, str)
