"""ISMCTS search settings: a game's named estimate for cut rollouts and progressive widening
of the root along the game's heuristic (Arne's margin estimate and greedy ranking)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gamenight
from gamenight.bots import estimates, make
from gamenight.bots.ismcts import ISMCTSBot
from gamenight.games.arne.bots import GreedyBot, margin_estimate


def arne_states(players, count, seed, wide=2, **options):
    """Arne states from random play where the mover has more than `wide` actions."""
    game = gamenight.load("arne", players=players, **options)
    rng = random.Random(seed)
    state = game.start(seed)
    found: list[Any] = []
    while len(found) < count:
        if state.over:
            state = game.start(rng.randrange(1 << 30))
            continue
        seat = state.actors[0]
        legal = state.actions(seat)
        if len(legal) > wide and rng.random() < 0.2:
            found.append(state.copy())
        state.act(seat, rng.choice(legal))
    return found


def test_margin_estimate_is_a_payoff_that_follows_the_lead():
    """Pairwise shares: every value in [0, 1], they sum to n/2 like the rank payoff, and
    points added to a seat's total raise its share and lower every other's (in the losing
    game the other way round)."""
    for players, mode in ((2, "normal"), (3, "losing"), (5, "normal")):
        for state in arne_states(players, 6, seed=players, wide=0, mode=mode):
            assert state.game.losing == (mode == "losing")
            guess = margin_estimate(state)
            assert len(guess) == players
            assert all(0.0 <= g <= 1.0 for g in guess)
            assert sum(guess) == pytest.approx(players / 2)
            richer = state.copy()
            richer.totals[0] += 500
            more = margin_estimate(richer)
            sign = -1 if state.game.losing else 1
            assert sign * (more[0] - guess[0]) > 0
            assert all(sign * (more[p] - guess[p]) < 0 for p in range(1, players))


def test_margin_estimate_survives_a_huge_lead():
    """A 3-player tournament crashed with OverflowError in math.exp: a gap of ~280,000
    points (1/MARGIN_SCALE of it past exp's range). Still a payoff, leader first."""
    for state in arne_states(3, 2, seed=9, wide=0):
        for lead in (10**6, -(10**7)):
            far = state.copy()
            far.totals[1] += lead
            guess = margin_estimate(far)
            assert all(0.0 <= g <= 1.0 for g in guess)
            assert sum(guess) == pytest.approx(1.5)
            leader = 1 if lead > 0 else max((0, 2), key=lambda p: guess[p])
            assert guess[leader] == max(guess)


def test_arne_names_its_margin_estimate_and_an_unknown_name_is_refused():
    assert estimates("arne")["margin"] is margin_estimate
    game = gamenight.load("arne", players=3)
    state = arne_states(3, 1, seed=1)[0]
    with pytest.raises(ValueError, match="no estimate 'oracle'"):
        make("ismcts", game, estimate="oracle", iterations="5").choose(state, state.actors[0])


def test_greedy_ranks_every_legal_action_with_its_choice_first():
    bot = GreedyBot(seed=0)
    for state in arne_states(4, 20, seed=4):
        seat = state.actors[0]
        ranked = bot.ranked(state, seat)
        legal = state.actions(seat)
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        best = GreedyBot(seed=0).choose(state, seat)
        assert GreedyBot(seed=0)._value_of(state, seat, ranked[0]) == pytest.approx(
            GreedyBot(seed=0)._value_of(state, seat, best)
        )


def test_widening_keeps_the_root_to_the_heuristics_best_actions():
    """With widen=2 and 15 iterations (a third action joins at 4^2 = 16), the
    root searches exactly greedy's two best actions."""
    for state in arne_states(4, 8, seed=9, wide=3):
        seat = state.actors[0]
        bot = ISMCTSBot(seed=1, iterations=15, widen=2, max_rollout=5)
        searched = {str(node.action) for node in bot.search(state, seat)}
        top = [str(a) for a in GreedyBot(seed=0).ranked(state, seat)[:2]]
        assert searched == set(top)
