"""A lobby that stays tidy (issue 14, item 6), seen by several people (browser contexts):
your own tables first marked "your turn"; full tables say "watch"; tables that never
started leave the list after a while; finished games move to "Recent games" with a replay."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import open_page, start_table
from tests.web.test_seats import SHOTS, make_table, sit

# seconds an unstarted table stays listed on this test's server: the first reads of the
# lobby must come within it (they took 2.7 s at a load of 4; at CI's load of 15 more than
# the 4 s this was, and Cat's tables had left Bob's list as it was read)
NEVER_STARTED = 15.0
LEFT = 1.0  # seconds a table waiting for players stays listed after its last page closed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("lobby")
    os.environ["GAMENIGHT_LOBBY_OPEN_SECONDS"] = str(NEVER_STARTED)
    os.environ["GAMENIGHT_LOBBY_LEFT_SECONDS"] = str(LEFT)
    try:
        srv = Server(f"sqlite:///{data / 'gn.sqlite3'}", data).start()
    finally:
        del os.environ["GAMENIGHT_LOBBY_OPEN_SECONDS"]
        del os.environ["GAMENIGHT_LOBBY_LEFT_SECONDS"]
    yield srv
    srv.stop()


def rows(page: Page, server: Server) -> list[tuple[str, str]]:
    """(table id, what its link says) in the lobby's order."""
    page.goto(server.url)
    page.wait_for_selector("#tables tr")
    wait_js(page, "!document.querySelector('#tables td.muted')?.textContent.includes('loading')")
    out = []
    for tr in page.locator("#yours tr[data-table], #tables tr[data-table]").all():
        out.append((str(tr.get_attribute("data-table")), tr.locator("a").inner_text()))
    return out


