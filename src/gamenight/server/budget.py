"""One scheduler for costly work in the worker pool (issue 43, item 3): table work first,
people's requests in a bounded share, fairly.

Two kinds of work reach the workers:
  - table work (`Budget.table`): a Drop It drop's physics, a thinking bot's move, a heavy
    table's replay. It is never queued here and never waits for a person's request: it goes
    straight to the pool, whose own queue holds only table work.
  - work a person asked for (`Budget.person`): the coach's advice, a review's decisions, a
    replay's computation. It waits in a queue per person and starts only on a worker that
    no table needs: at most max(1, N-1) of N workers run people's jobs, and only while a
    worker is free, so with two or more workers one is always left to the tables.

People are served round robin (one job per person in turn), each person holds at most
`Shares.per_person` jobs (waiting or running) and one job of a kind at a time
(`Shares.kinds`: one coach request, one review), each address at most `Shares.per_address`,
and all people together at most `Shares.queue` waiting jobs. Past any bound the request is
refused at once with 429 and one line; a job that cannot start within `Shares.wait_seconds`
is refused the same way. Nothing waits forever.

A person's coach request (coach.py) that is still waiting when the same person asks again is
answered "superseded" and the new one takes its place (the page asks once per position, so
the old position is gone); while it runs, a second one is refused (a worker process cannot
be stopped midway, so replacing a running job would not free its worker).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from gamenight.i18n import N_
from gamenight.server.guard import SESSION_COOKIE

if TYPE_CHECKING:  # workers.py imports this module into every worker process: kept light
    from starlette.requests import Request

T = TypeVar("T")


def busy(reason: str, **words: object) -> Exception:
    """The one-line refusal of a request over its share: 429 Too Many Requests."""
    from gamenight.server.live_table import Refused

    return Refused(reason, 429, None, **words)


@dataclass(frozen=True)
class Asker:
    """Who asked: `person` (a seat token's hash, else a session's, else the address) and
    the client `address`, each with its own share."""

    person: str
    address: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:24]


def asker_of(request: Request, seat_token: str | None = None) -> Asker:
    """The asker of `request`: the seat's token if it holds one, else its session, else
    its address (only hashes are kept: the scheduler's counts are not secrets)."""
    address = request.client.host if request.client else "?"
    session = request.cookies.get(SESSION_COOKIE)
    if seat_token:
        person = "seat:" + _digest(seat_token)
    elif session:
        person = "session:" + _digest(session)
    else:
        person = "address:" + address
    return Asker(person, address)


@dataclass(frozen=True)
class Shares:
    """The bounds of people's work (see the module's docstring)."""

    queue: int = 32  # people's jobs waiting, all together
    per_person: int = 4  # one person's jobs, waiting or running
    per_address: int = 8  # one address's jobs, waiting or running
    wait_seconds: float = 20.0  # the longest a job waits to start
    kinds: dict[str, int] = field(
        default_factory=lambda: {"coach": 1, "review": 1, "replay": 2}
    )  # one person's jobs of a kind at once; kinds not named: per_person


class Superseded(Exception):
    """A waiting request replaced by the same person's newer one of the same kind."""


@dataclass(eq=False)
class _Job:
    asker: Asker
    kind: str
    work: Callable[[], Awaitable[Any]]
    started: asyncio.Future[None]
    task: asyncio.Future[Any] | None = None


class Budget:
    """The scheduler in front of a pool of `workers` workers (see the module docstring)."""

    def __init__(self, workers: int, shares: Shares | None = None) -> None:
        self.workers = max(1, workers)
        self.shares = shares or Shares()
        self.person_slots = max(1, self.workers - 1)
        self.running_table = 0
        self.running_person = 0
        self.waiting: collections.OrderedDict[str, collections.deque[_Job]] = (
            collections.OrderedDict()
        )  # per person, in turn order
        self.waiting_count = 0
        self.held: collections.Counter[Any] = collections.Counter()  # by person, address, kind
        self.refused = 0  # requests refused for a bound (for metrics and tests)

    # -- table work --------------------------------------------------------------------------
    async def table(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work` (the pool's job) now: table work never waits for people's."""
        self.running_table += 1
        job = asyncio.ensure_future(work())
        job.add_done_callback(self._table_done)
        # Shielded: a caller that stops waiting (a bot's wall-clock budget) leaves the job
        # running in its worker, and it still counts until it ends.
        return await asyncio.shield(job)

    def _table_done(self, _job: asyncio.Future[Any]) -> None:
        self.running_table -= 1
        self._pump()

    # -- people's work -----------------------------------------------------------------------
    async def person(
        self,
        asker: Asker,
        kind: str,
        work: Callable[[], Awaitable[T]],
        *,
        supersede: bool = False,
    ) -> T:
        """Run `work` for `asker` when its turn comes and a worker is spare. Refused (429)
        past a bound or after waiting `wait_seconds`; with `supersede`, the asker's job of
        the same kind still waiting is dropped (Superseded) instead of refusing this one."""
        self._admit(asker, kind, supersede)
        job = _Job(asker, kind, work, asyncio.get_running_loop().create_future())
        self._hold(job, 1)
        self.waiting.setdefault(asker.person, collections.deque()).append(job)
        self.waiting_count += 1
        self._pump()
        try:
            await asyncio.wait_for(asyncio.shield(job.started), self.shares.wait_seconds)
        except TimeoutError:
            if not job.started.done():
                self._drop(job)
                self.refused += 1
                raise busy(
                    N_(
                        "the server is busy; your request did not start within "
                        "{seconds} s, try again shortly"
                    ),
                    seconds=f"{self.shares.wait_seconds:.0f}",
                ) from None
        except asyncio.CancelledError:  # the client went away
            if not job.started.done():
                self._drop(job)
            raise
        job.started.result()  # Superseded
        assert job.task is not None
        result: T = await asyncio.shield(job.task)  # as for table work: it counts until done
        return result

    def _admit(self, asker: Asker, kind: str, supersede: bool) -> None:
        shares = self.shares
        if self.held[(asker.person, kind)] >= shares.kinds.get(kind, shares.per_person):
            mine = [j for j in self.waiting.get(asker.person, ()) if j.kind == kind]
            if not (supersede and mine):
                self.refused += 1
                raise busy(
                    N_("your last {kind} request is still being computed; wait for it"), kind=kind
                )
            self._drop(mine[0])
            mine[0].started.set_exception(Superseded())
        if self.held[asker.person] >= shares.per_person:
            self.refused += 1
            raise busy(
                N_("you have {count} costly requests in progress; wait for them"),
                count=shares.per_person,
            )
        if self.held[("address", asker.address)] >= shares.per_address:
            self.refused += 1
            raise busy(N_("too many costly requests from your address at once; wait"))
        if self.waiting_count >= shares.queue:
            self.refused += 1
            raise busy(N_("the server is busy with others' requests; try again shortly"))

    def _hold(self, job: _Job, n: int) -> None:
        for key in (job.asker.person, ("address", job.asker.address), (job.asker.person, job.kind)):
            self.held[key] += n
            if self.held[key] <= 0:
                del self.held[key]

    def _drop(self, job: _Job) -> None:
        """Take a job that has not started out of its queue."""
        queue = self.waiting.get(job.asker.person)
        if queue is None or job not in queue:
            return
        queue.remove(job)
        if not queue:
            del self.waiting[job.asker.person]
        self.waiting_count -= 1
        self._hold(job, -1)
        # the result of a job nobody waits for any more must not be logged as lost
        job.started.add_done_callback(lambda f: f.cancelled() or f.exception())

    def _spare(self) -> bool:
        """A person's job may start: within the people's share, on a free worker."""
        return (
            self.running_person < self.person_slots
            and self.running_table + self.running_person < self.workers
        )

    def _pump(self) -> None:
        """Start waiting jobs, one per person in turn, while workers are spare."""
        while self.waiting and self._spare():
            person, queue = next(iter(self.waiting.items()))
            job = queue.popleft()
            if queue:
                self.waiting.move_to_end(person)  # round robin: the next person's turn
            else:
                del self.waiting[person]
            self.waiting_count -= 1
            self.running_person += 1
            job.task = asyncio.ensure_future(job.work())
            job.task.add_done_callback(functools.partial(self._person_done, job))
            job.started.set_result(None)

    def _person_done(self, job: _Job, _task: asyncio.Future[Any]) -> None:
        self.running_person -= 1
        self._hold(job, -1)
        assert job.task is not None
        if not job.task.cancelled():
            job.task.exception()  # retrieved: a caller that left must not leave it unlogged
        self._pump()

    def snapshot(self) -> dict[str, int]:
        """The scheduler's counts (for /api/metrics and tests)."""
        return {
            "workers": self.workers,
            "table_running": self.running_table,
            "people_running": self.running_person,
            "people_waiting": self.waiting_count,
            "people_refused": self.refused,
        }
