"""A rematch keeps the table together (issue 14, item 3): three people in three browser
contexts finish a game; two accept the rematch, one declines and the owner gives that seat
to a bot; seats rotate the first player and the table shows the series."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from tests.server.helpers import Server, wait_js
from tests.web.conftest import open_page, start_table
from tests.web.test_seats import SHOTS, make_table, play_a_move, sit


def play_out(pages: list[Page]) -> None:
    """Everyone stops whenever asked, until every page shows the results."""
    deadline = time.time() + 60
    while not all(p.locator("#results").is_visible() for p in pages):
        assert time.time() < deadline, "the game did not finish"
        for p in pages:
            play_a_move(p)
        pages[0].wait_for_timeout(50)


def test_a_rematch_of_three_people_with_one_declining(server: Server, browser: Browser) -> None:
    ann = open_page(browser)
    tid = make_table(ann, server, 3, {})
    bob, cat = open_page(browser), open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    sit(cat, server, tid, 2, "Cat")
    start_table(ann)
    play_out([ann, bob, cat])
    # Ann asks for the rematch: she goes to the next table; Bob and Cat are asked.
    ann.click("#rematch")
    ann.wait_for_url(lambda url: tid not in url)
    bob.wait_for_selector("#rematch-accept")
    cat.wait_for_selector("#rematch-decline")
    # one way to answer: the offer's Accept and Decline (a second "Rematch" button beside
    # them did what Accept does)
    assert bob.locator("#rematch").is_hidden() and cat.locator("#rematch").is_hidden()
    bob.click("#rematch-accept")
    bob.wait_for_url(lambda url: tid not in url)
    cat.click("#rematch-decline")
    # Everyone stayed seated, rotated by one: Bob (seat 2 of 3 before) now starts.
    wait_js(ann, "document.querySelector('[data-waiting=\"1\"]')?.textContent === 'declined'")
    seats = ann.locator("#lobby-seats .seat").all_inner_texts()
    print("seats of game 2:", [" ".join(s.split()) for s in seats])
    assert "Bob" in seats[0] and "Cat" in seats[1] and "Ann" in seats[2]
    # Not everyone accepted: the game waits, Start is off and the owner is told what to do
    # (Start was on, and a click said "waiting for Cat to accept" after she had declined).
    assert ann.locator("#start").is_disabled()
    said = ann.locator("#lobby-msg").inner_text()
    assert said.startswith("Cat declined the rematch: make their seat open or give it"), said
    r = ann.request.post(f"{server.url}/api/tables/{ann.url.rsplit('/', 1)[1]}/start")
    assert r.status == 409 and r.json()["error"].startswith("Cat declined the rematch"), r.text()
    ann.click('[data-seat-bot="1"]')
    wait_js(ann, "document.querySelector('[data-waiting]') === null")
    start_table(ann)
    wait_js(bob, "document.body.dataset.status === 'running'")
    assert "Bob" in bob.locator("#players .seat.me").inner_text()
    assert bob.locator("#series-h").inner_text() == "Series: game 2"
    rows = bob.locator("#series tr[data-game]").all_inner_texts()
    totals = bob.locator("#series-totals").inner_text()
    print("series:", rows, "|", totals)
    assert len(rows) == 1 and rows[0].startswith("Game 1")
    assert all(name in rows[0] for name in ("Ann", "Bob", "Cat"))
    ann.screenshot(path=f"{SHOTS}/rematch-series.png")
    assert not ann.errors and not bob.errors and not cat.errors  # type: ignore[attr-defined]
    for p in (ann, bob, cat):
        p.context.close()


def test_the_series_panel_and_the_results_agree_after_every_game(
    server: Server, browser: Browser
) -> None:
    """Issue 45, item 3: after game 2 of a series the panel counts game 2 too (it stopped at
    game 1) and the results dialog names the series; a reload reads the same."""
    ann = open_page(browser)
    tid = make_table(ann, server, 2, {})
    bob = open_page(browser)
    sit(bob, server, tid, 1, "Bob")
    start_table(ann)
    play_out([ann, bob])
    ann.click("#rematch")
    ann.wait_for_url(lambda url: tid not in url)
    bob.wait_for_selector("#rematch-accept")
    bob.click("#rematch-accept")
    bob.wait_for_url(lambda url: tid not in url)
    wait_js(bob, "document.body.dataset.status === 'running'")  # everyone accepted: it starts
    play_out([ann, bob])
    second = ann.url.rsplit("/", 1)[1]
    for page in (ann, bob):
        rows = page.locator("#series tr[data-game]").all_inner_texts()
        wins = page.locator("#series-totals").inner_text()
        line = page.locator("#results-series").inner_text()
        print("series:", rows, "|", wins, "|", line)
        assert [r.split()[:2] for r in rows] == [["Game", "1"], ["Game", "2"]]
        counted = sum(int(w) for w in wins.split() if w.isdigit())
        assert counted >= 2  # each game has a winner, ties count for each
        assert line.startswith("Series after 2 games: ")
        # every row names the players in the totals' order, though the seats rotated
        cells = "#series tr[{}] td:nth-child(2)"
        order = [
            x.split()[0]
            for x in page.locator(cells.format("id='series-totals'")).inner_text().split(", ")
        ]
        for game in ("1", "2"):
            named = page.locator(cells.format(f"data-game='{game}'")).inner_text().split(", ")
            assert [x.split()[0] for x in named] == order, (game, named, order)
    info = ann.request.get(f"{server.url}/api/tables/{second}").json()
    assert len(info["series"]["games"]) == 2
    ann.screenshot(path=f"{SHOTS}/series-after-game-2.png")
    bob.reload()
    bob.wait_for_selector("#series tr[data-game='2']")
    assert bob.locator("#series-totals").inner_text() == ann.locator("#series-totals").inner_text()
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]
    for p in (ann, bob):
        p.context.close()
