"""Drop It speaks player words in play (issue 45, item 5): "covered bonus circle B6",
"side total 3", "raw 3", "Final totals by side" and the board's assembly letters "A/D" are
the spec's words, not a player's."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import PHONE, create_table, open_page, serious_violations

BODY = {
    "game": "drop-it",
    "options": {},
    "seats": ["open", "random"],
    "settings": {"bot_delay": 0},
    "sit": 0,
    "name": "Ann",
    "seed": 5,
}

SPEC_WORDS = [
    re.compile(r"\bB\d\b"),  # bonus circle ids (B1..B8)
    re.compile(r"\b[A-D]/[A-D]\b"),  # assembly letters (A/D, B/C)
    re.compile(r"\bsides?\b", re.IGNORECASE),  # a "side" is a player, or a team
    re.compile(r"\braw\b", re.IGNORECASE),  # "raw points"
    re.compile(r"\b(left|right|bottom)-\d+\b"),  # edge cell ids
    re.compile(r"\b(red|yellow|blue|green)-(circle|square|triangle|diamond)"),  # piece ids
    re.compile(r"\b[DNV]\d+\b"),  # clause ids
    re.compile(r"\b(SHAPE|COLOUR|EDGE|HEIGHT)\b"),  # rule codes
]

# Drops aimed where the first pieces cover bonus circles: the medium one on the floor at
# 170 mm (level 1) and the large one above it at 200 mm (level 2).
AIMS = [170, 200, 60, 120]


BONUS = re.compile(r"covered the (small|medium|large) bonus circle on level \d \(\+\d\)")


def spec_words(text: str) -> list[str]:
    return [m.group(0) for pattern in SPEC_WORDS for m in pattern.finditer(text)]


def aim_at(page: Page, mm: int) -> None:
    """With keys alone: Shift+arrow moves 10 mm, an arrow 2 mm."""
    for _ in range(200):
        found = re.search(r"(\d+) mm", page.locator("#aim-text").inner_text())
        assert found is not None
        now = int(found.group(1))
        if abs(now - mm) < 2:
            return
        step = "Shift+" if abs(now - mm) >= 10 else ""
        page.keyboard.press(f"{step}{'ArrowRight' if mm > now else 'ArrowLeft'}")
    raise AssertionError(f"could not aim at {mm} mm")


# Every "Last drop" text the page shows, however briefly (the next drop may follow at once).
# (Each new result element or text counts: two drops may read the same, CI once saw 3 of 4.)
WATCH = """() => {
  window.seenResults = [];
  let node = null, text = null;
  new MutationObserver(() => {
    const r = document.querySelector('#result');
    if (r && (r !== node || r.innerText !== text)) {
      node = r; text = r.innerText; window.seenResults.push(text);
    }
  }).observe(document.getElementById('game'), { childList: true, subtree: true });
}"""


def play_text(page: Any) -> str:
    """What the table says in play: the page's text without the rules panel (#howto), whose
    sections cite the rulebook's clause ids on purpose (issue 46, the rules at hand)."""
    return str(
        page.evaluate(
            "(() => { const h = document.querySelector('#howto'); const was = h && h.hidden;"
            " if (h) h.hidden = true; const t = document.body.innerText;"
            " if (h) h.hidden = was; return t; })()"
        )
    )


def test_drop_it_says_player_words_in_play(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    create_table(page, server, BODY)
    page.wait_for_selector("#drop-btn", timeout=60000)
    page.evaluate(WATCH)
    for mm in AIMS:
        page.wait_for_selector("#drop-btn", timeout=60000)
        aim_at(page, mm)
        version = page.evaluate("document.body.dataset.version")
        page.keyboard.press("Enter")
        wait_js(page, f"document.body.dataset.version !== '{version}'")
        page.wait_for_selector("#result", timeout=60000)
        text = play_text(page)
        assert spec_words(text) == [], spec_words(text)
    page.wait_for_selector("#drop-btn", timeout=60000)
    said: list[str] = page.evaluate("window.seenResults")
    assert len(said) >= len(AIMS), said
    assert [w for s in said for w in spec_words(s)] == [], said
    # Bonus circles are named as the rulebook does, by size, with their level and points.
    assert any(BONUS.search(s) for s in said), said
    log = page.locator("#log").inner_text()
    # A total is a player's ("Ann now has 3."), never a side's.
    assert re.search(r"; Ann now has \d+\.", log), log
    assert re.search(r"; Bot 2 \(random\) now has \d+\.", log), log
    # The board picture has no assembly letters.
    picture = unquote(page.locator("#board image").get_attribute("href") or "")
    assert picture.startswith("data:image/svg+xml")
    assert not re.search(r">\s*[A-D]/[A-D]\s*<", picture)
    # The end of the game, in names: the last log line and the results' totals.
    words = page.evaluate(
        """async () => {
          const m = await import('/static/games/drop-it.js');
          const view = { sides: [{ side: 0, seats: [0], colours: ['red', 'yellow'], total: 12 },
                                 { side: 1, seats: [1], colours: ['blue', 'green'], total: 9 }] };
          const names = ['Ann', 'Bob'];
          const over = { kind: 'game_over', totals: [12, 9], winners: [0] };
          return [m.describeEvent(over, names, view),
                  m.describeEvent({ kind: 'scored', side: 1, piece: 'blue-square-1', awarded: 3,
                                    total: 9, joker_used: false }, names, view),
                  m.resultDetails({ view }, names).textContent,
                  m.describeEvent({ kind: 'scored', side: 0, piece: 'red-circle-0', awarded: 0,
                                    total: 4, joker_used: false }, ['Ann', 'Bob', 'Cleo', 'Dan'],
                                  { sides: [{ side: 0, seats: [0, 2] },
                                            { side: 1, seats: [1, 3] }] })];
        }"""
    )
    assert words == [
        "Game over: Ann 12, Bob 9.",
        "3 points for the blue square; Bob now has 9.",
        "Final totals: Ann (red and yellow) 12, Bob (blue and green) 9.",
        "No points for the red circle; Ann and Cleo now have 4.",  # a team (V4)
    ], words
    assert all(spec_words(w) == [] for w in words)
    assert serious_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "drop-it-words-desktop.png"), full_page=True)
    phone = open_page(browser, PHONE, touch=True)
    phone.goto(page.url)
    phone.wait_for_selector("#result")
    assert spec_words(play_text(phone)) == []
    phone.screenshot(path=str(SHOTS / "drop-it-words-phone.png"), full_page=True)
    assert not page.errors and not phone.errors  # type: ignore[attr-defined]
