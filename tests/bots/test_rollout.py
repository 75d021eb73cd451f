"""Arne's `hard` level from 3 players up: greedy improved by simulation (RolloutBot).
Strength is measured by `gamenight tournament` (figures in arne/bots.py), not here."""

from __future__ import annotations

import pytest

import gamenight
from gamenight.bots import levels, make, make_seat
from gamenight.engine.core import BadInput
from gamenight.engine.driver import play
from gamenight.games.arne.bots import (
    GreedyBot,
    RolloutBot,
    SearchGreedy,
    _RolloutGreedy,
)
from tests.bots.test_search import arne_states


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hard_is_the_rollout_bot_at_three_players_and_up(players):
    game = gamenight.load("arne", players=players)
    assert levels("arne", players)["hard"].startswith("bot:rollout")
    bot = make_seat("hard", game, 7)
    assert isinstance(bot, RolloutBot)
    # about three rounds of decisions (a turn is n + 1 of them) from 4 players up
    assert (bot.samples, bot.horizon) == {3: (16, 60), 4: (16, 60), 5: (32, 90), 6: (32, 126)}[
        players
    ]


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
    assert make("rollout", game, bounded=True, samples="48", top="12", horizon="200", cut="12")
    for key, value in (("samples", "49"), ("top", "13"), ("horizon", "201"), ("cut", "13")):
        with pytest.raises(BadInput, match=f"'{key}'"):
            make("rollout", game, bounded=True, **{key: value})


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_hard_level_stays_within_a_servers_ceilings(players):
    game = gamenight.load("arne", players=players)
    assert make_seat(levels("arne", players)["hard"], game, 0, bounded=True)


def test_cut_keeps_the_best_candidates_after_half_the_samples():
    """With cut=2 of 4 candidates, the two that lead after half the samples (the very same
    futures as a bot that stops there: one seed, one stream) play the rest; the others
    are out (-inf), and the pick is one of the two."""
    for state in arne_states(5, 4, seed=8, wide=4):
        seat = state.actors[0]
        candidates = GreedyBot().ranked(state, seat)[:4]
        half = RolloutBot(seed=9, samples=3, horizon=6).values(state, seat, candidates)
        full = RolloutBot(seed=9, samples=6, horizon=6, cut=2).values(state, seat, candidates)
        leaders = sorted(range(4), key=lambda i: (-half[i], i))[:2]
        assert [i for i in range(4) if full[i] > float("-inf")] == sorted(leaders)
        for i in leaders:
            assert full[i] >= half[i] - 1e-9  # the second half only adds payoffs
        pick = RolloutBot(seed=9, samples=6, horizon=6, cut=2).choose(state, seat)
        assert pick in [candidates[i] for i in leaders]


def test_without_cut_every_candidate_plays_every_sample():
    state = arne_states(5, 1, seed=8, wide=4)[0]
    seat = state.actors[0]
    candidates = GreedyBot().ranked(state, seat)[:4]
    assert all(
        v > float("-inf") for v in RolloutBot(samples=4, horizon=4).values(state, seat, candidates)
    )
    with pytest.raises(ValueError, match="cut >= 0"):
        RolloutBot(cut=-1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {}),
        (5, {"mode": "losing"}),
        (4, {"variant": "team"}),
        (3, {"variant": "dummy"}),
        (6, {"variant": "team", "mode": "losing"}),
    ],
)
def test_rollout_seats_value_every_action_as_greedy_does(players, options):
    """The rollout's greedy reads `_table_view` and `_table_stacks`, built from the state,
    instead of the whole view: the same stacks and scores, and every action gets the very
    value greedy gives it, in every variant."""
    for state in arne_states(players, 25, seed=players, wide=1, **options):
        for seat in {state.actors[0], 0}:
            full = GreedyBot()._context(state, seat)
            table = SearchGreedy()._context(state, seat)
            assert table.tables == full.tables and table.scores == full.scores
            for action in state.actions(seat) or []:
                assert table.value(action) == full.value(action), action
    rollout, greedy = _RolloutGreedy(4), GreedyBot(4)  # ties drawn from one stream
    search, greedy_too = SearchGreedy(5), GreedyBot(5)  # ISMCTS's greedy: the same draws
    for state in arne_states(players, 40, seed=players + 1, wide=1, **options):
        seat = state.actors[0]
        assert rollout.choose(state, seat) == greedy.choose(state, seat)
        assert search.ranked(state, seat) == greedy_too.ranked(state, seat)
        assert search.choose(state, seat) == greedy_too.choose(state, seat)


def test_ismcts_plays_a_games_search_heuristic_and_else_its_heuristic():
    """Arne names the faster greedy for its searches; a game that names none is searched
    with its heuristic bot itself."""
    from gamenight.bots import available, search_heuristic
    from gamenight.bots.ismcts import ISMCTSBot

    arne = gamenight.load("arne", players=2)
    assert search_heuristic("arne") is SearchGreedy
    assert type(ISMCTSBot(arne, rollout="heuristic")._heuristic_bot(arne)) is SearchGreedy
    assert search_heuristic("drop-or-stop") is available("drop-or-stop")["threshold"]
