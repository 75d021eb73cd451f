"""A round's moment with several server processes (issue 13's moment, issue 12's cluster):
the table's owner holds its bot after Drop or Stop's reveal until a person whose page is
on ANOTHER process has seen it; that page is shown the moment too."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.cluster.helpers import Node, Redis, create_table, join, nodes, start
from tests.server.helpers import ws_open

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def next_state(ws: ClientConnection, seconds: float = 15) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if msg.get("type") == "state" and "view" in msg:
            return msg
    raise AssertionError("no state came")


def play_to_moment(ws: ClientConnection) -> dict[str, Any]:
    """Stop whenever asked (never saying "seen") until a state carries a round's moment."""
    while True:
        msg = next_state(ws)
        if "moment" in msg:
            return msg
        assert "outcome" not in msg, "the game ended: this page was never shown a moment"
        if msg.get("asked"):
            ws.send(
                json.dumps({"type": "act", "version": msg["version"], "action": {"type": "stop"}})
            )


def version(node: Node, tid: str) -> int:
    return int(httpx.get(f"{node.url}/api/tables/{tid}").json()["version"])


def test_the_owner_waits_for_a_page_on_another_process(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        settings = {"bot_delay": 0, "moment_seconds": 30}
        options = {"players": 2, "wins_to_win": 2}
        tid, owner = create_table(a, "drop-or-stop", options, ["open", "easy"], settings)
        bob = join(b, tid, 0, "Bob")
        start(a, tid, owner)  # a made the table: a owns it and moves its bot
        ws = ws_open(b, tid, bob)  # Bob's only page is on b
        try:
            msg = play_to_moment(ws)
            moment = msg["moment"]
            assert moment["version"] == msg["version"] and moment["seconds"] == 30
            assert any(e["kind"] == "revealed" for e in msg["events"])
            if msg.get("asked"):  # people are never held: Bob moves, then it is the bot's turn
                action = {"type": "stop"}
                ws.send(json.dumps({"type": "act", "version": msg["version"], "action": action}))
                acted = msg["version"]
                # (the owner's announcement of the reveal may come after this page caught
                # up from the database: a second state of that version, then Bob's move)
                while msg["version"] <= acted:
                    msg = next_state(ws)
            assert msg["view"]["to_act"] == 1  # the bot's turn: the server's own step
            held = msg["version"]
            time.sleep(1.5)
            assert version(a, tid) == held, "the bot moved before Bob's page showed the reveal"
            ws.send(json.dumps({"type": "seen", "version": moment["version"]}))
            end = time.monotonic() + 10  # released at once, not after the moment's 30 s
            while version(a, tid) == held and time.monotonic() < end:
                time.sleep(0.1)
            assert version(a, tid) > held
        finally:
            ws.close()
