"""Spectators are listed by name on the table (issue 14, item 5, that part): two people
watch a table (separate browser contexts); one gave a name, hostile text shows as text."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.helpers import Server, wait_js
from tests.web.conftest import open_page, start_table
from tests.web.test_seats import make_table


def test_spectators_are_listed_by_name_as_plain_text(server: Server, browser: Browser) -> None:
    ann = open_page(browser)
    tid = make_table(ann, server, 2, {})
    r = ann.request.post(f"{server.url}/api/tables/{tid}/seats/1", data={"to": "easy"})
    assert r.ok, r.text()
    start_table(ann)
    dan, eve = open_page(browser), open_page(browser)
    dan.goto(server.url)
    dan.evaluate("localStorage.setItem('gamenight.name', 'Dan')")
    eve.goto(server.url)
    eve.evaluate("localStorage.setItem('gamenight.name', '<img src=x onerror=alert(1)>')")
    dan.goto(f"{server.url}/tables/{tid}")
    eve.goto(f"{server.url}/tables/{tid}")
    # Watchers send the players no message (issue 43, item 5): each watcher's own page
    # lists them at once, a player's at its next state (here: Ann's page opened again).
    wait_js(dan, "(document.querySelector('#spectators')?.textContent || '').includes('Dan')")
    wait_js(eve, "(document.querySelector('#spectators')?.textContent || '').includes('<img')")
    ann.reload()
    wait_js(ann, "(document.querySelector('#spectators')?.textContent || '').includes('Dan')")
    wait_js(ann, "(document.querySelector('#spectators')?.textContent || '').includes('<img')")
    text = ann.locator("#spectators").inner_text()
    print("Ann sees:", text)
    assert text == "Watching: <img src=x onerror=alert(1)>, Dan"
    assert ann.locator("#spectators img").count() == 0
    info = ann.request.get(f"{server.url}/api/tables/{tid}").json()
    assert info["spectators"] == ["<img src=x onerror=alert(1)>", "Dan"]
    # Dan leaves: he is no longer listed.
    dan.goto("about:blank")
    listed = "(document.querySelector('#spectators')?.textContent || '')"
    for _ in range(40):  # (his socket closes a moment after his page goes)
        ann.reload()
        wait_js(ann, f"{listed}.includes('Watching')")
        if "Dan" not in ann.locator("#spectators").inner_text():
            break
        ann.wait_for_timeout(250)
    assert "Dan" not in ann.locator("#spectators").inner_text()
    for p in (ann, dan, eve):
        assert not p.errors  # type: ignore[attr-defined]
        p.context.close()
