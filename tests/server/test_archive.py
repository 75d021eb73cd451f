"""Issue 48, item 3: the open archive of played games. Games played through the server are
exported anonymised (pseudonyms, no chat, no names, no tokens, no table ids), without the
tables of people who opted out nor those of only bots, and every exported game replays
bit for bit to the outcome and the views its players were sent."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
import typer
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from typer.testing import CliRunner

import gamenight
from gamenight.cli.archive import export_command
from gamenight.engine.core import BadInput
from gamenight.server import archive
from gamenight.server.accounts import SESSION_COOKIE
from gamenight.server.app import create_app
from gamenight.server.db import token_hash
from tests.server.conftest import (
    TEST_RATES,
    cookie,
    hub_of,
    join,
    new_table,
    play_to_the_end,
    receive_state,
    wait_for,
)

CHAT = "meet me by the kraken at noon"
PEOPLE = {"Quirinus", "Zebedee", "Cleopatra"}  # accounts
GUESTS = {"Xanthippe", "Yolanda", "Wilhelmina"}


def sign_up(client: TestClient, name: str) -> None:
    client.cookies.delete(SESSION_COOKIE)
    r = client.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text


def seat(client: TestClient, tid: str, index: int, name: str, account: str | None) -> str:
    """`name` takes the seat, signed in as `account` (None: as a guest)."""
    client.cookies.delete(SESSION_COOKIE)
    if account is not None:
        r = client.post("/api/session", json={"name": account, "password": "correct horse"})
        assert r.status_code == 200, r.text
    token = join(client, tid, index, name)
    client.cookies.delete(SESSION_COOKIE)
    return token


def say_in_chat(client: TestClient, tid: str, token: str) -> None:
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        ws.send_json({"type": "chat", "text": CHAT})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "chat" and any(x["text"] == CHAT for x in msg["lines"]):
                return


def a_game(
    client: TestClient, first: tuple[str, str | None], second: tuple[str, str | None], seed: int
) -> dict[str, Any]:
    """Two people (name, account or None) play Drop or Stop to the end, after a chat line."""
    t = new_table(client, seats=["open", "open"])
    tid = t["id"]
    a = seat(client, tid, 0, *first)
    b = seat(client, tid, 1, *second)
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    say_in_chat(client, tid, a)
    last = play_to_the_end(client, tid, a, b, seed=seed)
    return {"id": tid, "tokens": [a, b], "last": last}


def against_a_bot(client: TestClient, name: str) -> dict[str, Any]:
    """A guest plays an easy bot to the end."""
    tid = str(new_table(client, seats=["open", "easy"])["id"])
    token = seat(client, tid, 0, name, None)
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    rng = random.Random(6)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        while not msg["view"]["over"]:
            if msg.get("asked"):
                action = rng.choice(msg["actions"])
                ws.send_json({"type": "act", "version": msg["version"], "action": action})
            msg = receive_state(ws, msg["version"] + 1)
    return {"id": tid, "tokens": [token], "last": {0: msg}}


def bots_only(client: TestClient) -> str:
    tid = str(new_table(client, seats=["easy", "easy"])["id"])
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    wait_for(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished", 30)
    return tid


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the tests that only read what `played` played (exports read)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('archive') / 'test.sqlite3'}"
    app = create_app(url, pool="thread", workers_n=2, rates=TEST_RATES)
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def played(server: TestClient) -> dict[str, Any]:
    """Quirinus and Zebedee (accounts) play; two guests play; Quirinus plays a guest;
    Cleopatra (an account that opted out) plays a guest; a guest plays a bot; two bots
    play."""
    client = server
    for name in PEOPLE:
        sign_up(client, name)
    client.cookies.delete(SESSION_COOKIE)
    r = client.post("/api/session", json={"name": "Cleopatra", "password": "correct horse"})
    assert r.status_code == 200
    r = client.post("/api/account/archive", json={"opt_out": True})
    assert r.status_code == 200 and r.json() == {"opt_out": True}
    games = {
        "accounts": a_game(client, ("Quirinus", "Quirinus"), ("Zebedee", "Zebedee"), 1),
        "guests": a_game(client, ("Xanthippe", None), ("Yolanda", None), 2),
        "mixed": a_game(client, ("Quirinus", "Quirinus"), ("Wilhelmina", None), 3),
        "opted_out": a_game(client, ("Cleopatra", "Cleopatra"), ("Yolanda", None), 4),
        "bot": against_a_bot(client, "Wilhelmina"),
    }
    games["bots"] = {"id": bots_only(client)}
    people = client.app.state.holder["accounts"]  # type: ignore[attr-defined]

    def rated() -> bool:
        with people.engine.connect() as conn:
            query = text("SELECT count(*) FROM rated_tables WHERE table_id = :t")
            return bool(conn.execute(query, {"t": games["accounts"]["id"]}).scalar())

    wait_for(rated)
    return games


def export(client: TestClient, out: Path, since: float | None = None) -> list[dict[str, Any]]:
    done = archive.export(hub_of(client).store.engine, out, since)
    rows: list[dict[str, Any]] = pq.read_table(out).to_pylist()
    assert done.games == len(rows)
    return rows


def by_table(client: TestClient, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The exported rows by the table they came from (the test knows the secret)."""
    names = archive.Pseudonyms(archive.server_secret(hub_of(client).store.engine))
    return {tid: row for row in rows for tid in [_table_of(names, row, client)] if tid}


