"""Arne's benign race (issue 13, item 4): two people share a reaction window, and one's pass
arrives for a decision that has moved on (their countdown ran out first). The server
refuses it without applying it anywhere; the page shows no error and shows the new decision."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Browser, Page, WebSocketRoute

from tests.server.helpers import Server, wait_js
from tests.web.conftest import open_page, start_table


class SlowSocket:
    """Bob's socket, where his passes wait in the test until it lets them go."""

    def __init__(self, page: Page) -> None:
        self.held: list[str | bytes] = []
        self.refused: list[dict[str, object]] = []
        self.server: WebSocketRoute | None = None
        page.route_web_socket("**/ws/tables/*", self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.server = server

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act" and msg["action"].get("type") == "pass":
                self.held.append(message)
                return
            server.send(message)

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "refused":
                self.refused.append(msg)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def release(self) -> None:
        assert self.server is not None
        for message in self.held:
            self.server.send(message)
        self.held.clear()


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def test_a_pass_for_a_decision_that_moved_on_is_dropped_quietly(
    server: Server, browser: Browser
) -> None:
    ann, bob = open_page(browser), open_page(browser)
    slow = SlowSocket(bob)
    r = ann.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open", "open", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": 2, "pass_dwell": 0},
            "sit": 0,
            "name": "Ann",
            "seed": 21,
            "practice": True,
        },
    )
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    assert bob.request.post(
        f"{server.url}/api/tables/{tid}/join", data={"seat": 1, "name": "Bob"}
    ).ok
    ann.goto(f"{server.url}/tables/{tid}")
    bob.goto(f"{server.url}/tables/{tid}")
    start_table(ann)
    deadline = time.time() + 60
    while True:  # Ann passes whenever asked, until Bob may answer in a window
        assert time.time() < deadline, "Bob was never asked to answer"
        for page in (ann, bob):
            if page.locator("button.colour-choice").count():
                page.locator("button.colour-choice").first.click()
        if ann.locator("#pass").count():
            ann.keyboard.press("p")
        if bob.locator("#handbar.answer").count() and "You may answer" in (
            bob.locator("#who-acts").inner_text()
        ):
            break
        ann.wait_for_timeout(50)
    asked_at = version(bob)
    bob.keyboard.press("p")  # held on the way: Bob's countdown runs out before it arrives
    wait_js(bob, f"Number(document.body.dataset.version) > {asked_at}", timeout=10000)
    assert slow.held, "the pass was not sent"
    slow.release()
    deadline = time.time() + 10
    while not slow.refused:
        assert time.time() < deadline, "the late pass got no answer"
        bob.wait_for_timeout(50)
    assert str(slow.refused[0]["reason"]).startswith("stale action")
    bob.wait_for_timeout(600)
    # No error toast; the page shows the decision as it is now, not the one Bob answered.
    assert bob.locator(".toast.error").count() == 0
    assert version(bob) >= int(str(slow.refused[0]["version"]))
    assert bob.locator("#window").count() == 0 or "Bob" not in bob.locator("#window").inner_text()
    assert not bob.errors  # type: ignore[attr-defined]
    assert not ann.errors  # type: ignore[attr-defined]
