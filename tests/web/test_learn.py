"""The guided first games in the browser (issue 46, items 1 and 5): each tutorial is
completed by following its own instructions (read the instruction, press the highlighted
element) at desktop and phone sizes, axe-clean at every step; a step whose highlighted
element is missing fails. A wrong move is refused with the reason, where the instruction is.
Screenshots: out/screenshots/tutorial-GAME-{desktop,phone}-step-K.png."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import DESKTOP, PHONE, open_page, serious_violations

SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
READY = "document.body.dataset.phase && document.body.dataset.pointed !== undefined"


def _open(browser: Browser, size: dict[str, int]) -> Page:
    page = open_page(browser, size, touch=size is PHONE)
    page.emulate_media(reduced_motion="reduce")  # the pointer's pulse stands still for axe
    return page


def _phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase"))


def follow(
    page: Page, server: Server, game: str, label: str, shots: set[int], shot_name: str = ""
) -> list[str]:
    """Complete the tutorial by its instructions; returns the instructions read. Screenshots
    of the steps in `shots` (their number, from 1), named `shot_name` (else tutorial-GAME-LABEL)
    and -step-K."""
    page.goto(f"{server.url}/learn/{game}")
    page.click("#learn-start")
    said: list[str] = []
    for _ in range(60):
        wait_js(page, READY)
        phase = _phase(page)
        if phase == "done":
            return said
        if phase == "why":
            assert page.text_content("#learn-why")
            page.click("#learn-next")
            continue
        at = int(page.evaluate("document.body.dataset.at"))
        with contextlib.suppress(TimeoutError):  # (a falling piece lands first)
            wait_js(page, "document.body.dataset.pointed === '1'", timeout=8000)
        part = page.evaluate("document.body.dataset.pointAt")  # a card, then where it goes
        instruction = page.text_content("#learn-say") or ""
        assert instruction, f"step {at + 1}: no instruction"
        pointed = page.evaluate("document.body.dataset.pointed")
        assert pointed == "1", f"step {at + 1} ({instruction}): the highlighted element is missing"
        target = page.locator(".learn-target")
        assert target.count() == 1 and target.is_visible(), instruction
        # a button's name is in the instruction ("Press DROP", "your red triangle")
        name = target.get_attribute("aria-label") or target.text_content() or ""
        words = name.split(",")[0].strip()
        if target.evaluate("(n) => n.localName") == "button" and words:
            assert words.lower() in instruction.lower(), (words, instruction)
        assert not serious_violations(page), (at, serious_violations(page))
        if part == "0":
            said.append(instruction)
            if at + 1 in shots:
                shot = f"{shot_name or f'tutorial-{game}-{label}'}-step-{at + 1}.png"
                page.screenshot(path=str(SHOTS / shot))
        target.click()
        moved = f"document.body.dataset.at !== '{at}' || document.body.dataset.pointAt !== '{part}'"
        wait_js(page, f"document.body.dataset.phase !== 'do' || {moved}")
        assert not page.text_content("#coachmark-refusal"), page.text_content("#coachmark-refusal")
    raise AssertionError("the tutorial did not end")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_drop_or_stop_tutorial_followed_to_the_end(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    label = "desktop" if size is DESKTOP else "phone"
    page = _open(browser, size)
    began = time.monotonic()
    said = follow(page, server, "drop-or-stop", label, {2, 4})
    assert len(said) == 5 and "DROP" in said[1]
    assert page.text_content("#learn-outro")
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / f"tutorial-drop-or-stop-{label}-done.png"))
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    print(f"drop-or-stop tutorial followed in {time.monotonic() - began:.1f} s")
    page.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_arne_tutorial_followed_to_the_end(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    label = "desktop" if size is DESKTOP else "phone"
    page = _open(browser, size)
    began = time.monotonic()
    said = follow(page, server, "arne", label, {2, 4, 6})
    assert len(said) == 7 and "tripler" in said[2]
    assert "3000" in (page.text_content("#game") or "")
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / f"tutorial-arne-{label}-done.png"))
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    print(f"arne tutorial followed in {time.monotonic() - began:.1f} s")
    page.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_drop_it_tutorial_followed_to_the_end(
    server: Server, browser: Browser, size: dict[str, int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    label = "desktop" if size is DESKTOP else "phone"
    page = _open(browser, size)
    began = time.monotonic()
    said = follow(page, server, "drop-it", label, {2, 4, 5})
    assert len(said) == 5 and "bonus circle" in said[1]
    wait_js(page, "!!document.getElementById('awarded')")
    assert page.text_content("#awarded") == "1 point"
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / f"tutorial-drop-it-{label}-done.png"))
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    print(f"drop-it tutorial followed in {time.monotonic() - began:.1f} s")
    page.context.close()


def test_a_wrong_move_is_refused_with_the_reason(server: Server, browser: Browser) -> None:
    page = _open(browser, DESKTOP)
    page.goto(f"{server.url}/learn/drop-or-stop")
    page.click("#learn-start")
    page.click(".learn-target")  # Peek
    page.click("#learn-next")
    wait_js(page, "document.body.dataset.pointed === '1'")
    page.click("#stop")  # the step asks for DROP
    wait_js(page, "document.getElementById('coachmark-refusal').textContent.length > 0")
    assert re.search(r"Not yet: .*Press DROP", page.text_content("#coachmark-refusal") or "")
    assert _phase(page) == "do" and page.evaluate("document.body.dataset.at") == "1"
    page.click("#drop")
    wait_js(page, "document.body.dataset.phase === 'why'")
    assert "FLEX" in (page.text_content("#learn-why") or "")
    page.context.close()


def test_the_lobby_card_offers_the_tutorial(server: Server, browser: Browser) -> None:
    page = _open(browser, PHONE)
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    link = page.locator('[data-learn="drop-or-stop"]')
    assert re.fullmatch(r"Learn to play \(about \d min\)", link.text_content() or "")
    link.click()
    page.wait_for_url("**/learn/drop-or-stop")
    wait_js(page, "document.body.dataset.phase === 'intro'")
    assert "About" in (page.text_content("#coachmark") or "")
    page.context.close()


def test_arne_tutorial_by_keyboard(server: Server, browser: Browser) -> None:
    """The pointer follows keys too: a card taken with Enter points at where it goes."""
    page = _open(browser, DESKTOP)
    page.goto(f"{server.url}/learn/arne")
    page.click("#learn-start")
    wait_js(page, "document.body.dataset.pointed === '1'")
    page.focus(".learn-target")  # Take purple
    page.keyboard.press("Enter")
    wait_js(page, "document.body.dataset.phase === 'why'")
    page.focus("#learn-next")
    page.keyboard.press("Enter")
    wait_js(page, "document.body.dataset.pointed === '1'")
    page.focus(".learn-target")  # the purple 1000
    page.keyboard.press("Enter")
    wait_js(page, "document.body.dataset.pointAt === '1'")
    assert page.locator(".learn-target").get_attribute("data-display") == "0"
    page.focus(".learn-target")  # your display
    page.keyboard.press("Enter")
    wait_js(page, "document.body.dataset.phase === 'why'")
    assert "1000" in (page.text_content("#learn-why") or "")
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_drop_or_stop_tutorial_in_german(server: Server, browser: Browser) -> None:
    """A German browser (navigator.languages, Accept-Language: the lobby's `lang` choice):
    the page's chrome and the script's words in German, a wrong move refused in German, and
    the tutorial still completed by following its (German) instructions at 390 px.
    Screenshots: out/screenshots/learn-de-*.png."""
    from tests.web.test_i18n import english_left, open_in

    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_in(browser, "de-DE", PHONE)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{server.url}/learn/drop-or-stop")
    wait_js(
        page, "document.body.dataset.phase === 'intro' && document.documentElement.lang === 'de'"
    )
    assert "Lerne Drop or Stop" in (page.text_content("#title") or "")
    intro = page.text_content("#coachmark") or ""
    assert "Eine kurze Runde gegen einen Bot" in intro and "Etwa 3 Minuten" in intro, intro
    assert page.text_content("#learn-start") == "Los"
    page.screenshot(path=str(SHOTS / "learn-de-intro.png"))
    page.click("#learn-start")
    wait_js(page, "document.body.dataset.pointed === '1'")
    assert "Drücke „Ansehen“" in (page.text_content("#learn-say") or "")
    assert english_left(page.locator("#coachmark").inner_text(), "de") == set()
    page.click(".learn-target")  # Ansehen (Peek)
    wait_js(page, "document.body.dataset.phase === 'why'")
    assert "Deine verdeckten Karten sind eine 1 und eine 4" in (
        page.text_content("#learn-why") or ""
    )
    page.click("#learn-next")
    wait_js(page, "document.body.dataset.pointed === '1'")
    page.click("#stop")  # the step asks for DROP
    wait_js(page, "document.getElementById('coachmark-refusal').textContent.length > 0")
    assert "Noch nicht: 5 ist weit von 11 entfernt" in (
        page.text_content("#coachmark-refusal") or ""
    )
    page.screenshot(path=str(SHOTS / "learn-de-refused.png"))

    said = follow(page, server, "drop-or-stop", "de", {2, 3}, shot_name="learn-de")
    assert len(said) == 5 and said[1].startswith("Drücke DROP"), said
    outro = page.text_content("#learn-outro") or ""
    assert "Das ist schon das ganze Spiel" in outro, outro
    assert page.text_content("#progress") == "fertig"
    assert english_left(page.locator("#coachmark").inner_text(), "de") == set()
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / "learn-de-done.png"))
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
    page.context.close()
