"""Two people at one Arne table, on different server processes, played by the test."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from gamenight.engine.registry import load
from gamenight.server.db import Store
from gamenight.server.db import connect as db_connect
from tests.cluster.helpers import Node
from tests.server.helpers import ws_open

# A short Arne: three seats, the learning cards, four cards a hand (about 220 actions,
# most of them answers in reaction windows). Seat 2 is a bot.
ARNE = {"players": 3, "learning": True, "hand_size": 4}
SETTINGS = {"bot_delay": 0, "pass_dwell": 0, "reaction_seconds": 60}


class Person:
    """One seat's page: plays a random legal move when asked. As table.js and common.js do,
    it asks for a sync after a raced (stale) refusal rather than acting again on that
    version, and reconnects on its own when its socket closes while its process lives."""

    def __init__(self, seat: int, node: Node, tid: str, token: str) -> None:
        self.seat, self.node, self.tid, self.token = seat, node, tid, token
        self.rng = random.Random(seat)
        self.ws: ClientConnection | None = ws_open(node, tid, token)
        self.last: dict[str, Any] | None = None
        self.sent: dict[int, dict[str, Any]] = {}  # version -> the action sent on it
        self.refused: set[int] = set()
        self.raced: set[int] = set()  # refused as stale: the table had moved on
        self.closed_at = 0.0
        self.windows = 0  # times asked in a reaction window
        self.pending: int | None = None  # version of the act waiting for an answer
        self.sent_at = 0.0
        self.hold: Callable[[dict[str, Any]], bool] | None = None  # True: do not answer now
        self.trace: list[str] = []  # what this page sent and heard, for a failure's message

    def move_to(self, node: Node) -> None:
        """The page reconnects (to another process)."""
        if self.ws is not None:
            self.ws.close()
        self.node = node
        self.ws = ws_open(node, self.tid, self.token)
        # An act sent to the lost process may be lost with it; one whose answer had not
        # come (pending) may have been refused there, unheard: a window asks two seats on
        # one version, and the other seat's act may have taken it. Neither can be checked.
        if self.last is not None:
            self.sent.pop(self.last["version"], None)
        if self.pending is not None:
            self.sent.pop(self.pending, None)
        self.trace.append(
            f"moved (last {self.last and self.last['version']}, pending {self.pending})"
        )
        self.pending = None

    def reconnect(self) -> None:
        """As common.js: a closed socket is opened again, a moment later, while its process
        runs (a killed one is left to the test, which moves the page elsewhere)."""
        proc = self.node.proc
        if proc is None or proc.poll() is not None or time.monotonic() - self.closed_at < 0.3:
            return
        try:
            self.ws = ws_open(self.node, self.tid, self.token, tries=1)
        except RuntimeError:
            self.closed_at = time.monotonic()
            return
        self.trace.append(f"reconnected (pending {self.pending})")
        self.pending = None

    def poll(self, wait: float = 0.005) -> None:
        if self.ws is None:
            self.reconnect()
        if self.ws is None:
            return
        try:
            while True:
                msg = json.loads(self.ws.recv(timeout=wait))
                wait = 0.0
                self.trace.append(
                    f"heard {msg['type']} v{msg.get('version')} {msg.get('reason', '')}"
                )
                if msg["type"] == "refused":
                    self.heard_refusal(msg)
                newer = self.last is None or msg.get("version", -1) >= self.last["version"]
                if msg["type"] == "state" and "view" in msg and newer:
                    self.last = msg
        except TimeoutError:
            pass
        except ConnectionClosed:
            self.ws = None
            self.closed_at = time.monotonic()
            self.trace.append("closed")
        msg = self.last
        if msg is None or "outcome" in msg or not msg.get("asked"):
            return
        version = msg["version"]
        if self.hold is not None and self.hold(msg):
            return
        if self.pending == version and time.monotonic() - self.sent_at < 8:
            return  # the answer (a new state or a refusal) is on its way
        if self.pending is None and version in self.sent and version not in self.refused:
            return
        if version in self.raced:
            return  # the table moved on; the new state is on its way
        # after a long wait (a loaded machine) send the same act again, never a new one: the
        # first may have landed, and the log must hold what this page says it sent
        resend = self.pending == version and version in self.sent
        action = self.sent[version] if resend else self.choose(msg)
        self.sent[version] = action
        self.refused.discard(version)
        self.pending = version
        self.sent_at = time.monotonic()
        self.trace.append(f"sent v{version} {action}{' again' if resend else ''}")
        try:
            assert self.ws is not None
            self.ws.send(json.dumps({"type": "act", "version": version, "action": action}))
        except ConnectionClosed:
            self.ws = None
            self.trace.append("closed while sending")

    def heard_refusal(self, msg: dict[str, Any]) -> None:
        """A refused act, by the version it was made on: after a reconnection a page may
        have acted on a newer state before the answer to an older act came, and a refusal
        taken for the newer act left the older one counted as acknowledged."""
        made_on = msg.get("made_on")
        if made_on is None:  # not an act's refusal
            return
        self.refused.add(made_on)
        if str(msg.get("reason", "")).startswith("stale action"):
            self.raced.add(made_on)
            assert self.ws is not None
            self.ws.send(json.dumps({"type": "sync"}))
        if made_on == self.pending:
            self.pending = None

    def choose(self, msg: dict[str, Any]) -> dict[str, Any]:
        view = msg["view"]
        if msg["actions"] is None:  # too many to list: a Drop It drop
            if view.get("phase") == "joker":
                return {"type": "joker", "spend": True}
            supply = view["sides"][view["side"]]["supply"]
            x, angle = self.rng.uniform(20, 220), self.rng.uniform(0, 3)
            return {"type": "drop", "piece": self.rng.choice(supply), "x": x, "angle": angle}
        actions = msg["actions"]
        passes = [a for a in actions if a["type"] == "pass"]
        if view.get("window"):
            self.windows += 1
        # answer in a window now and then; mostly pass, so the game moves on
        return passes[0] if passes and self.rng.random() < 0.8 else self.rng.choice(actions)

    def told(self, version: int, stored: Any) -> str:
        """What this page sent and heard near `version`, for a failure's message."""
        near = {f"v{v} " for v in range(version - 2, version + 3)}
        lines = [
            x
            for x in self.trace
            if x.split()[0] not in ("sent", "heard") or any(n in x + " " for n in near)
        ]
        return f"seat {self.seat} v{version}: stored {stored}; the page:\n" + "\n".join(lines)

    @property
    def over(self) -> bool:
        return self.last is not None and "outcome" in self.last


