"""Turn clocks (issue 14, item 1), like Board Game Arena's real-time tables: every person
has a time bank; their turn runs it down, each finished turn adds a few seconds (up to the
starting bank). When it runs out, the seat's bot makes that one decision for them and the
table log says so; the next turn starts again from the seconds added.

Reaction windows are not clocked here: they keep their own short countdown
(`reaction_seconds`, A17). The banks and the turn's start are kept in the table's settings,
so a restarted server rebuilds the running clock from the database.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from gamenight.engine.core import said
from gamenight.i18n import N_

if TYPE_CHECKING:
    from gamenight.server.host import Host
    from gamenight.server.live_table import LiveTable

# name: (starting bank, seconds added per finished turn)
CLOCKS: dict[str, tuple[float, float]] = {
    "relaxed": (600.0, 60.0),
    "normal": (180.0, 20.0),
    "fast": (60.0, 8.0),
}
MODES = ("off", *CLOCKS)


def clean_mode(value: Any) -> str:
    """The clock setting, or ValueError with a one-line reason (a Reason: translated
    where it is shown)."""
    if value not in MODES:
        raise ValueError(said(N_("setting 'clock' must be one of {modes}"), modes=", ".join(MODES)))
    return str(value)


def _preset(table: LiveTable) -> tuple[float, float] | None:
    s = table.row.settings
    mode = s.get("clock", "off")
    if mode not in CLOCKS:
        return None
    bank, add = CLOCKS[mode]
    return float(s.get("clock_bank") or bank), float(s.get("clock_add", add))


def banks(table: LiveTable) -> dict[str, float] | None:
    """Each person's time bank now (seconds, by seat number as text), or None: no clock."""
    preset = _preset(table)
    if preset is None:
        return None
    stored = table.row.settings.get("clock_banks") or {}
    out = {}
    for s in table.row.seats:
        if s.kind == "person":
            out[str(s.seat)] = float(stored.get(str(s.seat), preset[0]))
    return out


async def on_plan(hub: Host, table: LiveTable, seat: int | None, version: int) -> float | None:
    """Called as the table plans its next decision: charge the person whose turn just
    ended, start the new turn's clock; returns the deadline of `seat` (a person's turn
    outside a reaction window), or None when unclocked."""
    preset = _preset(table)
    if preset is None:
        return None
    start_bank, add = preset
    settings = table.row.settings
    bank = banks(table) or {}
    turn = settings.get("clock_turn")  # [seat, started at (epoch seconds)]
    now = time.time()
    changed = False
    if turn and turn[0] != seat:
        left = bank.get(str(turn[0]), start_bank) - (now - float(turn[1]))
        bank[str(turn[0])] = min(start_bank, max(0.0, left) + add)
        turn = None
        changed = True
    if seat is not None and str(seat) in bank and turn is None:
        turn = [seat, now]
        changed = True
    if seat is None and turn is not None:
        turn = None
        changed = True
    if changed:
        settings["clock_banks"] = bank
        settings["clock_turn"] = turn
        await hub.db(hub.store.set_settings, table.row.id, dict(settings))
    if turn is None:
        return None
    return float(turn[1]) + bank.get(str(turn[0]), start_bank)


def ran_out(table: LiveTable, seat: int, name: str) -> str:
    """The seat's time is spent and the bot makes this one decision: the bank holds only
    the seconds added per turn for the next one. Returns the log line (kept with the table)."""
    preset = _preset(table)
    settings = table.row.settings
    bank = dict(settings.get("clock_banks") or {})
    bank[str(seat)] = preset[1] if preset else 0.0
    settings["clock_banks"] = bank
    settings["clock_turn"] = None
    line = f"{name}'s time ran out: a bot made this move for them."
    notes = list(settings.get("notes") or [])[-49:]
    notes.append(line)
    settings["notes"] = notes
    return line
