"""The budget of tables whose bots search in the worker processes (costly table work): per
person and per address, counted in the database when a table gets such a bot (made with
one, or a seat handed to one), so on every process of a cluster."""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request

from gamenight.bots import is_quick
from gamenight.engine.core import Game
from gamenight.i18n import N_
from gamenight.server.accounts import account_of, address_of
from gamenight.server.db import Quota, QuotaFull
from gamenight.server.live_table import LiveTable
from gamenight.server.routes.common import Server
from gamenight.server.tables import Refused


def searches(rules: Game, seat_texts: list[str]) -> bool:
    """Does a seat hold a bot that thinks in the workers (not a quick one)?"""
    texts = [s.strip() for s in seat_texts if s.strip() not in ("open", "", "person")]
    return any(not is_quick(text, rules) for text in texts)


async def thinking_quota(request: Request, server: Server) -> Quota:
    """The budget of tables whose bots search in the workers (costly table work): per
    person (a signed-in account, over every address; a guest is their address) and per
    address (a household or a café of several accounts), counted in the database, so on
    every process of a cluster."""
    address = address_of(request)
    account = await account_of(request, server.people())
    person = f"account:{account['id']}" if account else f"address:{address}"
    rates = server.rates
    key = await _key(server)
    return Quota(
        person=_mac(key, person),
        address=_mac(key, f"address:{address}"),
        per_person=rates.thinking_tables_per_person,
        per_address=rates.thinking_tables_per_address,
    )


async def _key(server: Server) -> bytes:
    """This database's secret (the archive's, made on first use; every process of a cluster
    reads the same), kept per app."""
    found: bytes | None = server.holder.get("thinking_key")
    if found is None:
        from gamenight.server.archive import server_secret  # (pyarrow: not at startup)

        hub = server.hub()
        found = await hub.db(server_secret, hub.store.engine)
        server.holder["thinking_key"] = found
    return found


def _mac(key: bytes, who: str) -> str:
    """A maker's key as stored: keyed, so the rows do not give the address back (a plain
    hash of an IPv4 address is undone by trying all four billion)."""
    return hmac.new(key, f"thinking|{who}".encode(), hashlib.sha256).hexdigest()


def quota_refusal(full: QuotaFull, idle_timeout: float) -> Refused:
    """429 with what is counted and the three ways on (no page offers "leave a table")."""
    minutes = round(idle_timeout / 60)
    guest = full.quota.person == full.quota.address
    # (in the words of the table form, which offers levels, not "searching bots")
    if full.kind == "person" and not guest:
        template = N_(
            "you have {count} open tables with bots that think on the server (the stronger "
            "levels), the most at once; finish one, choose easy bots, or wait: a table nobody "
            "is at closes after {minutes} minutes"
        )
    elif full.kind == "person":  # a guest's share is their address's
        template = N_(
            "{count} open tables from your network address have bots that think on the "
            "server (the stronger levels), the most guests may have at once; sign in to have "
            "your own {most}, finish one, choose easy bots, or wait: a table nobody is at "
            "closes after {minutes} minutes"
        )
    else:  # (a household or a café shares one address)
        template = N_(
            "{count} open tables from your network address have bots that think on the "
            "server (the stronger levels), the most at once; finish one, choose easy bots, "
            "or wait: a table nobody is at closes after {minutes} minutes"
        )
    most = full.quota.per_person
    return Refused(template, 429, count=full.count, minutes=minutes, most=most)


async def claim(request: Request, server: Server, table: LiveTable) -> bool:
    """Count `table` in its changer's budget as a seat of it is handed to a searching bot
    (429 past the budget); True if it was counted now (not already)."""
    quota = await thinking_quota(request, server)
    hub = server.hub()
    try:
        claimed: bool = await hub.db(hub.store.claim_thinking, table.row.id, quota)
    except QuotaFull as full:
        raise quota_refusal(full, hub.idle_timeout) from None
    return claimed
