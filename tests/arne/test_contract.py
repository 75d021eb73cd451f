"""The engine contract (engine.check) for several option sets, and hypothesis invariants:
cards are never created or lost, replay is exact, nothing hidden leaks into a view."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine import check, snapshot

# (options, games, probe_every): the checker's cost grows with the square of a game's
# length, so long games are probed at every k-th decision only.
OPTION_SETS = [
    ({"players": 2}, 2, 2),
    ({"players": 3}, 1, 12),
    ({"players": 4}, 1, 25),
    ({"players": 6, "learning": True}, 1, 25),
    ({"players": 6}, 1, 80),
    ({"players": 4, "mode": "losing", "learning": True}, 1, 6),
    ({"players": 3, "learning": True}, 1, 4),
    ({"players": 3, "variant": "dummy", "learning": True}, 1, 6),
    ({"players": 2, "variant": "dummy", "reverse_mode": "flip"}, 1, 12),
    ({"players": 4, "variant": "team", "learning": True}, 1, 8),
    ({"players": 4, "variant": "team", "team_open_hands": True}, 1, 25),
    (
        {
            "players": 3,
            "thief_may_take_thief": True,
            "demand_selection": "random",
            "pre_resolution_windows": False,
            "colour_assignment": "random",
            "learning": True,
        },
        1,
        6,
    ),
    ({"players": 2, "series_games": 2, "hand_size": 5, "learning": True}, 1, 3),
]


@pytest.mark.parametrize(("options", "games", "probe"), OPTION_SETS)
def test_engine_check(options, games, probe):
    assert check(gamenight.load("arne", **options), games=games, probe_every=probe) > 0


def last(states):
    state = None
    for state in states:  # noqa: B007 - we want the final state
        pass
    assert state is not None
    return state


def random_game(options, seed, steps=None):
    game = gamenight.load("arne", **options)
    state = game.start(seed)
    rng = random.Random(seed)
    n = 0
    while not state.over and (steps is None or n < steps):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
        n += 1
        yield state


OPTIONS = st.sampled_from(
    [
        {"players": 2},
        {"players": 3},
        {"players": 5, "learning": True},
        {"players": 3, "variant": "dummy"},
        {"players": 4, "variant": "team", "learning": True},
        {"players": 4, "mode": "losing"},
    ]
)


@settings(max_examples=12, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_cards_are_never_created_or_lost(options, seed):
    everything = None
    for state in random_game(options, seed):
        cards = sorted(state.all_cards())
        if everything is None:
            everything = list(range(state.game.num_cards))
        assert cards == everything


@settings(max_examples=10, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_A48_replay_is_exact(options, seed):
    state = last(random_game(options, seed))
    again = state.game.replay(seed, state.history)
    assert snapshot(again) == snapshot(state)


@settings(max_examples=10, deadline=None)
@given(OPTIONS, st.integers(0, 10_000), st.integers(5, 200))
def test_A58_no_view_or_event_carries_another_hand(options, seed, steps):
    state = last(random_game(options, seed, steps))
    game = state.game
    for seat in range(game.players):
        for e in state.events(seat):
            assert e.to is None or seat in e.to
        view = state.view(seat)
        # Replace every other player's hidden cards: what seat sees must not change.
        d = state.determinize(seat, random.Random(seed))
        assert d.view(seat) == view
        assert d.info_key(seat) == state.info_key(seat)
        assert sorted(d.all_cards()) == list(range(game.num_cards))
        for p in range(game.players):
            if p != seat and not view.get("team_hands"):
                assert len(d.hands[p]) == len(state.hands[p])
                # Explicitly: give p other cards from the draw pile; seat's view is unchanged.
                k = len(state.hands[p])
                if 0 < k <= len(state.deck):
                    other = state.copy()
                    other.hands[p], other.deck = (
                        sorted(other.deck[:k]),
                        (other.deck[k:] + other.hands[p]),
                    )
                    assert other.view(seat) == view


@settings(max_examples=8, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_A17_any_listed_actor_may_act_and_games_stay_bounded(options, seed):
    game = gamenight.load("arne", **options)
    state = game.start(seed)
    rng = random.Random(seed)
    while not state.over:
        seat = rng.choice(state.actors)  # passes in advance included
        state.act(seat, rng.choice(state.actions(seat)))
        assert len(state.history) <= game.max_decisions
    assert sorted(state.all_cards()) == list(range(game.num_cards))
    assert snapshot(game.replay(seed, state.history)) == snapshot(state)


@settings(max_examples=6, deadline=None)
@given(OPTIONS, st.integers(0, 10_000), st.integers(1, 300))
def test_A58_determinized_states_play_to_the_end(options, seed, steps):
    state = last(random_game(options, seed, steps))
    rng = random.Random(seed)
    for seat in range(state.game.players):
        d = state.determinize(seat, rng)
        while not d.over:
            who = d.actors[0]
            legal = d.actions(who)
            assert legal, f"player {who} has no legal action in phase {d.phase}"
            d.act(who, rng.choice(legal))


def test_public_log_holds_every_event_and_each_seat_sees_its_share():
    """`state.log` (engine, read-only) is every event in order; `events(seat)` filters it."""
    game = gamenight.load("arne", players=3)
    state = game.start(4)
    rng = random.Random(4)
    for _ in range(60):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    log = state.log
    assert any(e.to is not None for e in log) and any(e.to is None for e in log)
    for seat in (0, 1, 2, None):
        assert state.events(seat) == [e for e in log if e.visible_to(seat)]
    before = len(log)
    seat = state.actors[0]
    new = state.act(seat, state.actions(seat)[0])
    assert list(state.log[before:]) == new


def test_a_state_pickles_and_plays_on_alike():
    """The server hands states to bot worker processes by pickling them (game tables
    included: no local functions or lambdas in them)."""
    import pickle

    game = gamenight.load("arne", players=4, variant="team")
    state = game.start(8)
    rng = random.Random(8)
    for _ in range(40):
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    clone = pickle.loads(pickle.dumps(state))
    assert clone.view(0) == state.view(0) and clone.actors == state.actors
    seat = state.actors[0]
    action = state.actions(seat)[-1]
    assert clone.act(seat, action) == state.act(seat, action)
