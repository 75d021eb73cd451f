"""Drop It at the table (issue 13, items 2, 7 and 9)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import DESKTOP, PHONE, create_table, open_page, serious_violations

BODY = {
    "game": "drop-it",
    "options": {},
    "seats": ["open", "random"],
    "settings": {"bot_delay": 0},
    "sit": 0,
    "name": "Ann",
    "seed": 5,
}


def my_drop(page: Page) -> None:
    page.wait_for_selector("#drop-btn", timeout=60000)


def test_the_piece_picker_shows_shapes_in_their_colours(server: Server, browser: Browser) -> None:
    page = open_page(browser, DESKTOP)
    create_table(page, server, BODY)
    my_drop(page)
    pieces = page.locator("#supply button.piece")
    assert pieces.count() >= 4
    for i in range(pieces.count()):
        button = pieces.nth(i)
        assert button.locator("svg circle, svg polygon").count() == 1  # the shape, drawn
        label = button.get_attribute("aria-label") or ""
        assert label.split()[0] in ("red", "yellow", "blue", "green") and "left" in label
        assert button.locator("svg text").text_content() in "●★■▲"  # colour never alone
    assert "red-circle" not in page.locator("#game").inner_text()
    # The Drop button sits beside the board on a desktop.
    board = page.locator("#board").bounding_box()
    drop = page.locator("#drop-btn").bounding_box()
    assert board and drop and drop["x"] > board["x"] + board["width"] - 1
    assert serious_violations(page) == []
    # Keys alone: choose a piece, move, turn, drop.
    page.keyboard.press("]")
    chosen = page.locator("#supply button.piece.chosen").get_attribute("data-piece")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("e")
    version = page.evaluate("document.body.dataset.version")
    page.keyboard.press("Enter")
    wait_js(page, f"document.body.dataset.version !== '{version}'")
    assert chosen is not None
    page.wait_for_selector("#log div")
    first = page.locator("#log div").first.inner_text()
    assert first.startswith("Ann drops a ") and first.endswith("."), first
    assert "-" not in first.split(":")[0]  # "red circle", not "red-circle-1"
    assert not page.errors  # type: ignore[attr-defined]


def test_on_a_phone_one_tap_aims_and_a_second_tap_drops(server: Server, browser: Browser) -> None:
    page = open_page(browser, PHONE, touch=True)
    create_table(page, server, BODY)
    my_drop(page)
    board = page.locator("#board")
    box = board.bounding_box()
    assert box is not None
    version = page.evaluate("document.body.dataset.version")
    page.touchscreen.tap(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.4)
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.version") == version  # only aimed
    assert "tap again" in page.locator("#aim-text").inner_text()
    # The Drop bar stays in reach of a thumb.
    bar = page.locator("#controls").bounding_box()
    assert bar and bar["y"] + bar["height"] <= 844 + 1
    page.touchscreen.tap(box["x"] + box["width"] * 0.3 + 4, box["y"] + box["height"] * 0.4)
    wait_js(page, f"document.body.dataset.version !== '{version}'")
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.errors  # type: ignore[attr-defined]
