"""Helpers for the cluster tests: throwaway Redis, `gamenight serve --redis` processes,
WebSocket seats that play what they are asked."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from gamenight.server.app import seat_cookie
from tests.server.helpers import Server, free_port

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def have_redis() -> bool:
    return Path(REDIS).exists()


class Redis:
    """A throwaway redis-server on a free loopback port, no disk, restartable."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.workdir.mkdir(parents=True, exist_ok=True)
        args = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.workdir)]
        with open(self.workdir / "redis.log", "ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=log)
        deadline = time.time() + 10
        while time.time() < deadline:
            with contextlib.suppress(OSError):
                import socket

                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


class Node(Server):
    """`gamenight serve --db ... --redis ...` in its own process on a free port."""

    ready_timeout = 60.0
    log_name = "node"

    def __init__(self, db: str, redis: str, data: Path, lease: float = 2.0) -> None:
        super().__init__(db, data)
        self.redis, self.lease = redis, lease

    def command(self) -> list[str]:
        cmd = [sys.executable, "-c", "from gamenight.cli import main; main()", "serve"]
        return [*cmd, "--port", str(self.port), "--db", self.db, "--redis", self.redis]

    def env(self) -> dict[str, str]:
        return {**super().env(), "GAMENIGHT_LEASE_SECONDS": str(self.lease)}


@contextlib.contextmanager
def nodes(db: str, redis: str, data: Path, n: int, lease: float = 2.0) -> Iterator[list[Node]]:
    started: list[Node] = []
    try:
        for _ in range(n):  # all at once: the first migration waits for the others' lock
            started.append(Node(db, redis, data, lease).launch())
        for node in started:
            node.wait_ready()
        yield started
    finally:
        for node in started:
            node.stop()


def create_table(
    node: Node, game: str, options: dict[str, Any], seats: list[str], settings: dict[str, Any]
) -> tuple[str, str]:
    """A new table (created on `node`); returns its id and the creator's cookie jar value."""
    r = httpx.post(
        f"{node.url}/api/tables",
        json={
            "game": game,
            "options": options,
            "seats": seats,
            "settings": settings,
            "seed": 7,
            "practice": True,
        },
    )
    assert r.status_code == 201, r.text
    owner = r.cookies.get(f"gn_owner_{r.json()['id']}")
    return r.json()["id"], str(owner)


def join(node: Node, tid: str, seat: int, name: str) -> str:
    r = httpx.post(f"{node.url}/api/tables/{tid}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    token = r.cookies.get(seat_cookie(tid))
    assert token
    return str(token)


def start(node: Node, tid: str, owner: str) -> None:
    r = httpx.post(f"{node.url}/api/tables/{tid}/start", cookies={f"gn_owner_{tid}": owner})
    assert r.status_code == 200, r.text
