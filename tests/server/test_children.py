"""No child process outlives its server (issue 44, item 6): a server killed with kill -9
left its worker processes running (14 of 18 kills). Each worker now dies with it
(workers.die_with: PR_SET_PDEATHSIG on Linux, a watchdog thread elsewhere)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection

from gamenight.server import workers
from gamenight.server.app import seat_cookie
from tests.server.helpers import Server, ws_open

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def group(pgid: int) -> dict[int, tuple[int, str]]:
    """The live (not zombie) processes of process group `pgid`: pid -> (parent, command)."""
    found: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        if int(fields[2]) == pgid and fields[0] != "Z":
            found[int(entry.name)] = (int(fields[1]), cmdline.strip())
    return found


def test_a_killed_servers_workers_die_with_it(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path).start()
    assert server.proc is not None
    pid = server.proc.pid  # its own process group (start_new_session): every child is in it
    try:
        body = {"game": "drop-it", "options": {"players": 2}, "seats": ["open", "medium"]}
        r = httpx.post(f"{server.url}/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        owner = {f"gn_owner_{tid}": str(r.cookies.get(f"gn_owner_{tid}"))}
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"seat": 0, "name": "Ann"})
        token = str(r.cookies.get(seat_cookie(tid)))
        assert r.status_code == 200, r.text
        r = httpx.post(f"{server.url}/api/tables/{tid}/start", cookies=owner)
        assert r.status_code == 200, r.text
        # a Drop It table with a thinking bot starts the worker pool: wait for its workers
        end = time.monotonic() + 30
        while time.monotonic() < end:
            forked = [p for p, (parent, _) in group(pid).items() if parent not in (1, pid)]
            if forked:  # a worker: a child of the forkserver, not of the server
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"no worker process started: {group(pid)}")
        # and they work: Ann's drop (the physics) and the bot's answer run in them; then
        # they wait for the next job, as most of a game's time (a worker still starting
        # may exit on its own when its server goes, one waiting for work did not)
        ws = ws_open(server, tid, token)
        try:
            drop_and_wait_for_the_bot(ws)
        finally:
            ws.close()
        server.proc.send_signal(signal.SIGKILL)  # the server alone, as `kill -9 PID` does
        server.proc.wait(10)
        end = time.monotonic() + 5
        while group(pid) and time.monotonic() < end:
            time.sleep(0.1)
        left = group(pid)
        assert not left, f"outlived their server by 5 s: {left}"
        print(f"every child gone {time.monotonic() - (end - 5):.2f} s after the kill")
    finally:
        server.stop()  # kills whatever of the group is left


def drop_and_wait_for_the_bot(ws: ClientConnection, seconds: float = 60) -> None:
    """Ann drops a piece when asked, until the bot has moved after her."""
    end = time.monotonic() + seconds
    dropped = None
    while time.monotonic() < end:
        msg = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if msg.get("type") != "state" or "view" not in msg:
            continue
        if dropped is not None and msg["version"] >= dropped + 2:
            return  # her drop, then the bot's
        if msg.get("asked") and dropped is None:
            view = msg["view"]
            piece = view["sides"][view["side"]]["supply"][0]
            action = {"type": "drop", "piece": piece, "x": 120.0, "angle": 0.0}
            ws.send(json.dumps({"type": "act", "version": msg["version"], "action": action}))
            dropped = msg["version"]
    raise AssertionError("the bot did not move after Ann's drop")


def test_a_worker_whose_server_is_gone_exits_at_once(tmp_path: Path) -> None:
    """The race before prctl: a server that died before its worker asked exits it."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    code = f"from gamenight.server import workers; workers.die_with({gone.pid}); print('ran on')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 1 and "ran on" not in out.stdout


def test_without_prctl_the_watchdog_ends_the_orphan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where prctl is missing, the watchdog thread notices the server is gone (1 s)."""
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    code = (
        "import time; from gamenight.server import workers\n"
        "workers._pdeathsig = lambda sig: False\n"
        f"workers.die_with({server.pid})\n"
        "print('watching', flush=True); time.sleep(60)"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "watching"
        server.kill()
        server.wait()
        assert child.wait(5) == 1
    finally:
        for p in (server, child):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_the_pool_initializer_asks_for_the_signal() -> None:
    """On Linux the kernel does it: PR_SET_PDEATHSIG is set in a worker of the pool."""
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    pool = workers.make_pool("process", 1)
    try:
        assert pool.submit(_deathsig).result(60) == signal.SIGKILL
        assert pool.submit(os.getppid).result(10) != os.getpid()  # the forkserver's child
    finally:
        pool.shutdown()


def _deathsig() -> int:
    import ctypes

    value = ctypes.c_int(0)
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(2, ctypes.byref(value), 0, 0, 0) == 0  # PR_GET_PDEATHSIG
    return value.value
