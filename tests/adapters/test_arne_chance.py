"""Arne with explicit chance (OpenSpiel chance nodes): every card dealt or drawn (A4, A7,
A26) is a chance node over the cards nobody has seen, with their real probabilities, and a
random choice of the rules (A23 TAKE_RANDOM, A49 the dummy's colour) is a chance node over
its equally likely answers."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import gamenight
import gamenight.adapters.openspiel as adapter  # noqa: F401 (registers the games)
from gamenight.engine.core import BadInput
from gamenight.games.arne import actions as A
from gamenight.games.arne import chance
from gamenight.games.arne.chance import Card, Pick


def _game(**params):
    return pyspiel.load_game(
        "python_gamenight_arne", {"chance": "explicit", "rng_seed": 3, **params}
    )


def _composition(inner, cards):
    kind = inner.game.card_kind
    return Counter(kind[card] for card in cards)


def _choose_colours(state):
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])


def test_the_first_card_dealt_is_any_card_of_the_deck_with_its_share():
    """A4: before the deal every card of the deck is unseen; after a card of kind k is
    dealt, one k fewer is left for the next."""
    game = _game(players=2, learning=True)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    _choose_colours(state)  # A3: the colours are chosen before the deal
    inner = state.inner
    deck = Counter(inner.game.card_kind)
    total = inner.game.num_cards
    first = state.chance_outcomes()
    assert first == [(k, pytest.approx(deck[k] / total)) for k in sorted(deck)]
    kind = first[0][0]
    state.apply_action(kind)
    deck[kind] -= 1
    assert state.chance_outcomes() == [
        (k, pytest.approx(deck[k] / (total - 1))) for k in sorted(deck) if deck[k]
    ]


def _undecided(state):
    return [slot.card for slot in state._box.pending if isinstance(slot, Card)]


def _decided(state, player):
    """The kinds in `player`'s hand that chance has decided."""
    undecided = _undecided(state)
    inner = state.inner
    return _composition(inner, [c for c in inner.hands[player] if c not in undecided])


def _assert_events_name_the_cards(inner):
    names, kind = inner.game.kind_name, inner.game.card_kind
    for index, ids, _ in inner._private:
        assert inner.log[index].data["cards"] == [names[kind[c]] for c in ids]


@pytest.mark.parametrize("params", [{"players": 2, "learning": True}, {"players": 3}])
def test_every_draw_is_a_chance_node_over_the_cards_nobody_has_seen(params):
    """A4/A7/A26: at every card's chance node the probabilities sum to 1 and are the shares
    of the kinds in the draw pile plus the cards drawn and not yet decided; the card then
    shown to its holder is of the kind chosen."""
    game = _game(**params)
    rng = random.Random(0)
    cards_seen = picks = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            outcome = rng.choices(*zip(*outcomes, strict=True))[0]
            slot = state._box.pending[0]
            if isinstance(slot, Pick):
                picks += 1
                state.apply_action(outcome)
                continue
            inner = state.inner
            unseen = _composition(inner, [*inner.deck, *_undecided(state)])
            total = sum(unseen.values())
            assert outcomes == [(k, pytest.approx(unseen[k] / total)) for k in sorted(unseen)]
            holder = next(p for p, hand in enumerate(inner.hands) if slot.card in hand)
            before = _decided(state, holder)
            state.apply_action(outcome)
            cards_seen += 1
            assert _decided(state, holder) == before + Counter([outcome])
            _assert_events_name_the_cards(state.inner)
    assert cards_seen > 50


def test_take_random_is_a_chance_node_over_the_target_hand():
    """A23: TAKE_RANDOM takes each card of the target's hand with probability 1/n: when it
    resolves, the decision that resolves it waits for a chance node with n equal answers;
    answer j takes the j-th card."""
    game = _game(players=2, learning=True)
    offset = len(game.inner.kinds)
    rng = random.Random(1)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            inner = state.inner
            if not (
                isinstance(state._box.pending[0], Pick) and isinstance(inner.declared, A.TakeRandom)
            ):
                state.apply_action(rng.choices(*zip(*state.chance_outcomes(), strict=True))[0])
                continue
            taker, target = inner.active, inner.declared.target
            hand = list(inner.hands[target])
            assert state.chance_outcomes() == [
                (offset + j, pytest.approx(1 / len(hand))) for j in range(len(hand))
            ]
            mine = Counter(inner.hands[taker])
            answer = rng.randrange(len(hand))
            state.apply_action(offset + answer)
            assert state.inner.hands[target] == hand[:answer] + hand[answer + 1 :]
            assert Counter(state.inner.hands[taker]) - mine == Counter([hand[answer]])
            return
    pytest.fail("no TAKE_RANDOM resolved in 40 random games")


def test_random_choices_of_the_rules_pass_openspiel_checks():
    """A49 (the dummy's colour) and A24/A25 with random selection are chance nodes too."""
    game = _game(players=3, variant="dummy", demand_selection="random", learning=True)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("option", [{"first_seat": "random"}, {"colour_assignment": "random"}])
def test_randomness_before_the_first_decision_is_refused(option):
    """A5 random first seat, A3 colours dealt: drawn before any chance node can be asked.
    (OpenSpiel's `first_seat` is a number parameter, so the check is asked directly.)"""
    with pytest.raises(BadInput, match="explicit chance needs"):
        chance.check(gamenight.load("arne", players=2, **option))
    with pytest.raises(BadInput, match="explicit chance needs"):
        _game(players=2, colour_assignment="random")
