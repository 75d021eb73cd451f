"""Table chat over the socket (issue 14, item 4): plain text, 300 characters, a rate limit
per seat, the owner's mute, spectators read, kept out of the replay unless shared."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from gamenight.engine.core import BadInput
from gamenight.server.chat import MAX_CHARS, clean_text
from tests.server.conftest import cookie, join, new_table

synced: set[Any] = set()


def next_of(ws: Any, *kinds: str) -> dict[str, Any]:
    if ws not in synced:  # the page asks for the chat so far once connected
        synced.add(ws)
        ws.send_json({"type": "chat_sync"})
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in kinds:
            return msg


def full(ws: Any) -> dict[str, Any]:
    """The next whole picture of the chat (sent after a share vote)."""
    while True:
        msg = next_of(ws, "chat")
        if msg.get("full"):
            return msg


def seated(client: TestClient) -> tuple[str, str, str]:
    t = new_table(client, seats=["open", "open"])
    return t["id"], join(client, t["id"], 0, "Ann"), join(client, t["id"], 1, "Bob")


def test_a_line_reaches_seats_and_spectators_as_plain_text(client: TestClient) -> None:
    tid, a, b = seated(client)
    hostile = '<img src=x onerror="window.__pwned=1">\u202e\x07 hi'
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa,
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, b)) as wb,
        client.websocket_connect(f"/ws/tables/{tid}") as spectator,
    ):
        for ws in (wa, wb, spectator):
            assert next_of(ws, "chat")["full"] is True
        wa.send_json({"type": "chat", "text": hostile})
        for ws in (wa, wb, spectator):
            line = next_of(ws, "chat")["lines"][0]
            # the text arrives as it was typed, minus control and bidi characters
            assert line["text"] == '<img src=x onerror="window.__pwned=1"> hi'
            assert (line["seat"], line["name"]) == (0, "Ann")
        wb.send_json({"type": "chat", "phrase": "gg"})
        assert next_of(spectator, "chat")["lines"][0]["text"] == "good game"
        spectator.send_json({"type": "chat", "text": "let me in"})
        assert "seat" in next_of(spectator, "chat_refused")["reason"]
    # persisted with the table: a new socket gets the lines so far
    with client.websocket_connect(f"/ws/tables/{tid}") as again:
        texts = [x["text"] for x in next_of(again, "chat")["lines"]]
        assert texts == ['<img src=x onerror="window.__pwned=1"> hi', "good game"]


def test_too_long_too_fast_and_muted_lines_are_refused(client: TestClient) -> None:
    tid, a, _b = seated(client)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa:
        next_of(wa, "chat")
        wa.send_json({"type": "chat", "text": "x" * (MAX_CHARS + 1)})
        assert "at most 300 characters" in next_of(wa, "chat_refused")["reason"]
        wa.send_json({"type": "chat", "text": "x" * MAX_CHARS})
        assert len(next_of(wa, "chat")["lines"][0]["text"]) == MAX_CHARS
        for i in range(10):
            wa.send_json({"type": "chat", "text": f"spam {i}"})
        refusals = 0
        for _ in range(10):
            msg = next_of(wa, "chat", "chat_refused")
            refusals += msg["type"] == "chat_refused"
            if msg["type"] == "chat_refused":
                assert "too fast" in msg["reason"]
        assert refusals >= 5
        # only the owner mutes (the test client holds the owner's cookie)
        r = client.post(f"/api/tables/{tid}/chat/mute", json={"seat": 0, "on": True})
        assert r.status_code == 200 and r.json()["muted"] == [0]
        assert next_of(wa, "chat_mute")["muted"] == [0]
        wa.send_json({"type": "chat", "phrase": "gg"})
        assert "muted" in next_of(wa, "chat_refused")["reason"]
    stranger = TestClient(client.app)
    r = stranger.post(f"/api/tables/{tid}/chat/mute", json={"seat": 0, "on": False})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/chat/mute", json={"seat": "x"})
    assert r.status_code == 400 and "seat" in r.json()["error"]


def test_the_replay_shows_the_chat_only_when_everyone_shared_it(client: TestClient) -> None:
    tid, a, b = seated(client)
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa,
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, b)) as wb,
    ):
        next_of(wa, "chat")
        next_of(wb, "chat")
        wa.send_json({"type": "chat", "text": "secret plan"})
        next_of(wa, "chat")
        hub.live[tid].row.status = "finished"  # (the game's end, without playing it out)
        assert client.get(f"/api/tables/{tid}/replay/chat").json() == {
            "shared": False,
            "lines": [],
        }
        wa.send_json({"type": "chat_share", "on": True})
        assert full(wa)["shared"] is False  # Bob has not agreed
        assert client.get(f"/api/tables/{tid}/replay/chat").json()["shared"] is False
        wb.send_json({"type": "chat_share", "on": True})
        full(wb)  # Ann's vote
        assert full(wb)["shared"] is True
    lines = client.get(f"/api/tables/{tid}/replay/chat").json()["lines"]
    assert [x["text"] for x in lines] == ["secret plan"]


@given(st.text(max_size=400))
def test_clean_text_never_keeps_control_characters(text: str) -> None:
    try:
        line = clean_text(text)
    except BadInput as err:
        assert "chat line" in str(err)
        return
    assert 0 < len(line) <= MAX_CHARS and line == line.strip()
    assert not any(ord(c) < 32 or c in "\u202e\u200b\ufeff" for c in line)


def test_a_refused_line_is_said_in_the_tables_language(client: TestClient) -> None:
    """Issue 46: the chat's own refusals (too long, no words) in the socket's language, the
    numbers filled in; they were passed through in English."""
    tid, a, _ = seated(client)
    german = {**cookie(tid, a), "accept-language": "de-DE,de;q=0.9"}
    with client.websocket_connect(f"/ws/tables/{tid}", headers=german) as wa:
        next_of(wa, "chat")
        wa.send_json({"type": "chat", "text": "x" * (MAX_CHARS + 1)})
        reason = next_of(wa, "chat_refused")["reason"]
        assert reason == f"eine Chatzeile hat höchstens {MAX_CHARS} Zeichen (diese hat 301)"
        wa.send_json({"type": "chat", "text": " \u200b "})
        assert next_of(wa, "chat_refused")["reason"] == "eine Chatzeile braucht ein paar Worte"
