"""Work done outside the event loop, in worker processes: bot decisions and heavy actions
(a Drop It drop runs the physics). Everything here is a plain function of picklable data.

`WorkerPool` replaces a pool whose worker died (a killed process breaks a
ProcessPoolExecutor for good) and retries the lost job once. Every job goes through its
`budget` (budget.py): `run` is table work, which never waits for people's; `run_for` is
work a person asked for (the coach, reviews, replays), in their bounded, fair share.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import random
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gamenight.engine.core import Action, State
from gamenight.server.budget import Asker, Budget, Shares

log = logging.getLogger("gamenight.server")


class MoveTimeout(Exception):
    """A bot move ran past its wall-clock budget."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise MoveTimeout after `seconds` (only in a process's main thread, where signals
    arrive; a thread pool relies on the server's own wait instead)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(_signum: int, _frame: Any) -> None:
        raise MoveTimeout

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def bot_choose(
    state: State, seat: int, text: str, seed: int, budget: float = 0.0
) -> dict[str, Any]:
    """The JSON form of the move the bot `text` makes for `seat`; past `budget` seconds
    (0: none) the search is cut and a seeded random legal move is made instead."""
    from gamenight.bots import make_seat
    from gamenight.engine.core import BadInput

    def fallback() -> dict[str, Any]:  # made only when needed: most moves never use it
        return random.Random(seed).choice(state.actions(seat)).to_json()

    try:
        bot = make_seat(text, state.game, seed)
    except (BadInput, ImportError, ModuleNotFoundError):
        return fallback()
    try:
        with _alarm(budget):
            return bot.choose(state, seat).to_json()
    except MoveTimeout:
        return fallback()


def apply(state: State, seat: int, action: Action) -> State:
    """`state` after `seat` did `action` (IllegalAction propagates, as raised by `act`)."""
    state.act(seat, action)
    return state


def warm() -> int:
    """Import the games once in a fresh worker, so the first real task is fast."""
    import gamenight.bots  # noqa: F401
    from gamenight.engine.registry import games

    games()  # imports every game package

    return 0


def _log_failure(done: asyncio.Future[Any]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("warming the worker pool failed: %r", done.exception())


class WorkerPool:
    """An executor that is replaced when it breaks (a worker process died)."""

    def __init__(
        self,
        factory: Callable[[], Executor],
        workers_n: int = 1,
        shares: Shares | None = None,
    ) -> None:
        self.factory = factory
        self.budget = Budget(workers_n, shares)  # `factory`'s executor has workers_n workers
        self._executor: Executor | None = None  # made with the first job (see prepare)
        self.restarts = 0
        self._warming: asyncio.Future[Any] | None = None

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self.factory()
        return self._executor

    def prepare(self) -> None:
        """Start the workers in the background, games imported, unless done already:
        called when a table that will need them starts, so its first heavy move does
        not wait for that. A server whose tables need none (people, quick bots) never
        starts a worker process."""
        if self._warming is None:
            self._warming = asyncio.ensure_future(self.run(warm))
            self._warming.add_done_callback(_log_failure)

    @property
    def broken(self) -> bool:
        return bool(getattr(self._executor, "_broken", False))

    def heal(self) -> bool:
        """Replace a broken executor; True if it was broken."""
        if not self.broken:
            return False
        self._replace(self.executor)
        return True

    def _replace(self, executor: Executor) -> None:
        if executor is not self.executor:
            return  # another job replaced it already
        log.warning("a worker process died; starting a new worker pool")
        executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self.factory()
        self.restarts += 1

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Table work: `fn(*args)` in a worker at once, ahead of every person's request."""
        return await self.budget.table(lambda: self._run(fn, *args))

    async def run_for(
        self, asker: Asker, kind: str, fn: Callable[..., Any], *args: Any, supersede: bool = False
    ) -> Any:
        """Work `asker` asked for: `fn(*args)` in a worker within their share (budget.py);
        Refused (429) past it."""
        return await self.budget.person(
            asker, kind, lambda: self._run(fn, *args), supersede=supersede
        )

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker; a job lost with a dead worker is retried once."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            executor = self.executor
            try:
                return await loop.run_in_executor(executor, fn, *args)
            except BrokenProcessPool:
                self._replace(executor)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def make_pool(kind: str, workers_n: int) -> Executor:
    """The executor of a WorkerPool: "thread" (tests) or worker processes started by a
    forkserver that has this module loaded already. Each worker dies with this server
    (`_worker_init`), however the server ends."""
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=workers_n, thread_name_prefix="gamenight-work")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["gamenight.server.workers"])
    return ProcessPoolExecutor(
        max_workers=workers_n,
        mp_context=ctx,
        initializer=_worker_init,
        initargs=(os.getpid(),),
    )


def _worker_init(server_pid: int) -> None:
    """A worker ignores Ctrl+C (the terminal sends SIGINT to every process of the group,
    and only the server should stop on it: each worker printed a KeyboardInterrupt
    traceback; the forkserver and the resource tracker ignore it themselves), and dies
    with its server: a kill -9 of the server left its workers running (14 of 18 kills)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(server_pid)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with(server_pid: int) -> None:
    """End this process when its parent or the server `server_pid` ends.

    Linux kills it at once when its parent ends (prctl PR_SET_PDEATHSIG). But a worker's
    parent is the forkserver, and the forkserver outlives a killed server: it exits when
    its pipe from the server closes, and every worker holds a copy of that pipe's end. So
    a daemon thread also waits for the server itself to end (on a pidfd: at once; where
    there is none, checking every second, and the parent too where prctl is missing).
    A server already gone before this ran exits the worker here."""
    parent = os.getppid()
    by_kernel = _pdeathsig(signal.SIGKILL)
    thread = threading.Thread(
        target=_watch,
        args=(None if by_kernel else parent, server_pid),
        name="gamenight-orphan",
        daemon=True,
    )
    thread.start()
    if os.getppid() != parent or not _alive(server_pid):  # gone before we could ask
        os._exit(1)


def _pdeathsig(sig: int) -> bool:
    """Ask Linux for `sig` when this process's parent ends; False where that is missing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, under another user: alive
        return True
    return True


def _watch(parent: int | None, server_pid: int, every: float = 1.0) -> None:
    """Exit once the server is gone, or the parent changed (it died: we were adopted;
    `parent` None: the kernel sees to that)."""
    try:
        fd: int | None = os.pidfd_open(server_pid)  # readable once the server ended
    except (AttributeError, OSError):
        fd = None
    while parent is None or os.getppid() == parent:
        if fd is not None:
            if select.select([fd], [], [], every)[0]:
                break
        elif not _alive(server_pid):
            break
        else:
            time.sleep(every)
    os._exit(1)
