"""Issue 14 item 8 in the browser: sign up, play a game, the rating moves and the profile
and the leaderboard show it; hostile names never reach markup."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import PHONE, create_from_lobby, open_page, serious_violations
from tests.web.test_drop_or_stop import play_to_the_end


def test_sign_up_play_and_the_profile_shows_the_rated_game(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser)
    page.goto(f"{server.url}/account")
    page.fill("#acc-name", "Ann")
    page.fill("#acc-password", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.locator("#signed-in-text").inner_text() == "Signed in as Ann."
    assert serious_violations(page) == []
    create_from_lobby(page, server)
    page.wait_for_selector("#drop")
    play_to_the_end(page, by_keyboard=False)
    page.goto(f"{server.url}/players/Ann")
    page.wait_for_selector("#profile-ratings tbody tr td")
    assert page.locator("#profile-h").inner_text() == "Ann"
    assert page.locator("#profile-summary").inner_text().startswith("1 finished game ")
    rating = page.locator("#profile-ratings tbody tr").first.locator("td").all_inner_texts()
    assert rating[0] == "Drop or Stop" and rating[3] == "1"
    # a newcomer's rating is the estimate marked "?", not mu - 3 sigma (-3.0 after a loss)
    mu = float(rating[2].split(" ± ")[0])
    assert rating[1] == f"{mu:.1f}?"
    assert page.locator("#profile-recent a", has_text="replay").count() == 1
    assert serious_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "profile-desktop.png"), full_page=True)
    page.click("#profile-ratings a")
    page.wait_for_selector("#board tbody tr td")
    names = page.locator("#board tbody tr td:nth-child(2)").all_inner_texts()
    # a newcomer is provisional: listed apart, below the ranking (tests/web/test_leaderboard.py)
    assert page.locator("#board-provisional tbody tr td").first.inner_text() == "Ann"
    assert "Ann" not in names and any(n.startswith("bot") for n in names)
    assert serious_violations(page) == []
    page.screenshot(path=str(SHOTS / "leaderboard-desktop.png"), full_page=True)
    phone = open_page(browser, PHONE)
    phone.goto(page.url)
    phone.wait_for_selector("#board tbody tr td")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(SHOTS / "leaderboard-phone.png"), full_page=True)
    phone.goto(f"{server.url}/players/Ann")  # the profile fits a phone too (it was 407 px)
    phone.wait_for_selector("#profile-ratings tbody tr td")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(SHOTS / "profile-phone.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_wrong_password_is_said_beside_the_form(server: Server, browser: Browser) -> None:
    page = open_page(browser)
    page.goto(f"{server.url}/account")
    page.wait_for_selector("#acc-name", state="visible")  # (the script shows the form)
    tops = [  # the two boxes line up (the password's hint pushed the name's box down)
        page.evaluate(f"document.querySelector('{box}').getBoundingClientRect().top")
        for box in ("#acc-name", "#acc-password")
    ]
    assert tops[0] == tops[1], tops
    page.fill("#acc-name", "<img src=x onerror=window.__pwned=1>")
    page.fill("#acc-password", "correct horse")
    page.click("#sign-up")
    wait_js(page, "document.querySelector('#account-err').textContent !== ''")
    assert "name is 2 to 24" in page.locator("#account-err").inner_text()
    page.fill("#acc-name", "Nobody")
    page.click("#log-in")
    wait_js(page, "document.querySelector('#account-err').textContent.includes('wrong')")
    assert page.evaluate("window.__pwned === undefined")


def sign_in(page: Page, server: Server, name: str, new: bool) -> None:
    page.goto(f"{server.url}/account")
    page.fill("#acc-name", name)
    page.fill("#acc-password", "correct horse")
    page.click("#sign-up" if new else "#log-in")
    page.wait_for_selector("#signed-in:not([hidden])")


def test_a_signed_in_player_moves_their_seat_to_another_device(
    server: Server, browser: Browser
) -> None:
    """Cleo starts a game on her laptop, then opens it on her phone, signed in there too:
    the table offers her seat ("Play here"), the lobby's "play here" takes it in one step,
    and she plays on to the end. The
    laptop's page, still open, turns into a watcher's at once and offers the seat back."""
    laptop = open_page(browser)
    sign_in(laptop, server, "Cleo", new=True)
    # her own name: "Ann" is another test's account when both run on one server
    tid = create_from_lobby(laptop, server, name="Cleo")
    laptop.wait_for_selector("#drop")
    phone = open_page(browser, PHONE)
    sign_in(phone, server, "Cleo", new=False)
    phone.goto(server.url)  # the lobby lists the game as hers, and knows her name
    phone.wait_for_selector(f'tr[data-table="{tid}"][data-action="play here"]')
    wait_js(phone, "document.querySelector('#name').value === 'Cleo'")
    assert phone.locator("#account-link").inner_text() == "Cleo"
    assert serious_violations(phone) == []  # with the "Your games" panel shown
    phone.screenshot(path=str(SHOTS / "lobby-your-games-phone.png"))
    phone.goto(f"{server.url}/tables/{tid}")
    phone.wait_for_selector("#reclaim")
    # the phone watches under the account's name, not as "a guest" (listed on its own page
    # at once, on the players' at their next change: issue 43, item 5)
    wait_js(phone, "(document.querySelector('#spectators')?.textContent || '').includes('Cleo')")
    said = phone.locator("#watching").inner_text()
    assert said.startswith("You play Cleo (seat 1) from another device."), said
    assert phone.locator("#drop").count() == 0
    assert serious_violations(phone) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "reclaim-offer-phone.png"), full_page=True)
    phone.goto(server.url)  # the lobby's "play here" takes the seat in one step
    phone.click(f'tr[data-table="{tid}"] a')
    phone.wait_for_selector("#drop")
    assert phone.url.endswith(f"/tables/{tid}"), phone.url
    assert phone.locator("#watching").count() == 0
    laptop.wait_for_selector("#reclaim")  # at once, without a reload: it only watches now
    assert laptop.locator("#drop").count() == 0
    # the creator's laptop offers no "let a bot play" for her own seat on her phone
    assert laptop.locator('[data-hand="0"]').count() == 0
    laptop.screenshot(path=str(SHOTS / "reclaim-moved-desktop.png"), full_page=True)
    play_to_the_end(phone, by_keyboard=False)
    laptop.wait_for_selector("#reclaim", state="detached")  # nothing to take over now
    assert not phone.errors and not laptop.errors  # type: ignore[attr-defined]


def test_a_wrong_table_address_says_so_with_the_way_back(server: Server, browser: Browser) -> None:
    """New-user finding: /tables/bogus123 showed the error beside an empty side panel and
    an invite button, with no way back."""
    page = open_page(browser, PHONE)
    page.goto(f"{server.url}/tables/bogus123")
    page.wait_for_selector("#game [role=alert] a[href='/']")
    assert "no table" in page.locator("#game [role=alert]").inner_text()
    assert not page.locator(".layout aside").is_visible()
    assert not page.locator("#invite").is_visible()
    assert page.locator("#game h1").inner_text() == "This table is not here"
    assert not page.locator("#status").is_visible()  # (it said "…", as if still loading)
    page.screenshot(path=str(SHOTS / "no-such-table-phone.png"), full_page=True)
