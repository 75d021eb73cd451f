"""A rematch keeps the table together (issue 14, item 3), as on Board Game Arena.

The first "rematch" of a finished table makes the next table of the series: the same game,
options and settings, everyone seated again with the seats rotated by one (the second
player of the last game starts this one). A person's seat waits for them to accept
("pending"); each person who accepts gets the seat's secret token; when nobody is pending
the game starts by itself. A person who declines (or never answers) keeps blocking the
start until the owner makes their seat open or a bot (or starts with those who accepted
by doing so). The series (every game's scores by name, and who is pending or declined)
is kept in the new table's settings, so it survives a restart without a migration.
"""

from __future__ import annotations

import secrets
from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamenight.i18n import N_
from gamenight.server.db import RematchTaken, SeatRow, token_hash
from gamenight.server.live_table import Refused
from gamenight.server.operations import ACCEPT, DECLINE, START

if TYPE_CHECKING:
    from gamenight.server.host import Host
    from gamenight.server.live_table import LiveTable

# Table state kept in settings that a new game of the series starts without.
_PER_GAME = ("clock_banks", "clock_turn", "notes", "series")


def info(table: LiveTable) -> dict[str, Any]:
    return dict(table.row.settings.get("series") or {})


def pending(table: LiveTable) -> list[int]:
    return list(info(table).get("pending") or [])


def _result(old: LiveTable) -> dict[str, Any] | None:
    state = old.state
    if state is None or not state.over:
        return None
    outcome = state.outcome()
    names = [s.name or f"seat {s.seat + 1}" for s in old.row.seats]
    return {
        "id": old.row.id,
        "scores": {names[i]: float(x) for i, x in enumerate(outcome.scores)},
        "winners": [names[i] for i in outcome.winners],
    }


def standing(table: LiveTable) -> dict[str, Any] | None:
    """The series as every page shows it (None: the table is no rematch): every finished
    game, this one too once it is over, and the totals by name. Computed from the table's
    own state, so every process and every reload reads the same (issue 45, item 3: the
    panel stopped at the game before this one)."""
    kept = info(table)
    if not kept:
        return None
    games = list(kept.get("games") or [])
    result = _result(table)
    if result is not None:
        games.append(result)
    totals: dict[str, float] = {}
    wins: dict[str, int] = {}
    for game in games:
        for name, score in game["scores"].items():
            totals[name] = totals.get(name, 0.0) + score
            wins.setdefault(name, 0)  # "Bob 0 wins" is said too
        for name in game["winners"]:
            wins[name] = wins.get(name, 0) + 1
    return {"games": games, "totals": totals, "wins": wins, "now": len(kept.get("games") or []) + 1}


def new_seat(old: LiveTable, seat: int) -> int:
    """Where the person of the last game's `seat` sits now (seats rotate by one)."""
    return (seat - 1) % len(old.row.seats)


async def rematch(hub: Host, old: LiveTable, asker: int | None) -> tuple[LiveTable, str | None]:
    """`asker` (a seat of the finished table; None: the owner who does not play) accepts
    the rematch. Returns the next table and the asker's secret seat token (None: no seat)."""

    async with old.lock:
        if asker in old.rematch_asked:
            raise Refused(N_("you have already asked for a rematch of this table"))
        made = await hub.db(hub.store.rematch_of, old.row.id)
        table = await _make(hub, old) if made is None else None
        if table is None:  # made before, or just now by another process (RematchTaken)
            made = made or await hub.db(hub.store.rematch_of, old.row.id)
            if made is None:  # (never: a stored rematch_of is not unset)
                raise Refused(N_("the rematch could not be made; nothing changed, try again"))
            table = await hub.get(made)
        old.rematch_asked.add(asker)
    token = None
    if asker is not None and old.seat_row(asker).kind == "person":
        token = await hub.run(ACCEPT, table, new_seat(old, asker))
    full = all(s.kind != "open" for s in table.row.seats)
    if not pending(table) and table.row.status == "open" and full:
        with suppress(Refused):  # everyone accepted: the next game starts by itself
            await hub.run(START, table)
    return table, token


