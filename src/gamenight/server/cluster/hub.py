"""ClusterHub: the single-process Hub, made one of several processes sharing a table. It is
over 400 lines because each of its overrides sits beside the others, so the one rule they
share (a change runs on the owner, everyone else follows) can be checked in one read; the
wire formats and the lease live in fanout.py, forward.py and lease.py.

What it changes, and nothing else:
- every change to a table (act, join, start, auto_pass, pass_ahead, seats, a rematch's
  acceptance or refusal) runs on the table's owner: here if this process holds the lease
  (or takes it because it is free), otherwise forwarded through Redis (forward.py) and
  answered by the owner;
- only the owner schedules bots, automatic passes and timers (`plan`); after each change it
  announces the new version (fanout.py) and stores the timer's deadline;
- every other process with connections to the table reads the new actions from PostgreSQL,
  applies them to its own copy of the state and sends each connection its own view;
- presence messages say which seats and which named spectators have a page here, and a
  relay says a table's chat changed (the other processes read it from the database);
- a renewal loop keeps this process's leases and repairs what a lost announcement left
  behind (Redis pub/sub delivers at most once: each round it compares the stored versions
  of the tables it follows with its own); a scan takes running tables whose owner stopped
  renewing, rebuilds their state and stored deadline, and carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from concurrent.futures import Executor
from typing import Any, TypeVar, cast

from gamenight.engine.core import Reason
from gamenight.engine.registry import spec as game_spec
from gamenight.i18n import N_
from gamenight.server import metrics, moments, rights
from gamenight.server.cluster.fanout import PROGRAMS, Bus, table_channel
from gamenight.server.cluster.forward import Forwarder, NoAnswer, NotOwnerAnymore
from gamenight.server.cluster.lease import ClusterStore
from gamenight.server.cluster.steps import apply_steps
from gamenight.server.messages import watcher
from gamenight.server.operations import ACT, OPERATIONS, Operation
from gamenight.server.seats import MAX_SPECTATORS_LISTED, spectators
from gamenight.server.tables import Hub, LiveTable, Refused
from gamenight.server.workers import WorkerPool

log = logging.getLogger("gamenight.server.cluster")
R = TypeVar("R")

LEASE_SECONDS = float(os.environ.get("GAMENIGHT_LEASE_SECONDS", "5"))


class FencedOut(Exception):
    """This process's store was refused: another process took the table meanwhile."""


