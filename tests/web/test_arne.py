"""Arne at the table as a person meets it (issue 13, items 2, 3, 4, 6 and 9)."""

from __future__ import annotations

import itertools
import re
import time

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, shot_of, wait_js
from tests.web.conftest import PHONE, create_table, open_page, serious_violations

ENGINE_WORDS = (
    "phase",
    "(main)",
    "(pre)",
    "(end)",
    "DEMAND_POINTS",
    "In play:",
    "quiet",
    "1 cards",
    "MINUS200",
    "CHAM",
    "DEM P",
)


def arne_table(page: Page, server: Server, seed: int = 7, reaction: int = 60) -> str:
    return create_table(
        page,
        server,
        {
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open", "medium", "easy"],
            "settings": {"bot_delay": 0, "reaction_seconds": reaction},
            "sit": 0,
            "name": "Ann",
            "seed": seed,
        },
    )


def until_white_turn(page: Page, timeout: float = 60) -> None:
    """Answer every question with a pass until the person must play a white card."""
    page.wait_for_selector("button.colour-choice")
    page.locator("button.colour-choice").first.click()
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.locator("#handbar.answer").count():
            page.keyboard.press("p")
        elif (
            page.locator("#handbar.asked .handcard.playable").count()
            and not page.locator("#handbar.answer").count()
        ) and "play a white card" in page.locator("#who-acts").inner_text():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the person was never asked for a white card")


