"""A turn clock survives a restart (issue 14, item 1): the bank and the turn's start are
stored with the table, so the restarted server runs the same clock out."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.server.helpers import Server


def test_a_running_clock_is_rebuilt_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'gn.sqlite3'}"
    server = Server(db, tmp_path).start()
    try:
        with httpx.Client(base_url=server.url) as ann, httpx.Client(base_url=server.url) as bob:
            settings = {"clock": "normal", "clock_bank": 4, "clock_add": 1, "grace_seconds": 0}
            body = {"game": "drop-or-stop", "options": {"players": 2}, "seats": ["open"] * 2}
            r = ann.post(
                "/api/tables", json={**body, "settings": settings, "name": "Ann", "sit": 0}
            )
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            assert bob.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Bob"}).is_success
            assert ann.post(f"/api/tables/{tid}/start").is_success
            started = ann.get(f"/api/tables/{tid}").json()["settings"]["clock_turn"]
            assert started is not None  # stored: [seat, when]
            server.kill()
            server = Server(db, tmp_path, port=server.port).start()
            deadline = time.time() + 20
            info = ann.get(f"/api/tables/{tid}").json()
            while info["version"] < 1 and time.time() < deadline:
                time.sleep(0.2)
                info = ann.get(f"/api/tables/{tid}").json()
            print("after the restart:", info["settings"]["notes"], info["settings"]["clock_banks"])
            assert info["version"] >= 1
            assert info["settings"]["notes"][0].endswith(
                "time ran out: a bot made this move for them."
            )
            # The stored clock was kept, not restarted: it ran out about 4 s after the start.
            assert time.time() - float(started[1]) < 15
    finally:
        server.stop()
