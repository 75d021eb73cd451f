"""The leaderboard says what it sorts by, and lists provisional players apart, below the
ranking, as lichess does (issue 45, item 5): a newcomer's "?" estimate of 33 stood below a
settled 14 in the same list, with nothing on the page to say why."""

from __future__ import annotations

from playwright.sync_api import Browser, Page
from sqlalchemy import create_engine, insert

from gamenight.server.accounts.profiles import PROVISIONAL_GAMES
from gamenight.server.accounts.schema import ratings
from tests.server.helpers import SHOTS, Server
from tests.web.conftest import DESKTOP, PHONE, open_page, serious_violations

# (player key, name, mu, sigma, rated games): ratings as a server keeps them
RATED = [
    ("bot:easy", "bot (easy)", 18.0, 1.0, 40),
    ("bot:medium", "bot (medium)", 25.0, 1.0, 40),
    ("account:901", "Cleo", 30.0, 2.0, 12),
    ("account:902", "Dan", 26.0, 4.0, 6),
    ("account:903", "Eve", 33.0, 7.0, 2),  # the best estimate, but only 2 rated games
    ("account:904", "Finn", 21.0, 8.0, 1),
    ("account:905", "Gus", 24.5, 3.0, PROVISIONAL_GAMES),  # just settled
]
RANKED = ["Cleo", "bot (medium)", "Gus", "bot (easy)", "Dan"]  # by mu - 3 sigma
PROVISIONAL = ["Eve", "Finn"]  # by mu


def seed_ratings(server: Server) -> None:
    engine = create_engine(server.db)
    with engine.begin() as conn:
        for player, name, mu, sigma, games in RATED:
            conn.execute(
                insert(ratings).values(
                    game="arne", player=player, name=name, mu=mu, sigma=sigma, games=games
                )
            )
    engine.dispose()


def column(page: Page, table: str, n: int) -> list[str]:
    return page.locator(f"{table} tbody tr td:nth-child({n})").all_inner_texts()


def test_the_leaderboard_says_its_order_and_lists_provisional_players_apart(
    server: Server, browser: Browser
) -> None:
    seed_ratings(server)
    page = open_page(browser, DESKTOP)
    page.goto(f"{server.url}/leaderboard/arne")
    page.wait_for_selector("#board tbody tr td")
    # What the list is sorted by, said above it and marked on its column.
    order = page.locator("#board-order").inner_text()
    assert "Sorted by rating" in order and "μ − 3σ" in order, order
    sorted_by = page.locator("#board th[aria-sort=descending]")
    assert sorted_by.count() == 1 and sorted_by.inner_text().startswith("Rating (μ − 3σ)")
    # The ranking: settled players and the bots, best rating first, places 1, 2, ...
    assert column(page, "#board", 2) == RANKED
    assert column(page, "#board", 1) == [str(i + 1) for i in range(len(RANKED))]
    shown = [float(x) for x in column(page, "#board", 3)]
    assert shown == sorted(shown, reverse=True) and shown[0] == 24.0, shown
    # The provisional players, apart and below, unranked, by their estimate.
    box = page.locator("#provisional")
    assert box.is_visible()
    assert page.locator("#provisional-h").inner_text() == "Provisional players"
    note = page.locator("#provisional-note").inner_text()
    assert f"Fewer than {PROVISIONAL_GAMES} rated games" in note, note
    assert column(page, "#board-provisional", 1) == PROVISIONAL
    assert column(page, "#board-provisional", 2) == ["33.0?", "21.0?"]
    assert (
        page.locator("#board-provisional th[aria-sort=descending]")
        .inner_text()
        .startswith("Skill estimate (μ)")
    )
    ranking = page.locator("#board").bounding_box()
    below = box.bounding_box()
    assert ranking is not None and below is not None
    assert below["y"] >= ranking["y"] + ranking["height"]
    assert serious_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "leaderboard-sorted-desktop.png"), full_page=True)
    phone = open_page(browser, PHONE)
    phone.goto(page.url)
    phone.wait_for_selector("#board-provisional tbody tr td")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(phone) == []
    phone.screenshot(path=str(SHOTS / "leaderboard-sorted-phone.png"), full_page=True)
    assert not page.errors and not phone.errors  # type: ignore[attr-defined]


def test_without_provisional_players_there_is_no_empty_section(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, DESKTOP)
    page.goto(f"{server.url}/leaderboard/drop-it")
    page.wait_for_selector("#board tbody tr td")
    assert page.locator("#board tbody").inner_text() == "Nobody is ranked yet."
    assert not page.locator("#provisional").is_visible()
    assert not page.errors  # type: ignore[attr-defined]
