"""Limits on guessing passwords and on making accounts, kept in the database.

Why the database: the counters must hold under parallel requests and across server
processes (several `gamenight serve` share one PostgreSQL), and a failed log-in under a
new name must not cost memory that is never freed. Each counter is one row of
`login_limits`, keyed by a SHA-256 of what it counts (a name's skeleton, an address), so
no name or address is stored in the clear. A row says how many attempts were made
(`count`), since when (`since`), when the next one may be checked (`next_at`) and when the
row may be forgotten (`expires`); rows past `expires` are deleted now and then.

An attempt is *reserved before the password is hashed*: a compare-and-set UPDATE (or an
INSERT of a new row) moves the counter only if it still holds what was read, so of N
parallel guesses only as many as the limit allow can pass; the others see the new row
and are refused (or retry the read when they lost the race). A single UPDATE with its
condition in WHERE is atomic on SQLite (one writer at a time) and on PostgreSQL (the row
lock, and READ COMMITTED re-checks WHERE on the newest row version).

Log-in guessing: exponential back-off rather than a lock-out.

- Per (name, address): LOGIN_FREE wrong tries, then each further one must wait 1 s, 2 s,
  4 s, ... up to LOGIN_CAP s since the last. Counted as a failure when reserved; a right
  password clears it. A stranger's wrong passwords slow down only the stranger's own
  address: the owner of the name, elsewhere, is not locked out.
- Per address, over all names: ADDRESS_FREE tries, then the same back-off (one address
  trying many names).
- Per name, over all addresses: a looser cap (NAME_FREE tries, back-off up to NAME_CAP s)
  against guessing one name from many addresses. It does not apply to a *trusted*
  attempt: one that sends a valid session of that very account, or comes from an
  address that signed in to it before (remembered for TRUST_DAYS, as a row). So a botnet
  guessing "Mira" slows itself down, and Mira still signs in from home or her own browser;
  from a new address she waits at most NAME_CAP s between tries, never a fixed lock.

Sign-ups: SIGNUPS_PER_HOUR per address, reserved before the hash as well, given back when
the sign-up then fails (the name was taken).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from gamenight.engine.core import Reason
from gamenight.i18n import N_
from gamenight.server.db import metadata

LOGIN_FREE = 5
LOGIN_CAP = 300.0
ADDRESS_FREE = 30
NAME_FREE = 50
NAME_CAP = 60.0
FORGET_AFTER = 3600.0  # a back-off row untouched this long after its wait starts afresh
TRUST_DAYS = 30
SIGNUPS_PER_HOUR = 5
PRUNE_EVERY = 300.0
RACE_TRIES = 8

login_limits = Table(
    "login_limits",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("since", Float, nullable=False),
    Column("next_at", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_login_limits_expires", "expires"),
)


FOR_NAME = N_("too many wrong passwords for this name; wait {wait} s and try again")
FROM_ADDRESS = N_("too many wrong passwords from your address; wait {wait} s and try again")


class Limited(Exception):
    """Refused by a limit: `reason` is one line, `wait` the seconds until a retry may pass."""

    def __init__(self, reason: str, wait: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


def key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{kind}:{digest[:60]}"


def backoff(count: int, free: int, cap: float) -> float:
    """Seconds the attempt after the `count`-th must wait: 0 for the first `free`, then
    1, 2, 4, ... up to `cap`."""
    if count < free:
        return 0.0
    return min(cap, 2.0 ** min(count - free, 30))


@dataclass(frozen=True)
class Row:
    count: int
    since: float
    next_at: float
    expires: float


class LoginLimits:
    """The counters (see the module doc); blocking calls, run them in a thread."""

    def __init__(
        self,
        engine: Engine,
        clock: Callable[[], float] = time.time,
        signups_per_hour: int = SIGNUPS_PER_HOUR,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.signups_per_hour = signups_per_hour
        self.pruned = 0.0

    # -- the compare-and-set ------------------------------------------------------------
    def _read(self, k: str) -> Row | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(login_limits).where(login_limits.c.key == k)).first()
        if found is None:
            return None
        m = found._mapping  # (not found.count: a Row is a tuple, with its count method)
        return Row(int(m["count"]), m["since"], m["next_at"], m["expires"])

    def _swap(self, k: str, old: Row | None, new: Row) -> bool:
        """Write `new` if the row still is `old` (None: absent); False if someone else
        changed it first."""
        values = {
            "count": new.count,
            "since": new.since,
            "next_at": new.next_at,
            "expires": new.expires,
        }
        try:
            with self.engine.begin() as conn:
                if old is None:
                    conn.execute(insert(login_limits).values(key=k, **values))
                    return True
                done = conn.execute(
                    update(login_limits)
                    .where(
                        login_limits.c.key == k,
                        login_limits.c.count == old.count,
                        login_limits.c.since == old.since,
                        login_limits.c.next_at == old.next_at,
                        login_limits.c.expires == old.expires,
                    )
                    .values(**values)
                )
                return bool(done.rowcount == 1)
        except IntegrityError:  # another request inserted the row first
            return False

    def _take(self, k: str, step: Callable[[Row | None, float], Row | float]) -> None:
        """Reserve one attempt on counter `k`: `step(row, now)` gives the row after it, or
        the seconds to wait (refused). Raises Limited (wait > 0) when refused."""
        for _ in range(RACE_TRIES):
            now = self.clock()
            old = self._read(k)
            current = old if old is not None and old.expires > now else None
            new = step(current, now)
            if not isinstance(new, Row):
                raise Limited("", new)
            if self._swap(k, old, new):
                return
        raise Limited("", 1.0)  # lost the race every time: very many attempts at once

    # -- log-in --------------------------------------------------------------------------
    def _attempt(self, free: int, cap: float) -> Callable[[Row | None, float], Row | float]:
        def step(row: Row | None, now: float) -> Row | float:
            if row is not None and row.next_at > now:
                return row.next_at - now
            count = 1 if row is None else row.count + 1
            wait = backoff(count, free, cap)
            since = now if row is None else row.since
            return Row(count, since, now + wait, now + wait + FORGET_AFTER)

        return step

    def trusted(self, skeleton: str, address: str) -> bool:
        """Did this address sign in to the account of this name before (TRUST_DAYS)?"""
        found = self._read(key("ok", skeleton, address))
        return found is not None and found.expires > self.clock()

    def take_login(self, skeleton: str, address: str, trusted: bool) -> None:
        """Reserve one log-in attempt for `skeleton` from `address`; Limited if refused."""
        self.prune()
        checks = [
            (key("name", skeleton), NAME_FREE, NAME_CAP, FOR_NAME),
            (key("addr", address), ADDRESS_FREE, LOGIN_CAP, FROM_ADDRESS),
            (key("pair", skeleton, address), LOGIN_FREE, LOGIN_CAP, FOR_NAME),
        ]
        if trusted:  # the owner's own browser or address: strangers' tries do not count
            checks = checks[1:]
        for k, free, cap, said in checks:
            try:
                self._take(k, self._attempt(free, cap))
            except Limited as err:
                wait = max(1, math.ceil(err.wait))
                raise Limited(Reason(said, {"wait": str(wait)}), wait) from None

    def succeeded(self, skeleton: str, address: str) -> None:
        """A right password: this (name, address) starts afresh and is trusted from now."""
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(
                delete(login_limits).where(
                    login_limits.c.key.in_(
                        [key("pair", skeleton, address), key("ok", skeleton, address)]
                    )
                )
            )
        trust = Row(1, now, now, now + TRUST_DAYS * 86400)
        self._swap(key("ok", skeleton, address), None, trust)

    # -- sign-up -------------------------------------------------------------------------
    def take_signup(self, address: str) -> None:
        """Reserve one sign-up from `address`; Limited when it made its hour's share."""
        self.prune()
        most = self.signups_per_hour

        def step(row: Row | None, now: float) -> Row | float:
            if row is None:
                return Row(1, now, now, now + 3600.0)
            if row.count >= most:
                return max(1.0, row.expires - now)
            return Row(row.count + 1, row.since, now, row.expires)

        try:
            self._take(key("signup", address), step)
        except Limited as err:
            minutes = max(1, math.ceil(err.wait / 60))
            said = N_(
                "too many new accounts from your address ({most} an hour); wait {minutes} min"
            )
            raise Limited(
                Reason(said, {"most": str(most), "minutes": str(minutes)}), err.wait
            ) from None

    def give_back_signup(self, address: str) -> None:
        """The reserved sign-up made no account (the name was taken)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(login_limits)
                .where(login_limits.c.key == key("signup", address), login_limits.c.count > 0)
                .values(count=login_limits.c.count - 1)
            )

    # -- upkeep --------------------------------------------------------------------------
    def prune(self, force: bool = False) -> int:
        """Delete the rows past their time (at most every PRUNE_EVERY s per process): the
        table holds what the last hour's attempts need, not every name ever tried."""
        now = self.clock()
        if not force and now - self.pruned < PRUNE_EVERY:
            return 0
        self.pruned = now
        with self.engine.begin() as conn:
            gone = conn.execute(delete(login_limits).where(login_limits.c.expires < now))
        return int(gone.rowcount or 0)

    def rows(self) -> int:
        from sqlalchemy import func

        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(login_limits)).scalar_one())
