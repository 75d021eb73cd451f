"""The bot API across processes (issue 48, item 2): a program listens on one process and is
challenged through another; it hears the challenge and takes its seat. Before, a challenge
reached only a program listening on the process that took it ("not listening now")."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.helpers import Node, Redis, create_table, nodes


def program(node: Node, name: str) -> dict[str, str]:
    """A new bot account's Authorization header, made through `node`."""
    with httpx.Client(base_url=node.url) as person:
        r = person.post("/api/accounts", json={"name": name, "password": "quiet-lantern-47"})
        assert r.status_code == 201, r.text
        token = person.post("/api/account/tokens").json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.post(f"{node.url}/api/bot/account/upgrade", headers=auth).json()["bot"]
    return auth


def listen(node: Node, auth: dict[str, str], heard: list[dict[str, Any]]) -> threading.Event:
    """The program's event stream on `node`, read in a thread into `heard`."""
    stop = threading.Event()

    def read() -> None:
        with httpx.stream("GET", f"{node.url}/api/bot/stream", headers=auth, timeout=30) as r:
            for line in r.iter_lines():
                if line.strip():
                    heard.append(json.loads(line))
                if stop.is_set():
                    return

    threading.Thread(target=read, daemon=True).start()
    end = time.monotonic() + 10
    while not heard and time.monotonic() < end:
        time.sleep(0.05)
    assert heard and heard[0]["type"] == "hello"
    return stop


def test_a_challenge_reaches_a_program_listening_on_another_process(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        auth = program(a, "Robo")
        settings = {"bot_delay": 0, "outside_bots": True}
        tid, owner = create_table(a, "drop-or-stop", {"players": 2}, ["open", "open"], settings)
        ask = {"bot": "Robo"}
        cookies = {f"gn_owner_{tid}": owner}
        r = httpx.post(f"{a.url}/api/tables/{tid}/challenge", json=ask, cookies=cookies)
        assert (
            r.status_code == 409
            and r.json()["error"] == "Robo is not listening now; try again later"
        )
        heard: list[dict[str, Any]] = []
        stop = listen(b, auth, heard)  # on b; the owner asks through a
        try:
            r = httpx.post(f"{a.url}/api/tables/{tid}/challenge", json=ask, cookies=cookies)
            assert r.status_code == 200, r.text
            end = time.monotonic() + 10
            while len(heard) < 2 and time.monotonic() < end:
                time.sleep(0.05)
            challenge = heard[1]
            assert challenge == {
                "type": "challenge",
                "table": tid,
                "game": "drop-or-stop",
                "seats": [0, 1],
            }
            r = httpx.post(f"{b.url}/api/bot/tables/{tid}/join", json={"seat": 1}, headers=auth)
            assert r.status_code == 200, r.text
            seats = httpx.get(f"{a.url}/api/tables/{tid}").json()["seats"]
            assert seats[1]["kind"] == "person" and seats[1]["name"] == "Robo"
        finally:
            stop.set()
