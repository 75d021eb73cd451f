"""Arne's `hard` level from 3 players up: greedy improved by simulation (RolloutBot).
Strength is measured by `gamenight tournament` (figures in arne/bots.py), not here."""

from __future__ import annotations

import pytest

import gamenight
from gamenight.bots import levels, make, make_seat
from gamenight.engine.core import BadInput
from gamenight.engine.driver import play
from gamenight.games.arne.bots import GreedyBot, RolloutBot
from tests.bots.test_search import arne_states


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hard_is_the_rollout_bot_at_three_players_and_up(players):
    game = gamenight.load("arne", players=players)
    assert levels("arne", players)["hard"].startswith("bot:rollout")
    bot = make_seat("hard", game, 7)
    assert isinstance(bot, RolloutBot)
    assert (bot.samples, bot.horizon) == ((16, 60) if players <= 4 else (48, 20))


@pytest.mark.parametrize("players", [3, 6])
def test_rollout_plays_a_legal_action_among_greedys_best(players):
    for state in arne_states(players, 4, seed=players, wide=3):
        seat = state.actors[0]
        bot = RolloutBot(seed=1, samples=3, top=2, horizon=8)
        before = list(state.events(seat))
        action = bot.choose(state, seat)
        assert action in state.actions(seat)
        assert action in GreedyBot().ranked(state, seat)[:2]
        assert state.events(seat) == before  # the search never touches the real table


def test_rollout_is_deterministic_under_a_seed():
    states = arne_states(4, 5, seed=11, wide=3)
    picks = []
    for _ in range(2):
        bot = RolloutBot(seed=5, samples=4, horizon=10)
        picks.append([bot.choose(state, state.actors[0]) for state in states])
    assert picks[0] == picks[1]


def test_one_candidate_plays_greedys_best_and_bad_settings_are_refused():
    for state in arne_states(3, 3, seed=2, wide=3):
        seat = state.actors[0]
        best = GreedyBot().ranked(state, seat)[0]
        assert RolloutBot(seed=3, samples=2, top=1, horizon=5).choose(state, seat) == best
    with pytest.raises(ValueError, match="samples >= 1"):
        RolloutBot(samples=0)


def test_a_whole_game_with_a_rollout_seat_ends():
    game = gamenight.load("arne", players=3)
    seats = [make_seat("bot:rollout?samples=2&horizon=5", game, 1), GreedyBot(2), GreedyBot(3)]
    final = play(game, seats, 4)
    assert final.over


def test_a_server_caps_the_rollout_bots_work_per_move():
    game = gamenight.load("arne", players=4)
    assert make("rollout", game, bounded=True, samples="48", top="12", horizon="200")
    for key, value in (("samples", "49"), ("top", "13"), ("horizon", "201")):
        with pytest.raises(BadInput, match=f"'{key}'"):
            make("rollout", game, bounded=True, **{key: value})