def process_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class ClusterHub(Hub):
    def __init__(
        self,
        store: ClusterStore,
        pool: WorkerPool,
        db_pool: Executor,
        *,
        redis_url: str,
        idle_timeout: float = 1800.0,
        lease_seconds: float = LEASE_SECONDS,
        limits: Any = None,
    ) -> None:
        super().__init__(store, pool, db_pool, idle_timeout=idle_timeout, limits=limits)
        self.cstore = store
        self.me = store.me
        self.lease_seconds = lease_seconds
        self.owned: dict[str, float] = {}  # table id -> monotonic time our lease surely holds to
        self.holders: dict[str, str] = {}  # table id -> the owner we last heard of
        self.announced: dict[str, tuple[Any, ...]] = {}
        self.row_rev: dict[str, int] = {}  # bumped when seats or status change
        self.stored: dict[str, tuple[Any, ...]] = {}  # the deadline last stored, per table
        self.stored_then: dict[str, tuple[int, str]] = {}  # followed tables, a round ago
        self.bus = Bus(redis_url, self.me, self._on_message, self._resync_all)
        self.forwarder = Forwarder(self.bus, self.me)
        self._loops: list[asyncio.Task[None]] = []
        self._taking: dict[str, asyncio.Lock] = {}
        # pages on other processes: table -> process -> (seats, spectator names, when heard)
        self.presence: dict[str, dict[str, tuple[frozenset[int], tuple[str, ...], float]]] = {}

    # -- lifecycle ----------------------------------------------------------------------
    async def start_cluster(self) -> None:
        self.bus.start()
        if not await self.bus.wait_up(10):
            log.warning("Redis is not reachable yet; tables are served once it is")
        self._loops = [
            asyncio.create_task(self._renew_loop()),
            asyncio.create_task(self._scan_loop()),
        ]

    async def restore(self) -> int:
        return len(await self._scan())

    async def close(self) -> None:
        for task in self._loops:
            task.cancel()
        for table_id in list(self.owned):  # hand over at once rather than at lease end
            with contextlib.suppress(Exception):
                await self.db(self.cstore.release, table_id)
        self.owned.clear()
        await self.bus.close()
        await super().close()

    # -- ownership ------------------------------------------------------------------------
    def owns(self, table: LiveTable) -> bool:
        until = self.owned.get(table.row.id)
        return until is not None and until > time.monotonic()

    def _lose(self, table_id: str) -> None:
        """Stop acting for a table another process owns now."""
        if self.owned.pop(table_id, None) is None:
            return
        log.warning("table %s: lease lost", table_id)
        table = self.live.get(table_id)
        if table is not None:
            for task in (table.timer, table.bot_task):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            table.timer = None
            table.bot_version = -1

    async def _try_take(self, table: LiveTable) -> bool:
        """Take the table's lease if it is free; then catch up and plan as its owner."""
        table_id = table.row.id
        lock = self._taking.setdefault(table_id, asyncio.Lock())
        async with lock:
            if self.owns(table):
                return True
            if table.row.status not in ("open", "running"):
                return False
            t0 = time.monotonic()
            if not await self.db(self.cstore.acquire, table_id, self.lease_seconds):
                return False
            self.owned[table_id] = t0 + self.lease_seconds * 0.8
            metrics.took(self, table)
            self.holders[table_id] = self.me
            self.cstore.fenced_out.discard(table_id)
            self.stored.pop(table_id, None)
            self.announced.pop(table_id, None)
            async with table.lock:
                await self._catch_up(table, row=True)
                await self._stored_timer(table)  # the previous owner's timer runs on
            level = logging.INFO if table.row.status == "open" else logging.WARNING
            v = table.version
            log.log(level, "table %s: this process owns it now (version %d)", table_id, v)
        await self.plan(table, broadcast=True)
        return True

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            stale = time.monotonic() - 3 * self.lease_seconds  # that process is gone
            for table in list(self.live.values()):  # presence heartbeat
                if any(c.seat is not None for c in table.conns):
                    await self._publish_presence(table)
                heard = self.presence.get(table.row.id, {})
                for process in [p for p in table.elsewhere if heard.get(p, (0, 0, 0.0))[2] < stale]:
                    del table.elsewhere[process]
            try:
                await self._repair()
            except Exception:
                log.exception("checking followed tables against the database failed")
            ids = list(self.owned)
            if not ids:
                continue
            t0 = time.monotonic()
            try:
                kept = await self.db(self.cstore.renew, ids, self.lease_seconds)
            except Exception:
                log.exception("renewing leases failed")
                metrics.renewed(self, False)
                continue
            metrics.renewed(self, True)
            for table_id in ids:
                if table_id in kept:
                    if table_id in self.owned:
                        lapsed = self.owned[table_id] <= time.monotonic()
                        self.owned[table_id] = t0 + self.lease_seconds * 0.8
                        lapsed_table = self.live.get(table_id)
                        if lapsed and lapsed_table is not None:  # nothing scheduled meanwhile
                            await self.plan(lapsed_table)
                else:
                    self._lose(table_id)

    async def _scan(self) -> list[str]:
        """Take every running table whose owner stopped renewing its lease."""
        taken = []
        for table_id in await self.db(self.cstore.free_running):
            try:
                table = await self.get(table_id)
                if self.owns(table) or await self._try_take(table):
                    taken.append(table_id)
            except Exception:
                log.exception("could not take table %s", table_id)
        return taken

    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 2)
            with contextlib.suppress(Exception):
                await self._scan()

    # -- loading and following ------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        table = self.live.get(table_id)
        if table is not None:
            return table
        table = await super().get(table_id)
        if not await self._try_take(table):
            async with table.lock:  # versions announced while we were loading it
                await self._catch_up(table, row=True)
                await self._stored_timer(table)
        return table

    async def _stored_timer(self, table: LiveTable) -> None:
        """The timer the owner stored for the current version, if any (under the lock)."""
        deadline, seat, version = await self.db(self.cstore.stored_deadline, table.row.id)
        if version == table.version and deadline is not None:
            table.deadline, table.deadline_seat = deadline, seat

    async def create(self, *args: Any, **kwargs: Any) -> tuple[LiveTable, str]:
        table, owner = await super().create(*args, **kwargs)
        await self._try_take(table)
        return table, owner

    async def _catch_up(self, table: LiveTable, row: bool = False) -> None:
        """Bring the table up to the stored state (under its lock)."""
        table_id = table.row.id
        if row:
            fresh = await self.db(self.store.table, table_id)
            if fresh is not None:
                fresh.version = table.row.version
                table.row = fresh
                rights.refresh(table)  # a seat changed hands: its old pages only watch
        if table.state is None and table.row.status in ("running", "finished"):
            table.state = table.game.start(table.row.seed)
        if table.state is None:
            return
        steps = await self.db(self.cstore.history_from, table_id, table.version)
        if steps and steps[0][0] == table.version:
            pairs = [(seat, obj) for _n, seat, obj in steps]
            known = len(table.state.log)
            if game_spec(table.game.name).heavy:
                table.state = await self.pool.run(apply_steps, table.state.copy(), pairs)
            else:
                table.state = apply_steps(table.state.copy(), pairs)
            table.pass_ahead.clear()
            table.deadline = table.deadline_seat = None
            # A round that ended shows its moment here at once, as the owner (which heard
            # of this process's pages) will hold it; the owner's announcement of the version
            # then says how it stands (moments.mirror). Without this, a version read before
            # its announcement came was shown without its moment (seen in CI).
            moments.begin(table, table.state.log[known:])
        table.row.version = table.version
        if table.state is not None and table.state.over:
            table.row.status = "finished"

    async def _follow(self, table_id: str, msg: dict[str, Any]) -> None:
        """An owner announced a new version: read it, send every connection its view."""
        table = self.live.get(table_id)
        if table is None or self.owns(table):
            return
        self.holders[table_id] = str(msg.get("o"))
        async with table.lock:
            before = (table.version, table.row.status)
            await self._catch_up(table, row=bool(msg.get("row")) or msg.get("st") != before[1])
            if table.version == msg.get("v"):
                table.deadline = msg.get("d")
                table.deadline_seat = msg.get("ds")
                table.pass_ahead = set(msg.get("pa") or ())
                moments.mirror(table, msg.get("m"))
            if msg.get("st") in ("finished", "abandoned"):
                table.row.status = str(msg["st"])
            newer = table.version > int(msg.get("v") or 0)
        if not newer:  # (else the newer version's own announcement sends it, with its timer)
            await self.broadcast(table)
        if msg.get("closed"):  # (here only: the announcement reached every process)
            await Hub.notify(self, table, {"type": "closed", "reason": str(msg["closed"])})

    async def reread_seats(self, table: LiveTable) -> None:
        """A page claims a seat this process has not heard of (the join race: a person
        joined through another process and their socket landed here first): read the
        table from the database, the seat's truth, before deciding who they are."""
        if not self.owns(table):
            async with table.lock:
                await self._catch_up(table, row=True)

    async def _reread(self, table: LiveTable) -> bool:
        """Re-read a followed table from the database; True if its version or status moved."""
        before = (table.version, table.row.status)
        async with table.lock:
            await self._catch_up(table, row=True)
            await self._stored_timer(table)
        return (table.version, table.row.status) != before

    async def _refresh(self, table: LiveTable) -> None:
        """Re-read a followed table from the database and send every page its view."""
        await self._reread(table)
        await self.broadcast(table)

    async def _repair(self) -> None:
        """Catch up the followed tables that are still behind what the database held a
        round ago: an announcement was lost (a Redis hiccup, a failed publish), and without
        this their pages would wait on an old version until the next one, or for ever at a
        game's end. (A round's grace: an announcement in flight is not a lost one.)"""
        followed = {
            t.row.id: t
            for t in self.live.values()
            if t.conns and t.row.status in ("open", "running") and not self.owns(t)
        }
        before, self.stored_then = self.stored_then, {}
        if not followed:
            return
        self.stored_then = await self.db(self.cstore.versions, list(followed))
        for table_id, (version, status) in before.items():
            table = followed.get(table_id)
            if table is not None and (version > table.version or status != table.row.status):
                log.warning("table %s: missed version %d; caught up", table_id, version)
                await self._refresh(table)

    async def sync(self, table: LiveTable, conn: Any) -> None:
        """A page asks for the table as it is now: a follower reads the database first (an
        announcement it missed is then no reason for the page to wait). Only if the table
        moved do the other pages here hear of it too (they were behind as well)."""
        if not self.owns(table) and await self._reread(table):
            await self.broadcast(table)
        else:
            await super().sync(table, conn)

    async def _resync_all(self) -> None:
        """Redis was away: announcements may be lost. Re-read and re-announce everything."""
        for table in list(self.live.values()):
            if self.owns(table):
                self.announced.pop(table.row.id, None)
                await self._announce(table)
            else:
                await self._refresh(table)

    # -- the owner's announcements --------------------------------------------------------
    async def plan(self, table: LiveTable, broadcast: bool = False) -> None:
        if not self.owns(table):  # bots and timers belong to the owner only
            if table.timer is not None and table.timer is not asyncio.current_task():
                table.timer.cancel()
                table.timer = None
            if broadcast:
                await self.broadcast(table)
            return
        await super().plan(table, broadcast)
        await self._announce(table)

    async def _announce(self, table: LiveTable, closed: str | None = None) -> None:
        table_id = table.row.id
        key = (
            table.version,
            table.row.status,
            table.deadline,
            table.deadline_seat,
            tuple(sorted(table.pass_ahead)),
            self.row_rev.get(table_id, 0),
            table.moment.version if table.moment else None,
        )
        old = self.announced.get(table_id)
        if old == key and closed is None:
            return
        self.announced[table_id] = key
        msg = {
            "o": self.me,
            "v": table.version,
            "st": table.row.status,
            "d": table.deadline,
            "ds": table.deadline_seat,
            "pa": sorted(table.pass_ahead),
            "row": old is None or old[5] != key[5],
            "m": moments.announced(table),
        }
        if closed:
            msg["closed"] = closed
        await self._store_deadline(table)
        await self.bus.publish(table_channel(table_id), msg)
        if table.row.status in ("finished", "abandoned"):
            # nothing more to own: anyone can serve a finished table from the database
            self.owned.pop(table_id, None)
            await self.db(self.cstore.release, table_id)

    async def broadcast(self, table: LiveTable) -> None:
        if self.owns(table):  # nobody sees a timer the next owner would not know
            await self._store_deadline(table)
        await super().broadcast(table)

    async def _store_deadline(self, table: LiveTable) -> None:
        key = (table.version, table.deadline_seat, table.deadline)
        if self.stored.get(table.row.id) == key:
            return
        await self.db(self.cstore.save_deadline, table.row.id, *key)
        self.stored[table.row.id] = key

    def _bump_row(self, table: LiveTable) -> None:
        self.row_rev[table.row.id] = self.row_rev.get(table.row.id, 0) + 1

    # -- operations: here if we own the table, else at its owner --------------------------
    async def run(
        self, op: Operation[R], table: LiveTable, *args: Any, proof: str | None = None
    ) -> R:
        """Run a table operation (operations.py) on the table's owner: here if this
        process holds the lease, else forwarded to the owner through Redis; a dead owner's
        table is taken over (the lease runs out) and the operation run here."""
        if op.where == "here":
            return await Hub.run(self, op, table, *args, proof=proof)
        return cast(R, await self._route(table, op, list(args), proof))

    async def _local(
        self, table: LiveTable, op: Operation[Any], args: list[Any], proof: str | None
    ) -> Any:
        """Run an operation as the table's owner, then tell the others what changed.
        FencedOut: another process took the table meanwhile (its store was refused)."""
        if op.seats:  # every process reads the seat rows again at the announcement
            self._bump_row(table)
        try:
            result = await Hub.run(self, op, table, *args, proof=proof)
        except Refused:
            if table.row.id not in self.cstore.fenced_out:
                raise
            self.cstore.fenced_out.discard(table.row.id)
            self._lose(table.row.id)
            raise FencedOut(table.row.id) from None
        await self._announce(table)
        return result

    async def _route(
        self, table: LiveTable, op: Operation[Any], args: list[Any], proof: str | None
    ) -> Any:
        give_up = time.monotonic() + self.lease_seconds + 5
        unsure = False  # an earlier try may have been applied by an owner that then died
        while True:
            try:
                owner = await self._owner(table)
                if owner is None:
                    return await self._local(table, op, args, proof)
                reply = await self.forwarder.call(owner, table.row.id, op.name, args, proof)
            except FencedOut:
                continue  # another process owns it now: ask it
            except (NoAnswer, NotOwnerAnymore):
                self.holders.pop(table.row.id, None)
                unsure = unsure or op is ACT
                if time.monotonic() > give_up:
                    raise Refused(
                        N_("the server that holds this table is not answering; try again shortly"),
                        503,
                    ) from None
                await asyncio.sleep(0.3)
                continue
            except Refused:
                if unsure and await self._already_applied(table, args):
                    return None
                raise
            return await self._answered(table, op, args, reply, unsure)

    async def _owner(self, table: LiveTable) -> str | None:
        """The live process that owns the table (None: this one, now), taking the table
        when nobody holds it; NoAnswer while nobody can."""
        table_id = table.row.id
        if self.owns(table):
            return None
        owner = self.holders.get(table_id)
        if owner is not None and owner != self.me:
            return owner
        owner, alive = await self.db(self.cstore.holder, table_id)
        if alive and owner is not None and owner != self.me:
            self.holders[table_id] = owner
            return owner
        if await self._try_take(table):
            return None
        owner, alive = await self.db(self.cstore.holder, table_id)
        if not alive or owner is None or owner == self.me:
            raise NoAnswer("no owner yet")
        self.holders[table_id] = owner
        return owner

    async def _answered(
        self,
        table: LiveTable,
        op: Operation[Any],
        args: list[Any],
        reply: dict[str, Any],
        unsure: bool,
    ) -> Any:
        """The owner's reply to a forwarded operation, shown here at once."""
        if op is not ACT:  # seats or settings changed: show them here at once
            async with table.lock:
                await self._catch_up(table, row=True)
            await self.broadcast(table)
        if reply.get("ok"):
            return reply.get("result")
        if unsure and await self._already_applied(table, args):
            return None
        said = Reason.from_json(reply["said"]) if "said" in reply else str(reply.get("reason"))
        raise Refused(said, int(reply.get("status") or 409))

    async def _already_applied(self, table: LiveTable, args: list[Any]) -> bool:
        """Was this very action stored by an owner that died before answering?"""
        seat, version, obj = args[:3]
        if not isinstance(version, int):
            return False
        steps = await self.db(self.cstore.history_from, table.row.id, version)
        if not steps or steps[0][0] != version or steps[0][1] != seat:
            return False
        try:  # stored in its normal JSON form (defaults filled in)
            return bool(table.game.action_from_json(obj).to_json() == steps[0][2])
        except Exception:
            return False

    # -- messages from Redis ------------------------------------------------------------
    def _on_message(self, channel: str, msg: dict[str, Any]) -> Any:
        if channel.startswith("gn:t:"):
            if msg.get("o") == self.me:
                return None
            if msg.get("k") == "presence":
                return self._heard_presence(channel[5:], msg)
            if msg.get("k") == "relay":
                return self._heard_relay(channel[5:], msg)
            if msg.get("k") == "notice":
                return self._heard_notice(channel[5:], msg)
            return self._follow(channel[5:], msg)
        kind = msg.get("k")
        if channel == PROGRAMS:
            return self._heard_program_event(msg) if msg.get("from") != self.me else None
        if kind == "rep":
            self.forwarder.resolve(msg)
            return None
        if kind == "req":
            return self._serve_request(msg)
        return None

    async def tell_program(self, account_id: int, event: dict[str, Any]) -> bool:
        """This process's listeners first; else every process is asked, and those where
        the account's program listens say so."""
        if await super().tell_program(account_id, event):
            return True
        return await self.forwarder.ask_everyone(PROGRAMS, {"a": account_id, "e": event})

    async def _heard_program_event(self, msg: dict[str, Any]) -> None:
        account, event = msg.get("a"), msg.get("e")
        if not isinstance(account, int) or not isinstance(event, dict):
            return
        if await super().tell_program(account, event):
            await self.forwarder.reply(str(msg.get("from")), str(msg.get("id")), {"ok": True})

    async def _serve_request(self, msg: dict[str, Any]) -> None:
        sender, rid = str(msg.get("from")), str(msg.get("id"))
        op, args = OPERATIONS.get(str(msg.get("op"))), msg.get("a")
        proof = msg.get("p") if isinstance(msg.get("p"), str) else None
        if op is None or op.where != "owner" or not isinstance(args, list):
            await self.forwarder.reply(sender, rid, {"ok": False, "reason": "bad request"})
            return
        try:
            table = await self.get(str(msg.get("t")))
            if not self.owns(table):
                await self.forwarder.reply(sender, rid, {"ok": False, "not_owner": True})
                return
            result = await self._local(table, op, args, proof)
            body: dict[str, Any] = {"ok": True, "result": result}
        except FencedOut:  # another process took it meanwhile
            body = {"ok": False, "not_owner": True}
        except Refused as err:
            body = {"ok": False, "reason": err.reason, "status": err.status}
            if isinstance(err.reason, Reason):  # its key and words, for the page's language
                body["said"] = err.reason.to_json()
        except Exception:
            log.exception("forwarded %s on table %s failed", op, msg.get("t"))
            body = {"ok": False, "reason": "the server failed on this request; nothing changed"}
        await self.forwarder.reply(sender, rid, body)

    # -- presence: which seats have a page, on any process -----------------------------
    async def attach(self, table: LiveTable, conn: Any) -> None:
        await super().attach(table, conn)
        if not watcher(conn):  # watchers' names travel with the regular presence round
            await self._publish_presence(table)

    async def detach(self, table: LiveTable, conn: Any) -> None:
        await super().detach(table, conn)
        if not watcher(conn):
            await self._publish_presence(table)

    async def _publish_presence(self, table: LiveTable) -> None:
        # the seats present here, as `LiveTable.present` counts them (shown, not waited on)
        seats = sorted(
            {c.seat for c in table.conns if c.seat is not None}.union(
                *(c.holds for c in table.conns)
            )
        )
        names = spectators(table.conns)  # (spectators on this process only)
        seen: dict[int, int] = {}  # per seat, what its pages here have shown (moments)
        for c in moments.watchers(table):
            if c.seat is not None:
                seen[c.seat] = min(seen.get(c.seat, c.seen), c.seen)
        msg = {"o": self.me, "k": "presence", "seats": seats, "names": names, "seen": seen}
        await self.bus.publish(table_channel(table.row.id), msg)

    async def seen(self, table: LiveTable, conn: Any, version: Any) -> None:
        """A page here has shown `version`: the owner's moment may end (the owner hears
        it in this process's presence message)."""
        if self.owns(table):
            await super().seen(table, conn, version)
            return
        before = conn.seen
        conn.seen = max(conn.seen, min(int(version), table.version))
        if conn.seen != before and table.moment is not None:
            await self._publish_presence(table)

    async def _heard_presence(self, table_id: str, msg: dict[str, Any]) -> None:
        table = self.live.get(table_id)
        if table is None:
            return
        seats = frozenset(s for s in msg.get("seats") or () if isinstance(s, int))
        names = tuple(str(n)[:40] for n in msg.get("names") or () if isinstance(n, str))
        heard = self.presence.setdefault(table_id, {})
        sender = str(msg.get("o"))
        old = heard.get(sender)
        heard[sender] = (seats, names[:MAX_SPECTATORS_LISTED], time.monotonic())
        raw = msg.get("seen")
        seen: dict[Any, Any] = raw if isinstance(raw, dict) else {}
        table.elsewhere[sender] = {
            int(k): v for k, v in seen.items() if str(k).isdigit() and isinstance(v, int)
        }
        if self.owns(table) and table.moment is not None and not moments.holding(table):
            moments.end(table)  # the people there have seen the round end
            await self.plan(table, broadcast=True)
        elif old is None or old[0] != seats:  # (watchers' names: shown at the next change)
            await self.broadcast(table)

    async def notify(self, table: LiveTable, msg: dict[str, Any]) -> None:
        """The same message to every page of the table, on every process (a rematch
        offer reached only the pages on the process that made it)."""
        await super().notify(table, msg)
        notice = {"o": self.me, "k": "notice", "msg": msg}
        await self.bus.publish(table_channel(table.row.id), notice)

    async def _heard_notice(self, table_id: str, msg: dict[str, Any]) -> None:
        table = self.live.get(table_id)
        notice = msg.get("msg")
        if table is not None and isinstance(notice, dict):
            await super().notify(table, notice)

    async def relay(self, table: LiveTable, kind: str) -> None:
        await self.bus.publish(table_channel(table.row.id), {"o": self.me, "k": "relay", "r": kind})

    async def _heard_relay(self, table_id: str, msg: dict[str, Any]) -> None:
        """Another process changed something of a table this process serves pages of."""
        table = self.live.get(table_id)
        handler = self.relays.get(str(msg.get("r")))
        if table is not None and handler is not None and table.conns:
            await handler(table)

    def public_table(self, table: LiveTable) -> dict[str, Any]:
        info = super().public_table(table)
        fresh = time.monotonic() - 3 * self.lease_seconds  # older: that process is gone
        elsewhere: set[int] = set()
        watching = list(info["spectators"])
        for seats, names, when in self.presence.get(table.row.id, {}).values():
            if when > fresh:
                elsewhere |= seats
                watching.extend(names)
        for seat in info["seats"]:
            seat["connected"] = seat["connected"] or seat["seat"] in elsewhere
        info["spectators"] = sorted(watching)[:MAX_SPECTATORS_LISTED]
        return info

    # -- idle tables --------------------------------------------------------------------
    async def sweep(self) -> list[str]:
        """As Hub.sweep, but only the owner abandons a table (its people may be elsewhere)."""
        now = time.time()
        gone = []
        for table in list(self.live.values()):
            status = table.row.status
            if status in ("open", "running") and self.owns(table):
                people = any(c.seat is not None for c in table.conns)
                idle = now - max(table.idle_since, table.row.updated) > self.idle_timeout
                if not people and idle:
                    async with table.lock:
                        await self.db(self.store.set_status, table.row.id, "abandoned")
                        table.row.status = "abandoned"
                    if table.timer:
                        table.timer.cancel()
                    reason = "the table timed out"
                    await Hub.notify(self, table, {"type": "closed", "reason": reason})
                    await self.broadcast(table)
                    await self._announce(table, closed=reason)  # the others' pages
                    gone.append(table.row.id)
            if table.row.status in ("finished", "abandoned") and not table.conns:
                self.live.pop(table.row.id, None)
        return gone
