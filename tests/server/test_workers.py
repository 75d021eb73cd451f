"""Quick bots move in the server's event loop; worker processes start only for a table
that needs them (a bot that thinks, a heavy game), so a server of people and quick bots
holds no worker process at all (issue 17, item 9: the server tree's memory)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import gamenight
from gamenight.bots import is_quick
from gamenight.server.app import create_app
from tests.server.conftest import (
    TEST_RATES,
    cookie,
    hub_of,
    join,
    new_table,
    receive_state,
    wait_for,
)


@pytest.mark.parametrize(
    ("game", "players", "quick", "thinking"),
    [
        ("arne", 4, ["easy", "medium", "bot", "bot:random", "bot:greedy"], ["hard", "bot:ismcts"]),
        ("arne", 2, ["easy", "bot:greedy"], ["medium", "hard", "bot:learned"]),
        ("drop-or-stop", 2, ["easy", "bot:random", "bot"], ["medium", "hard", "bot:exact"]),
        ("drop-it", 2, ["easy", "bot:random"], ["medium", "bot", "bot:planner"]),
    ],
)
def test_only_the_cheap_bots_are_quick(
    game: str, players: int, quick: list[str], thinking: list[str]
) -> None:
    loaded = gamenight.load(game, players=players)
    assert [t for t in quick if not is_quick(t, loaded)] == []
    assert [t for t in thinking if is_quick(t, loaded)] == []


@pytest.mark.parametrize("text", ["bot:nosuch", "nonsense", "bot:random?x=1&&", ""])
def test_an_unknown_or_broken_bot_is_not_quick(text: str) -> None:
    assert not is_quick(text, gamenight.load("arne", players=3))


def test_people_and_quick_bots_play_a_whole_game_with_no_worker_process(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'q.sqlite3'}", pool="process", workers_n=1, rates=TEST_RATES
    )
    with TestClient(app) as client:
        t = new_table(client, seats=["open", "easy", "bot:random"], options={"players": 3})
        tid = t["id"]
        token = join(client, tid, 0, "Ann")
        assert client.post(f"/api/tables/{tid}/start").status_code == 200
        ann_moves = 0
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
            msg = receive_state(ws)
            while not msg["view"]["over"]:
                if msg.get("asked"):
                    action = msg["actions"][0]
                    ws.send_json({"type": "act", "version": msg["version"], "action": action})
                    ann_moves += 1
                msg = receive_state(ws, msg["version"] + 1)
        assert msg["version"] - ann_moves >= 3  # the bots played their part of the game
        pool = hub_of(client).pool
        assert not pool.executor._processes, "a worker process was started"


def test_a_table_with_a_thinking_bot_starts_the_workers_when_it_starts(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}", pool="process", workers_n=1, rates=TEST_RATES
    )
    with TestClient(app) as client:
        pool = hub_of(client).pool
        t = new_table(client, seats=["open", "hard"])
        join(client, t["id"], 0, "Ann")
        assert not pool.executor._processes  # nothing before a table needs them
        assert client.post(f"/api/tables/{t['id']}/start").status_code == 200
        assert wait_for(lambda: pool.executor._processes, 15.0)
