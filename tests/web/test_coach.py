"""The coach at Arne's and Drop It's tables, and the review after a game (issue 13, item 8)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import DESKTOP, PHONE, create_table, open_page, serious_violations
from tests.web.test_arne import arne_table, until_white_turn
from tests.web.test_drop_or_stop import play_to_the_end

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


DROP_IT = {
    "game": "drop-it",
    "options": {},
    "seats": ["open", "medium"],
    "settings": {"bot_delay": 0},
    "sit": 0,
    "name": "Ann",
    "seed": 5,
}
POINTS = re.compile(r"^\w+ \w+ at \d+ mm, turned \d+° — \d+\.\d points expected")


def test_drop_its_coach_draws_the_planners_best_drops_as_ghosts(
    server: Server, browser: Browser
) -> None:
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = open_page(browser, size, touch=size is PHONE)
        create_table(page, server, DROP_IT)
        page.wait_for_selector("#drop-btn", timeout=60000)
        if not page.locator("#coach").is_checked():
            page.check("#coach")
        page.wait_for_selector("#coach-drops li", timeout=30000)
        drops = page.locator("#coach-drops li").all_inner_texts()
        assert 1 <= len(drops) <= 3 and all(POINTS.search(d) for d in drops), drops
        ghosts = page.locator("#board .coach-ghost")
        assert ghosts.count() == len(drops)
        assert [ghosts.nth(i).get_attribute("data-rank") for i in range(ghosts.count())] == [
            str(i + 1) for i in range(len(drops))
        ]
        page.evaluate(
            "window.scrollTo(0, window.scrollY - 520"
            " + document.querySelector('#board').getBoundingClientRect().bottom)"
        )
        page.screenshot(path=f"{SHOTS}/drop-it-coach-{name}.png")
        # "aim here" aims the best drop: its piece is chosen and the aim shows its place.
        first = drops[0]
        page.locator("#coach-drops li button.coach-aim").first.click()
        chosen = page.locator("#supply button.piece.chosen").get_attribute("data-piece") or ""
        assert first.startswith(chosen.replace("-", " "))
        mm = first.split(" at ")[1].split(" mm")[0]
        assert f"{mm} mm" in page.locator("#aim-text").inner_text()
        # Without jitter the planner's simulation is the drop: aimed there, it scores that.
        expected = float(first.split("— ")[1].split(" points")[0])
        piece = first.split(" at ")[0]
        page.click("#drop-btn")
        scored = f"for the {piece}; "  # "...; Ann now has 3."
        wait_js(
            page,
            "[...document.querySelectorAll('#log div')]"
            f".some((d) => d.textContent.includes('{scored}'))",
            60000,
        )
        line = next(t for t in page.locator("#log div").all_inner_texts() if scored in t)
        awarded = 0.0 if line.startswith("No points") else float(line.split()[0])
        assert awarded == expected, (line, first)
        assert serious_violations(page) == []
        assert page.errors == []  # type: ignore[attr-defined]


def test_after_the_game_the_replay_reviews_your_decisions(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2, "wins_to_win": 1},
        "seats": ["open", "easy"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
        "seed": 11,
    }
    tid = create_table(page, server, body)
    review = f"{server.url}/api/tables/{tid}/coach/review"
    page.wait_for_selector("#drop:enabled", timeout=30000)
    # Never while the game is on.
    assert page.request.post(review).status == 409
    play_to_the_end(page, by_keyboard=False)
    page.goto(f"{server.url}/tables/{tid}/replay")
    wait_js(page, "document.body.dataset.step !== undefined")
    # the player's replay opens as they saw it, and their seat is the one to review (it
    # opened as a spectator's, and "mine" was their own seat a second time)
    offered = page.locator("#review-seat option").all_inner_texts()
    assert offered == ["Ann", "Bot 2 (easy)"], offered
    assert page.input_value("#review-seat") == "0" and page.input_value("#seat") == "0"
    page.click("#review-start")
    page.wait_for_selector("#review li", timeout=60000)
    wait_js(page, "document.querySelector('#review-text').textContent.includes('reviewed')")
    done = page.request.get(review).json()
    assert done["finished"] and done["done"] == done["total"] and done["seat"] == 0
    items = page.locator("#review li").all_inner_texts()
    assert len(items) == len(done["steps"]) >= 1
    for text, item in zip(items, done["steps"], strict=True):
        assert text.startswith(f"{item['step'] + 1}. {item['played']['type'].title()} — "), text
        assert ("✓ the coach's choice" in text) == (item["rank"] == 0), text
    # A decision opens at its step with the coach's two numbers.
    page.locator("#review li button").first.click()
    # at the position after the move, as the move list and the slider number it
    wait_js(page, f"document.body.dataset.step === '{done['steps'][0]['step'] + 1}'")
    first = done["steps"][0]["step"] + 1
    assert page.locator("#step-text").inner_text().startswith(f"step {first} of ")
    page.wait_for_selector("#review-detail li")
    detail = page.locator("#review-detail li").all_inner_texts()
    assert [d.split(":")[0] for d in detail] == ["Drop", "Stop"]
    assert all(d.endswith("% to win the round") for d in detail)
    assert serious_violations(page) == []
    page.screenshot(path=f"{SHOTS}/review-desktop.png", full_page=True)
    # Someone who did not play names a seat; without one they are told to.
    other = open_page(browser, PHONE)
    assert other.request.post(review).status == 400
    assert other.request.post(f"{review}?seat=1").ok
    assert other.request.post(f"{review}?seat=7").status == 400
    other.goto(f"{server.url}/tables/{tid}/replay")
    wait_js(other, "document.body.dataset.step !== undefined")
    assert other.locator("#review-seat option").all_inner_texts() == ["Ann", "Bot 2 (easy)"]
    assert other.input_value("#seat") == ""  # a watcher's replay: a spectator's view
    other.select_option("#review-seat", "0")
    other.click("#review-start")
    other.wait_for_selector("#review li", timeout=60000)
    other.locator("#review li button").last.click()
    other.wait_for_selector("#review-detail li")
    # the review's list is far below the board on a phone: the click brings the step's
    # sentence, the coach's view and the board into sight (it changed them out of view)
    wait_js(
        other, "Math.abs(document.querySelector('#step-action').getBoundingClientRect().top) < 60"
    )
    other.screenshot(path=f"{SHOTS}/review-phone-step.png")
    other.screenshot(path=f"{SHOTS}/review-phone.png", full_page=True)
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]
