"""Knowing it's your turn (issue 14, item 5): the title and favicon of the page that must
act change, the optional beep plays on the switch, a hidden tab gets a notification."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import create_table, open_page, start_table

MY_TURN = "document.body.dataset.yourTurn === '1'"


def icon(page: Page) -> str:
    return str(page.get_attribute("link[rel=icon]", "href"))


def test_the_tab_tells_whose_turn_it_is(server: Server, browser: Browser) -> None:
    ann, bob = open_page(browser), open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0},
            "sit": 0,
            "name": "Ann",
        },
        start=False,
    )
    for page in (ann, bob):
        page.context.grant_permissions(["notifications"], origin=server.url)
    # the notification switch reads as something to click (a new user took it for text)
    ann.wait_for_selector("#turn-notify", state="attached")  # drawn once the page's module runs
    look = ann.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('#turn-notify'));"
        " return [s.textDecorationLine, s.color]; })()"
    )
    assert look[0] == "underline" and look[1] != "rgb(0, 0, 0)", look
    bob.goto(f"{server.url}/tables/{tid}")
    bob.fill("#join-name", "Bob")
    bob.click("[data-join='1']")
    ann.wait_for_selector("#start:not([disabled])")
    start_table(ann)
    for page in (ann, bob):
        wait_js(page, "document.body.dataset.status === 'running'")
        wait_js(page, "document.body.dataset.yourTurn !== undefined")
    first, second = (ann, bob) if ann.evaluate(MY_TURN) else (bob, ann)
    assert first.title().startswith("● Your turn")
    assert icon(first).endswith("favicon-turn.svg")
    assert not second.title().startswith("●") and icon(second).endswith("/favicon.svg")
    # The sound is off until switched on (the switch plays it once, to show it).
    assert not second.is_checked("#turn-sound")
    assert second.evaluate("document.body.dataset.beeps") is None
    second.check("#turn-sound")
    wait_js(second, "document.body.dataset.beeps === '1'")
    # The waiting tab is hidden now; the first person stops.
    second.evaluate("Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'})")
    first.get_by_role("button", name="STOP", exact=True).click()
    wait_js(second, MY_TURN)
    assert second.title().startswith("● Your turn")
    assert icon(second).endswith("favicon-turn.svg")
    wait_js(second, "document.body.dataset.beeps === '2'")
    wait_js(second, "document.body.dataset.notified === '1'")
    assert first.evaluate("document.body.dataset.notified") is None  # visible: no need
    wait_js(first, "!document.title.startsWith('●')")
    assert icon(first).endswith("/favicon.svg")
    assert not first.is_checked("#turn-sound")  # each browser's own switch
    for page in (ann, bob):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
