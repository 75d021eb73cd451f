"""Health and load (issue 44, item 7): liveness and readiness that tell the truth, the
Prometheus metrics, and admission control past capacity. The outages of PostgreSQL and
Redis under a cluster are in tests/cluster/test_ready.py; here one process, on SQLite, and
on a PostgreSQL that is stopped under it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gamenight.server.app import create_app
from tests.server.conftest import (
    TEST_RATES,
    cookie,
    hub_of,
    new_table,
    receive_state,
    two_people,
    wait_for,
)
from tests.server.helpers import Server, pg_tools, postgres_cluster

FULL = "the server is full right now; try again in a few minutes"


def sample(text: str, name: str, labels: str = "") -> float:
    """The value of one sample of a Prometheus text exposition."""
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name}{labels} not in /metrics:\n{text}"
    return float(found.group(1))


def play(client: TestClient, moves: int) -> str:
    """A table of two people, and `moves` of their actions accepted; its id."""
    tid, ann, bob = two_people(client)
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as a,
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)) as b,
    ):
        socks = {0: a, 1: b}
        states = {0: receive_state(a), 1: receive_state(b)}
        for _ in range(moves):
            seat = next(s for s, m in states.items() if m.get("asked"))
            msg = states[seat]
            socks[seat].send_json(
                {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
            )
            version = msg["version"] + 1
            states = {s: receive_state(socks[s], version) for s in socks}
    return tid


def test_ready_names_each_check(client: TestClient) -> None:
    r = client.get("/api/ready")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ready"] is True
    assert body["checks"] == {"database": "ok", "workers": "ok"}  # no Redis, no leases here
    assert client.get("/api/health").text == "ok"


def test_a_broken_pool_is_alive_but_not_ready(client: TestClient) -> None:
    """Liveness stays 200 (restarting the process would not help: the sweep replaces the
    pool); readiness says what is wrong, in one line, with 503."""
    pool = hub_of(client).pool
    pool.executor._broken = "a worker died"  # what a killed worker process leaves behind
    try:
        health = client.get("/api/health")
        assert health.status_code == 200 and health.text.startswith("ok")
        r = client.get("/api/ready")
        assert r.status_code == 503
        assert r.json()["ready"] is False
        assert "broken" in r.json()["checks"]["workers"]
        assert r.json()["checks"]["database"] == "ok"
    finally:
        pool.executor._broken = False
    assert client.get("/api/ready").status_code == 200


def test_metrics_are_prometheus_text_with_the_act_latency(client: TestClient) -> None:
    play(client, 6)
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert sample(text, "gamenight_live_tables", '{status="running"}') == 1
    assert sample(text, "gamenight_open_sockets") == 0  # both pages closed
    assert sample(text, "gamenight_actions_accepted_total") == 6
    assert sample(text, "gamenight_act_seconds_count") == 6
    assert sample(text, "gamenight_act_seconds_bucket", '{le="+Inf"}') == 6
    assert sample(text, "gamenight_worker_pool_restarts_total") == 0
    assert sample(text, "gamenight_budget", '{count="people_waiting"}') == 0
    # each accepted action is observed once, however often Prometheus scrapes
    assert sample(client.get("/metrics").text, "gamenight_act_seconds_count") == 6
    assert "gamenight_leases_held" not in text  # one process: no leases


def test_open_sockets_are_counted(client: TestClient) -> None:
    tid = new_table(client)["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive_state(ws)
        assert sample(client.get("/metrics").text, "gamenight_open_sockets") == 1


def test_two_apps_in_one_process_have_their_own_metrics(tmp_path: Path) -> None:
    """A registry per app: the global one would refuse the second app's metrics."""
    apps = [
        create_app(f"sqlite:///{tmp_path / f'{i}.sqlite3'}", pool="thread", rates=TEST_RATES)
        for i in range(2)
    ]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        new_table(one)
        assert sample(one.get("/metrics").text, "gamenight_live_tables", '{status="open"}') == 1
        assert sample(two.get("/metrics").text, "gamenight_live_tables", '{status="open"}') == 0


# -- admission control ------------------------------------------------------------------


def full_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> TestClient:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    app = create_app(f"sqlite:///{tmp_path / 'full.sqlite3'}", pool="thread", rates=TEST_RATES)
    return TestClient(app)


def test_past_the_table_cap_new_tables_and_watchers_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with full_client(tmp_path, monkeypatch, GAMENIGHT_MAX_TABLES="1") as client:
        tid, ann, _bob = two_people(client)  # the one live table
        r = client.post("/api/tables", json=NEW)
        assert r.status_code == 503
        assert r.json() == {"error": FULL}
        # a watcher's new socket: 1013 "try again later", with the reason
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/tables/{tid}") as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 1013
        assert closed.value.reason == FULL
        # the players of the live table still come in and play
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as a:
            msg = receive_state(a)
            assert msg["type"] == "state" and msg["seat"] == 0
        ready = client.get("/api/ready").json()
        assert ready["ready"] is True  # full is not unready: live tables are served
        assert "GAMENIGHT_MAX_TABLES=1" in ready["load"]["full"]


