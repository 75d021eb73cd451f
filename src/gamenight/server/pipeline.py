"""The act pipeline: the one place an action is accepted.

Every change to a running game goes check -> persist -> apply -> plan and broadcast, under
the table's lock for the first three. A refused action changes nothing: it is checked
against the rules (`State._refusal`, the engine's own test) before it is stored, and applied
to the live state only once it is stored. Until then every reader sees the state as it was.

Applying in place, not to a copy swapped in afterwards, is for the server's memory and its
pauses: a copy of a long game's history and event log per action kept the young garbage
collection walking every live table's lists (12 ms per collection at 1,000 tables). A heavy
game (a Drop It drop: physics) is still applied to a copy in the worker pool, then swapped
in. Anything that sends a live state to another thread or process sends a copy
(scheduler.bot_move, coach), since the live one changes under it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from gamenight.engine.core import Action, BadInput, IllegalAction, State
from gamenight.engine.registry import spec as game_spec
from gamenight.i18n import N_
from gamenight.server import moments, workers
from gamenight.server.live_table import PASS_DWELL, LiveTable, Refused
from gamenight.server.operations import ACT
from gamenight.server.scheduler import has_pass, hold_seconds, window_closed, window_open

if TYPE_CHECKING:
    from gamenight.server.host import Host

log = logging.getLogger("gamenight.server")


async def act(hub: Host, table: LiveTable, seat: int, version: Any, obj: Any) -> None:
    """Accept `seat`'s action made against `version`, or raise Refused (nothing changes);
    then plan the next step and broadcast."""
    start = time.perf_counter()
    if isinstance(obj, dict) and obj.get("type") == "pass" and table.asked_key == (version, seat):
        await _dwell(table, seat)
    async with table.lock:
        state = _check_version(table, seat, version)
        action = _parse(table, obj)
        _check(table, state, seat, action)
        n, before, window = len(state.history), len(state.log), state.window_key()
        heavy = game_spec(table.game.name).heavy
        if heavy:
            new = await _apply_heavy(hub, state, seat, action)
            await _persist(hub, table, n, seat, action, new.over)
        else:
            await _persist(hub, table, n, seat, action, False)
            new = await _apply_stored(hub, table, state, seat, action)
        _swap(table, before, window, new, action)
        hub.accepted += 1  # with the swap: whoever sees the new state sees it counted
        if new.over and not heavy:  # its last action was stored as running (table_store
            await _store_finished(hub, table)  # mends a crash in between when it loads)
    if new.over:
        await _finished(hub, table)
    await hub.plan(table, broadcast=True)
    hub.timings.append(time.perf_counter() - start)


async def _finished(hub: Host, table: LiveTable) -> None:
    """The game has just ended (and is stored): rate it, once (accounts)."""
    if hub.on_finished is None:
        return
    try:
        await hub.on_finished(table)
    except Exception:  # a rating must never undo or hide the game's end
        log.exception("rating table %s failed", table.row.id)


async def _dwell(table: LiveTable, seat: int) -> None:
    """A17: every pass of the seat holding priority in a window takes at least `pass_dwell`
    seconds, whoever made it (the person, the server for a person with nothing to play or
    "always pass", a bot, the timer): how fast a window moves on does not tell who could
    have answered."""
    dwell = float(table.row.settings.get("pass_dwell", PASS_DWELL) or 0)
    if window_closed(table) and table.window is not None and seat not in table.window.holds:
        return  # the window's clock decides this moment for everyone (scheduler.py)
    wait = table.asked_at + dwell - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


def _check_version(table: LiveTable, seat: int, version: Any) -> State:
    state = table.state
    if state is None:
        raise Refused(N_("the game has not started yet"))
    if state.over:
        raise Refused(N_("the game is over"))
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refused(N_("an action needs the integer 'version' of the state it was made on"))
    if version != len(state.history):
        raise Refused(
            N_(
                "stale action: made on version {version}, the table is at version "
                "{now}; look at the new state and try again"
            ),
            version=version,
            now=len(state.history),
        )
    return state


def _parse(table: LiveTable, obj: Any) -> Action:
    try:
        return table.game.action_from_json(obj)
    except BadInput as err:
        raise Refused(str(err)) from err


def _check(table: LiveTable, state: State, seat: int, action: Action) -> None:
    """Refused unless `seat` owes a decision and `action` is legal for it now; the reason
    in words (the rules' own, or who is to decide)."""
    if seat not in state.actors:
        first = state.actors[0] if state.actors else None
        who = table.seat_row(first).name if first is not None else None
        if who:
            raise Refused(N_("it is not your turn: waiting for {name}"), name=who)
        raise Refused(N_("it is not your turn: waiting for another seat"))
    reason = state._refusal(seat, action)
    if reason is not None:
        raise Refused(reason)


async def _store_finished(hub: Host, table: LiveTable) -> None:
    try:
        await hub.store_finished(table.row.id)
    except Exception:  # the actions are stored; the status is mended on the next load
        log.exception("storing that table %s finished failed", table.row.id)


async def _apply_stored(
    hub: Host, table: LiveTable, state: State, seat: int, action: Action
) -> State:
    """The stored action applied to the live state. Checked beforehand, so the rules do not
    refuse it; if they did, the live state is rebuilt from the stored log (which now holds
    the action) rather than left half changed."""
    try:
        state.act(seat, action)
        return state
    except Exception:
        log.exception("table %s: a checked, stored action failed to apply", table.row.id)
        history = await hub.db(hub.store.history, table.row.id)
        steps = [(s, table.game.action_from_json(a)) for s, a in history]
        return table.game.replay(table.row.seed, steps)


async def _apply_heavy(hub: Host, state: State, seat: int, action: Action) -> State:
    """A heavy game's state after the (checked) action, applied to a copy in the worker
    pool."""
    try:
        new: State = await hub.pool.run(workers.apply, state.copy(), seat, action)
    except IllegalAction as err:
        raise Refused(err.reason) from err
    return new


async def _persist(
    hub: Host, table: LiveTable, n: int, seat: int, action: Action, over: bool
) -> None:
    """Store the action as the table's step `n` (and its new status) before it is applied."""
    status = "finished" if over else "running"
    try:
        await hub.store_action(table.row.id, n, seat, action.to_json(), status)
    except Exception as err:
        log.exception("storing an action of table %s failed", table.row.id)
        raise Refused(N_("the action could not be stored; nothing changed, try again")) from err


def _swap(table: LiveTable, before: int, window: Any, new: State, action: Action) -> None:
    """The table after its state became `new` (whose log had `before` events and whose open
    window was `window` before the action)."""
    table.state = new
    table.row.status = "finished" if new.over else "running"
    table.row.version = len(new.history)
    table.row.updated = time.time()  # a table in play (bots too) is not idle
    if table.pass_ahead and (action.kind != "pass" or new.window_key() != window):
        # any new black card (or the window closing) cancels every pass in advance
        table.pass_ahead.clear()
    if table.window is not None and action.kind != "pass":
        table.window.closes = 0.0  # a card was played: the clock starts again (A16)
    table.deadline = None
    table.deadline_seat = None
    moments.begin(table, new.log[before:])


async def set_pass_ahead(
    hub: Host, table: LiveTable, seat: int, on: bool, turn: bool = False
) -> None:
    """A pass in advance for the current window (cancelled by any new black card), or with
    `turn` for every window until the turn ends (issue 45, item 4)."""
    state = table.state
    if state is None or state.over:
        raise Refused(N_("the game is not running"))
    if on and not window_open(state):
        raise Refused(N_("no reaction window is open; a pass in advance is for a window"))
    key = state.turn_key()
    if turn and key is None:
        raise Refused(N_("this game has no turns to pass through"))
    passes = table.pass_turn = table.pass_turn or {}
    if turn and on:
        passes[seat] = key
    elif not on:
        passes.pop(seat, None)
    engine_level = on and seat in state.actors and seat != state.actors[0] and has_pass(state, seat)
    if engine_level:  # the rules record a pass in advance themselves
        await hub.run(ACT, table, seat, len(state.history), {"type": "pass"})
        table.pass_ahead.add(seat)
        return
    if not on and seat in table.pass_ahead and seat not in state.actors:
        raise Refused(N_("your pass in advance is on the table and cannot be taken back"))
    if on:
        table.pass_ahead.add(seat)
    else:
        table.pass_ahead.discard(seat)
    await hub.plan(table)


async def hold(hub: Host, table: LiveTable, seat: int) -> None:
    """ "Wait!" (issue 45, item 4): any person still to answer in the open window may ask
    for the full time, whatever they hold (a bluffable hold, like a hesitation at a real
    table); once per window. Everyone is shown who asked; the one holding priority now gets
    it from now, anyone else when priority reaches them."""
    state = table.state
    if state is None or state.over:
        raise Refused(N_("the game is not running"))
    if not window_open(state) or seat not in state.window_seats():
        raise Refused(N_("you can ask to wait only while a window waits for your answer"))
    clock = table.window
    if clock is None or clock.key != state.window_key():
        raise Refused(N_("the window's clock has not started yet; you have your full time"))
    if seat in clock.holds:
        raise Refused(N_("you have already asked to wait in this window"))
    clock.holds.add(seat)
    if table.deadline_seat == seat and table.deadline is not None:
        table.deadline = max(table.deadline, time.time() + hold_seconds(table))
    await hub.plan(table, broadcast=True)
