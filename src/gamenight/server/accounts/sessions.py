"""Accounts and their sessions: sign up, log in, log out, a new password, deletion, and
whose a session cookie is.

A session is a random token in an HttpOnly, SameSite=Lax cookie (SESSION_COOKIE); only its
SHA-256 is stored. Guessing passwords and making accounts in bulk are limited in the
database (`login_limits.py`); passwords must not be guessable (`passwords.py`) and are
hashed in a small pool of their own with a bounded queue; names that read alike are one
name (`names.py`). Every refusal is a `Refused` with one line and its HTTP status.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import secrets
import time
import weakref
from collections.abc import Callable
from typing import Any

from fastapi import Request
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from gamenight.i18n import N_
from gamenight.server import passwords
from gamenight.server.accounts.schema import accounts, ratings, seat_accounts, sessions
from gamenight.server.guard import SESSION_COOKIE
from gamenight.server.live_table import Refused
from gamenight.server.login_limits import SIGNUPS_PER_HOUR, Limited, LoginLimits
from gamenight.server.names import skeleton

SESSION_DAYS = 30
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{1,23}")
NAME_RULE = N_(
    "a name is 2 to 24 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit"
)
PASSWORD_LENGTH = passwords.LENGTH
TAKEN = N_("the name {name} is taken; choose another")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def tidy_name(name: Any) -> Any:
    """A name as typed, without spaces around it or doubled inside ("MIRA " is "MIRA", and
    so taken when "Mira" is): names that look alike are one name."""
    return " ".join(name.split()) if isinstance(name, str) else name


def check_name(name: Any) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise Refused(NAME_RULE, 400)


def check_password(password: Any, name: str | None = None) -> None:
    """Refused with one line if `password` is too short, too long or guessable."""
    reason = passwords.weakness(password, name)
    if reason:
        raise Refused(reason, 400)


def session_of(request: Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE)


def address_of(request: Request) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded for)."""
    return request.client.host if request.client else "?"


async def account_of(request: Request, accounts_: Sessions) -> dict[str, Any] | None:
    """The request's signed-in account, or None (a guest: no database trip without a
    session cookie)."""
    token = session_of(request)
    return None if not token else await asyncio.to_thread(accounts_.who, token)


