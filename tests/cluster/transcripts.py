"""The golden transcript of a failover (issue 44, item 8): two `gamenight serve` processes
on one PostgreSQL and one Redis, Ann's page on the owner, Bob's on the other; the owner is
killed mid-game, Ann's page reconnects to the process that is left, the game goes on to
its end, then chat. Every message each page received, normalised as the one-process
transcripts are (tests/server/transcripts.py).

`python -m tests.cluster.transcripts` records it into tests/golden/failover.json;
tests/cluster/test_transcripts.py plays it again and compares.

Sequential, as the one-process scripts: a person acts only when asked, and every page reads
until it has the table's new version and then a ping's pong, so each page's order does not
depend on timing. The failover's own moment (when the lease moves) is waited for the same
way: Ann's new page reads until it is sent the version the table was at.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.cluster.helpers import Node, create_table, join, nodes, start
from tests.server.helpers import ws_open
from tests.server.transcripts import line

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "failover.json"
OPTIONS = {"players": 2, "wins_to_win": 3}
SETTINGS = {"bot_delay": 0, "pass_dwell": 0, "moment_seconds": 0, "reaction_seconds": 60}


class Page:
    """One page's socket on one process, recording what it is sent."""

    def __init__(self, node: Node, tid: str, token: str) -> None:
        self.ws: ClientConnection | None = ws_open(node, tid, token)
        self.got: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.send({"type": "chat_sync"})  # as table.js, once connected
        self.read("chat")

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def read(self, stop: str | None = None, version: int = -1, timeout: float = 30) -> None:
        """Read until a message of type `stop` (at `version` or later, for a state)."""
        assert self.ws is not None
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                seen = [(m["type"], m.get("version"), m.get("reason")) for m in self.got[-6:]]
                raise AssertionError(f"no {stop} at v{version}; the last messages: {seen}")
            try:
                msg = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                continue
            if msg["type"] == "pong":
                if stop == "pong":
                    return
                continue
            self.got.append(msg)
            if msg["type"] == "state":
                self.last = msg
                if "moment" in msg:  # as a page does once it has shown the round's end
                    self.send({"type": "seen", "version": msg["version"]})
            if msg["type"] == stop and msg.get("version", -1) >= version:
                return

    def settle(self) -> None:
        """Everything sent so far (a ping's pong comes after it)."""
        self.send({"type": "ping", "t": 0})
        self.read("pong")

    def lost(self) -> None:
        """Its process died: the socket closes, whatever was in flight is dropped."""
        assert self.ws is not None
        try:
            while True:
                self.ws.recv(timeout=10)
        except (ConnectionClosed, TimeoutError):
            pass
        self.ws = None


def settle(pages: dict[str, Page], version: int) -> None:
    """Every page has the state at `version`, then everything sent before a pong, twice
    (a notice from the other process comes through Redis, a moment later)."""
    for page in pages.values():
        if page.last.get("version", -1) < version:
            page.read("state", version)
    for _ in range(2):
        time.sleep(0.1)
        for page in pages.values():
            page.settle()


def play(pages: dict[str, Page], rng: random.Random, moves: int) -> int:
    """The asked person makes a seeded random move, `moves` times or to the game's end;
    returns the table's version."""
    version = max(p.last["version"] for p in pages.values())
    for _ in range(moves):
        asked = [p for p in pages.values() if p.last.get("asked")]
        if not asked or any("outcome" in p.last for p in pages.values()):
            break
        page = asked[0]
        assert page.last["version"] == version, (page.last["version"], version)
        action = rng.choice(page.last["actions"])
        page.send({"type": "act", "version": version, "action": action})
        version += 1
        settle(pages, version)
    return version


def a_failover(db: str, redis: str, work: Path) -> dict[str, list[str]]:
    """Ann (on a, the owner) and Bob (on b) play; a is killed; Ann's page reconnects to b."""
    with nodes(db, redis, work, 2) as (a, b):
        tid, owner = create_table(a, "drop-or-stop", OPTIONS, ["open", "open"], SETTINGS)
        tokens = {"ann": join(a, tid, 0, "Ann"), "bob": join(b, tid, 1, "Bob")}
        ids = {tid: "T0", owner: "owner", **{t: f"token-{w}" for w, t in tokens.items()}}
        pages = {"ann": Page(a, tid, tokens["ann"]), "bob": Page(b, tid, tokens["bob"])}
        for page in pages.values():
            page.settle()
        start(b, tid, owner)  # through the process that does not own it
        settle(pages, 0)
        rng = random.Random(3)
        version = play(pages, rng, 6)
        a.kill()  # SIGKILL: the owner is gone, its lease not given back
        pages["ann"].lost()
        on_a = pages["ann"].got
        pages["ann"] = Page(b, tid, tokens["ann"])  # her page reconnects, to b
        settle(pages, version)
        pages["bob"].send({"type": "chat", "text": "welcome back"})
        for page in pages.values():
            page.read("chat")
        settle(pages, version)
        play(pages, rng, 200)
        assert all("outcome" in p.last for p in pages.values()), "the game went on to its end"
        out = {who: [line(m, ids) for m in p.got] for who, p in sorted(pages.items())}
        out["ann"] = [*(line(m, ids) for m in on_a), "(reconnected to b)", *out["ann"]]
        return out


if __name__ == "__main__":
    import tempfile

    from tests.cluster.helpers import Redis
    from tests.server.helpers import postgres_cluster

    with tempfile.TemporaryDirectory() as tmp, postgres_cluster(Path(tmp) / "pg") as url:
        server = Redis(Path(tmp) / "redis").start()
        try:
            got = a_failover(url, server.url, Path(tmp))
        finally:
            server.stop()
    GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({sum(len(p) for p in got.values())} messages)")
    sys.exit(0)
