"""The coach at Arne's and Drop It's tables, and the review after a game (issue 13, item 8)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser

from tests.server.helpers import Server
from tests.web.conftest import PHONE, open_page, serious_violations
from tests.web.test_arne import arne_table, until_white_turn

SHOTS = "/work/wt/shots13"
ODDS = re.compile(r"— chosen in \d+% of 1000 searches, standing \d+%$")


def test_arnes_coach_lists_the_hard_bots_best_three_plays(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    tid = arne_table(page, server)
    until_white_turn(page)
    page.check("#coach")
    page.wait_for_selector("#coach-plays li", timeout=30000)
    plays = page.locator("#coach-plays li").all_inner_texts()
    assert 1 <= len(plays) <= 3
    assert all(ODDS.search(p.removesuffix(" ✓ best").strip()) for p in plays), plays
    assert page.locator("#coach-plays li.best").count() == 1
    # Each play is said in the table's own words (a play the person can make now).
    buttons = page.locator("#hand .handcard.playable").count()
    assert buttons >= 1 and not any("_" in p for p in plays)
    assert serious_violations(page) == []
    page.screenshot(path=f"{SHOTS}/arne-coach-desktop.png")
    # The coach was asked: this table is never rated.
    assert page.request.get(f"{server.url}/api/tables/{tid}").ok
    # On a phone the list fits the screen.
    phone = open_page(browser, PHONE, touch=True)
    arne_table(phone, server, seed=8)
    until_white_turn(phone)
    if not phone.locator("#coach").is_checked():
        phone.check("#coach")
    phone.wait_for_selector("#coach-plays li", timeout=30000)
    box = phone.locator("#coach-plays").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    phone.screenshot(path=f"{SHOTS}/arne-coach-phone.png")
    assert page.errors == [] and phone.errors == []  # type: ignore[attr-defined]
