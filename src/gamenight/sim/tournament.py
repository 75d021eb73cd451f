"""Round-robin bot tournaments with rotated seats, openskill ratings and intervals.

Every group of `players` bots (all combinations of the entrants) plays `games` games. The
games of a group come in blocks of one deal seed played once per distinct seat rotation,
so every bot sits in every seat with the same cards: no bot gains from its seat. Seeds are
derived from one master seed, so the same command gives the same result on any number of
workers.

Wins are counted apart: `wins` are games a bot won alone, `shared` games it won together
with others (so the win rates of a table sum to at most 100%). A bot that holds several
seats of a game counts that game once: it is rated, scored and paid by the mean of its
seats, and it won alone when no other bot's seat won.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from gamenight.engine.core import BadInput, said
from gamenight.engine.seeds import derive_seed
from gamenight.i18n import N_
from gamenight.sim.runner import GameResult, Job, run_many, wilson, wilson_fraction


@dataclass(frozen=True)
class Match:
    """One game of the tournament: which entrant sat in which seat, and its result."""

    group: int
    seats: tuple[str, ...]
    result: GameResult


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: int = 0  # games won alone
    shared: int = 0  # games won together with other seats
    score: float = 0.0
    payoff: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def win_rate(self) -> tuple[float, float, float]:
        """Games won alone, with a 95% Wilson interval."""
        return wilson(self.wins, self.games)

    @property
    def shared_rate(self) -> float:
        return self.shared / max(1, self.games)

    @property
    def ordinal(self) -> float:
        """A conservative rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass
class Tournament:
    game: str
    bots: list[str]
    players: int
    options: dict[str, Any] = field(default_factory=dict)  # every option, as the game took it
    seed: int = 0
    games_per_group: int = 0  # as asked: whole deals per rotation may play a few more
    matches: list[Match] = field(default_factory=list)
    standings: dict[str, Standing] = field(default_factory=dict)
    # (a, b) -> [games where a finished ahead of b, ties half; games where both sat]. A game
    # counts once: where a bot holds several seats, its share of the (a seat, b seat) pairs
    # (each pair counted alone, 200 games of two bots on four seats were 800 "games", and
    # the interval half as wide as the games allow).
    head_to_head: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def pair_rate(self, a: str, b: str) -> tuple[float, float, float, int]:
        """How often `a` finished ahead of `b` in games where both sat (ties count half):
        rate with a 95% Wilson interval and the number of games."""
        ahead, games = self.head_to_head.get((a, b), [0.0, 0.0])
        rate, lo, hi = wilson_fraction(ahead, int(games))
        return rate, lo, hi, int(games)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": self.bots,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "games_per_group": self.games_per_group,
            "standings": [s.__dict__ for s in self.standings.values()],
            "head_to_head": [
                {"bot": a, "against": b, "ahead": v[0], "games": int(v[1])}
                for (a, b), v in sorted(self.head_to_head.items())
            ],
            "games": [
                {"group": m.group, "seats": list(m.seats), **m.result.__dict__}
                for m in self.matches
            ],
        }


def groups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every group of `players` entrants; with fewer entrants than seats, one group that
    repeats them in turn."""
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    return [tuple(bots[i % len(bots)] for i in range(players))]


def schedule(
    game: str, options: dict[str, Any], bots: Sequence[str], players: int, games: int, seed: int
) -> list[tuple[int, Job, int]]:
    """(group, job, games) per seat rotation; a job's game i uses deal seed i of its group."""
    plan = []
    # The table size is the tournament's `players` (options={} loaded the game's default
    # size, and every game failed: "3 seats but 2 bots were given").
    told = options.get("players", players)
    if told != players:
        raise BadInput(
            said(
                N_("the options say {told} players, the tournament {players}"),
                told=told,
                players=players,
            )
        )
    opts = tuple(sorted({**options, "players": players}.items()))
    for g, group in enumerate(groups(bots, players)):
        group_seed = derive_seed(seed, "group", g)
        # Distinct rotations only: two entrants on four seats have two (abab, baba); the
        # other two repeated them, the same games again with the same seeds, so half the
        # time was spent on copies and the intervals counted them as new games.
        rotations = dict.fromkeys(
            tuple(group[(s + r) % players] for s in range(players)) for r in range(players)
        )
        blocks = max(1, math.ceil(games / len(rotations)))
        for seats in rotations:
            plan.append((g, Job(game, opts, tuple(_spec(b) for b in seats), group_seed), blocks))
    return plan


def _spec(bot: str) -> str:
    return bot if bot.startswith("bot") else f"bot:{bot}"


