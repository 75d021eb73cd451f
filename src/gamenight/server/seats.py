"""Seats that change hands (issue 14, item 2): a bot sitting in for a person who left, and
the owner arranging seats before the start.

A person's seat with a bot sitting in keeps kind "person" (and its secret token, so the
person can come back) and stores the stand-in bot in the seat's `bot` column: the table
survives a restart with the bot still playing, and no migration is needed. The game state
is never touched, so the person's hand is intact when they take the seat back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamenight.i18n import N_
from gamenight.server import rights, series
from gamenight.server.db import SeatRow
from gamenight.server.live_table import Refused, status_word
from gamenight.server.names import invisible
from gamenight.server.operations import SEAT

if TYPE_CHECKING:
    from gamenight.server.host import Host
    from gamenight.server.live_table import LiveTable

log = logging.getLogger("gamenight.server")

GRACE_SECONDS = 60.0  # disconnected this long, a bot plays for the person (table setting)
STAND_IN = "bot"  # the bot that sits in for a person (the server's default level)
LEVELS = ("easy", "medium", "hard")
# What the owner may ask for a seat: a bot of a level, an open seat, or (running) a bot
# playing for a person.
CHOICES = ("open", "bot", *LEVELS)


def plays_bot(s: SeatRow) -> bool:
    """The seat's moves are made by a bot (a bot seat, or a bot sitting in for a person)."""
    return s.kind == "bot" or (s.kind == "person" and bool(s.bot))


def stand_in(s: SeatRow) -> bool:
    return s.kind == "person" and bool(s.bot)


def grace_seconds(table: LiveTable) -> float:
    return float(table.row.settings.get("grace_seconds", GRACE_SECONDS) or 0)


def bot_text(to: str, status: str) -> str | None:
    """The bot a seat made `to` gets (None: no bot): before the start `bot` is the medium
    level; while running, the stand-in."""
    if to == "open":
        return None
    if status == "open":
        return f"bot:{'medium' if to == 'bot' else to}"
    return STAND_IN if to == "bot" else f"bot:{to}"


async def arrange(hub: Host, table: LiveTable, seat: int, to: str) -> None:
    """The owner's change of one seat (under the table's lock; raises Refused):
    before the start an open seat becomes a bot, a bot seat or a person's seat becomes open
    (the person is removed); while running a person's seat is handed to a bot."""

    if not 0 <= seat < len(table.row.seats):
        raise Refused(  # seats as the pages number them, from 1
            N_("seat {seat} does not exist; seats 1..{last}"),
            400,
            seat=seat + 1,
            last=len(table.row.seats),
        )
    if to not in CHOICES:
        raise Refused(
            N_("a seat can be made one of {choices}; not {to}"),
            400,
            choices=", ".join(CHOICES),
            to=repr(to),
        )
    s = table.seat_row(seat)
    status = table.row.status
    if status == "open":
        if to == "open":
            new = SeatRow(seat, "open")
        else:
            level = "medium" if to == "bot" else to
            new = SeatRow(seat, "bot", name=f"Bot {seat + 1} ({level})", bot=bot_text(to, status))
        removed = s.kind == "person" and new.kind != "person"
    elif status == "running":
        if to == "open":
            raise Refused(N_("while the game runs a seat cannot be opened; hand it to a bot"))
        if s.kind != "person":
            raise Refused(
                N_("seat {seat} is not a person's; a bot already plays it"), seat=seat + 1
            )
        if s.bot:
            return
        new = replace(s, bot=bot_text(to, status))
        removed = False
    else:
        raise Refused(
            N_("the table is {state}; its seats cannot change"), state=status_word(status)
        )
    if new.kind == "open" and rights.seed_is_private(table):
        await redraw_seed(hub, table)  # someone else may now join: nobody may know the deal
    await hub.db(hub.store.update_seat, table.row.id, new)
    table.row.seats[seat] = new
    table.bot_version = -1  # a bot may have to move at this very version
    if status == "open":
        await series.forget(hub, table, seat)  # a rematch seat no longer waits for its person
    if removed:  # the removed person's pages (and a shared screen's) watch from now on
        rights.refresh(table)


async def redraw_seed(hub: Host, table: LiveTable) -> None:
    """A seed chosen by the table's creator holds only while nobody else can ever sit
    there (issue 43, item 2): when a seat of such a table opens, the server draws a new
    one from `secrets`. A practice table (chosen seed, shown to everyone) keeps its seed."""
    settings = table.row.settings
    if table.row.status != "open":
        return
    seed = secrets.randbelow(2**53)
    fresh = {**settings, "seed_redrawn": True}  # (still never rated: seed_chosen)
    await hub.db(hub.store.set_seed, table.row.id, seed, fresh)
    table.row.seed = seed
    table.row.settings = fresh
    log.info("table %s: a seat opened, so its chosen seed was replaced", table.row.id)


async def take_back(hub: Host, table: LiveTable, seat: int) -> bool:
    """The person is back: the bot sitting in leaves (under the lock). True if it did.
    Whatever the table's status: a game that ended while the bot played is theirs again."""
    s = table.seat_row(seat)
    if not stand_in(s):
        return False
    new = replace(s, bot=None)
    await hub.db(hub.store.update_seat, table.row.id, new)
    table.row.seats[seat] = new
    table.bot_version = -1
    return True


def watch_leaver(hub: Host, table: LiveTable, seat: int) -> None:
    """The seat's person has no page open: after the grace period a bot plays for them."""
    grace = grace_seconds(table)
    if grace <= 0 or table.row.status != "running":
        return
    s = table.seat_row(seat)
    if s.kind != "person" or s.bot:
        return
    table.bot_at[seat] = time.time() + grace  # said to the others: "a bot plays in N s"
    hub.spawn(_after_grace(hub, table, seat, grace))


def watch_all(hub: Host, table: LiveTable) -> None:
    """After a restart nobody is at the table yet: start every person's grace period."""
    for s in table.row.seats:
        if not table.connected(s.seat):
            watch_leaver(hub, table, s.seat)


async def _after_grace(hub: Host, table: LiveTable, seat: int, grace: float) -> None:
    await asyncio.sleep(grace)
    if table.bot_at.get(seat, 0.0) > time.time() + 0.5:
        return  # they came back and left again: the later wait decides
    seen = hub.public_table(table)["seats"][seat]  # a cluster counts every process's pages
    if table.row.status != "running" or seen["connected"]:
        return

    with contextlib.suppress(Refused):
        await hub.run(SEAT, table, seat, "bot")
        log.info("table %s: a bot plays for seat %s (gone %.0f s)", table.row.id, seat, grace)


MAX_SPECTATORS_LISTED = 30


def spectator_name(value: Any) -> str | None:
    """A spectator's name as shown (plain text, one line, at most 40 characters), or None.
    Control, zero-width and bidi characters are dropped: they hide or reorder what the
    players read (issue 43)."""
    if not isinstance(value, str):
        return None
    value = "".join(" " if ch.isspace() else ch for ch in value[:400])
    shown = "".join(ch for ch in value if not invisible(ch))
    name = " ".join(shown.split())[:40].rstrip()
    return name or None


def spectators(conns: Iterable[Any]) -> list[str]:
    """The names of the people watching (a page without a name is "a guest"; a shared
    screen's device is its players', not a watcher's)."""
    names = sorted(
        c.name or "a guest" for c in conns if c.seat is None and not c.holds and not c.dropped
    )
    return names[:MAX_SPECTATORS_LISTED]
