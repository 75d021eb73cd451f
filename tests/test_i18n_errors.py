"""Issue 46: error messages that carry values (an option's name and value, a move's JSON,
a table setting's bounds) in the reader's language: German (du), Dutch and Russian (вы).

The engine raises BadInput with a `Reason` (its English template and the words filled in):
str() is the English sentence as before; the terminal's error line (LANG), the server's
JSON errors (the request's language) and its WebSocket replies (the page's language) say
it from the platform's catalogue. Any JSON as an option value or a move is answered with
one translated line, never a traceback or a 500.
"""

from __future__ import annotations

import dataclasses
import json
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamenight.engine.core import BadInput, Reason
from gamenight.engine.options import check_untrusted
from gamenight.engine.registry import games, load, options_class
from gamenight.i18n.refusals import translate
from gamenight.server.app import create_app
from tests.server.conftest import TEST_RATES, cookie, receive_state, two_people
from tests.terminal.helpers import gamenight

LANGS = ("de", "nl", "ru")
LOCALES = {"de": "de_DE.UTF-8", "nl": "nl_NL.UTF-8", "ru": "ru_RU.UTF-8"}
ERROR = {"de": "Fehler", "nl": "fout", "ru": "ошибка"}


# -- the terminal ---------------------------------------------------------------------------
@pytest.fixture
def terminal_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Sets the terminal's language (LANG) for the in-process `gamenight`."""

    def set_lang(lang: str) -> None:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", LOCALES[lang])

    yield set_lang


CLI_ERRORS: dict[tuple[str, ...], dict[str, str]] = {
    ("play", "arne", "--set", "hand_size=x"): {
        "de": "Option 'hand_size' muss eine ganze Zahl sein, nicht 'x'",
        "nl": "optie 'hand_size' moet een geheel getal zijn, niet 'x'",
        "ru": "настройка 'hand_size' должна быть целым числом, а не 'x'",
    },
    ("play", "arne", "--set", "mode=x"): {
        "de": "arne: Option 'mode' = 'x' ist nicht erlaubt; erlaubt: einer der Werte 'normal', "
        "'losing'",
        "nl": "arne: optie 'mode' = 'x' is niet toegestaan; toegestaan: een van 'normal', 'losing'",
        "ru": "arne: настройка 'mode' = 'x' недопустима; можно: одно из значений 'normal', "
        "'losing'",
    },
    ("play", "drop-or-stop", "--set", "first_start_seat=abc"): {
        "de": "Option 'first_start_seat' ist eine Spielernummer (1 für den ersten Spieler) oder "
        "'random', nicht 'abc'",
        "nl": "optie 'first_start_seat' is een spelersnummer (1 voor de eerste speler) of "
        "'random', niet 'abc'",
        "ru": "настройка 'first_start_seat' — номер игрока (1 — первый игрок) или 'random', "
        "а не 'abc'",
    },
    ("play", "drop-or-stop", "--set", "players=2", "--set", "first_start_seat=9"): {
        "de": "drop-or-stop: Option 'first_start_seat': es gibt keinen Spieler 9 von 2 "
        "(Platzindex 8; die Engine zählt Plätze ab 0); wähle Spieler 1 bis 2 oder 'random'",
        "nl": "drop-or-stop: optie 'first_start_seat': er is geen speler 9 van 2 (plaatsindex "
        "8; de engine telt plaatsen vanaf 0); kies speler 1 tot en met 2, of 'random'",
        "ru": "drop-or-stop: настройка 'first_start_seat': нет игрока 9 из 2 (индекс места 8; "
        "движок считает места с 0); выберите игрока от 1 до 2 или 'random'",
    },
    ("play", "chess"): {
        "de": "kein Spiel 'chess'; Spiele: arne, drop-it, drop-or-stop",
        "nl": "geen spel 'chess'; spellen: arne, drop-it, drop-or-stop",
        "ru": "нет игры 'chess'; игры: arne, drop-it, drop-or-stop",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("argv", list(CLI_ERRORS), ids=" ".join)
def test_the_terminal_says_a_bad_option_or_game_in_its_language(
    terminal_in: Any, lang: str, argv: tuple[str, ...]
) -> None:
    terminal_in(lang)
    run = gamenight(*argv)
    assert run.code == 2, run
    assert run.err_lines == [f"{ERROR[lang]}: {CLI_ERRORS[argv][lang]}"], run.err


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_option_and_a_bad_replay_file_in_the_terminals_language(
    terminal_in: Any, lang: str, tmp_path: Path
) -> None:
    terminal_in(lang)
    run = gamenight("play", "arne", "--set", "nosuch=1")
    start = {
        "de": "arne hat keine Option 'nosuch'; Optionen: players, mode,",
        "nl": "arne heeft geen optie 'nosuch'; opties: players, mode,",
        "ru": "у arne нет настройки 'nosuch'; настройки: players, mode,",
    }
    assert run.code == 2 and len(run.err_lines) == 1, run
    assert run.err_lines[0].startswith(f"{ERROR[lang]}: {start[lang]}"), run.err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "gamenight-replay/1", "game": "arne", "options": {},
                               "seed": "x", "history": []}))  # fmt: skip
    said = {
        "de": f"{bad}: 'seed' muss eine ganze Zahl sein",
        "nl": f"{bad}: 'seed' moet een geheel getal zijn",
        "ru": f"{bad}: в 'seed' ожидается целое число",
    }
    replay = gamenight("replay", str(bad))
    assert replay.err_lines == [f"{ERROR[lang]}: {said[lang]}"], replay.err


