"""What one process tells the others besides new versions (issue 12, item 3 leftovers):
a chat line, a spectator's name and a rematch's acceptance reach the pages and the owner
on another process."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.cluster.helpers import Node, Redis, create_table, join, nodes, start
from tests.server.helpers import ws_open

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
QUICK = {"players": 2, "wins_to_win": 1}


def until(
    ws: ClientConnection, check: Callable[[dict[str, Any]], bool], seconds: float = 15
) -> dict[str, Any]:
    """The first message `check` accepts (messages before it are skipped)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        except TimeoutError:
            break
        if check(msg):
            return msg
    raise AssertionError("the message never came")


def two_people(a: Node, b: Node) -> tuple[str, str, list[str]]:
    """A Drop or Stop table created on `a`; Ann joins through `a`, Bob through `b`."""
    tid, owner = create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
    return tid, owner, [join(a, tid, 0, "Ann"), join(b, tid, 1, "Bob")]


def test_chat_and_spectator_names_reach_the_other_process(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, owner, (ann, bob) = two_people(a, b)
        start(b, tid, owner)
        wa, wb = ws_open(a, tid, ann), ws_open(b, tid, bob)
        watcher = ws_open(b, tid, "not-a-seat")
        try:
            watcher.send(json.dumps({"type": "hello", "name": "Cleo"}))
            until(watcher, lambda m: m["type"] == "state")  # its own answer, nobody else's
            # The players are sent nothing because someone watches (issue 43, item 5): the
            # name reaches Ann's process with b's presence round and is in her next state.
            end = time.monotonic() + 15
            while time.monotonic() < end:
                wa.send(json.dumps({"type": "sync"}))
                seen = until(wa, lambda m: m["type"] == "state")
                if seen["table"]["spectators"] == ["Cleo"]:
                    break
                time.sleep(0.3)
            assert seen["table"]["spectators"] == ["Cleo"]
            wa.send(json.dumps({"type": "chat", "text": "hello from a"}))
            said = until(wb, lambda m: m["type"] == "chat")
            assert [line["text"] for line in said["lines"]] == ["hello from a"]
            assert said["lines"][0]["name"] == "Ann"
        finally:
            for ws in (wa, wb, watcher):
                ws.close()


def play_out(socks: list[ClientConnection]) -> list[dict[str, Any]]:
    """Both people stop (or drop) whenever asked until the game is over; each page's
    first state with the outcome."""
    end = time.monotonic() + 60
    over = [False, False]
    finals: list[dict[str, Any]] = [{}, {}]
    while not all(over) and time.monotonic() < end:
        for i, ws in enumerate(socks):
            try:
                msg = json.loads(ws.recv(timeout=0.05))
            except TimeoutError:
                continue
            if msg["type"] != "state" or "view" not in msg:
                continue
            if "outcome" in msg and not over[i]:
                over[i], finals[i] = True, msg
            if msg.get("asked") and msg.get("actions"):
                kinds = [x["type"] for x in msg["actions"]]
                action = msg["actions"][kinds.index("stop") if "stop" in kinds else 0]
                ws.send(json.dumps({"type": "act", "version": msg["version"], "action": action}))
    assert all(over), "the game did not end"
    return finals


def game_then_rematch(a: Node, b: Node) -> tuple[str, str, list[str]]:
    """Ann (her page on `a`) and Bob (on `b`) play a game out, then ask for the rematch, Ann
    through `a`, Bob through `b`: the first table, the rematch (made and owned by `a`) and
    their seat tokens there."""
    tid, owner, (ann, bob) = two_people(a, b)
    start(a, tid, owner)
    socks = [ws_open(a, tid, ann), ws_open(b, tid, bob)]
    try:
        play_out(socks)
    finally:
        for ws in socks:
            ws.close()
    seat, new, tokens = f"gn_seat_{tid}", "", []
    for node, token in ((a, ann), (b, bob)):
        r = httpx.post(f"{node.url}/api/tables/{tid}/rematch", cookies={seat: token})
        assert r.status_code == 201 and r.json()["id"] == (new or r.json()["id"]), r.text
        new = r.json()["id"]
        tokens.append(str(r.cookies.get(f"gn_seat_{new}")))
    return tid, new, tokens


def test_a_rematch_accepted_on_another_process_starts(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        _, new, _ = game_then_rematch(a, b)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            states = [httpx.get(f"{x.url}/api/tables/{new}").json()["status"] for x in (a, b)]
            if states == ["running", "running"]:
                break
            time.sleep(0.1)
        assert states == ["running", "running"], "everyone accepted: the next game started"


def test_a_seat_taken_back_through_another_process_moves_on_both(
    pg_url: str, redis: Redis, work: Path
) -> None:
    """Ann sits while signed in on `a` (the table's owner), then takes her seat to another
    device through `b`: the request is forwarded to `a`, and on both processes the new
    token is her seat and the old one only watches, also on pages open before."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        # (an account of its own: the module's database outlives the test, and a guest may
        # not sit under an account's name)
        r = httpx.post(f"{b.url}/api/accounts", json={"name": "Vera", "password": "correct horse"})
        assert r.status_code == 201, r.text
        session = {"gn_session": str(r.cookies.get("gn_session"))}
        tid, owner = create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
        seat = f"gn_seat_{tid}"
        r = httpx.post(
            f"{a.url}/api/tables/{tid}/join", json={"seat": 0, "name": "Vera"}, cookies=session
        )
        assert r.status_code == 200, r.text
        old = str(r.cookies.get(seat))
        join(b, tid, 1, "Bob")
        start(a, tid, owner)
        assert httpx.get(f"{b.url}/api/tables/{tid}", cookies=session).json()["account_seat"] == 0
        pages = [ws_open(node, tid, old) for node in (a, b)]  # the old device, on each
        try:
            for ws in pages:
                assert until(ws, lambda m: m["type"] == "state")["seat"] == 0
            r = httpx.post(f"{b.url}/api/tables/{tid}/reclaim", json={}, cookies=session)
            assert r.status_code == 200 and r.json()["you"] == 0, r.text
            for ws in pages:  # its open pages only watch now, on both processes
                until(ws, lambda m: m["type"] == "state" and m["seat"] is None)
        finally:
            for ws in pages:
                ws.close()
        new = str(r.cookies.get(seat))
        assert new != old
        for node in (a, b):
            for token, expected in ((new, 0), (old, None)):
                ws = ws_open(node, tid, token)
                try:
                    assert until(ws, lambda m: m["type"] == "state")["seat"] == expected
                finally:
                    ws.close()


def test_a_rematch_offer_reaches_a_page_on_the_other_process(
    pg_url: str, redis: Redis, work: Path
) -> None:
    """Issue 44: Ann asks for the rematch through `a`; Bob's page, open on `b`, is told
    (it was 0 of 5: the notice went only to the pages on the process that made it)."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, owner, (ann, bob) = two_people(a, b)
        start(a, tid, owner)
        socks = [ws_open(a, tid, ann), ws_open(b, tid, bob)]
        try:
            play_out(socks)
            r = httpx.post(f"{a.url}/api/tables/{tid}/rematch", cookies={f"gn_seat_{tid}": ann})
            assert r.status_code == 201, r.text
            offer = until(socks[1], lambda m: m["type"] == "rematch")
            assert offer["table"] == r.json()["id"] and offer["by"] == "Ann"
        finally:
            for ws in socks:
                ws.close()


def test_the_series_after_game_2_is_the_same_on_both_processes(
    pg_url: str, redis: Redis, work: Path
) -> None:
    """Issue 45, item 3, across live processes: game 2 of a series is played with Ann's
    page on `a` and Bob's on `b`; each page's last state and each process's table read
    count both games, with the same totals."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, new, (ann2, bob2) = game_then_rematch(a, b)
        socks = [ws_open(a, new, ann2), ws_open(b, new, bob2)]
        try:
            finals = play_out(socks)
        finally:
            for ws in socks:
                ws.close()
        end = time.monotonic() + 15
        while time.monotonic() < end:
            read = [httpx.get(f"{x.url}/api/tables/{new}").json()["series"] for x in (a, b)]
            if all(len(s["games"]) == 2 for s in read):
                break
            time.sleep(0.1)
        assert [[g["id"] for g in s["games"]] for s in read] == [[tid, new]] * 2
        assert read[0] == read[1]
        totals = read[0]["totals"]
        assert totals == {n: sum(g["scores"][n] for g in read[0]["games"]) for n in totals}
        assert [m["table"]["series"] for m in finals] == read  # what each page was shown
