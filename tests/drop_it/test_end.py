"""Drop It: End of game and ties (spec §11; D29-D32)."""

from __future__ import annotations

import random

from gamenight.games.drop_it import KEEP, SPEND

from .helpers import game


def test_D29_D31_D32_game_ends_after_36_drops_unused_jokers_add_three() -> None:
    g = game(jokers=True)
    s = g.start(1)
    rng = random.Random(1)
    while not s.over:
        seat = s.actors[0]
        acts = s.actions(seat)
        s.act(seat, KEEP if KEEP in acts else rng.choice(acts))
    assert len(s.records) == 36 and all(not sup for sup in s.supplies)
    assert s.final_totals() == [s.scores[i] + 3 * s.jokers[i] for i in range(2)]
    out = s.outcome()
    assert list(out.scores) == s.final_totals()
    assert s.events(None)[-1].kind == "game_over"
    assert s.actions(0) == [] and s.actions(1) == []


def test_D31_D32_game_over_event_counts_unused_jokers_like_the_outcome() -> None:
    """Side 0 spends its jokers, side 1 keeps both: the public game_over event must carry
    D31's final totals (3 per unused joker) and D32's winners from them, as outcome() does."""
    s = game(jokers=True).start(1)
    rng = random.Random(1)
    while not s.over:
        seat = s.actors[0]
        acts = s.actions(seat)
        if KEEP in acts:
            s.act(seat, SPEND if seat == 0 else KEEP)
        else:
            s.act(seat, rng.choice(acts))
    assert s.jokers[1] == 2  # side 1 ends with both jokers unused
    over = s.events(None)[-1]
    assert over.kind == "game_over"
    expected = [s.scores[i] + 3 * s.jokers[i] for i in range(2)]
    assert over.data["totals"] == expected == list(s.outcome().scores)
    assert over.data["winners"] == list(s.outcome().winners)
    assert over.data["unused_jokers"] == s.jokers


def test_D30_final_total_is_the_sum_of_drop_points_tokens_only_display() -> None:
    s = game(players=4).start(0)
    rng = random.Random(4)
    while not s.over:
        s.act(s.actors[0], rng.choice(s.actions(s.actors[0])))
    for side in range(4):
        assert s.final_totals()[side] == sum(r["awarded"] for r in s.records if r["side"] == side)
    view = s.view(None)
    assert all(v["total"] == s.final_totals()[v["side"]] for v in view["sides"])


def test_D32_ties_share_the_win() -> None:
    s = game().start(0)
    s.turn = 36
    s._actors = ()
    assert s.outcome().winners == (0, 1)
