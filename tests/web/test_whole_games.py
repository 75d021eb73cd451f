"""Issue 13's new-user flow for the games not covered elsewhere (Drop or Stop's is in
test_drop_or_stop.py): from the lobby to a finished game, a person and a bot, on a desktop
and on a phone: the results shown, no error toast, no script error, axe clean, nothing
wider than the screen."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import Server
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    create_from_lobby,
    open_page,
    serious_violations,
)
from tests.web.test_moments import play_arne_turn


def drop_it_turn(page: Page) -> None:
    """Keep a joker when asked, else drop the chosen piece where it is aimed."""
    if page.locator("#joker-keep").count():
        page.click("#joker-keep")
    elif page.locator("#drop-btn").count():
        page.click("#drop-btn")


def arne_turn(page: Page) -> None:
    auto = page.locator("#auto-pass")
    if auto.count() and not auto.is_checked():
        auto.check()
    play_arne_turn(page)


TURNS: dict[str, Callable[[Page], None]] = {"arne": arne_turn, "drop-it": drop_it_turn}


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", sorted(TURNS))
def test_a_person_plays_a_whole_game_from_the_lobby(
    server: Server, browser: Browser, game: str, size: dict[str, int]
) -> None:
    page = open_page(browser, size)
    create_from_lobby(page, server, game)
    deadline = time.time() + 300
    while not page.locator("#results").is_visible():
        assert time.time() < deadline, (
            f"{game} did not finish: {page.locator('#game').inner_text()[:300]}"
        )
        TURNS[game](page)
        page.wait_for_timeout(40)
    assert page.locator("#winner-line").inner_text().strip()
    assert page.locator(".toast.error").count() == 0
    violations = serious_violations(page)
    assert violations == [], "\n".join(violations)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert not page.errors  # type: ignore[attr-defined]
