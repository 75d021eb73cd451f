"""Issue 45 item 6 in the browser: an option whose value is a seat (declared seat=True:
Arne's first_seat, Drop It's start_seat, Drop or Stop's first_start_seat) is chosen as a
player number from 1; the table gets the engine's seat index from 0. The lobby's form showed
a number field holding the engine's 0 for the first player."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.helpers import Server
from tests.web.conftest import open_page


def test_the_first_player_is_chosen_as_a_player_number(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="arne"]')
    page.wait_for_selector("label.variant >> text=Team game")
    page.fill("#name", "Ann")
    page.fill('#players-opt [name="players"]', "3")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.click("#advanced summary")
    first = page.locator('#options select[name="first_seat"]')
    assert first.locator("option").all_inner_texts() == [
        "random",
        "player 1",
        "player 2",
        "player 3",
    ]
    assert first.evaluate("s => s.selectedOptions[0].textContent") == "player 1"
    # more players: more choices, the choice kept
    page.select_option('#options select[name="first_seat"]', label="player 3")
    page.fill('#players-opt [name="players"]', "4")
    page.dispatch_event('#players-opt [name="players"]', "change")
    assert first.locator("option").all_inner_texts()[-1] == "player 4"
    assert first.evaluate("s => s.selectedOptions[0].textContent") == "player 3"
    page.select_option('#options select[name="first_seat"]', label="player 2")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    tid = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"{server.url}/api/tables/{tid}").json()
    assert (
        int(info["options"]["first_seat"]) == 1
    )  # player 2: the engine's seat 1 (a form sends text)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_drop_or_stop_starts_at_random_unless_a_player_is_chosen(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="drop-or-stop"]')
    page.fill('#players-opt [name="players"]', "2")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.click("#advanced summary")
    start = page.locator('#options select[name="first_start_seat"]')
    assert start.locator("option").all_inner_texts() == ["random", "player 1", "player 2"]
    assert start.input_value() == "random"
    assert "seat index" not in page.locator("#options").inner_text()
    page.context.close()