class Sessions:
    """Accounts and sessions in the database (blocking calls run in a thread; the
    password hashes in their own pool)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        per_hour = os.environ.get("GAMENIGHT_SIGNUPS_PER_HOUR")
        self.limits = LoginLimits(
            engine, signups_per_hour=int(per_hour) if per_hour else SIGNUPS_PER_HOUR
        )
        self.hashing = passwords.Hashing()
        weakref.finalize(self, self.hashing.close)

    async def _hashed(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn` in the hashing pool; a full queue is a 429 at once (passwords.py)."""
        try:
            return await self.hashing.run(fn, *args)
        except passwords.Busy as err:
            raise Refused(str(err), 429, wait=2.0) from None

    async def _limited(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            await asyncio.to_thread(fn, *args)
        except Limited as err:
            raise Refused(err.reason, 429, wait=err.wait) from None

    async def sign_up(self, name: Any, password: Any, address: str) -> tuple[dict[str, Any], str]:
        """A new account and its session. The checks that cost nothing come first, then the
        address's sign-up is reserved (login_limits.py), then the password is hashed."""
        name = tidy_name(name)
        check_name(name)
        skel = skeleton(name)
        check_password(password, name)
        await asyncio.to_thread(self._name_free, name, skel)
        await self._limited(self.limits.take_signup, address)
        try:
            digest = await self._hashed(passwords.make_hash, password)
            key = await asyncio.to_thread(self._create, name, skel, digest)
        except BaseException:
            await asyncio.to_thread(self.limits.give_back_signup, address)
            raise
        await asyncio.to_thread(self.limits.succeeded, skel, address)  # a known address
        return {"id": key, "name": name}, await asyncio.to_thread(self._new_session, key)

    def _name_free(self, name: str, skel: str) -> None:
        with self.engine.connect() as conn:
            taken = conn.execute(
                select(accounts.c.id).where(
                    (accounts.c.name_key == name.lower()) | (accounts.c.skeleton == skel)
                )
            ).first()
        if taken is not None:
            raise Refused(TAKEN, 409, name=name)

    def _create(self, name: str, skel: str, digest: str) -> int:
        try:
            with self.engine.begin() as conn:
                key = conn.execute(
                    insert(accounts).values(
                        name=name,
                        name_key=name.lower(),
                        skeleton=skel,
                        password_hash=digest,
                        created=time.time(),
                    )
                ).inserted_primary_key
        except IntegrityError:  # the same name (or one that reads alike) a moment earlier
            raise Refused(TAKEN, 409, name=name) from None
        assert key is not None
        return int(key[0])

    def _account_named(self, name: Any) -> Any:
        key = tidy_name(name).lower() if isinstance(name, str) else ""
        with self.engine.connect() as conn:
            return conn.execute(select(accounts).where(accounts.c.name_key == key)).first()

    def _trusted(self, skel: str, address: str, token: str | None) -> bool:
        """Strangers' guesses at this name do not slow this attempt: it holds a valid
        session of the very account, or its address signed in to it before."""
        account = self.who(token)
        if account is not None and skeleton(account["name"]) == skel:
            return True
        return self.limits.trusted(skel, address)

    async def log_in(
        self, name: Any, password: Any, address: str, token: str | None = None
    ) -> tuple[dict[str, Any], str]:
        """A session for the right name and password. The attempt is reserved in the
        database before the password is hashed (login_limits.py: of N parallel guesses only
        as many as the limits allow are checked); `token` is the request's session, if any."""
        skel = skeleton(tidy_name(name)) if isinstance(name, str) else ""
        trusted = await asyncio.to_thread(self._trusted, skel, address, token)
        await self._limited(self.limits.take_login, skel, address, trusted)
        row = await asyncio.to_thread(self._account_named, name)
        digest = None if row is None else row.password_hash
        ok = await self._hashed(passwords.verify, digest, str(password))
        if row is None or not ok:
            raise Refused(N_("wrong name or password"), 401)
        await asyncio.to_thread(self.limits.succeeded, skel, address)
        session = await asyncio.to_thread(self._new_session, int(row.id))
        return {"id": int(row.id), "name": row.name}, session

    async def _confirm(self, account_id: int, password: Any, address: str) -> Any:
        """The account's row, if `password` is its password (limited as a log-in)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        if row is None:
            raise Refused(N_("this account no longer exists"), 404)
        skel = row.skeleton or skeleton(row.name)
        await self._limited(self.limits.take_login, skel, address, True)
        if not isinstance(password, str) or not await self._hashed(
            passwords.verify, row.password_hash, password
        ):
            raise Refused(N_("the password is not right"), 403)
        await asyncio.to_thread(self.limits.succeeded, skel, address)
        return row

    async def change_password(
        self, account_id: int, old: Any, new: Any, address: str, keep: str | None
    ) -> None:
        """A new password, given the old one; every other session of the account ends
        (a thief's too), `keep` (this browser's) stays."""
        with self.engine.connect() as conn:
            name = conn.execute(
                select(accounts.c.name).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
        check_password(new, name)
        await self._confirm(account_id, old, address)
        digest = await self._hashed(passwords.make_hash, new)
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password_hash=digest)
            )
            conn.execute(
                delete(sessions).where(
                    sessions.c.account_id == account_id,
                    sessions.c.token_hash != _hash(keep or ""),
                )
            )

    async def delete_account(self, account_id: int, password: Any, address: str) -> None:
        """Gone for good, given the password: its seats are no longer linked (the games
        stay, as a guest's), its ratings and sessions are removed, its name is free."""
        await self._confirm(account_id, password, address)
        with self.engine.begin() as conn:
            conn.execute(delete(seat_accounts).where(seat_accounts.c.account_id == account_id))
            conn.execute(delete(ratings).where(ratings.c.player == f"account:{account_id}"))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))

    def name_owner(self, name: str) -> dict[str, Any] | None:
        """The account whose name reads like `name` (by skeleton), or None."""
        skel = skeleton(name)
        if not skel:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name).where(
                    (accounts.c.skeleton == skel) | (accounts.c.name_key == name.lower())
                )
            ).first()
        return None if row is None else {"id": int(row.id), "name": row.name}

    def _new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=_hash(token),
                    account_id=account_id,
                    expires=time.time() + SESSION_DAYS * 86400,
                )
            )
        return token

    def log_out(self, token: str | None) -> None:
        if token:
            with self.engine.begin() as conn:
                conn.execute(delete(sessions).where(sessions.c.token_hash == _hash(token)))

    def who(self, token: str | None) -> dict[str, Any] | None:
        """The account of a session token, or None (no, unknown or expired session)."""
        if not token:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name)
                .join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.token_hash == _hash(token), sessions.c.expires > time.time())
            ).first()
        return None if row is None else {"id": int(row.id), "name": row.name}
