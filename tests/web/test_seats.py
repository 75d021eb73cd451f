"""People who leave and seats the owner arranges (issue 14, item 2), with several people:
each browser context is one person with their own cookies."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import open_page, start_table


def make_table(page: Page, server: Server, seats: int, settings: dict[str, Any]) -> str:
    """Ann creates a Drop or Stop table sitting at seat 0, and opens it."""
    body = {
        "game": "drop-or-stop",
        "options": {"players": seats},
        "seats": ["open"] * seats,
        "settings": {"bot_delay": 0, **settings},
        "name": "Ann",
        "sit": 0,
    }
    r = page.request.post(f"{server.url}/api/tables", data=body)
    assert r.status == 201, r.text()
    tid = str(r.json()["id"])
    page.goto(f"{server.url}/tables/{tid}")
    page.wait_for_selector("#lobby-seats .seat")
    return tid


def sit(page: Page, server: Server, tid: str, seat: int, name: str) -> None:
    page.goto(f"{server.url}/tables/{tid}")
    page.fill("#join-name", name)
    page.click(f'[data-join="{seat}"]')
    wait_js(page, "document.querySelector('#lobby-seats .seat.me') !== null")


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '0'"))


def play_a_move(page: Page) -> bool:
    """Ann's move when it is hers (always drop or stop: whichever is legal)."""
    for sel in ("#stop", "#drop"):
        button = page.locator(sel)
        if button.count() and button.is_enabled():
            v = version(page)
            button.click()
            wait_js(page, f"Number(document.body.dataset.version) > {v}")
            return True
    return False


def test_a_leaver_is_replaced_by_a_bot_and_takes_the_seat_back(
    server: Server, browser: Browser
) -> None:
    ann = open_page(browser)
    tid = make_table(ann, server, 2, {"grace_seconds": 1, "clock": "relaxed"})
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    wait_js(bob, "document.body.dataset.status === 'running'")
    wait_js(bob, "document.querySelector('#drop') !== null")
    # Bob closes the tab: after the 1 s grace a bot plays for him, said by name.
    bob.goto("about:blank")
    ann.wait_for_selector('[data-stand-in="1"]', timeout=10000)
    assert ann.locator('[data-stand-in="1"]').inner_text() == "bot playing for Bob"
    # The game goes on: the bot makes Bob's moves (Ann makes only hers).
    start = version(ann)
    deadline = time.time() + 30
    ann_moves = 0
    while version(ann) - start < ann_moves + 2 and time.time() < deadline:
        if play_a_move(ann):
            ann_moves += 1
        ann.wait_for_timeout(50)
    bot_moves = version(ann) - start - ann_moves
    print(f"while Bob was away: Ann {ann_moves} moves, the bot for Bob {bot_moves}")
    assert bot_moves >= 1 or ann.locator("#results").is_visible()
    ann.screenshot(path=f"{SHOTS}/bot-playing-for-bob.png")
    # Bob comes back: the bot leaves his seat, he is seated again and can play.
    bob.goto(f"{server.url}/tables/{tid}")
    wait_js(ann, "document.querySelector('[data-stand-in]') === null")
    wait_js(bob, "document.querySelector('#players .seat.me') !== null")
    assert "Bob" in bob.locator("#players .seat.me").inner_text()
    assert bob.locator("[data-stand-in]").count() == 0
    state = bob.request.get(f"{server.url}/api/tables/{tid}").json()
    assert state["you"] == 1 and state["seats"][1]["stand_in"] is False
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()


def test_the_owner_hands_a_seat_to_a_bot_and_the_person_takes_it_back(
    server: Server, browser: Browser
) -> None:
    ann = open_page(browser)
    tid = make_table(ann, server, 2, {"grace_seconds": 0})  # 0: never by itself
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    wait_js(bob, "document.body.dataset.status === 'running'")
    # Only the owner may: Bob cannot hand Ann's seat to a bot.
    r = bob.request.post(f"{server.url}/api/tables/{tid}/seats/0", data={"to": "bot"})
    assert r.status == 403, r.text()
    ann.click('[data-hand="1"]')
    bob.wait_for_selector("#take-back")
    assert bob.locator('[data-stand-in="1"]').inner_text() == "bot playing for Bob"
    bob.click("#take-back")
    wait_js(ann, "document.querySelector('[data-stand-in]') === null")
    wait_js(bob, "document.querySelector('#take-back') === null")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()


def test_before_the_start_the_owner_arranges_bots_open_seats_and_removes_a_person(
    server: Server, browser: Browser
) -> None:
    ann = open_page(browser)
    tid = make_table(ann, server, 3, {})
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    # An open seat becomes a bot, and the bot seat opens again.
    ann.click('[data-seat-bot="2"]')
    wait_js(bob, "document.querySelectorAll('#lobby-seats .seat')[2].textContent.includes('Bot')")
    ann.click('[data-seat-open="2"]')
    wait_js(bob, "document.querySelector('[data-join=\"2\"]') === null")  # Bob is seated
    wait_js(ann, "document.querySelector('[data-seat-bot=\"2\"]') !== null")
    # Bob cannot arrange seats; the owner removes Bob.
    r = bob.request.post(f"{server.url}/api/tables/{tid}/seats/2", data={"to": "bot"})
    assert r.status == 403
    ann.click('[data-seat-remove="1"]')
    bob.wait_for_selector('[data-join="1"]')  # Bob's page is a visitor's again
    info = bob.request.get(f"{server.url}/api/tables/{tid}").json()
    assert info["you"] is None and info["seats"][1]["kind"] == "open"
    bad = ann.request.post(f"{server.url}/api/tables/{tid}/seats/9", data={"to": "bot"})
    assert bad.status == 409 or bad.status == 400, bad.text()
    assert "seat 10 does not exist" in bad.json()["error"]  # from 1, as the page
    bad = ann.request.post(f"{server.url}/api/tables/{tid}/seats/2", data={"to": "<b>x"})
    assert bad.status == 400 and "open, bot" in bad.json()["error"]
    ann.click('[data-seat-bot="1"]')
    ann.click('[data-seat-bot="2"]')
    start_table(ann)
    wait_js(ann, "document.body.dataset.status === 'running'")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    bob.context.close()
    ann.context.close()


def test_a_bot_sitting_in_survives_a_restart_of_its_store(tmp_path: Any) -> None:
    """The stand-in is stored with the seat (the seat's bot column), so a restarted server
    still has the bot playing for the person."""
    from gamenight.server.db import SeatRow, Store, TableRow, connect, migrate

    engine = connect(f"sqlite:///{tmp_path / 'gn.sqlite3'}")
    migrate(engine)
    store = Store(engine)
    row = TableRow("t1", "drop-or-stop", {}, 1, "running", {}, "h", 0, 0.0, 0.0)
    row.seats = [SeatRow(0, "person", "Ann", None, "x"), SeatRow(1, "person", "Bob", None, "y")]
    store.create_table(row)
    store.update_seat("t1", SeatRow(1, "person", "Bob", "bot", "y"))
    again = store.table("t1")
    assert again is not None and again.seats[1].bot == "bot" and again.seats[1].token_hash == "y"
    engine.dispose()
