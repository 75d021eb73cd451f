"""A seat's tensor (game.encode(view)) carries exactly what the seat may see: a
determinized twin (other hands and the deck resampled) encodes alike, and two views that
differ in anything the seat may see encode differently (Arne: known cards in other hands,
A58; team-mates' open hands, A47; the card in play, A57; a demand's details, A24/A25)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from gamenight.engine import load

ARNE_SETTINGS = [
    {"players": 3},
    {"players": 2},
    {"players": 4, "variant": "team", "team_open_hands": True},
    {"players": 3, "variant": "dummy"},
]


def _states(name, options, games=20):
    game = load(name, **options)
    rng = random.Random(0)
    for seed in range(games):
        state = game.start(seed)
        while not state.over:
            seat = state.actors[0]
            yield game, state, seat
            state.act(seat, rng.choice(state.actions(seat)))


@pytest.mark.parametrize("name", ["drop-or-stop", "arne"])
def test_the_tensor_ignores_what_the_seat_may_not_see(name):
    rng = random.Random(1)
    for count, (game, state, seat) in enumerate(_states(name, {"players": 3}, games=5)):
        if count % 7:
            continue
        twin = state.determinize(seat, rng)
        assert np.array_equal(game.encode(twin.view(seat)), game.encode(state.view(seat)))


@pytest.mark.parametrize("options", ARNE_SETTINGS[1:], ids=str)
def test_arne_tensor_ignores_hidden_cards_in_every_variant(options):
    rng = random.Random(2)
    for count, (game, state, seat) in enumerate(_states("arne", options, games=3)):
        if count % 5:
            continue
        for other in {seat, (seat + 1) % game.players}:
            twin = state.determinize(other, rng)
            assert np.array_equal(game.encode(twin.view(other)), game.encode(state.view(other)))


def _seen(view):
    """What the seat may see, without what follows from the rest of the view or from the
    game's settings (seat_of from the seats, scores from the seats, the window's order from
    its holder and the direction, the dummy seat from the dummy display). The discard pile
    is kept as its cards and its top: its deeper order is the one thing the tensor drops."""
    seen = {k: v for k, v in view.items() if k not in DERIVED}
    seen["hand"] = sorted(view["hand"] or ())
    seen["discard"] = [sorted(view["discard"]), view["discard"][-1:]]
    known = {p: sorted(cards) for p, cards in view.get("known", {}).items()}
    known.update({p: sorted(cards) for p, cards in view.get("team_hands", {}).items()})
    seen["known"] = known
    seen.pop("team_hands", None)
    if view["window"] is not None:
        seen["window"] = {k: view["window"][k] for k in ("kind", "holder_seat", "quiet")}
    return json.dumps(seen, sort_keys=True)


DERIVED = {"game", "mode", "variant", "players", "over", "scores", "seat_of", "dummy_seat"}


@pytest.mark.parametrize("options", ARNE_SETTINGS, ids=str)
def test_arne_views_that_differ_encode_differently(options):
    """Over random games, no two different views (of any seat) share a tensor."""
    first: dict[bytes, str] = {}
    for _, (game, state, _) in zip(range(3000), _states("arne", options, games=6), strict=False):
        for seat in range(game.players):
            view = state.view(seat)
            key = game.encode(view).tobytes()
            seen = _seen(view)
            assert first.setdefault(key, seen) == seen
