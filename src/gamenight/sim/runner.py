"""Play many games with bots, locally in worker processes, with derived seeds.

Game i of a run with master seed S is played from `derive_seed(S, i)` and its bots from
`derive_seed(S, i, seat)`, so the results are the same for any number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gamenight.bots import make_seat
from gamenight.engine.core import Game
from gamenight.engine.driver import play
from gamenight.engine.registry import load
from gamenight.engine.seeds import derive_seed
from gamenight.sim.backends import check_backend, ray_map


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    payoff: tuple[float, ...]
    truncated: bool
    stats: dict[str, float]


@dataclass(frozen=True)
class Job:
    """What a worker needs to play games: all plain data, so it pickles."""

    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    seed: int


@cache
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load(name, **dict(options))


def play_one(job: Job, index: int) -> GameResult:
    game = _game(job.game, job.options)
    seed = derive_seed(job.seed, index)
    bots = [
        make_seat(spec, game, derive_seed(job.seed, index, s)) for s, spec in enumerate(job.seats)
    ]
    state = play(game, bots, seed)
    out = state.outcome()
    return GameResult(
        index, seed, out.scores, out.winners, out.payoff, out.truncated, state.stats()
    )


def _play_chunk(args: tuple[Job, range]) -> list[GameResult]:
    job, indices = args
    return [play_one(job, i) for i in indices]


def run(
    job: Job,
    games: int,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> list[GameResult]:
    """Play games 0..games-1 of `job`; `on_progress(n)` after every n finished games.

    backend: "processes" (local worker processes) or "ray" (a local Ray runtime, or the
    cluster at `address`); the results are the same for any backend and worker count."""
    return run_many(
        [(job, games)], workers=workers, on_progress=on_progress, backend=backend, address=address
    )[0]


def run_many(
    batches: Sequence[tuple[Job, int]],
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> list[list[GameResult]]:
    """Play several jobs (games 0..n-1 of each) in one pool; results per job, in order."""
    check_backend(backend)
    total = sum(n for _, n in batches)
    # Many small chunks: the progress bar moves every few games even when a game takes
    # seconds (ISMCTS), and cheap games still go 500 to a chunk.
    chunk = max(1, min(500, total // (workers * 64)))
    chunks = [
        (b, (job, range(a, min(a + chunk, games))))
        for b, (job, games) in enumerate(batches)
        for a in range(0, games, chunk)
    ]
    tasks = [c for _, c in chunks]
    slots: list[list[GameResult]] = [[] for _ in chunks]
    done: Iterable[tuple[int, list[GameResult]]]
    pool = None
    if backend == "ray":
        done = ray_map(_play_chunk, tasks, workers=workers, address=address)
    elif workers <= 1:
        done = ((i, _play_chunk(t)) for i, t in enumerate(tasks))
    else:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        done = pool.imap_unordered(_numbered_chunk, enumerate(tasks))
    try:
        for i, part in done:  # in finishing order; slots put them back in game order
            slots[i] = part
            if on_progress:
                on_progress(len(part))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    results: list[list[GameResult]] = [[] for _ in batches]
    for (b, _), part in zip(chunks, slots, strict=True):
        results[b].extend(part)
    return results


def _numbered_chunk(task: tuple[int, tuple[Job, range]]) -> tuple[int, list[GameResult]]:
    i, chunk = task
    return i, _play_chunk(chunk)


@dataclass
class Summary:
    """Win rates per seat (co-winners each count), with 95% Wilson intervals."""

    games: int
    players: int
    wins: list[int] = field(default_factory=list)
    payoff: list[float] = field(default_factory=list)
    score: list[float] = field(default_factory=list)
    shared: int = 0
    truncated: int = 0
    stats: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, results: Sequence[GameResult], players: int) -> Summary:
        s = cls(len(results), players, [0] * players, [0.0] * players, [0.0] * players)
        totals: dict[str, float] = {}
        for r in results:
            for w in r.winners:
                s.wins[w] += 1
            for seat, p in enumerate(r.payoff):
                s.payoff[seat] += p
                s.score[seat] += r.scores[seat]
            s.shared += len(r.winners) > 1
            s.truncated += r.truncated
            for key, value in r.stats.items():
                totals[key] = totals.get(key, 0.0) + value
        n = max(1, len(results))
        s.payoff = [p / n for p in s.payoff]
        s.score = [p / n for p in s.score]
        s.stats = {k: v / n for k, v in totals.items()}
        return s

    def win_rate(self, seat: int) -> tuple[float, float, float]:
        """(rate, low, high): Wilson score interval at 95%."""
        return wilson(self.wins[seat], self.games)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float, float]:
    """(rate, low, high): the 95% Wilson score interval of a success rate."""
    return wilson_fraction(successes, trials, z)


def wilson_fraction(successes: float, trials: int, z: float = 1.96) -> tuple[float, float, float]:
    """Wilson interval where a success may count a half (a shared result)."""
    if trials == 0:
        return (0.0, 0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))
