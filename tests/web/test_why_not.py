"""'Why not?' at the table (issue 46 item 3, issue 45 item 5) for Arne and Drop It: a card,
target or piece the rules do not offer now stays clickable while the person has a decision,
and the click shows the rules' reason in player words; nothing is played."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import create_table, open_page, serious_violations
from tests.web.test_arne import arne_table, until_white_turn

JARGON = re.compile(r"\b[ADRV]\d+\b|legal:|not legal now|seat \d|\(\w+=|_")


def _why(page: Page, locator: str) -> str:
    """Click an unavailable choice and read the toast it brings; the state is unchanged."""
    version = page.evaluate("document.body.dataset.version")
    before = page.locator(".toast.error").count()
    for attempt in range(3):  # a redraw (the other side's move) may replace it mid-click
        page.locator(locator).first.wait_for(state="visible", timeout=60000)
        try:
            page.locator(locator).first.click(force=True, timeout=5000)  # (aria-disabled)
            break
        except PlaywrightError:
            if attempt == 2:
                raise
    wait_js(page, f"document.querySelectorAll('.toast.error').length > {before}")
    said = page.locator(".toast.error").last.inner_text()
    page.wait_for_timeout(200)
    assert page.evaluate("document.body.dataset.version") == version  # nothing happened
    return said


def test_A9_A21_arne_unavailable_cards_and_targets_say_why(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    arne_table(page, server)
    until_white_turn(page)
    idle = "#hand .handcard [aria-disabled='true']"
    assert page.locator(idle).count() >= 1, "no unavailable card in this hand"
    card = page.locator(idle).first.locator("xpath=..").get_attribute("data-card")
    said = _why(page, idle)
    print(f"a click on {card} says:", said)
    assert said.startswith("you can't") and not JARGON.search(said), said
    black = ("CRUSH", "LOCK", "THIEF", "STOP", "REVERSE", "CHAMELEON", "MINUS200")
    if card and card.split()[-1] in black:
        assert said == (
            "you can't play a black card now: play your white card first, then everybody may answer"
        )
    # A picked card's unlit target answers too (a point card: another colour's display).
    points = page.locator("#hand .handcard.playable[data-card*=' P'] [role=button]")
    if points.count():
        points.first.click()
        target = "#displays .display[aria-disabled='true']"
        assert page.locator(target).count() >= 1
        said = _why(page, target)
        print("a click on another display says:", said)
        assert said.startswith("you can't lay") and not JARGON.search(said), said
    assert serious_violations(page) == []
    page.screenshot(path=f"{SHOTS}/arne-why-not.png")
    assert not [e for e in page.errors if "status of 4" not in e]  # type: ignore[attr-defined]
    page.context.close()


def test_D10_drop_it_a_used_up_piece_says_why(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    body = {
        "game": "drop-it",
        "options": {},
        "seats": ["open", "random"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
        "seed": 5,
    }
    create_table(page, server, body)
    deadline = time.time() + 90
    dropped = 0
    while dropped < 2:  # both red squares go in
        assert time.time() < deadline
        page.wait_for_selector("#supply button.piece[data-piece='red-square']:not(.unavailable)")
        page.locator("#drop-btn").wait_for()
        version = int(page.evaluate("document.body.dataset.version"))
        page.locator("#supply button.piece[data-piece='red-square']").click()
        page.locator("#drop-btn").click()
        wait_js(page, f"Number(document.body.dataset.version) > {version}")
        dropped += 1
    page.wait_for_selector("#drop-btn", timeout=60000)
    used = "#supply button.piece.unavailable[data-piece='red-square']"
    page.wait_for_selector(used)
    said = _why(page, used)
    print("a click on the used-up red square says:", said)
    assert said.startswith("you can't drop a red square: all of yours are on the board (left: ")
    assert not JARGON.search(said), said
    assert serious_violations(page) == []
    page.screenshot(path=f"{SHOTS}/drop-it-why-not.png")
    page.context.close()
