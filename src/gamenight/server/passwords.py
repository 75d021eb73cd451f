"""Passwords: what is accepted, and where they are hashed.

A password is 8 to 200 characters and must not be guessable: zxcvbn (Dropbox's estimator,
which knows the common passwords, keyboard walks, sequences, dates and the person's own
name) must score it at least 2 of 4 ("somewhat guessable": about 10^8 guesses).

Hashing (argon2: ~50 ms of CPU and 64 MB per hash, on purpose) runs in its own pool of
HASH_THREADS threads, never in the default thread pool where joins and session lookups
run: a burst of sign-ups or log-ins once made a guest's join wait 1.6 s. At most
HASH_WAITING hashes wait for that pool; one more is refused at once with 429 and a reason
rather than queued behind them.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from gamenight.engine.core import Reason
from gamenight.i18n import N_

LENGTH = (8, 200)
MIN_SCORE = 2  # zxcvbn's 0..4
HASH_THREADS = 2
HASH_WAITING = 4  # hashes queued behind the running ones before new ones are refused
BUSY = N_("the server is busy checking passwords; try again in a few seconds")

T = TypeVar("T")


class BadPassword(ValueError):
    """A password that is refused; the message is one line for the person."""


def weakness(password: Any, name: str | None = None) -> str | None:
    """Why `password` is refused (one line), or None when it is fine."""
    low, high = LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        return Reason(
            N_("a password is {low} to {high} characters"), {"low": str(low), "high": str(high)}
        )
    if name and password.casefold().replace(" ", "") == name.casefold().replace(" ", ""):
        return Reason(N_("a password may not be your name"))
    from zxcvbn import zxcvbn

    inputs = [name, name.replace(" ", ""), *name.split()] if name else []
    # zxcvbn takes at most 72 characters (its matchers are quadratic); those decide how
    # guessable a password is anyway
    found = zxcvbn(password[:72], user_inputs=inputs)
    if found["score"] >= MIN_SCORE:
        return None
    said = " ".join(str(found["feedback"].get("warning") or "").split())
    if said:  # (zxcvbn's own warning: English)
        return Reason(
            N_("this password is too easy to guess ({warning}); add a few uncommon words"),
            {"warning": said.rstrip(".")},
        )
    return Reason(N_("this password is too easy to guess; add a few uncommon words"))


@functools.cache
def hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


def make_hash(password: str) -> str:
    return str(hasher().hash(password))


# A hash to check against when the name is unknown, so an unknown name costs the same
# time as a wrong password (no telling which names exist from the answer's delay).
@functools.cache
def dummy_hash() -> str:
    return make_hash("no account has this password")


def verify(digest: str | None, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(hasher().verify(digest or dummy_hash(), password)) and digest is not None
    except (VerificationError, InvalidHashError):
        return False


class Busy(Exception):
    """The hashing queue is full."""


class Hashing:
    """The pool passwords are hashed in, with its bounded queue (see the module doc). Used
    from the event loop only, so `waiting` needs no lock."""

    def __init__(self, threads: int = HASH_THREADS, waiting: int = HASH_WAITING) -> None:
        self.threads = threads
        self.limit = threads + waiting
        self.pending = 0
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="gamenight-hash")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.pending >= self.limit:
            raise Busy(BUSY)
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
