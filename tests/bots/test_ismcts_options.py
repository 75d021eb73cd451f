"""ISMCTS options: paired root comparison (`paired=True`: every round resamples the hidden
cards once and searches each candidate root action on a copy of that same world) and
widening of every node along the heuristic (`widen_tree=True`, Arne's setting)."""

from __future__ import annotations

import pytest

from gamenight.bots import make
from gamenight.bots.ismcts import ISMCTSBot
from gamenight.games.arne.bots import GreedyBot
from gamenight.games.arne.state import ArneState
from tests.bots.test_search import arne_states


def stats(children):
    return sorted((str(c.action), c.visits, round(c.reward, 9)) for c in children)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", [{}, {"paired": "true"}, {"widen_tree": "false"}])
def test_search_is_legal_and_deterministic_by_seed(players, options):
    """Arne's own settings (widen_tree on), with paired on, and with widen_tree off."""
    for state in arne_states(players, 3, seed=players + 20, wide=3):
        seat = state.actors[0]
        legal = [str(a) for a in state.actions(seat)]
        runs = []
        for _ in range(2):
            bot = make("ismcts", state.game, seed="7", iterations="30", **options)
            assert isinstance(bot, ISMCTSBot)
            assert bot.paired == ("paired" in options)
            assert bot.widen_tree == ("widen_tree" not in options)
            runs.append((str(bot.choose(state, seat)), stats(bot.search(state.copy(), seat))))
        assert runs[0] == runs[1]
        assert runs[0][0] in legal
        assert all(action in legal for action, _, _ in runs[0][1])
        other = make("ismcts", state.game, seed="8", iterations="30", **options)
        assert str(other.choose(state, seat)) in legal


def test_one_determinization_serves_every_candidate(monkeypatch):
    """Unpaired, each iteration draws its own world; paired, a round of `widen` iterations
    draws one: the candidates are compared on the same hidden cards."""
    drawn = []
    original = ArneState.determinize

    def counting(self, seat, rng):
        drawn.append(seat)
        return original(self, seat, rng)

    monkeypatch.setattr(ArneState, "determinize", counting)
    state = arne_states(2, 1, seed=31, wide=4)[0]
    seat = state.actors[0]
    for paired, per_world in ((False, 1), (True, 4)):
        drawn.clear()
        bot = ISMCTSBot(seed=3, iterations=40, widen=4, max_rollout=5, paired=paired)
        bot.search(state, seat)
        assert bot.last_iterations == 40
        assert len(drawn) * per_world == 40


def test_paired_candidates_are_the_heuristics_best_and_share_the_visits():
    """Whole rounds: greedy's `widen` best actions, each visited once per round, also under a
    time budget; the choice is the one with the best summed (so mean) payoff."""
    for state in arne_states(4, 6, seed=12, wide=4):
        seat = state.actors[0]
        top = {str(a) for a in GreedyBot(seed=0).ranked(state, seat)[:3]}
        for budget in ({"iterations": 31}, {"seconds": 0.005}):
            bot = ISMCTSBot(seed=2, widen=3, max_rollout=5, paired=True, **budget)
            children = bot.search(state, seat)
            assert {str(c.action) for c in children} == top
            assert len({c.visits for c in children}) == 1
            assert bot.last_iterations == 3 * children[0].visits
        bot = ISMCTSBot(seed=2, iterations=30, widen=3, max_rollout=5, paired=True)
        best = max(bot.search(state, seat), key=lambda c: c.reward)
        again = ISMCTSBot(seed=2, iterations=30, widen=3, max_rollout=5, paired=True)
        assert str(again.choose(state, seat)) == str(best.action)


def test_paired_without_widening_compares_every_legal_action():
    state = arne_states(2, 1, seed=5, wide=3)[0]
    seat = state.actors[0]
    legal = state.actions(seat)
    bot = ISMCTSBot(seed=1, iterations=4 * len(legal), max_rollout=3, paired=True)
    children = bot.search(state, seat)
    assert sorted(str(c.action) for c in children) == sorted(map(str, legal))
    assert {c.visits for c in children} == {4}


def test_widen_tree_expands_the_movers_best_ranked_action_first(monkeypatch):
    """widen_tree: below the root a node's actions are the heuristic's ranking on the
    iteration's world from the mover's view, and the best of them is expanded first (not a
    random one of dozens)."""
    seen = []
    original = GreedyBot.ranked

    def recording(self, state, seat):
        ranked = original(self, state, seat)
        seen.append((seat, [str(a) for a in ranked]))
        return ranked

    monkeypatch.setattr(GreedyBot, "ranked", recording)
    checked = 0
    for state in arne_states(2, 8, seed=40, wide=3):
        seat = state.actors[0]
        seen.clear()
        bot = ISMCTSBot(seed=4, iterations=2, widen=1, widen_tree=True, max_rollout=3)
        (only,) = bot.search(state, seat)
        assert str(only.action) == seen[0][1][0]  # the root: greedy's best alone
        if len(seen) == 2:  # the second iteration expanded below it, the mover had a choice
            (grandchild,) = only.children.values()
            mover, ranked = seen[1]
            assert grandchild.mover == mover and str(grandchild.action) == ranked[0]
            checked += 1
        plain = ISMCTSBot(seed=4, iterations=2, widen=1, max_rollout=3)
        seen.clear()
        plain.search(state, seat)
        assert len(seen) == 1  # without widen_tree only the root is ranked
    assert checked >= 3


def test_skip_forced_puts_no_lone_action_in_the_tree(monkeypatch):
    """skip_forced: below the root, a mover with one legal action (Arne: the lone Pass of
    a black-card window) plays it without a node of the tree; without it such nodes are
    made. Each node is made right after its mover's `actions` was read (or ranked, which
    reads it), so the length of that last read is the node's number of choices (the root's
    widened actions are given, not read: a fresh world reads as -1)."""
    from gamenight.bots import ismcts

    last_read: list[int] = [0]
    original = ArneState.actions

    def reading(self, seat):
        legal = original(self, seat)
        last_read[0] = len(legal)
        return legal

    determinize = ArneState.determinize

    def fresh_world(self, seat, rng):
        world = determinize(self, seat, rng)
        last_read[0] = -1
        return world

    made: list[int] = []  # each node's number of choices; roots (no action) left out

    class Recorded(ismcts.SearchNode):
        def __init__(self, action, mover):
            super().__init__(action, mover)
            if action is not None:
                made.append(last_read[0])

    monkeypatch.setattr(ArneState, "actions", reading)
    monkeypatch.setattr(ArneState, "determinize", fresh_world)
    monkeypatch.setattr(ismcts, "SearchNode", Recorded)
    counts = {}
    for skip in (False, True):
        made.clear()
        for state in arne_states(2, 3, seed=41, wide=3):
            seat = state.actors[0]
            bot = make("ismcts", state.game, seed="5", iterations="200", skip_forced=str(skip))
            assert bot.skip_forced is skip
            children = bot.search(state, seat)
            assert children and all(c.mover == seat for c in children)
            assert str(bot.choose(state, seat)) in [str(a) for a in state.actions(seat)]
        counts[skip] = made.count(1)
    assert counts[False] > 0  # the old tree spent expansions on forced moves
    assert counts[True] == 0
