"""People in a real browser (Debian's Chromium, headless, driven by Playwright); the
module's server and browser are tests/web/conftest.py's.

Screenshots of every game page go to out/screenshots/.
"""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from gamenight.server.db import Store, connect
from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import start_table


def new_page(browser: Browser, width: int = 1200, height: int = 900) -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create_via_api(page: Page, server: Server, body: dict[str, Any]) -> str:
    """Create a table from the page's own browser context (its cookies) and open it."""
    r = page.request.post(f"{server.url}/api/tables", data=body)
    assert r.status == 201, r.text()
    tid = str(r.json()["id"])
    page.goto(f"{server.url}/tables/{tid}")
    return tid


def test_two_people_play_a_whole_drop_or_stop_game(server: Server, browser: Browser) -> None:
    ann, bob = new_page(browser), new_page(browser, 390, 844)  # Bob is on a phone
    ann.goto(server.url)
    ann.fill("#name", "Ann")
    ann.select_option("#game", "drop-or-stop")
    ann.fill('#players-opt [name="players"]', "2")
    ann.dispatch_event('#players-opt [name="players"]', "change")
    ann.select_option('#seats select[data-seat="1"]', "open")
    shot(ann, "lobby")
    ann.click("#create-btn")
    ann.wait_for_url("**/tables/*")
    invite = ann.url
    bob.goto(invite)
    bob.fill("#join-name", "Bob")
    bob.click('[data-join="1"]')
    wait_js(ann, "document.querySelector('#start') && !document.querySelector('#start').disabled")
    start_table(ann)
    rng = random.Random(4)
    deadline = time.time() + 90
    shots = 0
    while not (ann.locator("#results").is_visible() and bob.locator("#results").is_visible()):
        assert time.time() < deadline, "the game did not finish"
        for page in (ann, bob):
            if page.locator("#drop").count() and page.locator("#drop").is_enabled():
                if page is ann and shots == 0:
                    page.keyboard.press("p")  # peek at the hidden hand
                    shot(ann, "drop-or-stop")
                    shot(bob, "drop-or-stop-phone")
                    shots += 1
                version = page.evaluate("document.body.dataset.version")
                page.click("#drop" if rng.random() < 0.55 else "#stop")
                wait_js(page, f"document.body.dataset.version !== '{version}'")
        ann.wait_for_timeout(50)
    assert ann.locator("#winner-line").inner_text() == bob.locator("#winner-line").inner_text()
    shot(ann, "drop-or-stop-results")
    # The finished game replays step by step from the database.
    tid = invite.rsplit("/", 1)[1]
    ann.goto(f"{server.url}/tables/{tid}/replay")
    ann.wait_for_selector("#step-text")
    wait_js(ann, "document.body.dataset.step !== undefined")
    for _ in range(3):
        ann.keyboard.press("ArrowRight")
    assert ann.evaluate("document.body.dataset.step") == "3"
    shot(ann, "drop-or-stop-replay")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]


def test_a_person_plays_arne_against_bots_with_a_black_card_out_of_turn(
    server: Server, browser: Browser
) -> None:
    page = new_page(browser)
    tid = create_via_api(
        page,
        server,
        {
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open", "medium", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": 10, "pass_dwell": 0.05},
            "sit": 0,
            "name": "Ann",
            "seed": 31,
        },
    )
    start_table(page)
    page.wait_for_selector("#hand", timeout=20000)
    page.set_default_timeout(3000)  # the page redraws on every message: retry, don't wait
    black_out_of_turn = False
    window_shot = False
    deadline = time.time() + 150
    next_report = time.time() + 10
    while not page.locator("#results").is_visible():
        assert time.time() < deadline, "the Arne game did not finish in time"
        game = page.locator("#game")
        version = page.evaluate("document.body.dataset.version")
        mine = page.locator(".window-banner.mine").count() > 0
        if page.locator("button.colour-choice").count():
            with contextlib.suppress(PlaywrightError):
                page.locator("button.colour-choice").first.click()
        elif (
            mine
            and not black_out_of_turn
            and game.get_attribute("data-active") != "0"
            and page.locator('#hand [data-black="1"].playable').count()
        ):
            if not window_shot:
                shot(page, "arne-window")
                window_shot = True
            with contextlib.suppress(PlaywrightError):
                page.locator('#hand [data-black="1"].playable').first.click()
                if page.locator("#choices button.choice").count():
                    page.locator("#choices button.choice").first.click()
                black_out_of_turn = True
            # Then let the server pass for me in every window, to finish sooner.
            with contextlib.suppress(PlaywrightError):
                page.check("#auto-pass")
        elif mine:
            if not window_shot:
                shot(page, "arne-window")
                window_shot = True
            with contextlib.suppress(PlaywrightError):
                page.click("#pass")
        elif page.locator("#pass").count():  # the final round: pass or play a black card
            with contextlib.suppress(PlaywrightError):
                page.click("#pass")
        elif page.locator("#hand .playable").count():
            with contextlib.suppress(PlaywrightError):
                page.locator("#hand .playable").first.click()
                if page.locator("#choices button.choice").count():
                    page.locator("#choices button.choice").first.click()
        else:
            page.wait_for_timeout(100)
            if time.time() > next_report:
                next_report = time.time() + 10
                print(
                    "waiting at",
                    page.evaluate("document.body.dataset.version"),
                    page.locator("#game").get_attribute("data-window"),
                )
            continue
        try:
            wait_js(page, f"document.body.dataset.version !== '{version}'", timeout=1500)
        except PlaywrightError:
            page.wait_for_timeout(100)
    shot(page, "arne-results")
    assert black_out_of_turn, "no chance to play a black card out of turn came up"
    # The black card was played out of turn: check the stored log.
    import gamenight

    row_db = page.request.get(f"{server.url}/api/tables/{tid}/replay").json()
    game = gamenight.load("arne", players=3)
    state = game.start(row_db["seed"])
    found = False
    for step in row_db["steps"]:
        action = game.action_from_json(step["action"])
        if (
            step["seat"] == 0
            and action.kind
            in (
                "minus200",
                "chameleon",
                "thief_discard",
                "thief_stack",
                "crush",
                "lock",
                "stop",
                "reverse",
            )
            and state.view(None)["active"] != 0
        ):
            found = True
        state.act(step["seat"], action)
    assert found
    assert not page.errors  # type: ignore[attr-defined]


