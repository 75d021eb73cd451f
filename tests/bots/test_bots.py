"""Bots of every game: legal, deterministic, blind to other seats' hidden cards; the exact
Drop or Stop player is exact; tournaments do not depend on the number of workers."""

from __future__ import annotations

import math
import random

import pytest

import gamenight
from gamenight.bots import available, defaults, levels, make, make_seat, parse_seat
from gamenight.engine import BadInput, RandomBot, play
from gamenight.games.drop_or_stop.solver import Table, hands, threshold_round
from gamenight.sim.tournament import play_tournament

# (game, options, bot seat text, number of random states to ask it about)
CASES = [
    ("drop-or-stop", {"players": 2}, "bot:random", 2000),
    ("drop-or-stop", {"players": 4}, "bot:threshold", 2000),
    ("drop-or-stop", {"players": 2}, "bot:exact", 60),
    ("drop-or-stop", {"players": 3}, "bot:exact", 15),
    ("drop-or-stop", {"players": 3}, "bot:ismcts?iterations=30", 40),
    ("arne", {"players": 2}, "bot:random", 1000),
    ("arne", {"players": 4}, "bot:greedy", 1000),
    ("arne", {"players": 3}, "bot:ismcts?iterations=20", 20),
    ("drop-it", {"players": 2}, "bot:random", 12),
    ("drop-it", {"players": 2}, "bot:planner?samples=2", 3),
    ("drop-it", {"players": 2}, "bot:ismcts?iterations=2&max_rollout=1", 2),
]


def random_states(game, count, seed):
    """`count` states reached by random play (a new game whenever one ends)."""
    rng = random.Random(seed)
    state = game.start(seed)
    found = 0
    while found < count:
        if state.over:
            state = game.start(rng.randrange(1 << 30))
            continue
        yield state
        found += 1
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))


@pytest.mark.parametrize(("name", "options", "seat", "count"), CASES)
def test_bots_choose_legal_actions(name, options, seat, count):
    game = gamenight.load(name, **options)
    bot = make_seat(seat, game, 1)
    for state in random_states(game, count, seed=count):
        who = state.actors[0]
        assert bot.choose(state, who) in state.actions(who)


