"""Issue 46: every word of the command line in the terminal's language (German, Dutch,
Russian): the help of every command and option, typer's and click's own words (Usage:,
Options:, [default: ...], a wrong option), and what `simulate`, `bots` and `games` print.

Each command is run in English and in the language, and no English word of its English
output may be left in the translation, but for the names a person types (commands, options,
games, bots, option keys, levels, figures of `tune`), proper names and the few words each
language shares with English (Bot, Server, Port).
"""

from __future__ import annotations

import re
import subprocess
from functools import cache

import pytest

from gamenight import bots
from gamenight.cli.root import COMMANDS
from gamenight.cli.tune import FIGURE_NAMES
from gamenight.engine.options import describe_options
from gamenight.engine.registry import games, options_class
from gamenight.i18n import use
from tests.terminal.helpers import GAMENIGHT, Run, environment, gamenight

LANGUAGES = ("de", "nl", "ru")

# Names a person types, and the words of names (proper names, formats, programs) that are
# the same in every language.
NAMES = {
    "gamenight", "ray", "json", "html", "parquet", "sqlite", "postgresql", "redis", "url",
    "openskill", "maskableppo", "numpy", "utc", "png", "svg", "str", "path", "int", "you",
    "bot", "within", "mu", "sigma", "host", "param", "learned", "rn", "docs", "md", "npz",
    "dagger",  # an algorithm's name (Ross et al.)
    # values typed as they are: a backend, an address, a flag's default, a folder
    "processes", "auto", "false", "true", "yes", "no", "data",
}  # fmt: skip
# Words a language writes as English does (loanwords, or the same word).
SHARED = {
    "de": {"bots", "backend", "cluster", "client", "port", "shell", "server", "name", "engine",
           "lobby", "web", "app", "parameter", "extra", "training", "generation", "budget",
           "seed", "mode", "variant", "balance", "installation", "option", "terminal",
           "version", "browser", "format", "chat", "schema", "block", "tests", "argument"},
    "nl": {"bots", "backend", "cluster", "client", "shell", "server", "engine", "lobby", "app",
           "parameters", "extra", "training", "budget", "seed", "score", "scores", "run",
           "argument", "status", "variant", "modus", "webapp", "ratings", "rating", "comebacks",
           "mode", "of", "per", "is", "over", "set", "batch", "batches", "runtime", "term",
           "database", "accounts", "even", "terminal", "browser", "chat", "schema"},
    "ru": set(),
}  # fmt: skip


@cache
def typed_names() -> frozenset[str]:
    """Every word of a name a person types: commands, games, bots and levels, option keys,
    the figures of `tune`."""
    names: set[str] = set(COMMANDS) | set(games()) | set(bots.LEVELS)
    for game in games():
        names |= set(bots.available(game))
        names |= {row["name"] for row in describe_options(options_class(game))}
    names |= {word for figure in FIGURE_NAMES.split(", ") for word in figure.split()}
    words = {part.lower() for name in names for part in re.split(r"[-_ ]", name)}
    return frozenset(words | NAMES)


# What is typed rather than said: an option (--seats), a bot seat (bot:threshold), a key=value,
# a path or address, a `command`, a stat's key (start_won.rN).
TYPED = re.compile(r"`[^`]*`|--?[A-Za-z][\w-]*|\S*\w[:=/?_.]\w\S*|'[a-z]+'|\{[^}]*\}", re.UNICODE)


def english_words(text: str) -> set[str]:
    """The words of `text` written in Latin letters, lower case, without what is typed."""
    said = TYPED.sub(" ", text)
    return {word.lower() for word in re.findall(r"[A-Za-z]{2,}", said)}


def left_in_english(lang: str, english: str, translated: str) -> set[str]:
    words = english_words(english) & english_words(translated)
    return words - typed_names() - SHARED[lang]


def run(lang: str, *argv: str) -> Run:
    with use(lang):
        return gamenight(*argv)


