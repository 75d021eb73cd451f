"""A round's moment (issue 13, item 5): the table pauses so people see a round end.

After an event that ends a round (its kind is in the game's `GameSpec.moments`: Drop or
Stop's reveal, Arne's scoring), the scheduler holds the next automatic step (a bot move,
a timer's start, an automatic pass) until every person with a page open at the table has
sent {"type": "seen", "version": V} with V at least the moment's version, or the table's
`moment_seconds` (default 4) pass. While the hold lasts every table message carries
"moment": {"version": V, "seconds": S}. A table where no person has a page open (only
bots, or practice with nobody watching) never waits; a person who leaves stops blocking.
People may still act themselves during the hold: only the server's own steps wait.

With several server processes the table's owner holds the moment; the other processes
show it (the owner's announcement carries it) and tell the owner what their people's pages
have shown (their presence messages), kept in `LiveTable.elsewhere`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from gamenight.engine.registry import spec
from gamenight.server.live_table import Moment

if TYPE_CHECKING:
    from gamenight.engine.core import Event
    from gamenight.server.live_table import Conn, LiveTable

MOMENT_SECONDS = 4.0  # the hold's longest wait (table setting moment_seconds)


def seconds(table: LiveTable) -> float:
    value = table.row.settings.get("moment_seconds", MOMENT_SECONDS)
    return float(value if value is not None else MOMENT_SECONDS)


def watchers(table: LiveTable) -> list[Conn]:
    """The pages a moment waits for: every person's at the table (not spectators')."""
    return [c for c in table.conns if c.seat is not None and not c.dropped]


def seen_elsewhere(table: LiveTable) -> list[int]:
    """What the people's pages on other server processes have shown (one version per seat
    and process): a moment waits for them as for the pages here."""
    return [v for seats in table.elsewhere.values() for v in seats.values()]


def ends_round(game: str, events: Iterable[Event]) -> bool:
    kinds = spec(game).moments
    return bool(kinds) and any(e.kind in kinds for e in events)


def begin(table: LiveTable, fresh: Sequence[Event]) -> None:
    """After an accepted action that made the events `fresh`: a new moment, if one of them
    ends a round and somebody is there to see it (else any moment in progress stays)."""
    if not ends_round(table.row.game, fresh):
        return
    wait = seconds(table)
    if wait <= 0 or not (watchers(table) or seen_elsewhere(table)):
        return
    end(table)
    table.moment = Moment(table.version, wait, time.monotonic() + wait)


def holding(table: LiveTable) -> bool:
    """The moment still holds the automatic steps (not all its watchers have seen it, and
    its time has not run out)."""
    moment = table.moment
    if moment is None:
        return False
    if time.monotonic() >= moment.until:
        return False
    return any(c.seen < moment.version for c in watchers(table)) or any(
        v < moment.version for v in seen_elsewhere(table)
    )


def end(table: LiveTable) -> None:
    moment, table.moment = table.moment, None
    timer = moment.timer if moment is not None else None
    if timer is not None and timer is not asyncio.current_task():
        timer.cancel()


def to_json(table: LiveTable) -> dict[str, Any] | None:
    """The message's "moment" while the hold is active, else None."""
    return table.moment.to_json() if table.moment is not None else None


def announced(table: LiveTable) -> list[float] | None:
    """The moment as the owner announces it to the other processes: [version, seconds,
    seconds left] (None: no moment)."""
    moment = table.moment
    if moment is None:
        return None
    return [moment.version, moment.seconds, max(0.0, moment.until - time.monotonic())]


def mirror(table: LiveTable, data: Any) -> None:
    """On a process that follows the table: show the owner's moment (`announced`), or none."""
    try:
        version, wait, left = (float(x) for x in data)
    except (TypeError, ValueError):  # none announced (or not in the form announced)
        end(table)
        return
    if table.moment is None or table.moment.version != int(version):
        end(table)
        table.moment = Moment(int(version), wait, time.monotonic() + left)
