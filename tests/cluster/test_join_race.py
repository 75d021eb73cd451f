"""The join race behind round robin (issue 44, item 6): table.js opens the table's socket
right after its join; through nginx the join lands on one process and the socket on the
other, possibly before that one heard of the join. The person must be seated all the
same (their socket's first state says their seat), never shown the table as a watcher
(2 of 20 tries were, before the fix)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gamenight.server.app import seat_cookie
from tests.cluster.helpers import Redis, create_table, nodes
from tests.cluster.test_deploy import NGINX, nginx_in_front
from tests.server.helpers import ws_open

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TRIES = 50


def first_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if msg.get("type") == "state":
            return msg


def last_upstream(work: Path) -> str:
    return (work / "nginx-access.log").read_text().split()[-1]


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (Debian package nginx)")
def test_a_person_who_joins_is_seated_on_whichever_process_their_socket_lands(
    pg_url: str, redis: Redis, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMENIGHT_TABLES_PER_MINUTE", "1000")  # 50 tables from one address
    with (
        nodes(pg_url, redis.url, work, 2) as (a, b),
        nginx_in_front(work, [a.port, b.port]) as port,
    ):
        front = f"127.0.0.1:{port}"
        failures: list[str] = []
        for i in range(TRIES):
            node = (a, b)[i % 2]
            tid, _owner = create_table(node, "drop-or-stop", {"players": 2}, ["open", "open"], {})
            # the creator's page is open on both processes (a watcher here): each has the
            # table live, with its seats as they were before the join
            watchers = [ws_open(n, tid, "not-a-seat") for n in (a, b)]
            try:
                for w in watchers:
                    first_state(w)
                seat = i % 2
                # the raced case: the join lands on the table's owner (its creator), which
                # stores it and answers at once; the socket on the other process, which has
                # yet to hear of it (nginx's log says where the last request went)
                for _ in range(4):
                    httpx.get(f"http://{front}/api/health")
                    if last_upstream(work) != f"127.0.0.1:{node.port}":
                        break
                r = httpx.post(
                    f"http://{front}/api/tables/{tid}/join", json={"seat": seat, "name": "Ann"}
                )
                assert r.status_code == 200, r.text
                token = r.cookies.get(seat_cookie(tid))
                with warnings.catch_warnings():  # at once, as table.js does
                    warnings.simplefilter("ignore", DeprecationWarning)
                    ws = connect(
                        f"ws://{front}/ws/tables/{tid}",
                        additional_headers={"Cookie": f"{seat_cookie(tid)}={token}"},
                        open_timeout=10,
                    )
                try:
                    got = first_state(ws).get("seat")
                finally:
                    ws.close()
                if got != seat:
                    failures.append(f"try {i}: table {tid} seat {seat}: the socket said {got}")
            finally:
                for w in watchers:
                    w.close()
        used = set((work / "nginx-access.log").read_text().split())
        assert {f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"} <= used  # round robin
        assert not failures, f"{len(failures)} of {TRIES} not seated:\n" + "\n".join(failures)
