"""The seat frame (`game.seat_frame(view)`, issue 47): the table as its viewer's own seat
sees it, renumbered so that the viewer sits in seat 0 and is player 0. A policy trained in
frames plays every seat with what it learned at any seat; in table numbers the same move
("onto my own display", "take from the next player") was a different action at each seat.
The frame must keep everything the seat knows, only renumbered, and its actions must come
back as the very actions of the table (A56: players keep their number across swaps)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight import bots
from gamenight.engine import play
from gamenight.games.arne import actions as A
from gamenight.games.arne.state import ArneState
from gamenight.games.arne.variants import VARIANTS, combinations
from tests.arne.helpers import act, pass_round

OPTIONS = st.sampled_from(combinations()).map(lambda c: {"players": c[0], **VARIANTS[c[1]]})


def _check_frame(state: ArneState, seat: int) -> None:
    game = state.game
    n = game.n
    view = state.view(seat)
    frame = game.seat_frame(view)
    k = view["seat_of"][seat]  # the viewer's seat at the table
    turned = frame.view
    assert turned["player"] == 0 and turned["seat_of"] == list(range(n))
    paint: dict[str, str] = {}  # a real colour -> the frame's, the same everywhere
    for real, seen in [
        *(
            (s["colour"], t["colour"])
            for s, t in zip(view["seats"], _back(turned["seats"], k), strict=True)
        ),
        *(
            (d["colour"], t["colour"])
            for d, t in zip(view["displays"], _back_displays(turned, k), strict=True)
        ),
    ]:
        if real is not None:
            assert paint.setdefault(real, seen) == seen
    assert len(set(paint.values())) == len(paint)  # one colour for one colour
    deck = game.deck_colours  # the colours nobody has yet: the rest, in the deck's order
    rest = zip(
        [c for c in deck if c not in paint],
        [c for c in deck if c not in paint.values()],
        strict=True,
    )
    paint.update(rest)
    mine = view["seats"][k]["colour"]
    if mine is not None:  # my colour is the deck's first in my frame
        assert paint[mine] == game.deck_colours[0]

    def painted(cards: list[str]) -> list[str]:
        out = []
        for name in cards:
            colour, _, rest = name.partition(" ")
            out.append(f"{paint.get(colour, colour)} {rest}" if rest else name)
        return out

    for r in range(n):  # frame seat r is table seat r + k, with the same hand and score
        real = view["seats"][(r + k) % n]
        assert turned["seats"][r]["hand_size"] == real["hand_size"]
        assert turned["scores"][r] == view["scores"][real["player"]]
        stacks = view["displays"][(r + k) % n]["stacks"]
        assert [s["base"] for s in turned["displays"][r]["stacks"]] == painted(
            [s["base"] for s in stacks]
        )
    for dummy, real in zip(turned["displays"][n:], view["displays"][n:], strict=True):
        assert dummy["display"] == n and len(dummy["stacks"]) == len(real["stacks"])
        controller = real["controller_seat"]  # (A50; None before anybody controls it)
        assert dummy["controller_seat"] == (None if controller is None else (controller - k) % n)
    assert turned["hand"] == painted(view["hand"]) and turned["discard"] == painted(view["discard"])
    for p, cards in view.get("known", {}).items():  # A58: knowledge travels with the player
        assert turned["known"][str((view["seat_of"][int(p)] - k) % n)] == painted(cards)
    x = game.encode(turned)
    assert np.array_equal(frame.tensor(), x)  # the quick way to the frame's tensor is exact
    seat0 = x[game_slice(game, "seat0")]
    assert seat0[1] == 1  # "is me" is always seat 0
    assert game.seat_frame(turned).view == turned  # a frame is its own frame
    legal = state.actions(seat)
    mapped = [frame.to_frame(a) for a in legal]
    assert len(set(mapped)) == len(legal)
    for action, inside in zip(legal, mapped, strict=True):
        game.action_index(inside)  # an action of the game's action space
        assert frame.from_frame(inside) == action
        target = getattr(action, "target", None)
        if target is not None:  # the frame's target sits where the real one sits
            assert view["seats"][(inside.target + k) % n]["player"] == target  # type: ignore[attr-defined]
        where = getattr(action, "display", None)
        if where is not None and 0 <= where < n:
            assert inside.display == (where - k) % n  # type: ignore[attr-defined]


def _back(seats: list, k: int) -> list:
    """The frame's seats in table order."""
    n = len(seats)
    return [seats[(s - k) % n] for s in range(n)]


