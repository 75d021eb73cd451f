"""Browser benchmark of the pages: how soon a click shows, lobby first paint, page weight.

Starts `gamenight serve` on a fresh SQLite file and drives headless Chromium (Playwright).
Figures, each as a JSON line:
  own_update_ms      Drop or Stop and Arne, two people at one table: from the click (capture
                     listener) to the end of the task that drew the new state on the
                     clicker's page. Goal < 100 ms.
  other_update_ms    the same click until the other person's page has drawn it. Goal < 150 ms.
  lobby_paint_ms     first contentful paint of the lobby (the goal's figure) and the time until
                     the catalogue cards are drawn, medians of 7 fresh visits. Goal < 300 ms.
Every figure with a goal says "met" or "not met" (the median against the goal).
  page_kb            bytes of HTML, CSS, JS and images a table page loads, uncompressed (API
                     data such as Drop It's board excluded, shown apart). Goal < 150 KB.
Anchor (same run, same browser): a bare WebSocket echo round trip from a page (/ws/echo);
every time is also given as a ratio to it.
Usage: python bench/web.py [CLICKS]
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

from goals import serve_command, serve_env

CLICKS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Installed in every page: the click time and the time the page drew each new version.
PROBE = """
window.__clicks = []; window.__drawn = {};
document.addEventListener('click', () => window.__clicks.push(Date.now()), true);
new MutationObserver(() => { window.__drawn[document.body.dataset.version] = Date.now(); })
  .observe(document.body, { attributes: true, attributeFilter: ['data-version'] });
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server() -> Any:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            serve_command(port, f"sqlite:///{tmp}/gn.sqlite3"),
            env=serve_env(Path(tmp)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


def wait_js(page: Page, expression: str, timeout_ms: float = 30000) -> None:
    """Poll `expression` until true. (Playwright's wait_for_function evaluates a string,
    which the pages' CSP, script-src 'self' without 'unsafe-eval', refuses.)"""
    deadline = time.time() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.time() > deadline:
            raise TimeoutError(f"timed out waiting for {expression}")
        page.wait_for_timeout(5)


def person(browser: Browser, width: int = 1280, height: int = 900) -> Page:
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "n": len(values),
        "median": round(statistics.median(values), 1),
        "p90": round(pick(0.9), 1),
        "max": round(ordered[-1], 1),
    }


def echo_anchor(page: Page, url: str, rounds: int = 40) -> float:
    """Median round trip of a small WebSocket message from a page, in ms."""
    times = page.evaluate(
        """async ([url, rounds]) => {
          const ws = new WebSocket(url.replace('http', 'ws') + '/ws/echo');
          await new Promise((ok) => { ws.onopen = ok; });
          const out = [];
          for (let i = 0; i < rounds; i++) {
            const t = performance.now();
            const msg = JSON.stringify({ i, pad: 'x'.repeat(200) });
            await new Promise((ok) => { ws.onmessage = ok; ws.send(msg); });
            out.push(performance.now() - t);
          }
          ws.close();
          return out;
        }""",
        [url, rounds],
    )
    return float(statistics.median(times))


def two_people(browser: Browser, url: str, body: dict[str, Any]) -> tuple[Page, Page]:
    ann, bob = person(browser), person(browser)
    r = ann.request.post(f"{url}/api/tables", data={**body, "sit": 0, "name": "Ann"})
    tid = r.json()["id"]
    bob.request.post(f"{url}/api/tables/{tid}/join", data={"seat": 1, "name": "Bob"})
    ann.goto(f"{url}/tables/{tid}")
    bob.goto(f"{url}/tables/{tid}")
    for page in (ann, bob):
        page.wait_for_selector("#lobby-seats .seat")
        page.evaluate(f"() => {{ {PROBE} }}")
    ann.click("#start")
    return ann, bob


def one_click_action(page: Page) -> str | None:
    """A selector that sends an action with one click, or None if this page is not asked."""
    for sel in ("#pass", "button.colour-choice", "#choices button.choice", "#drop", "#stop"):
        loc = page.locator(sel)
        if loc.count() and loc.first.is_visible() and loc.first.is_enabled():
            return sel
    card = page.locator("#hand .handcard.playable [role=button]")
    if card.count():
        card.first.click()  # picks a card: the next click on a way to play it sends
        page.wait_for_timeout(20)
        return one_click_action(page) if page.locator("#choices button.choice").count() else None
    return None


