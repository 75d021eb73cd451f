"""The certificate at 3 and 4 players (exact_response_multi.py): checked against OpenSpiel's
own best response (explicit chance, every card a chance node) on small decks where OpenSpiel
walks the whole round, against exact_response.py at 2 players, and on a toy deck where a
profile is a best response to itself (its gain is 0)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from open_spiel.python import policy as spiel_policy
from open_spiel.python.algorithms import exploitability

import gamenight
import gamenight.adapters.openspiel
from gamenight.adapters.policies import spiel_policy as bot_policy
from gamenight.bots import make_seat
from gamenight.games.drop_or_stop.actions import DROP, STOP
from gamenight.games.drop_or_stop.exact_response import BotPolicy, best_response
from gamenight.games.drop_or_stop.exact_response_multi import (
    ENGINE_PAYOFF,
    ROUND_SHARE,
    Round,
    bot_profile,
    certify,
    profile_values,
)
from gamenight.games.drop_or_stop.round_tree import OTHER, START, RoundTree, Rules
from tests.drop_or_stop.small_rounds import one_round

TWO_KINDS = {
    "deck": [
        {"id": "D1", "kind": "fixed", "value": 1, "copies": 20},
        {"id": "D2", "kind": "fixed", "value": 2, "copies": 19},
    ]
}
THREE_KINDS = {
    "deck": [{"id": f"D{v}", "kind": "fixed", "value": v, "copies": 13} for v in (1, 2, 3)]
}
ONE_KIND = {"deck": [{"id": "D3", "kind": "fixed", "value": 3, "copies": 39}]}
ROUND_WIN = np.asarray([1.0, 0.0, 0.5, 0.5])  # exact_response.py's tests: S, O, both, nobody


def small(tmp_path, players, target, deck=TWO_KINDS, hand_size=1):
    """One first round of a small deck, as the engine plays it and as OpenSpiel sees it
    (one round win decides, a one-round cap: OpenSpiel's returns are ENGINE_PAYOFF)."""
    return one_round(tmp_path, players, target, deck, hand_size)


class Uniform:
    """P(DROP) = 1/2 wherever DROP is legal: a mixed policy, like OpenSpiel's uniform one."""

    ordered = False

    def drop(self, node, history, hands):
        return np.full(len(hands), 0.5)

    def memo(self, history, node):
        return None


def threshold_profile(table, game, text="bot:threshold"):
    return bot_profile(table, game, lambda seat: make_seat(text, game, seat))


@pytest.mark.parametrize(("players", "target"), [(3, 3), (4, 2)])
def test_the_certificate_of_a_bot_is_openspiels(tmp_path, players, target):
    """Every seat's gain, a best response in the real round against the others asked
    through the engine, is OpenSpiel's player improvement to 1e-12."""
    game, spiel = small(tmp_path, players, target)
    table = Round(Rules.of(game), players)
    gains = certify(table, threshold_profile(table, game), ENGINE_PAYOFF)
    theirs = exploitability.nash_conv(
        spiel, bot_policy(spiel, "bot:threshold"), return_only_nash_conv=False
    )
    assert [g.gain for g in gains] == pytest.approx(list(theirs.player_improvements), abs=1e-12)
    assert sum(g.gain for g in gains) == pytest.approx(theirs.nash_conv, abs=1e-12)
    assert max(g.gain for g in gains) > 0.01  # the bot is not a best response here


def test_a_mixed_profile_certificate_is_openspiels(tmp_path):
    """Reaches that are not 0 or 1 (the walk's memo normalises them): the uniform policy."""
    game, spiel = small(tmp_path, 3, 3)
    table = Round(Rules.of(game), 3)
    gains = certify(table, [Uniform()] * 3, ENGINE_PAYOFF)
    theirs = exploitability.nash_conv(
        spiel, spiel_policy.UniformRandomPolicy(spiel), return_only_nash_conv=False
    )
    assert [g.gain for g in gains] == pytest.approx(list(theirs.player_improvements), abs=1e-12)


def test_at_two_players_it_is_exact_response(tmp_path):
    """The same best responses as exact_response.py's 2-player walk (ROUND_WIN is
    ENGINE_PAYOFF at 2 players), and the same profile values from both valuations where a
    round always has a winner."""
    game, _ = small(tmp_path, 2, 5, deck=THREE_KINDS, hand_size=2)
    tree = RoundTree(Rules.of(game), prune=False)
    sides = [
        BotPolicy(tree, game, seat, lambda: make_seat("bot:threshold", game, 0))
        for seat in (START, OTHER)
    ]
    table = Round(Rules.of(game), 2)
    gains = certify(table, threshold_profile(table, game), ENGINE_PAYOFF)
    assert gains[START].best == pytest.approx(
        best_response(tree, START, sides[OTHER], ROUND_WIN)[0], abs=1e-12
    )
    assert gains[OTHER].best == pytest.approx(
        best_response(tree, OTHER, sides[START], ROUND_WIN)[0], abs=1e-12
    )
    assert sum(g.own for g in gains) == pytest.approx(1.0)  # constant sum at 2 players


def test_r19_r28_the_valuations_are_the_named_ones():
    """ROUND_SHARE: a winner's share of the round, 0 to the others and to all when nobody
    wins (R19); ENGINE_PAYOFF: the engine's rank payoff (R28, a truncated game 1/2)."""
    assert ROUND_SHARE.payoff(3, (1,)) == (0.0, 1.0, 0.0)
    assert ROUND_SHARE.payoff(4, (0, 2)) == (0.5, 0.0, 0.5, 0.0)
    assert ROUND_SHARE.payoff(3, ()) == (0.0, 0.0, 0.0)
    assert ENGINE_PAYOFF.payoff(3, (1,)) == pytest.approx((0.25, 1.0, 0.25))
    assert ENGINE_PAYOFF.payoff(4, (3,)) == pytest.approx((1 / 3, 1 / 3, 1 / 3, 1.0))
    assert ENGINE_PAYOFF.payoff(3, ()) == (0.5, 0.5, 0.5)
    for players in (2, 3, 4):
        assert ROUND_SHARE.losers_get_nothing(players)
        assert not ENGINE_PAYOFF.losers_get_nothing(players)
    assert list(ENGINE_PAYOFF.table(2)[[1, 2, 3, 0], 0]) == list(ROUND_WIN)


@pytest.mark.parametrize("players", [3, 4])
def test_a_profile_that_answers_itself_best_gains_nothing(tmp_path, players):
    """Every card is a 3 and the target 5: any draw is over (R18), so stopping at once is
    the best answer to everyone stopping, and the threshold bot stops (its risk is 1). Its
    certified gain is 0 for every seat, and every seat shares the round (R19)."""
    game, _ = small(tmp_path, players, 5, deck=ONE_KIND)
    table = Round(Rules.of(game), players)
    profile = threshold_profile(table, game)
    for valuation in (ROUND_SHARE, ENGINE_PAYOFF):
        gains = certify(table, profile, valuation)
        assert [g.gain for g in gains] == pytest.approx([0.0] * players, abs=1e-12)
    own, _ = profile_values(table, profile, ROUND_SHARE)
    assert list(own) == pytest.approx([1 / players] * players)


@pytest.mark.parametrize("text", ["bot:threshold", "bot:threshold?stop_at=3", "bot:random"])
def test_a_seat_never_gains_less_than_nothing(tmp_path, text):
    """A best response is worth at least the seat's own play, under either valuation."""
    game, _ = small(tmp_path, 3, 4, deck=THREE_KINDS)
    table = Round(Rules.of(game), 3)
    profile = bot_profile(table, game, lambda seat: make_seat(text, game, seat))
    for valuation in (ROUND_SHARE, ENGINE_PAYOFF):
        gains = certify(table, profile, valuation)
        assert min(g.gain for g in gains) >= -1e-12
        assert all(0.0 <= g.own <= g.best <= 1.0 for g in gains)


# -- against a brute-force walk of the engine -------------------------------------------------
def engine_game(tmp_path, players, target, deck=None, hand_size=1, overflow_drop=True):
    """A first round played by the engine alone: one round win decides, a one-round cap."""
    options = {
        "players": players,
        "first_start_seat": 0,
        "hand_size": hand_size,
        "target": target,
        "wins_to_win": 1,
        "max_rounds": 1,
        "allow_drop_when_overflowed": overflow_drop,
    }
    if deck is not None:
        path = tmp_path / "deck.json"
        path.write_text(json.dumps(deck))
        options["deck"] = str(path)
    return gamenight.load("drop-or-stop", **options)


def brute_force(game, choose, valuation, responder=None):
    """Every seat's payoff in the first round, by a plain walk of engine states: one state
    per deal (each hand a multiset, with its exact chance: R5, R7 from seat 0, 2 cards in a
    row per seat, each card uniform among those left), all moved in step along one public
    history (every STOP, every card a DROP showed, in order: R9-R12, R29-R32). A DROP
    shows a card of each kind with the chance read off that deal's own draw pile (R11);
    the card is put on top and `act` draws it. `choose(state, seat)` is P(DROP) of a
    policy seat. `responder` (if not None) answers best: it sees its hand and the public
    history (R25, R31), so the worlds of one hand of it are one information set at every
    one of its turns, and it takes the better of STOP and DROP summed over them. The
    round's winners are the engine's own (R16-R20), valued by `valuation`. No memo, no
    multisets of tableaux, no reach normalised, no shortcut: nothing of the code under
    test but the valuation table."""
    n = game.players
    hand_size = game.options.hand_size
    kinds = sorted(set(game.card_kind))
    cards_of = {k: [c for c, kind in enumerate(game.card_kind) if kind == k] for k in kinds}
    deals: dict[tuple, float] = {}

    def deal(cards, left, chance):
        if len(cards) == n * hand_size:
            hands = tuple(
                tuple(sorted(cards[s * hand_size : (s + 1) * hand_size])) for s in range(n)
            )
            deals[hands] = deals.get(hands, 0.0) + chance
            return
        total = sum(left.values())
        for k in kinds:
            if left[k]:
                left[k] -= 1
                deal([*cards, k], left, chance * (left[k] + 1) / total)
                left[k] += 1

    deal([], {k: len(cards_of[k]) for k in kinds}, 1.0)
    worlds = []
    for hands, chance in deals.items():
        state = game.start(0)
        pools = {k: list(cards) for k, cards in cards_of.items()}
        state.hands = [[pools[k].pop() for k in hand] for hand in hands]
        state.draw = [c for k in kinds for c in pools[k]]
        state.recount()
        worlds.append((hands, state, chance))

    def moved(worlds, drop, kind):
        out = []
        for hands, state, weight in worlds:
            state = state.copy()
            if drop:
                at = next(i for i, c in enumerate(state.draw) if game.card_kind[c] == kind)
                state.draw.append(state.draw.pop(at))
            state.act(state.current, DROP if drop else STOP)
            out.append((hands, state, weight))
        return out

    def walk(worlds):
        state = worlds[0][1]
        if state.results:  # the round is scored
            return sum(
                w * np.asarray(valuation.payoff(n, tuple(s.results[0]["winners"])))
                for _, s, w in worlds
            )
        mover = state.current
        stop, drops = [], {k: [] for k in kinds}
        for hands, s, w in worlds:
            can = DROP in s.actions(mover)
            p = 0.0 if not can else 1.0 if mover == responder else choose(s, mover)
            if mover == responder or p < 1.0:
                stop.append((hands, s, w if mover == responder else w * (1.0 - p)))
            if p > 0.0:
                for k in kinds:
                    count = sum(game.card_kind[c] == k for c in s.draw)
                    if count:
                        drops[k].append((hands, s, w * p * count / len(s.draw)))
        stop_value = walk(moved(stop, False, -1)) if stop else np.zeros(n)
        drop_value = sum((walk(moved(ws, True, k)) for k, ws in drops.items() if ws), np.zeros(n))
        if mover != responder:
            return stop_value + drop_value
        if any(drops.values()) and drop_value[mover] > stop_value[mover]:
            return drop_value
        return stop_value

    if responder is None:
        return walk(worlds)
    mine: dict[tuple, list] = {}
    for world in worlds:
        mine.setdefault(world[0][responder], []).append(world)
    return sum(walk(group)[responder] for group in mine.values())


def bot_choice(text, game):
    bots = [make_seat(text, game, seat) for seat in range(game.players)]
    return lambda state, seat: float(bots[seat].choose(state, seat) is DROP)


def uniform_choice(state, seat):
    return 0.5


STANDARD_FLEX = None  # the standard deck (R2, §2.2): 7 each of 1-5 and 4 flex (1 or 5)


@pytest.mark.parametrize(
    ("players", "target", "deck", "hand_size", "overflow_drop", "text"),
    [
        (3, 3, TWO_KINDS, 1, False, "bot:threshold"),
        (4, 3, THREE_KINDS, 1, False, "bot:threshold?stop_at=3"),
        (3, 3, STANDARD_FLEX, 1, False, "bot:threshold"),  # flex cards (§7, R17)
        (3, 3, THREE_KINDS, 1, False, "uniform"),  # mixed
    ],
)
def test_r5_r21_the_certificate_is_a_brute_force_walk_of_the_engine(
    tmp_path, players, target, deck, hand_size, overflow_drop, text
):
    """Every seat's payoff under the profile, every seat's best payoff deviating alone,
    hence every gain, as certify() gives them, equal a brute-force walk of engine states
    (`brute_force`: every deal, every card in order, the engine's own scoring) to 1e-12,
    under both valuations: ROUND_SHARE (the bench's, with its stop at a certainly over
    responder, R18, R32) and ENGINE_PAYOFF (R28). R12a's flag is false (no hand over the
    target draws), which keeps the brute force finite in seconds; the bots stop when over
    anyway, and the standard deck's case has its flex cards."""
    game = engine_game(tmp_path, players, target, deck, hand_size, overflow_drop)
    table = Round(Rules.of(game), players)
    if text == "uniform":
        profile, choose = [Uniform()] * players, uniform_choice
    else:
        profile = bot_profile(table, game, lambda s: make_seat(text, game, s))
        choose = bot_choice(text, game)
    for valuation in (ROUND_SHARE, ENGINE_PAYOFF):
        gains = certify(table, profile, valuation)
        own = brute_force(game, choose, valuation)
        best = [brute_force(game, choose, valuation, seat) for seat in range(players)]
        assert [g.own for g in gains] == pytest.approx(list(own), abs=1e-12)
        assert [g.best for g in gains] == pytest.approx(best, abs=1e-12)
        assert [g.gain for g in gains] == pytest.approx(
            [b - o for b, o in zip(best, own, strict=True)], abs=1e-12
        )
        print(
            f"\n{players}p target {target} hand {hand_size} {text} {valuation.name}: "
            f"gains {[round(g.gain, 6) for g in gains]}"
        )
    assert max(g.gain for g in gains) > 1e-3  # a profile a deviator can exploit here
