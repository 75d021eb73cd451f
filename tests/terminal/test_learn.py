"""`gamenight learn GAME` (issue 46, items 1 and 5): the guided first game at the terminal,
followed to its end; a wrong move is refused with the reason and asked again."""

from __future__ import annotations

from tests.terminal.helpers import assert_one_line_error, gamenight


def test_learn_drop_or_stop_followed_to_the_end() -> None:
    # Enter (look), a typo, STOP where DROP is asked, then d; s; Enter; Enter
    run = gamenight("learn", "drop-or-stop", keys="\nx\ns\nd\ns\n\n\n")
    assert run.code == 0, run
    text = " ".join(run.out.split())
    assert "Step 1 of 5" in text and "Step 5 of 5" in text
    assert "type d (drop) or s (stop), not 'x'" in text
    assert "Not yet: 5 is far from 11, so draw a card first. Press DROP." in text
    assert "-> drop (d): draw one card face up" in text  # the step's move, marked
    assert "1 + 4 + FLEX make 10 for you" in text  # what happened and why
    assert "Bot is player 2" in text
    assert "player 2: [5] [3] + [FLEX] [5] = OVERFLOW" in text  # the reveal
    assert "Game over: player 1 wins." in text
    assert text.count("Done. ") == 5 and "until someone has turned over all 3" in text


def test_learn_an_unknown_game_is_one_line() -> None:
    assert_one_line_error(gamenight("learn", "chess"))


def test_learn_stops_when_the_input_ends() -> None:
    run = gamenight("learn", "drop-or-stop", keys="\n")
    assert run.code != 0 and "Traceback" not in run.out + run.err


def test_learn_arne_followed_to_the_end() -> None:
    # the colour, the 1000, the tripler, the lock, Draw three, a wrong number, the -200, Enter
    run = gamenight("learn", "arne", keys="1\n3\n4\n2\n6\n1\n2\n\n")
    assert run.code == 0, run
    text = " ".join(run.out.split())
    assert "Step 1 of 7" in text and "Step 7 of 7" in text
    assert "-> play purple 1000 to display 1" in text
    assert "Not this time: lay the -200 in Bot's orange display." in text  # "1" is pass
    assert "final round: player 2 and player 1 play once more" in text
    assert "game 1 scores: player 1: 3000, player 2: 500" in text
    assert text.count("Done. ") == 7


def test_learn_drop_it_followed_to_the_end() -> None:
    # Enter (choose), a wrong spot, the circle at 170, Enter, Enter, the triangle
    keys = "\nyellow circle 120 0\nyellow circle 170 0\n\n\nred triangle 170 45\n"
    run = gamenight("learn", "drop-it", keys=keys)
    assert run.code == 0, run
    text = " ".join(run.out.split())
    assert "Step 1 of 5" in text and "Step 5 of 5" in text
    assert "Not this time: drop your yellow circle on the bonus circle at the bottom right." in text
    assert "side 1 scores 3; total 3" in text and "side 2 scores 0; total 0" in text
    assert "side 1 scores 1; total 4" in text
    assert text.count("Done. ") == 5


def test_learn_drop_or_stop_in_german() -> None:
    """LANG=de_DE.UTF-8: the script's words from the game's German catalogue, the guide's
    own from the platform's; a move the step does not ask for is refused in German."""
    import subprocess

    from tests.terminal.helpers import GAMENIGHT, environment

    env = environment(LANG="de_DE.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="100")
    run = subprocess.run(
        [*GAMENIGHT, "learn", "drop-or-stop"],
        env=env,
        input="\ns\nd\ns\n\n\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "Lerne Drop or Stop" in text and "Du bist Spieler 1; Bot ist Spieler 2." in text
    assert "Schritt 1 von 5" in text and "Schritt 5 von 5" in text
    assert "Schritt 2 von 5: Drücke DROP, um eine Karte offen zu ziehen." in text
    assert "Noch nicht: 5 ist weit von 11 entfernt" in text  # STOP where DROP is asked
    assert "1 + 4 + FLEX ergeben für dich 10" in text  # what happened and why
    assert text.count("Erledigt. ") == 5 and "alle 3 Wertungskarten umgedreht hat" in text
    assert "Press DROP" not in text and "Step 1 of" not in text
