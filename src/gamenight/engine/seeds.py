"""Seeds derived, never drawn: the same master seed gives the same games in any order,
on any number of workers."""

from __future__ import annotations

import hashlib


def derive_seed(master: int, *path: int | str) -> int:
    """A 63-bit seed for the thing named by `path` under `master` (stable across runs)."""
    text = ":".join(str(p) for p in (master, *path)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