def test_the_error_of_the_issue_in_german_in_a_new_process() -> None:
    """`LANG=de_DE.UTF-8 gamenight play arne --set hand_size=x`, as the issue shows it."""
    import subprocess

    from tests.terminal.helpers import GAMENIGHT, environment

    env = environment(LANG="de_DE.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="")
    run = subprocess.run([*GAMENIGHT, "play", "arne", "--set", "hand_size=x"], env=env,
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert run.stderr == "Fehler: Option 'hand_size' muss eine ganze Zahl sein, nicht 'x'\n"
    assert run.returncode == 2


def test_the_english_sentences_are_the_same_as_before() -> None:
    """str() of each error is the English sentence people and programs read before."""
    with pytest.raises(BadInput) as err:
        load("arne", hand_size="x")
    assert str(err.value) == "option 'hand_size' must be a whole number, got 'x'"
    assert isinstance(err.value.args[0], Reason)
    with pytest.raises(BadInput) as err:
        load("arne", mode="x")
    assert str(err.value) == "arne option 'mode' = 'x' is not allowed: one of 'normal', 'losing'"
    with pytest.raises(BadInput) as err:
        load("drop-or-stop").action_from_json({"type": "drop", "x": 1})
    assert str(err.value) == "action 'drop' has no field(s) ['x']; fields: []"


# -- the server -----------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'test.sqlite3'}", pool="thread", workers_n=1, rates=TEST_RATES
    )
    with TestClient(app) as c:
        yield c


def refused(client: TestClient, lang: str, body: dict[str, Any]) -> str:
    answer = client.post("/api/tables", json=body, headers={"Accept-Language": f"{lang},en;q=0.5"})
    assert answer.status_code == 400, answer.text
    error: str = answer.json()["error"]
    return error


TABLE = {"game": "arne", "seats": ["open", "open"]}
SERVER_ERRORS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "a whole number": (
        {**TABLE, "options": {"hand_size": "x"}},
        {
            "de": "Option 'hand_size' muss eine ganze Zahl sein, nicht 'x'",
            "nl": "optie 'hand_size' moet een geheel getal zijn, niet 'x'",
            "ru": "настройка 'hand_size' должна быть целым числом, а не 'x'",
        },
    ),
    "one of": (
        {**TABLE, "options": {"mode": "x"}},
        {
            "de": "arne: Option 'mode' = 'x' ist nicht erlaubt; erlaubt: einer der Werte "
            "'normal', 'losing'",
            "nl": "arne: optie 'mode' = 'x' is niet toegestaan; toegestaan: een van 'normal', "
            "'losing'",
            "ru": "arne: настройка 'mode' = 'x' недопустима; можно: одно из значений 'normal', "
            "'losing'",
        },
    ),
    "the seed": (
        {**TABLE, "seed": "x"},
        {
            "de": "'seed' muss eine ganze Zahl von 0 bis 2^63 - 1 sein",
            "nl": "'seed' moet een geheel getal van 0 tot en met 2^63 - 1 zijn",
            "ru": "'seed' должен быть целым числом от 0 до 2^63 - 1",
        },
    ),
    "the game's type": (
        {**TABLE, "game": 5},
        {
            "de": "'game' muss eines von arne, drop-it, drop-or-stop sein",
            "nl": "'game' moet een van arne, drop-it, drop-or-stop zijn",
            "ru": "'game' должен быть одним из: arne, drop-it, drop-or-stop",
        },
    ),
    "no such game": (
        {**TABLE, "game": "chess"},
        {
            "de": "kein Spiel 'chess'; Spiele: arne, drop-it, drop-or-stop",
            "nl": "geen spel 'chess'; spellen: arne, drop-it, drop-or-stop",
            "ru": "нет игры 'chess'; игры: arne, drop-it, drop-or-stop",
        },
    ),
    "the clock": (
        {**TABLE, "settings": {"clock": "x"}},
        {
            "de": "Einstellung 'clock' muss einer der Werte off, relaxed, normal, fast sein",
            "nl": "instelling 'clock' moet een van off, relaxed, normal, fast zijn",
            "ru": "параметр 'clock' должен быть одним из: off, relaxed, normal, fast",
        },
    ),
    "a setting's seconds": (
        {**TABLE, "settings": {"turn_seconds": 99999}},
        {
            "de": "Einstellung 'turn_seconds' muss zwischen 0 und 3600 Sekunden liegen",
            "nl": "instelling 'turn_seconds' moet tussen 0 en 3600 seconden liggen",
            "ru": "параметр 'turn_seconds' должен быть от 0 до 3600 секунд",
        },
    ),
    "the seats": (
        {"game": "drop-or-stop", "seats": ["open"], "options": {"players": 2}},
        {
            "de": "drop-or-stop hat mit diesen Optionen 2 Plätze; angegeben wurden 1",
            "nl": "drop-or-stop heeft met deze opties 2 plaatsen; er zijn er 1 opgegeven",
            "ru": "в drop-or-stop с этими настройками мест: 2; указано: 1",
        },
    ),
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_tables_errors_in_the_requests_language(client: TestClient, lang: str) -> None:
    for what, (body, said) in SERVER_ERRORS.items():
        assert refused(client, lang, body) == said[lang], what
    english = client.post("/api/tables", json={**TABLE, "options": {"hand_size": "x"}})
    assert english.json()["error"] == "option 'hand_size' must be a whole number, got 'x'"


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_table_setting_a_language_and_a_query_in_the_requests_language(
    client: TestClient, lang: str
) -> None:
    headers = {"Accept-Language": lang}
    said = refused(client, lang, {**TABLE, "settings": {"nosuch": 1}})
    start = {"de": "keine Tischeinstellung 'nosuch'; Einstellungen: clock, ",
             "nl": "geen tafelinstelling 'nosuch'; instellingen: clock, ",
             "ru": "нет параметра стола 'nosuch'; параметры: clock, "}  # fmt: skip
    assert said.startswith(start[lang]), said
    answer = client.post("/api/account/language", json={"language": "xx"}, headers=headers)
    assert answer.status_code == 400
    assert (
        answer.json()["error"]
        == {
            "de": "'language' muss eine von en, de, nl, ru sein",
            "nl": "'language' moet een van en, de, nl, ru zijn",
            "ru": "'language' должен быть одним из: en, de, nl, ru",
        }[lang]
    )
    query = client.get("/api/tables?limit=abc", headers=headers)
    assert query.status_code == 400
    assert (
        query.json()["error"]
        == {
            "de": "'query.limit': muss eine ganze Zahl sein; der Text ist keine",
            "nl": "'query.limit': moet een geheel getal zijn; de tekst is er geen",
            "ru": "'query.limit': нужно целое число; текст не читается как число",
        }[lang]
    )
    limits = client.get("/api/tables?limit=0", headers=headers)
    assert (
        limits.json()["error"]
        == {
            "de": "limit ist 1..200 und offset 0..1000000",
            "nl": "limit is 1..200 en offset 0..1000000",
            "ru": "limit: 1..200, offset: 0..1000000",
        }[lang]
    )


def socket_headers(tid: str, token: str, lang: str) -> dict[str, str]:
    return {**cookie(tid, token), "accept-language": f"{lang},en;q=0.5"}


def answer_to(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """The reply (a refusal) to `message`, skipping other messages."""
    ws.send_text(json.dumps(message))  # (NaN and Infinity too, as Python's json reads them)
    while True:
        reply: dict[str, Any] = ws.receive_json()
        if reply["type"] in ("refused", "chat_refused"):
            return reply


MESSAGES: list[tuple[dict[str, Any], dict[str, str]]] = [
    (
        {"type": "act", "action": {"type": "fly"}},
        {
            "de": "unbekannte Zugart 'fly'; bekannt: drop, stop",
            "nl": "onbekende soort zet 'fly'; bekend: drop, stop",
            "ru": "неизвестный тип хода 'fly'; есть: drop, stop",
        },
    ),
    (
        {"type": "act", "action": [1, "x"]},
        {
            "de": "ein Zug ist ein JSON-Objekt mit einem 'type', nicht [1, 'x']",
            "nl": "een zet is een JSON-object met een 'type', niet [1, 'x']",
            "ru": "ход — это JSON-объект с полем 'type', а не [1, 'x']",
        },
    ),
    (
        {"type": "act", "action": {"type": "stop", "how": "fast"}},
        {
            "de": "Zug 'stop' kennt die Felder ['how'] nicht; Felder: []",
            "nl": "zet 'stop' kent de velden ['how'] niet; velden: []",
            "ru": "у хода 'stop' нет полей ['how']; поля: []",
        },
    ),
    (
        {"type": "seen", "version": "x"},
        {
            "de": "'seen' braucht die ganze Zahl 'version', die die Seite zeigt",
            "nl": "'seen' heeft het gehele getal 'version' nodig dat de pagina toont",
            "ru": "для 'seen' нужно целое число 'version', которое показывает страница",
        },
    ),
    (
        {"type": "auto_pass", "on": "x"},
        {
            "de": "'on' muss true oder false sein",
            "nl": "'on' moet true of false zijn",
            "ru": "'on' должен быть true или false",
        },
    ),
]


@pytest.mark.parametrize("lang", LANGS)
def test_a_malformed_table_message_is_answered_in_the_pages_language(
    client: TestClient, lang: str
) -> None:
    tid, ann, _bob = two_people(client, options={"players": 2})
    with client.websocket_connect(
        f"/ws/tables/{tid}", headers=socket_headers(tid, ann, lang)
    ) as ws:
        version = receive_state(ws)["version"]
        for message, said in MESSAGES:
            if message["type"] == "act":
                message = {**message, "version": version}
            assert answer_to(ws, message)["reason"] == said[lang], message
    with client.websocket_connect("/ws/tables/nope", headers={"accept-language": lang}) as ws:
        assert ws.receive_json() == {
            "type": "error",
            "reason": {"de": "Kein Tisch 'nope'", "nl": "Geen tafel 'nope'",
                       "ru": "Нет стола 'nope'"}[lang],
        }  # fmt: skip


# -- any JSON, any text -----------------------------------------------------------------------
# JSON as a page or a program may send it (text without control characters: those are
# refused before, in their own words).
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


def one_translated_line(error: BaseException, lang: str) -> str:
    said = translate(error.args[0], lang)
    assert said and len(said.splitlines()) == 1, said
    return said


def games_own(error: BaseException) -> bool:
    """Raised by a game's own options check (games/<game>/options.py, whose words are not
    in the catalogues yet: see the report of issue 46)?"""
    tb = error.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and "/games/" in last and last.endswith("/options.py")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(games()), st.data(), JSON, st.sampled_from(LANGS))
def test_any_json_as_any_option_gives_one_translated_line(
    game: str, data: st.DataObject, value: Any, lang: str
) -> None:
    """What the lobby and the command line do with an option: the server's checks
    (check_untrusted), then the game's (load). Only BadInput, on one line; the engine's
    sentences translated."""
    names = [f.name for f in dataclasses.fields(options_class(game))]
    name = data.draw(st.sampled_from([*names, "nosuch"]))
    try:
        check_untrusted(options_class(game), {name: value}, game)
        load(game, **{name: value})
    except BadInput as error:
        said = one_translated_line(error, lang)
        if not games_own(error):
            reason = error.args[0]
            assert isinstance(reason, Reason) and reason.package == "gamenight", reason
            assert said != str(reason), (lang, said)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(games()), JSON, st.sampled_from(LANGS))
