"""A move refused by an outage is sent again by the page (issue 44, item 7): the server
could not store it ("could not be stored; ... try again"), so the page waits until
/api/ready answers 200 and sends the same act once more; the person does nothing.

The outage is made at the network: the page's first act is answered with the refusal the
server sends when its database is down (pipeline._persist) instead of reaching it, and
/api/ready answers 503 for a while, as ops.ready does without a database. The server
itself is real: the act sent again is applied there."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Browser, Page, Route, WebSocketRoute

from tests.server.helpers import Server, wait_js
from tests.web.conftest import create_table, open_page

REFUSAL = "the action could not be stored; nothing changed, try again"


class Outage:
    """The page's table socket, whose first act meets the outage, and /api/ready, which
    says "not ready" until `end`."""

    def __init__(self, page: Page, seconds: float) -> None:
        self.end = time.time() + 3600.0  # set when the act was refused
        self.seconds = seconds
        self.acts: list[dict[str, object]] = []
        self.ready_asked = 0
        page.route_web_socket("**/ws/tables/*", self.socket)
        page.route("**/api/ready", self.ready)

    def socket(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                self.acts.append(msg)
                if len(self.acts) == 1:  # the outage: refused, never stored
                    self.end = time.time() + self.seconds
                    refused = {"type": "refused", "reason": REFUSAL, "version": msg["version"]}
                    ws.send(json.dumps({**refused, "made_on": msg["version"]}))
                    return
            server.send(message)

        ws.on_message(to_server)
        server.on_message(lambda message: ws.send(message))

    def ready(self, route: Route) -> None:
        self.ready_asked += 1
        if time.time() < self.end:
            route.fulfill(status=503, json={"status": "not ready", "database": "down"})
        else:
            route.continue_()


def test_a_move_refused_by_an_outage_is_sent_again_when_the_server_is_back(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    outage = Outage(page, seconds=2.5)
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2},
        "seats": ["open", "easy"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
    }
    create_table(page, server, body)
    page.wait_for_selector("#stop:enabled", timeout=30000)
    before = int(page.evaluate("document.body.dataset.version"))
    page.click("#stop")
    # (the notice lasts 3.5 s: look for it while it is shown, not after the move is through,
    # which on a loaded machine can come later than that)
    notice = page.wait_for_selector(".toast >> text=sent again", timeout=10000)
    assert notice is not None
    wait_js(page, f"Number(document.body.dataset.version) > {before}", timeout=20000)
    print("acts sent:", outage.acts, "ready asked:", outage.ready_asked)
    assert len(outage.acts) == 2 and outage.acts[0] == outage.acts[1]  # the same act, again
    assert outage.ready_asked >= 2  # it waited for the server to be ready
    assert time.time() >= outage.end  # and sent it only then
    toasts = page.locator(".toast").all_inner_texts()
    assert not any(REFUSAL in t for t in toasts)  # the first refusal is not an error shown
    errors = page.errors  # type: ignore[attr-defined]
    assert all("status of 503" in e for e in errors), errors  # only the browser's own notes
    page.context.close()
