"""The 2-player solver (round_tree.py, cfr.py), its certificate (exact_response.py) and the
`equilibrium` bot (equilibrium.py). The certificate is checked against OpenSpiel's own best
response (explicit chance, every card a chance node) on small decks, where OpenSpiel can
walk the whole game: the two must agree to rounding."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from open_spiel.python import policy as spiel_policy
from open_spiel.python.algorithms import exploitability

import gamenight
import gamenight.adapters.openspiel
from gamenight.adapters.policies import spiel_policy as bot_policy
from gamenight.bots import make_seat
from gamenight.engine import BadInput, play
from gamenight.games.drop_or_stop.cfr import RoundSolver, contexts, solve_game, utilities
from gamenight.games.drop_or_stop.equilibrium import EquilibriumBot, policy_path, solved, table
from gamenight.games.drop_or_stop.exact_response import (
    BotPolicy,
    TablePolicy,
    exact_bot_reads,
    game_best_responses,
    nash_conv,
    rows_between,
)
from gamenight.games.drop_or_stop.round_tree import (
    BOTH,
    END,
    O_ALONE,
    OTHER,
    S_ALONE,
    START,
    RoundTree,
    Rules,
)
from tests.drop_or_stop.small_rounds import one_round

THREE_KINDS = {
    "deck": [{"id": f"D{v}", "kind": "fixed", "value": v, "copies": 13} for v in (1, 2, 3)]
}
ROUND_WIN = np.asarray([1.0, 0.0, 0.5, 0.5])  # one round decides; nobody: truncated (R34)


def small(tmp_path, target=4, hand_size=1):
    """One round of a three-kind deck, as the engine plays it and as OpenSpiel sees it."""
    return one_round(tmp_path, 2, target, THREE_KINDS, hand_size)


def node_of(tree, state, seat):
    """The public node and the seat's hand of an engine state (S is seat 0)."""
    kind = state.game.card_kind

    def counts(cards):
        return tuple(np.bincount([kind[c] for c in cards], minlength=tree.rules.kinds).tolist())

    ts = tree.tableau_index.get(counts(state.tableaux[0]))
    to = tree.tableau_index.get(counts(state.tableaux[1]))
    active = state.active
    phase = BOTH if all(active) else (S_ALONE if active[0] else O_ALONE)
    return tree.index.get((phase, ts, to), -1), tree.hands.index(counts(state.hands[seat]))


class Spiel(spiel_policy.Policy):
    """A table of the tree as an OpenSpiel policy (STOP where the tree has no node)."""

    def __init__(self, spiel, tree, drop):
        super().__init__(spiel, [0, 1])
        self.tree, self.drop = tree, drop

    def action_probabilities(self, state, player_id=None):
        legal = state.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        node, hand = node_of(self.tree, state.inner, state.current_player())
        if not 0 <= node < self.tree.decisions:
            return {1: 1.0}
        p = float(self.drop[node, hand])
        return {0: p, 1: 1.0 - p}


def test_r7_r11_the_chance_of_every_deal_and_card_adds_up(tmp_path):
    game, _ = small(tmp_path, target=5, hand_size=2)
    tree = RoundTree(Rules.of(game))
    assert tree.prior.sum() == pytest.approx(1.0)
    for start, stop in tree.groups:
        p = tree.chance(start, stop).sum(axis=2)
        assert np.allclose(p[p > 0], 1.0)


def test_r32_only_a_seat_not_certainly_over_is_asked():
    """A seat whose tableau is over the target with the smallest hand (R32) never decides
    in the tree: it is stopped (R18: it cannot win); every node's mover is live."""
    tree = RoundTree(Rules.of(gamenight.load("drop-or-stop", players=2)))
    d = tree.decisions
    mine = np.where(tree.mover[:d] == START, tree.ts[:d], tree.to[:d])
    assert tree.live[mine].all()
    assert (tree.phase[: tree.decisions] != END).all()
    assert len(tree.joint) == 21 * 21  # every pair of hands fits the standard deck


def test_cfr_converges_and_its_certificate_is_openspiels(tmp_path):
    """DCFR's average strategy on a small deck: the exact best response finds it within
    1e-3 of an equilibrium, and OpenSpiel's own best response finds the same gain."""
    game, spiel = small(tmp_path)
    tree = RoundTree(Rules.of(game))
    solver = RoundSolver(tree, dtype=np.float64)
    solver.set_utilities(ROUND_WIN)
    solver.iterate(10)
    early = solver.nash_conv(solver.average())
    solver.iterate(190)
    drop = solver.average()
    full = RoundTree(Rules.of(game), prune=False)
    policy = TablePolicy(drop, rows_between(full, tree))
    best_s, best_o, conv = nash_conv(full, policy, policy, ROUND_WIN)
    assert conv < 1e-3 < early
    assert exploitability.nash_conv(spiel, Spiel(spiel, tree, drop)) == pytest.approx(
        conv, abs=1e-12
    )
    assert best_s + best_o == pytest.approx(1.0 + conv)


@pytest.mark.parametrize("bot", ["bot:threshold", "bot:exact"])
def test_the_certificate_of_a_bot_is_openspiels(tmp_path, bot):
    """Bots asked through the engine (BotPolicy); `exact` reads the order of the other
    seat's cards, which `exact_bot_reads` names for the walk's memo."""
    game, spiel = small(tmp_path, target=5, hand_size=2)
    tree = RoundTree(Rules.of(game), prune=False)
    sides = [
        BotPolicy(
            tree,
            game,
            seat,
            lambda: make_seat(bot, game, 0),
            exact_bot_reads(tree, seat) if bot == "bot:exact" else None,
        )
        for seat in (START, OTHER)
    ]
    _, _, conv = nash_conv(tree, sides[START], sides[OTHER], ROUND_WIN)
    assert exploitability.nash_conv(spiel, bot_policy(spiel, bot)) == pytest.approx(conv, abs=1e-12)


