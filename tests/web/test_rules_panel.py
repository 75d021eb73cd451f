"""The rules at hand (issue 46, item 2): a rules panel beside every table, the game's rules
in player words by section, searchable as you type, and a card's rule one right-click (or
"?") away; the same data as `gamenight rules` (GET /api/games/{name}/rules)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from gamenight.engine.registry import games, spec
from tests.server.helpers import SHOTS, Server, shot_of, wait_js
from tests.web.conftest import PHONE, create_table, open_page, serious_violations

DESKTOP_SHOT = {"width": 1280, "height": 800}
SEATS = {"arne": ["open", "easy", "easy"], "drop-it": ["open", "random"]}
OPTIONS: dict[str, dict[str, int]] = {"arne": {"players": 3}, "drop-or-stop": {"players": 2}}


class RulesServer(Server):
    """The test server, with the rules route included even where the app does not include
    it yet (routes/rules.py is a new module; app.py's include_routers names it)."""

    def command(self) -> list[str]:
        code = (
            "import gamenight.server.app as app\n"
            "from gamenight.server.routes import rules\n"
            "plain = app.include_routers\n"
            "def include_routers(found, *args):\n"
            "    plain(found, *args)\n"
            "    if not any(getattr(r, 'path', '') == '/api/games/{name}/rules'"
            " for r in found.routes):\n"
            "        found.include_router(rules.router)\n"
            "app.include_routers = include_routers\n"
            f"app.serve(host='127.0.0.1', port={self.port}, db={self.db!r})\n"
        )
        return [sys.executable, "-c", code]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("rules")
    srv = RulesServer(f"sqlite:///{data / 'gn.sqlite3'}", data).start()
    yield srv
    srv.stop()


def open_table(page: Page, server: Server, game: str) -> None:
    body = {
        "game": game,
        "options": OPTIONS.get(game, {}),
        "seats": SEATS.get(game, ["open", "easy"]),
        "settings": {"bot_delay": 0, "reaction_seconds": 60},
        "sit": 0,
        "name": "Ann",
        "seed": 3,
    }
    create_table(page, server, body)
    page.wait_for_selector("#rules-list .rule-entry", state="attached")  # (folded on a phone)


def visible(page: Page, selector: str) -> int:
    return int(
        page.evaluate(
            "s => [...document.querySelectorAll(s)].filter((n) => !n.hidden).length", selector
        )
    )


def test_the_rules_route_gives_sections_and_entries_and_404_for_no_game(server: Server) -> None:
    for name in games():
        got = httpx.get(f"{server.url}/api/games/{name}/rules").json()
        rules = spec(name).player_rules()
        assert [s["title"] for s in got["sections"]] == [s.title for s in rules.SECTIONS]
        assert [e["key"] for e in got["entries"]] == [e.key for e in rules.ENTRIES]
    missing = httpx.get(f"{server.url}/api/games/chess/rules")
    assert missing.status_code == 404 and "chess" in missing.json()["error"]
    assert "\n" not in missing.json()["error"]


@pytest.mark.parametrize("name", games())
def test_the_panel_is_beside_every_table_and_search_filters(
    server: Server, browser: Browser, name: str
) -> None:
    page = open_page(browser, DESKTOP_SHOT)
    open_table(page, server, name)
    rules = spec(name).player_rules()
    assert page.locator("#howto summary").inner_text() == "Rules"
    assert visible(page, "#rules-list .rule-section") == len(rules.SECTIONS)
    assert visible(page, "#rules-list .rule-entry") == len(rules.ENTRIES)
    assert page.locator("#rules-list .clauses").first.inner_text()  # clause ids, small
    # Typing filters as you type: one entry's name finds it, nonsense finds nothing.
    first = rules.ENTRIES[-1]
    page.fill("#rules-search", first.name.lower())
    assert page.locator(f"#rule-{first.key}").is_visible()
    assert visible(page, "#rules-list .rule-section, #rules-list .rule-entry") < len(
        rules.SECTIONS
    ) + len(rules.ENTRIES)
    page.fill("#rules-search", "zzqx nothing")
    assert visible(page, "#rules-list .rule-section, #rules-list .rule-entry") == 0
    assert page.locator("#rules-none").is_visible()
    page.fill("#rules-search", "")
    assert visible(page, "#rules-list .rule-entry") == len(rules.ENTRIES)
    if name == "drop-it":  # a piece of the supply opens its entry too
        piece = page.locator("#supply button").first
        kind = str(piece.get_attribute("data-piece")).split("-")[1]
        piece.click(button="right")
        wait_js(page, f"document.activeElement.id === 'rule-{kind}'")
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / f"rules-panel-{name}-desktop.png"))
    page.set_viewport_size(
        {"width": PHONE["width"], "height": PHONE["height"]}
    )  # the panel below the table, at a phone's width
    page.fill("#rules-search", "")
    shot_of(page, "#howto", str(SHOTS / f"rules-panel-{name}-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors  # type: ignore[attr-defined]


def test_a_right_click_on_an_arne_card_opens_its_rule(server: Server, browser: Browser) -> None:
    for size, label in ((DESKTOP_SHOT, "desktop"), (PHONE, "phone")):
        page = open_page(browser, size)
        open_table(page, server, "arne")
        page.locator("button.colour-choice").first.click()
        page.wait_for_selector("#hand .handcard", timeout=60000)
        card = page.locator("#hand .handcard").first
        kind = str(card.get_attribute("data-card")).split(" ")[-1]
        title = card.get_attribute("title") or ""
        rule = next(e for e in spec("arne").player_rules().ENTRIES if e.key == kind)
        assert title.endswith(rule.rule), title  # the title still says the card's rule
        if label == "desktop":  # open beside the table; on a phone it starts folded
            page.fill("#rules-search", "zzqx")  # a search left typed is cleared by the card
        else:
            assert not page.evaluate("document.getElementById('howto').open")
        card.click(button="right")
        wait_js(page, f"document.activeElement && document.activeElement.id === 'rule-{kind}'")
        entry = page.locator(f"#rule-{kind}")
        assert entry.is_visible() and "hit" in (entry.get_attribute("class") or "")
        assert page.evaluate("document.getElementById('howto').open")
        assert rule.rule in entry.inner_text()
        assert not serious_violations(page)
        page.screenshot(path=str(SHOTS / f"rules-panel-arne-card-{label}.png"))
        # "?" opens the panel at the focused card.
        playable = page.locator("#hand .handcard.playable [role=button]")
        if playable.count():
            playable.first.focus()
            focused = str(
                page.evaluate("document.activeElement.closest('[data-card]').dataset.card")
            ).split(" ")[-1]
            page.keyboard.press("?")
            wait_js(page, f"document.activeElement.id === 'rule-{focused}'")
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_table_with_its_own_settings_says_so_above_the_standard_rules(
    server: Server, browser: Browser
) -> None:
    """New-user finding: at a Drop or Stop table with a target of 15 the rules panel said
    "without going over 11" and nothing else. The table's settings that differ from the
    standard game are listed above the rules, with their help, in the page's language."""
    page = open_page(browser, PHONE, locale="de-DE")
    body = {
        "game": "drop-or-stop",
        "options": {"players": 2, "target": 15, "wins_to_win": 2, "hand_size": 2},
        "seats": ["open", "easy"],
        "settings": {"bot_delay": 0, "reaction_seconds": 60},
        "sit": 0,
        "name": "Ann",
        "seed": 3,
    }
    create_table(page, server, body)
    page.wait_for_selector("#table-settings", state="attached")
    page.evaluate("document.querySelector('#howto').open = true")  # (folded on a phone)
    shown = page.locator("#table-settings").inner_text()
    assert "target = 15" in shown and "wins_to_win = 2" in shown
    assert "hand_size" not in shown  # the standard value: nothing to say
    assert (
        "Einstellungen dieses Tischs" in shown and "Rundensiege" in shown
    )  # (its help, in German)
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    shot_of(page, "#howto", str(SHOTS / "rules-panel-table-settings-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not serious_violations(page)
    # a table of the standard game has no such list
    open_table(page, server, "drop-or-stop")
    assert page.locator("#table-settings").count() == 0
    assert not page.errors  # type: ignore[attr-defined]
