"""Drop It at the table (issue 13, items 2, 7 and 9)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
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


LOGGED = "[...document.querySelectorAll('#log div')].some((d) => d.textContent.startsWith('{who}'))"


def test_a_drop_without_aiming_keeps_the_edge_rule(server: Server, browser: Browser) -> None:
    """New-user finding 5: the default aim (the middle) sat on a floor mark of the piece's own
    colour, so pressing Drop at once scored 0 for "the edge rule" with no warning before."""
    page = open_page(browser, DESKTOP)
    for seed in (5, 6, 7):
        create_table(page, server, {**BODY, "seed": seed})
        my_drop(page)
        assert not page.locator("#edge-warning").is_visible()
        who = "Ann drops"
        page.locator("#drop-btn").click()
        wait_js(page, LOGGED.format(who=who))
        line = next(t for t in page.locator("#log div").all_inner_texts() if t.startswith(who))
        assert "edge" not in line, (seed, line)
    assert not page.errors  # type: ignore[attr-defined]


def test_aiming_onto_an_own_edge_mark_warns_in_plain_words(
    server: Server, browser: Browser
) -> None:
    for name, size in (("desk", DESKTOP), ("phone", PHONE)):
        page = open_page(browser, size)
        create_table(page, server, {**BODY, "seed": 5})
        my_drop(page)
        page.locator("#board").focus()
        warned = []
        for _ in range(30):  # from the left wall to the right one, 10 mm at a time
            page.keyboard.press("Shift+ArrowLeft")
        for _ in range(25):
            if page.locator("#edge-warning").is_visible():
                warned.append(page.locator("#edge-warning").inner_text())
            page.keyboard.press("Shift+ArrowRight")
        assert warned, "never warned"
        colour = page.locator("#supply button.piece.chosen").get_attribute("data-piece") or "-"
        assert f"the {colour.split('-')[0]} mark" in warned[0], warned[0]
        assert "edge mark of its own colour scores 0" in warned[0]
        while not page.locator("#edge-warning").is_visible():
            page.keyboard.press("Shift+ArrowLeft")
        page.screenshot(path=f"{SHOTS}/dropit-{name}-warning.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        # A drop that broke it says the rule in plain words, in the log and under the board.
        line = page.evaluate(
            """async () => {
              const m = await import('/static/games/drop-it.js');
              return m.describeEvent({ kind: 'dropped', seat: 0, piece: 'red-circle-1', level: 1,
                violations: [{ rule: 'EDGE', with: ['bottom-3'] }] },
                ['Ann'], { edge_mode: 'color' });
            }"""
        )
        assert line == (
            "Ann drops a red circle: level 1, breaks the edge rule: it touched the red edge mark"
            " on the floor, and a piece may not touch an edge mark of its own colour."
        ), line
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
