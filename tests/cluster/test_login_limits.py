"""Issue 43 item 4: the log-in and sign-up limits are kept in PostgreSQL, so two server
processes sharing it enforce one limit (per-process counters let each process take its
own share: 2x the guesses, 2x the accounts)."""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from gamenight.server import login_limits
from tests.cluster.helpers import Redis, nodes


def test_two_processes_enforce_one_log_in_and_sign_up_limit(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        # 127.0.0.1 is uvicorn's trusted proxy: X-Forwarded-For sets the address
        r = httpx.post(
            f"{a.url}/api/accounts",
            json={"name": "Mira", "password": "correct horse"},
            headers={"x-forwarded-for": "1.1.1.1"},
        )
        assert r.status_code == 201, r.text
        go = threading.Barrier(40)

        def guess(i: int) -> int:
            node = (a, b)[i % 2]
            go.wait()
            r = httpx.post(
                f"{node.url}/api/session",
                json={"name": "Mira", "password": f"guess number {i}"},
                headers={"x-forwarded-for": "6.6.6.6"},
                timeout=30,
            )
            return r.status_code

        began = time.monotonic()
        with ThreadPoolExecutor(40) as pool:
            codes = list(pool.map(guess, range(40)))
        # past the free tries, one more check each time a back-off (1, 2, 4 ... s) ran
        # out while the burst lasted (a loaded machine stretches the burst over seconds)
        waits = math.floor(math.log2(time.monotonic() - began + 1))
        assert codes.count(401) <= login_limits.LOGIN_FREE + waits, codes
        assert codes.count(401) + codes.count(429) == 40, codes
        # the owner, elsewhere, is not locked out by it, on either process
        for node in (a, b):
            r = httpx.post(
                f"{node.url}/api/session",
                json={"name": "Mira", "password": "correct horse"},
                headers={"x-forwarded-for": "2.2.2.2"},
            )
            assert r.status_code == 200, r.text

        go = threading.Barrier(10)

        def make(i: int) -> int:
            node = (a, b)[i % 2]
            go.wait()
            r = httpx.post(
                f"{node.url}/api/accounts",
                json={"name": f"Player{i}x", "password": "correct horse"},
                headers={"x-forwarded-for": "7.7.7.7"},
                timeout=30,
            )
            return r.status_code

        with ThreadPoolExecutor(10) as pool:
            made = list(pool.map(make, range(10)))
        assert made.count(201) == login_limits.SIGNUPS_PER_HOUR, made
        assert made.count(429) == 10 - login_limits.SIGNUPS_PER_HOUR, made
