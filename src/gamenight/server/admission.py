"""Admission control: past its capacity the server refuses new tables and new watchers'
sockets, so the tables already playing keep their pace.

Capacity is measured, not guessed: the event loop's lag. Every 100 ms a callback asks to
run 100 ms later and notes how late it ran; that lateness is what every action waits
before the loop gets to it. Past capacity it grows with each table added, whatever the
machine, the games or the bots; a count of tables would need a figure per machine and per
mix of games. The server is full while the 90th percentile of the lag over the last 3 s is
above GAMENIGHT_MAX_LAG_MS (default 25: with an action's own few ms, a p99 under 50 ms).
One collection or one slow query does not close the door; a steady overload does. And
only a loop that is late because it has work: its thread ran or waited for a core at least
half of those seconds (Linux's /proc/thread-self/schedstat; elsewhere its CPU time). On a
shared machine an idle server's loop is late too, waking to find the cores taken by
neighbours, but it sleeps most of the time; refusing tables there would help nobody. (CPU
time alone would not do: an overloaded server among busy neighbours gets a small share.) An
operator who knows the machine's figure can also cap the live tables with
GAMENIGHT_MAX_TABLES (open or running tables loaded in this process; default: no cap).

Refused while full: creating a table (503, one line) and opening a table's socket without
a seat at it (code 1013 "try again later", with the reason). A socket carrying a seat's
cookie is let in: that person's table is live already (a reconnect, or the players of a
table admitted a moment ago), and keeping live tables going is the point.
"""

from __future__ import annotations

import asyncio
import collections
import os
import time
import weakref
from typing import Any

from gamenight.i18n import N_
from gamenight.server.live_table import Refused

FULL = N_("the server is full right now; try again in a few minutes")
EVERY = 0.1  # seconds between lag samples
WINDOW = 3.0  # seconds of samples the decision looks at
BUSY = 0.5  # of the window the loop ran or waited to run: below it, the lag is not its own
TRY_AGAIN_LATER = 1013  # the WebSocket close code (RFC 6455 registry)


def _setting(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _demand() -> float:
    """Seconds the calling thread (the loop's) ran or waited for a core, since it began."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            ran, waited = stat.read().split()[:2]
        return (int(ran) + int(waited)) / 1e9
    except (OSError, ValueError):
        return time.thread_time()


class Admission:
    """One app's door: the loop lag samples and the table cap."""

    def __init__(self, hub: Any) -> None:
        self.hub = weakref.ref(hub)
        self.max_lag = _setting("GAMENIGHT_MAX_LAG_MS", 25.0) / 1000
        self.max_tables = int(_setting("GAMENIGHT_MAX_TABLES", 0))
        # (when, lag, the loop thread's seconds running or runnable then)
        self.lags: collections.deque[tuple[float, float, float]] = collections.deque()
        self.refused = collections.Counter[str]()
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0

    def start(self) -> None:
        """Start sampling the loop's lag (in the running loop; idempotent)."""
        if self._handle is None:
            self._schedule()

    def _schedule(self) -> None:
        loop = asyncio.get_running_loop()
        self._due = loop.time() + EVERY
        self._handle = loop.call_at(self._due, self._sample)

    def _sample(self) -> None:
        if self.hub() is None:  # the app is gone
            return
        now = asyncio.get_running_loop().time()
        self.lags.append((now, max(0.0, now - self._due), _demand()))
        while self.lags[0][0] < now - WINDOW:
            self.lags.popleft()
        self._schedule()

    def lag(self) -> float:
        """The 90th percentile of the loop's lag over the last WINDOW seconds."""
        if not self.lags:
            return 0.0
        ordered = sorted(lag for _when, lag, _cpu in self.lags)
        return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]

    def busy(self) -> float:
        """The part of the window the loop had work (0 until the window spans a second)."""
        if not self.lags or self.lags[-1][0] - self.lags[0][0] < 1.0:
            return 0.0
        (t0, _lag0, cpu0), (t1, _lag1, cpu1) = self.lags[0], self.lags[-1]
        return (cpu1 - cpu0) / (t1 - t0)

    def full(self) -> str | None:
        """Why the server takes no new work now, or None."""
        self.start()
        hub = self.hub()
        if self.max_tables and hub is not None:
            live = sum(t.row.status in ("open", "running") for t in hub.live.values())
            if live >= self.max_tables:
                return f"{live} live tables (GAMENIGHT_MAX_TABLES={self.max_tables})"
        lag = self.lag()
        if self.busy() >= BUSY and lag > self.max_lag:
            return f"event loop lag {1000 * lag:.0f} ms (over {1000 * self.max_lag:.0f} ms)"
        return None

    def snapshot(self) -> dict[str, Any]:
        return {
            "lag_ms": round(1000 * self.lag(), 1),
            "busy": round(self.busy(), 2),
            "max_lag_ms": 1000 * self.max_lag,
            "max_tables": self.max_tables or None,
            "full": self.full(),
            "refused_tables": self.refused["tables"],
            "refused_sockets": self.refused["sockets"],
        }


_DOORS: weakref.WeakKeyDictionary[Any, Admission] = weakref.WeakKeyDictionary()


def of(hub: Any) -> Admission:
    door = _DOORS.get(hub)
    if door is None:
        door = _DOORS[hub] = Admission(hub)
    return door


def new_table(hub: Any) -> None:
    """Refused (503) if the server is full (routes/lobby.py create_table)."""
    door = of(hub)
    if door.full() is not None:
        door.refused["tables"] += 1
        raise Refused(FULL, 503)


async def refuse_socket(hub: Any, websocket: Any, seat_cookie: str) -> bool:
    """Close a new table socket with 1013 if the server is full and the page has no seat
    cookie (named `seat_cookie`) for the table; True if it was closed (routes/live.py).
    Accepted first: a socket closed before the handshake reaches the page as a bare HTTP
    403, without the reason."""
    door = of(hub)
    if websocket.cookies.get(seat_cookie) or door.full() is None:
        return False
    door.refused["sockets"] += 1
    await websocket.accept()
    await websocket.close(code=TRY_AGAIN_LATER, reason=FULL)
    return True
