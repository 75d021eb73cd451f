"""Golden transcripts of the server (issue 44, item 8): scripted tables, every message each
page received, normalised (ids, clocks and timestamps replaced), so that moving the
server's code around can be checked to change nothing a page sees.

`python -m tests.server.transcripts` records them into tests/golden/transcripts.json;
tests/server/test_transcripts.py plays them again and compares.

Each script is sequential: a person acts only when the server asks them, and every page
reads until the table has settled at a known version (a ping's pong closes what was sent
before it), so the order of each page's messages does not depend on timing.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamenight.server.app import create_app, seat_cookie
from tests.server.conftest import TEST_RATES

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "transcripts.json"
DROPPED = {"now", "at", "t", "ended", "created", "updated"}  # clocks: not behaviour
TIMES = {"deadline", "bot_at", "until"}  # a time that is set or not


def normalise(msg: Any, ids: dict[str, str]) -> Any:
    if isinstance(msg, dict):
        out = {}
        for key, value in sorted(msg.items()):
            if key in DROPPED:
                continue
            if key in TIMES:
                out[key] = value is not None
            elif key == "seconds" and isinstance(value, float):
                out[key] = round(value)
            else:
                out[key] = normalise(value, ids)
        return out
    if isinstance(msg, list):
        return [normalise(v, ids) for v in msg]
    if isinstance(msg, str):
        for real, alias in ids.items():
            msg = msg.replace(real, alias)
        return msg
    return msg


class Page:
    """One browser page's socket at a table, recording what it is sent."""

    def __init__(self, stack: ExitStack, client: TestClient, tid: str, token: str | None) -> None:
        headers = {"cookie": f"{seat_cookie(tid)}={token}"} if token else {}
        self.ws = stack.enter_context(
            client.websocket_connect(f"/ws/tables/{tid}", headers=headers)
        )
        self.got: list[Any] = []
        self.last: dict[str, Any] = {}

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def settle(self) -> None:
        """Read everything sent so far (a ping's pong comes after it)."""
        self.ws.send_json({"type": "ping", "t": 0})
        while True:
            msg = self.ws.receive_json()
            if msg["type"] == "pong":
                return
            self.got.append(msg)
            if msg["type"] == "state":
                self.last = msg
                if "moment" in msg:  # as a page does once it has shown the round's end
                    self.ws.send_json({"type": "seen", "version": msg["version"]})


