"""Invariants over random games of every variant and player count (normal, losing, learning,
dummy, team 4/6; 2..6 players): every reaction window closes within a bound (A15-A19), the
scores at every game end are the formula of spec 5.1 applied to the final layout in the view
(A43-A46, A52, A54), bots do not see other seats' hidden cards (A58), and a small version
of the big run (bench/arne_soak.py): random games of every combination finish (A19)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamenight
from gamenight.bots import make_seat
from gamenight.engine.core import State
from gamenight.games.arne.components import FACE
from gamenight.games.arne.scoring import ScoredStack, display_score, player_scores
from gamenight.games.arne.state import ArneState
from gamenight.games.arne.variants import VARIANTS, combinations

COMBINATIONS = combinations()
OPTIONS = st.sampled_from(COMBINATIONS).map(lambda c: {"players": c[0], **VARIANTS[c[1]]})


def test_every_variant_and_player_count_is_covered():
    assert len(COMBINATIONS) == 21  # 2..6 x normal/losing/learning, dummy 2-5, team 4 and 6
    assert {n for n, v in COMBINATIONS if v == "team"} == {4, 6}
    assert {n for n, v in COMBINATIONS if v == "dummy"} == {2, 3, 4, 5}


# -- A15-A19: every reaction window closes ---------------------------------------------------
def _window_bound(view: dict[str, Any]) -> int:
    """A19: with Φ = cards in hands + THIEF cards in hands, every black action lowers Φ, so a
    window holds at most 2H black actions (H = cards in all hands when it opens, public).
    Before the first and after each black action at most n holders pass (A16), and each
    other listed seat may pass in advance once (A17)."""
    n = view["players"]
    hand_cards = sum(seat["hand_size"] for seat in view["seats"])
    blacks = 2 * hand_cards
    return blacks + (blacks + 1) * (2 * n - 1)


@settings(max_examples=12, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_A15_A16_A19_every_reaction_window_closes_within_its_bound(options, seed):
    """A window is the view's `window` (kind, holder, order, quiet) from the moment it
    appears in a turn (the public `turn` events count turns) until it is gone or has
    another kind. Any listed actor decides (passes in advance included, A17)."""
    game = gamenight.load("arne", **options)
    state = game.start(seed)
    rng = random.Random(seed)
    n = game.players
    turns = sum(1 for e in state.events(None) if e.kind == "turn")
    current: tuple[int, int, str] | None = None
    decisions = bound = 0
    windows = 0
    while not state.over:
        view = state.view(None)
        window = view["window"]
        key = None if window is None else (view["game_no"], turns, window["kind"])
        if key != current:
            if key is not None:
                assert window is not None
                assert window["kind"] in ("main", "pre", "end")
                assert key[2] != "pre" or view["in_play"] is not None  # A11, A57
                windows += 1
                decisions, bound = 0, _window_bound(view)
            current = key
        if window is not None:
            assert 0 <= window["quiet"] < n  # A16: it closes when n players were quiet
            assert state.actors[0] == window["holder"]
            assert sorted(window["order"]) == list(range(n))
            decisions += 1
            assert decisions <= bound, f"{window['kind']} window open after {bound} decisions"
        seat = rng.choice(state.actors)
        events = state.act(seat, rng.choice(state.actions(seat)))
        turns += sum(1 for e in events if e.kind == "turn" and e.to is None)
    assert state.view(None)["window"] is None
    assert windows >= turns  # every turn opened its MAIN window


# -- A43-A46, A52, A54: scores are the formula on the final layout ---------------------------
def _spec_display_score(stacks: list[dict[str, Any]]) -> int:
    """Spec 5.1 written out again from the view's stacks (independent of scoring.py)."""
    points, factor, penalty = 0, 1, 0
    for s in stacks:
        base = s["base"].split()[-1]
        mult3 = 3 if s["x3"] else 1
        if base == "MINUS200":
            if not s["lock"]:
                penalty += 200 * mult3
        elif (not s["crush"]) or s["lock"]:
            if base == "X2":
                factor *= 2 * mult3
            else:
                points += FACE[base] * mult3
    return points * factor - penalty


def _scores_from_view(view: dict[str, Any]) -> tuple[list[int], list[int], list[int]]:
    """(display scores by scoring.py, the same by the spec, player scores by scoring.py),
    all from the layout in the view."""
    layout = [
        [
            ScoredStack(s["base"].split()[-1], s["x3"], s["crush"], s["lock"], s["chameleon"])
            for s in d["stacks"]
        ]
        for d in view["displays"]
    ]
    by_module = [display_score(stacks) for stacks in layout]
    by_spec = [_spec_display_score(d["stacks"]) for d in view["displays"]]
    n = view["players"]
    team = view["variant"] == "team"
    dummy = view["variant"] == "dummy"
    per_player = player_scores(
        by_module,
        view["seat_of"],
        team_of_seat=[s["team"] for s in view["seats"]] if team else None,
        dummy_display=n if dummy else None,
        dummy_controller=view["dummy_seat"] if dummy else None,
    )
    return by_module, by_spec, per_player


