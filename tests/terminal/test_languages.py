"""The terminal speaks the language of LANG / LC_ALL / LANGUAGE (issue 46, item 4)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.terminal.helpers import GAMENIGHT, environment


def run_in(lang: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = environment(LANG=lang, LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="100")
    return subprocess.run(
        [*GAMENIGHT, *argv], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_gamenight_games_in_german() -> None:
    run = run_in("de_DE.UTF-8", "games")
    assert run.returncode == 0, run.stderr
    header = run.stdout.splitlines()[1]
    assert "Spiel" in header and "Spieler" in header and "Optionen" in header, run.stdout
    assert "gerade" in run.stdout  # Arne's team game: "4-12, gerade"
    assert "players" not in header and not re.search(r"\beven\b", run.stdout)


def test_the_rules_in_russian_and_dutch_and_a_card_by_its_translated_name() -> None:
    run = run_in("ru_RU.UTF-8", "rules", "drop-or-stop")
    assert run.returncode == 0, run.stderr
    assert "Drop or Stop: правила" in run.stdout and "Цель игры" in run.stdout
    assert all(len(line) <= 80 for line in run.stdout.splitlines())
    card = run_in("nl_NL.UTF-8", "rules", "arne", "Keer om!")
    assert card.returncode == 0, card.stderr
    assert card.stdout.startswith("Keer om!:") and "(A35, A37, A51)" in card.stdout


def test_an_error_line_in_german_and_english_under_c() -> None:
    run = run_in("de_DE.UTF-8", "rules", "chess")
    assert run.returncode != 0
    assert run.stderr.startswith("Fehler: kein Spiel 'chess'"), run.stderr
    plain = run_in("C", "rules", "chess")
    assert plain.stderr.startswith("error: no game 'chess'"), plain.stderr


def test_options_and_bots_in_russian_plural_forms_included() -> None:
    bots = run_in("ru_RU.UTF-8", "bots", "drop-or-stop")
    assert bots.returncode == 0, bots.stderr
    assert "параметры" in bots.stdout and "(по умолчанию)" in bots.stdout
    assert "(3 игрока)" in bots.stdout  # 3 is Russian's "few" form
    options = run_in("de_DE.UTF-8", "options", "arne")
    assert options.returncode == 0, options.stderr
    assert "Optionen von arne" in options.stdout and "Vorgabe" in options.stdout


def test_every_options_help_in_the_terminals_language() -> None:
    """Issue 46, item 4: `gamenight options GAME` says what each option means in LANG's
    language (the game's catalogue); the names and values are still typed in English."""

    def wide(lang: str, *argv: str) -> subprocess.CompletedProcess[str]:
        env = environment(LANG=lang, LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="400")
        return subprocess.run(
            [*GAMENIGHT, *argv], env=env, capture_output=True, text=True, timeout=120, check=True
        )

    options = wide("ru_RU.UTF-8", "options", "drop-or-stop")
    flat = " ".join(options.stdout.split())
    assert "наибольшая сумма без перелива (TARGET)" in flat, options.stdout
    assert "номер игрока (1 — первый игрок) или random" in flat
    assert "target" in flat and "first_start_seat" in flat
    assert "the highest total" not in flat and "number of players" not in flat
    german = wide("de_DE.UTF-8", "options", "arne")
    flat = " ".join(german.stdout.split())
    assert "Richtungswechsel: die Richtung umkehren" in flat, german.stdout
    assert "(Strohmann-Spiel: 2-5; Teamspiel: 4-12, gerade)" in flat  # the players' row
    assert "dummy variant" not in flat and "team variant" not in flat
    teams = wide("nl_NL.UTF-8", "games")
    assert "2-4 (met teams: 2-6)" in teams.stdout, teams.stdout


def test_a_typed_unavailable_move_is_refused_in_german() -> None:
    """Issue 46 item 3: the rules' reason in LANG's language (the game's catalogue), the
    piece's name from the platform's."""
    env = environment(LANG="de_DE.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="100")

    def play(*argv: str, keys: str) -> str:
        run = subprocess.run(
            [*GAMENIGHT, "play", *argv], env=env, input=keys, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        return run.stdout

    arne = play("arne", "--seats", "you,bot:random", "--seed", "3", keys="lock 1 1\n")
    assert "Du kannst noch keine Karten spielen: zuerst wählt jeder eine Farbe" in arne
    assert "you can't" not in arne
    keys = "blue circle 100 0\n"
    drop_it = play("drop-it", "--seats", "you,bot:random", "--seed", "2", keys=keys)
    assert "Du kannst „blauer Kreis“ nicht fallen lassen: es ist keins deiner Teile" in drop_it


def play_in(lang: str, *argv: str, keys: str) -> subprocess.CompletedProcess[str]:
    env = environment(LANG=lang, LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="100")
    return subprocess.run(
        [*GAMENIGHT, "play", *argv], env=env, input=keys, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


# A typo, then drop and stop by turns (a drop refused over the target is asked again).
DROP_OR_STOP_KEYS = "fly\n" + "d\ns\n" * 60


def test_drop_or_stop_table_in_german_played_to_the_end() -> None:
    """The table's headings, moves, log lines and input errors from the game's German
    catalogue; the keys typed (d, s) stay as they are."""
    run = play_in("de_DE.UTF-8", "drop-or-stop", "--seats", "you,bot", "--seed", "1",
                  keys=DROP_OR_STOP_KEYS)  # fmt: skip
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert "Drop or Stop – Runde 1 (wer zuerst 3 Runden gewinnt)" in text
    assert "Spieler 1 (du), dein Zug" in text
    assert "drop  (d): eine Karte offen ziehen" in text and "stop  (s): behalten" in text
    assert "tippe d (drop) oder s (stop), nicht 'fly'" in text
    assert re.search(r"Spieler [12] zieht offen: \[", text)
    assert "Runde 1: Spieler 1 hat die Startkarte" in text and "Deine Hand:" in text
    assert "Spiel vorbei:" in text and "Ergebnis" in text
    for english in ("round", "face up", "your move", "Your hand", "draw pile", "drops:", "wins"):
        assert english not in text, english


def test_drop_or_stop_table_in_russian_played_to_the_end() -> None:
    run = play_in("ru_RU.UTF-8", "drop-or-stop", "--seats", "you,bot", "--seed", "1",
                  keys=DROP_OR_STOP_KEYS)  # fmt: skip
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert "Drop or Stop — раунд 1" in text and "игрок 1 (вы), ваш ход" in text
    assert "drop  (d): взять одну карту в открытую" in text
    assert "введите d (drop) или s (stop), а не 'fly'" in text
    assert "Игра окончена:" in text and "итог" in text
    for english in ("round", "face up", "your move", "Your hand", "draw pile", "drops:", "wins"):
        assert english not in text, english


# Issue 46 item 4: Arne's and Drop It's tables in LANG's words, as Drop or Stop's.
ENGLISH_ARNE = ("display", "draw pile", "your hand", "choose colour", "takes", "your move")


def test_arne_table_in_german_chosen_by_shown_or_english_words() -> None:
    """The headings, the moves, the log and the end line from the catalogues; a move is
    typed by the words shown ("lila") or by the English ones ("orange" is also German)."""
    run = play_in("de_DE.UTF-8", "arne", "--seats", "you,bot:random", "--seed", "3",
                  keys="lila\n2\n")  # fmt: skip
    text = run.stdout
    assert "Arne – Spiel 1 – am Zug: Spieler 1 (du), im Uhrzeigersinn" in text
    assert "Auslage" in text and "Nachziehstapel 42   Ablagestapel 0" in text
    assert "1. Farbe wählen: lila" in text and "Spieler 1 nimmt lila" in text
    assert "deine Hand:" in text and "Chamäleon" in text and "Dieb" in text
    assert "abwerfen: lila 50" in text and "schwarze Karten dürfen jetzt antworten" in text
    assert "Spiel nicht beendet" in run.stderr
    for english in ENGLISH_ARNE:
        assert english not in text, english
    by_english = play_in("de_DE.UTF-8", "arne", "--seats", "you,bot:random", "--seed", "3",
                         keys="purple\n")  # fmt: skip
    assert "Spieler 1 nimmt lila" in by_english.stdout


def test_arne_table_in_russian_with_a_refusal_in_russian_words() -> None:
    run = play_in("ru_RU.UTF-8", "arne", "--seats", "you,bot:random", "--seed", "3",
                  keys="раздавить 1 1\nоранж\n2\n")  # fmt: skip
    text = run.stdout
    assert "Arne — игра 1 — ходит игрок 1 (вы), по часовой" in text
    assert "игрок 1 (вы), ваш ход: Вы пока не можете играть карты" in text
    assert "2. выбрать цвет: оранжевый" in text and "игрок 1 берёт цвет «оранжевый»" in text
    assert "ваша рука:" in text and "колода 25   сброс 0" in text and "хамелеон" in text
    assert "игра не закончена" in run.stderr
    for english in ENGLISH_ARNE:
        assert english not in text, english


ENGLISH_DROP_IT = ("side", "pieces left", "drops the", "reaches level", "Type the line", "picture")


def test_drop_it_table_in_german_and_russian(tmp_path: Path) -> None:
    """Headings, piece lines, the hint, drops and scores, the picture line and input errors
    in LANG's words; a piece is typed by its name in LANG's words ("rot kreis"), in English,
    or by its line number (issue 46: pieces typed by their names in the person's language)."""
    keys = "lila kreis 100 0\nrot kreis 100 0\n1 120 0\n"
    argv = ("drop-it", "--seats", "you,bot:random", "--seed", "2", "--pictures", str(tmp_path))
    de = play_in("de_DE.UTF-8", *argv, keys=keys).stdout
    assert "Drop It – Zug 1/36 (Farbränder)" in de and "übrige Formen" in de
    assert "1. ● roter Kreis: x von 20.5 bis 219.5 mm bei Winkel 0" in de
    assert "Tippe die Zeilennummer oder die Form, dann x (mm)" in de and "'roter Kreis 120" in de
    assert "'lila' ist weder eine Farbe (rot, gelb, blau, grün)" in de
    assert "Spieler 1 (Seite 1) wirft: roter Kreis bei x 100 mm" in de
    assert "Spieler 1 (Seite 1) wirft: roter Kreis bei x 120 mm, 0 Grad: roter Kreis erreicht" in de
    assert "Seite 1 bekommt" in de and "Bild: " in de
    ru = play_in("ru_RU.UTF-8", *argv, keys=keys).stdout
    assert "Drop It — ход 1/36 (края по цвету)" in ru and "осталось фигур" in ru
    assert "Введите номер строки или фигуру, затем x (мм)" in ru
    assert "игрок 1 (сторона 1) бросает: красный круг, x 120 мм" in ru
    for text in (de, ru):
        for english in ENGLISH_DROP_IT:
            assert english not in text, english


def test_the_shared_table_words_in_german() -> None:
    """cli/table.py's own lines a player reads while playing: the pages of moves."""
    from gamenight import i18n
    from gamenight.cli.table import menu_pages

    with i18n.use("de"):
        pages = menu_pages([f"move {i}" for i in range(60)], 40, 6)
    assert pages[0][-1].startswith("  ... noch ") and pages[0][-1].endswith(": drücke Enter")
    assert pages[-1][-1] == "  ... zurück zum Anfang: drücke Enter"
