"""Helpers for the server tests: free ports, a real server process, a throwaway PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import httpx
from websockets.sync.client import ClientConnection, connect

from gamenight.server.app import seat_cookie

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = ROOT / "out" / "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`gamenight serve` in its own process, on a free loopback port (the cluster tests'
    Node is one with --redis)."""

    ready_timeout = 30.0

    def __init__(self, db: str, data: Path, port: int | None = None) -> None:
        self.db = db
        self.data = data
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data / f"{self.log_name}-{self.port}.log"

    log_name = "server"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        code = (
            "from gamenight.server.app import serve; "
            f"serve(host='127.0.0.1', port={self.port}, db={self.db!r})"
        )
        return [sys.executable, "-c", code]

    def env(self) -> dict[str, str]:
        return {**os.environ, "GAMENIGHT_DATA": str(self.data)}

    def start(self, timeout: float | None = None) -> Self:
        return self.launch().wait_ready(timeout)

    def launch(self) -> Self:
        """Start the process without waiting for it to serve."""
        self.data.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                self.command(),
                env=self.env(),
                stdout=log,
                stderr=log,
                cwd=str(ROOT),
                start_new_session=True,  # its worker pool and forkserver share its group
            )
        return self

    def wait_ready(self, timeout: float | None = None) -> Self:
        assert self.proc is not None
        deadline = time.time() + (timeout or self.ready_timeout)
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL to the server and its worker processes: no clean shutdown, as in a crash
        of its machine (a killed server alone would leave its workers running)."""
        if self.proc is not None and self.proc.poll() is None:
            self._kill_group()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._kill_group()  # whatever of its process group outlived it

    def _kill_group(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)


def pg_tools() -> Path | None:
    """The directory of initdb/pg_ctl/postgres, or None."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / "pg_ctl").exists():
            return base
    return None


@contextlib.contextmanager
def postgres_cluster(workdir: Path) -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port; yields its SQLAlchemy URL.

    initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
    """
    tools = pg_tools()
    if tools is None:
        raise FileNotFoundError("no pg_ctl: install PostgreSQL (Debian package postgresql)")
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    pgdata = workdir / "pgdata"
    sockdir = workdir / "sock"
    sockdir.mkdir(exist_ok=True)
    as_root = os.geteuid() == 0
    if as_root:
        shutil.chown(workdir, "postgres")
        shutil.chown(sockdir, "postgres")
        workdir.chmod(0o755)
        for parent in workdir.parents:  # the postgres user must reach the directory
            if parent == Path("/"):
                break
            with contextlib.suppress(OSError):
                parent.chmod(parent.stat().st_mode | 0o011)

    def run(*args: Any) -> None:
        cmd = [str(a) for a in args]
        if as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    run(tools / "initdb", "-D", pgdata, "-U", "gamenight", "--auth=trust", "-E", "UTF8")
    run(
        tools / "pg_ctl",
        "-D",
        pgdata,
        "-l",
        workdir / "pg.log",
        "-w",
        "-o",
        f"-p {port} -h 127.0.0.1 -k {sockdir} -F",
        "start",
    )
    try:
        run(
            tools / "createdb" if (tools / "createdb").exists() else "createdb",
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-U",
            "gamenight",
            "gamenight",
        )
        yield f"postgresql+psycopg://gamenight@127.0.0.1:{port}/gamenight"
    finally:
        with contextlib.suppress(Exception):
            run(tools / "pg_ctl", "-D", pgdata, "-m", "immediate", "-w", "stop")


def wait_js(page: Any, expression: str, timeout: float = 30000) -> None:
    """Wait until `expression` is true in the page. (Playwright's wait_for_function builds
    its predicate with eval, which the server's CSP, without 'unsafe-eval', forbids.)"""
    deadline = time.time() + timeout / 1000
    while not page.evaluate(expression):
        if time.time() > deadline:
            raise TimeoutError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def shot_of(page: Any, selector: str, path: str) -> None:
    """A screenshot of the part of the page where `selector` is. Not the element's own
    screenshot: a state message may re-render the element while Playwright waits for it to
    be stable, and it then fails with "not attached to the DOM" (seen in CI). Scrolled to and
    measured in one step of the page's script: measured apart, a re-render between the two
    replaced the element and Playwright measured the detached one ("not visible", CI)."""
    page.wait_for_selector(selector)
    box = page.evaluate(
        """s => {
            const e = document.querySelector(s);
            e.scrollIntoView({block: 'start'});
            const r = e.getBoundingClientRect();
            return r.width && r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
        }""",
        selector,
    )
    assert box is not None, f"{selector} is not visible"
    page.screenshot(path=path, clip=box)


def ws_open(server: Server, tid: str, token: str, tries: int = 100) -> ClientConnection:
    """The table's WebSocket with a seat's token, retried while the server (re)starts."""
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{tid}"
    for _ in range(tries):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return connect(
                    url,
                    additional_headers={"Cookie": f"{seat_cookie(tid)}={token}"},
                    open_timeout=5,
                )
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"could not connect to table {tid}")
