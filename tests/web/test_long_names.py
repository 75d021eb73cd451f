"""A long name does not push a phone's page sideways (a new user's walk-through, stop 53):
the server takes names up to 40 characters, and one without a space made Arne's page 746 px
wide on a 390 px phone, the scores off the screen; in the lobby's list it pushed every
table's join link off the screen, for everyone."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import PHONE, create_table, open_page

LONG = "W" * 40  # the longest name the server takes, no space to wrap at

WIDE = "document.documentElement.scrollWidth"


def seated(page: Page, server: Server, game: str, options: dict[str, object]) -> str:
    players = int(options["players"])  # type: ignore[call-overload]
    return create_table(
        page,
        server,
        {
            "game": game,
            "options": options,
            "seats": ["open"] + ["easy"] * (players - 1),
            "settings": {"bot_delay": 0, "reaction_seconds": 60},
            "sit": 0,
            "name": LONG,
            "seed": 5,
        },
    )


def test_a_forty_letter_name_fits_a_phone_at_every_game_and_in_the_lobby(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, PHONE)
    tables = {
        "arne": {"players": 4},
        "drop-or-stop": {"players": 2},
        "drop-it": {"players": 2},
    }
    for game, options in tables.items():
        seated(page, server, game, options)
        wait_js(page, "document.body.dataset.status === 'running'")
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"long-name-{game}-phone.png"), full_page=True)
        assert page.evaluate(WIDE) <= PHONE["width"], (game, page.evaluate(WIDE))
    # a watcher's lobby lists those tables, the long name in each seats cell
    other = open_page(browser, PHONE)
    other.goto(f"{server.url}/")
    other.wait_for_selector(f"#tables td:has-text('{LONG[:20]}')")
    other.screenshot(path=str(SHOTS / "long-name-lobby-phone.png"), full_page=True)
    assert other.evaluate(WIDE) <= PHONE["width"], other.evaluate(WIDE)
    link = other.locator("#tables tr a").first.bounding_box()
    assert link is not None and link["x"] + link["width"] <= PHONE["width"]
    # ...while the interface's own words break only between words: in Russian "свобод|ное
    # место" and "(силь|ный)" broke mid-word when every word in the cell could
    russian = open_page(browser, PHONE, locale="ru-RU")
    body = {"game": "drop-or-stop", "options": {"players": 3}, "seats": ["open", "open", "hard"]}
    assert other.request.post(f"{server.url}/api/tables", data=body).status == 201  # not hers
    russian.goto(f"{server.url}/")
    russian.wait_for_selector("#tables td.names:has-text('свободное место')")
    broken = russian.evaluate(BROKEN_WORDS)
    russian.screenshot(path=str(SHOTS / "lobby-ru-phone.png"), full_page=True)
    assert broken == [], broken
    assert russian.evaluate(WIDE) <= PHONE["width"], russian.evaluate(WIDE)
    assert not page.errors and not other.errors  # type: ignore[attr-defined]


# The interface's words in the lobby's seats cells (not a person's name) that break mid-word.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const td of document.querySelectorAll('#tables td.names')) {
    for (const node of td.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