@pytest.mark.parametrize(("name", "options", "seat", "count"), CASES)
def test_bots_are_deterministic_and_blind_to_hidden_cards(name, options, seat, count):
    """Same seed, same choice; and the same choice when every card this seat cannot see
    is resampled (a determinization for this seat keeps its view)."""
    game = gamenight.load(name, **options)
    rng = random.Random(5)
    for state in random_states(game, max(2, min(count // 10, 40)), seed=7):
        who = state.actors[0]
        twin = state.determinize(who, rng)
        assert twin.view(who) == state.view(who)
        first = make_seat(seat, game, 3).choose(state, who)
        assert make_seat(seat, game, 3).choose(state, who) == first
        assert make_seat(seat, game, 3).choose(twin, who) == first


def test_registry_lists_every_bot_and_level():
    for name in gamenight.games():
        bots = available(name)
        assert {"random", "ismcts"} <= set(bots)
        assert set(levels(name)) == {"easy", "medium", "hard"}
        game = gamenight.load(name)
        for level in ("easy", "medium", "hard", "bot:hard"):
            assert hasattr(make_seat(level, game, 0), "choose")


def test_game_search_settings_are_the_listed_and_used_defaults():
    """Arne's ISMCTS plays greedy rollouts cut at 20 decisions, scored by its margin
    estimate, with the root widened along greedy's ranking; `gamenight bots` shows what a
    seat gets, a seat's own parameters win, and `hard` is that search on a smaller budget
    at 2 players (a decision well under a second)."""
    for players in (2, 4):
        shown = defaults("arne", "ismcts", players)
        assert (shown["max_rollout"], shown["rollout"], shown["estimate"], shown["widen"]) == (
            20,
            "heuristic",
            "margin",
            3,
        )
    assert make("ismcts", gamenight.load("arne", players=2)).max_rollout == 20
    assert make("ismcts", gamenight.load("arne", players=2), max_rollout="5").max_rollout == 5
    hard = make_seat("hard", gamenight.load("arne", players=2), 0)
    assert (hard.iterations, hard.rollout, hard.widen) == (200, "heuristic", 3)


def test_seat_text_is_parsed_and_bad_text_refused():
    assert parse_seat("bot:ismcts?iterations=2000") == ("ismcts", {"iterations": "2000"})
    assert parse_seat("bot") == ("", {})
    game = gamenight.load("drop-or-stop")
    assert make("threshold", game, stop_at="9").stop_at == 9
    with pytest.raises(BadInput, match="no parameter"):
        make("threshold", game, depth="3")
    with pytest.raises(BadInput, match="has no bot 'oracle'"):
        make_seat("bot:oracle", game, 0)
    with pytest.raises(BadInput, match="a bot seat is"):
        parse_seat("robot")


@pytest.mark.parametrize(
    "seat",
    [
        "bot:threshold?stop_at=-100",
        "bot:threshold?stop_at=101",
        "bot:threshold?max_risk=1.5",
        "bot:threshold?max_risk=nan",
        "bot:exact?prior=-1",
    ],
)
def test_bot_parameters_outside_their_range_are_refused(seat):
    """A threshold that no total reaches (stop_at=-100) was taken, and the bot stopped at
    every turn: each bot's `ranges` is checked wherever a bot is made, in one line."""
    game = gamenight.load("drop-or-stop")
    with pytest.raises(BadInput, match=r"parameter '\w+' = .*: it is \d+ to \d+$"):
        make_seat(seat, game, 0)
    assert make_seat("bot:threshold?stop_at=0&max_risk=1", game, 0).stop_at == 0


# -- the exact player -------------------------------------------------------------------
def test_hands_counts_every_way_to_draw():
    pool = (3, 0, 2, 4)
    found = hands(pool, 2)
    assert sum(w for _, w in found) == math.comb(sum(pool), 2)
    assert dict(found)[(0, 0)] == 3 and dict(found)[(0, 2)] == 6


class StopRule:
    """Draw while the own total is below `s` (the model the solver assumes)."""

    def __init__(self, s):
        self.s = s

    def choose(self, state, seat):
        total = state.total(seat)
        drops = total is not None and total < self.s and len(state.actions(seat)) == 2
        return state.actions(seat)[0] if drops else state.actions(seat)[-1]


def test_exact_round_value_matches_simulation():
    game = gamenight.load("drop-or-stop", players=2, first_start_seat=0, max_rounds=1)
    table, deck = Table.from_game(game)
    exact = threshold_round(table, deck, (8, 6), me=1)
    rounds = 6000
    wins = 0
    for seed in range(rounds):
        final = play(game, [StopRule(8), StopRule(6)], seed)
        wins += final.wins[1]
    sigma = math.sqrt(exact * (1 - exact) / rounds)
    assert abs(wins / rounds - exact) < 4 * sigma


def test_exact_beats_threshold_heads_up():
    game = gamenight.load("drop-or-stop", players=2)
    payoff = 0.0
    games = 40
    for seed in range(games):
        seats = [make_seat("bot:exact", game, seed), make_seat("bot:threshold", game, seed)]
        if seed % 2:
            seats.reverse()
        final = play(game, seats, seed)
        payoff += final.outcome().payoff[seed % 2]
    assert payoff / games > 0.55


def test_ismcts_beats_random_at_drop_or_stop():
    game = gamenight.load("drop-or-stop", players=2)
    payoff = 0.0
    for seed in range(20):
        seats = [make_seat("bot:ismcts?iterations=150", game, seed), RandomBot(seed)]
        if seed % 2:
            seats.reverse()
        payoff += play(game, seats, seed).outcome().payoff[seed % 2]
    assert payoff / 20 > 0.6


def test_ismcts_beats_random_at_arne_with_its_own_settings():
    """Issue 5's Arne target in small: even at 40 iterations, ISMCTS with Arne's own
    settings finishes ahead of random in most of 16 seat-rotated games (greedy does in
    68-80% of 40: a 2-player deal decides much)."""
    bot = "ismcts?iterations=40"
    tour = play_tournament("arne", {"players": 2}, ["random", bot], 2, 16, 3)
    rate, _, _, games = tour.pair_rate(bot, "random")
    assert games == 16
    assert rate > 0.6


def test_tournament_same_for_one_and_two_workers():
    args = ("drop-or-stop", {"players": 2}, ["random", "threshold", "exact"], 2, 6, 11)
    one = play_tournament(*args, workers=1)
    two = play_tournament(*args, workers=2)
    assert one.to_json() == two.to_json()
    assert len(one.matches) == 3 * 6
    assert {m.seats for m in one.matches if m.group == 0} == {
        ("random", "threshold"),
        ("threshold", "random"),
    }
    assert one.standings["threshold"].games == 12


def test_a_bots_parameters_are_read_once_and_handed_out_as_a_copy(monkeypatch):
    """make_seat asks for a bot's parameters at every server bot move: the signature is read
    once per class, and a caller changing its dict changes nobody else's."""
    import inspect

    from gamenight.bots import parameters

    class Probe:
        def __init__(self, game, seed=0, depth=3):
            pass

    first = parameters(Probe)
    monkeypatch.setattr(inspect, "signature", lambda *a, **k: 1 / 0)  # read again: fails
    first["depth"] = 99
    assert parameters(Probe) == {"game": inspect.Parameter.empty, "seed": 0, "depth": 3}