def test_a_lagging_event_loop_refuses_new_tables_then_admits_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The measured capacity: the loop busy 60 ms at a time (more tables' work than the
    machine does) closes the door; once it is calm again the door opens."""
    with full_client(tmp_path, monkeypatch, GAMENIGHT_MAX_LAG_MS="25") as client:
        client.get("/api/health")  # the lag samples start
        assert client.post("/api/tables", json=NEW).status_code == 201

        async def hog(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                busy = time.monotonic() + 0.06  # the loop works 60 ms at a time
                while time.monotonic() < busy:
                    pass
                await asyncio.sleep(0)

        portal: Any = client.portal  # type: ignore[attr-defined]
        hogging = portal.start_task_soon(hog, 3.0)
        time.sleep(2.0)
        r = client.post("/api/tables", json=NEW)
        assert r.status_code == 503 and r.json() == {"error": FULL}
        assert "event loop lag" in client.get("/api/ready").json()["load"]["full"]
        hogging.result(10)
        wait_for(lambda: client.post("/api/tables", json=NEW).status_code == 201, 10.0)


def test_a_loop_late_for_lack_of_a_core_still_admits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A late loop in a process that is not busy (neighbours hold the cores; here the loop
    sleeps, as a descheduled process does) is no reason to refuse: the lobby of an idle
    server on a loaded machine was refused before this rule."""
    with full_client(tmp_path, monkeypatch, GAMENIGHT_MAX_LAG_MS="25") as client:
        client.get("/api/health")

        async def descheduled(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                time.sleep(0.06)  # late, without using the CPU
                await asyncio.sleep(0)

        portal: Any = client.portal  # type: ignore[attr-defined]
        waiting = portal.start_task_soon(descheduled, 3.0)
        time.sleep(2.0)
        load = client.get("/api/ready").json()["load"]
        assert load["lag_ms"] > 25 and load["full"] is None, load
        assert client.post("/api/tables", json=NEW).status_code == 201
        waiting.result(10)


NEW = {"game": "drop-or-stop", "seats": ["open", "open"], "options": {"players": 2}}


# -- one process on PostgreSQL: the database stopped under it -----------------------------


class PG:
    """A throwaway PostgreSQL (tests.server.helpers.postgres_cluster) that can be stopped
    and started again on the same port: a real outage."""

    def __init__(self, workdir: Path, url: str) -> None:
        self.workdir, self.url = workdir, url
        self.port = int(url.rsplit(":", 1)[1].split("/")[0])

    def _pg_ctl(self, *args: str) -> None:
        tools = pg_tools()
        assert tools is not None
        cmd = [str(tools / "pg_ctl"), "-D", str(self.workdir / "pgdata"), *args]
        if os.geteuid() == 0:  # the cluster belongs to the postgres user (see the helper)
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def stop(self) -> None:
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def start(self) -> None:
        options = f"-p {self.port} -h 127.0.0.1 -k {self.workdir / 'sock'} -F"
        self._pg_ctl("-l", str(self.workdir / "pg.log"), "-w", "-o", options, "start")


@contextlib.contextmanager
def restartable_pg() -> Iterator[PG]:
    """In a directory of its own, not pytest's tmp_path (see tests/cluster/conftest.py)."""
    if pg_tools() is None:
        pytest.skip("no PostgreSQL binaries (Debian package postgresql)")
    path = Path(tempfile.mkdtemp(prefix="gamenight-ready-pg-"))
    try:
        with postgres_cluster(path / "pg") as url:
            yield PG(path / "pg", url)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def get(url: str) -> httpx.Response | None:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(url, timeout=5)
    return None


def ready_again(base: str, seconds: float = 30.0) -> None:
    def back() -> bool:
        r = get(f"{base}/api/ready")
        return r is not None and r.status_code == 200

    wait_for(back, seconds)


def test_ready_says_so_when_postgresql_is_down(tmp_path: Path) -> None:
    """The bug of issue 44: /api/health said "ok" with PostgreSQL down. /api/health is
    liveness (the process answers: 200); /api/ready says the database is unreachable, and
    is 200 again once PostgreSQL is back."""
    with restartable_pg() as pg:
        server = Server(pg.url, tmp_path / "data").start()
        try:
            ready_again(server.url, 10)
            pg.stop()
            r = httpx.get(f"{server.url}/api/ready", timeout=10)
            assert r.status_code == 503, r.text
            assert r.json()["ready"] is False
            assert r.json()["checks"]["database"].startswith("unreachable"), r.text
            assert r.json()["checks"]["workers"] == "ok"
            assert httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200
            pg.start()
            ready_again(server.url)
        finally:
            server.stop()
