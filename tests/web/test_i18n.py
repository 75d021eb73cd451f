"""The pages in German, Dutch and Russian (issue 46, item 4): chosen from the browser's
languages, switched in the header, remembered per device and per account; no English left
on the lobby (aside from names) and nothing wider than a 390 px phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page

from gamenight.i18n.build import domains
from tests.server.helpers import Server, wait_js
from tests.web.conftest import PHONE, serious_violations

SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
# names, and each language in its own words in the switcher
NAMES = {
    "gamenight",
    "arne",
    "drop",
    "stop",
    "flex",
    "bot",
    "bots",
    "min",
    "lobby",
    "ann",
    "english",
}
WORD = re.compile(r"[A-Za-z]{3,}")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def catalogue_words(lang: str) -> tuple[set[str], set[str]]:
    """(words of every English message, words of `lang`'s translations) of every catalogue."""
    english: set[str] = set()
    translated: set[str] = set()
    for domain in domains():
        with domain.po(lang).open("rb") as file:
            po = read_po(file, locale=lang)
        for message in po:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            english |= words(" ".join(ids))
            translated |= words(" ".join(s for s in strings if s))
    return english, translated


def english_left(text: str, lang: str) -> set[str]:
    """Words on the page that are words of our English messages and of no translation."""
    english, translated = catalogue_words(lang)
    return (words(text) & english) - translated - NAMES


OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  const bad = page > width + 1 ? [`page ${page}px`] : [];
  const scrolls = (n) => {
    for (let p = n.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll") return true;
    }
    return false;
  };
  for (const n of document.querySelectorAll("body *")) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (n.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    const style = getComputedStyle(n);
    if (style.visibility === "hidden" || style.position === "fixed") continue;
    const what = `${n.localName}${n.id ? "#" + n.id : ""}: ${n.textContent.trim().slice(0, 40)}`;
    const out = r.right > width + 1 || r.left < -1;
    if (!scrolls(n) && out) bad.push(`${what} (right ${Math.round(r.right)})`);
    const clips = style.overflowX === "hidden" || style.textOverflow === "ellipsis";
    if (clips && n.scrollWidth > n.clientWidth + 1) bad.push(`${what} (clipped)`);
  }
  return bad;
}"""


def open_in(browser: Browser, lang: str, size: dict[str, int] = PHONE) -> Page:
    """A fresh person whose browser speaks `lang` (navigator.languages, Accept-Language)."""
    context = browser.new_context(viewport=size, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.set_default_timeout(15000)
    return page


def lobby_in(page: Page, server: Server, lang: str) -> None:
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    wait_js(page, f"document.documentElement.lang === {lang!r}")
    page.wait_for_selector("label.variant")  # the game's own lobby module has drawn


@pytest.mark.parametrize(
    ("locale", "lang", "sample"),
    [
        ("de-DE", "de", "Was spielen wir?"),
        ("nl-NL", "nl", "Wat gaan we spelen?"),
        ("ru-RU", "ru", "Во что сыграем?"),
    ],
)
def test_the_lobby_speaks_the_browsers_language_with_no_english_left_and_fits_a_phone(
    server: Server, browser: Browser, locale: str, lang: str, sample: str
) -> None:
    page = open_in(browser, locale)
    lobby_in(page, server, lang)
    text = page.locator("body").inner_text()
    assert sample in text
    assert english_left(text, lang) == set(), text
    for game in ("arne", "drop-it"):  # every game's variants and pitch, too
        page.click(f'.game-card[data-game="{game}"]')
        page.wait_for_selector(f'.game-card.chosen[data-game="{game}"]')
        assert english_left(page.locator("body").inner_text(), lang) == set()
    page.click('.game-card[data-game="drop-or-stop"]')
    assert page.evaluate(OVERFLOW_JS) == []
    assert serious_violations(page) == []
    if lang in ("de", "ru"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"i18n-lobby-{lang}.png"))
        page.screenshot(path=str(SHOTS / f"i18n-lobby-{lang}-full.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("ru-RU", "ru")])
def test_the_advanced_settings_speak_the_language_and_fit_a_phone(
    server: Server, browser: Browser, locale: str, lang: str
) -> None:
    """Under "Advanced (designers)" every game's settings: each help text and each choice's
    words in the page's language (the game's catalogue); the names stay as typed."""
    page = open_in(browser, locale)
    lobby_in(page, server, lang)
    for game in ("arne", "drop-it", "drop-or-stop"):
        page.click(f'.game-card[data-game="{game}"]')
        page.wait_for_selector(f'.game-card.chosen[data-game="{game}"]')
        page.evaluate("document.querySelector('#advanced').open = true")
        said = page.eval_on_selector_all(
            "#options small, #options option", "els => els.map((e) => e.textContent).join(' ')"
        )
        assert said.strip() and english_left(said, lang) == set(), said
        assert page.evaluate(OVERFLOW_JS) == []
    page.click('.game-card[data-game="arne"]')
    page.evaluate("document.querySelector('#advanced').open = true")
    reverse = page.locator('#options select[name="reverse_mode"]')
    assert reverse.locator("option").first.get_attribute("value") == "flip_and_take"
    assert "reverse_mode" in page.locator("#options").inner_text()  # the name, as typed
    if lang == "de":
        assert reverse.locator("option").all_inner_texts() == [
            "umkehren und als Nächstes ziehen",
            "nur umkehren",
        ]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#advanced").screenshot(path=str(SHOTS / "i18n-advanced-de.png"))
    assert not page.errors  # type: ignore[attr-defined]


def test_the_header_switches_the_language_and_the_device_remembers_it(
    server: Server, browser: Browser
) -> None:
    page = open_in(browser, "en-US")
    lobby_in(page, server, "en")
    assert "What shall we play?" in page.locator("body").inner_text()
    with page.expect_navigation():
        page.select_option("#lang", "nl")
    lobby_in(page, server, "nl")
    assert "Wat gaan we spelen?" in page.locator("body").inner_text()
    assert page.evaluate("localStorage.getItem('gamenight.lang')") == "nl"
    # The server's own answers follow the page: the games' pitch and the rules panel.
    games: list[dict[str, Any]] = page.evaluate("fetch('/api/games').then((r) => r.json())")
    pitch = next(g["pitch"] for g in games if g["name"] == "drop-or-stop")
    assert "11" in pitch and "Draw another card" not in pitch
    page.goto(server.url)  # a new visit: still Dutch
    lobby_in(page, server, "nl")
    assert not page.errors  # type: ignore[attr-defined]


def test_an_account_keeps_its_language_on_every_device(server: Server, browser: Browser) -> None:
    first = open_in(browser, "en-US")
    first.goto(server.url)
    signup = first.request.post(
        f"{server.url}/api/accounts",
        data={"name": "Lotte", "password": "a long and odd passphrase 7"},
    )
    assert signup.status in (200, 201), signup.text()
    lobby_in(first, server, "en")
    with first.expect_navigation():
        first.select_option("#lang", "ru")
    lobby_in(first, server, "ru")
    # Another device, a German browser: signed in as Lotte, the page is Russian.
    other = open_in(browser, "de-DE")
    other.goto(server.url)
    login = other.request.post(
        f"{server.url}/api/session",
        data={"name": "Lotte", "password": "a long and odd passphrase 7"},
    )
    assert login.status == 200, login.text()
    lobby_in(other, server, "ru")
    assert (
        other.request.post(f"{server.url}/api/account/language", data={"language": "xx"}).status
        == 400
    )


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("ru-RU", "ru"), ("nl-NL", "nl")])
def test_a_drop_or_stop_table_speaks_the_language_and_fits_a_phone(
    server: Server, browser: Browser, locale: str, lang: str
) -> None:
    """The table page's chrome, the game's own page, its log and its rules panel: no English
    left (names aside) at 390 px, nothing wider than the phone, after a few moves."""
    page = open_in(browser, locale)
    page.goto(server.url)
    r = page.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "sit": 0,
            "name": "Ann",
            "settings": {"bot_delay": 0},
        },
    )
    assert r.status == 201, r.text()
    page.goto(f"{server.url}/tables/{r.json()['id']}")
    wait_js(page, "document.body.dataset.status === 'running'")
    page.wait_for_selector("#rules-list .rule-section", state="attached")
    for _ in range(3):  # a few moves: the log's sentences, perhaps a reveal
        page.wait_for_selector("#drop:not([disabled]), #results:not([hidden])")
        if page.locator("#results:not([hidden])").count():
            break
        page.click("#drop" if _ < 2 else "#stop")
        page.wait_for_timeout(300)
    page.wait_for_selector("#log div")
    text = page.locator("body").inner_text()
    assert english_left(text, lang) == set(), text
    page.click("#howto summary")  # the rules panel, closed on a phone, opened
    rules = page.locator("#rules-list").inner_text()
    assert english_left(rules, lang) == set(), rules
    assert {"de": "Das Ziel", "ru": "Цель игры", "nl": "Het doel"}[lang] in rules
    assert page.evaluate(OVERFLOW_JS) == []
    if lang in ("de", "ru"):
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"i18n-table-{lang}.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("ru-RU", "ru")])
def test_an_arne_table_speaks_the_language_and_fits_a_phone(
    server: Server, browser: Browser, locale: str, lang: str
) -> None:
    """Arne's table at 390 px, in the person's language: the header, whose turn, hands and
    scores, the displays, the hand bar, the cards' names and the log."""
    page = open_in(browser, locale)
    page.goto(server.url)
    r = page.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "arne",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "sit": 0,
            "name": "Ann",
            "settings": {"bot_delay": 0},
        },
    )
    assert r.status == 201, r.text()
    page.goto(f"{server.url}/tables/{r.json()['id']}")
    wait_js(page, "document.body.dataset.status === 'running'")
    page.wait_for_selector("#arne-head")
    page.click("#choices .colour-choice >> nth=0")  # choose a colour: the cards are dealt
    page.wait_for_selector("#hand .handcard")
    page.wait_for_timeout(1500)  # the bot's first moves reach the log
    text = page.locator("body").inner_text()
    assert english_left(text, lang) == set(), text
    assert page.evaluate(OVERFLOW_JS) == []
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"i18n-arne-{lang}.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("ru-RU", "ru")])
def test_a_drop_it_table_speaks_the_language_and_fits_a_phone(
    server: Server, browser: Browser, locale: str, lang: str
) -> None:
    """Drop It's table at 390 px after one drop: the supply, the aim line, the last drop
    explained, the scores and the log, in the person's language."""
    page = open_in(browser, locale)
    page.goto(server.url)
    r = page.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-it",
            "options": {"players": 2},
            "seats": ["open", "easy"],
            "sit": 0,
            "name": "Ann",
            "settings": {"bot_delay": 0},
        },
    )
    assert r.status == 201, r.text()
    page.goto(f"{server.url}/tables/{r.json()['id']}")
    wait_js(page, "document.body.dataset.status === 'running'")
    page.wait_for_selector("#drop-btn")
    page.click("#drop-btn")
    page.click("#drop-btn")  # (a tap arms, the second drops)
    page.wait_for_selector("#result, #log div", timeout=30000)
    page.wait_for_timeout(2500)  # the fall, then the bot's drop
    text = page.locator("body").inner_text()
    assert english_left(text, lang) == set(), text
    assert page.evaluate(OVERFLOW_JS) == []
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"i18n-drop-it-{lang}.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_results_and_the_replay_speak_german_on_a_phone(
    server: Server, browser: Browser
) -> None:
    """A short game to its end in German: the results dialog, then the replay page (its
    controls, the log's sentences step by step), no English left, nothing wider than 390 px."""
    from tests.web.test_drop_or_stop import play_to_the_end

    page = open_in(browser, "de-DE")
    page.goto(server.url)
    r = page.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-or-stop",
            "options": {"players": 2, "wins_to_win": 1},
            "seats": ["open", "easy"],
            "sit": 0,
            "name": "Ann",
            "settings": {"bot_delay": 0},
        },
    )
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    page.goto(f"{server.url}/tables/{tid}")
    wait_js(page, "document.body.dataset.status === 'running'")
    play_to_the_end(page, by_keyboard=False)
    results = page.locator("#results").inner_text()
    assert "Spielende" in results and english_left(results, "de") == set(), results
    page.goto(f"{server.url}/tables/{tid}/replay")
    page.wait_for_selector("#moves li")
    page.click("#next")
    text = page.locator("body").inner_text()
    assert "Der Anfang." in text and english_left(text, "de") == set(), text
    assert page.evaluate(OVERFLOW_JS) == []
    page.screenshot(path=str(SHOTS / "i18n-replay-de.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_account_and_profile_pages_speak_dutch_on_a_phone(
    server: Server, browser: Browser
) -> None:
    page = open_in(browser, "nl-NL")
    page.goto(f"{server.url}/account")
    wait_js(page, "document.documentElement.lang === 'nl'")
    assert english_left(page.locator("body").inner_text(), "nl") == set()
    page.fill("#acc-name", "Joost")
    page.fill("#acc-password", "een lang wachtwoord 9")
    page.click("#sign-up")
    page.wait_for_selector("#signed-in:not([hidden])")
    text = page.locator("body").inner_text()
    assert "Ingelogd als Joost." in text and english_left(text, "nl") == set(), text
    assert page.evaluate(OVERFLOW_JS) == []
    page.goto(f"{server.url}/players/Joost")
    page.wait_for_selector("#profile-summary:not(:empty)")
    text = page.locator("body").inner_text()
    assert "0 afgelopen spellen" in text and english_left(text, "nl") == set(), text
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("locale", "lang", "written"),
    [("de-DE", "de", "0,7 · 12,5"), ("nl-NL", "nl", "0,7 · 12,5"), ("en-US", "en", "0.7 · 12.5")],
)
def test_decimal_numbers_are_written_as_the_language_writes_them(
    server: Server, browser: Browser, locale: str, lang: str, written: str
) -> None:
    """A German table said "noch 0.7 s zum Antworten": the countdown, the coach's odds and
    points, and the ratings go through one helper that writes the page's language."""
    page = open_in(browser, locale)
    lobby_in(page, server, lang)
    said = page.evaluate(
        "import('/static/common.js').then(m => `${m.fixed(0.7, 1)} · ${m.fixed(12.5, 1)}`)"
    )
    assert said == written
    web = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "web"
    shown = re.compile(r"(left|value|margin|points|rating|mu|sigma)\)?\.toFixed\(")
    for script in [*web.glob("*.js"), *web.glob("games/*.js")]:  # no number shown raw
        assert not shown.search(script.read_text()), script.name


def test_the_lobbys_list_names_bots_in_the_readers_language(
    server: Server, browser: Browser
) -> None:
    """New-user finding (nl): the list of open tables named bots "Bot 2 (easy)" in English
    beside a lobby in Dutch (the table page already said "Bot 2 (makkelijk)")."""
    page = open_in(browser, "nl-NL")
    made = page.request.post(
        f"{server.url}/api/tables",
        data={"game": "arne", "seats": ["open", "easy", "hard"], "options": {"players": 3}},
    )
    assert made.status == 201, made.text()
    lobby_in(page, server, "nl")
    row = page.locator(f"tr[data-table='{made.json()['id']}']")
    names = row.locator("td.names").inner_text()
    assert names == "open plaats, Bot 2 (makkelijk), Bot 3 (moeilijk)", names
    assert not page.errors  # type: ignore[attr-defined]