def _back_displays(turned: dict, k: int) -> list:
    n = len(turned["seats"])
    return [*_back(turned["displays"][:n], k), *turned["displays"][n:]]


def game_slice(game, name: str) -> slice:
    from gamenight.engine.features import layout
    from gamenight.games.arne.observation import observation_features

    return layout(game, observation_features)[1][name]


@settings(max_examples=10, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_the_frame_renumbers_every_seat_and_keeps_what_the_seat_knows(options, seed):
    game = gamenight.load("arne", **options)
    seats = [bots.make_seat("bot:random", game, seed + s) for s in range(game.n)]
    state = game.start(seed)
    decisions = 0
    while not state.over and decisions < 300:
        seat = state.actors[0]
        _check_frame(state, seat)
        state.act(seat, seats[seat].choose(state, seat))
        decisions += 1


def test_the_first_seat_before_any_swap_sees_the_table_as_it_is():
    game = gamenight.load("arne", players=4)
    state = game.start(3)
    seat = state.actors[0]
    assert state.view(seat)["seat_of"][seat] == 0 == seat
    frame = game.seat_frame(state.view(0))
    assert frame.view == state.view(0)
    assert all(frame.to_frame(a) == a for a in state.actions(0))


def test_a_spectator_has_no_seat_to_turn_to():
    game = gamenight.load("arne", players=3)
    view = game.start(1).view(None)
    assert game.seat_frame(view).view is view


def test_A56_after_swapping_places_the_frame_follows_the_new_seat(table):
    """Player 0 swaps with player 1 (A27): player 0 now sits in seat 1, so its frame starts
    there; its own display (A56: displays stay) is the one in front of seat 1."""
    state = table(players=4, hands={0: ["SWAP_PLACES", "red P50"], 1: ["blue P100"]})
    act(state, A.SwapPlaces(1))
    pass_round(state)  # nobody answers: the swap is made
    view = state.view(0)
    assert view["seat_of"][0] == 1
    frame = state.game.seat_frame(view)
    assert frame.view["seats"][0]["hand_size"] == len(state.hands[0])
    assert frame.view["displays"][0]["stacks"] == view["displays"][1]["stacks"]
    assert frame.to_frame(A.TakeRandom(1)) == A.TakeRandom(3)  # player 1 sits in seat 0: 3 back
    _check_frame(state, state.actors[0])


def _own_display_net(game, players: int, frame: bool) -> dict[str, np.ndarray]:
    """A network that always prefers a point card onto display 0, then onto the discard
    pile (A21: a point card goes onto one's own display or the discard pile)."""
    logit = np.zeros(game.num_actions, np.float32)
    for i, action in enumerate(game.all_actions):
        if isinstance(action, A.PlayPoint):
            logit[i] = {0: 5.0, -1: 0.0}.get(action.display, -5.0)
    net = {
        f"p{players}/w0": np.zeros((4, game.encoding_size), np.float32),
        f"p{players}/b0": np.zeros(4, np.float32),
        f"p{players}/w1": np.zeros((game.num_actions, 4), np.float32),
        f"p{players}/b1": logit,
    }
    if frame:
        net[f"p{players}/frame"] = np.ones(1, np.int8)
    return net


@pytest.mark.parametrize("frame", [True, False])
def test_a_framed_policy_plays_what_it_learned_from_its_own_seat(tmp_path, frame):
    """ "Display 0" in a framed policy is the seat's own display, at every seat; an older
    file (no `frame`) means the table's display 0, seat 0's, wherever it sits: the other
    seats cannot play there and throw their point cards away."""
    game = gamenight.load("arne", players=3)
    path = tmp_path / "own.npz"
    np.savez(path, **_own_display_net(game, 3, frame))
    seats = [bots.make_seat(f"bot:learned?path={path}", game, s) for s in range(3)]
    placed = {0: 0, 1: 0, 2: 0}  # point cards laid on a display, by player
    mine = {0: 0, 1: 0, 2: 0}  # of them, onto the player's own display
    zero = {0: 0, 1: 0, 2: 0}  # of them, onto the table's display 0

    class Counting:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def choose(self, state, seat):
            action = seats[seat].choose(state, seat)
            if isinstance(action, A.PlayPoint) and action.display >= 0:
                placed[seat] += 1
                mine[seat] += action.display == state.seat_of[seat]
                zero[seat] += action.display == 0
            return action

    for deal in range(3):
        play(game, [Counting(s) for s in range(3)], seed=deal)
    if frame:  # (every seat lays where it can; in table numbers seats 1 and 2 lay 1 and 2)
        assert mine == placed and min(placed.values()) >= 5, (placed, mine)
    else:  # (a player who swapped into seat 0 may lay there: it is its display then)
        assert zero == placed and placed[1] + placed[2] < placed[0], (placed, zero)


def test_a_framed_policy_needs_a_game_with_a_frame(tmp_path):
    game = gamenight.load("drop-or-stop", players=2)
    net = {
        "p2/w0": np.zeros((2, game.encoding_size), np.float32),
        "p2/b0": np.zeros(2, np.float32),
        "p2/w1": np.zeros((game.num_actions, 2), np.float32),
        "p2/b1": np.zeros(game.num_actions, np.float32),
        "p2/frame": np.ones(1, np.int8),
    }
    np.savez(tmp_path / "f.npz", **net)
    with pytest.raises(gamenight.BadInput, match="reads a seat frame; drop-or-stop has none"):
        bots.make_seat(f"bot:learned?path={tmp_path / 'f.npz'}", game, 0)


def test_the_gymnasium_env_in_frames_acts_at_the_table():
    """`seat_frame=True`: the observation is the frame's, the mask the frame's actions, and
    an index taken is the frame's action played as the table's."""
    from gamenight.adapters.gymnasium import GamenightEnv

    env = GamenightEnv("arne", ["bot:random"], seat=2, players=4, seat_frame=True)
    obs, _ = env.reset(seed=5)
    for _ in range(30):
        state = env.game_state
        view = state.view(2)
        frame = env.game.seat_frame(view)
        assert np.array_equal(obs["observation"], env.game.encode(frame.view))
        legal = state.actions(2)
        allowed = {env.game.action_index(frame.to_frame(a)) for a in legal}
        assert set(np.flatnonzero(obs["action_mask"])) == allowed
        action = legal[-1]
        before = len(state.history)
        obs, _, done, truncated, info = env.step(env.game.action_index(frame.to_frame(action)))
        assert "illegal" not in info
        assert state.history[before] == (2, action)
        if done or truncated:
            break
    with pytest.raises(gamenight.BadInput, match="drop-or-stop has no seat frame"):
        GamenightEnv("drop-or-stop", ["bot:random"], seat_frame=True)


def test_A24_a_demand_and_the_card_in_play_are_turned_for_every_seat(table):
    """The card in play (A57: its target player and display) and the open demand (A24:
    target and demander) in every seat's frame, and its quick tensor, at each step."""
    state = table(
        players=4,
        hands={1: ["DEMAND_POINTS", "TAKE_RANDOM"], 3: ["red P50", "red P100"]},
        turn_seat=1,
    )
    act(state, A.DemandPoints(3, "red", 1))
    assert state.view(0)["in_play"] is not None
    for seat in range(4):
        _check_frame(state, seat)
    frame = state.game.seat_frame(state.view(2))
    assert frame.view["in_play"]["action"]["target"] == 1  # player 3 sits one after seat 2
    pass_round(state)
    assert state.view(0)["give"] is not None
    for seat in range(4):
        _check_frame(state, seat)
    frame = state.game.seat_frame(state.view(3))
    assert (frame.view["give"]["target"], frame.view["give"]["to"]) == (0, 2)
