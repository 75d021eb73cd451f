"""The Arne coach and the hand bar do not cover the displays at 1280x800 (issue 45, item 5):
the bar pinned to the bottom of the screen, with the coach's three plays under the hand, was
as tall as the space left under the players, and hid the displays and the discard pile."""

from __future__ import annotations

import contextlib
import time

from playwright.sync_api import Browser, Locator, Page
from playwright.sync_api import Error as PlaywrightError

from tests.server.helpers import SHOTS, Server
from tests.web.conftest import PHONE, open_page, serious_violations
from tests.web.test_arne import arne_table, until_white_turn

LAPTOP = {"width": 1280, "height": 800}

# Each display (and the discard pile) with the part of it the hand bar covers, in pixels.
COVERED = """() => {
  const bar = document.querySelector('#handbar').getBoundingClientRect();
  return [...document.querySelectorAll('#displays .display')].map((d) => {
    const r = d.getBoundingClientRect();
    const x = Math.max(0, Math.min(r.right, bar.right) - Math.max(r.left, bar.left));
    const y = Math.max(0, Math.min(r.bottom, bar.bottom) - Math.max(r.top, bar.top));
    return { display: d.dataset.display, top: r.top, bottom: r.bottom, covered: x * y,
             barTop: bar.top, above: r.top >= 0 };
  });
}"""


def covered(page: Page) -> list[dict[str, float]]:
    page.wait_for_timeout(150)  # a smooth scroll ends
    return [d for d in page.evaluate(COVERED) if d["covered"] > 0 or not d["above"]]


def with_the_coach(page: Page, server: Server, seed: int = 7) -> None:
    arne_table(page, server, seed=seed)
    until_white_turn(page)
    if not page.locator("#coach").is_checked():
        page.check("#coach")
    page.wait_for_selector("#coach-plays li", timeout=30000)


def scroll_to_displays(page: Page) -> None:
    page.evaluate(
        "document.querySelector('#displays')"
        ".scrollIntoView({ block: 'start', behavior: 'instant' })"
    )


def test_the_coach_and_the_hand_bar_leave_the_displays_in_view(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, LAPTOP)
    with_the_coach(page, server)
    # As the turn begins (the page at its top): every display shows above the bar, and the
    # bar with the hand and the coach's plays is whole on the screen.
    page.evaluate("window.scrollTo(0, 0)")
    assert covered(page) == [], page.evaluate(COVERED)
    bar = page.locator("#handbar").bounding_box()
    plays = page.locator("#coach-plays").bounding_box()
    assert bar is not None and plays is not None
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= LAPTOP["height"] + 1, bar
    assert plays["y"] + plays["height"] <= LAPTOP["height"], plays
    assert bar["height"] <= LAPTOP["height"] / 2, bar  # never more than half the screen
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "arne-layout-desktop.png"))
    # Scrolled to the displays: none under the bar, and neither once a card is picked (the
    # bar grows by the ways to play it).
    scroll_to_displays(page)
    assert covered(page) == [], page.evaluate(COVERED)
    page.locator("#hand .handcard.playable [role=button]").first.click()
    page.wait_for_selector("#choice-hint")
    scroll_to_displays(page)
    assert covered(page) == [], page.evaluate(COVERED)
    page.screenshot(path=str(SHOTS / "arne-layout-desktop-picked.png"))
    assert serious_violations(page) == []
    assert not page.errors  # type: ignore[attr-defined]


def test_on_a_phone_each_display_can_be_seen_above_the_bar(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, PHONE, touch=True)
    with_the_coach(page, server)
    for i in range(page.locator("#displays .display").count()):
        page.locator("#displays .display").nth(i).evaluate(
            "(d) => d.scrollIntoView({ block: 'start', behavior: 'instant' })"
        )
        found = page.evaluate(COVERED)[i]
        assert found["covered"] == 0, found
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / "arne-layout-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors  # type: ignore[attr-defined]


def tap(target: Locator) -> None:
    """Click `target` if it holds still; the bots play on meanwhile, and a card or display
    redrawn under the pointer is simply tried again on the loop's next turn."""
    with contextlib.suppress(PlaywrightError):
        target.click(timeout=2000)


def test_late_in_a_four_player_game_every_display_can_be_seen_above_the_bar(
    server: Server, browser: Browser
) -> None:
    """At 1280x800 later in a 4-player game (stacks in the displays, the coach's three plays
    in the bar on the person's turn), the displays start under the bar when the page is at
    its top: each one, scrolled to, shows whole above the hand bar."""
    from tests.web.conftest import create_table

    page = open_page(browser, LAPTOP)
    create_table(
        page,
        server,
        {
            "game": "arne",
            "options": {"players": 4},
            "seats": ["open", "easy", "easy", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": 60},
            "sit": 0,
            "name": "Ann",
            "seed": 11,
        },
    )
    page.wait_for_selector("button.colour-choice")
    page.locator("button.colour-choice").first.click()
    if not page.locator("#coach").is_checked():
        page.check("#coach")
    stacks, ended = 0, False
    # (time, not a count of polls: a CI machine at a load of 15 once needed more than 120 s)
    deadline = time.time() + 240
    while time.time() < deadline:  # play the first playable card, pass otherwise, until late
        stacks = page.locator("#displays [data-stack]").count()
        if page.locator("#results:not([hidden])").count():
            ended = True
            break
        if stacks >= 4 and page.locator("#coach-plays li").count():
            break  # the person's turn with the coach's plays: the bar at its tallest
        playable = page.locator("#hand .handcard.playable [role=button]")
        if page.locator("#handbar.asked").count() and playable.count():
            tap(playable.first)
            page.wait_for_timeout(60)
            lit = page.locator("#displays .target, #players .target")
            if lit.count():
                tap(lit.first)
            elif page.locator("#choice-hint button").count():
                tap(page.locator("#choice-hint button").first)
        elif page.locator("#handbar.answer").count():
            page.keyboard.press("p")
        page.wait_for_timeout(80)
    why = "the game ended" if ended else "240 s went by"
    assert stacks >= 4, f"only {stacks} stacks on the table when {why}"
    tall = page.evaluate("document.querySelector('#displays').getBoundingClientRect().height")
    for i in range(page.locator("#displays .display").count()):
        page.locator("#displays .display").nth(i).evaluate(
            "(d) => d.scrollIntoView({ block: 'start', behavior: 'instant' })"
        )
        mine = page.evaluate(COVERED)[i]
        assert mine["covered"] == 0, (mine, tall)
    page.screenshot(path=str(SHOTS / "arne-layout-late-4p.png"), full_page=False)
    assert not page.errors  # type: ignore[attr-defined]
