"""Drop or Stop from the lobby to the end and its replay (issue 13, items 1, 5, 6 and 9)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, shot_of, wait_js
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    create_from_lobby,
    create_table,
    open_page,
    serious_violations,
    start_table,
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
    start_table(page)
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


NAMES = ["Newbie", "Bot 2 (medium)", "Bot 3 (medium)"]


def reveal_message(cards: int) -> dict[str, object]:
    """A real view at the start of round 2 after Bot 3 (medium) kept dropping to `cards`
    face-up cards (a player over the target may go on dropping) and the others stopped."""
    from gamenight.games.drop_or_stop import DropOrStop

    game = DropOrStop.from_options(players=3)
    state = game.start(3)
    while state.round == 1:
        seat = state.actors[0]
        acts = state.actions(seat)
        tableau = state.view(seat)["seats"][seat]["tableau"]
        want = "drop" if seat == 2 and len(tableau) < cards else "stop"
        state.act(seat, next((a for a in acts if a.kind == want), acts[0]))
    view = state.view(0)
    assert len(view["rounds"][0]["tableaux"][2]) == cards
    seats = [{"seat": s, "kind": "person" if s == 0 else "bot"} for s in range(3)]
    return {"view": view, "seat": 0, "actions": [], "asked": False, "version": 1,
            "table": {"seats": seats, "status": "running"}}  # fmt: skip


def draw_reveal(page: Page, msg: dict[str, object]) -> None:
    """Draws the game's page from `msg` into #game of a table that has not started (the
    server sends no view of its own to draw over it)."""
    page.evaluate(
        """async ([msg, names]) => {
          const m = await import('/static/games/drop-or-stop.js');
          m.render(document.getElementById('game'), msg, { names, tableId: 'x', act() {} });
        }""",
        [msg, NAMES],
    )


def unstarted_table(page: Page, server: Server) -> None:
    body = {"game": "drop-or-stop", "options": {"players": 3}, "seats": ["open", "open", "open"],
            "sit": 0, "name": "Newbie"}  # fmt: skip
    create_table(page, server, body, start=False)
    page.wait_for_selector("#lobby-seats .seat")


def test_a_long_reveal_wraps_on_a_phone_and_names_stay_readable(
    server: Server, browser: Browser
) -> None:
    """New-user finding 1: a bot with 10 face-up cards squeezed its name to one letter per
    line and pushed the row past the green panel's right edge at 390 px."""
    page = open_page(browser, PHONE)
    unstarted_table(page, server)
    draw_reveal(page, reveal_message(10))
    rows = page.locator("#moment .reveal-row")
    assert rows.count() == 3
    panel = page.locator("#moment").bounding_box()
    assert panel is not None
    for i in range(3):
        row = rows.nth(i)
        box = row.bounding_box()
        assert box is not None and box["x"] + box["width"] <= panel["x"] + panel["width"], i
        for card in row.locator("svg").all():
            c = card.bounding_box()
            assert c is not None and c["x"] + c["width"] <= panel["x"] + panel["width"], i
        who = row.locator(".who")
        line = float(who.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)"))
        size = who.bounding_box()
        assert size is not None and size["height"] <= 2 * line + 1, (i, size)  # 2 lines at most
        assert size["width"] >= 60, (i, size)
    assert "Bot 3 (medium)" in rows.nth(2).locator(".who").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot_of(page, "#moment", f"{SHOTS}/dos-reveal-phone.png")
    assert not page.errors  # type: ignore[attr-defined]


def test_round_wins_and_round_totals_are_said_with_names(server: Server, browser: Browser) -> None:
    """New-user finding 2: "Round wins: 2 / 3 / 1" and "(totals 8 / 11 / 8)" had no names."""
    page = open_page(browser)
    unstarted_table(page, server)
    said = page.evaluate(
        """async (names) => {
          const m = await import('/static/games/drop-or-stop.js');
          const msg = { seat: 0, view: { round: 5, target: 11,
            seats: [{ wins: 2 }, { wins: 3 }, { wins: 1 }] } };
          return {
            wins: m.resultDetails(msg, names).textContent,
            log: m.describeEvent({ kind: 'revealed', round: 4, winners: [1],
              totals: [8, 11, 'OVERFLOW'] }, names, msg.view),
          };
        }""",
        NAMES,
    )
    assert said["wins"] == (
        "Round wins: Newbie 2, Bot 2 (medium) 3, Bot 3 (medium) 1 after 5 rounds."
    )
    assert said["log"] == (
        "Round 4: Bot 2 (medium) wins (Newbie 8, Bot 2 (medium) 11, Bot 3 (medium) over 11)."
    )


