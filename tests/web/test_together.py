"""New people playing together: pass and play from the lobby, a person who left said in
words (and the stand-in bot's moves marked), "Let a bot play" only for someone away, a
spectator told they are watching, a rematch saying whom it waits for, the creator's page
without a name box and the invite link inside its panel on a phone."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import PHONE, create_table, open_page, start_table


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_you_in_two_seats_makes_a_shared_screen_table(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="drop-or-stop"]')
    page.fill("#name", "Carl")
    page.fill('#players-opt [name="players"]', "3")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.select_option('#seats select[data-seat="1"]', "me")
    page.select_option('#seats select[data-seat="2"]', "easy")
    assert "One shared screen" in page.inner_text("#shared-hint")
    page.fill('#seats [data-seat-name="1"]', "Dana")
    page.fill("#bot_delay", "0")
    shot(page, "together-lobby-shared.png")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#lobby-seats >> text=Dana")
    mine = page.request.get(f"{server.url}/api/tables/{tid}/shared").json()
    assert mine == {"shared_screen": True, "seats": [0, 1]}
    assert page.locator("[data-seat-bot]").count() == 0  # no open seat is left
    page.wait_for_selector("#start:not([disabled])")
    # before the start the device's two people are at the table, not watching it
    page.wait_for_selector("#players .seat >> text=Dana")
    assert page.locator("#players .status-dot.offline").count() == 0
    assert page.locator("#spectators").count() == 0
    shot(page, "together-shared-created.png")
    start_table(page)
    page.wait_for_selector("#handover:not([hidden])")
    assert page.inner_text("#handover-h") in ("Pass the device to Carl", "Pass the device to Dana")
    page.click("#handover-ready")
    wait_js(page, "document.querySelector('#handover').hidden")
    page.wait_for_timeout(300)
    assert page.locator("#away").count() == 0  # the other person waits for the device
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_person_who_left_is_said_away_and_the_bot_moves_are_marked(
    server: Server, browser: Browser
) -> None:
    ann = open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0, "grace_seconds": 4},
            "sit": 0,
            "name": "Ann",
            "seed": 3,
            "practice": True,
        },
        start=False,
    )
    bob = open_page(browser)
    bob.goto(f"{server.url}/tables/{tid}")
    bob.fill("#join-name", "Bob")
    bob.click('[data-join="1"]')
    ann.wait_for_selector("#lobby-seats >> text=Bob")
    start_table(ann)
    wait_js(ann, "document.body.dataset.status === 'running'")
    bob.wait_for_selector("#players >> text=Bob")
    # Bob is present: "Let a bot play" is a quiet link on its own line, not over his name.
    ann.wait_for_selector('#players [data-hand="1"][data-away-hand="0"]')
    apart = ann.evaluate(
        """(() => { const b = document.querySelector('#players [data-hand="1"]')
          .getBoundingClientRect();
        const n = [...document.querySelectorAll('#players .seat strong')]
          .find((x) => x.textContent === 'Bob').getBoundingClientRect();
        return b.top >= n.bottom - 0.5; })()"""
    )
    assert apart
    shot(ann, "together-ann-bob-present.png")
    bob.context.close()
    ann.wait_for_selector("#away >> text=Bob is away — a bot plays for them in")
    ann.wait_for_selector('#players [data-hand="1"][data-away-hand="1"]')  # he is away now
    shot(ann, "together-ann-bob-away.png")
    # Ann plays on; the bot sitting in for Bob moves, and the log says so.
    deadline = time.time() + 60
    while time.time() < deadline and "for Bob." not in ann.inner_text("#log"):
        if ann.locator("#stop").count() and ann.locator("#stop").is_enabled():
            ann.click("#stop")
        ann.wait_for_timeout(100)
    log = ann.inner_text("#log")
    assert "A bot" in log and "for Bob." in log, log
    assert ann.locator("#away").count() == 0
    shot(ann, "together-ann-bot-for-bob.png")
    assert ann.errors == [], ann.errors  # type: ignore[attr-defined]
    ann.context.close()


def test_a_spectator_is_told_they_are_watching(server: Server, browser: Browser) -> None:
    ann = open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "settings": {"bot_delay": 0.5},
            "sit": 0,
            "name": "Ann",
            "practice": True,
        },
    )
    # Ann is seated: no name box, her page is not a spectator's.
    assert ann.locator("#watching").count() == 0
    eve = open_page(browser, PHONE)
    eve.goto(f"{server.url}/tables/{tid}")
    eve.wait_for_selector("#watching >> text=You are watching")
    assert not eve.locator("#turn-signal").is_visible()
    placeholder = eve.get_attribute("#chat-input", "placeholder") or ""
    assert placeholder == "players only"
    # The whole placeholder fits in the box.
    assert eve.evaluate(
        "(() => { const i = document.querySelector('#chat-input');"
        " const c = document.createElement('canvas').getContext('2d');"
        " c.font = getComputedStyle(i).font;"
        " return c.measureText(i.placeholder).width <= i.clientWidth; })()"
    )
    shot(eve, "together-spectator.png")
    assert eve.errors == [], eve.errors  # type: ignore[attr-defined]
    eve.context.close()
    ann.context.close()


def test_the_creators_page_and_the_invite_link_on_a_phone(server: Server, browser: Browser) -> None:
    ann = open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "sit": 0,
            "name": "Ann",
        },
        start=False,
    )
    ann.wait_for_selector("#lobby-seats >> text=Ann")
    assert not ann.locator("#join-name").is_visible()  # she is seated already
    bob = open_page(browser, PHONE)
    bob.goto(f"{server.url}/tables/{tid}")
    bob.wait_for_selector('[data-join="1"]')
    assert bob.locator("#join-name").is_visible()
    inside = bob.evaluate(
        "(() => { const c = document.querySelector('#invite-url').getBoundingClientRect();"
        " const p = document.querySelector('#lobby').getBoundingClientRect();"
        " return c.right <= p.right + 0.5; })()"
    )
    assert inside
    shot(bob, "together-phone-invite.png")
    ann.context.close()
    bob.context.close()


def test_a_rematch_says_whom_it_waits_for(server: Server, browser: Browser) -> None:
    from tests.web.test_seats import make_table, sit
    from tests.web.test_series import play_out

    ann = open_page(browser)
    tid = make_table(ann, server, 2, {})
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    play_out([ann, bob])
    # Bob asks first: his new table waits for Ann to accept, and says so.
    bob.click("#rematch")
    bob.wait_for_url(lambda url: tid not in url)
    bob.wait_for_selector("#lobby-msg >> text=waiting for Ann to accept the rematch")
    shot(bob, "together-bob-rematch.png")
    ann.context.close()
    bob.context.close()
