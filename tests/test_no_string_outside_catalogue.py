"""Issue 46: no sentence shown to a person is outside a catalogue (a test extracts and
compares).

Two halves:

- the code, read (AST): every refusal and error line of the engine, the games, the bots,
  the server, the command line, the simulations and `gamenight train` (`BadInput(...)`,
  `Refused(...)`, the CLI's `fail`/`warn`/`interrupted`, a game's refusal maker
  `refused(...)`, the template of `said`/`said_in`) says a sentence of a catalogue: a
  `Reason` (`said(N_("..."), ...)`, a game's `said_in(__package__, N_("..."))`), `_()`, or
  a value made elsewhere; never a plain literal or f-string with words. Each sentence
  marked there is extracted into the catalogue of the package that says it (a game's own
  sentence into its `game.po`, the platform's into `gamenight.po`) and translated in every
  language. The few left in English are named below, each with its reason.
- what people see: a game's own option checks, a bad bot seat or parameter and the guided
  game's refusals, in German (du), Dutch and Russian (вы), at the terminal (LANG) and from
  the server (Accept-Language); English unchanged.
"""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.engine.core import BadInput, Reason
from gamenight.engine.registry import load
from gamenight.i18n import package_dir, translations
from gamenight.i18n.build import Domain, domains, read, template
from gamenight.i18n.refusals import translate
from gamenight.server.app import create_app
from tests.server.conftest import TEST_RATES
from tests.terminal.helpers import GAMENIGHT, environment, gamenight

SRC = package_dir("gamenight")
LANGS = ("de", "nl", "ru")
LOCALES = {"de": "de_DE.UTF-8", "nl": "nl_NL.UTF-8", "ru": "ru_RU.UTF-8"}
ERROR = {"de": "Fehler", "nl": "fout", "ru": "ошибка"}

# -- the code, read ---------------------------------------------------------------------------
# Where sentences people read are said (issue 46): everything but the adapters for
# programs (gymnasium, OpenSpiel), the learning internals and the catalogues' own tools.
AREAS = ("engine", "games", "bots", "server", "cli", "sim", "learn/command.py")
# The calls whose argument at this position is a sentence a person reads.
SAYS = {
    "BadInput": 0,  # engine.core.BadInput: a refusal of input, shown by every surface
    "Refused": 0,  # server.live_table.Refused: a refusal of the server
    "fail": 0,  # cli.output: the command's one error line
    "warn": 0,  # cli.output: a notice line
    "interrupted": 0,  # cli.output: the line after Ctrl+C
    "refused": 0,  # a game's options.py: its refusal maker (a sentence of its game.po)
    "said": 0,  # engine.core.said: the template of a platform sentence
    "said_in": 1,  # engine.core.said_in(package, template)
}
MAKERS = ("said", "said_in", "refused", "Refused")  # calls taking a template marked N_

# Sentences meant for programmers, not people: (file, how the sentence starts) -> why.
FOR_PROGRAMMERS = {
    ("bots/__init__.py", "a bot name is letters"): "register(): a program names its bot",
    ("bots/__init__.py", "bot {}: the factory must"): "register(): a program's factory",
    ("bots/policy.py", "no saved model at"): "from_policy(path): a program's call",
    ("bots/policy.py", "from_policy takes"): "from_policy(): a program's argument",
    ("games/arne/game.py", "{} is not an action of"): "action_index: the learners' encoding",
    ("games/arne/game.py", "arne action index must"): "action_at: the learners' encoding",
    ("games/drop_it/game.py", "{} is not a Drop It"): "action_index: the learners' encoding",
    ("games/drop_it/game.py", "{} is not a piece (D33)"): "action_index: the learners' encoding",
    ("games/drop_or_stop/game.py", "drop-or-stop actions are"): "action_at: the encoding",
    # a move's piece id is written by the page and the terminal from the supply (the
    # terminal names a piece a person types in its own words: drop_it/terminal.py)
    ("games/drop_it/state.py", "{} is not a piece: use"): "a move's JSON, from a program",
    ("games/drop_it/state.py", "{} is not in the active"): "a move's JSON, from a program",
    # explicit chance outcomes: the OpenSpiel adapter's and the tests' interface
    ("games/arne/chance.py", "explicit chance needs"): "explicit chance: a program's setup",
    ("games/arne/chance.py", "{} is not one of"): "explicit chance: a program's outcome",
    ("games/arne/chance.py", "no {} is left to draw"): "explicit chance: a program's outcome",
    ("games/drop_or_stop/chance.py", "explicit chance needs"): "explicit chance: setup",
    ("games/drop_or_stop/chance.py", "no {} is left to draw"): "explicit chance: outcome",
    # a shipped file missing or broken: the installation's problem, for its maintainer
    ("games/drop_or_stop/equilibrium.py", "equilibrium policy"): "a shipped file, missing",
    ("games/drop_or_stop/equilibrium.py", "bot equilibrium: {}"): "a shipped file, unfit",
}
# Sentences people read that are still English: none now (issue 46). A new one is named
# here with its reason only while it waits for its catalogue.
NOT_YET: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Said:
    """One sentence of the code: where, which call, and its words ({} for a value)."""

    path: str  # relative to src/gamenight
    line: int
    call: str
    words: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call}({self.words!r}) is outside a catalogue"


