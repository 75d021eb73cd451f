"""One shared screen, pass and play (issue 14, item 7): two people and a bot play Arne at
one browser; the table hides between turns, a reaction window asks the person the same way
and its countdown waits while the device changes hands."""

from __future__ import annotations

import time

from playwright.sync_api import Browser

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import create_table, open_page, start_table

REACTION = 1.5  # seconds: far shorter than the wait at the hand-over below


def test_pass_and_play_arne_with_a_reaction_window(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    create_table(
        page,
        server,
        {
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open", "open", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": REACTION, "shared_screen": True},
            "seed": 7,
            "practice": True,
        },
        start=False,
    )
    for name in ("Alice", "Bob"):
        page.fill("#shared-name", name)
        page.click("#shared-sit")
        page.wait_for_selector(f"#lobby-seats >> text={name}")
    page.wait_for_selector("#start:not([disabled])")
    start_table(page)
    wait_js(page, "document.body.dataset.status === 'running'")
    handed: list[str] = []
    window_checked = False
    deadline = time.time() + 120
    while time.time() < deadline and not (window_checked and {"Alice", "Bob"} <= set(handed)):
        if page.locator("#handover:not([hidden])").count():
            title = page.inner_text("#handover-h")
            name = title.removeprefix("Pass the device to ")
            # Nobody's cards are on screen while the device changes hands.
            assert page.locator("#hand .handcard").count() == 0
            if page.get_attribute("#handover", "data-window") == "1" and not window_checked:
                version = page.evaluate("document.body.dataset.version")
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "pass-and-play-handover.png"))
                time.sleep(REACTION * 2.5)  # the countdown waits: nobody passed for them
                assert page.evaluate("document.body.dataset.version") == version
                assert page.inner_text("#handover-h") == title
                window_checked = True
            handed.append(name)
            page.click("#handover-ready")
            wait_js(page, "document.querySelector('#handover').hidden")
            assert page.locator("#players .seat.me").inner_text().strip().startswith(name)
        elif page.locator("button.colour-choice").count():
            page.locator("button.colour-choice").first.click()
        elif page.locator("#handbar.answer").count():
            page.keyboard.press("p")
        elif page.locator("#handbar.asked .handcard.playable").count():
            page.locator("#hand .handcard.playable [role=button]").first.click()
            if page.locator("#choices button.choice").count():
                page.locator("#choices button.choice").first.click()
            elif page.locator(".target").count():
                page.locator(".target").first.click()
        page.wait_for_timeout(150)
    assert {"Alice", "Bob"} <= set(handed), handed
    assert window_checked, "no reaction window was handed over"
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
