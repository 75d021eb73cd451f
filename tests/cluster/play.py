"""Two people at one Arne table, on different server processes, played by the test."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
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
    """One seat's page: plays a random legal move when asked, reconnects when told to."""

    def __init__(self, seat: int, node: Node, tid: str, token: str) -> None:
        self.seat, self.node, self.tid, self.token = seat, node, tid, token
        self.rng = random.Random(seat)
        self.ws: ClientConnection | None = ws_open(node, tid, token)
        self.last: dict[str, Any] | None = None
        self.sent: dict[int, dict[str, Any]] = {}  # version -> the action sent on it
        self.refused: set[int] = set()
        self.windows = 0  # times asked in a reaction window
        self.pending: int | None = None  # version of the act waiting for an answer
        self.sent_at = 0.0
        self.hold: Callable[[dict[str, Any]], bool] | None = None  # True: do not answer now

    def move_to(self, node: Node) -> None:
        """The page reconnects (to another process)."""
        if self.ws is not None:
            self.ws.close()
        self.node = node
        self.ws = ws_open(node, self.tid, self.token)
        self.pending = None
        if self.last is not None:  # an act sent to the lost process may be lost with it
            self.sent.pop(self.last["version"], None)

    def poll(self, wait: float = 0.005) -> None:
        if self.ws is None:
            return
        try:
            while True:
                msg = json.loads(self.ws.recv(timeout=wait))
                wait = 0.0
                if msg["type"] == "refused" and self.pending is not None:
                    self.refused.add(self.pending)
                    self.pending = None
                newer = self.last is None or msg.get("version", -1) >= self.last["version"]
                if msg["type"] == "state" and "view" in msg and newer:
                    self.last = msg
        except TimeoutError:
            pass
        except ConnectionClosed:
            self.ws = None  # the process went away; the test reconnects us
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
        action = self.choose(msg)
        self.sent[version] = action
        self.refused.discard(version)
        self.pending = version
        self.sent_at = time.monotonic()
        try:
            assert self.ws is not None
            self.ws.send(json.dumps({"type": "act", "version": version, "action": action}))
        except ConnectionClosed:
            self.ws = None

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
    raise AssertionError(f"the game did not get there in {timeout:g} s (versions {versions})")


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
            assert history[version] == (p.seat, action), (p.seat, version)
    return len(history)