def measure_clicks(ann: Page, bob: Page, clicks: int) -> tuple[list[float], list[float]]:
    own: list[float] = []
    other: list[float] = []
    deadline = time.time() + 120
    while len(own) < clicks and time.time() < deadline:
        for me, them in ((ann, bob), (bob, ann)):
            sel = one_click_action(me)
            if sel is None:
                continue
            version = int(me.evaluate("document.body.dataset.version"))
            me.locator(sel).first.click()
            want = str(version + 1)
            try:
                wait_js(me, f"window.__drawn['{want}'] !== undefined", 5000)
                wait_js(them, f"window.__drawn['{want}'] !== undefined", 5000)
            except Exception as err:  # a refused or raced click: not a figure
                if os.environ.get("BENCH_DEBUG"):
                    print("skipped a click:", sel, str(err)[:200], file=sys.stderr)
                continue
            t0 = me.evaluate("window.__clicks[window.__clicks.length - 1]")
            own.append(me.evaluate(f"window.__drawn['{want}']") - t0)
            other.append(them.evaluate(f"window.__drawn['{want}']") - t0)
            if me.locator("#results").is_visible():
                return own, other
        ann.wait_for_timeout(20)
    return own, other


def page_weight(page: Page) -> dict[str, float]:
    entries = page.evaluate(
        """() => [...performance.getEntriesByType('navigation'),
                  ...performance.getEntriesByType('resource')]
          .map((e) => ({ name: e.name, type: e.initiatorType, size: e.decodedBodySize }))"""
    )
    assets = sum(e["size"] for e in entries if e["type"] not in ("fetch", "xmlhttprequest"))
    data = sum(e["size"] for e in entries if e["type"] in ("fetch", "xmlhttprequest"))
    return {"page_kb": round(assets / 1024, 1), "api_data_kb": round(data / 1024, 1)}


# Installed before the lobby's own scripts: when the first catalogue card is in the page.
CATALOGUE_PROBE = """
window.__catalogue = null;
new MutationObserver((_, o) => {
  if (!document.querySelector('.game-card')) return;
  window.__catalogue = performance.now();
  o.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def lobby_paint(browser: Browser, url: str, rounds: int = 7) -> dict[str, float]:
    fcp, cards = [], []
    for _ in range(rounds):
        page = person(browser)
        page.add_init_script(CATALOGUE_PROBE)
        page.goto(url)
        page.wait_for_selector(".game-card")
        cards.append(page.evaluate("window.__catalogue"))
        fcp.append(
            page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
            )
        )
        page.context.close()
    return {
        "first_contentful_paint_ms": round(statistics.median(fcp), 1),
        "catalogue_drawn_ms": round(statistics.median(cards), 1),
    }


def verdict(value: float, goal: float) -> str:
    return "met" if value < goal else "not met"


def emit(figure: str, **data: Any) -> None:
    print(json.dumps({"figure": figure, **data}), flush=True)


def main() -> None:
    with server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        anchor_page = person(browser)
        anchor_page.goto(url)
        anchor = echo_anchor(anchor_page, url)
        emit("anchor_ws_echo_ms", median=round(anchor, 2))
        lobby = lobby_paint(browser, url)
        emit(
            "lobby_paint_ms",
            **lobby,
            goal_ms=300,
            met=verdict(lobby["first_contentful_paint_ms"], 300),
            catalogue_met=verdict(lobby["catalogue_drawn_ms"], 300),
        )
        settings = {"bot_delay": 0, "reaction_seconds": 60, "pass_dwell": 0}
        for game, options in (("drop-or-stop", {"players": 2}), ("arne", {"players": 2})):
            ann, bob = two_people(
                browser,
                url,
                {"game": game, "options": options, "seats": ["open", "open"], "settings": settings},
            )
            wait_js(ann, "document.body.dataset.status === 'running'")
            own, other = measure_clicks(ann, bob, CLICKS)
            if own:
                emit(
                    "own_update_ms",
                    game=game,
                    **quantiles(own),
                    ratio_to_echo=round(statistics.median(own) / anchor, 1),
                    goal_ms=100,
                    met=verdict(statistics.median(own), 100),
                )
                emit(
                    "other_update_ms",
                    game=game,
                    **quantiles(other),
                    ratio_to_echo=round(statistics.median(other) / anchor, 1),
                    goal_ms=150,
                    met=verdict(statistics.median(other), 150),
                )
            weight = page_weight(ann)
            emit(
                "page_weight", game=game, **weight, goal_kb=150, met=verdict(weight["page_kb"], 150)
            )
            ann.context.close()
            bob.context.close()
        page = person(browser)
        r = page.request.post(
            f"{url}/api/tables",
            data={
                "game": "drop-it",
                "options": {},
                "seats": ["open", "random"],
                "settings": {"bot_delay": 0},
                "sit": 0,
                "name": "Ann",
            },
        )
        page.goto(f"{url}/tables/{r.json()['id']}")
        page.click("#start")
        page.wait_for_selector("#board")
        weight = page_weight(page)
        emit(
            "page_weight",
            game="drop-it",
            **weight,
            goal_kb=150,
            met=verdict(weight["page_kb"], 150),
        )
        browser.close()


if __name__ == "__main__":
    main()
