"""Play many games with bots, locally in worker processes, with derived seeds.

Game i of a run with master seed S is played from `derive_seed(S, i)` and its bots from
`derive_seed(S, i, seat)`, so the results are the same for any number of workers.

A game package may offer a `batched` module (many games in lockstep with array code, see
games/drop_or_stop/batched.py): when every seat's bot has an array policy there, chunks are
played through it. Automatically only where the policy makes the bot's very decisions (the
outcomes, scores and lengths are the same either way); with `Job.batched=True` also where it
draws from another random stream (the same distribution, other games); `Job.batched=False`
never. A batch gives each game's `stats()` as the engine's state would (the batched
module's `Tables.stats`).

Results are streamed (`stream`): the parent holds only chunks that finished ahead of an
earlier one, never the whole run. Where only the summary is wanted (`summarize`), each
chunk is summed where it is played and only its `Tally` (counts of each value) comes back:
the parent merges a few small tallies instead of unpickling and summing every game, and
the counts add up exactly, so the summary is the same for any chunking and worker count.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.pool import Pool
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np

from gamenight.bots import make_seat
from gamenight.engine.core import Game, Outcome
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
    batched: bool | None = None  # None: when exact; True: also same-distribution; False: never


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
    every_stats = played.tables.stats(range(len(seeds)))
    results = []
    for k, i in enumerate(indices):
        out = played.outcome(k)
        results.append(
            GameResult(
                i, seeds[k], out.scores, out.winners, out.payoff, out.truncated, every_stats[k]
            )
        )
    return results


def _play_chunk(args: tuple[Job, range]) -> list[GameResult]:
    job, indices = args
    if batchable(job):
        return _play_batch(job, indices)
    return [play_one(job, i) for i in indices]


def _tally_batch(job: Job, indices: range) -> Tally:
    """A lockstep batch summed from its arrays: one outcome per distinct row of round
    wins (and truncation), not one per game."""
    found = _batched_policies(job)
    assert found is not None
    module, policies = found
    game = _game(job.game, job.options)
    played = module.play(game, [derive_seed(job.seed, i) for i in indices], policies)
    tables = played.tables
    tally = Tally.empty(game.players)
    rows = np.column_stack([tables.wins, tables.truncated]).astype(np.int64)
    distinct, counts = np.unique(rows, axis=0, return_counts=True)
    for row, count in zip(distinct.tolist(), counts.tolist(), strict=True):
        tally.add_outcome(Outcome.from_scores(row[:-1], truncated=bool(row[-1])), count)
    tally.games = len(indices)
    for stats in tables.stats(range(len(indices))):  # in the engine's order of keys
        for key, value in stats.items():
            tally.stats.setdefault(key, Counter())[value] += 1
    return tally


def _tally_chunk(args: tuple[Job, range]) -> Tally:
    job, indices = args
    if batchable(job):
        return _tally_batch(job, indices)
    tally = Tally.empty(len(job.seats))
    for i in indices:
        tally.add(play_one(job, i))
    return tally


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


def summarize(
    job: Job,
    games: int,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
    pool: Pool | None = None,
) -> Summary:
    """`Summary.of(stream(...))` with each chunk summed where it is played: the parent
    receives one small `Tally` per chunk, never a game's result."""
    tally = Tally.empty(len(job.seats))
    for _, part in _chunks_in_order(
        [(job, games)],
        workers=workers,
        on_progress=on_progress,
        backend=backend,
        address=address,
        pool=pool,
        play=_tally_chunk,
    ):
        tally.merge(part)
    return tally.summary()