def test_the_lobby_puts_yours_first_says_watch_and_drops_old_and_finished(
    server: Server, browser: Browser
) -> None:
    ann, bob, cat = open_page(browser), open_page(browser), open_page(browser)
    ours = make_table(ann, server, 2, {})
    sit(bob, server, ours, 1, "Bob")
    start_table(ann)
    wait_js(ann, "document.body.dataset.status === 'running'")
    # Cat's tables, each open on a page of hers (a table nobody is at leaves the list, issue
    # 45): one with a seat to take, one full but not started (Cat and Dan).
    made = time.time()
    r = cat.request.post(
        f"{server.url}/api/tables",
        data={"game": "drop-or-stop", "options": {"players": 2}, "seats": ["open", "open"]},
    )
    joinable = r.json()["id"]
    r = cat.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "name": "Cat",
            "sit": 0,
        },
    )
    full = r.json()["id"]
    dan = open_page(browser)
    sit(dan, server, full, 1, "Dan")
    cat.goto(f"{server.url}/tables/{joinable}")
    cats_other = cat.context.new_page()
    cats_other.goto(f"{server.url}/tables/{full}")
    for page in (cat, cats_other):  # at the table once its socket has brought the state (a
        # CI run at a load of 15 read the lobby before: neither table was listed yet)
        wait_js(page, "document.body.dataset.status === 'open'")
    seen = {who: rows(p, server) for who, p in (("ann", ann), ("bob", bob))}
    read_after = time.time() - made
    print(f"read {read_after:.1f} s after Cat's tables were made")
    assert read_after < NEVER_STARTED, "too slow to see the tables before they may leave"
    print("Ann's lobby:", seen["ann"])
    print("Bob's lobby:", seen["bob"])
    for who in ("ann", "bob"):
        assert seen[who][0][0] == ours  # your own table first
        assert dict(seen[who])[joinable] == "join" and dict(seen[who])[full] == "watch"
    turn = {who: dict(seen[who])[ours] for who in seen}
    assert sorted(turn.values()) == ["play", "your turn"], turn  # exactly one must act
    assert ann.locator("#yours tr.mine").count() == 1  # at the top of the page
    assert ann.locator("#tables tr.mine").count() == 0  # not again among the others
    top = ann.evaluate("document.querySelector('#yours-box').getBoundingClientRect().top")
    form = ann.evaluate("document.querySelector('#new-table').getBoundingClientRect().top")
    assert top < form, "your games come before the new-table form"
    ann.screenshot(path=f"{SHOTS}/tidy-lobby.png")
    # A game of bots runs to its end: it moves to "Recent games" with its replay.
    r = ann.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-or-stop",
            "seats": ["easy", "easy"],
            "options": {"players": 2},
            "settings": {"bot_delay": 0},
        },
    )
    done = r.json()["id"]
    ann.request.post(f"{server.url}/api/tables/{done}/start")
    deadline = time.time() + 30
    while ann.request.get(f"{server.url}/api/tables/{done}").json()["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.1)
    # Tables that never started leave the list after a while (15 s on this server).
    time.sleep(max(0.0, made + NEVER_STARTED + 0.5 - time.time()))
    later = rows(cat, server)
    print("Cat's lobby later:", later)
    ids = [t for t, _ in later]
    assert joinable in ids and full in ids  # Cat's own, kept for her
    # (ours: Ann and Bob went to the lobby: nobody is at their game, which leaves the
    # others' list a moment later, issue 45 item 5; it is still theirs, below)
    assert {joinable, full} <= set(ids) <= {joinable, full, ours}
    left = rows(bob, server)
    assert [t for t, _ in left] == [ours]  # Cat's unstarted tables left everyone else's list
    assert done not in ids
    recent = bob.locator(f'#recent tr[data-recent="{done}"] a')
    assert recent.get_attribute("href") == f"/tables/{done}/replay"
    # written as the profile writes it ("Dec 5, 2026, 8:48 AM"), not "12/5/2026, 8:48:02 AM"
    ended = bob.locator(f'#recent tr[data-recent="{done}"] td').nth(1).inner_text()
    assert "/" not in ended and ended.count(":") == 1, ended
    bob.screenshot(path=f"{SHOTS}/tidy-lobby-recent.png", full_page=True)
    for p in (ann, bob, cat):
        assert not p.errors  # type: ignore[attr-defined]
        p.context.close()


def test_the_lobby_lists_only_tables_someone_can_join_or_watch_now(
    server: Server, browser: Browser
) -> None:
    """Issue 45, item 5: a game whose people all left, and a table waiting for players
    whose creator left, leave the list (the first stayed until the idle sweep, 30 minutes)."""
    dan, eve, fay = open_page(browser), open_page(browser), open_page(browser)
    played = make_table(dan, server, 2, {})
    sit(eve, server, played, 1, "Eve")
    start_table(dan)
    wait_js(eve, "document.body.dataset.status === 'running'")
    waiting = make_table(fay, server, 2, {})  # Fay waits for a second player
    listed = dict(rows(open_page(browser), server))
    assert listed.get(played) == "watch" and listed.get(waiting) == "join"
    dan.context.close()
    eve.context.close()
    fay.context.close()
    time.sleep(LEFT + 0.5)
    listed = dict(rows(open_page(browser), server))
    print("listed after everyone left:", listed)
    assert played not in listed and waiting not in listed


def test_on_a_phone_your_turn_is_one_whole_button(server: Server, browser: Browser) -> None:
    """The way back into a running game: "your turn" was an inline link with a button's
    border, wrapped in two broken halves at the screen's edge on a phone."""
    from tests.web.conftest import PHONE, create_table

    page = open_page(browser, PHONE)
    body = {
        "game": "arne",
        "options": {"players": 3},
        "seats": ["open", "medium", "easy"],
        "settings": {"bot_delay": 0},
        "sit": 0,
        "name": "Dana",
    }
    create_table(page, server, body)
    page.wait_for_selector("button.colour-choice")  # Dana chooses first: her turn
    page.goto(server.url)
    button = page.locator("#yours a.btn")
    button.wait_for()
    box = button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    lines = button.evaluate("a => a.getClientRects().length")
    assert lines == 1 and box["height"] < 48, (lines, box)
    page.screenshot(path=f"{SHOTS}/lobby-your-turn-phone.png")
