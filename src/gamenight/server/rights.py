"""Who may do what at a table, asked at every message (issue 43, item 1).

A connection's rights are never kept from the moment it opened: it keeps only what it
*claims* (the hash of its seat cookie, a shared screen's token hashes, the seat its page
says is looking), and `derive` turns those claims into a seat from the table's seat rows
as they are now. Every message asks `may` (which derives first) and every broadcast
derives every connection before building its view, so a seat that changed hands (opened,
given to a stranger, renewed on another device) is never shown or played by a page that
held it before: that page becomes a watcher's and is sent the table afresh. The seat rows
are the store's: on a process that does not own the table they are read again whenever
the owner announces a change of seats (cluster/hub.py `_catch_up`), and a request
forwarded to the owner carries the seat token's hash (`proof`), checked there by `vouch`
against the owner's own rows.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from gamenight.i18n import N_
from gamenight.server.live_table import Conn, LiveTable, Refused

if TYPE_CHECKING:
    from collections.abc import Iterable

# What a message asks for, by its type: a seat (acts for a seat), a look (a shared screen
# changes who looks), or nothing more than being at the table (a watcher's "hello" names
# only a page without a seat; a seated page's is ignored).
SEAT_KINDS = frozenset(
    {"act", "auto_pass", "pass_ahead", "wait", "take_back", "chat", "chat_share"}
)
OPEN_KINDS = frozenset({"sync", "ping", "seen", "chat_sync", "hello"})
LOOK_KINDS = frozenset({"look"})


def _seats_by_hash(table: LiveTable) -> dict[str, int]:
    return {
        s.token_hash: s.seat
        for s in table.row.seats
        if s.kind == "person" and s.token_hash is not None
    }


def derive(table: LiveTable, conn: Conn, by_hash: dict[str, int] | None = None) -> bool:
    """Set `conn.seat` and `conn.holds` from its claims and the seat rows now; a page whose
    seat changed is sent everything afresh (its events from the start, as the new viewer).
    Returns whether anything changed."""
    if by_hash is None:
        by_hash = _seats_by_hash(table)
    own = by_hash.get(conn.token_hash) if conn.token_hash is not None else None
    if not conn.shared_hashes and not conn.holds:  # the common page: one seat cookie at most
        if own == conn.seat:  # (a broadcast asks this of every page: keep it cheap)
            return False
        conn.log_pos = -1  # the new viewer's own events from the start, nobody else's
        conn.seat = own
        return True
    holds = frozenset(by_hash[h] for h in conn.shared_hashes if h in by_hash)
    # a shared screen acts as the seat it looks as, if it still holds it
    looked = conn.looking if conn.looking in holds else None
    seat = looked if holds else own
    changed = seat != conn.seat or holds != conn.holds
    if changed:
        if seat != conn.seat:
            conn.log_pos = -1  # the new viewer's own events from the start, nobody else's
        conn.seat = seat
        conn.holds = holds
    return changed


def unmatched(table: LiveTable, conn: Conn) -> bool:
    """Does the connection claim a seat token that no seat row here holds? (Then the rows
    may be older than the store: a seat taken a moment ago through another process.)"""
    by_hash = _seats_by_hash(table)
    claims = {conn.token_hash, *conn.shared_hashes} - {None}
    return any(h not in by_hash for h in claims)


def refresh(table: LiveTable, conns: Iterable[Conn] | None = None) -> bool:
    """Derive every connection of the table (after its seats changed, before a
    broadcast). Returns whether any page's rights changed."""
    by_hash = _seats_by_hash(table)
    changed = False
    for conn in list(table.conns if conns is None else conns):
        if derive(table, conn, by_hash):
            changed = True
    return changed


def may(table: LiveTable, conn: Conn, kind: str, seat: object = None) -> None:
    """May this connection send a message of `kind` at this table now? Raises Refused with
    the reason if not. `seat` is the seat a `look` asks for."""
    derive(table, conn)
    if kind in SEAT_KINDS:
        if conn.seat is None:
            raise Refused(N_("you hold no seat at this table (a spectator cannot act)"), 403)
    elif kind in LOOK_KINDS:
        if not conn.holds:
            raise Refused(N_("only a shared screen's device looks as one of its seats"), 403)
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or seat not in conn.holds
        ):
            raise Refused(  # seats as the pages number them, from 1 (a non-number as sent)
                N_("this device holds seats {seats}; it cannot look as {seat}"),
                403,
                seats=", ".join(str(s + 1) for s in sorted(conn.holds)),
                seat=str(seat + 1)
                if isinstance(seat, int) and not isinstance(seat, bool)
                else repr(seat),
            )
    elif kind not in OPEN_KINDS:
        raise Refused(N_("unknown message type {kind}"), 400, kind=repr(kind))


def seed_is_private(table: LiveTable) -> bool:
    """The table's creator chose its seed and nobody else may ever sit there (issue 43,
    item 2): not a practice table, and no seat was opened since (that draws a new seed)."""
    settings = table.row.settings
    return bool(
        settings.get("seed_chosen")
        and not settings.get("practice")
        and not settings.get("seed_redrawn")
    )


def may_sit(table: LiveTable, creator: bool) -> None:
    """May this person take a seat? At a table whose seed its creator chose, only the
    creator (known by the owner cookie): anyone else would sit down to a deal the creator
    can predict."""
    if seed_is_private(table) and not creator:
        raise Refused(
            N_("the creator of this table chose its deal (a seed), so only they sit here"), 403
        )


def proof(table: LiveTable, conn: Conn) -> str | None:
    """The hash of the seat token that gives `conn` its seat (sent along with a request
    forwarded to the table's owner, which checks it with `vouch`)."""
    if conn.seat is None:
        return None
    row = table.seat_row(conn.seat)
    return row.token_hash


def vouch(table: LiveTable, seat: int, proof: str | None) -> None:
    """On the process that runs the request: the seat is still the one whose token hash
    the page holds. `proof` None is the server's own request (a bot, a timer)."""
    if proof is None:
        return
    if not 0 <= seat < len(table.row.seats):
        raise Refused(N_("seat {seat} does not exist"), 400, seat=seat + 1)  # from 1
    row = table.seat_row(seat)
    if row.kind != "person" or row.token_hash is None:
        raise Refused(N_("this seat is no longer yours; you are watching now"), 403)
    if not secrets.compare_digest(row.token_hash, proof):
        raise Refused(N_("this seat is no longer yours; you are watching now"), 403)