class Script:
    """A table driven by people's pages; the hub says when the table has settled."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.client = client
        self.stack = stack
        self.pages: dict[str, Page] = {}
        self.ids: dict[str, str] = {}

    def hub(self) -> Any:
        return self.client.app.state.holder["hub"]  # type: ignore[attr-defined]

    def create(self, game: str, seats: list[str], options: dict[str, Any], **extra: Any) -> str:
        body = {"game": game, "seats": seats, "options": options, "seed": 11, "practice": True}
        # no timer may run out while a scripted page reads (a loaded machine is slow):
        # the longest reaction countdown, no turn timer, no pause at a round's end
        settings = {"bot_delay": 0, "pass_dwell": 0, "moment_seconds": 0, "reaction_seconds": 60}
        r = self.client.post("/api/tables", json={**body, "settings": settings, **extra})
        assert r.status_code == 201, r.text
        tid = str(r.json()["id"])
        self.ids[tid] = f"T{len(self.ids)}"
        return tid

    def join(self, tid: str, seat: int, name: str, client: TestClient | None = None) -> str:
        c = client or self.client
        r = c.post(f"/api/tables/{tid}/join", json={"seat": seat, "name": name})
        assert r.status_code == 200, r.text
        token = str(r.cookies.get(seat_cookie(tid)))
        c.cookies.delete(seat_cookie(tid))
        self.ids[token] = f"token-{name}"
        return token

    def open(self, who: str, tid: str, token: str | None) -> Page:
        page = Page(self.stack, self.client, tid, token)
        self.pages[who] = page
        self.settle(tid)
        return page

    def settle(self, tid: str) -> None:
        """Until the table is still (no bot or server step pending), every page read up."""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            table = self.hub().live[tid]
            before = table.version
            for page in self.pages.values():
                page.settle()
            time.sleep(0.02)
            busy = table.bot_task is not None and not table.bot_task.done()
            if not busy and table.version == before:
                for page in self.pages.values():
                    page.settle()
                if table.version == before:
                    return
        raise AssertionError("the table never settled")

    def play(self, tid: str, people: dict[int, str], rng: random.Random, until: int) -> None:
        """People whose turn it is make seeded random moves until `until` moves were made
        by them, or the game is over."""
        made = 0
        while made < until:
            table = self.hub().live[tid]
            state = table.state
            if state is None or state.over:
                return
            seat = state.actors[0]
            who = people.get(seat)
            page = self.pages.get(who) if who else None
            if page is None:
                raise AssertionError(f"seat {seat} is asked but nobody plays it")
            msg = page.last
            assert msg.get("version") == table.version and msg.get("asked"), (who, msg)
            # (Drop It's grid is not sent: over MAX_ACTIONS_SENT; the same list, read here)
            action = rng.choice(state.actions(seat)).to_json()
            page.send({"type": "act", "version": msg["version"], "action": action})
            made += 1
            self.settle(tid)

    def transcript(self) -> dict[str, list[str]]:
        """Per page, one line per message: its type, version and a digest of all of it
        (whole messages were 7 MB: Drop It's views carry the board)."""
        return {who: [line(m, self.ids) for m in p.got] for who, p in sorted(self.pages.items())}


def line(msg: dict[str, Any], ids: dict[str, str]) -> str:
    text = json.dumps(normalise(msg, ids), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"{msg.get('type')} v{msg.get('version', '-')} {digest}"


def assert_same(name: str, expected: dict[str, list[str]], got: dict[str, list[str]]) -> None:
    """The same pages, each sent the same lines; else the first line that differs."""
    assert sorted(got) == sorted(expected), f"{name}: the same pages"
    for page, lines in expected.items():
        first = next(
            (i for i, (a, b) in enumerate(zip(lines, got[page], strict=False)) if a != b),
            None,
        )
        assert first is None, f"{name}, {page}: message {first} differs: {got[page][first]}"
        assert len(got[page]) == len(lines), f"{name}, {page}: {len(got[page])} messages"


@contextmanager
def app(path: Path) -> Iterator[TestClient]:
    application = create_app(
        f"sqlite:///{path / 'golden.sqlite3'}", pool="thread", workers_n=2, rates=TEST_RATES
    )
    with TestClient(application) as client:
        yield client


GAMES = {
    "drop-or-stop": {"players": 3, "wins_to_win": 2},
    "arne": {"players": 3},
    "drop-it": {"players": 3},
}


def a_game_night(path: Path, game: str) -> dict[str, Any]:
    """Ann, Bob and a bot: chat, Bob leaves and a bot sits in, Bob comes back, the game to
    its end (or 60 moves of the people), a watcher, then the rematch."""
    with app(path) as client, ExitStack() as stack:
        s = Script(client, stack)
        tid = s.create(game, ["open", "open", "easy"], GAMES[game])
        ann = s.join(tid, 0, "Ann")
        bob = s.join(tid, 1, "Bob", TestClient(client.app))
        s.open("ann", tid, ann)
        s.open("bob", tid, bob)
        assert client.post(f"/api/tables/{tid}/start").status_code == 200
        s.settle(tid)
        s.pages["ann"].send({"type": "chat", "text": "good luck"})
        s.settle(tid)
        rng = random.Random(5)
        people = {0: "ann", 1: "bob"}
        s.play(tid, people, rng, 4)
        s.pages.pop("bob").ws.close()
        s.settle(tid)
        assert client.post(f"/api/tables/{tid}/seats/1", json={"to": "bot"}).status_code == 200
        s.settle(tid)
        s.play(tid, {0: "ann"}, rng, 2)
        s.open("bob", tid, bob)  # back: the bot leaves Bob's seat
        s.open("cleo", tid, None)
        s.pages["cleo"].send({"type": "hello", "name": "Cleo"})
        s.settle(tid)
        s.play(tid, people, rng, 60)
        table = s.hub().live[tid]
        if table.state.over:
            r = client.post(f"/api/tables/{tid}/rematch", cookies={seat_cookie(tid): ann})
            assert r.status_code == 201, r.text
            s.ids[str(r.json()["id"])] = "T-rematch"
            s.settle(tid)
        return s.transcript()


def a_seat_moved(path: Path) -> dict[str, Any]:
    """Ann, signed in, moves her seat to another device mid-game (reclaim)."""
    with app(path) as client, ExitStack() as stack:
        s = Script(client, stack)
        r = client.post("/api/accounts", json={"name": "Ann", "password": "tulip-harbour-9"})
        assert r.status_code == 201, r.text
        session = str(r.cookies.get("gn_session"))
        tid = s.create("drop-or-stop", ["open", "easy"], {"players": 2})
        ann = s.join(tid, 0, "Ann")
        s.open("laptop", tid, ann)  # one person and a bot: her page's arrival starts it
        started = client.post(f"/api/tables/{tid}/start")  # (or this, if it comes first)
        assert started.status_code == 200 or "already running" in started.text, started.text
        s.settle(tid)
        s.play(tid, {0: "laptop"}, random.Random(2), 3)
        phone = TestClient(client.app, cookies={"gn_session": session})
        r = phone.post(f"/api/tables/{tid}/reclaim", json={})
        assert r.status_code == 200, r.text
        token = str(r.cookies.get(seat_cookie(tid)))
        s.ids[token] = "token-phone"
        s.settle(tid)
        s.open("phone", tid, token)
        s.play(tid, {0: "phone"}, random.Random(3), 3)
        return s.transcript()


SCRIPTS: dict[str, Callable[[Path], dict[str, Any]]] = {
    **{f"night/{g}": (lambda p, g=g: a_game_night(p, g)) for g in GAMES},  # type: ignore[misc]
    "reclaim": a_seat_moved,
}


def record(tmp: Path) -> dict[str, Any]:
    out = {}
    for name, script in SCRIPTS.items():
        folder = tmp / re.sub(r"\W", "_", name)
        folder.mkdir(parents=True, exist_ok=True)
        out[name] = script(folder)
    return out


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        got = record(Path(tmp))
    GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({sum(len(p) for t in got.values() for p in t.values())} messages)")
    sys.exit(0)