def a_round_you_lose_beside_another(seat: int = 2) -> dict[str, object]:
    """A real 3-player view for `seat` just after a round that `seat` lost, not alone."""
    import gamenight

    game = gamenight.load("drop-or-stop", players=3)
    for seed in range(500):
        state, rng = game.start(seed), random.Random(seed)
        while not state.over:
            actor = state.actors[0]
            state.act(actor, rng.choice(state.actions(actor)))
            view = state.view(seat)
            if view["rounds"]:
                winners = view["rounds"][-1]["winners"]
                losers = [s for s in range(3) if s not in winners]
                if seat in losers and losers[0] != seat:
                    return view
    raise AssertionError("no such round in 500 games")


def test_you_is_capitalised_only_where_a_sentence_starts(server: Server, browser: Browser) -> None:
    """New-user finding: "Mira had 6, You had 8." The round's moment now says "you" inside
    a sentence. The page's own module draws a real engine view of such a round."""
    view = a_round_you_lose_beside_another()
    page = open_page(browser)
    page.goto(f"{server.url}/")
    text = page.evaluate(
        """async (view) => {
          const m = await import("/static/games/drop-or-stop.js");
          const root = document.createElement("div");
          document.body.append(root);
          const seats = [0, 1, 2].map((seat) => ({ seat, kind: "person" }));
          const table = { status: "running", seats };
          m.render(root, { view, seat: 2, actions: [], table }, { names: ["Ann", "Bob", "Mira"] });
          return root.querySelector("#moment").innerText;
        }""",
        view,
    )
    assert ", you had" in text or ", you went over" in text, text
    assert ", You" not in text and "and You" not in text, text


def test_a_busy_coach_stays_on_and_answers_when_it_can(server: Server, browser: Browser) -> None:
    """Issue 44's leftover: the person's coach budget (or a busy pool) answers 429; the page
    said nothing and switched the coach off. It stays on, says it is busy, asks again."""
    page = open_page(browser)
    busy = {"left": 2}

    def coach_route(route: Any) -> None:
        if busy["left"] > 0:
            busy["left"] -= 1
            route.fulfill(status=429, json={"error": "the coach is busy; try again shortly"})
        else:
            route.continue_()

    page.route("**/api/tables/*/coach", coach_route)
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2},
        "seats": ["open", "hard"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
    }
    create_table(page, server, body)
    page.wait_for_selector("#drop:enabled", timeout=30000)
    if not page.locator("#coach").is_checked():
        page.check("#coach")
    page.wait_for_selector("#coach-thinking:has-text('busy')", timeout=10000)
    assert page.locator("#coach").is_checked()
    page.wait_for_selector("#coach-advice .odds", timeout=30000)
    assert page.locator("#coach").is_checked() and busy["left"] == 0
    errors = page.errors  # type: ignore[attr-defined]
    assert all("status of 429" in e for e in errors), errors
    page.context.close()


def test_a_click_on_drop_when_the_rules_forbid_it_says_why(
    server: Server, browser: Browser
) -> None:
    """Issue 45, item 5: with ALLOW_DROP_WHEN_OVERFLOWED off, a person over the limit is
    offered only STOP (R12a); DROP stays clickable and the click says why, in words."""
    page = open_page(browser)
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2, "allow_drop_when_overflowed": False},
        "seats": ["open", "easy"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Ann",
        "seed": 4,
    }
    create_table(page, server, body)
    deadline = time.time() + 60
    while not page.locator("#drop.unavailable").count():  # Ann drops until she is over
        assert time.time() < deadline and not page.locator("#results").is_visible()
        if page.locator("#drop:enabled").count():
            before = int(page.evaluate("document.body.dataset.version"))
            page.click("#drop")
            wait_js(page, f"Number(document.body.dataset.version) > {before}")
        page.wait_for_timeout(50)
    assert page.locator("#drop").get_attribute("aria-disabled") == "true"
    version = page.evaluate("document.body.dataset.version")
    page.click("#drop", force=True)  # (Playwright takes aria-disabled for "not enabled")
    page.wait_for_selector(".toast.error:has-text('over the limit')")
    said = page.locator(".toast.error").last.inner_text()
    print("the click on DROP says:", said)
    assert said == "you can't drop: your cards are already over the limit, so you must stop"
    assert page.evaluate("document.body.dataset.version") == version  # nothing happened
    page.screenshot(path=f"{SHOTS}/drop-or-stop-why-not.png")
    page.context.close()