def _spec_player_scores(view: dict[str, Any], displays: list[int]) -> list[int]:
    """A46, A52, A54 written out again: the seat a player holds at the end; the dummy display
    for its controller; with teams, the sum of the team's two displays."""
    n = view["players"]
    seat_total = displays[:n]
    if view["variant"] == "dummy" and view["dummy_seat"] is not None:
        seat_total[view["dummy_seat"]] += displays[n]
    if view["variant"] == "team":
        team = [s["team"] for s in view["seats"]]
        seat_total = [sum(seat_total[t] for t in range(n) if team[t] == team[s]) for s in range(n)]
    return [seat_total[view["seat_of"][p]] for p in range(n)]


SCORING_OPTIONS = st.one_of(
    OPTIONS,
    st.sampled_from(
        [
            {"players": 3, "series_games": 2, "learning": True},
            {"players": 4, "variant": "team", "series_games": 2, "mode": "losing"},
        ]
    ),
)


@settings(max_examples=15, deadline=None)
@given(SCORING_OPTIONS, st.integers(0, 10_000))
def test_A43_A45_A46_scores_at_every_game_end_are_the_formula_on_the_final_layout(options, seed):
    game = gamenight.load("arne", **options)
    state = game.start(seed)
    assert isinstance(state, ArneState)
    rng = random.Random(seed)
    ends: list[dict[str, Any]] = []
    setup = state._setup

    def setup_after_looking() -> None:  # a series: look at the table before the next deal
        ends.append(state.view(None))
        setup()

    state._setup = setup_after_looking  # type: ignore[method-assign]
    while not state.over:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    ends.append(state.view(None))
    scored = [e.data for e in state.events(None) if e.kind == "scored"]
    assert len(ends) == len(scored) == game.options.series_games
    totals = [0] * game.players
    for view, event in zip(ends, scored, strict=True):
        assert view["phase"] == ("over" if view is ends[-1] else "final")
        by_module, by_spec, per_player = _scores_from_view(view)
        assert by_module == by_spec == [d["score"] for d in view["displays"]]
        assert per_player == _spec_player_scores(view, by_spec)
        assert event["scores"] == per_player == view["scores"]
        totals = [t + s for t, s in zip(totals, per_player, strict=True)]
        assert event["totals"] == totals
    out = state.outcome()
    assert list(out.scores) == totals
    best = min(totals) if game.options.mode == "losing" else max(totals)
    assert set(out.winners) == {p for p in range(game.players) if totals[p] == best}  # A43


# -- A58: bots see only what their seat may see ----------------------------------------------
@settings(max_examples=8, deadline=None)
@given(
    OPTIONS,
    st.integers(0, 10_000),
    st.sampled_from(["bot:random", "bot:greedy"]),
    st.integers(0, 1_000),
)
def test_A58_bots_choose_alike_when_other_seats_hidden_cards_change(options, seed, bot, bot_seed):
    """At every 7th decision of a random game: the bot for the seat to act, and the same bot
    with the same seed on `state.determinize(seat, rng)` (every hidden card of the other
    seats and the draw pile resampled), choose the same action."""
    game = gamenight.load("arne", **options)
    state: State = game.start(seed)
    rng = random.Random(seed)
    checked = 0
    while not state.over:
        seat = state.actors[0]
        if len(state.history) % 7 == 0:
            choice = make_seat(bot, game, bot_seed).choose(state, seat)
            for _ in range(2):
                twin = state.determinize(seat, rng)
                assert make_seat(bot, game, bot_seed).choose(twin, seat) == choice
            checked += 1
        state.act(seat, rng.choice(state.actions(seat)))
    assert checked > 0


# -- A19: the big run, small ------------------------------------------------------------------
SOAK_GAMES = 30


def _outcome_is_well_formed(state: State) -> None:
    n = state.game.players
    out = state.outcome()
    assert not out.truncated
    assert len(out.scores) == len(out.ranks) == len(out.payoff) == n
    assert out.winners and set(out.winners) == {p for p in range(n) if out.ranks[p] == 1}
    assert all(1 <= r <= n for r in out.ranks)
    assert all(0 <= x <= 1 for x in out.payoff)
    assert sum(out.payoff) == pytest.approx(n / 2)


@pytest.mark.parametrize(("players", "variant"), COMBINATIONS)
def test_A19_random_games_of_every_variant_finish(players, variant):
    game = gamenight.load("arne", players=players, **VARIANTS[variant])
    limit = game.max_decisions
    assert limit is not None
    for seed in range(SOAK_GAMES):
        state = game.start(seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
            assert len(state.history) <= limit
        _outcome_is_well_formed(state)