def test_a_person_drops_a_piece_and_sees_it_fall_and_score(
    server: Server, browser: Browser
) -> None:
    page = new_page(browser)
    tid = create_via_api(
        page,
        server,
        {
            "game": "drop-it",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "settings": {"bot_delay": 0},
            "sit": 0,
            "name": "Ann",
            "seed": 3,
        },
    )
    start_table(page)
    for turn in range(2):
        page.wait_for_selector("#drop-btn", timeout=30000)
        box = page.evaluate(
            "(() => { const r = document.querySelector('#board').getBoundingClientRect();"
            " return [r.x, r.y, r.width, r.height]; })()"
        )
        page.mouse.move(box[0] + box[2] * (0.35 + 0.3 * turn), box[1] + box[3] * 0.1)
        page.mouse.wheel(0, 120)  # turn the piece
        page.keyboard.press("ArrowRight")
        if turn == 0:
            shot(page, "drop-it-aim")
        animated = int(page.evaluate("Number(document.body.dataset.animated || 0)"))
        page.mouse.click(box[0] + box[2] * (0.35 + 0.3 * turn), box[1] + box[3] * 0.1)
        wait_js(page, f"Number(document.body.dataset.animated || 0) > {animated}")
        if turn == 0:
            page.wait_for_timeout(250)
            shot(page, "drop-it-falling")
        page.wait_for_selector("#result #awarded", timeout=20000)
        text = page.locator("#result").inner_text()
        assert "level" in text and "point" in text and ("broke" in text)
        shot(page, "drop-it-result")
    store = Store(connect(f"sqlite:///{Path(server.data) / 'gn.sqlite3'}", lock=False))
    assert [s for s, _ in store.history(tid)][:3] == [0, 1, 0]
    assert not page.errors  # type: ignore[attr-defined]


HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
HOSTILE_NAME = "<img src=x onerror=window.__pwned=1>"  # a name keeps 40 characters


def test_hostile_text_in_every_field_runs_no_script(server: Server, browser: Browser) -> None:
    """Issue 11 item 1: hostile text in every free-text field and option. Options that
    become names are refused by the server; names people type are shown as text only;
    and the CSP would stop an inline script anyway. `window.__pwned` must stay unset."""
    page = new_page(browser)
    hostile_options = [
        ("arne", {"players": 3, "colours": [HOSTILE, "green", "yellow", "blue", "c5", "c6"]}),
        ("arne", {"players": 3, "colour_names": {"c5": HOSTILE}}),
        ("arne", {"players": 3, "star_colours": HOSTILE}),
        ("drop-or-stop", {"players": 3, "deck": HOSTILE}),
        ("drop-it", {"players": 3, "seat_colours": HOSTILE}),
        ("drop-it", {"players": 2, "board": HOSTILE}),
        ("drop-it", {"players": 2, "max_depth": HOSTILE}),
    ]
    for game, options in hostile_options:
        seats = ["open"] + ["easy"] * (options["players"] - 1)
        r = page.request.post(
            f"{server.url}/api/tables", data={"game": game, "options": options, "seats": seats}
        )
        assert r.status == 400, (game, options, r.text())
        assert "<" not in r.headers["content-type"]
    for game, players in (("arne", 3), ("drop-or-stop", 3), ("drop-it", 2)):
        tid = create_via_api(
            page,
            server,
            {
                "game": game,
                "options": {"players": players},
                "seats": ["open"] * 2 + ["easy"] * (players - 2),
                "settings": {"bot_delay": 0},
                "sit": 0,
                "name": HOSTILE_NAME,
            },
        )
        other = new_page(browser)
        other.goto(f"{server.url}/tables/{tid}")
        other.fill("#join-name", HOSTILE_NAME)
        other.click('[data-join="1"]')
        wait_js(
            page, "document.querySelector('#start') && !document.querySelector('#start').disabled"
        )
        start_table(page)
        page.wait_for_timeout(1500)
        for p in (page, other):
            assert p.evaluate("window.__pwned") is None, game
            assert HOSTILE_NAME in p.locator("body").inner_text()  # shown, as text
        response = other.goto(server.url)
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        other.wait_for_timeout(800)
        assert other.evaluate("window.__pwned") is None
        other.close()
    assert not page.errors  # type: ignore[attr-defined]
