"""deploy/nginx.conf in front of two processes: the WebSocket upgrade works, any process
serves any request, a killed owner's pages carry on through the proxy, and 30 pages are
back within 2 s of every kill in kill -> restart -> kill -> restart (issue 44, item 6)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from gamenight.server.app import seat_cookie
from gamenight.server.db import Store
from gamenight.server.db import connect as db_connect
from tests.cluster.helpers import Node, Redis, create_table, join, nodes, start
from tests.cluster.play import ARNE, SETTINGS, Person, check_log, play
from tests.server.helpers import ROOT, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(work: Path, port: int, upstreams: list[int]) -> Path:
    """deploy/nginx.conf's server block with our ports, in a config nginx runs as is."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = site.replace("127.0.0.1:8101", f"127.0.0.1:{upstreams[0]}")
    site = site.replace("127.0.0.1:8102", f"127.0.0.1:{upstreams[1]}")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    path = work / "nginx.conf"
    path.write_text(
        f"pid {work}/nginx.pid; error_log {work}/nginx-error.log; daemon off;\n"
        "events {}\n"
        f'http {{ log_format up "$upstream_addr"; access_log {work}/nginx-access.log up;\n'
        f"client_body_temp_path {work}; proxy_temp_path {work};\n{site}\n}}\n"
    )
    return path


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (Debian package nginx)")
def test_two_processes_behind_nginx(pg_url: str, redis: Redis, work: Path) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        port = free_port()
        config = nginx_config(work, port, [a.port, b.port])
        check = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        proxy = subprocess.Popen([NGINX, "-c", str(config)])
        try:
            front = Node(pg_url, redis.url, work)
            front.port = port  # every request of the test goes through nginx
            for _ in range(50):
                if httpx.get(f"{front.url}/api/health").status_code == 200:
                    break
                time.sleep(0.1)
            body = {"game": "arne", "options": ARNE, "seats": ["open", "open", "easy"]}
            r = httpx.post(f"{front.url}/api/tables", json={**body, "settings": SETTINGS})
            tid, owner = r.json()["id"], r.cookies.get(f"gn_owner_{r.json()['id']}")
            tokens = [join(front, tid, 0, "Ann"), join(front, tid, 1, "Bob")]
            people = [Person(0, front, tid, tokens[0]), Person(1, front, tid, tokens[1])]
            r = httpx.post(
                f"{front.url}/api/tables/{tid}/start", cookies={f"gn_owner_{tid}": str(owner)}
            )
            assert r.status_code == 200, r.text
            play(people, until=lambda: bool(people[1].last and people[1].last["version"] > 30))
            (a if "owns it now" in a.log.read_text() else b).kill()  # the owner
            for p in people:
                p.move_to(front)  # the pages reconnect, through nginx, to the other one
            target = people[1].last["version"] + 40  # type: ignore[index]

            def moved_on() -> bool:
                return all(p.over or (p.last and p.last["version"] >= target) for p in people)

            play(people, until=moved_on)
            for p in people:  # let both pages see the same last version
                p.hold = lambda msg: True
            time.sleep(1.0)
            for p in people:
                p.poll(0.5)
            check_log(pg_url, tid, people, finished=all(p.over for p in people))
            used = set((work / "nginx-access.log").read_text().split())
            assert {f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"} <= used  # round robin
        finally:
            proxy.terminate()
            proxy.wait(10)


@contextlib.contextmanager
def nginx_in_front(work: Path, upstreams: list[int]) -> Iterator[int]:
    """nginx with deploy/nginx.conf in front of `upstreams`; yields its port."""
    port = free_port()
    config = nginx_config(work, port, upstreams)
    check = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proxy = subprocess.Popen([NGINX, "-c", str(config)])
    try:
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            time.sleep(0.05)
        yield port
    finally:
        proxy.terminate()
        proxy.wait(10)


class Page:
    """A table page's socket, through nginx, as common.js connect() keeps it: opened again
    300 ms after it closes, the wait growing by 1.6 up to 3 s, back to 300 ms once open.
    It records when each socket closed and when it first heard each version."""

    def __init__(self, url: str, tid: str, seat: int, token: str) -> None:
        self.url, self.tid, self.seat, self.token = url, tid, seat, token
        self.ws: ClientConnection | None = None
        self.socket = 0  # how many sockets this page has opened
        self.last: dict[str, Any] | None = None
        self.heard: list[tuple[float, int, int]] = []  # (when, socket, version) of states
        self.closed: list[float] = []  # when a socket closed (or failed to open)
        self.refused: list[str] = []  # the reasons of refusals heard
        self.opened: list[float] = []  # when each socket opened
        self.since = 0.0  # the last kill

    async def run(self) -> None:
        delay = 0.3
        headers = {"Cookie": f"{seat_cookie(self.tid)}={self.token}"}
        while True:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    ws = await connect(self.url, additional_headers=headers, open_timeout=5)
            except (OSError, TimeoutError, Exception) as err:  # a 502, a refused connect
                if isinstance(err, asyncio.CancelledError):
                    raise
                self.closed.append(time.monotonic())
                await asyncio.sleep(delay)
                delay = min(delay * 1.6, 3.0)
                continue
            delay = 0.3
            self.socket += 1
            self.opened.append(time.monotonic())
            self.ws = ws
            with contextlib.suppress(Exception):
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "state" and "view" in msg:
                        self.last = msg
                        self.heard.append((time.monotonic(), self.socket, msg["version"]))
                    elif msg.get("type") == "refused":
                        self.refused.append(str(msg.get("reason")))
            self.ws = None
            self.closed.append(time.monotonic())
            await asyncio.sleep(delay)
            delay = min(delay * 1.6, 3.0)

    def synced(self, version: int) -> bool:
        """Open, and told `version` (or later) on the socket open now."""
        return self.ws is not None and any(
            s == self.socket and v >= version for _, s, v in self.heard
        )

    def back_after(self, since: float, version: int) -> float | None:
        """Seconds from `since` until this page, if its socket closed after `since`, heard
        `version` on the socket open now (0.0 if it never lost its socket; None: not
        back)."""
        if not self.synced(version):
            return None
        if not any(t > since for t in self.closed):
            return 0.0
        return min(t for t, s, v in self.heard if s == self.socket and v >= version) - since

    def told(self, since: float) -> str:
        """What this page went through after `since`, for a failure's message."""
        opened = [round(t - since, 2) for t in self.opened if t > since]
        heard = [(round(t - since, 2), v) for t, _, v in self.heard if t > since]
        return f"{self.tid} seat {self.seat}: opened {opened}, heard {heard}, {self.refused}"


def stored_versions(db: str, tids: list[str]) -> dict[str, int]:
    engine = db_connect(db)
    try:
        store = Store(engine)
        return {tid: store.table(tid).version for tid in tids}  # type: ignore[union-attr]
    finally:
        engine.dispose()


async def everyone_acts(pages: list[Page], db: str, tids: list[str], timeout: float) -> None:
    """The asked page of every table acts once; every page then hears the new version
    (through whichever process it is on, the table's owner or not)."""
    before = stored_versions(db, tids)
    end = time.monotonic() + timeout
    while not all(p.synced(before[p.tid]) for p in pages) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    for page in pages:
        msg = page.last
        if page.ws is None or msg is None or not msg.get("asked") or not msg.get("actions"):
            continue
        act = {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
        with contextlib.suppress(Exception):
            await page.ws.send(json.dumps(act))
    while time.monotonic() < end:
        if all(p.synced(before[p.tid] + 1) for p in pages):
            return
        await asyncio.sleep(0.05)
    behind = [(p.tid, p.seat, p.last and p.last["version"], p.refused) for p in pages]
    raise AssertionError(f"not every table moved on from {before}: {behind}")


async def kill_and_measure(
    victim: Node, pages: list[Page], db: str, tids: list[str], within: float
) -> list[float]:
    """kill -9 `victim`; every page's seconds until it is back on a socket and re-synced to
    its table's stored version. Waits at most `within` + 3 s (for a figure when it fails)."""
    want = stored_versions(db, tids)
    assert all(p.synced(want[p.tid]) for p in pages), "not every page was in sync"
    kill = time.monotonic()
    victim.kill()
    for p in pages:
        p.since = kill
    end = kill + within + 3.0
    while time.monotonic() < end:
        await asyncio.sleep(0.05)
        if time.monotonic() - kill > 0.5 and all(p.synced(want[p.tid]) for p in pages):
            break
    return [
        b if (b := p.back_after(kill, want[p.tid])) is not None else float("inf") for p in pages
    ]


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx (Debian package nginx)")
def test_pages_are_back_within_2_s_of_every_kill_behind_nginx(
    pg_url: str, redis: Redis, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 one process, restart it, kill -9 the other, restart it: 30 pages (15
    tables of two people) are back, re-synced, within 2 s each time. The first two kills
    are the issue's finding: with max_fails=1 the restarted process, having served only
    WebSockets (which count as a success only when they close), stayed "down" for nginx,
    which let one socket through per fail_timeout: 30 pages not back after 90 s."""
    monkeypatch.setenv("GAMENIGHT_SOCKETS_PER_ADDRESS", "200")  # every page is 127.0.0.1
    within = 2.0
    with (
        nodes(pg_url, redis.url, work, 2) as (a, b),
        nginx_in_front(work, [a.port, b.port]) as port,
    ):
        tids: list[str] = []
        pages: list[Page] = []
        for i in range(15):
            node = (a, b)[i % 2]
            tid, owner = create_table(node, "drop-or-stop", {"players": 2}, ["open", "open"], {})
            tokens = [join(node, tid, 0, "Ann"), join(node, tid, 1, "Bob")]
            start(node, tid, owner)
            tids.append(tid)
            url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
            pages += [Page(url, tid, seat, tokens[seat]) for seat in (0, 1)]
        figures: list[tuple[str, list[float]]] = []

        async def scenario() -> None:
            tasks = [asyncio.create_task(p.run()) for p in pages]
            try:
                await everyone_acts(pages, pg_url, tids, timeout=15)
                for victim, name in ((a, "a"), (b, "b"), (a, "a again"), (b, "b again")):
                    backs = await kill_and_measure(victim, pages, pg_url, tids, within)
                    figures.append((f"kill {name}", backs))
                    late = [
                        p.told(p.since) for p, x in zip(pages, backs, strict=True) if x > within
                    ]
                    assert not late, (
                        f"kill {name}: {len(late)} of 30 pages not back in {within} s:\n"
                        + "\n".join(late)
                    )
                    victim.launch()
                    await asyncio.to_thread(victim.wait_ready)
                    # the table plays on: the lease of the dead owner's tables runs out
                    await everyone_acts(pages, pg_url, tids, timeout=20)
            finally:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(scenario())
        for name, backs in figures:
            moved = [x for x in backs if x > 0]
            print(
                f"{name}: {len(moved)} of {len(backs)} pages reconnected; back after"
                f" median {statistics.median(moved):.2f} s, max {max(backs):.2f} s"
            )
        assert len(figures) == 4
        # after the first kill every page is on the survivor: the next kill moves all 30
        assert all(len([x for x in backs if x > 0]) == 30 for _, backs in figures[1:])
