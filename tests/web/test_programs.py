"""Programs that play (issue 48, item 2): the client of docs/bot-api.md, run as written,
plays a whole game against a person's page; every view it was sent is its seat's own, and
a determinized twin of the game shows the seat the same (the adapters' leak check)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from gamenight.engine import load
from tests.server.helpers import Server, wait_js
from tests.web.conftest import PHONE, open_page, serious_violations, start_table
from tests.web.test_seats import SHOTS, play_a_move

DOC = Path(__file__).parents[2] / "docs" / "bot-api.md"


def the_client() -> dict[str, Any]:
    """The documented client, executed as a module (its `main` and `play`)."""
    block = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 36, "the example stays short"
    space: dict[str, Any] = {"__name__": "bot_client"}
    exec(compile(code, str(DOC), "exec"), space)
    return space


def bot_account(base: str, name: str) -> str:
    """A new account made a bot account; its API token."""
    with httpx.Client(base_url=base) as http:
        r = http.post("/api/accounts", json={"name": name, "password": "quiet-lantern-47"})
        assert r.status_code == 201, r.text
        token = http.post("/api/account/tokens").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.post("/api/bot/account/upgrade", headers=auth).json()["bot"] is True
    return str(token)


def views_leak_nothing(
    game: str, options: dict[str, Any], replay: dict[str, Any], seat: int, log: list[dict[str, Any]]
) -> int:
    """Every state the program was sent shows what its seat sees at that version (its
    view, its events, its legal actions), and so does a determinized twin, as the engine's
    check asks of the adapters (engine/check.py); returns how many were checked."""
    rules = load(game, **options)
    state = rules.start(replay["seed"])
    steps = replay["steps"]
    by_version = {msg["version"]: msg for msg in log}
    rng = random.Random(0)
    checked = 0

    def seen(s: Any) -> dict[str, Any]:
        """What a seat may know of `s`: its view, every event it saw, its legal actions."""
        legal = s.actions(seat) if seat in s.actors else []
        return json.loads(
            json.dumps(
                {
                    "view": s.view(seat),
                    "events": [e.to_json() for e in s.events(seat)],
                    "actions": [a.to_json() for a in legal],
                }
            )
        )

    for version in range(len(steps) + 1):
        if version in by_version:
            msg, want = by_version[version], seen(state)
            assert msg["view"] == want["view"], f"version {version}"
            start = msg["events_from"]
            assert msg["events"] == want["events"][start : start + len(msg["events"])]
            if msg.get("actions") is not None:
                assert msg["actions"] == want["actions"], f"version {version}"
            twin = state.determinize(seat, rng) if not state.over else state
            assert seen(twin) == want, f"a determinized twin differs at version {version}"
            checked += 1
        if version < len(steps):
            step = steps[version]
            state.act(step["seat"], rules.action_from_json(step["action"]))
    return checked


def play_out_with(ann: Any, program: Any, result: dict[str, Any], bot: str) -> None:
    """Ann starts the table and plays until her results show; the program's thread has
    played the game to its end, and the results name it."""
    start_table(ann)
    deadline = time.time() + 90
    while not ann.locator("#results").is_visible():
        assert time.time() < deadline, "the game did not finish"
        play_a_move(ann)
        ann.wait_for_timeout(50)
    program.join(20)
    assert result["outcome"]["scores"] is not None
    assert bot in ann.locator("#results-body").inner_text()


def test_a_program_plays_a_whole_game_against_a_persons_page(
    server: Server, browser: Browser
) -> None:
    token = bot_account(server.url, "RandomBot")
    client = the_client()
    log: list[dict[str, Any]] = []
    result: dict[str, Any] = {}

    def run() -> None:
        result["outcome"] = asyncio.run(client["main"](server.url, token, log))

    program = threading.Thread(target=run, daemon=True)
    program.start()
    ann = open_page(browser)
    options = {"players": 2}
    r = ann.request.post(
        f"{server.url}/api/tables",
        data={
            "game": "drop-or-stop",
            "options": options,
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0, "outside_bots": True},
            "sit": 0,
            "name": "Ann",
        },
    )
    tid = r.json()["id"]
    ann.goto(f"{server.url}/tables/{tid}")
    for _ in range(50):  # the program's stream may take a moment to open
        asked = ann.request.post(
            f"{server.url}/api/tables/{tid}/challenge", data={"bot": "RandomBot"}
        )
        if asked.status != 409:
            break
        time.sleep(0.1)
    assert asked.ok, asked.text()
    wait_js(ann, "document.querySelector('#lobby-seats').textContent.includes('RandomBot')")
    play_out_with(ann, program, result, "RandomBot")
    ann.screenshot(path=f"{SHOTS}/program-played.png")
    replay = ann.request.get(f"{server.url}/api/tables/{tid}/replay").json()
    checked = views_leak_nothing("drop-or-stop", options, replay, 1, log)
    print(f"the program was sent {len(log)} states; {checked} checked against its seat's view")
    assert checked >= 5
    assert not ann.errors  # type: ignore[attr-defined]
    ann.context.close()


def run_the_client(server: Server, token: str) -> tuple[threading.Thread, dict[str, Any]]:
    """The documented client, listening for a challenge in a thread of its own."""
    client = the_client()
    result: dict[str, Any] = {}

    def run() -> None:
        result["outcome"] = asyncio.run(client["main"](server.url, token, None))

    program = threading.Thread(target=run, daemon=True)
    program.start()
    return program, result


def shot(page: Page, name: str) -> None:
    """A screenshot for a person to look at, and the page axe-clean as it is."""
    page.screenshot(path=f"{SHOTS}/issue48-{name}.png")
    assert serious_violations(page) == [], name


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_person_welcomes_programs_in_the_lobby_and_challenges_one_at_the_table(
    server: Server, browser: Browser, size: str
) -> None:
    """Issue 48, item 2, as a person meets it (lichess's model): the lobby's form has a
    switch to welcome programs; at the table, before the start, its owner challenges a bot
    account by name; the program (the docs' client) takes the open seat and they play."""
    bot = f"Challenged{size.title()}"
    program, result = run_the_client(server, bot_account(server.url, bot))
    ann = open_page(browser, PHONE if size == "phone" else {"width": 1280, "height": 800})
    ann.goto(server.url)
    ann.wait_for_selector(".game-card .pic svg")
    ann.click('.game-card[data-game="drop-or-stop"]')
    ann.fill("#name", "Ann")
    ann.fill('#players-opt [name="players"]', "2")
    ann.dispatch_event('#players-opt [name="players"]', "change")
    ann.select_option('#seats select[data-seat="1"]', "open")
    ann.fill("#bot_delay", "0")
    ann.get_by_label("Welcome programs").check()
    ann.locator("#outside_bots").scroll_into_view_if_needed()
    shot(ann, f"lobby-{size}")
    ann.click("#create-btn")
    ann.wait_for_url("**/tables/*")
    tid = ann.url.rsplit("/", 1)[1]
    table = ann.request.get(f"{server.url}/api/tables/{tid}").json()
    assert table["settings"]["outside_bots"] is True
    ann.wait_for_selector("#challenge", state="visible")
    ann.get_by_label("Challenge a program").fill(bot)
    shot(ann, f"challenge-{size}")
    for _ in range(50):  # the program's stream may take a moment to open
        ann.evaluate("document.querySelector('#challenge-msg').textContent = ''")
        ann.get_by_role("button", name="Challenge", exact=True).click()
        wait_js(ann, "document.querySelector('#challenge-msg').textContent !== ''")
        said = ann.locator("#challenge-msg").inner_text()
        if "not listening" not in said:
            break
        time.sleep(0.1)
    assert said == f"{bot} is challenged: it takes a seat when its program accepts"
    wait_js(ann, f"document.querySelector('#lobby-seats').textContent.includes('{bot}')")
    wait_js(ann, "document.querySelector('#challenge').hidden")  # no open seat left
    shot(ann, f"challenged-{size}")
    play_out_with(ann, program, result, bot)
    shot(ann, f"played-{size}")
    assert not ann.errors  # type: ignore[attr-defined]
    ann.context.close()


def test_programs_are_refused_what_they_may_not_do(server: Server) -> None:
    token = bot_account(server.url, "PoliteBot")
    with httpx.Client(base_url=server.url) as http:
        assert http.get("/api/bot/stream").status_code == 401  # no token
        bad = http.get("/api/bot/account", headers={"Authorization": "Bearer gnb_nothing"})
        assert bad.status_code == 401 and bad.json()["error"].startswith("this API token")
        r = http.post(
            "/api/tables",
            json={"game": "drop-or-stop", "options": {"players": 2}, "seats": ["open", "open"]},
        )
        closed = r.json()["id"]  # its owner does not welcome programs
        auth = {"Authorization": f"Bearer {token}"}
        r = http.post(f"/api/bot/tables/{closed}/join", json={"seat": 1}, headers=auth)
        assert r.status_code == 403 and "outside_bots" in r.json()["error"]
        person = http.post("/api/accounts", json={"name": "Zoe", "password": "amber-meadow-31"})
        assert person.status_code == 201
        zoe = http.post("/api/account/tokens").json()["token"]
        r = http.get("/api/bot/stream", headers={"Authorization": f"Bearer {zoe}"})
        assert r.status_code == 403  # a person's token is not a bot account's
        codes = [http.get("/api/bot/account", headers=auth).status_code for _ in range(40)]
        assert 429 in codes  # rate limited per account