def _table_of(names: archive.Pseudonyms, row: dict[str, Any], client: TestClient) -> str:
    with hub_of(client).store.engine.connect() as conn:
        ids = conn.execute(text("SELECT id FROM tables")).scalars()
        return next((t for t in ids if names.table(t) == row["game_id"]), "")


def strings(value: Any) -> list[str]:
    """Every text in a value read from the file (keys, numbers and dates as text too)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [] if value is None else [str(value)]


def test_the_export_keeps_every_finished_game_of_people_and_only_those(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    rows = by_table(client, export(client, tmp_path / "games.parquet"))
    ids = {name: g["id"] for name, g in played.items()}
    assert set(rows) == {ids["accounts"], ids["guests"], ids["mixed"], ids["bot"]}
    done = archive.export(hub_of(client).store.engine, tmp_path / "again.parquet")
    assert done.left_out == {archive.OPTED_OUT: 1, archive.BOTS_ONLY: 1}
    kinds = {tid: [s["kind"] for s in row["seats"]] for tid, row in rows.items()}
    assert kinds[ids["accounts"]] == ["account", "account"]
    assert kinds[ids["guests"]] == ["guest", "guest"]
    assert kinds[ids["mixed"]] == ["account", "guest"]
    assert kinds[ids["bot"]] == ["guest", "bot"]
    (_, bot) = rows[ids["bot"]]["seats"]
    assert bot["player"] == "bot:easy" and bot["bot"] and not bot["stand_in"]


def test_no_name_chat_token_or_table_id_reaches_the_file(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    out = tmp_path / "games.parquet"
    rows = export(client, out)
    assert rows
    secrets_of_the_server = {CHAT, *PEOPLE, *GUESTS, *(g["id"] for g in played.values())}
    for g in played.values():
        for token in g.get("tokens", []):
            secrets_of_the_server |= {token, token_hash(token)}
    with hub_of(client).store.engine.connect() as conn:
        secrets_of_the_server.add(conn.execute(text("SELECT secret FROM archive_secret")).scalar())
    # every value of every column, and the file's own metadata and bytes
    texts = [s.casefold() for row in rows for s in strings(row)]
    metadata = pq.ParquetFile(out).schema_arrow.metadata or {}
    texts += [v.decode(errors="replace").casefold() for kv in metadata.items() for v in kv]
    raw = out.read_bytes().decode("latin-1").casefold()
    for secret in secrets_of_the_server:
        assert not any(secret.casefold() in t for t in texts), secret
        assert secret.casefold() not in raw, secret
    for row in rows:
        for s in row["seats"]:
            assert re.fullmatch(r"[ag]-[0-9a-f]{20}|bot:(easy|medium|hard)", s["player"]), s


def test_every_exported_game_replays_to_what_its_players_saw(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    rows = by_table(client, export(client, tmp_path / "games.parquet"))
    for name in ("accounts", "guests", "mixed", "bot"):
        row, last = rows[played[name]["id"]], played[name]["last"]
        game = gamenight.load(row["game"], **json.loads(row["options"]))
        history = [
            (m["seat"], game.action_from_json(json.loads(m["action"]))) for m in row["history"]
        ]
        state = game.replay(row["seed"], history)
        assert state.over and row["moves"] == len(history)
        outcome = json.loads(json.dumps(state.outcome().to_json()))
        assert all(outcome == seen["outcome"] for seen in last.values())
        for key in ("scores", "winners", "ranks", "payoff", "truncated"):
            assert row[key] == outcome[key], key
        for s, seen in last.items():
            assert json.loads(json.dumps(state.view(s))) == seen["view"]
        assert row["finished"] == dt.datetime.now(dt.UTC).date()


def test_ratings_at_the_time_are_exported_for_rated_games(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    rows = by_table(client, export(client, tmp_path / "games.parquet"))
    rated = rows[played["accounts"]["id"]]
    assert rated["rated"] and not rated["practice"]
    for s in rated["seats"]:  # two newcomers: openskill's default before the game
        assert s["rating_mu"] == pytest.approx(25.0)
        assert s["rating_sigma"] == pytest.approx(25 / 3)
        assert s["rating_sigma_after"] < s["rating_sigma"]  # (mu stays on a tie)
    ranks = rated["ranks"]
    if ranks[0] != ranks[1]:
        winner, loser = sorted(rated["seats"], key=lambda s: ranks[s["seat"]])
        assert winner["rating_mu_after"] > 25.0 > loser["rating_mu_after"]
    guests = rows[played["guests"]["id"]]
    assert not guests["rated"]
    assert all(s["rating_mu"] is None for s in guests["seats"])


def test_pseudonyms_are_stable_across_exports_and_tables(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    first = by_table(client, export(client, tmp_path / "one.parquet"))
    second = by_table(client, export(client, tmp_path / "two.parquet"))
    assert first == second
    accounts, mixed = first[played["accounts"]["id"]], first[played["mixed"]["id"]]
    quirinus = accounts["seats"][0]["player"]
    assert quirinus.startswith("a-") and mixed["seats"][0]["player"] == quirinus
    assert accounts["seats"][1]["player"] != quirinus
    guests = first[played["guests"]["id"]]["seats"]
    assert guests[0]["player"] != guests[1]["player"]  # a guest is a pseudonym per seat


def test_since_chooses_the_games_by_the_day_they_finished(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    today = dt.datetime.now(dt.UTC).date()
    tomorrow = archive.parse_since((today + dt.timedelta(days=1)).isoformat())
    assert export(client, tmp_path / "none.parquet", tomorrow) == []
    assert len(export(client, tmp_path / "all.parquet", archive.parse_since(str(today)))) == 4


def test_opting_out_is_an_account_setting_with_one_line_refusals(client: TestClient) -> None:
    assert client.get("/api/account/archive").status_code == 401
    r = client.post("/api/account/archive", json={"opt_out": True})
    assert r.status_code == 401 and r.json()["error"] == "sign in first"
    sign_up(client, "Quirinus")
    assert client.get("/api/account/archive").json() == {"opt_out": False}
    r = client.post("/api/account/archive", json={"opt_out": "yes"})
    assert r.status_code == 400 and r.json()["error"] == "'opt_out' must be true or false"
    assert client.post("/api/account/archive", json={"opt_out": True}).json()["opt_out"]
    assert client.get("/api/account/archive").json() == {"opt_out": True}
    assert client.post("/api/account/archive", json={"opt_out": False}).status_code == 200
    assert client.get("/api/account/archive").json() == {"opt_out": False}


def test_an_opt_out_leaves_out_the_games_already_played(client: TestClient, tmp_path: Path) -> None:
    sign_up(client, "Quirinus")
    game = a_game(client, ("Quirinus", "Quirinus"), ("Yolanda", None), 5)
    assert len(export(client, tmp_path / "before.parquet")) == 1
    r = client.post("/api/session", json={"name": "Quirinus", "password": "correct horse"})
    assert r.status_code == 200
    assert client.post("/api/account/archive", json={"opt_out": True}).status_code == 200
    assert export(client, tmp_path / "after.parquet") == []
    assert game["id"]


def test_the_research_loader_gives_each_persons_decisions(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    client = server
    from gamenight.learn.archive import dataset, games

    out = tmp_path / "games.parquet"
    rows = export(client, out)
    observations, masks, actions = dataset(out, "drop-or-stop", players=2)
    people = [m for r in rows for m in r["history"] if r["seats"][m["seat"]]["kind"] != "bot"]
    assert len(actions) == len(people) < sum(r["moves"] for r in rows)
    game = gamenight.load("drop-or-stop", players=2)
    assert observations.shape == (len(actions), game.encoding_size)
    assert masks[np.arange(len(actions)), actions].all()  # each action was legal then
    zeroes = dataset(out, "drop-or-stop", players=2, seat=0)[2]
    assert 0 < len(zeroes) < len(actions)
    assert all(g.replay().over for g in games(out))


# -- the command ---------------------------------------------------------------------------
def command_app() -> typer.Typer:
    app = typer.Typer()
    app.command("export")(export_command)

    @app.command("other")
    def _other() -> None:  # two commands: `export` is a subcommand, as in gamenight's app
        pass

    return app


runner = CliRunner()


def test_the_command_writes_the_archive(
    server: TestClient, played: dict[str, Any], tmp_path: Path
) -> None:
    db_file = hub_of(server).store.engine.url.database
    out = tmp_path / "games.parquet"
    args = ["export", "--db", f"sqlite:///{db_file}", "--out", str(out), "--since", "2020-01-01"]
    result = runner.invoke(command_app(), args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"wrote 4 games to {out}",
        f"left out: 1 ({archive.BOTS_ONLY}), 1 ({archive.OPTED_OUT})",
    ]
    assert pq.read_table(out).num_rows == 4
    later = runner.invoke(command_app(), [*args[:-1], "2999-01-01", "--game", "arne"])
    assert later.exit_code == 0 and later.stdout.startswith("wrote 0 games")
    assert pq.read_table(out).num_rows == 0  # a valid empty archive, with its schema
    assert pq.read_schema(out).metadata[b"format"] == archive.FORMAT.encode()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--since", "yesterday"], "--since yesterday is not a date"),
        (["--since", "2026-13-01"], "--since 2026-13-01 is not a date"),
        (["--out", "{tmp}/nowhere/games.parquet"], "the folder {tmp}/nowhere does not exist"),
        (["--out", "{tmp}"], "is a folder"),
        (["--out", "/proc/games.parquet"], "cannot write in /proc"),  # even as root
        (["--db", "sqlite:///{tmp}/missing.sqlite3"], "there is no database at"),
        (["--db", "sqlite:///{tmp}/not-a-db"], "cannot use the database"),
        (["--db", "nosuchdriver://x"], "cannot use the database"),
        (["--game", "chess"], "--game chess: no such game"),
    ],
)
def test_bad_input_is_one_line_and_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], says: str
) -> None:
    monkeypatch.setenv("GAMENIGHT_DATA", str(tmp_path / "data"))
    (tmp_path / "not-a-db").write_text("hello\n" * 100)
    args = [a.format(tmp=tmp_path) for a in args]
    result = runner.invoke(command_app(), ["export", *args], catch_exceptions=False)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert says.format(tmp=tmp_path) in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "data").exists()  # the default database was not made


def test_without_a_database_the_default_one_is_not_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMENIGHT_DATA", str(tmp_path / "data"))
    result = runner.invoke(command_app(), ["export", "--out", str(tmp_path / "g.parquet")])
    assert result.exit_code == 2
    assert "start `gamenight serve` once, or give --db URL" in result.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / "g.parquet").exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
@example("0001-01-01T00:00+23:59")
@example("9999-12-31T23:59:59-23:59")
@example("--help")
@example("\x00")
def test_hostile_since_strings_are_a_date_or_one_line(since: str) -> None:
    try:
        when = archive.parse_since(since)
    except BadInput as err:
        assert "\n" not in str(err) and len(str(err)) < 300
    else:
        assert isinstance(when, float)
    result = runner.invoke(
        command_app(),
        ["export", "--since", since, "--db", "sqlite:////nonexistent/x.sqlite3"],
        catch_exceptions=False,
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def test_only_the_operators_admins_download_the_archive(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GET /api/admin/archive: the file `gamenight export` writes, for the accounts the
    operator lists in GAMENIGHT_ADMINS; anyone else gets one line, never a file."""
    monkeypatch.setenv("GAMENIGHT_ADMINS", "Zebedee, Nobody")
    assert client.get("/api/admin/archive").status_code == 401
    sign_up(client, "Quirinus")
    a_game(client, ("Quirinus", "Quirinus"), ("Yolanda", None), 5)
    for asker in ("Quirinus", None):  # an account that is not an admin, and a guest
        client.cookies.delete(SESSION_COOKIE)
        if asker:
            client.post("/api/session", json={"name": asker, "password": "correct horse"})
        r = client.get("/api/admin/archive")
        assert r.status_code in (401, 403) and "\n" not in r.json()["error"], r.text
        assert "parquet" not in r.headers["content-type"]
    assert client.get("/api/admin").json() == {"admin": False}
    sign_up(client, "Zebedee")
    assert client.get("/api/admin").json() == {"admin": True}
    r = client.get("/api/admin/archive", params={"since": "2000-01-01"})
    assert r.status_code == 200 and r.headers["x-games"] == "1"
    assert "attachment" in r.headers["content-disposition"]
    (tmp_path / "got.parquet").write_bytes(r.content)
    (row,) = pq.read_table(tmp_path / "got.parquet").to_pylist()
    assert row["game"] == "drop-or-stop" and "Quirinus" not in json.dumps(row, default=str)
    future = client.get("/api/admin/archive", params={"since": "2999-01-01"})
    assert future.status_code == 200 and future.headers["x-games"] == "0"
    for params, says in [
        ({"since": "yesterday"}, "since yesterday is not a date"),
        ({"game": "chess"}, "no game 'chess'"),
    ]:
        r = client.get("/api/admin/archive", params=params)
        assert r.status_code == 400 and says in r.json()["error"], r.text
    monkeypatch.setenv("GAMENIGHT_ADMINS", "")  # taken back without a restart
    assert client.get("/api/admin/archive").status_code == 403


