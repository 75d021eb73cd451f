"""Browser tests of the pages as players meet them (headless Chromium via Playwright).

Every test module starts its own server, so modules run side by side under pytest-xdist.
Without Chromium the whole directory is skipped.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import CHROMIUM, CHROMIUM_ARGS, Server, wait_js

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

from playwright.sync_api import Browser, Page, sync_playwright

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("web")
    srv = Server(f"sqlite:///{data / 'gn.sqlite3'}", data).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(
    browser: Browser, size: dict[str, int] = DESKTOP, touch: bool = False, locale: str = "en-US"
) -> Page:
    """A fresh person (own cookies, the browser's language `locale`) whose page errors and
    console errors are collected."""
    context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.set_default_timeout(15000)
    return page


def create_from_lobby(
    page: Page, server: Server, game: str = "drop-or-stop", name: str = "Ann"
) -> str:
    """As a new user: choose the game's card, two players, an easy bot in the second seat,
    no bot pause; create and start. Returns the table id. (`name`: a signed-in person's own
    name; another account's name is refused to them.)"""
    page.goto(server.url)
    page.wait_for_selector(".game-card .pic svg")
    page.click(f'.game-card[data-game="{game}"]')
    page.fill("#name", name)
    page.fill('#players-opt [name="players"]', "2")
    page.dispatch_event('#players-opt [name="players"]', "change")
    page.select_option('#seats select[data-seat="1"]', "easy")
    page.fill("#bot_delay", "0")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    start_table(page)  # (one person and a bot: it starts itself)
    return page.url.rsplit("/", 1)[1]


def start_table(page: Page) -> None:
    """Start the table the page shows: the owner's click, or, at a table of one person and
    bots, nothing: the person's page arriving starts it (issue 45, item 5)."""
    base, tid = page.url.split("?")[0].rsplit("/tables/", 1)
    kinds = [s["kind"] for s in page.request.get(f"{base}/api/tables/{tid}").json()["seats"]]
    if kinds.count("person") == 1 and kinds.count("bot") == len(kinds) - 1:
        with contextlib.suppress(TimeoutError):
            wait_js(page, "document.body.dataset.status === 'running'", timeout=5000)
            return
        # (seats made bots after the page arrived: the owner starts it, as before)
    page.click("#start")


def create_table(page: Page, server: Server, body: dict[str, Any], start: bool = True) -> str:
    """Create a table from the page's own cookies, open it and start it."""
    r = page.request.post(f"{server.url}/api/tables", data=body)
    assert r.status == 201, r.text()
    tid = str(r.json()["id"])
    page.goto(f"{server.url}/tables/{tid}")
    if start:
        start_table(page)
    return tid


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    # Contrast is judged on the page at rest: a card fading in (the round's moment) is
    # measured at its final colours, not halfway (waits at most 5 s for animations to end).
    for _ in range(100):
        if not page.evaluate(
            "document.getAnimations().filter((a) => a.playState === 'running').length"
        ):
            break
        page.wait_for_timeout(50)
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
