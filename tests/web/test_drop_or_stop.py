"""Drop or Stop from the lobby to the end and its replay (issue 13, items 1, 5, 6 and 9)."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    create_from_lobby,
    open_page,
    serious_violations,
)


def play_to_the_end(page: Page, by_keyboard: bool) -> list[str]:
    """Drop or stop at random until the results show; returns the round announcements seen."""
    rng = random.Random(5)
    moments: list[str] = []
    deadline = time.time() + 120
    while not page.locator("#results").is_visible():
        assert time.time() < deadline, "the game did not finish"
        moment = page.locator("#moment")
        if moment.count():
            text = moment.inner_text()
            if not moments or moments[-1] != text:
                moments.append(text)
        if page.locator("#drop").count() and page.locator("#drop").is_enabled():
            version = page.evaluate("document.body.dataset.version")
            drop = rng.random() < 0.5
            if by_keyboard:
                page.keyboard.press("d" if drop else "s")
            else:
                page.click("#drop" if drop else "#stop")
            wait_js(page, f"document.body.dataset.version !== '{version}'")
        page.wait_for_timeout(30)
    return moments


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_person_plays_a_whole_game_from_the_lobby(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    page = open_page(browser, size)
    create_from_lobby(page, server)
    page.wait_for_selector("#drop")
    assert serious_violations(page) == []
    moments = play_to_the_end(page, by_keyboard=size is PHONE)
    # The round's moment is said where the eye is: who won and why.
    assert moments and all(m.startswith(("You", "Bot", "Nobody")) for m in moments), moments
    assert any("round" in m for m in moments)
    assert page.locator("#winner-line").inner_text().endswith(("wins!", "win!"))
    assert serious_violations(page) == []
    lines = page.locator("#log div").all_inner_texts()
    assert lines[-1].startswith("Game over"), lines[-3:]  # newest at the bottom
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert not page.errors  # type: ignore[attr-defined]


def test_the_replay_tells_the_game_and_reveals_every_hand(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    tid = create_from_lobby(page, server)
    play_to_the_end(page, by_keyboard=True)
    page.goto(f"{server.url}/tables/{tid}/replay")
    wait_js(page, "document.body.dataset.step !== undefined")
    moves = page.locator("#moves li").all_inner_texts()
    assert moves[0].endswith("The start.")
    assert any("drops a" in m or "stops." in m for m in moves)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.step") == "2"
    assert page.locator("#step-action").inner_text().endswith(".")
    page.check("#reveal-all")
    page.wait_for_selector("#hands .hand-row svg")
    assert page.locator("#hands .hand-row").count() == 2
    page.locator("#moves li button").nth(5).click()
    assert page.evaluate("document.body.dataset.step") == "5"
    assert serious_violations(page) == []
    assert not page.errors  # type: ignore[attr-defined]


def test_the_coach_gives_the_exact_odds_only_against_bots(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2},
        "seats": ["open", "hard"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
        "seed": 2,
    }
    r = page.request.post(f"{server.url}/api/tables", data=body)
    tid = r.json()["id"]
    page.goto(f"{server.url}/tables/{tid}")
    page.click("#start")
    page.wait_for_selector("#drop:enabled", timeout=30000)
    page.check("#coach")
    page.wait_for_selector("#coach-advice .odds", timeout=30000)
    odds = page.locator("#coach-advice .odds").all_inner_texts()
    assert [o.split(":")[0] for o in odds] == ["Drop", "Stop"]
    assert all(o.split(": ")[1].rstrip("✓ best").strip().endswith("%") for o in odds)
    assert page.locator("#coach-advice .odds.best").count() == 1
    assert serious_violations(page) == []
    # A spectator gets no coach, and neither does a seat at a table with another person.
    spectator = open_page(browser)
    refused = spectator.request.get(f"{server.url}/api/tables/{tid}/coach")
    assert refused.status == 409 or refused.status == 400, refused.status
    other = open_page(browser)
    r = other.request.post(
        f"{server.url}/api/tables",
        data={**body, "seats": ["open", "open"], "seed": 3, "practice": True},
    )
    tid2 = r.json()["id"]
    assert other.request.get(f"{server.url}/api/tables/{tid2}/coach").status in (400, 409)
    other.goto(f"{server.url}/tables/{tid2}")
    other.wait_for_selector("#lobby-seats .seat")
    assert other.locator("#coach").count() == 0