def test_an_admins_exports_are_budgeted(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamenight.server.routes import admin

    monkeypatch.setenv("GAMENIGHT_ADMINS", "Zebedee")
    monkeypatch.setattr(admin, "_exports", admin.PerClient(1 / 3600, 2))
    sign_up(client, "Zebedee")
    got = [client.get("/api/admin/archive").status_code for _ in range(3)]
    assert got[:2] == [200, 200] and got[2] == 429


def test_a_programs_seat_is_a_program_and_programs_alone_are_not_people(
    client: TestClient, tmp_path: Path
) -> None:
    """A bot account's program sits in a person's kind of seat, linked to its account: the
    archive names it a program (the loader's people's decisions leave it out), and a table
    of only programs is not a game of people."""
    from tests.server.test_programs import program

    robo, mecha = program(client, "Robo"), program(client, "Mecha")

    def welcoming(*seated: tuple[int, dict[str, str]]) -> tuple[str, dict[int, str]]:
        tid = str(new_table(client, settings={"bot_delay": 0, "outside_bots": True})["id"])
        tokens = {}
        for index, auth in seated:
            r = client.post(f"/api/bot/tables/{tid}/join", json={"seat": index}, headers=auth)
            assert r.status_code == 200, r.text
            tokens[index] = r.json()["token"]
        return tid, tokens

    mixed, tokens = welcoming((1, robo))
    tokens[0] = seat(client, mixed, 0, "Xanthippe", None)
    assert client.post(f"/api/tables/{mixed}/start").status_code == 200
    play_to_the_end(client, mixed, tokens[0], tokens[1], seed=7)
    alone, tokens = welcoming((0, robo), (1, mecha))
    assert client.post(f"/api/tables/{alone}/start").status_code == 200
    play_to_the_end(client, alone, tokens[0], tokens[1], seed=8)

    out = tmp_path / "games.parquet"
    done = archive.export(hub_of(client).store.engine, out)
    (row,) = pq.read_table(out).to_pylist()  # the table of programs alone is left out
    assert done.left_out == {archive.BOTS_ONLY: 1}
    assert [s["kind"] for s in row["seats"]] == ["guest", "program"]
    assert re.fullmatch(r"a-[0-9a-f]{20}", row["seats"][1]["player"])
    assert "Robo" not in json.dumps(row, default=str) and b"Robo" not in out.read_bytes()
    from gamenight.learn.archive import dataset

    people = [m for m in row["history"] if m["seat"] == 0]
    assert len(dataset(out, "drop-or-stop", players=2)[2]) == len(people) < row["moves"]
