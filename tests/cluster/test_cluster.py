"""Several `gamenight serve` processes on one PostgreSQL and one Redis (issue 18).

Every test starts real server processes on random ports. Two people of one Arne table sit
on different processes; a bot takes the third seat."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gamenight.engine.registry import load
from gamenight.server.db import Store
from gamenight.server.db import connect as db_connect
from tests.cluster.helpers import Node, Redis, create_table, join, nodes, start
from tests.cluster.play import ARNE, SETTINGS, Person, check_log, play

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def can_answer_after(version: int) -> Callable[[dict[str, Any]], bool]:
    """Asked in a reaction window, after `version`, with something besides a pass to play
    (with nothing but a pass, the server passes at once)."""

    def check(msg: dict[str, Any]) -> bool:
        answers = [a for a in msg.get("actions") or [] if a["type"] != "pass"]
        asked = bool(msg.get("asked") and msg["view"].get("window"))
        return msg["version"] > version and asked and bool(answers)

    return check


def arne_table(a: Node, b: Node) -> tuple[str, list[Person]]:
    """A table created on `a`: seat 0 joins through `a`, seat 1 through `b`, seat 2 a bot."""
    tid, owner = create_table(a, "arne", ARNE, ["open", "open", "easy"], SETTINGS)
    tokens = [join(a, tid, 0, "Ann"), join(b, tid, 1, "Bob")]
    people = [Person(0, a, tid, tokens[0]), Person(1, b, tid, tokens[1])]
    start(b, tid, owner)  # started through the process that does not own it
    return tid, people


def test_two_people_on_two_processes_play_a_whole_game(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, people = arne_table(a, b)
        play(people)
        assert all(p.windows > 0 for p in people), "both were asked in a reaction window"
        n = check_log(pg_url, tid, people)
        assert n > 50
        info = [httpx.get(f"{x.url}/api/tables/{tid}").json() for x in (a, b)]
        assert info[0]["status"] == info[1]["status"] == "finished"
        assert info[0]["seats"] == info[1]["seats"]
        # each process shows both people connected, though each has the page of only one
        assert [s["connected"] for s in info[0]["seats"]] == [True, True, True]
        # every action ran on the owner (a); b forwarded Bob's and applied none itself
        assert httpx.get(f"{a.url}/api/metrics").json()["actions"] >= n
        assert httpx.get(f"{b.url}/api/metrics").json()["actions"] == 0


def test_owner_killed_mid_window_the_game_finishes_on_the_other(
    pg_url: str, redis: Redis, work: Path
) -> None:
    """Bob (on b) is asked in a reaction window; a, which owns the table, is killed; Bob's
    answer waits for b to take the lease, Ann's page reconnects to b, the game finishes."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, people = arne_table(a, b)  # a created it: a owns it
        people[1].hold = can_answer_after(30)
        play(people, until=lambda: bool(people[1].last and people[1].hold(people[1].last)))
        before = people[1].last
        assert before is not None and before["deadline_seat"] == 1
        a.kill()  # SIGKILL: the owner is gone in the middle of a reaction window
        killed_at = time.monotonic()
        people[1].hold = None  # Bob answers now, through b, which must take the table first
        people[0].move_to(b)  # Ann's page reconnects, to the process that is left
        play(people, until=lambda: bool(people[1].last["version"] > before["version"]))
        taken_after = time.monotonic() - killed_at
        assert taken_after < 10, taken_after  # the lease is 2 s; the machine is shared
        assert before["version"] in people[1].sent
        play(people)
        check_log(pg_url, tid, people)  # Bob's answer is there once, at its version


def test_owner_killed_mid_drop(pg_url: str, redis: Redis, work: Path) -> None:
    """A Drop It drop forwarded to the owner, which is killed while it simulates: the drop
    is stored exactly once (by the dying owner or by the one that takes over)."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        settings = {"bot_delay": 0, "pass_dwell": 0}
        tid, owner = create_table(a, "drop-it", {"players": 2}, ["open", "open"], settings)
        tokens = [join(a, tid, 0, "Ann"), join(b, tid, 1, "Bob")]
        people = [Person(0, a, tid, tokens[0]), Person(1, b, tid, tokens[1])]
        start(a, tid, owner)
        people[1].hold = lambda msg: msg["version"] >= 2
        play(
            people,
            until=lambda: bool(
                people[1].last and people[1].last["version"] >= 2 and people[1].last.get("asked")
            ),
            timeout=40,
        )
        people[1].hold = None
        people[1].poll(0.0)  # Bob drops (forwarded from b to a) ...
        version = people[1].last["version"]  # type: ignore[index]
        assert version in people[1].sent
        time.sleep(0.05)
        a.kill()  # ... and a dies while simulating it
        people[0].move_to(b)
        play(people, until=lambda: bool(people[1].last["version"] > version + 1), timeout=40)
        engine = db_connect(pg_url)
        try:
            history = Store(engine).history(tid)
        finally:
            engine.dispose()
        game = load("drop-it", players=2)
        sent = game.action_from_json(people[1].sent[version]).to_json()
        assert history[version] == (1, sent)  # stored once, at the version it was made on
        seats = [seat for seat, _ in history]
        assert len(seats) == len(history) > version + 1


def test_timer_and_bot_rebuilt_from_the_database(pg_url: str, redis: Redis, work: Path) -> None:
    """Both processes die while Bob is asked in a window; a fresh process, which never saw
    the table, shows Bob the deadline the dead owner set (stored, not in memory) and the
    game then finishes on it, bot moves included."""
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, people = arne_table(a, b)

        people[1].hold = can_answer_after(10)  # Bob is asked, and does not answer yet
        play(people, until=lambda: bool(people[1].last and people[1].hold(people[1].last)))
        before = people[1].last
        assert before is not None and before["deadline"] is not None
        a.kill()
        b.kill()
        with nodes(pg_url, redis.url, work, 1) as (c,):
            for p in people:
                p.move_to(c)
            end = time.monotonic() + 10  # c takes the table once a's lease has run out
            while time.monotonic() < end:
                people[1].poll(0.5)
                if "owns it now" in c.log.read_text():
                    break
            people[1].poll(1.0)
            again = people[1].last
            assert again is not None and again["version"] == before["version"]
            assert again["deadline_seat"] == 1
            assert again["deadline"] == pytest.approx(before["deadline"], abs=0.01)
            people[1].hold = None
            play(people)
            check_log(pg_url, tid, people)


def test_redis_restart_mid_game_loses_nothing(pg_url: str, redis: Redis, work: Path) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, people = arne_table(a, b)
        play(people, until=lambda: bool(people[1].last and people[1].last["version"] > 40))
        redis.stop()
        time.sleep(1.0)
        for p in people:
            p.poll(0.3)  # acts meanwhile are refused ("try again"), nothing half-done
        redis.start()
        play(people)
        check_log(pg_url, tid, people)


def test_redis_needs_postgresql(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from gamenight.cli import main; main()",
            "serve",
            "--redis",
            "redis://127.0.0.1:1/0",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "GAMENIGHT_DATA": str(tmp_path),
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"),
        },
    )
    assert out.returncode == 2
    assert "needs a shared PostgreSQL database" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