def test_any_json_as_a_move_gives_one_translated_line(game: str, obj: Any, lang: str) -> None:
    """A move's JSON that is not one of the game's actions: a sentence of the engine's
    codec, translated; one that is, but not legal now: the rules' reason, translated."""
    state = load(game).start(3)
    try:
        action = state.game.action_from_json(obj)
    except BadInput as error:
        said = one_translated_line(error, lang)
        assert said != str(error), (lang, said)
        return
    for seat in range(state.game.players):
        reason = state._refusal(seat, action)
        if reason is not None:
            assert isinstance(reason, Reason), reason
            said = translate(reason, lang)
            assert len(said.splitlines()) == 1 and said != str(reason), (lang, said)


def test_any_json_as_a_tables_option_or_move_over_http_and_the_socket(tmp_path: Path) -> None:
    """The same through the server: a new table with any option value is made (201) or
    refused (400) in one line in German, never a 500; any JSON as a move from the seat
    that is not to act is refused in one German line."""
    app = create_app(
        f"sqlite:///{tmp_path / 'any.sqlite3'}", pool="thread", workers_n=1, rates=TEST_RATES
    )
    with TestClient(app) as client:
        names = [f.name for f in dataclasses.fields(options_class("drop-or-stop"))]

        @settings(max_examples=60, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
        @given(st.sampled_from(names), JSON)
        def a_table(name: str, value: Any) -> None:
            body = {"game": "drop-or-stop", "seats": ["open", "open"], "options": {name: value}}
            sent = json.dumps(body)  # (NaN and Infinity too, as Python's json reads them)
            kind = {"content-type": "application/json"}
            answer = client.post(
                "/api/tables", content=sent, headers={**kind, "Accept-Language": "de"}
            )
            assert answer.status_code in (201, 400), answer.text
            if answer.status_code == 400:
                error = answer.json()["error"]
                assert isinstance(error, str) and len(error.splitlines()) == 1, error
                english = client.post("/api/tables", content=sent, headers=kind).json()["error"]
                try:
                    check_untrusted(options_class("drop-or-stop"), {name: value}, "drop-or-stop")
                    load("drop-or-stop", **{name: value})
                except BadInput as err:
                    if not games_own(err):
                        assert error != english, error

        a_table()
        tid, ann, bob = two_people(client, options={"players": 2})
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
            first = receive_state(ws)
            waiting = bob if first["view"]["to_act"] == 0 else ann
        headers = socket_headers(tid, waiting, "de")
        with client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
            version = receive_state(ws)["version"]

            @settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
            @given(JSON)
            def a_move(obj: Any) -> None:
                reply = answer_to(ws, {"type": "act", "version": version, "action": obj})
                assert reply["type"] == "refused"
                reason = reply["reason"]
                assert len(reason.splitlines()) == 1, reason
                try:
                    load("drop-or-stop", players=2).action_from_json(obj)
                except BadInput as error:
                    assert reason == translate(error.args[0], "de") != str(error)
                    return
                assert reason.startswith("Du bist nicht am Zug: es wird auf "), reason

            a_move()


def test_every_engine_template_names_only_its_own_words() -> None:
    """A translation that names a word its sentence lacks would fall back to English: each
    of de/nl/ru names only the English template's words."""
    from gamenight.i18n import translations

    for template in ENGINE_TEMPLATES:
        names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        for lang in LANGS:
            said = translations(lang).gettext(template)
            assert said != template or not names, (lang, template)
            assert {f for _, f, _, _ in string.Formatter().parse(said) if f} <= names


ENGINE_TEMPLATES = (
    "option '{name}' must be a whole number, got {value}",
    "{game} option '{name}' = {value} is not allowed: {allowed}",
    "one of {choices}",
    "field '{name}': {value} fits none of {types}",
    "{game} option '{name}' = {value} is above this server's ceiling {ceiling}",
    "setting 'clock' must be one of {modes}",
    "'game' must be one of {games}",
    "{action} is not legal now; legal: {legal}",
)
