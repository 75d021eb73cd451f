"""The shared engine checker and random whole games (D2, D14, D27, D29; hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.engine import check
from gamenight.engine.core import Action
from gamenight.games.drop_it import Drop, DropItState
from gamenight.games.drop_it.scoring import assess, awarded


def test_engine_check_base_game_three_players_with_jokers() -> None:
    game = gamenight.load("drop-it", players=3, jokers=True)
    assert check(game, games=1, probe_every=7, accept_samples=2) >= 36


def test_engine_check_teams_with_jitter_and_shape_edges() -> None:
    game = gamenight.load(
        "drop-it", players=4, teams=True, jitter=True, edge_mode="shape", start_seat="random"
    )
    assert check(game, games=1, seed=1, probe_every=9, accept_samples=1) == 36


def recomputed(state: DropItState) -> list[int]:
    """D27: every drop re-judged from the poses recorded when it settled; totals from those."""
    g = state.game
    totals = [0] * g.options.sides
    for rec in state.records:
        poses = {p: (x, y, a) for p, x, y, a in rec["poses"]}
        found = assess(g.board, g.shapes, poses, rec["piece"], g.options.edge_mode, g.tolerances)
        assert found.to_json() == {k: rec[k] for k in found.to_json()}
        totals[rec["side"]] += awarded(found.raw_points, found.violations, rec["joker_used"])
    return totals


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 3, 4, 5]),
    edge_mode=st.sampled_from(["color", "shape", "none"]),
    jokers=st.booleans(),
    jitter=st.booleans(),
)
def test_D2_D14_D27_D29_V4_random_games(
    seed: int, players: int, edge_mode: str, jokers: bool, jitter: bool
) -> None:
    game = gamenight.load(
        "drop-it",
        players=players,
        teams=players == 5,  # V4: 3 + 2 members
        edge_mode=edge_mode,
        jokers=jokers,
        jitter=jitter,
    )
    state = game.start(seed)
    assert isinstance(state, DropItState)
    rng = random.Random(seed)
    while not state.over:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    assert len(state.records) == 36 and len(state.poses) == 36  # D2: every piece played
    max_steps = game.physics.max_steps
    for rec in state.records:  # D14: at rest, or stopped exactly at the timeout
        assert rec["settled"] or rec["steps"] == max_steps
        assert rec["steps"] <= max_steps
    assert recomputed(state) == state.scores
    assert state.outcome().scores == tuple(
        state.final_totals()[game.side_of(s)] for s in range(game.players)
    )
    json.dumps(state.view(None))


def test_engine_check_two_players_strict_easy_sleep_no_depth() -> None:
    game = gamenight.load(
        "drop-it",
        players=2,
        strict=True,
        edge_mode="none",
        sleep=True,
        max_depth="zero",
        x_bins=5,
        angle_bins=2,
    )
    assert check(game, games=1, seed=2, probe_every=12, accept_samples=1) == 36


@given(
    piece=st.sampled_from(["red-square", "blue-circle-2"]),
    x=st.floats(allow_nan=False),
    angle=st.floats(allow_nan=False),
    depth=st.floats(allow_nan=False),
)
def test_drop_json_is_the_generic_action_json(
    piece: str, x: float, angle: float, depth: float
) -> None:
    """Drop writes its JSON out field by field; it must stay what Action.to_json gives, keys
    in the same order, and read back to the same drop."""
    drop = Drop(piece, x, angle, depth)
    generic = Action.to_json(drop)
    assert list(drop.to_json().items()) == list(generic.items())
    assert gamenight.load("drop-it", players=2).action_from_json(generic) == drop