def commands() -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [("--help",)]
    found += [(command, "--help") for command in COMMANDS]
    found += [("simulate", "drop-or-stop", "--games", "4", "--workers", "1"), ("bots",), ("games",)]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_and_listing_has_no_english_word_left(lang: str) -> None:
    for argv in commands():
        english, translated = run("en", *argv), run(lang, *argv)
        assert english.code == translated.code == 0, (argv, translated.err)
        assert english.out != translated.out, argv
        left = left_in_english(lang, english.out, translated.out)
        assert not left, (argv, sorted(left), translated.out)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wrong_option_is_one_line_in_the_language(lang: str) -> None:
    for argv in (
        ("play", "arne", "--option"),
        ("simulate", "drop-or-stop", "--games", "many"),
        ("simulate", "drop-or-stop", "--games", "0"),
        ("tournament", "arne"),
        ("simulate",),
        ("simulate", "arne", "x1"),
        ("plya",),
        ("play", "arne", "--open=yes"),
    ):
        english, translated = run("en", *argv), run(lang, *argv)
        assert translated.code == english.code == 2, (argv, translated)
        assert len(translated.err_lines) == 1, (argv, translated.err)
        assert english.err_lines[0].startswith("error: ")
        assert not translated.err_lines[0].startswith("error"), translated.err
        left = left_in_english(lang, english.err, translated.err)
        assert not left, (argv, sorted(left), translated.err)


def test_the_english_frame_is_typers_own() -> None:
    run_ = run("en", "play", "--help")
    assert run_.out.startswith("Usage: gamenight play [OPTIONS] {GAME}")
    assert "Options:" in run_.out and "Arguments:" in run_.out
    assert "Show this message and exit." in run_.out and "[default: you,bot,bot]" in run_.out
    wrong = run("en", "play", "arne", "--option")
    assert wrong.err_lines == [
        "error: No such option: --option (Possible options: --open) (see: gamenight play --help)"
    ]


def test_german_help_words_and_placeholders() -> None:
    out = run("de", "simulate", "--help").out
    assert out.startswith("Aufruf: gamenight simulate [OPTIONEN] {SPIEL}"), out
    assert "Optionen:" in out and "Argumente:" in out and "[Vorgabe: 1000; x>=1]" in out
    assert "--games ZAHL" in out and "--set OPTION=WERT" in out
    assert "Diese Hilfe zeigen und beenden." in out
    wrong = run("de", "play", "arne", "--option")
    assert wrong.err_lines == [
        "Fehler: Option --option gibt es nicht (mögliche Optionen: --open) "
        "(siehe: gamenight play --help)"
    ]


def test_russian_plurals_and_numbers_in_simulate() -> None:
    out = run("ru", "simulate", "drop-or-stop", "--games", "4", "--workers", "1").out
    flat = " ".join(out.split())
    assert "drop-or-stop: 4 партии, 3 игрока, настройки по умолчанию, зерно 0" in flat, out
    assert re.search(r"\d+,\d\xa0%", out), out  # 50,0 % (a comma, a space before the sign)
    german = run("de", "simulate", "drop-or-stop", "--games", "21", "--workers", "1").out
    assert "21 Partien, 3 Spieler" in " ".join(german.split()), german


def test_the_terminals_language_comes_from_lang() -> None:
    env = environment(LANG="nl_NL.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="", COLUMNS="100")
    done = subprocess.run(
        [*GAMENIGHT, "--help"], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.startswith("Gebruik: gamenight [OPTIES] OPDRACHT [ARGUMENTEN]...")
    assert "Opdrachten:" in done.stdout and "Deze hulp tonen en stoppen." in done.stdout


def test_exports_reasons_are_the_servers() -> None:
    """`export` says why a table was left out in the terminal's language: its msgids are the
    server's sentences."""
    from gamenight.cli.archive import LEFT_OUT
    from gamenight.server import archive

    reasons = (archive.BOTS_ONLY, archive.OPTED_OUT, archive.NAME_IN_OPTIONS, archive.NO_REPLAY)
    assert reasons == LEFT_OUT
