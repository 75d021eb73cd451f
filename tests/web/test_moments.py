"""The round's moment (issue 13, item 5): the reveal said where the eye is, played step by step,
and the page's half of the hold: while a state message carries `moment: {version, seconds}`
the page answers `{"type": "seen", "version": V}` once the person has seen it (the
animation played, or Continue). The real server holds (tests/server/test_moments.py); here
the page's socket is watched through Playwright's route_web_socket."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from playwright.sync_api import Browser, Page, WebSocketRoute
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.helpers import Server, wait_js
from tests.web.conftest import PHONE, create_table, open_page, serious_violations, start_table


class HeldTable:
    """Watches the page's socket: when the server first held each moment (its `moment`
    version) and each `seen` the page sent (version, when); every message goes through."""

    def __init__(self, page: Page) -> None:
        self.seen: list[tuple[int, float]] = []  # (version, when) the page said seen
        self.first_held: dict[int, float] = {}  # moment version -> when it was first sent
        page.route_web_socket("**/ws/tables/*", self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "seen":
                self.seen.append((msg["version"], time.time()))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            moment = json.loads(message).get("moment")
            if moment:
                self.first_held.setdefault(moment["version"], time.time())
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)


def dos_table(page: Page, server: Server, seed: int, hold: int = 20) -> str:
    """A 3-player table with two bots; the server holds each reveal `hold` seconds."""
    body: dict[str, Any] = {
        "game": "drop-or-stop",
        "options": {"players": 3},
        "seats": ["open", "easy", "easy"],
        "settings": {"bot_delay": 0, "moment_seconds": hold},
        "sit": 0,
        "name": "Ann",
        "seed": seed,
    }
    return create_table(page, server, body)


# One task in the page: look at the last reveal and press STOP only if it is older than
# wanted (two calls from the test could press STOP in the round after the wanted reveal).
STOP_UNTIL = """(rounds) => {
  const m = document.getElementById('moment');
  if (Number(m ? m.dataset.round : 0) >= rounds) return true;
  const stop = document.getElementById('stop');
  if (stop && !stop.disabled) stop.click();
  return false;
}"""


def stop_until_reveal(page: Page, rounds: int) -> None:
    """STOP whenever asked until the reveal of round `rounds` (or a later one) is shown."""
    deadline = time.time() + 60
    while not page.evaluate(STOP_UNTIL, rounds):
        assert time.time() < deadline, f"no reveal: {page.locator('#game').inner_text()[:300]}"
        page.wait_for_timeout(50)


def test_the_reveal_is_played_then_seen(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    held = HeldTable(page)
    dos_table(page, server, seed=11)
    stop_until_reveal(page, 1)
    # Said where the eye is: above the buttons, who won and how every hand counted.
    moment = page.locator("#moment")
    assert moment.inner_text().startswith(("You", "Bot", "Nobody"))
    moment_box, hand_box = moment.bounding_box(), page.locator("#my-hand").bounding_box()
    assert moment_box and hand_box and moment_box["y"] < hand_box["y"]
    assert page.locator("#moment .reveal-row").count() == 3
    assert page.locator("#moment .reveal-row.winner").count() >= 1 or "Nobody" in (
        moment.inner_text()
    )
    # The hold is shown with a way on; the page says seen once the reveal has played.
    assert page.locator("#moment #continue").is_visible()
    wait_js(page, "Number(document.body.dataset.seen || 0) >= 1", timeout=10000)
    version, when = held.seen[0]
    assert version == min(held.first_held)
    assert when - held.first_held[version] > 0.8, "seen before the cards were turned over"
    assert page.locator("#continue").count() == 0
    assert serious_violations(page) == []
    # Round 2: the reveal's animations are frozen, so only the person can end the moment:
    # C says seen at once.
    page.evaluate(
        "() => { const real = Element.prototype.animate;"
        " Element.prototype.animate = function (k, o) {"
        " const a = real.call(this, k, o); a.pause(); return a; }; }"
    )
    stop_until_reveal(page, 2)
    page.wait_for_timeout(1500)
    first = str(held.seen[0][0])
    assert page.evaluate("document.body.dataset.seen") == first  # still held: not yet seen
    assert page.locator("#moment #continue").is_visible()
    page.keyboard.press("c")
    wait_js(page, f"document.body.dataset.seen !== '{first}'", timeout=5000)
    assert page.locator("#continue").count() == 0
    assert len(held.seen) == 2 and held.seen[1][0] > held.seen[0][0]  # once per moment
    assert page.locator(".toast.error").count() == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_without_a_hold_the_page_says_nothing(server: Server, browser: Browser) -> None:
    """At a table that does not hold (moment_seconds 0) no 'seen' goes out."""
    page = open_page(browser, PHONE)
    sent: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        server_ws = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server_ws.send(message)

        ws.on_message(to_server)

    page.route_web_socket("**/ws/tables/*", route)
    dos_table(page, server, seed=12, hold=0)
    stop_until_reveal(page, 1)
    page.wait_for_timeout(2500)
    assert not [m for m in sent if m.get("type") == "seen"]
    assert page.locator("#continue").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors  # type: ignore[attr-defined]


def test_arne_cards_fly_the_final_round_is_said_and_the_count_goes_step_by_step(
    server: Server, browser: Browser
) -> None:
    """A spectator watches three bots to the end of a game of Arne."""
    owner = open_page(browser)
    tid = create_table(
        owner,
        server,
        {
            "game": "arne",
            "options": {"players": 3},
            "seats": ["easy", "easy", "easy"],
            "settings": {"bot_delay": 0.03, "pass_dwell": 0},
            "seed": 4,
        },
        start=False,
    )
    page = open_page(browser)
    page.goto(f"{server.url}/tables/{tid}")
    page.wait_for_selector("#lobby-seats .seat")
    page.evaluate(
        "() => { window.__flown = 0; const real = Element.prototype.animate;"
        " Element.prototype.animate = function (k, o) {"
        " window.__flown++; return real.call(this, k, o); };"
        " window.__said = []; new MutationObserver((records) => { for (const r of records)"
        " for (const n of r.addedNodes)"
        " if (n.id === 'announce') window.__said.push(n.textContent); })"
        ".observe(document.body, { childList: true }); }"
    )
    start_table(owner)
    wait_js(page, "window.__said.length > 0", timeout=90000)
    assert page.evaluate("window.__said[0]").startswith("The draw pile is empty: final round")
    assert page.evaluate("window.__flown") > 0  # cards flew to displays on the way
    page.wait_for_selector("#scoring", timeout=30000)
    rows = page.locator("#scoring .score-row")
    assert rows.count() == 3
    steps = page.locator("#scoring .score-step").count()
    assert steps > 3
    page.wait_for_selector("#scoring .score-step.shown")
    assert page.locator("#scoring .score-step.shown").count() < steps  # one after the other
    # The results wait until the count has been shown.
    assert not page.locator("#results").is_visible()
    page.wait_for_selector("#scoring .score-result.shown", timeout=15000)
    totals = [t.strip("= ") for t in page.locator("#scoring .score-total").all_inner_texts()]
    assert all(t.lstrip("-").isdigit() for t in totals)
    page.wait_for_selector("#results:not([hidden])", timeout=10000)
    assert page.locator("#scoring").count() == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_with_reduced_motion_the_reveal_appears_without_moving(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(15000)
    dos_table(page, server, seed=13)
    page.wait_for_selector("#drop")
    page.evaluate(
        "() => { window.__steps = 0; window.__moved = 0; const real = Element.prototype.animate;"
        " Element.prototype.animate = function (k, o) { window.__steps++;"
        " if (JSON.stringify(k).includes('transform')) window.__moved++;"
        " return real.call(this, k, o); }; }"
    )
    stop_until_reveal(page, 1)
    assert page.locator("#moment .reveal-row").count() == 3
    assert page.evaluate("window.__steps") > 3  # still shown one after the other
    assert page.evaluate("window.__moved") == 0
    context.close()


def play_arne_turn(page: Page) -> None:
    """One step of a person who plays the first card they may, on the first target. The
    table may move on between looking and clicking (the bot answers, the game ends): a
    click that finds nothing within 3 s is skipped, and the caller looks again."""

    def click(selector: str) -> None:
        with contextlib.suppress(PlaywrightTimeout):
            page.locator(selector).first.click(timeout=3000)

    if page.locator("button.colour-choice").count():
        click("button.colour-choice")
    elif page.locator("#handbar.answer #pass").count():
        page.keyboard.press("p")
    elif page.locator("#handbar.asked .handcard.playable [role=button]").count():
        click("#handbar.asked .handcard.playable [role=button]")
        if page.locator("#choices button.choice").count():
            click("#choices button.choice")
        elif page.locator("#game .target").count():
            click("#game .target")
    elif page.locator("#choices button[data-action]").count():
        click("#choices button[data-action]")
    elif page.locator("#pass").count():
        page.keyboard.press("p")


def test_arne_says_seen_once_the_count_has_been_shown(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    seen: list[float] = []
    over_at: list[float] = []

    def route(ws: WebSocketRoute) -> None:
        server_ws = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "seen":
                seen.append(time.time())
                return
            server_ws.send(message)

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "state" and (msg.get("view") or {}).get("over") and not seen:
                msg["moment"] = {"version": 1, "seconds": 10}
                over_at.append(time.time())
            ws.send(json.dumps(msg))

        ws.on_message(to_server)
        server_ws.on_message(to_page)

    page.route_web_socket("**/ws/tables/*", route)
    create_table(
        page,
        server,
        {
            "game": "arne",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": 60, "pass_dwell": 0},
            "sit": 0,
            "name": "Ann",
            "seed": 3,
        },
    )
    page.wait_for_selector("button.colour-choice")
    page.locator("button.colour-choice").first.click()
    page.check("#auto-pass")
    deadline = time.time() + 240
    while not page.locator("#scoring").count():
        assert time.time() < deadline, "the game did not reach its count"
        play_arne_turn(page)
        page.wait_for_timeout(30)
    assert page.locator("#scoring #continue").is_visible()  # the hold, where the count is
    assert not seen
    page.wait_for_selector("#results:not([hidden])", timeout=20000)
    assert len(seen) == 1 and seen[0] - over_at[0] > 1.0  # after the count, not at once
    assert page.locator(".toast.error").count() == 0
    assert not page.errors  # type: ignore[attr-defined]
