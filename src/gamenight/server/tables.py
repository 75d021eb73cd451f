"""Live tables: the server-side state of every table, who sits where, and the one place
where actions are accepted, stored and broadcast.

Every change to a table happens under its lock, in this order: check the version and the
action, apply it to a copy (heavy games and bots in the worker pool), write it to the
database, swap the copy in, broadcast each seat its own view. A refused action changes
nothing. After every change `_plan` decides what happens next without a person: a bot
move (within its wall-clock budget), a pass the person asked for ("always pass", a pass in
advance), the reaction countdown (which passes for a person who touches nothing, whatever
they hold: A17), the cap of a table of only bots, or the end of the game.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from gamenight.engine.core import BadInput, Game, IllegalAction, State
from gamenight.engine.registry import load
from gamenight.engine.registry import spec as game_spec
from gamenight.server import seats, series, timers, workers
from gamenight.server.db import SeatRow, Store, TableRow, token_hash
from gamenight.server.workers import WorkerPool

log = logging.getLogger("gamenight.server")

MAX_ACTIONS_SENT = 400  # the legal-action list is sent when it is at most this long
EVENTS_ON_CONNECT = 60
CHECKPOINT_EVERY = 2.0  # seconds between SQLite checkpoints, in the database thread
PASS_DWELL = 0.3  # seconds every pass in a window takes at least (table setting pass_dwell)
REACTION_SECONDS = 3.0  # the reaction countdown (table setting reaction_seconds)


@dataclass(frozen=True)
class Limits:
    """The work one server accepts: a bot move's wall-clock budget, and caps on tables
    where only bots play (nobody would notice one running for ever)."""

    move_seconds: float = 10.0  # one bot move, enforced by the server
    bot_tables: int = 4  # all-bot tables running at once
    bot_table_moves: int = 20_000  # moves of one all-bot table
    bot_table_seconds: float = 3600.0  # running time of one all-bot table


class Refused(Exception):
    """An action or request that was not accepted; `reason` says why. Nothing changed."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass(eq=False)
class Conn:
    """One WebSocket: the seat it acts for (None: spectator) and a send function."""

    seat: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    events_sent: int = 0  # events of this seat's stream sent so far
    log_pos: int = -1  # position in the state's full event log sent up to (-1: none yet)
    dropped: bool = False  # fell too far behind: no longer sent anything
    name: str | None = None  # a spectator's name, as they gave it (issue 14: listed by name)


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    game: Game
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    pass_ahead: set[int] = field(default_factory=set)
    deadline: float | None = None  # reaction timer of the seat asked now (epoch seconds)
    deadline_seat: int | None = None
    timer: asyncio.Task[None] | None = None
    bot_task: asyncio.Task[None] | None = None
    bot_version: int = -1  # the version the bot task was started for
    asked_key: tuple[int, int] | None = None  # (version, seat) holding priority in a window
    asked_at: float = 0.0  # when that seat was given priority (monotonic seconds)
    idle_since: float = field(default_factory=time.time)
    started_at: float = field(default_factory=time.monotonic)  # (or restored at)
    rematch_asked: set[int | None] = field(default_factory=set)  # seats (None: owner) that asked

    @property
    def all_bots(self) -> bool:
        return all(s.kind == "bot" for s in self.row.seats)

    @property
    def version(self) -> int:
        return 0 if self.state is None else len(self.state.history)

    def seat_row(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)


def _window_open(state: State, seat: int) -> bool:
    """A timed reaction window is open (the engine hook `window_seats`; every seat sees the
    same window, so this does not depend on `seat`'s hand)."""
    return bool(state.window_seats())


def _window_id(state: State) -> Any:
    """Which reaction window is open (None: none), from public facts only."""
    if state.over:
        return None
    view = state.view(None)
    window = view.get("window")
    if not window:
        return None
    return (window.get("kind"), view.get("turn_seat"), view.get("game_no"))


def _has_pass(state: State, seat: int) -> bool:
    return any(a.kind == "pass" for a in state.actions(seat))


