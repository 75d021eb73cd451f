"""Turn clocks with a time bank per person (issue 14, item 1): two people in two browser
contexts; the one who lets the clock run out has the bot make that move, said in the log."""

from __future__ import annotations

from playwright.sync_api import Browser, FloatRect, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import PHONE, open_page, start_table
from tests.web.test_seats import SHOTS, make_table, sit


def test_a_timeout_is_played_by_the_bot_and_the_log_says_so(
    server: Server, browser: Browser
) -> None:
    ann = open_page(browser)
    settings = {"clock": "fast", "clock_bank": 3, "clock_add": 2, "grace_seconds": 0}
    tid = make_table(ann, server, 2, settings)
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    wait_js(ann, "document.body.dataset.status === 'running'")
    # Every person's bank is on the table; the one to move counts down.
    ann.wait_for_selector('[data-clock="0"]')
    ann.wait_for_selector('[data-clock="1"]')
    assert ann.locator("#timerbox").is_visible()
    ann.screenshot(path=f"{SHOTS}/turn-clock.png")
    # Nobody touches anything: the clock of whoever is to move runs out and the bot moves.
    wait_js(ann, "document.querySelector('#log [data-note]') !== null", timeout=15000)
    note = ann.locator("#log [data-note]").first.inner_text()
    print("log:", note)
    assert note.endswith("'s time ran out: a bot made this move for them.")
    assert note.startswith(("Ann", "Bob"))
    assert int(ann.evaluate("document.body.dataset.version")) >= 1
    info = ann.request.get(f"{server.url}/api/tables/{tid}").json()
    banks = info["settings"]["clock_banks"]
    print("banks after the timeout:", banks)
    assert set(banks) == {"0", "1"} and all(0 <= b <= 3 for b in banks.values())
    ann.screenshot(path=f"{SHOTS}/turn-clock-ran-out.png")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()


def test_a_bad_clock_setting_is_one_clear_line(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    body = {"game": "drop-or-stop", "seats": ["open", "easy", "easy"], "settings": {"clock": "<b>"}}
    r = page.request.post(f"{server.url}/api/tables", data=body)
    assert r.status == 400
    assert r.json()["error"] == "setting 'clock' must be one of off, relaxed, normal, fast"
    page.context.close()


def test_the_clock_shows_on_the_first_turn(server: Server, browser: Browser) -> None:
    """Issue 45, item 1: the clock runs from the game's first decision, so both pages show
    every bank, the running chip and the timer bar before anyone has moved (before, the
    first state message carried no banks and no deadline, and nothing was sent when the
    clock started: the chips appeared only after the first move)."""
    ann = open_page(browser)
    settings = {"clock": "fast", "grace_seconds": 0}
    tid = make_table(ann, server, 2, settings)
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    for page in (ann, bob):
        wait_js(page, "document.body.dataset.status === 'running'")
        page.wait_for_selector('[data-clock="0"]', timeout=3000)
        page.wait_for_selector('[data-clock="1"]', timeout=3000)
        page.wait_for_selector("[data-clock][data-until]", timeout=3000)  # one counts down
        wait_js(page, "!document.querySelector('#timerbox').hidden", timeout=3000)
        assert "left on the clock" in page.locator("#timer-text").inner_text()
        assert int(page.evaluate("document.body.dataset.version")) == 0  # nobody moved yet
    ann.screenshot(path=f"{SHOTS}/turn-clock-first-turn.png")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()


def in_view(page: Page, selector: str) -> FloatRect:
    """The element's box, asserted whole inside the window."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    return box


def test_on_a_phone_the_running_clock_stays_in_view(server: Server, browser: Browser) -> None:
    """Issue 45, item 1, as a player on a phone meets it: the timer box was in the aside,
    below the table (y > 1,000 at 390x844), so whoever was on turn saw no clock at all, and
    the chip was at the foot of the screen. Now the running clock is a strip at the top of
    the screen, over no control, and it stays there when the page is scrolled."""
    ann = open_page(browser, PHONE, touch=True)
    tid = make_table(ann, server, 2, {"clock": "fast", "grace_seconds": 0})
    bob = open_page(browser, PHONE, touch=True)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    on_turn = 0
    for page in (ann, bob):
        wait_js(page, "document.body.dataset.status === 'running'")
        wait_js(page, "!document.querySelector('#timerbox').hidden", timeout=3000)
        page.evaluate("window.scrollTo(0, 0)")
        clock = in_view(page, "#timerbox")
        text = page.locator("#timer-text").inner_text()
        assert "left on the clock" in text, text
        mine = page.locator("#drop:enabled").count() > 0
        on_turn += mine
        assert text.startswith("You: ") == mine, text  # "You" starts the line
        for control in ("header.top", "#drop", "#stop"):  # nothing under the strip
            box = page.locator(control).bounding_box()
            assert box is not None and box["y"] >= clock["y"] + clock["height"] - 1, control
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the log
        page.wait_for_timeout(100)
        in_view(page, "#timerbox")
        assert "left on the clock" in page.locator("#timer-text").inner_text()
        page.evaluate("window.scrollTo(0, 0)")
    assert on_turn == 1
    (ann if ann.locator("#drop:enabled").count() else bob).screenshot(
        path=f"{SHOTS}/turn-clock-phone.png"
    )
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()