def test_r20_r21_r23_a_rounds_results_are_worth_what_the_game_makes_of_them():
    """Context (start seat's wins, other's wins); the start card moves (R23), so the next
    round's start seat is the other; 3 wins end the game (R21), together they share it."""
    values = {(b, a): 0.5 + 0.01 * (b - a) for a, b in contexts(3)}
    assert list(utilities((2, 2), values, 3)) == [1.0, 0.0, 0.5, 1.0 - values[(2, 2)]]
    u = utilities((0, 1), values, 3)
    assert u[0] == pytest.approx(1.0 - values[(1, 1)])  # S wins: (1, 1), the other starts
    assert u[1] == pytest.approx(1.0 - values[(2, 0)])  # O wins: O starts with 2 to 0
    assert u[3] == pytest.approx(1.0 - values[(1, 0)])  # nobody (R19): swapped, replayed
    assert contexts(3)[0] == (2, 2) and contexts(3)[-1] == (0, 0)


# -- the shipped policy -----------------------------------------------------------------------
needs_policy = pytest.mark.skipif(not policy_path().is_file(), reason="no equilibrium.npz")


@needs_policy
def test_the_shipped_policy_is_small_and_fits_the_standard_game():
    assert policy_path().stat().st_size < 2_000_000
    policy = solved()
    assert policy.fits(gamenight.load("drop-or-stop", players=2)) is None
    assert "3" in policy.fits(gamenight.load("drop-or-stop", players=3))
    assert sorted(policy.contexts) == sorted(contexts(3))
    assert all(0.0 < v < 1.0 for v in policy.game_values)


@needs_policy
def test_the_bot_refuses_tables_it_was_not_solved_for_in_one_line():
    with pytest.raises(BadInput, match="solved for 2 players") as err:
        make_seat("bot:equilibrium", gamenight.load("drop-or-stop", players=3), 0)
    assert "\n" not in str(err.value)


@needs_policy
def test_r25_the_bot_reads_its_own_view_and_plays_the_table():
    """At every decision of random 2-player games, the bot's P(DROP) is the table's entry
    for its node and hand (the tree's own lookup), and equal in a determinized twin (R25:
    other hands and the draw pile resampled)."""
    game = gamenight.load("drop-or-stop", players=2)
    tree = RoundTree(Rules.of(game))
    bot = EquilibriumBot(game)
    policy = solved()
    rng = random.Random(4)
    checked = 0
    for seed in range(40):
        state = game.start(seed)
        while not state.over:
            seat = state.actors[0]
            view = state.view(seat)
            chance = policy.drop_chance(view, bot.index)
            twin = state.determinize(seat, rng)
            assert policy.drop_chance(twin.view(seat), bot.index) == chance
            start = state.start_seat
            flipped = _as_start_zero(state, start)
            node, hand = node_of(tree, flipped, (seat - start) % 2)
            wins = (state.wins[start], state.wins[1 - start])
            if 0 <= node < tree.decisions and tree.mover[node] == (seat - start) % 2:
                assert chance == pytest.approx(table(policy, wins)[node, hand])
                checked += 1
            state.act(seat, bot.choose(state, seat))
    assert checked > 300


def _as_start_zero(state, start):
    """The state with its seats renumbered so that the start seat is seat 0."""
    twin = state.copy()
    order = [start, 1 - start]
    twin.hands = [state.hands[s] for s in order]
    twin.tableaux = [state.tableaux[s] for s in order]
    twin.active = [state.active[s] for s in order]
    return twin


@needs_policy
def test_the_bot_plays_whole_games():
    game = gamenight.load("drop-or-stop", players=2)
    for seed in range(5):
        seats = [make_seat("bot:equilibrium", game, seed), make_seat("bot:threshold", game, seed)]
        assert play(game, seats, seed).over


def test_r21_r23_the_whole_game_is_solved_context_by_context(tmp_path):
    """A small deck played to 2 round wins: every context solved back from (1, 1), and a
    best responder that also answers best in every later round gains little in each
    (and much against the uniform policy); its payoff is never below the solved value."""
    deck = tmp_path / "three-kinds.json"
    deck.write_text(json.dumps(THREE_KINDS))
    game = gamenight.load("drop-or-stop", players=2, deck=str(deck), target=5, wins_to_win=2)
    tree = RoundTree(Rules.of(game))
    solution = solve_game(RoundSolver(tree, dtype=np.float64), 2, iterations=150, passes=2)
    full = RoundTree(Rules.of(game), prune=False)
    rows = rows_between(full, tree)
    solved = {c: (TablePolicy(p, rows),) * 2 for c, p in solution.policies.items()}
    uniform = {
        c: (TablePolicy(np.full_like(p, 0.5), rows),) * 2 for c, p in solution.policies.items()
    }
    best = game_best_responses(full, solved, 2)
    for a, b in contexts(2):  # (a pair's values agree to the last pass: 1e-4)
        assert best[(a, b, START)] >= solution.values[(a, b)] - 1e-4
        assert best[(a, b, OTHER)] >= 1 - solution.values[(a, b)] - 1e-4
        assert best[(a, b, START)] + best[(a, b, OTHER)] - 1 < 5e-4
    worst = game_best_responses(full, uniform, 2)
    assert worst[(0, 0, START)] + worst[(0, 0, OTHER)] - 1 > 0.3