class Hub:
    """Every live table of one server, the store and the worker pools."""

    def __init__(
        self,
        store: Store,
        pool: WorkerPool,
        db_pool: Executor,
        *,
        idle_timeout: float = 1800.0,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        self.db_pool = db_pool
        self.idle_timeout = idle_timeout
        self.limits = limits or Limits()
        # Database work runs in the database thread: a stalled disk must not freeze the
        # event loop (GAMENIGHT_INLINE_DB=1 runs SQLite calls inline, for measurements).
        self.inline_db = (
            os.environ.get("GAMENIGHT_INLINE_DB", "0") == "1"
            and store.engine.dialect.name == "sqlite"
        )
        self.live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # Seconds from taking an accepted action to having sent its broadcast (metrics).
        self.timings: collections.deque[float] = collections.deque(maxlen=100_000)

    # -- storage, off the event loop ---------------------------------------------------
    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a store call in the database thread (inline only when asked for)."""
        if self.inline_db:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # -- loading and restoring ------------------------------------------------------------
    async def restore(self) -> int:
        """Replay every running table from the database (after a restart)."""
        rows = await self.db(self.store.tables_with_status, "running")
        for row in rows:
            try:
                await self.get(row.id)
            except Exception:  # one broken table must not stop the server
                log.exception("could not restore table %s", row.id)
        return len(rows)

    async def get(self, table_id: str) -> LiveTable:
        table = self.live.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.live.get(table_id)
            if table is not None:
                return table
            row = await self.db(self.store.table, table_id)
            if row is None:
                raise Refused(f"no table {table_id!r}", 404)
            game = load(row.game, **row.options)
            table = LiveTable(row, game)
            if row.status in ("running", "finished", "abandoned") and row.version >= 0:
                history = await self.db(self.store.history, table_id)
                if history or row.status != "abandoned":
                    steps = [(seat, game.action_from_json(a)) for seat, a in history]
                    if game_spec(row.game).heavy:
                        table.state = await self.pool.run(game.replay, row.seed, steps)
                    else:
                        table.state = game.replay(row.seed, steps)
            self.live[table_id] = table
            if row.status == "running":
                await self._plan(table)
                seats.watch_all(self, table)
            return table

    # -- the lobby ----------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seat_specs: list[str],
        settings: dict[str, Any],
        *,
        seed: int | None = None,
        rematch_of: str | None = None,
        owner_hash: str | None = None,
    ) -> tuple[LiveTable, str]:
        """A new open table; returns it and the owner's secret token ("" when the owner of
        an earlier table of the series, `owner_hash`, owns it)."""
        game = load(game_name, **options)  # BadInput names a bad option
        if len(seat_specs) != game.players:
            raise BadInput(
                f"{game_name} with these options has {game.players} seats; "
                f"{len(seat_specs)} seat settings were given"
            )
        from gamenight.bots import LEVELS

        seats = []
        for i, spec in enumerate(seat_specs):
            spec = str(spec).strip()
            if spec in ("open", "", "person"):
                seats.append(SeatRow(i, "open"))
                continue
            text = spec if spec.startswith("bot") else f"bot:{spec}"
            level = text.removeprefix("bot:")
            if level not in LEVELS and text != "bot":
                from gamenight.bots import make_seat

                make_seat(text, game, 0, bounded=True)  # BadInput: a bad bot or parameter
            seats.append(SeatRow(i, "bot", name=f"Bot {i + 1} ({level})", bot=text))
        owner = secrets.token_urlsafe(24)
        now = time.time()
        row = TableRow(
            id=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
            game=game_name,
            options=dict(options),
            seed=seed if seed is not None else secrets.randbelow(2**53),
            status="open",
            settings=settings,
            owner_hash=owner_hash or token_hash(owner),
            version=0,
            created=now,
            updated=now,
            rematch_of=rematch_of,
            seats=seats,
        )
        await self.db(self.store.create_table, row)
        table = LiveTable(row, game)
        self.live[row.id] = table
        return table, "" if owner_hash else owner

    async def join(self, table: LiveTable, seat: int, name: str, token: str | None) -> str:
        """Sit a person at an open seat; returns the seat's secret token."""
        name = " ".join(name.split())[:40]
        if not name:
            raise Refused("a display name is needed to take a seat", 400)
        async with table.lock:
            if not 0 <= seat < len(table.row.seats):
                raise Refused(f"seat {seat} does not exist; seats 0..{len(table.row.seats) - 1}")
            if table.row.status != "open":
                raise Refused(f"the table is {table.row.status}; seats can be taken only before")
            s = table.seat_row(seat)
            if s.kind != "open":
                raise Refused(f"seat {seat} is taken ({s.name})")
            if token and any(x.token_hash == token_hash(token) for x in table.row.seats):
                raise Refused("you already have a seat at this table")
            token = secrets.token_urlsafe(24)
            new = SeatRow(seat, "person", name, None, token_hash(token), False)
            await self.db(self.store.update_seat, table.row.id, new)
            table.row.seats[seat] = new
        await self.broadcast(table)
        return token

    async def start(self, table: LiveTable) -> None:
        async with table.lock:
            if table.row.status != "open":
                raise Refused(f"the table is already {table.row.status}")
            empty = [s.seat for s in table.row.seats if s.kind == "open"]
            if empty:
                raise Refused(f"seat(s) {empty} are still open: fill them with people or bots")
            waiting = series.start_refusal(table)
            if waiting:
                raise Refused(waiting)
            if table.all_bots:
                running = sum(
                    1 for t in self.live.values() if t.all_bots and t.row.status == "running"
                )
                if running >= self.limits.bot_tables:
                    raise Refused(
                        f"this server runs at most {self.limits.bot_tables} tables of only "
                        "bots at once; try again when one has finished",
                        429,
                    )
            table.started_at = time.monotonic()
            table.state = table.game.start(table.row.seed)
            await self.db(self.store.set_status, table.row.id, "running")
            table.row.status = "running"
        await self.broadcast(table)
        await self._plan(table)

    async def rematch(self, old: LiveTable, asker: int | None) -> tuple[LiveTable, str | None]:
        """`asker` (a seat; None: the owner) accepts the rematch of a finished table: the next
        table of its series (see series.py) and the asker's seat token there, if any."""
        return await series.rematch(self, old, asker)

    async def set_seat(self, table: LiveTable, seat: int, to: str) -> None:
        """The owner's change of a seat (see seats.arrange), then the table plans and shows it."""
        async with table.lock:
            await seats.arrange(self, table, seat, to)
        await self._plan(table, broadcast=True)

    async def take_back(self, table: LiveTable, seat: int) -> None:
        """The person of `seat` is back: the bot sitting in for them leaves."""
        async with table.lock:
            changed = await seats.take_back(self, table, seat)
        if changed:
            await self._plan(table, broadcast=True)

    def seat_of(self, table: LiveTable, token: str | None) -> int | None:
        """The seat whose secret `token` is, or None."""
        if not token:
            return None
        h = token_hash(token)
        for s in table.row.seats:
            if (
                s.kind == "person"
                and s.token_hash is not None
                and secrets.compare_digest(s.token_hash, h)
            ):
                return s.seat
        return None

    async def set_auto_pass(self, table: LiveTable, seat: int, on: bool) -> None:
        async with table.lock:
            if table.row.status != "running":
                raise Refused(f"the table is {table.row.status}; nothing can be changed")
            s = table.seat_row(seat)
            new = SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash, bool(on))
            await self.db(self.store.update_seat, table.row.id, new)
            table.row.seats[seat] = new
        await self._plan(table)

    async def set_pass_ahead(self, table: LiveTable, seat: int, on: bool) -> None:
        """A pass in advance for the current window; cancelled by any new black card."""
        state = table.state
        if state is None or state.over:
            raise Refused("the game is not running")
        if on and not _window_open(state, seat):
            raise Refused("no reaction window is open; a pass in advance is for a window")
        engine_level = (
            on
            and seat in state.actors
            and seat != state.actors[0]
            and any(a.kind == "pass" for a in state.actions(seat))
        )
        if engine_level:  # the rules record a pass in advance themselves
            await self.act(table, seat, len(state.history), {"type": "pass"})
            table.pass_ahead.add(seat)
            return
        if not on and seat in table.pass_ahead and seat not in state.actors:
            raise Refused("your pass in advance is on the table and cannot be taken back")
        if on:
            table.pass_ahead.add(seat)
        else:
            table.pass_ahead.discard(seat)
        await self._plan(table)

    # -- actions ------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, version: Any, obj: Any) -> None:
        """Accept `seat`'s action made against `version`, or raise Refused (nothing changes)."""
        start = time.perf_counter()
        await self._act(table, seat, version, obj)
        self.timings.append(time.perf_counter() - start)

    async def _act(self, table: LiveTable, seat: int, version: Any, obj: Any) -> None:
        if (
            isinstance(obj, dict)
            and obj.get("type") == "pass"
            and table.asked_key
            == (
                version,
                seat,
            )
        ):
            # A17: every pass of the seat holding priority in a window takes at least
            # `pass_dwell` seconds, whoever made it (the person, the server for a person with
            # nothing to play or "always pass", a bot, the timer): how fast a window moves
            # on does not tell who could have answered.
            dwell = float(table.row.settings.get("pass_dwell", PASS_DWELL) or 0)
            wait = table.asked_at + dwell - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        async with table.lock:
            await self._act_locked(table, seat, version, obj)
        await self._after(table)

    async def _act_locked(self, table: LiveTable, seat: int, version: Any, obj: Any) -> None:
        state = table.state
        if state is None:
            raise Refused("the game has not started yet")
        if state.over:
            raise Refused("the game is over")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refused("an action needs the integer 'version' of the state it was made on")
        if version != len(state.history):
            raise Refused(
                f"stale action: made on version {version}, the table is at version "
                f"{len(state.history)}; look at the new state and try again"
            )
        try:
            action = table.game.action_from_json(obj)
        except BadInput as err:
            raise Refused(str(err)) from err
        if seat not in state.actors:
            raise Refused(f"it is not your decision now (seat {seat}); waiting for another seat")
        if game_spec(table.game.name).heavy:  # physics: in the worker pool
            reason = state._refusal(seat, action)
            if reason is not None:
                raise Refused(reason)
            try:
                new = await self.pool.run(workers.apply, state.copy(), seat, action)
            except IllegalAction as err:
                raise Refused(err.reason) from err
        else:
            new = state.copy()
            try:
                new.act(seat, action)
            except IllegalAction as err:
                raise Refused(err.reason) from err
        n = len(state.history)
        status = "finished" if new.over else "running"
        try:
            await self.db(self.store.append_action, table.row.id, n, seat, action.to_json(), status)
        except Exception as err:
            log.exception("storing an action of table %s failed", table.row.id)
            raise Refused("the action could not be stored; nothing changed, try again") from err
        table.state = new
        table.row.status = status
        table.row.version = n + 1
        table.row.updated = time.time()  # a table in play (bots too) is not idle
        if table.pass_ahead and (action.kind != "pass" or _window_id(new) != _window_id(state)):
            # any new black card (or the window closing) cancels every pass in advance
            table.pass_ahead.clear()
        table.deadline = None
        table.deadline_seat = None

    async def _after(self, table: LiveTable) -> None:
        await self._plan(table, broadcast=True)

    # -- what happens without a person ----------------------------------------------------
    async def _plan(self, table: LiveTable, broadcast: bool = False) -> None:
        """Schedule the next server-side move (bot, automatic pass, timer)."""
        state = table.state
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
            table.timer = None
        if state is None or state.over or table.row.status != "running":
            table.deadline = table.deadline_seat = None
            if broadcast:
                await self.broadcast(table)
            return
        seat = state.actors[0]
        version = len(state.history)
        row = table.seat_row(seat)
        auto = False
        window = _window_open(state, seat)
        if window and table.asked_key != (version, seat):
            table.asked_key = (version, seat)
            table.asked_at = time.monotonic()
        if self._bot_table_spent(table):
            await self._stop_bot_table(table)
            return
        person = not seats.plays_bot(row)
        in_window = person and window and _has_pass(state, seat)
        clocked = seat if person and not in_window else None
        clock = await timers.on_plan(self, table, clocked, version)  # turn clocks (item 1)
        if in_window:
            # A17: a person who touches nothing passes when the whole countdown has run
            # out, whether or not they hold a card that could answer: the moment of their
            # pass tells nobody what they hold. Only their own choice ("always pass", a
            # pass in advance) passes earlier.
            seconds = float(table.row.settings.get("reaction_seconds") or REACTION_SECONDS)
            if table.deadline_seat != seat:
                table.deadline = time.time() + seconds
                table.deadline_seat = seat
            auto = row.auto_pass or seat in table.pass_ahead
            if not auto and table.row.settings.get("shared_screen") and not table.connected(seat):
                # one shared screen: the countdown waits while the device changes hands
                table.deadline = table.deadline_seat = None
            elif not auto:
                table.timer = asyncio.create_task(self._timeout(table, seat, version))
        elif person:
            table.deadline = table.deadline_seat = None
            seconds = float(table.row.settings.get("turn_seconds") or 0)
            if clock is not None:
                table.deadline = clock
                table.deadline_seat = seat
                table.timer = asyncio.create_task(self._clock_out(table, seat, version))
            elif seconds > 0:
                table.deadline = time.time() + seconds
                table.deadline_seat = seat
                table.timer = asyncio.create_task(self._timeout(table, seat, version))
        else:
            table.deadline = table.deadline_seat = None
        if broadcast:
            await self.broadcast(table)
        if not person and table.bot_version != version:
            table.bot_version = version  # one bot task per version, however often we plan
            table.bot_task = asyncio.create_task(self._bot(table, seat, version))
        elif auto:
            task = asyncio.create_task(self._server_pass(table, seat, version))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _server_pass(self, table: LiveTable, seat: int, version: int) -> None:
        with contextlib.suppress(Refused):
            await self.act(table, seat, version, {"type": "pass"})

    async def _timeout(self, table: LiveTable, seat: int, version: int) -> None:
        """The reaction timer ran out: pass for the seat (or its first legal move)."""
        deadline = table.deadline or time.time()
        await asyncio.sleep(max(0.0, deadline - time.time()))
        state = table.state
        if state is None or len(state.history) != version or state.over:
            return
        table.timer = None
        legal = state.actions(seat)
        choice = next((a for a in legal if a.kind == "pass"), None)
        if choice is None:
            return  # outside a window a person's turn is not taken away
        with contextlib.suppress(Refused):
            await self.act(table, seat, version, choice.to_json())

    async def _clock_out(self, table: LiveTable, seat: int, version: int) -> None:
        """The person's time bank ran out: the seat's bot makes this one decision."""
        deadline = table.deadline or time.time()
        await asyncio.sleep(max(0.0, deadline - time.time()))
        state = table.state
        if state is None or len(state.history) != version or state.over:
            return
        table.timer = None
        row = table.seat_row(seat)
        seed = (table.row.seed * 1_000_003 + version * 101 + seat) % 2**62
        obj = await self._bot_move(table, state, seat, row.bot or seats.STAND_IN, seed)
        if table.state is not state:
            return  # the person moved while the bot thought
        line = timers.ran_out(table, seat, row.name or f"seat {seat + 1}")
        with contextlib.suppress(Exception):
            await self.db(self.store.set_settings, table.row.id, dict(table.row.settings))
        await self.notify(table, {"type": "note", "text": line})
        with contextlib.suppress(Refused):
            await self.act(table, seat, version, obj)

    async def _bot(self, table: LiveTable, seat: int, version: int) -> None:
        state = table.state
        if state is None or state.over or len(state.history) != version:
            return
        text = table.seat_row(seat).bot or "bot"
        seed = (table.row.seed * 1_000_003 + version * 101 + seat) % 2**62
        window = _window_open(state, seat)
        asked_at = time.monotonic()
        delay = float(table.row.settings.get("bot_delay") or 0)
        try:
            obj = await self._bot_move(table, state, seat, text, seed)
            if window:
                # A17: in a reaction window every answer of a bot, a pass or a card, comes
                # at the same moment after it was asked (its thinking padded to a fixed
                # minimum), so its pace does not tell whether it could play.
                pad = max(delay, float(table.row.settings.get("pass_dwell", PASS_DWELL) or 0))
                await asyncio.sleep(max(0.0, asked_at + pad - time.monotonic()))
            elif obj.get("type") != "pass":
                await asyncio.sleep(delay)  # a pause so people can follow
            await self.act(table, seat, version, obj)
        except Refused as err:
            log.warning("bot at table %s seat %s was refused: %s", table.row.id, seat, err)
        except Exception:
            log.exception("bot at table %s seat %s failed", table.row.id, seat)
        cur = table.state
        if cur is not None and not cur.over and len(cur.history) == version:
            await asyncio.sleep(0.5)  # the bot failed: retry later rather than stall
            if table.bot_version == version:
                table.bot_version = -1
            await self._plan(table)

    async def _bot_move(
        self, table: LiveTable, state: State, seat: int, text: str, seed: int
    ) -> dict[str, Any]:
        """The bot's move within the server's wall-clock budget; past it a seeded random
        legal move (the worker cuts its own search at the budget too)."""
        budget = self.limits.move_seconds
        try:
            obj: dict[str, Any] = await asyncio.wait_for(
                self.pool.run(workers.bot_choose, state, seat, text, seed, budget),
                budget + min(2.0, budget),  # the worker's own cut, then ours
            )
            return obj
        except TimeoutError:
            log.warning(
                "bot at table %s seat %s ran past %.0f s: a random move instead",
                table.row.id,
                seat,
                budget,
            )
            return random.Random(seed).choice(state.actions(seat)).to_json()

    def _bot_table_spent(self, table: LiveTable) -> bool:
        """An all-bot table past its cap of moves or running time."""
        if not table.all_bots or table.state is None:
            return False
        return (
            len(table.state.history) >= self.limits.bot_table_moves
            or time.monotonic() - table.started_at > self.limits.bot_table_seconds
        )

    async def _stop_bot_table(self, table: LiveTable) -> None:
        async with table.lock:
            if table.row.status != "running":
                return
            await self.db(self.store.set_status, table.row.id, "abandoned")
            table.row.status = "abandoned"
        log.warning("table %s of only bots reached its cap of moves or time", table.row.id)
        reason = "a table of only bots is stopped after its cap of moves or time"
        await self.notify(table, {"type": "closed", "reason": reason})
        await self.broadcast(table)

    # -- messages -----------------------------------------------------------------------
    def public_table(self, table: LiveTable) -> dict[str, Any]:
        row = table.row
        return {
            "id": row.id,
            "game": row.game,
            "options": row.options,
            "status": row.status,
            "settings": row.settings,
            "players": table.game.players,
            "rematch_of": row.rematch_of,
            "spectators": seats.spectators(table.conns),
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "connected": s.kind == "bot" or table.connected(s.seat),
                    "stand_in": seats.stand_in(s),  # "bot playing for Bob"
                }
                for s in row.seats
            ],
        }

    def message(self, table: LiveTable, conn: Conn, views: dict[int | None, Any]) -> dict[str, Any]:
        state = table.state
        seat = conn.seat
        msg: dict[str, Any] = {
            "type": "state",
            "version": table.version,
            "seat": seat,
            "table": self.public_table(table),
            "deadline": table.deadline,
            "deadline_seat": table.deadline_seat,
            "now": time.time(),
        }
        if state is None:
            return msg
        if seat not in views:
            views[seat] = state.view(seat)
        msg["view"] = views[seat]
        log = state.log  # the events since the last message, without re-filtering all
        if conn.log_pos < 0 or conn.log_pos > len(log):
            events = state.events(seat)
            start = max(0, len(events) - EVENTS_ON_CONNECT)
            fresh = events[start:]
            conn.events_sent = len(events)
        else:
            fresh = [e for e in log[conn.log_pos :] if e.visible_to(seat)]
            start = conn.events_sent
            conn.events_sent += len(fresh)
        conn.log_pos = len(log)
        msg["events"] = [e.to_json() for e in fresh]
        msg["events_from"] = start
        if seat is not None:
            legal = state.actions(seat) if seat in state.actors else []
            msg["actions"] = (
                [a.to_json() for a in legal] if len(legal) <= MAX_ACTIONS_SENT else None
            )
            msg["asked"] = seat in state.actors and seat == state.actors[0]
            row = table.seat_row(seat)
            msg["you"] = {"auto_pass": row.auto_pass, "pass_ahead": seat in table.pass_ahead}
        if state.over:
            msg["outcome"] = state.outcome().to_json()
        return msg

    async def send_to(self, table: LiveTable, conn: Conn) -> None:
        await self._send(conn, self.message(table, conn, {}))

    async def broadcast(self, table: LiveTable) -> None:
        views: dict[int | None, Any] = {}
        msgs = [(c, self.message(table, c, views)) for c in list(table.conns)]
        await asyncio.gather(*(self._send(c, m) for c, m in msgs))

    async def _send(self, conn: Conn, msg: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await conn.send(msg)

    async def notify(self, table: LiveTable, msg: dict[str, Any]) -> None:
        await asyncio.gather(*(self._send(c, msg) for c in list(table.conns)))

    # -- connections and time-outs --------------------------------------------------------
    async def attach(self, table: LiveTable, conn: Conn) -> None:
        table.conns.add(conn)
        table.idle_since = time.time()
        if conn.seat is not None and seats.stand_in(table.seat_row(conn.seat)):
            with contextlib.suppress(Refused):
                await self.take_back(table, conn.seat)  # back: the bot leaves the seat
        await self.broadcast(table)

    async def detach(self, table: LiveTable, conn: Conn) -> None:
        table.conns.discard(conn)
        if not any(c.seat is not None for c in table.conns):
            table.idle_since = time.time()
        if conn.seat is not None and not table.connected(conn.seat):
            seats.watch_leaver(self, table, conn.seat)
        await self.broadcast(table)

    async def sweep(self) -> list[str]:
        """Abandon tables nobody has been at for `idle_timeout` seconds; forget old ones."""
        now = time.time()
        gone = []
        for table in list(self.live.values()):
            people = any(c.seat is not None for c in table.conns)
            status = table.row.status
            idle = now - max(table.idle_since, table.row.updated) > self.idle_timeout
            if status in ("open", "running") and not people and idle:
                async with table.lock:
                    await self.db(self.store.set_status, table.row.id, "abandoned")
                    table.row.status = "abandoned"
                if table.timer:
                    table.timer.cancel()
                await self.notify(table, {"type": "closed", "reason": "the table timed out"})
                await self.broadcast(table)
                gone.append(table.row.id)
            if table.row.status in ("finished", "abandoned") and not table.conns:
                self.live.pop(table.row.id, None)
        # Tables left open before a restart are in the database only.
        stale = await self.db(self.store.stale_open, now - self.idle_timeout)
        stale = [t for t in stale if t not in self.live]
        if stale:
            await self.db(self.store.abandon, stale)
            gone.extend(stale)
        return gone

    async def run_sweeper(self, every: float) -> None:
        last_checkpoint = time.monotonic()
        while True:
            await asyncio.sleep(min(every, CHECKPOINT_EVERY))
            try:
                if time.monotonic() - last_checkpoint >= CHECKPOINT_EVERY:
                    last_checkpoint = time.monotonic()
                    await asyncio.get_running_loop().run_in_executor(
                        self.db_pool, self.store.checkpoint
                    )
                self.pool.heal()
                await self.sweep()
            except Exception:
                log.exception("sweeping tables failed")

    async def close(self) -> None:
        for table in self.live.values():
            for task in (table.timer, table.bot_task):
                if task is not None:
                    task.cancel()
        if self.sweeper is not None:
            self.sweeper.cancel()