def play_tournament(
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> Tournament:
    plan = schedule(game, options, bots, players, games, seed)
    results = run_many(
        [(job, n) for _, job, n in plan],
        workers=workers,
        on_progress=on_progress,
        backend=backend,
        address=address,
    )
    tour = Tournament(
        game, [b.removeprefix("bot:") for b in bots], players, dict(options), seed, games
    )
    for (g, job, _), batch in zip(plan, results, strict=True):
        names = tuple(s.removeprefix("bot:") for s in job.seats)
        for result in batch:
            tour.matches.append(Match(g, names, result))
    # Interleave rotations in deal order so ratings do not depend on the rotation order.
    tour.matches.sort(key=lambda m: (m.group, m.result.index, m.seats))
    _rate(tour, seed)
    return tour


# Ratings are online updates, so the order of the games moves them: in one pass in deal
# order, a bot that finished ahead in 60 of 100 games against one other was rated below it
# (its last games went the other way). The bots do not change during a tournament, so the
# model has no dynamics (tau 0), and mu and sigma are the means over the deal order and
# RATING_ORDERS - 1 seeded shuffles of it.
RATING_ORDERS = 16


def _rate(tour: Tournament, seed: int = 0) -> None:
    standings = {b: Standing(b) for b in tour.bots}
    for match in tour.matches:
        _count(tour, standings, match)
    rng = random.Random(derive_seed(seed, "rating orders"))
    # None where a game is not rated: kept, so the shuffles are those of the games
    order = [_places(m) for m in tour.matches]
    sums = {b: [0.0, 0.0] for b in tour.bots}
    for k in range(RATING_ORDERS):
        if k:
            rng.shuffle(order)
        for bot, rating in _ratings(order, tour.bots).items():
            sums[bot][0] += rating.mu
            sums[bot][1] += rating.sigma
    for bot, st in standings.items():
        n = max(1, st.games)
        st.score /= n
        st.payoff /= n
        st.mu, st.sigma = (x / RATING_ORDERS for x in sums[bot])
    tour.standings = standings


def _count(tour: Tournament, standings: dict[str, Standing], match: Match) -> None:
    """A game's wins, scores and payoffs in the standings and its head-to-head cells. A
    game counts once for each bot in it: one holding several seats (two entrants on four
    seats) was counted once per seat, so its won-alone rate was at most a half and its
    interval as narrow as twice the games would give."""
    r = match.result
    seats = match.seats
    winning_bots = {seats[w] for w in r.winners}
    for bot in dict.fromkeys(seats):
        st = standings[bot]
        st.games += 1
        st.wins += winning_bots == {bot}
        st.shared += bot in winning_bots and len(winning_bots) > 1
        st.score += seat_mean(seats, r.scores, bot)
        st.payoff += seat_mean(seats, r.payoff, bot)
    for a, b in itertools.permutations(dict.fromkeys(seats), 2):
        cell = tour.head_to_head.setdefault((a, b), [0.0, 0.0])
        cell[0] += ahead_share(seats, r.payoff, a, b)
        cell[1] += 1


def _places(match: Match) -> tuple[list[str], list[float]] | None:
    """The bots of a rated game and their whole-number places (1 = best), or None for a
    game that is not rated. A bot holding several seats takes part once, with the mean
    payoff of its seats."""
    r, seats = match.result, match.seats
    entrants = list(dict.fromkeys(seats))
    if r.truncated or len(entrants) < 2:
        return None
    mean = {bot: seat_mean(seats, r.payoff, bot) for bot in entrants}
    # openskill truncates fractional ranks, which made payoffs such as 0.5 and 0.33 ties.
    return entrants, [float(1 + sum(mean[o] > mean[bot] for o in entrants)) for bot in entrants]


def _ratings(
    games: Sequence[tuple[list[str], list[float]] | None], bots: Sequence[str]
) -> dict[str, Any]:
    """openskill ratings after these (bots, places) games in this order (None: not rated)."""
    model = PlackettLuce(tau=0.0)
    ratings = {b: model.rating(name=b) for b in bots}
    for game in games:
        if game is None:
            continue
        entrants, ranks = game
        updated = model.rate([[ratings[bot]] for bot in entrants], ranks=ranks)
        for bot, team in zip(entrants, updated, strict=True):
            ratings[bot] = team[0]
    return ratings


def seat_mean(seats: Sequence[str], values: Sequence[float], bot: str) -> float:
    """The mean of `values` (scores or payoffs, one per seat) over the seats `bot` holds."""
    mine = [v for b, v in zip(seats, values, strict=True) if b == bot]
    return sum(mine) / len(mine)


def ahead_share(seats: tuple[str, ...], payoff: Sequence[float], a: str, b: str) -> float:
    """The share of (seat of `a`, seat of `b`) pairs where `a`'s seat finished ahead (ties
    half): 1, 1/2 or 0 when each holds one seat."""
    pairs = [
        1.0 if payoff[i] > payoff[j] else 0.5 if payoff[i] == payoff[j] else 0.0
        for i, x in enumerate(seats)
        if x == a
        for j, y in enumerate(seats)
        if y == b
    ]
    return sum(pairs) / len(pairs)


def plot_ratings(tour: Tournament, path: str) -> None:
    """Ratings (mu) with error bars of 2 sigma, one bar per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(tour.standings.values(), key=lambda s: -s.mu)
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(rows)), 3.5))
    ax.errorbar(
        range(len(rows)),
        [s.mu for s in rows],
        yerr=[2 * s.sigma for s in rows],
        fmt="o",
        capsize=6,
    )
    ax.set_xticks(range(len(rows)), [s.bot for s in rows])
    ax.set_ylabel("openskill rating (mu +- 2 sigma)")
    ax.set_title(f"{tour.game}: {len(tour.matches)} games, {tour.players} players")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
