"""The terminal speaks the language of LANG / LC_ALL / LANGUAGE (issue 46, item 4)."""

from __future__ import annotations

import re
import subprocess

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
    assert "Drop or Stop — раунд 1" in text and "игрок 1 (ты), твой ход" in text
    assert "drop  (d): взять одну карту в открытую" in text
    assert "введи d (drop) или s (stop), а не 'fly'" in text
    assert "Игра окончена:" in text and "итог" in text
    for english in ("round", "face up", "your move", "Your hand", "draw pile", "drops:", "wins"):
        assert english not in text, english
