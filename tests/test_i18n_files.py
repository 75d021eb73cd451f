"""Issue 46: a board file's, a deck file's and a simulation's errors in the reader's language.

Drop It's board file (`--set board=FILE`) and Drop or Stop's deck file (`--set deck=FILE`)
are refused in sentences of the game's own catalogue, the part of the file they name
("boundary 1", "deck file my.json") translated with them; `simulate`, `report` and
`tournament` refuse in sentences of the platform's; a bot parameter the game cannot use
(ISMCTS's `widen` without a ranking heuristic) is refused when the seat is made, in one
line, not mid-game as an unexpected error; a server's limit of tables of only bots is said
in the request's language. German "du", Russian "вы"; English as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.games.drop_it.board import DEFAULT_BOARD
from gamenight.games.drop_or_stop.components import preset_json
from gamenight.server.app import create_app
from gamenight.server.live_table import Limits
from tests.server.conftest import TEST_RATES
from tests.terminal.helpers import gamenight

LOCALES = {"en": "C.UTF-8", "de": "de_DE.UTF-8", "nl": "nl_NL.UTF-8", "ru": "ru_RU.UTF-8"}
ERROR = {"en": "error", "de": "Fehler", "nl": "fout", "ru": "ошибка"}
LANGS = tuple(LOCALES)


@pytest.fixture
def terminal_in(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Sets the terminal's language (LANG) for the in-process `gamenight`."""

    def set_lang(lang: str) -> None:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", LOCALES[lang])

    return set_lang


def written(folder: Path, name: str, doc: Any) -> str:
    path = folder / name
    path.write_text(json.dumps(doc))
    return str(path)


# -- Drop It: a board file (--set board=FILE) ---------------------------------------------------
def board_missing_a_key() -> dict[str, Any]:
    return {"id": "mine"}


def board_with_a_bad_boundary() -> dict[str, Any]:
    """The shipped board with a point of level boundary 1 that is not a number: the
    sentence names the boundary in words (a part of the sentence, translated with it)."""
    doc = json.loads(DEFAULT_BOARD.read_text())
    doc["level_boundaries"][0]["polyline"][1] = [10, "x"]
    return doc


BOARDS: dict[str, tuple[Callable[[], dict[str, Any]], dict[str, str]]] = {
    "a missing key": (
        board_missing_a_key,
        {
            "en": "board: missing key 'drop_zone' (see spec §3.10)",
            "de": "Brett: der Schlüssel 'drop_zone' fehlt (siehe Spezifikation §3.10)",
            "nl": "bord: de sleutel 'drop_zone' ontbreekt (zie specificatie §3.10)",
            "ru": "поле: нет ключа 'drop_zone' (см. спецификацию, §3.10)",
        },
    ),
    "a boundary's point": (
        board_with_a_bad_boundary,
        {
            "en": "board: boundary 1 must be a finite number, got 'x'",
            "de": "Brett: Ebenengrenze 1 muss eine endliche Zahl sein, nicht 'x'",
            "nl": "bord: niveaugrens 1 moet een eindig getal zijn, niet 'x'",
            "ru": "поле: граница уровня 1 — нужно конечное число, а не 'x'",
        },
    ),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(BOARDS))
def test_a_board_files_problem_is_said_in_the_terminals_language(
    terminal_in: Callable[[str], None], tmp_path: Path, lang: str, case: str
) -> None:
    """`gamenight play drop-it --set board=FILE` with a file that is not a board."""
    make, said = BOARDS[case]
    board = written(tmp_path, "board.json", make())
    terminal_in(lang)
    run = gamenight("play", "drop-it", "--set", f"board={board}")
    assert run.code == 2, run
    assert run.err_lines == [f"{ERROR[lang]}: {said[lang]}"], run.err


# -- Drop or Stop: a deck file (--set deck=FILE) ------------------------------------------------
def deck_of_38() -> dict[str, Any]:
    doc = preset_json("standard")
    doc["deck"][0]["copies"] -= 1
    return doc


def deck_with_unknown_keys() -> dict[str, Any]:
    return {**preset_json("standard"), "colour": "red", "bonus": 2}


DECKS: dict[str, tuple[Callable[[], dict[str, Any]], dict[str, str]]] = {
    "38 cards": (
        deck_of_38,
        {
            "en": "deck file {file}: the deck has 38 cards; it must have exactly 39 (R2)",
            "de": "Deck-Datei {file}: das Deck hat 38 Karten; es müssen genau 39 sein (R2)",
            "nl": "stapelbestand {file}: de stapel heeft 38 kaarten; dat moeten er precies 39 "
            "zijn (R2)",
            "ru": "файл колоды {file}: карт в колоде: 38, а нужно ровно 39 (R2)",
        },
    ),
    "unknown keys": (
        deck_with_unknown_keys,
        {
            "en": "deck file {file}: unknown key(s) ['bonus', 'colour']",
            "de": "Deck-Datei {file}: unbekannte Schlüssel ['bonus', 'colour']",
            "nl": "stapelbestand {file}: onbekende sleutel(s) ['bonus', 'colour']",
            "ru": "файл колоды {file}: неизвестные ключи ['bonus', 'colour']",
        },
    ),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(DECKS))
