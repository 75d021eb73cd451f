"""A connection's rights across processes (issue 43, item 1): a seat that changes hands
through one process is no longer shown to, nor played by, a page that held it on another."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gamenight.server.shared import cookie_name
from tests.cluster.helpers import Node, Redis, create_table, nodes, start
from tests.cluster.test_fanout import until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def shared_socket(node: Node, tid: str, tokens: str) -> ClientConnection:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return connect(
            f"ws://127.0.0.1:{node.port}/ws/tables/{tid}",
            additional_headers={"Cookie": f"{cookie_name(tid)}={tokens}"},
            open_timeout=5,
        )


def test_a_shared_screen_on_one_process_loses_a_seat_given_away_on_another(
    pg_url: str, redis: Redis, work: Path
) -> None:
    """The owner's device holds seats 0 and 1 with a socket open on `b`; through `a` (the
    table's owner process) seat 1 is opened and a stranger takes it. The socket on `b` is
    never sent seat 1's view, and cannot look or act as seat 1."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, owner = create_table(
            a, "arne", {"players": 2}, ["open", "open"], {"shared_screen": True, "bot_delay": 0}
        )
        jar = httpx.Client(base_url=a.url, cookies={f"gn_owner_{tid}": owner})
        for seat, name in ((0, "Ann"), (1, "Bob")):
            r = jar.post(f"/api/tables/{tid}/shared/join", json={"seat": seat, "name": name})
            assert r.status_code == 200, r.text
        tokens = str(jar.cookies.get(cookie_name(tid)))
        device = shared_socket(b, tid, tokens)
        try:
            until(device, lambda m: m["type"] == "state")
            r = jar.post(f"/api/tables/{tid}/seats/1", json={"to": "open"})
            assert r.status_code == 200, r.text
            r = httpx.post(f"{a.url}/api/tables/{tid}/join", json={"seat": 1, "name": "Eve"})
            assert r.status_code == 200, r.text
            start(a, tid, owner)
            # b hears of the new seats (the owner's announcement) and starts the game
            until(device, lambda m: m["type"] == "state" and m["table"]["status"] == "running")
            device.send(json.dumps({"type": "look", "seat": 1}))
            end = time.monotonic() + 10
            refused = None
            while refused is None and time.monotonic() < end:
                msg = json.loads(device.recv(timeout=10))
                assert msg.get("seat") != 1, "the device was shown the stranger's seat"
                if msg["type"] == "refused":
                    refused = msg
            assert refused is not None and "cannot look as 2" in refused["reason"]
            device.send(json.dumps({"type": "look", "seat": 0}))
            mine = until(device, lambda m: m["type"] == "state" and m["seat"] == 0)
            assert "hand" in mine["view"]
        finally:
            device.close()
            jar.close()


def test_the_searching_tables_budget_is_one_count_over_every_process(
    pg_url: str, redis: Redis, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One address with a budget of 3 tables with searching bots, asking both processes at
    once: exactly 3 are made (each process counted only its own: 3 on each, 6 in all)."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("GAMENIGHT_THINKING_TABLES_PER_ADDRESS", "3")
    body = {"game": "drop-or-stop", "options": {"players": 2}, "seats": ["open", "hard"]}
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        with ThreadPoolExecutor(8) as pool:
            asked = [pool.submit(httpx.post, f"{n.url}/api/tables", json=body) for n in (a, b) * 4]
            answers = [f.result() for f in asked]
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [201] * 3 + [429] * 5, [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 429).json()["error"]
        assert refused.startswith("3 open tables from your network address have bots that")
