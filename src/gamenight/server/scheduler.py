"""What happens without a person, planned after every change (`plan`).

`plan` finds who decides now and hands the table to one small job:
  - a bot's move (`start_bot`), within its wall-clock budget;
  - a reaction countdown (`reaction_countdown`), which passes for a person who touches
    nothing when it runs out, whatever they hold (A17), or a pass the person asked for
    ("always pass", a pass in advance: `pass_for`);
  - a person's turn timer or turn clock (`turn_timer`);
and first: a round's moment holds all of them (moments.py), and a table of only bots past
its cap is stopped (`stop_bot_table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, Any

from gamenight.bots import is_quick
from gamenight.server import moments, seats, timers, workers
from gamenight.server.live_table import (
    PASS_DWELL,
    REACTION_HOLD_SECONDS,
    REACTION_SECONDS,
    Conn,
    LiveTable,
    Refused,
    WindowClock,
)
from gamenight.server.operations import ACT

if TYPE_CHECKING:
    from gamenight.engine.core import State
    from gamenight.server.db import SeatRow
    from gamenight.server.host import Host

log = logging.getLogger("gamenight.server")
# At a shared screen, a seat nobody looks as yet gets this long to take the device before
# its reaction countdown runs (then it runs as at any table).
SHARED_HANDOVER_SECONDS = 5.0


def window_open(state: State) -> bool:
    """A timed reaction window is open (the engine hook `window_seats`)."""
    return bool(state.window_seats())


def has_pass(state: State, seat: int) -> bool:
    return any(a.kind == "pass" for a in state.actions(seat))


async def plan(hub: Host, table: LiveTable, broadcast: bool = False) -> None:
    """Schedule the next server-side step of `table` (and broadcast it when asked). A
    deadline or turn clock that starts, moves or stops here is broadcast whether or not it
    was asked: every page shows every clock (issue 45, item 1: a game's first turn started
    its clock after the start's broadcast, and no page showed it)."""
    before = _clock_face(table)
    state = table.state
    if table.timer is not None and table.timer is not asyncio.current_task():
        table.timer.cancel()
        table.timer = None
    if state is None or state.over or table.row.status != "running":
        table.deadline = table.deadline_seat = None
        moments.end(table)
        if broadcast or _clock_face(table) != before:
            await hub.broadcast(table)
        return
    if bot_table_spent(hub, table):
        await stop_bot_table(hub, table)
        return
    if hold_for_moment(hub, table):
        await timers.on_plan(hub, table, None, table.version)  # no clock runs while held
        if broadcast or _clock_face(table) != before:
            await hub.broadcast(table)
        return
    seat, version = state.actors[0], len(state.history)
    window = window_open(state)
    if not window:
        table.window = None
    if window and table.asked_key != (version, seat):
        table.asked_key = (version, seat)
        table.asked_at = time.monotonic()
    row = table.seat_row(seat)
    person = not seats.plays_bot(row)
    in_window = person and window and has_pass(state, seat)
    clock = await timers.on_plan(hub, table, seat if person and not in_window else None, version)
    auto = False
    if in_window:
        auto = reaction_countdown(hub, table, seat, version, row)
    elif person:
        turn_timer(hub, table, seat, version, clock)
    else:
        table.deadline = table.deadline_seat = None
    if broadcast or _clock_face(table) != before:
        await hub.broadcast(table)
    if not person:
        start_bot(hub, table, seat, version)
    elif auto:
        pass_for(hub, table, seat, version)


def _clock_face(table: LiveTable) -> tuple[Any, ...]:
    """What a page shows of the table's clocks: the deadline, whose it is, the running turn
    clock and the banks."""
    settings = table.row.settings
    banks = settings.get("clock_banks")
    return (
        table.deadline,
        table.deadline_seat,
        tuple(settings.get("clock_turn") or ()),
        tuple(sorted(banks.items())) if banks else (),
    )


# -- the round's moment ---------------------------------------------------------------------
def hold_for_moment(hub: Host, table: LiveTable) -> bool:
    """True while a round's moment holds the automatic steps (and a task ends the hold when
    its time runs out); a moment that no longer holds ends here."""
    moment = table.moment
    if moment is None:
        return False
    if not moments.holding(table):
        moments.end(table)
        return False
    table.deadline = table.deadline_seat = None
    if moment.timer is None:
        moment.timer = hub.spawn(_moment_timeout(hub, table, moment))
    return True


async def _moment_timeout(hub: Host, table: LiveTable, moment: moments.Moment) -> None:
    await asyncio.sleep(max(0.0, moment.until - time.monotonic()))
    if table.moment is moment:
        moments.end(table)
        await hub.plan(table, broadcast=True)


async def seen(hub: Host, table: LiveTable, conn: Conn, version: int) -> None:
    """`conn`'s page has shown the table at `version`: the moment may end."""
    conn.seen = max(conn.seen, min(version, table.version))
    if table.moment is not None and not moments.holding(table):
        moments.end(table)
        await hub.plan(table, broadcast=True)


# -- the four jobs --------------------------------------------------------------------------
def reaction_countdown(hub: Host, table: LiveTable, seat: int, version: int, row: SeatRow) -> bool:
    """A17: a person who touches nothing passes when the window's clock closes (or at once,
    asked after it), whether or not they hold a card that could answer, unless they asked to
    wait: then they have the full hold from when they got priority. Every input is public
    (live_table.WindowClock), so the moment of a pass tells nobody what they hold. Only
    their own choice ("always pass", a pass in advance, for the window or the turn) passes
    earlier: returns True when the server should pass for them now."""
    state = table.state
    assert state is not None
    if table.deadline_seat != seat:
        now = time.time()
        clock = window_clock(table, state, now)
        deadline = clock.closes
        if seat in clock.holds:
            deadline = max(deadline, now + hold_seconds(table))
        if table.row.settings.get("shared_screen") and not table.connected(seat):
            # one shared screen: the device changes hands first, so the countdown starts
            # after a grace; it never waits for ever (issue 43, item 6: a seat nobody
            # looked as held the window open)
            deadline = max(deadline, now) + SHARED_HANDOVER_SECONDS
        table.deadline = deadline
        table.deadline_seat = seat
    turn = state.turn_key()
    passing_turn = turn is not None and (table.pass_turn or {}).get(seat) == turn
    auto = row.auto_pass or seat in table.pass_ahead or passing_turn
    if not auto:
        table.timer = asyncio.create_task(_timeout(hub, table, seat, version))
    return auto


def window_clock(table: LiveTable, state: State, now: float) -> WindowClock:
    """The open window's clock, started now if this is its first person."""
    key = state.window_key()
    clock = table.window
    if clock is None or clock.key != key:
        clock = table.window = WindowClock(key, 0.0)
    if not clock.closes:  # new, or a card was just played: everyone's fresh chance (A16)
        clock.closes = now + float(table.row.settings.get("reaction_seconds") or REACTION_SECONDS)
    return clock


def window_closed(table: LiveTable) -> bool:
    """The open window's clock has closed: whoever holds priority now without having asked
    to wait passes at once (no dwell: the clock, not the person, decides the moment)."""
    clock = table.window
    return clock is not None and 0.0 < clock.closes <= time.time()


def hold_seconds(table: LiveTable) -> float:
    return float(table.row.settings.get("reaction_hold_seconds") or REACTION_HOLD_SECONDS)


def turn_timer(hub: Host, table: LiveTable, seat: int, version: int, clock: float | None) -> None:
    """A person's turn: their turn clock's deadline, or the table's turn timer, or none."""
    seconds = float(table.row.settings.get("turn_seconds") or 0)
    same = table.turn_key == (version, seat) and table.deadline is not None
    table.turn_key = (version, seat)
    if clock is not None:
        table.deadline = clock
        table.deadline_seat = seat
        table.timer = asyncio.create_task(_clock_out(hub, table, seat, version))
    elif seconds > 0:
        # a re-plan of the same decision (a look, a setting) keeps its deadline: else any
        # message that re-plans would push the timer back for ever
        if not same:
            table.deadline = time.time() + seconds
        table.deadline_seat = seat
        table.timer = asyncio.create_task(_timeout(hub, table, seat, version))
    else:
        table.deadline = table.deadline_seat = None


def start_bot(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    if table.bot_version != version:
        table.bot_version = version  # one bot task per version, however often we plan
        table.bot_task = asyncio.create_task(_bot(hub, table, seat, version))


def pass_for(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    """The pass a person asked for ("always pass", a pass in advance)."""
    hub.spawn(_server_pass(hub, table, seat, version))


# -- the tasks they start -------------------------------------------------------------------
async def _server_pass(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    with contextlib.suppress(Refused):
        await hub.run(ACT, table, seat, version, {"type": "pass"})


async def _run_out(table: LiveTable, version: int) -> State | None:
    """Sleep until the table's deadline; the state if it is still at `version` (the timer
    then is spent), else None (someone moved meanwhile)."""
    deadline = table.deadline or time.time()
    await asyncio.sleep(max(0.0, deadline - time.time()))
    state = table.state
    if state is None or len(state.history) != version or state.over:
        return None
    table.timer = None
    return state


async def _timeout(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    """The reaction timer ran out: pass for the seat (or its first legal move)."""
    state = await _run_out(table, version)
    if state is None:
        return
    legal = state.actions(seat)
    choice = next((a for a in legal if a.kind == "pass"), None)
    if choice is None:
        return  # outside a window a person's turn is not taken away
    with contextlib.suppress(Refused):
        await hub.run(ACT, table, seat, version, choice.to_json())


async def _clock_out(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    """The person's time bank ran out: the seat's bot makes this one decision."""
    state = await _run_out(table, version)
    if state is None:
        return
    row = table.seat_row(seat)
    seed = (table.row.seed * 1_000_003 + version * 101 + seat) % 2**62
    obj = await bot_move(hub, table, state, seat, row.bot or seats.STAND_IN, seed)
    if table.state is None or len(table.state.history) != version:
        return  # the person moved while the bot thought
    line = timers.ran_out(table, seat, row.name or f"seat {seat + 1}")
    with contextlib.suppress(Exception):
        await hub.db(hub.store.set_settings, table.row.id, dict(table.row.settings))
    await hub.notify(table, {"type": "note", "text": line})
    with contextlib.suppress(Refused):
        await hub.run(ACT, table, seat, version, obj)


async def _bot(hub: Host, table: LiveTable, seat: int, version: int) -> None:
    state = table.state
    if state is None or state.over or len(state.history) != version:
        return
    text = table.seat_row(seat).bot or "bot"
    seed = (table.row.seed * 1_000_003 + version * 101 + seat) % 2**62
    window = window_open(state)
    asked_at = time.monotonic()
    delay = float(table.row.settings.get("bot_delay") or 0)
    try:
        obj = await bot_move(hub, table, state, seat, text, seed)
        if window:
            # A17: in a reaction window every answer of a bot, a pass or a card, comes at
            # the same moment after it was asked (its thinking padded to a fixed minimum),
            # so its pace does not tell whether it could play.
            # (the dwell, not the bot pause: a window is everyone's quick "any answer?")
            pad = float(table.row.settings.get("pass_dwell", PASS_DWELL) or 0)
            if window_closed(table):
                pad = 0.0
            await asyncio.sleep(max(0.0, asked_at + pad - time.monotonic()))
        elif obj.get("type") != "pass":
            await asyncio.sleep(delay)  # a pause so people can follow
        await hub.run(ACT, table, seat, version, obj)
    except Refused as err:
        log.warning("bot at table %s seat %s was refused: %s", table.row.id, seat, err)
    except Exception:
        log.exception("bot at table %s seat %s failed", table.row.id, seat)
    cur = table.state
    if cur is not None and not cur.over and len(cur.history) == version:
        await asyncio.sleep(0.5)  # the bot failed: retry later rather than stall
        if table.bot_version == version:
            table.bot_version = -1
        await hub.plan(table)


async def bot_move(
    hub: Host, table: LiveTable, state: State, seat: int, text: str, seed: int
) -> dict[str, Any]:
    """The bot's move within the server's wall-clock budget; past it a seeded random legal
    move (the worker cuts its own search at the budget too). A quick bot (random, a
    game's heuristic) moves here in the event loop, with no worker process."""
    if is_quick(text, state.game):
        return workers.bot_choose(state, seat, text, seed)
    budget = hub.limits.move_seconds
    state = state.copy()  # the live state changes in place (pipeline) while the bot thinks
    try:
        obj: dict[str, Any] = await asyncio.wait_for(
            hub.pool.run(workers.bot_choose, state, seat, text, seed, budget),
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


# -- tables of only bots --------------------------------------------------------------------
def bot_table_spent(hub: Host, table: LiveTable) -> bool:
    """An all-bot table past its cap of moves or running time."""
    if not table.all_bots or table.state is None:
        return False
    return (
        len(table.state.history) >= hub.limits.bot_table_moves
        or time.monotonic() - table.started_at > hub.limits.bot_table_seconds
    )


async def stop_bot_table(hub: Host, table: LiveTable) -> None:
    async with table.lock:
        if table.row.status != "running":
            return
        await hub.db(hub.store.set_status, table.row.id, "abandoned")
        table.row.status = "abandoned"
    log.warning("table %s of only bots reached its cap of moves or time", table.row.id)
    reason = "a table of only bots is stopped after its cap of moves or time"
    await hub.notify(table, {"type": "closed", "reason": reason})
    await hub.broadcast(table)
