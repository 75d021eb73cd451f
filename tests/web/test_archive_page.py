"""Issue 48, item 3 in the browser: the open archive on the account page. A person keeps
their games out of it with a checkbox that stays as chosen; an admin of the server (the
operator's GAMENIGHT_ADMINS) downloads the anonymised Parquet file; nobody else sees the
export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import SHOTS, Server, wait_js
from tests.web.conftest import PHONE, create_from_lobby, open_page, serious_violations
from tests.web.test_drop_or_stop import play_to_the_end


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("archive-page")
    srv = Server(f"sqlite:///{data / 'gn.sqlite3'}", data)
    plain = srv.env
    srv.env = lambda: {**plain(), "GAMENIGHT_ADMINS": "Zed"}  # type: ignore[method-assign]
    yield srv.start()
    srv.stop()


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(f"{server.url}/account")
    page.fill("#acc-name", name)
    page.fill("#acc-password", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector("#signed-in:not([hidden])")


def download(page: Page, tmp_path: Path, name: str) -> list[dict[str, object]]:
    with page.expect_download() as got:
        page.click("#admin-form button[type=submit]")
    path = tmp_path / name
    got.value.save_as(path)
    wait_js(page, "document.querySelector('#admin-msg').textContent.endsWith('exported.')")
    rows: list[dict[str, object]] = pq.read_table(path).to_pylist()
    assert page.locator("#admin-msg").inner_text() == (
        f"{len(rows)} {'game' if len(rows) == 1 else 'games'} exported."
    )
    return rows


def test_an_admin_downloads_the_archive_and_an_opt_out_stays(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    page = open_page(browser)
    sign_up(page, server, "Zed")
    create_from_lobby(page, server)
    page.wait_for_selector("#drop")
    play_to_the_end(page, by_keyboard=False)
    page.goto(f"{server.url}/account")
    page.wait_for_selector("#admin:not([hidden])")
    assert not page.locator("#archive-out").is_checked()
    (row,) = download(page, tmp_path, "all.parquet")
    assert row["game"] == "drop-or-stop" and "Zed" not in str(row)
    assert serious_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "archive-account-desktop.png"), full_page=True)
    page.check("#archive-out")
    wait_js(page, "document.querySelector('#archive-msg').textContent !== ''")
    assert page.locator("#archive-msg").inner_text() == "Your games stay out of the archive."
    page.reload()
    page.wait_for_selector("#admin:not([hidden])")
    wait_js(page, "document.querySelector('#archive-out').checked")
    assert download(page, tmp_path, "after.parquet") == []  # its table is left out now
    page.fill("#admin-since", "2999-01-01")
    page.uncheck("#archive-out")
    wait_js(page, "document.querySelector('#archive-msg').textContent.includes('may go')")
    assert download(page, tmp_path, "future.parquet") == []
    assert not page.errors  # type: ignore[attr-defined]


def test_a_person_who_is_not_an_admin_sees_no_export(server: Server, browser: Browser) -> None:
    page = open_page(browser, PHONE)
    sign_up(page, server, "Ann")
    wait_js(page, "document.querySelector('#archive-out') !== null")
    page.wait_for_timeout(300)  # the rights answer has come: the form stays hidden
    assert page.locator("#admin").is_hidden()
    assert page.locator("#archive-out").is_visible()
    r = page.request.get(f"{server.url}/api/admin/archive")
    assert r.status == 403 and r.json()["error"] == (
        "only an admin of this server may export the archive"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(page) == []
    page.screenshot(path=str(SHOTS / "archive-account-phone.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