def play(
    people: list[Person],
    until: Callable[[], bool] | None = None,
    timeout: float = 45.0,
) -> None:
    """Poll every page in turn until the game is over (or `until()`)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for p in people:
            p.poll()
        if all(p.over for p in people) or (until is not None and until()):
            return
    versions = [p.last["version"] if p.last else None for p in people]
    said = server_log({p.node.log for p in people})
    raise AssertionError(f"the game did not get there in {timeout:g} s (versions {versions}){said}")


def server_log(logs: set[Path], lines: int = 30) -> str:
    """The last lines the server processes logged (they log warnings and worse only), for
    a failure's message: CI keeps no other trace of them."""
    found: list[str] = []
    for log in sorted(logs):
        if log.exists():
            found += [f"{log.name}: {x}" for x in log.read_text(errors="replace").splitlines()]
    return "\nthe servers logged:\n" + "\n".join(found[-lines:]) if found else ""


def check_log(db: str, tid: str, people: list[Person], finished: bool = True) -> int:
    """The stored log replays to the final state every page saw; every acknowledged action
    of a person is in it exactly once, at the version it was made on. Returns its length."""
    engine = db_connect(db)
    store = Store(engine)
    try:
        row = store.table(tid)
        history = store.history(tid)
    finally:
        engine.dispose()
    assert row is not None and row.status == ("finished" if finished else "running")
    assert row.version == len(history)
    game = load(row.game, **row.options)
    state = game.replay(row.seed, [(s, game.action_from_json(a)) for s, a in history])
    assert state.over == finished
    for p in people:
        assert p.last is not None and p.last["version"] == len(history)
        if finished:
            assert p.last["outcome"] == json.loads(json.dumps(state.outcome().to_json()))
        assert p.last["view"] == json.loads(json.dumps(state.view(p.seat)))
        for version, action in p.sent.items():
            if version in p.refused:
                continue
            # a later state acknowledges it; only the seat asked acts on a version
            assert history[version] == (p.seat, action), p.told(version, history[version])
    return len(history)