def _callee(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _words(node: ast.expr) -> str | None:
    """The words of a sentence written in the code (a literal, an f-string, "..." + x,
    "...".format(), "..." % x) with {} for each value; None when the argument is made
    elsewhere (a Reason, `_()`, `N_()`, a name: a catalogue's, or checked where made)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values]
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        left, right = _words(node.left), _words(node.right)
        if left is None and right is None:
            return None
        return (left or "{}") + ("" if isinstance(node.op, ast.Mod) else right or "{}")
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        return _words(node.func.value)
    return None


def _files() -> Iterator[Path]:
    for area in AREAS:
        path = SRC / area
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def sentences_in(tree: ast.AST, path: str) -> Iterator[Said]:
    """Each sentence with words (a letter at least) that a call of SAYS in `tree` says as
    written, not from a catalogue."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        at = SAYS.get(_callee(node))
        if at is None or len(node.args) <= at:
            continue
        words = _words(node.args[at])
        if words is not None and any(ch.isalpha() for ch in words):
            yield Said(path, node.lineno, _callee(node), words)


@cache
def sentences() -> tuple[Said, ...]:
    """Every sentence written outside a catalogue in AREAS."""
    found: list[Said] = []
    for file in _files():
        rel = file.relative_to(SRC).as_posix()
        found += sentences_in(ast.parse(file.read_text(), rel), rel)
    return tuple(found)


def allowed(said: Said) -> bool:
    return any(
        said.path == path and said.words.startswith(start)
        for path, start in (*FOR_PROGRAMMERS, *NOT_YET)
    )


def test_no_sentence_a_person_reads_is_written_outside_a_catalogue() -> None:
    """Each sentence with words a refusal or error line says as written (a literal or an
    f-string, not `_()`, `N_()`, `said()` or a game's `refused()`) is a failure naming its
    file and line; FOR_PROGRAMMERS and NOT_YET name the ones left in English."""
    outside = [str(said) for said in sentences() if not allowed(said)]
    assert not outside, "\n".join(outside)


def test_every_sentence_left_in_english_is_still_there() -> None:
    """An entry of FOR_PROGRAMMERS or NOT_YET that matches nothing any more (the sentence
    was translated or removed) is taken out, so the lists stay what is left."""
    found = sentences()
    stale = [
        entry
        for entry in (*FOR_PROGRAMMERS, *NOT_YET)
        if not any(s.path == entry[0] and s.words.startswith(entry[1]) for s in found)
    ]
    assert not stale, stale


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan's own check: each way of writing a sentence outside a catalogue is found,
    each way through one is not."""
    code = """
raise BadInput("no such thing")
raise BadInput(f"no {thing} here")
raise Refused("too many " + str(n), 429)
fail("bad {x}".format(x=1))
raise refused("arne option 'x' is wrong")
said("not marked", x=1)
said_in(__package__, "not marked either")
raise BadInput(said(N_("fine {x}"), x=1))
raise BadInput(_("fine too"))
fail(f"{message}{hint}")
raise refused(N_("fine, the game's"), n=1)
raise Refused(N_("fine, the server's"))
raise BadInput(reason)
"""
    found = [said.words for said in sentences_in(ast.parse(code), "example.py")]
    assert found == [
        "no such thing",
        "no {} here",
        "too many {}",
        "bad {x}",
        "arne option 'x' is wrong",
        "not marked",
        "not marked either",
    ]


def _package_of(path: str, call: ast.Call) -> str:
    """The package whose catalogue holds the template of a `said`-like call in `path`."""
    if _callee(call) in ("said_in", "refused") and path.startswith("games/"):
        return "gamenight.games." + path.split("/")[1]
    return "gamenight"


def _domain(package: str) -> Domain:
    return next(
        d
        for d in domains()
        if ("gamenight" if d.name == "gamenight" else f"gamenight.games.{d.root.name}") == package
    )


@cache
def _extracted(package: str) -> frozenset[str]:
    """The messages `make i18n` extracts for `package`'s catalogue."""
    return frozenset(m.id for m in template(_domain(package)) if isinstance(m.id, str) and m.id)


@cache
def _translated(package: str, lang: str) -> frozenset[str]:
    """The messages `package`'s catalogue in `lang` translates (its `.po`; `--check` keeps
    the compiled `.mo` the same)."""
    po = read(_domain(package).po(lang), lang)
    return frozenset(m.id for m in po if isinstance(m.id, str) and m.id and m.string)


def marked_templates() -> Iterator[tuple[str, int, str, str]]:
    """(file, line, template, package) of each `said(N_("..."))`, `said_in(__package__,
    N_("..."))`, a game's `refused(N_("..."))` and the server's `Refused(N_("..."))`."""
    for file in _files():
        rel = file.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(file.read_text(), rel)):
            if not isinstance(node, ast.Call) or _callee(node) not in MAKERS:
                continue
            at = SAYS[_callee(node)]
            if len(node.args) <= at:
                continue
            arg = node.args[at]
            if (
                isinstance(arg, ast.Call)
                and _callee(arg) == "N_"
                and arg.args
                and isinstance(arg.args[0], ast.Constant)
            ):
                yield rel, node.lineno, str(arg.args[0].value), _package_of(rel, node)