async def _make(hub: Host, old: LiveTable) -> LiveTable | None:
    """The next table of the series, its people and bots seated with it in one store; None
    if another process made it first (the old table's lock is this process's only)."""
    n = len(old.row.seats)
    rotated = [old.row.seats[(j + 1) % n] for j in range(n)]
    specs = [s.bot or "bot" if s.kind == "bot" else "open" for s in rotated]
    settings = {k: v for k, v in old.row.settings.items() if k not in _PER_GAME}
    games = (standing(old) or {}).get("games") or [r for r in [_result(old)] if r]
    waiting = [j for j, s in enumerate(rotated) if s.kind == "person"]
    settings["series"] = {"games": games, "pending": waiting, "declined": []}
    seated = {
        j: SeatRow(j, "bot", s.name, s.bot)
        if s.kind == "bot"
        else SeatRow(j, "person", s.name, None, None, False)
        for j, s in enumerate(rotated)
        if s.kind in ("bot", "person")
    }
    try:
        table, _ = await hub.create(
            old.row.game,
            old.row.options,
            specs,
            settings,
            rematch_of=old.row.id,
            owner_hash=old.row.owner_hash,  # the same owner: their cookie's token works here too
            seated=seated,
        )
    except RematchTaken:
        return None
    return table


async def accept(hub: Host, table: LiveTable, seat: int) -> str | None:
    """The person of the rematch's `seat` accepts: their new seat token (None: the seat no
    longer waits for them). Runs where the table is owned (operations.ACCEPT)."""
    async with table.lock:
        s = table.seat_row(seat)
        if table.row.status != "open" or s.kind != "person" or seat not in pending(table):
            return None  # the owner gave the seat away meanwhile
        token = secrets.token_urlsafe(24)
        new = replace(s, token_hash=token_hash(token))
        await hub.db(hub.store.update_seat, table.row.id, new)
        table.row.seats[seat] = new
        await _set(hub, table, pending=[x for x in pending(table) if x != seat])
    await hub.broadcast(table)
    return token


async def decline(hub: Host, old: LiveTable, asker: int) -> LiveTable:
    """The person of `asker` will not play the next game: the owner decides their seat."""

    made = await hub.db(hub.store.rematch_of, old.row.id)
    if made is None:
        raise Refused(N_("nobody has asked for a rematch of this table"))
    table = await hub.get(made)
    await hub.run(DECLINE, table, new_seat(old, asker))
    return table


async def decline_seat(hub: Host, table: LiveTable, seat: int) -> None:
    """The rematch's `seat` is declined (operations.DECLINE, where the table is owned)."""

    async with table.lock:
        if seat not in pending(table):
            raise Refused(N_("your seat in the rematch is no longer waiting for you"))
        declined = sorted({*(info(table).get("declined") or []), seat})
        await _set(hub, table, declined=declined)
    await hub.broadcast(table)


async def forget(hub: Host, table: LiveTable, seat: int) -> None:
    """The owner made a waiting seat open or a bot (under the lock): it waits no more."""
    if seat in pending(table):
        declined = [x for x in info(table).get("declined") or [] if x != seat]
        await _set(hub, table, pending=[x for x in pending(table) if x != seat], declined=declined)


def start_refusal(table: LiveTable) -> Refused | None:
    """Why the rematch cannot start yet (said to its owner, who asked): a seat that declined
    is said as declined (it was "waiting for ... to accept" after they had said no)."""
    waiting = pending(table)
    if not waiting:
        return None
    declined = [s for s in waiting if s in (info(table).get("declined") or [])]

    def names(seats: list[int]) -> str:
        return ", ".join(table.seat_row(s).name or f"{s + 1}" for s in seats)

    if declined:
        return Refused(
            N_("{names} declined the rematch: make their seat open or give it to a bot to start"),
            names=names(declined),
        )
    return Refused(
        N_(
            "waiting for {names} to accept the rematch; make their seat open or give it to a "
            "bot to start without them"
        ),
        names=names(waiting),
    )


async def _set(hub: Host, table: LiveTable, **changes: Any) -> None:
    series = {**info(table), **changes}
    table.row.settings["series"] = series
    await hub.db(hub.store.set_settings, table.row.id, dict(table.row.settings))