def test_a_deck_files_problem_is_said_in_the_terminals_language(
    terminal_in: Callable[[str], None], tmp_path: Path, lang: str, case: str
) -> None:
    """`gamenight play drop-or-stop --set deck=FILE` with a file that is not a deck."""
    make, said = DECKS[case]
    deck = written(tmp_path, "deck.json", make())
    terminal_in(lang)
    run = gamenight("play", "drop-or-stop", "--set", f"deck={deck}")
    assert run.code == 2, run
    assert run.err_lines == [f"{ERROR[lang]}: {said[lang].format(file=deck)}"], run.err


# -- simulations: simulate, report ----------------------------------------------------------------
QUICK = ("--games", "1", "--workers", "1")
SIMULATIONS: dict[tuple[str, ...], dict[str, str]] = {
    ("simulate", "drop-or-stop", "--backend", "threads", *QUICK): {
        "en": "backend must be one of processes, ray, got 'threads'",
        "de": "das Backend muss eines von processes, ray sein, nicht 'threads'",
        "nl": "het backend moet een van processes, ray zijn, niet 'threads'",
        "ru": "бэкенд должен быть одним из: processes, ray, а не 'threads'",
    },
    ("report", "drop-or-stop", "--sweep", "deck", *QUICK): {
        "en": "--sweep takes option=v1,v2,..., got 'deck'",
        "de": "--sweep erwartet option=w1,w2,..., nicht 'deck'",
        "nl": "--sweep verwacht optie=w1,w2,..., niet 'deck'",
        "ru": "--sweep записывается как настройка=з1,з2,..., а не 'deck'",
    },
    # ISMCTS's widening where the game's heuristic ranks nothing: refused when the seat is
    # made (it was an "unexpected ValueError" at the bot's first search, in English)
    ("simulate", "drop-or-stop", "--bots", "ismcts?widen=2&iterations=5,random", *QUICK): {
        "en": "bot ismcts?widen=2&iterations=5: widen needs a heuristic with ranked(); "
        "drop-or-stop has none",
        "de": "Bot ismcts?widen=2&iterations=5: widen braucht eine Heuristik mit ranked(); "
        "drop-or-stop hat keine",
        "nl": "bot ismcts?widen=2&iterations=5: widen heeft een heuristiek met ranked() nodig; "
        "drop-or-stop heeft die niet",
        "ru": "бот ismcts?widen=2&iterations=5: для widen нужна эвристика с ranked(); "
        "в drop-or-stop её нет",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("argv", list(SIMULATIONS), ids=" ".join)
def test_a_simulations_refusal_is_said_in_the_terminals_language(
    terminal_in: Callable[[str], None], lang: str, argv: tuple[str, ...]
) -> None:
    terminal_in(lang)
    run = gamenight(*argv)
    assert run.code == 2, run
    assert run.err_lines == [f"{ERROR[lang]}: {SIMULATIONS[argv][lang]}"], run.err


def test_an_estimate_the_game_has_not_is_refused_when_the_seat_is_made() -> None:
    """`ismcts?estimate=NAME` naming no estimate of the game: a BadInput naming the seat
    from make_seat, before any search (it was a ValueError at the first search)."""
    import gamenight as gn
    from gamenight.bots import make_seat
    from gamenight.engine.core import BadInput
    from gamenight.i18n.refusals import translate

    game = gn.load("arne", players=2)
    with pytest.raises(BadInput) as err:
        make_seat("bot:ismcts?estimate=oracle&iterations=5", game, 0)
    assert str(err.value) == (
        "bot ismcts?estimate=oracle&iterations=5: arne has no estimate 'oracle'; estimates: "
        "state, margin"
    )
    assert translate(err.value.args[0], "de").startswith("Bot ismcts?estimate=oracle")


# -- the server: its limit of tables of only bots -------------------------------------------------
@pytest.fixture
def no_bot_tables(tmp_path: Path) -> Iterator[TestClient]:
    """A server that runs no table of only bots (its limit at 0: the refusal, at once)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'l.sqlite3'}",
        pool="thread",
        workers_n=1,
        rates=TEST_RATES,
        limits=Limits(bot_tables=0),
    )
    with TestClient(app) as client:
        yield client


BOT_TABLES = {
    "en": "this server runs at most 0 tables of only bots at once; try again when one has finished",
    "de": "dieser Server spielt höchstens 0 Tische nur mit Bots gleichzeitig; versuch es noch "
    "einmal, wenn einer fertig ist",
    "nl": "deze server speelt hoogstens 0 tafels met alleen bots tegelijk; probeer het opnieuw "
    "als er een klaar is",
    "ru": "на этом сервере одновременно идёт не больше 0 столов только с ботами; попробуйте "
    "снова, когда один из них закончится",
}


def test_the_limit_of_tables_of_only_bots_is_said_in_the_requests_language(
    no_bot_tables: TestClient,
) -> None:
    body = {"game": "drop-or-stop", "options": {"players": 2}, "seats": ["easy", "easy"]}
    table = no_bot_tables.post("/api/tables", json=body).json()["id"]
    for lang in LANGS:
        headers = {"Accept-Language": f"{lang},en;q=0.5"} if lang != "en" else {}
        answer = no_bot_tables.post(f"/api/tables/{table}/start", headers=headers)
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"] == BOT_TABLES[lang], lang