def test_the_table_reads_at_a_glance_on_a_white_turn(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    arne_table(page, server)
    until_white_turn(page)
    game = page.locator("#game")
    # Playable cards are highlighted; the others are dimmed.
    assert page.locator("#hand .handcard.playable").count() >= 1
    # The hand is on screen while the person must act (a sticky bar at 1280x900).
    box = page.locator("#handbar").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900 + 1
    # Picking a card marks it; its targets light up or its ways to play are listed.
    page.locator("#hand .handcard.playable [role=button]").first.click()
    assert page.locator("#hand .handcard.sel").count() == 1
    assert page.locator(".target").count() + page.locator("#choices button.choice").count() >= 1
    # The header and the player list agree on who acts; no engine words anywhere.
    assert page.locator("#who-acts").inner_text().startswith("Your turn")
    assert "your move" in page.locator("#players .seat.turn").inner_text()
    text = game.inner_text()
    for word in ENGINE_WORDS:
        assert word not in text, word
    # Every card face is a drawn component with its rule as a tooltip.
    assert (
        page.locator("#hand svg.cardface title").count()
        == page.locator("#hand svg.cardface").count()
    )
    assert page.locator("#marks-legend").is_visible()
    assert serious_violations(page) == []
    page.keyboard.press("Escape")
    assert page.locator("#hand .handcard.sel").count() == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_the_log_reads_in_sentences_newest_last(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    arne_table(page, server, seed=8)
    until_white_turn(page)
    assert page.locator("#log").is_visible()  # on desktop without opening anything
    lines = page.locator("#log div").all_inner_texts()
    assert lines[0] == "The game begins."
    assert all(line.endswith((".", "!")) for line in lines), lines
    assert not any("{" in line or "=" in line for line in lines)
    assert "Ann draws 1 card." in lines
    assert any(re.search(r"\bpass\.$", line) for line in lines)  # passes merged into one line


def test_a_person_answers_a_reaction_window_with_one_key(server: Server, browser: Browser) -> None:
    page = open_page(browser, PHONE)
    arne_table(page, server, seed=9)
    page.wait_for_selector("button.colour-choice")
    page.locator("button.colour-choice").first.click()
    page.wait_for_selector("#handbar.answer", timeout=30000)
    assert page.locator("#window-timer").is_visible()  # a visible countdown
    assert page.locator("#pass").is_visible()
    assert serious_violations(page) == []
    version = page.evaluate("document.body.dataset.version")
    # A double press: the second pass is made for a decision that has moved on by the time
    # it arrives. The server refuses it (nothing applied twice) and the page says nothing.
    page.evaluate(
        "() => { for (let i = 0; i < 2; i++)"
        " document.dispatchEvent(new KeyboardEvent('keydown', { key: 'p' })); }"
    )
    wait_js(page, f"document.body.dataset.version !== '{version}'")
    page.wait_for_timeout(500)
    assert page.locator(".toast.error").count() == 0
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.errors  # type: ignore[attr-defined]


def test_the_hint_for_a_picked_card_fits_on_a_phone(server: Server, browser: Browser) -> None:
    """Seen on a 390 px phone: "red 50: pick a lit target or a button" ran past the edge of
    the bar's sideways row and read "... or a butto"."""
    page = open_page(browser, PHONE)
    arne_table(page, server, seed=9)
    until_white_turn(page)
    page.locator("#hand .handcard.playable [role=button]").first.click()
    hint = page.locator("#choice-hint")
    assert "pick a lit target or a button" in hint.inner_text()
    bar = page.locator("#handbar").bounding_box()
    box = hint.bounding_box()
    assert bar is not None and box is not None
    assert box["x"] + box["width"] <= bar["x"] + bar["width"], (box, bar)
    assert page.evaluate("(h) => h.scrollWidth <= h.clientWidth", hint.element_handle())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=f"{SHOTS}/arne-phone-hint.png")
    assert not page.errors  # type: ignore[attr-defined]


def bar_share(page: Page) -> float:
    box = page.locator("#handbar").bounding_box()
    assert box is not None
    return box["height"] / PHONE["height"]


# In one script run, so a state arriving meanwhile cannot re-render the hand between two
# steps (under load a card was detached between finding it and scrolling to it).
CHECK_BLACK_CARDS = """() => [...document.querySelectorAll('#hand .handcard.black')].map((card) => {
  card.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  const r = card.getBoundingClientRect();
  const button = card.querySelector('[role=button]');
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return { x: r.x, y: r.y, width: r.width, height: r.height,
           playable: card.classList.contains('playable'),
           onTop: !button || (hit !== null && (button.contains(hit) || hit.contains(button))) };
})"""


def black_cards_reachable(page: Page) -> None:
    """Every black card in the hand can be brought into view and, if it glows, clicked
    (nothing covers it)."""
    for box in page.evaluate(CHECK_BLACK_CARDS):
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, box
        assert not box["playable"] or box["onTop"], box


def test_on_a_phone_the_hand_bar_is_compact_and_every_black_card_reachable(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, PHONE, touch=True)
    arne_table(page, server, seed=7)
    until_white_turn(page)
    assert bar_share(page) <= 0.35
    black_cards_reachable(page)
    # A picked card lists its ways to play in one sideways row: the bar stays small.
    page.locator("#hand .handcard.playable [role=button]").first.click()
    assert page.locator("#hand .handcard.sel").count() == 1
    assert bar_share(page) <= 0.35
    page.locator("#cancel").click()
    cards = page.locator("#hand .handcard.playable [role=button]")
    overflowing = 0
    for i in range(cards.count()):  # whatever card is picked, Cancel is whole in view
        cards.nth(i).click()
        box = page.locator("#cancel").bounding_box()
        hint = page.locator("#choice-hint").inner_text()
        assert box is not None and 0 <= box["x"] <= box["x"] + box["width"] <= PHONE["width"], hint
        # more ways to play than the screen is wide: the row fades at the edge with more
        # (buttons cut off at the edge read as all there is)
        row = "document.querySelector('#choices')"
        if page.evaluate(f"{row}.scrollWidth > {row}.clientWidth + 2"):
            overflowing += 1
            assert page.evaluate(f"{row}.className") == "row more-right", hint
            shot_of(page, "#handbar", f"{SHOTS}/arne-phone-choices-more.png")
            page.evaluate(f"{row}.scrollLeft = {row}.scrollWidth")
            wait_js(page, f"{row}.className === 'row more-left'")
        else:
            assert "more" not in page.evaluate(f"{row}.className"), hint
        page.locator("#cancel").click()
    assert overflowing, "no card had more ways to play than the row shows"
    # The bar folds to its first line and opens again.
    page.locator("#hand-fold").click()
    assert not page.locator("#hand").is_visible()
    page.locator("#hand-fold").click()
    assert page.locator("#hand").is_visible()
    # A white card played; at the next window where a black card glows, it is in view.
    deadline = time.time() + 90
    while not (
        page.locator("#handbar.answer").count()
        and page.locator("#hand .handcard.playable.black").count()
    ):
        assert time.time() < deadline, "never asked with a black card to play"
        pass_or_play(page)
    assert bar_share(page) <= 0.35
    glowing = page.locator("#hand .handcard.playable.black").first.bounding_box()
    assert glowing is not None and glowing["x"] + glowing["width"] <= PHONE["width"]
    black_cards_reachable(page)
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors  # type: ignore[attr-defined]


def pass_or_play(page: Page) -> None:
    """One step of a person who passes when they may answer and otherwise plays their first
    playable card on its first choice or target."""
    if page.locator("#handbar.answer").count():
        page.keyboard.press("p")
    elif page.locator("#handbar.asked .handcard.playable [role=button]").count():
        page.locator("#handbar.asked .handcard.playable [role=button]").first.click()
        if page.locator("#choices button.choice").count():
            page.locator("#choices button.choice").first.click()
        elif page.locator(".target").count():
            page.locator(".target").first.click()
    page.wait_for_timeout(100)


def test_a_black_card_whose_name_ends_in_an_exclamation_ends_the_sentence(
    server: Server, browser: Browser
) -> None:
    """ "Bob answers with Reverse!." (and "Richtungswechsel!." in German): one mark."""
    page = open_page(browser)
    page.goto(f"{server.url}/")
    said = page.evaluate(
        """async () => {
          const arne = await import('/static/games/arne.js');
          return ['reverse', 'stop'].map((type) =>
            arne.describeEvent({ kind: 'black', player: 1, action: { type } }, ['Ann', 'Bob'], null)
          );
        }"""
    )
    assert said == ["Bob answers with Reverse!", "Bob answers with Stop! and plays next."], said


def test_a_stacks_marks_are_drawn_side_by_side(server: Server, browser: Browser) -> None:
    """A tripled, crushed and locked stack drew its ×3, ✕ and lock on top of each other (a
    new user's screenshot): every mark apart from the others and inside the card."""
    page = open_page(browser)
    page.goto(f"{server.url}/")
    found = page.evaluate(
        """async () => {
          const { cardFace } = await import('/static/games/arne-cards.js');
          const all = { chameleon: true, x3: true, crush: true, lock: true };
          return [["x3", "crush"], ["x3", "crush", "lock"], Object.keys(all)].map((keys) => {
            const marks = Object.fromEntries(keys.map((k) => [k, true]));
            const face = cardFace('red P200', { width: 56, marks });
            document.body.append(face);
            const card = face.getBoundingClientRect();
            const boxes = [...face.querySelectorAll('[data-mark]')].map((g) => {
              const r = g.getBoundingClientRect();
              return { left: r.left - card.left, right: r.right - card.left, width: card.width };
            });
            face.remove();
            return boxes;
          });
        }"""
    )
    for boxes in found:
        assert len(boxes) >= 2, found
        for a, b in itertools.pairwise(boxes):
            assert a["right"] <= b["left"] + 0.5, boxes  # side by side, not over each other
        assert boxes[0]["left"] >= 0 and boxes[-1]["right"] <= boxes[0]["width"], boxes


def test_every_card_has_words_for_the_log(server: Server, browser: Browser) -> None:
    """The log names the card each player declares: "Pass hands" was "no colour undefined"
    (an action card whose id starts with P was read as a point card)."""
    page = open_page(browser)
    page.goto(f"{server.url}/")
    words = page.evaluate(
        """async () => {
          const cards = await import('/static/games/arne-cards.js');
          return Object.keys(cards.CARDS).map((type) =>
            cards.cardWords(/^(P\\d+|X2|MINUS200)$/.test(type) ? `red ${type}` : type));
        }"""
    )
    assert len(words) > 10
    for said in words:
        assert "undefined" not in said and "no colour" not in said, words


def until_own_main_window(page: Page, timeout: float = 90) -> None:
    """Pass or play until the person's own turn begins with its reaction window (their
    white card may be played now, or the others may answer first)."""
    page.wait_for_selector("button.colour-choice")
    page.locator("button.colour-choice").first.click()
    deadline = time.time() + timeout
    while time.time() < deadline:
        answering = page.locator("#handbar.answer").count() and page.locator("#pass").count()
        if answering and page.locator("#window").inner_text().startswith("Your turn"):
            return
        pass_or_play(page)
    raise AssertionError("the person's own turn never opened with a window")


def test_on_your_own_turn_passing_says_the_turn_comes_back(
    server: Server, browser: Browser
) -> None:
    """New-user finding 4: "Pass (P)" on your own turn read as skipping it; passing there only
    lets the others answer with a black card first, then you play."""
    page = open_page(browser)
    arne_table(page, server, seed=7)
    until_own_main_window(page)
    button = page.locator("#pass")
    assert "answer first" in button.inner_text() and button.inner_text().endswith("(P)")
    assert not button.inner_text().startswith("Pass")
    assert "not skip" in (button.get_attribute("title") or "")
    for where in ("#window", "#who-acts"):
        said = page.locator(where).inner_text()
        assert "then you play" in said, said
    shot_of(page, "#handbar", f"{SHOTS}/arne-own-window.png")
    assert serious_violations(page) == []
    assert not page.errors  # type: ignore[attr-defined]


def test_one_panel_is_called_players(server: Server, browser: Browser) -> None:
    """New-user finding 6: the table page had two panels headed "Players"."""
    page = open_page(browser)
    arne_table(page, server, seed=8)
    page.wait_for_selector("#players-row")
    headings = page.evaluate(
        "[...document.querySelectorAll('h2, h3')].filter((h) => h.offsetParent)"
        ".map((h) => h.textContent.trim())"
    )
    assert headings.count("Players") == 1, headings
    assert len(set(headings)) == len(headings), headings


def scroll_settles(page: Page) -> None:
    """Waits until the page has not scrolled for 150 ms (a smooth scroll has ended)."""
    before = None
    for _ in range(40):
        now = page.evaluate("window.scrollY")
        if now == before:
            return
        before = now
        page.wait_for_timeout(150)


def test_a_picked_card_brings_its_lit_targets_into_view(server: Server, browser: Browser) -> None:
    """New-user finding 3: after picking a white card the hand bar pinned to the bottom covered
    the displays it may go to ("pick a lit target"); the first lit target now shows above it."""
    for name, size in (("desk", {"width": 1280, "height": 800}), ("phone", PHONE)):
        page = open_page(browser, size, touch=name == "phone")
        arne_table(page, server, seed=7)
        until_white_turn(page)
        cards = page.locator("#hand .handcard.playable [role=button]")
        lit = 0
        for i in range(cards.count()):
            page.evaluate("window.scrollTo(0, 0)")
            cards.nth(i).click()
            scroll_settles(page)
            targets = page.locator("#game .target")
            if not targets.count():
                page.keyboard.press("Escape")
                continue
            lit += 1
            bar = page.locator("#handbar").bounding_box()
            first = targets.first.bounding_box()
            assert bar is not None and first is not None
            hint = page.locator("#choice-hint").inner_text()
            assert first["y"] >= 0 and first["y"] + first["height"] <= bar["y"] + 1, (name, hint)
            page.screenshot(path=f"{SHOTS}/arne-{name}-lit{i}.png")
            page.keyboard.press("Escape")
        assert lit, "no card with a lit target"
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_while_colours_are_chosen_the_header_names_the_one_choosing(
    server: Server, browser: Browser
) -> None:
    """A new user's walk-through (stop 53): after Ann took her colour, Bob's page said
    "Ann's turn" above "Choose your colour." (the header named the first player)."""
    from tests.web.conftest import start_table
    from tests.web.test_seats import sit

    ann, bob = open_page(browser), open_page(browser)
    tid = create_table(
        ann,
        server,
        {
            "game": "arne",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0, "reaction_seconds": 60},
            "sit": 0,
            "name": "Ann",
        },
        start=False,
    )
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    pages = {"Ann": ann, "Bob": bob}
    for _ in range(2):  # each chooses in turn; the header follows the one choosing
        deadline = time.time() + 20
        while not any(p.locator("button.colour-choice").count() for p in pages.values()):
            assert time.time() < deadline, "nobody was asked for a colour"
            ann.wait_for_timeout(50)
        chooser = next(n for n, p in pages.items() if p.locator("button.colour-choice").count())
        other = next(n for n in pages if n != chooser)
        head = "#arne-head strong"
        assert pages[chooser].locator(head).first.inner_text() == "Your turn"
        assert pages[other].locator(head).first.inner_text() == f"{chooser}'s turn"
        pages[chooser].locator("button.colour-choice").first.click()
        wait_js(pages[chooser], "!document.querySelector('button.colour-choice')")
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
