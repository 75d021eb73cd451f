"""The lobby as a new player meets it (issue 13, items 1 and 9)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import Server, wait_js
from tests.web.conftest import DESKTOP, PHONE, open_page, serious_violations


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby_shows_a_card_per_game_simplest_first_and_passes_axe(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    page = open_page(browser, size)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    cards = page.locator(".game-card")
    assert cards.count() == 3
    first = cards.first.inner_text()
    assert "Drop or Stop" in first and "players" in first and "min" in first
    assert page.locator("#game").input_value() == "drop-or-stop"
    assert serious_violations(page) == []
    assert not page.errors  # type: ignore[attr-defined]


def test_options_speak_player_words_and_designer_settings_stay_closed(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="drop-it"]')
    page.wait_for_selector("label.variant")
    variants = page.locator("label.variant").all_inner_texts()
    assert any("Jokers" in v for v in variants) and any("Easy edges" in v for v in variants)
    # Physics constants exist, but only inside the closed designers' section.
    assert page.locator("#advanced").get_attribute("open") is None
    assert page.locator('#advanced [name="gravity"]').count() == 1
    assert not page.locator('#advanced [name="gravity"]').is_visible()
    visible = page.locator("#create").inner_text()
    assert "gravity" not in visible and "D16" not in visible
    # The reaction timer is only shown where it applies.
    assert not page.locator("#reaction_seconds").is_visible()
    page.click('.game-card[data-game="arne"]')
    page.wait_for_selector("label.variant >> text=Team game")
    assert page.locator("#reaction_seconds").is_visible()
    text = page.locator("#create").inner_text()
    for engine_word in ("(A1", "7.3", "colour_names", "c5"):
        assert engine_word not in text


def test_a_bad_player_count_is_explained_beside_the_field(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.fill("#name", "Ann")
    page.fill('#players-opt [name="players"]', "6")
    page.click("#create-btn")
    assert page.locator("#players-err").inner_text() == "Drop or Stop is for 2 to 4 players."
    assert page.url.rstrip("/") == server.url  # nothing was created
    page.click('.game-card[data-game="arne"]')
    page.wait_for_selector("label.variant >> text=Team game")
    page.click("label.variant >> text=Team game")
    page.fill('#players-opt [name="players"]', "5")
    page.click("#create-btn")
    assert "even number of players" in page.locator("#players-err").inner_text()


def test_a_person_creates_a_table_from_the_lobby_with_a_variant(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, PHONE)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.fill("#name", "Ann")
    page.click("label.variant >> text=Gentle deck")
    page.fill('#players-opt [name="players"]', "2")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    tid = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"{server.url}/api/tables/{tid}").json()
    assert info["options"].get("deck") == "descending"
    assert [s["kind"] for s in info["seats"]][1] == "bot"


def test_a_table_of_one_person_and_bots_starts_itself(server: Server, browser: Browser) -> None:
    """Issue 45, item 5: with every other seat a bot there is nobody to wait for; the game
    starts as the person's table page opens (before, it waited for a click on Start)."""
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="drop-or-stop"]')
    page.fill("#name", "Ann")
    page.fill('#players-opt [name="players"]', "3")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.select_option('#seats select[data-seat="1"]', "easy")
    page.select_option('#seats select[data-seat="2"]', "medium")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    wait_js(page, "document.body.dataset.status === 'running'", timeout=5000)
    assert page.locator("#start").count() == 0 or not page.locator("#start").is_visible()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_forms_table_settings_are_the_servers_default_and_range(
    server: Server, browser: Browser
) -> None:
    """Issue 45, item 4: the lobby's form and the server share one default and one range per
    table setting, read from the server (the form said 8 s for the window, the server 3 s;
    the form allowed 600 s, the server 60), and the page writes no number of its own."""
    page = open_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click('.game-card[data-game="arne"]')
    page.wait_for_selector("#reaction_seconds", state="visible")
    known = page.request.get(f"{server.url}/api/table-settings").json()
    assert {"reaction_seconds", "reaction_hold_seconds", "grace_seconds", "bot_delay"} <= set(known)
    for key, setting in known.items():
        field = page.locator(f"input[data-setting]#{key}")
        if not field.count():
            continue
        shown = field.evaluate("(f) => [f.min, f.max, f.value]")
        assert [float(x) for x in shown[:2]] == [setting["min"], setting["max"]], (key, shown)
        if setting["default"] is not None:
            assert float(shown[2]) == setting["default"], (key, shown)
    hold = known["reaction_hold_seconds"]["default"]
    assert f"gives a player {hold:g} s" in page.locator("#hold-said").inner_text()
    html = page.request.get(f"{server.url}/").text()  # the page itself says no number
    for key in known:
        found = re.search(rf'<input[^>]*\bid="{key}"[^>]*>', html)
        tag = found[0] if found else ""
        assert not re.search(r"\b(min|max|value)=", tag), (key, tag)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_mistyped_address_is_a_page_with_a_way_back_in_the_readers_language(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    page = open_page(browser, size, locale="nl-NL")
    answer = page.goto(f"{server.url}/tabels/oops")
    assert answer is not None and answer.status == 404
    wait_js(page, "document.documentElement.lang === 'nl'")
    assert page.locator("h1").inner_text() == "Hier is geen pagina"
    page.click("a.btn.primary")
    page.wait_for_selector(".game-card .pic svg")  # the lobby
    page.go_back()
    wait_js(page, "document.documentElement.lang === 'nl'")
    assert serious_violations(page) == []
    # (the browser notes the page's own status, 404, each time it is loaded: nothing else)
    assert [e for e in page.errors if "status of 404" not in e] == []  # type: ignore[attr-defined]
