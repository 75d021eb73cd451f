"""Play many games with bots, locally in worker processes, with derived seeds.

Game i of a run with master seed S is played from `derive_seed(S, i)` and its bots from
`derive_seed(S, i, seat)`, so the results are the same for any number of workers.

A game package may offer a `batched` module (many games in lockstep with array code, see
games/drop_or_stop/batched.py): when every seat's bot has an array policy there, chunks are
played through it. Automatically only where the policy makes the bot's very decisions (the
results are the same either way); with `Job.batched=True` also where it draws from another
random stream (the same distribution, other games).

Results are streamed (`stream`): the parent holds only chunks that finished ahead of an
earlier one, never the whole run.
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.pool import Pool
from pathlib import Path
from types import ModuleType
from typing import Any

from gamenight.bots import make_seat
from gamenight.engine.core import Game
from gamenight.engine.driver import play
from gamenight.engine.registry import load, spec
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
    batched: bool | None = None  # None: when exact; True: also same-distribution policies


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


def _batched_module(game: Game) -> ModuleType | None:
    """The game's lockstep simulator, where its spec names one."""
    found = spec(game.name)
    return found.module("batched") if found.batched else None


@cache
def _batched_policies(job: Job) -> tuple[ModuleType, list[Any]] | None:
    """The game's batched module and one array policy per seat, if this job may use them."""
    if job.batched is False:
        return None
    game = _game(job.game, job.options)
    module = _batched_module(game)
    if module is None:
        return None
    policies = [module.policy_for(make_seat(spec, game, 0)) for spec in job.seats]
    if any(p is None for p in policies):
        return None
    if job.batched is None and not all(module.exact(p) for p in policies):
        return None
    return module, policies


def batchable(job: Job) -> bool:
    """Whether `job`'s games are played in lockstep batches (see the module docstring)."""
    return _batched_policies(job) is not None


def _play_batch(job: Job, indices: range) -> list[GameResult]:
    found = _batched_policies(job)
    assert found is not None
    module, policies = found
    seeds = [derive_seed(job.seed, i) for i in indices]
    played = module.play(_game(job.game, job.options), seeds, policies)
    decisions = played.tables.decisions.tolist()
    rounds = played.tables.round.tolist()
    results = []
    for k, i in enumerate(indices):
        out = played.outcome(k)
        stats = {"decisions": decisions[k], "rounds": rounds[k]}
        results.append(
            GameResult(i, seeds[k], out.scores, out.winners, out.payoff, out.truncated, stats)
        )
    return results


def _play_chunk(args: tuple[Job, range]) -> list[GameResult]:
    job, indices = args
    if batchable(job):
        return _play_batch(job, indices)
    return [play_one(job, i) for i in indices]


def run(
    job: Job,
    games: int,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
    pool: Pool | None = None,
) -> list[GameResult]:
    """Play games 0..games-1 of `job`; `on_progress(n)` after every n finished games.

    backend: "processes" (local worker processes) or "ray" (a local Ray runtime, or the
    cluster at `address`); the results are the same for any backend and worker count."""
    return list(
        stream(
            job,
            games,
            workers=workers,
            on_progress=on_progress,
            backend=backend,
            address=address,
            pool=pool,
        )
    )


def stream(
    job: Job,
    games: int,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
    pool: Pool | None = None,
) -> Iterator[GameResult]:
    """`run`, yielding each game's result in game order as soon as it and every game
    before it are done: memory holds only chunks that finished out of order. `pool`: a
    running process pool of `workers` processes to use (and leave running) instead of
    starting one."""
    for _, part in _chunks_in_order(
        [(job, games)],
        workers=workers,
        on_progress=on_progress,
        backend=backend,
        address=address,
        pool=pool,
    ):
        yield from part


def run_many(
    batches: Sequence[tuple[Job, int]],
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> list[list[GameResult]]:
    """Play several jobs (games 0..n-1 of each) in one pool; results per job, in order."""
    results: list[list[GameResult]] = [[] for _ in batches]
    for b, part in _chunks_in_order(
        batches, workers=workers, on_progress=on_progress, backend=backend, address=address
    ):
        results[b].extend(part)
    return results


def _chunk_size(batches: Sequence[tuple[Job, int]], workers: int) -> int:
    total = sum(n for _, n in batches)
    if all(batchable(job) for job, _ in batches):
        # Lockstep batches pay a fixed cost per step: big chunks, a few per worker; at
        # most 1,024 games, so a chunk's results stay small in the parent (they stream).
        return max(1, min(1024, total // (workers * 8)))
    # Many small chunks: the progress bar moves every few games even when a game takes
    # seconds (ISMCTS), and cheap games still go 500 to a chunk.
    return max(1, min(500, total // (workers * 64)))


def _chunks_in_order(
    batches: Sequence[tuple[Job, int]],
    *,
    workers: int,
    on_progress: Callable[[int], None] | None,
    backend: str,
    address: str | None,
    pool: Pool | None = None,
) -> Iterator[tuple[int, list[GameResult]]]:
    """(job number, results of a chunk) in game order, whatever order chunks finish in."""
    check_backend(backend)
    chunk = _chunk_size(batches, workers)
    chunks = [
        (b, (job, range(a, min(a + chunk, games))))
        for b, (job, games) in enumerate(batches)
        for a in range(0, games, chunk)
    ]
    tasks = [c for _, c in chunks]
    done: Iterable[tuple[int, list[GameResult]]]
    owned = None
    if backend == "ray":
        done = ray_map(_play_chunk, tasks, workers=workers, address=address)
    elif workers <= 1:
        done = ((i, _play_chunk(t)) for i, t in enumerate(tasks))
    else:
        if pool is None:
            pool = owned = multiprocessing.get_context("spawn").Pool(workers)
        done = pool.imap_unordered(_numbered_chunk, enumerate(tasks))
    waiting: dict[int, list[GameResult]] = {}
    following = 0
    try:
        for i, part in done:
            if on_progress:
                on_progress(len(part))
            waiting[i] = part
            while following in waiting:
                yield chunks[following][0], waiting.pop(following)
                following += 1
    finally:
        if owned is not None:
            if following < len(chunks):  # the consumer stopped early
                owned.terminate()
            else:
                owned.close()
            owned.join()


def write_json(results: Iterable[GameResult], path: Path) -> Iterator[GameResult]:
    """Pass `results` through, writing them to `path` as one JSON list on the way."""
    with path.open("w") as out:
        out.write("[")
        for n, result in enumerate(results):
            out.write(("," if n else "") + json.dumps(result.__dict__))
            yield result
        out.write("]")


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
    def of(cls, results: Iterable[GameResult], players: int) -> Summary:
        """Summed as the results go by (a stream is never held)."""
        s = cls(0, players, [0] * players, [0.0] * players, [0.0] * players)
        totals: dict[str, float] = {}
        for r in results:
            s.games += 1
            for w in r.winners:
                s.wins[w] += 1
            for seat, p in enumerate(r.payoff):
                s.payoff[seat] += p
                s.score[seat] += r.scores[seat]
            s.shared += len(r.winners) > 1
            s.truncated += r.truncated
            for key, value in r.stats.items():
                totals[key] = totals.get(key, 0.0) + value
        n = max(1, s.games)
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