def _chunk_size(
    batches: Sequence[tuple[Job, int]], workers: int, tallied: bool, backend: str = "processes"
) -> int:
    total = sum(n for _, n in batches)
    if all(batchable(job) for job, _ in batches):
        # Lockstep batches pay a fixed cost per step: big chunks, a few per worker. Results
        # streamed per game: at most 1,024 games, so a chunk's results stay small in the
        # parent. Tallied: 2,048 tables (a fifth less CPU per game than 1,024; a worker
        # holds ~5 KB per table while it plays, so not more), at least 4 chunks per worker.
        if tallied:
            return max(1, min(2048, -(-total // (workers * 4))))
        return max(1, min(1024, total // (workers * 8)))
    # Many small chunks: the progress bar moves every few games even when a game takes
    # seconds (ISMCTS), and cheap games still go 500 to a chunk. A Ray task costs far more
    # than a pool's: 8 chunks a worker (stop 35, Arne's greedy games on 2 workers, rounds
    # interleaved: 93-113 games/s against 80-98 with 64 chunks a worker, processes 91-110).
    per_worker = 8 if backend == "ray" else 64
    return max(1, min(500, total // (workers * per_worker)))


def _chunks_in_order(
    batches: Sequence[tuple[Job, int]],
    *,
    workers: int,
    on_progress: Callable[[int], None] | None,
    backend: str,
    address: str | None,
    pool: Pool | None = None,
    play: Callable[[tuple[Job, range]], Any] = _play_chunk,
) -> Iterator[tuple[int, Any]]:
    """(job number, `play` of a chunk: its results, or its tally) in game order, whatever
    order chunks finish in. `on_progress` gets each chunk's number of games."""
    check_backend(backend)
    chunk = _chunk_size(batches, workers, tallied=play is _tally_chunk, backend=backend)
    chunks = [
        (b, (job, range(a, min(a + chunk, games))))
        for b, (job, games) in enumerate(batches)
        for a in range(0, games, chunk)
    ]
    tasks = [c for _, c in chunks]
    done: Iterable[tuple[int, Any]]
    owned = None
    if backend == "ray":
        done = ray_map(play, tasks, workers=workers, address=address)
    elif workers <= 1:
        done = ((i, play(t)) for i, t in enumerate(tasks))
    else:
        if pool is None:
            pool = owned = multiprocessing.get_context("spawn").Pool(
                workers, initializer=_ignore_ctrl_c
            )
        done = pool.imap_unordered(_numbered, [(play, i, t) for i, t in enumerate(tasks)])
    waiting: dict[int, Any] = {}
    following = 0
    try:
        for i, part in done:
            if on_progress:
                on_progress(len(tasks[i][1]))
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


class ResultsFile:
    """Games' results written as one JSON object, `{**header, "results": [game, ...],
    "played": n, "complete": bool}`, safely: into a temporary file beside `path`, renamed
    over `path` when closed. A run that stops early (Ctrl+C, a failure) still leaves a
    valid file of the games so far with `"complete": false`; a file already at `path` is
    replaced only then, and kept as it was when no game was written.

        with ResultsFile(path, header) as file:
            for result in stream(...):
                file.add(result)
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self.played = 0
        self.replaced = False  # whether `path` now holds this run's results
        self._file: IO[str] | None = None

    def __enter__(self) -> ResultsFile:
        self._file = tempfile.NamedTemporaryFile(
            "w", dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".part", delete=False
        )
        _as_a_new_file(self._file.name)
        head = json.dumps(self.header)
        self._file.write(head[:-1] + (", " if self.header else "") + '"results": [')
        return self

    def add(self, result: GameResult) -> None:
        assert self._file is not None
        self._file.write(("," if self.played else "") + json.dumps(result.__dict__))
        self.played += 1

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        assert self._file is not None
        file, self._file = self._file, None
        temporary = Path(file.name)
        try:
            complete = kind is None
            file.write(f'], "played": {self.played}, "complete": {json.dumps(complete)}}}')
            file.close()
            if complete or self.played:
                os.replace(temporary, self.path)
                self.replaced = True
        finally:
            file.close()
            temporary.unlink(missing_ok=True)


def _as_a_new_file(path: str | Path) -> None:
    """The mode of a new file (0666 less the umask, as `open` gives): tempfile makes its
    files private (0600), and results renamed into place stayed unreadable to others."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` (same suffix) to write to; renamed over `path` when
    the block ends without an error, removed otherwise: `path` never holds half a file."""
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", suffix=f".part{path.suffix}", delete=False
    ) as file:
        temporary = Path(file.name)
    _as_a_new_file(temporary)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _ignore_ctrl_c() -> None:
    """A worker leaves Ctrl+C to the parent: the terminal sends SIGINT to every process of
    the group, and each worker printed a KeyboardInterrupt traceback; the parent stops
    them (`terminate`) when the run is interrupted."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _numbered(task: tuple[Callable[[tuple[Job, range]], Any], int, tuple[Job, range]]) -> Any:
    play, i, chunk = task
    return i, play(chunk)


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
    # The mean of each stat over the games that recorded it (a per-round stat such as
    # `start_won.r4` only in games that reached round 4), how many games that is, and how
    # many distinct values it took (1: the same in every game).
    stats: dict[str, float] = field(default_factory=dict)
    stat_games: dict[str, int] = field(default_factory=dict)
    stat_values: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, results: Iterable[GameResult], players: int) -> Summary:
        """Summed as the results go by (a stream is never held)."""
        tally = Tally.empty(players)
        for r in results:
            tally.add(r)
        return tally.summary()

    def win_rate(self, seat: int) -> tuple[float, float, float]:
        """(rate, low, high): Wilson score interval at 95%."""
        return wilson(self.wins[seat], self.games)


@dataclass
class Tally:
    """Results summed so that sums merge exactly: how many games, wins per seat, and per
    seat (and per stat) how often each value came. Game figures take few distinct values
    (payoff shares, scores, counts), so a tally stays small however many games it holds,
    and merging tallies of chunks in any grouping gives the same numbers: a 1-worker and a
    2-worker run print the same summary. Stats keep the order they first appear in."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    payoff: list[Counter[float]] = field(default_factory=list)
    score: list[Counter[float]] = field(default_factory=list)
    shared: int = 0
    truncated: int = 0
    stats: dict[str, Counter[float]] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int) -> Tally:
        return cls(
            players,
            wins=[0] * players,
            payoff=[Counter() for _ in range(players)],
            score=[Counter() for _ in range(players)],
        )

    def add_outcome(self, out: Outcome, count: int = 1) -> None:
        """`count` games that ended in `out` (their stats are the caller's)."""
        self.games += count
        for w in out.winners:
            self.wins[w] += count
        for seat in range(self.players):
            self.payoff[seat][out.payoff[seat]] += count
            self.score[seat][out.scores[seat]] += count
        self.shared += count * (len(out.winners) > 1)
        self.truncated += count * out.truncated

    def add(self, r: GameResult) -> None:
        self.games += 1
        for w in r.winners:
            self.wins[w] += 1
        for seat in range(self.players):
            self.payoff[seat][r.payoff[seat]] += 1
            self.score[seat][r.scores[seat]] += 1
        self.shared += len(r.winners) > 1
        self.truncated += r.truncated
        stats = self.stats
        for key, value in r.stats.items():
            counts = stats.get(key)
            if counts is None:
                counts = stats[key] = Counter()
            counts[value] += 1

    def merge(self, other: Tally) -> None:
        """Add a later chunk's tally (later: its new stats go after the ones known)."""
        self.games += other.games
        for seat in range(self.players):
            self.wins[seat] += other.wins[seat]
            self.payoff[seat].update(other.payoff[seat])
            self.score[seat].update(other.score[seat])
        self.shared += other.shared
        self.truncated += other.truncated
        for key, counts in other.stats.items():
            self.stats.setdefault(key, Counter()).update(counts)

    def summary(self) -> Summary:
        def mean(counts: Counter[float], games: int | None = None) -> float:
            """Over `games` (all games), or over the games that recorded the stat: a stat
            a game records only sometimes (round 4's, in games that reached round 4) was
            divided by every game, 0.24 where the games it is about gave 0.53."""
            n = games if games is not None else sum(counts.values())
            return math.fsum(v * c for v, c in sorted(counts.items())) / max(1, n)

        return Summary(
            self.games,
            self.players,
            list(self.wins),
            [mean(c, self.games) for c in self.payoff],
            [mean(c, self.games) for c in self.score],
            self.shared,
            self.truncated,
            {key: mean(c) for key, c in self.stats.items()},
            {key: sum(c.values()) for key, c in self.stats.items()},
            {key: len(c) for key, c in self.stats.items()},
        )


def normal_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the mean with z standard errors each side (the normal
    approximation, for means of payoffs or of paired deals); no interval below 2 values."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, math.nan, math.nan)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


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
    # In exact arithmetic low <= p <= high; in floats 0 of 6,000 gave low = 5e-20 > p, a
    # whisker of negative length that matplotlib refuses (`gamenight report --games 3000`)
    return (p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))
