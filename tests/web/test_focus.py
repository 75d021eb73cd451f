"""Keyboard focus stays on the hand or the action bar after a move (issue 45, item 5): every
state redraws the table, and the focused button was replaced, so focus fell to the page body
and the next Tab started again from the top of the page."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import create_table, open_page
from tests.web.test_arne import arne_table

# Where focus is, in words: "BODY", or "<tag>#<id>" and the id of the action bar around it.
FOCUS = """(bar) => {
  const a = document.activeElement;
  if (!a || a === document.body) return { where: 'BODY', bar: null };
  const home = a.closest(bar);
  return { where: `${a.localName}#${a.id}`, bar: home ? home.id : null, text: a.textContent };
}"""


def focus_of(page: Page, bar: str) -> dict[str, str | None]:
    found: dict[str, str | None] = page.evaluate(FOCUS, bar)
    return found


def on_the_bar(page: Page, bar: str, step: str) -> dict[str, str | None]:
    """After a move: focus is on the bar or a control in it, never on the page body."""
    page.wait_for_timeout(150)  # the redraws of the move and of the bots' answers
    found = focus_of(page, bar)
    assert found["where"] != "BODY", f"{step}: focus fell to the page body"
    assert found["bar"] == bar.removeprefix("#"), f"{step}: focus is on {found}"
    return found


def moved(page: Page, version: str) -> None:
    wait_js(page, f"document.body.dataset.version !== '{version}'")


def version_of(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.version"))


def my_turn(page: Page, timeout: float = 30) -> bool:
    """Waits for the person's DROP (True) or for the end of the game (False)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.locator("#results").is_visible():
            return False
        if page.locator("#drop:enabled").count():
            return True
        page.wait_for_timeout(50)
    raise AssertionError("never asked to drop or stop")


def test_drop_or_stop_keeps_focus_on_the_hand_after_each_move(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    create_table(
        page,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "settings": {"bot_delay": 0},
            "sit": 0,
            "name": "Ann",
            "seed": 3,
        },
    )
    assert my_turn(page)
    # Keys alone, from the page body: D drops; then focus is on the hand's bar.
    version = version_of(page)
    page.keyboard.press("d")
    moved(page, version)
    on_the_bar(page, "#my-hand", "D pressed")
    # Enter on the focused DROP: the move is made and focus comes back to DROP.
    for step in range(3):
        if not my_turn(page):
            break
        found = on_the_bar(page, "#my-hand", f"turn {step}")
        assert found["where"] == "button#drop", f"turn {step}: {found}"
        version = version_of(page)
        page.keyboard.press("Enter")
        moved(page, version)
        on_the_bar(page, "#my-hand", f"Enter on DROP {step}")
    # Peek is the same control after its redraw (its words change: Peek, Hide).
    page.keyboard.press("Shift+Tab")
    if focus_of(page, "#my-hand")["where"] != "button#peek":
        page.focus("#peek")
    page.keyboard.press("Enter")
    assert focus_of(page, "#my-hand")["where"] == "button#peek"
    page.keyboard.press("Enter")
    assert focus_of(page, "#my-hand")["where"] == "button#peek"
    # Focus the person took elsewhere stays there: a key typed in the log is still a move.
    if my_turn(page):
        page.focus("#log")
        version = version_of(page)
        page.keyboard.press("s")
        moved(page, version)
        page.wait_for_timeout(150)
        assert focus_of(page, "#my-hand")["where"] == "div#log"
    assert not page.errors  # type: ignore[attr-defined]


def test_arne_keeps_focus_on_the_hand_bar_after_each_move(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    arne_table(page, server, seed=7)
    page.wait_for_selector("button.colour-choice")
    # The colour, chosen with the keyboard: Enter on a focused colour button.
    page.focus("button.colour-choice")
    version = version_of(page)
    page.keyboard.press("Enter")
    moved(page, version)
    on_the_bar(page, "#handbar", "colour chosen")
    passes = white = 0
    deadline = time.time() + 90
    while (passes < 4 or white < 1) and time.time() < deadline:
        if page.locator("#handbar.answer").count():
            version = version_of(page)
            page.keyboard.press("p")
            moved(page, version)
            passes += 1
            on_the_bar(page, "#handbar", f"pass {passes}")
        elif page.locator("#handbar.asked .handcard.playable").count() and (
            "play a white card" in page.locator("#who-acts").inner_text()
        ):
            # A card by its number, then Tab to its first way to play and Enter.
            cards = page.locator("#hand .handcard")
            index = next(
                i
                for i in range(cards.count())
                if "playable" in (cards.nth(i).get_attribute("class") or "")
            )
            version = version_of(page)
            page.keyboard.press(str(index + 1))
            for _ in range(40):
                if version_of(page) != version:
                    break
                now = focus_of(page, "#handbar")
                assert now["where"] != "BODY", "focus fell to the body after picking a card"
                if page.evaluate(
                    "document.activeElement.matches('button.choice, .target[role=button]')"
                ):
                    page.keyboard.press("Enter")
                    break
                page.keyboard.press("Tab")
            moved(page, version)
            white += 1
            on_the_bar(page, "#handbar", "white card played")
        else:
            page.wait_for_timeout(100)
    assert passes >= 4 and white >= 1, (passes, white)
    assert not page.errors  # type: ignore[attr-defined]


DROP_IT = {
    "game": "drop-it",
    "options": {},
    "seats": ["open", "random"],
    "settings": {"bot_delay": 0},
    "sit": 0,
    "name": "Ann",
    "seed": 5,
}


def test_drop_it_keeps_focus_on_the_drop_bar_after_each_drop(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    create_table(page, server, DROP_IT)
    for step in range(3):
        page.wait_for_selector("#drop-btn", timeout=60000)
        version = version_of(page)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")  # from the body at first, then from the Drop button
        moved(page, version)
        on_the_bar(page, "#controls", f"drop {step}")
        page.wait_for_selector("#drop-btn", timeout=60000)
        wait_js(page, "document.activeElement && document.activeElement.id === 'drop-btn'")
    assert not page.errors  # type: ignore[attr-defined]
