"""The data of a live table: its row, game state, connections and timers (`LiveTable`),
one connection with its own outgoing queue (`Conn`), a refusal, the server's limits."""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from gamenight.engine.core import Game, Reason, State
from gamenight.i18n import N_
from gamenight.i18n.refusals import said
from gamenight.server.db import SeatRow, TableRow

MAX_ACTIONS_SENT = 400  # the legal-action list is sent when it is at most this long
EVENTS_ON_CONNECT = 60
CHECKPOINT_EVERY = 2.0  # seconds between SQLite checkpoints, in the database thread
PASS_DWELL = 0.3  # seconds every pass in a window takes at least (table setting pass_dwell)
# A reaction window's clock (issue 45, item 4): everyone gets REACTION_SECONDS from the
# moment the window's first person is asked; "Wait!" gives the one who pressed it
# REACTION_HOLD_SECONDS from when they hold priority (table settings reaction_seconds,
# reaction_hold_seconds; their ranges: routes/lobby.SETTING_RANGES).
REACTION_SECONDS = 1.0
REACTION_HOLD_SECONDS = 8.0
OUTBOX = 256  # messages queued for one connection before it counts as too slow


def encode(msg: dict[str, Any]) -> str:
    """A message as compact JSON text. orjson: encoding was a tenth of the server's CPU at
    1,000 tables with the standard library's encoder; integer keys become strings, as
    there."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


# A round's moment holding the table's automatic steps (moments.py says when and how long).
@dataclass(eq=False)
class Moment:
    version: int  # the table version right after the event that ended the round
    seconds: float  # the longest wait
    until: float  # monotonic time the hold ends by itself
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "seconds": self.seconds}


@dataclass(frozen=True)
class Limits:
    """The work one server accepts: a bot move's wall-clock budget, and caps on tables
    where only bots play (nobody would notice one running for ever)."""

    move_seconds: float = 10.0  # one bot move, enforced by the server
    bot_tables: int = 4  # all-bot tables running at once
    bot_table_moves: int = 20_000  # moves of one all-bot table
    bot_table_seconds: float = 3600.0  # running time of one all-bot table


STATUS_WORDS = {  # a table's status as a word in a refusal (translated with it)
    "open": N_("open"),
    "running": N_("running"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}


def status_word(status: str) -> Reason:
    """A table's status as a word of a refusal, said in the reader's language."""
    return said(STATUS_WORDS.get(status, status))


class Refused(Exception):
    """An action or request that was not accepted; `reason` says why. Nothing changed.
    `status` is the HTTP status; `wait`, the seconds until a retry may pass (Retry-After).

    The reason stays English (logs, programs) and carries what a translation needs: a
    plain sentence becomes a `Reason` of the platform's catalogue (mark it `N_` so it is
    extracted), its `words` filled in (a name, a number: never translated); a game's
    Reason is kept as it is. Where it is answered, it is said in the reader's language
    (routes/common.refuse_cleanly for HTTP, the table socket's language for a WebSocket)."""

    def __init__(
        self, reason: str, status: int = 409, wait: float | None = None, **words: object
    ) -> None:
        if not isinstance(reason, Reason):
            reason = said(reason, **words)
        super().__init__(str(reason))
        self.reason = reason
        self.status = status
        self.wait = wait


@dataclass(eq=False)
class Conn:
    """One WebSocket: the seat it acts for (None: spectator) and its own queue of outgoing
    messages, sent in order by `drain` (from its writer task, or from its reader for the
    page's own answer: routes/live.py). Posting never waits on the socket, so one slow
    reader delays only itself; a reader `limit` messages behind is dropped (`on_overflow`:
    close it; it re-syncs on reconnect)."""

    seat: int | None
    limit: int = OUTBOX
    on_overflow: Callable[[Conn], None] | None = None
    events_sent: int = 0  # events of this seat's stream sent so far
    log_pos: int = -1  # position in the state's full event log sent up to (-1: none yet)
    dropped: bool = False  # fell too far behind: no longer sent anything
    name: str | None = None  # a spectator's name, as they gave it (issue 14: listed by name)
    seen: int = -1  # the newest table version this page says it has shown (moments.py)
    # the hash of the seat token it was opened with; `seat` is derived from it and the
    # seat rows at every message and broadcast (rights.derive): when the seat changes
    # hands (opened, renewed on another device) this page only watches
    token_hash: str | None = None
    # the hashes of the seat tokens a shared screen's cookie carries (shared.py), and the
    # seat its page says is looking now: both only claims, checked by rights.derive
    shared_hashes: frozenset[str] = frozenset()
    looking: int | None = None
    # the seats a shared screen's device holds now (derived from `shared_hashes` and the
    # seat rows by rights.derive): its people are at the table whoever it looks as, so
    # they are shown present and not as watchers
    holds: frozenset[int] = frozenset()
    address: str = ""  # the client's address (sockets per address are bounded)
    session: str | None = None  # its account session cookie (a watcher's name: live.py)
    lang: str = "en"  # the page's language: its refusals are said in it (language.py)
    # a deque and one future, not an asyncio.Queue: a Queue's three deques are 1 KB more
    # per open socket, and this is all a writer needs
    outbox: collections.deque[str] = field(init=False, repr=False)
    _wake: asyncio.Future[None] | None = field(default=None, init=False, repr=False)
    # one sender at a time (the writer task, or the page's own reader: `drain`), so the
    # queue goes out in order whoever sends it
    _sending: asyncio.Lock = field(default_factory=asyncio.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        self.outbox = collections.deque()

    def post(self, msg: dict[str, Any]) -> None:
        """Queue `msg` for this connection (in order), without waiting."""
        if self.dropped:
            return
        if len(self.outbox) >= self.limit:
            self.dropped = True
            if self.on_overflow is not None:
                self.on_overflow(self)
            return
        self.outbox.append(encode(msg))
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def send(self, msg: dict[str, Any]) -> None:
        self.post(msg)

    async def queued(self) -> None:
        """Until a message is queued (the writer task waits here)."""
        while not self.outbox:
            self._wake = asyncio.get_running_loop().create_future()
            await self._wake

    def sending(self) -> bool:
        return self._sending.locked()

    async def drain(self, send: Callable[[str], Awaitable[None]]) -> None:
        """Send everything queued, in order, with `send`; one sender at a time."""
        async with self._sending:
            while self.outbox:
                await send(self.outbox.popleft())


@dataclass(slots=True)
class WindowClock:
    """One reaction window's clock (A17 and issue 45, item 4). It starts when the window's
    first person is asked and closes `reaction_seconds` later for everyone: a person who has
    touched nothing passes then, or when asked after it (at once). "Wait!" (any person of
    the window, at any time, whatever they hold) gives the one who pressed it the full
    `reaction_hold_seconds` once they hold priority. All of it is public (the start, the
    close, who asked to wait), so when a person passes tells nobody what they hold."""

    key: Any  # the engine's window_key: a hold lasts as long as the window
    closes: float  # epoch seconds
    holds: set[int] = field(default_factory=set)  # seats that pressed "Wait!"


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
    window: WindowClock | None = None  # the open reaction window's clock, once a person is asked
    # seat -> the engine's turn_key while that seat passes in every window of the turn
    pass_turn: dict[int, Any] | None = None
    timer: asyncio.Task[None] | None = None
    bot_task: asyncio.Task[None] | None = None
    bot_version: int = -1  # the version the bot task was started for
    asked_key: tuple[int, int] | None = None  # (version, seat) holding priority in a window
    turn_key: tuple[int, int] | None = None  # (version, seat) whose turn timer runs
    asked_at: float = 0.0  # when that seat was given priority (monotonic seconds)
    moment: Moment | None = None  # a round's moment holding the automatic steps
    # people's pages on other server processes (cluster): process -> {seat: newest version
    # its pages say they have shown}; a moment waits for them too (moments.py)
    elsewhere: dict[str, dict[int, int]] = field(default_factory=dict)
    idle_since: float = field(default_factory=time.time)
    started_at: float = field(default_factory=time.monotonic)  # (or restored at)
    rematch_asked: set[int | None] = field(default_factory=set)  # seats (None: owner) that asked
    # seat -> when (epoch seconds) a bot takes over for its person, who has no page open
    bot_at: dict[int, float] = field(default_factory=dict)

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

    def present(self, seat: int) -> bool:
        """A page looks as `seat`, or a shared screen holding it is open (`connected`
        alone decides what waits for a person: a countdown, a bot taking over)."""
        return any(c.seat == seat or seat in c.holds for c in self.conns)