def test_each_marked_sentence_is_extracted_into_its_own_catalogue_and_translated() -> None:
    """Extract and compare: the template of each Reason the code makes is extracted into
    the catalogue of the package that says it (a game's sentence said with the platform's
    `said` would be looked up where it is not) and translated in German, Dutch and
    Russian."""
    wrong = []
    seen = 0
    for path, line, message, package in marked_templates():
        seen += 1
        if message not in _extracted(package):
            wrong.append(f"{path}:{line}: {message!r} is not extracted into {package}'s catalogue")
            continue
        for lang in LANGS:
            if message not in _translated(package, lang):
                wrong.append(f"{path}:{line}: {message!r} has no {lang} translation ({package})")
    assert seen > 100, seen  # (the scan reads the code: the engine's, server's, games')
    assert not wrong, "\n".join(wrong)


# -- what people see: the terminal --------------------------------------------------------------
@pytest.fixture
def terminal_in(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Sets the terminal's language (LANG) for the in-process `gamenight`."""

    def set_lang(lang: str) -> None:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", LOCALES[lang])

    return set_lang


# A game's own option checks (its options.py, its catalogue)
GAME_OPTIONS: dict[tuple[str, ...], dict[str, str]] = {
    ("play", "arne", "--set", "players=9"): {
        "en": "arne standard game needs 2-6 players, got 9",
        "de": "arne: das Standardspiel braucht 2 bis 6 Spieler, nicht 9",
        "nl": "arne: het standaardspel heeft 2 tot en met 6 spelers nodig, niet 9",
        "ru": "arne: для стандартной игры нужно от 2 до 6 игроков, а не 9",
    },
    ("play", "arne", "--set", "variant=team", "--set", "players=5"): {
        "en": "arne team game needs an even number of players, got 5",
        "de": "arne: das Teamspiel braucht eine gerade Spielerzahl, nicht 5",
        "nl": "arne: het teamspel heeft een even aantal spelers nodig, niet 5",
        "ru": "arne: для командной игры нужно чётное число игроков, а не 5",
    },
    ("play", "arne", "--set", "colour_names=c5"): {
        "en": "arne option 'colour_names': write id=name pairs, got 'c5'",
        "de": "arne: Option 'colour_names': schreib Paare wie id=name, nicht 'c5'",
        "nl": "arne: optie 'colour_names': schrijf paren als id=name, niet 'c5'",
        "ru": "arne: настройка 'colour_names': пишите пары вида id=name, а не 'c5'",
    },
    ("play", "drop-it", "--set", "max_depth=-1"): {
        "en": "max_depth in mm must be 0 or more (D11)",
        "de": "max_depth in mm muss 0 oder mehr sein (D11)",
        "nl": "max_depth in mm moet 0 of meer zijn (D11)",
        "ru": "max_depth в мм не может быть меньше 0 (D11)",
    },
    ("play", "drop-it", "--set", "players=3", "--set", "seat_colours=red"): {
        "en": "seat_colours for 3 sides needs 1 distinct colour(s) per side from red, "
        "yellow, blue, green, like 'red,blue,green'; got 'red'",
        "de": "seat_colours braucht für 3 Seiten eine Farbe pro Seite, alle verschieden, "
        "aus red, yellow, blue, green, etwa 'red,blue,green'; nicht 'red'",
        "nl": "seat_colours heeft voor 3 kanten één kleur per kant nodig, allemaal "
        "verschillend, uit red, yellow, blue, green, zoals 'red,blue,green'; niet 'red'",
        "ru": "seat_colours: для 3 сторон нужно по одному цвету на сторону, все разные, "
        "из red, yellow, blue, green, например 'red,blue,green'; а не 'red'",
    },
    ("play", "drop-or-stop", "--set", "players=5"): {
        "en": "drop-or-stop needs 2-4 players (R1), got 5; change min_players/max_players "
        "to allow it",
        "de": "drop-or-stop braucht 2 bis 4 Spieler (R1), nicht 5; ändere "
        "min_players/max_players, um das zu erlauben",
        "nl": "drop-or-stop heeft 2 tot en met 4 spelers nodig (R1), niet 5; pas "
        "min_players/max_players aan om dat toe te staan",
        "ru": "drop-or-stop: число игроков — от 2 до 4 (R1), а не 5; чтобы это "
        "разрешить, измените min_players/max_players",
    },
}
# A bot seat, name or parameter (bots/)
BOT_SEATS: dict[tuple[str, ...], dict[str, str]] = {
    ("play", "arne", "--seats", "you,bot:nobody"): {
        "en": "arne has no bot 'nobody'; bots: greedy, ismcts, learned, openspiel-ismcts, "
        "random, rollout",
        "de": "arne hat keinen Bot 'nobody'; Bots: greedy, ismcts, learned, "
        "openspiel-ismcts, random, rollout",
        "nl": "arne heeft geen bot 'nobody'; bots: greedy, ismcts, learned, "
        "openspiel-ismcts, random, rollout",
        "ru": "в arne нет бота 'nobody'; боты: greedy, ismcts, learned, openspiel-ismcts, "
        "random, rollout",
    },
    ("play", "arne", "--seats", "you,nobody"): {
        "en": "a bot seat is 'bot', 'bot:NAME' or 'bot:NAME?param=value', got 'nobody'",
        "de": "ein Bot-Platz ist 'bot', 'bot:NAME' oder 'bot:NAME?param=wert', nicht 'nobody'",
        "nl": "een botplaats is 'bot', 'bot:NAAM' of 'bot:NAAM?param=waarde', niet 'nobody'",
        "ru": "место бота — это 'bot', 'bot:ИМЯ' или 'bot:ИМЯ?param=значение', а не 'nobody'",
    },
    ("play", "arne", "--seats", "you,bot:ismcts?iterations=0"): {
        "en": "bot ismcts?iterations=0: ismcts needs iterations >= 1 or seconds > 0",
        "de": "Bot ismcts?iterations=0: ismcts braucht iterations >= 1 oder seconds > 0",
        "nl": "bot ismcts?iterations=0: ismcts heeft iterations >= 1 of seconds > 0 nodig",
        "ru": "бот ismcts?iterations=0: для ismcts нужно iterations >= 1 или seconds > 0",
    },
    ("play", "drop-or-stop", "--seats", "you,bot:threshold?max_risk=2"): {
        "en": "bot threshold parameter 'max_risk' = 2.0: it is 0 to 1",
        "de": "Bot threshold: Parameter 'max_risk' = 2.0: erlaubt ist 0 bis 1",
        "nl": "bot threshold: parameter 'max_risk' = 2.0: toegestaan is 0 tot en met 1",
        "ru": "бот threshold: параметр 'max_risk' = 2.0: допустимо от 0 до 1",
    },
    ("play", "drop-or-stop", "--seats", "you,bot:random?depth=3"): {
        "en": "bot random has no parameter(s) ['depth']; parameters: ['seed']",
        "de": "Bot random kennt ['depth'] nicht; Parameter: ['seed']",
        "nl": "bot random kent ['depth'] niet; parameters: ['seed']",
        "ru": "у бота random нет параметров ['depth']; параметры: ['seed']",
    },
}
ERRORS = {**GAME_OPTIONS, **BOT_SEATS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("argv", list(ERRORS), ids=" ".join)
def test_the_terminal_says_a_games_option_or_a_bad_bot_in_its_language(
    terminal_in: Any, lang: str, argv: tuple[str, ...]
) -> None:
    terminal_in(lang)
    run = gamenight(*argv)
    assert run.code == 2, run
    assert run.err_lines == [f"{ERROR[lang]}: {ERRORS[argv][lang]}"], run.err


@pytest.mark.parametrize("argv", list(ERRORS), ids=" ".join)
def test_the_english_of_each_is_as_before(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    run = gamenight(*argv)
    assert run.code == 2 and run.err_lines == [f"error: {ERRORS[argv]['en']}"], run.err


def test_the_game_option_error_of_the_issue_in_german_in_a_new_process() -> None:
    """`LANG=de_DE.UTF-8 gamenight play arne --set players=9`, as the issue shows it."""
    env = environment(LANG="de_DE.UTF-8", LC_ALL="", LC_MESSAGES="", LANGUAGE="")
    run = subprocess.run([*GAMENIGHT, "play", "arne", "--set", "players=9"], env=env,
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert run.stderr == "Fehler: arne: das Standardspiel braucht 2 bis 6 Spieler, nicht 9\n"
    assert run.returncode == 2


def test_a_games_own_refusal_is_a_sentence_of_its_own_catalogue() -> None:
    """str() is the English sentence as before; the Reason names the game's package, whose
    catalogue translates it."""
    with pytest.raises(BadInput) as err:
        load("arne", players=9)
    reason = err.value.args[0]
    assert isinstance(reason, Reason) and reason.package == "gamenight.games.arne"
    assert str(err.value) == "arne standard game needs 2-6 players, got 9"
    with pytest.raises(BadInput) as err:
        load("arne", hand_size=30, players=6)
    assert str(err.value) == (
        "arne: 6 hands of 30 cards leave no draw pile from 134 cards (A4); hand_size must "
        "be at most 22"
    )
    assert translate(err.value.args[0], "de") == (
        "arne: 6 Hände mit je 30 Karten lassen von 134 Karten keinen Nachziehstapel übrig "
        "(A4); hand_size darf höchstens 22 sein"
    )
    with pytest.raises(BadInput) as err:
        load("drop-or-stop", players=4, hand_size=10)
    assert str(err.value) == "4 hands of 10 need more than 39 cards"
    assert translate(err.value.args[0], "ru") == (
        "раздать 4 × 10 карт на руки нельзя: в колоде всего 39 карт"
    )


# -- the guided game (gamenight learn) ----------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_the_guided_games_refusal_by_the_rules_is_in_the_terminals_language(
    terminal_in: Any, lang: str
) -> None:
    """`gamenight learn drop-it`, "keep" typed where a drop is asked: the rules refuse a
    joker's decision now (V3), said in LANG's words like every other line of the lesson."""
    terminal_in(lang)
    run = gamenight("learn", "drop-it", keys="\nkeep\n")  # (step 1 only looks)
    english = "you can't use a joker now: only right after a drop that broke a rule"
    wanted = translations(lang, "gamenight.games.drop_it").gettext(english)
    assert wanted != english
    shown = " ".join(run.out.split())
    assert wanted in shown, run.out[-600:]
    assert english not in shown


# -- what people see: the server ------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'test.sqlite3'}", pool="thread", workers_n=1, rates=TEST_RATES
    )
    with TestClient(app) as c:
        yield c


TWO = {"options": {"players": 2}, "seats": ["open", "open"]}
SERVER_ERRORS: dict[str, tuple[dict[str, Any], str]] = {
    "arne's players": (
        {"game": "arne", "seats": ["open", "open"], "options": {"players": 9}},
        "arne players=9",
    ),
    "arne's team": (
        {"game": "arne", "seats": ["open"] * 5, "options": {"players": 5, "variant": "team"}},
        "arne team 5",
    ),
    "drop it's depth": (
        {"game": "drop-it", **TWO, "options": {"players": 2, "max_depth": -1}},
        "max_depth",
    ),
    "drop or stop's players": (
        {"game": "drop-or-stop", "seats": ["open"] * 5, "options": {"players": 5}},
        "drop-or-stop 5",
    ),
    "no such bot": ({"game": "arne", **TWO, "seats": ["open", "bot:nobody"]}, "nobody"),
    "a bot's range": (
        {"game": "arne", **TWO, "seats": ["open", "bot:ismcts?iterations=0"]},
        "iterations=0",
    ),
    "the server's ceiling": (
        {"game": "arne", **TWO, "seats": ["open", "bot:ismcts?iterations=100000"]},
        "ceiling",
    ),
    "an unknown parameter": (
        {"game": "arne", **TWO, "seats": ["open", "bot:ismcts?bogus=1"]},
        "bogus",
    ),
}
SERVER_SAID: dict[str, dict[str, str]] = {
    "arne players=9": GAME_OPTIONS[("play", "arne", "--set", "players=9")],
    "arne team 5": GAME_OPTIONS[("play", "arne", "--set", "variant=team", "--set", "players=5")],
    "max_depth": GAME_OPTIONS[("play", "drop-it", "--set", "max_depth=-1")],
    "drop-or-stop 5": GAME_OPTIONS[("play", "drop-or-stop", "--set", "players=5")],
    "nobody": BOT_SEATS[("play", "arne", "--seats", "you,bot:nobody")],
    "iterations=0": BOT_SEATS[("play", "arne", "--seats", "you,bot:ismcts?iterations=0")],
    "ceiling": {
        "en": "bot ismcts parameter 'iterations' = 100000: this server allows at most 5000",
        "de": "Bot ismcts: Parameter 'iterations' = 100000: dieser Server erlaubt höchstens 5000",
        "nl": "bot ismcts: parameter 'iterations' = 100000: deze server staat hoogstens 5000 toe",
        "ru": "бот ismcts: параметр 'iterations' = 100000: этот сервер допускает не больше 5000",
    },
    "bogus": {
        "en": "bot ismcts has no parameter(s) ['bogus']; parameters: ['c', 'estimate', 'game', "
        "'iterations', 'max_rollout', 'paired', 'rollout', 'seconds', 'seed', 'skip_forced', "
        "'widen', 'widen_tree']",
        "de": "Bot ismcts kennt ['bogus'] nicht; Parameter: ['c', 'estimate', 'game', "
        "'iterations', 'max_rollout', 'paired', 'rollout', 'seconds', 'seed', 'skip_forced', "
        "'widen', 'widen_tree']",
        "nl": "bot ismcts kent ['bogus'] niet; parameters: ['c', 'estimate', 'game', "
        "'iterations', 'max_rollout', 'paired', 'rollout', 'seconds', 'seed', 'skip_forced', "
        "'widen', 'widen_tree']",
        "ru": "у бота ismcts нет параметров ['bogus']; параметры: ['c', 'estimate', 'game', "
        "'iterations', 'max_rollout', 'paired', 'rollout', 'seconds', 'seed', 'skip_forced', "
        "'widen', 'widen_tree']",
    },
}


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_a_new_tables_game_option_or_bot_refused_in_the_requests_language(
    client: TestClient, lang: str
) -> None:
    """POST /api/tables with a game's option its own checks refuse, or a bad bot seat: 400
    and one line in the request's language (English as before without a header)."""
    headers = {"Accept-Language": f"{lang},en;q=0.5"} if lang != "en" else {}
    for what, (body, key) in SERVER_ERRORS.items():
        answer = client.post("/api/tables", json=body, headers=headers)
        assert answer.status_code == 400, (what, answer.text)
        assert answer.json()["error"] == SERVER_SAID[key][lang], what
