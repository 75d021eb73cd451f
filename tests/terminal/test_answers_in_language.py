"""Issue 46: what a person types in the terminal, in their own language. A yes/no answer
("j"/"ja" and "n"/"nein", "ja"/"nee", "да"/"нет", and the English words in every
language) with its "[y/n]" in LANG's letters; Drop It's pieces by their names as the table
shows them ("roter Kreis", "rode cirkel", "красный круг"), and still by their English ones."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight import i18n
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.games.drop_it import KEEP, SPEND, Drop
from gamenight.games.drop_it import terminal as drop_it
from tests.drop_it.helpers import corner_violation, game

YES = {"de": ("j", "ja", "Ja", "JA"), "nl": ("j", "ja", "Ja"), "ru": ("д", "да", "Да", "ДА")}
NO = {"de": ("n", "nein", "Nein"), "nl": ("n", "nee", "Nee"), "ru": ("н", "нет", "Нет")}


@pytest.mark.parametrize("lang", ["de", "nl", "ru"])
def test_yes_and_no_in_the_terminals_language_and_in_english(lang: str) -> None:
    from gamenight.games.terminal_text import yes_or_no

    with i18n.use(lang):
        for word in (*YES[lang], "y", "yes", " Yes "):
            assert yes_or_no(word) is True, word
        for word in (*NO[lang], "n", "no", "NO"):
            assert yes_or_no(word) is False, word
        for word in ("maybe", "jein", "y n", "да нет"):
            assert yes_or_no(word) is None, word
        assert yes_or_no("", default=True) is True and yes_or_no(" ") is None


def test_the_answers_a_question_shows_with_its_default() -> None:
    from gamenight.games.terminal_text import yes_no

    shown = {
        "en": ("[y/n]", "[Y/n]", "[y/N]"),
        "de": ("[j/n]", "[J/n]", "[j/N]"),
        "nl": ("[j/n]", "[J/n]", "[j/N]"),
        "ru": ("[д/н]", "[Д/н]", "[д/Н]"),
    }
    for lang, (plain, yes, no) in shown.items():
        with i18n.use(lang):
            assert (yes_no(), yes_no(True), yes_no(False)) == (plain, yes, no), lang


@pytest.mark.parametrize(
    ("lang", "typed", "spend"),
    [("de", "ja", True), ("de", "N", False), ("nl", "nee", False), ("nl", "j", True),
     ("ru", "да", True), ("ru", "нет", False), ("de", "yes", True), ("ru", "keep", False)],
)  # fmt: skip
def test_drop_its_joker_question_answered_yes_or_no_in_the_terminals_language(
    lang: str, typed: str, spend: bool
) -> None:
    state = corner_violation(game(jokers=True))  # seat 0 broke a rule: spend a joker?
    with i18n.use(lang):
        assert drop_it.parse(typed, state, 0) == (SPEND if spend else KEEP)
        asked = drop_it.hint(state, 0)
    assert (
        asked
        == {
            "de": "Einen Joker einsetzen? [j/n]",
            "nl": "Een joker inzetten? [j/n]",
            "ru": "Использовать джокер? [д/н]",
        }[lang]
    )
    with i18n.use("en"):
        assert drop_it.hint(state, 0) == "Use a joker? [y/n]"


PIECES = {
    "de": ["roter Kreis", "Kreis rot", "rot-kreis", "ROTER KREIS", "kreis-rot-1", "rote kreis"],
    "nl": ["rode cirkel", "cirkel rood", "rood-cirkel", "rode cir"],
    "ru": ["красный круг", "круг красный", "красный-круг", "Красный Круг"],
}


@pytest.mark.parametrize("lang", ["de", "nl", "ru"])
def test_drop_it_pieces_typed_by_their_names_in_the_terminals_language(lang: str) -> None:
    state = game().start(0)  # side 1 (seat 0) has red and yellow
    with i18n.use(lang):
        for typed in [*PIECES[lang], "red circle", "circle-red-1", "rc"]:
            drop = drop_it.parse(f"{typed} 120 0", state, 0)
            assert isinstance(drop, Drop), typed
            assert drop.piece.startswith("red-circle") and drop.x == 120 and drop.angle == 0
        yellow = {"de": "gelbes Dreieck", "nl": "gele driehoek", "ru": "желтый треугольник"}
        drop = drop_it.parse(f"{yellow[lang]} 100 30", state, 0)
        assert isinstance(drop, Drop) and drop.piece == "yellow-triangle"
        assert math.isclose(drop.angle, math.radians(30))


def test_the_hint_shows_a_piece_as_the_table_names_it() -> None:
    state = game().start(0)
    with i18n.use("de"):
        hint = drop_it.hint(state, 0) or ""
    assert "'roter Kreis 120 30'" in hint and "(auf Englisch)" not in hint
    with i18n.use("en"):
        assert "'red-circle 120 30'" in (drop_it.hint(state, 0) or "")


def test_a_word_that_is_no_piece_is_refused_with_the_names_in_the_terminals_language() -> None:
    state = game().start(0)
    with i18n.use("de"), pytest.raises(BadInput) as refused:
        drop_it.parse("lila kreis 120 0", state, 0)
    assert str(refused.value) == (
        "'lila' ist weder eine Farbe (rot, gelb, blau, grün) noch eine Form "
        "(Kreis, Quadrat, Dreieck, Raute)"
    )
    with i18n.use("ru"), pytest.raises(BadInput) as refused:
        drop_it.parse("синий круг 120 0", state, 0)  # blue is the other side's
    assert "синий круг" in str(refused.value)


WORDS = {  # each side-1 colour's and each kind's word as the table shows a piece
    "de": ({"red": "roter", "yellow": "gelbes"}, {"circle": "Kreis", "square": "Quadrat",
           "triangle": "Dreieck", "diamond": "Raute"}),
    "nl": ({"red": "rood", "yellow": "geel"}, {"circle": "cirkel", "square": "vierkant",
           "triangle": "driehoek", "diamond": "ruit"}),
    "ru": ({"red": "красный", "yellow": "жёлтый"}, {"circle": "круг", "square": "квадрат",
           "triangle": "треугольник", "diamond": "ромб"}),
}  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["de", "nl", "ru"]),
    st.sampled_from(["red", "yellow"]),
    st.sampled_from(["circle", "square", "triangle", "diamond"]),
    st.booleans(),
    st.sampled_from([" ", "-", "_", "/"]),
    st.sampled_from([str.lower, str.upper, str.title, str]),
    st.text(max_size=40),
)
def test_any_piece_in_the_terminals_words_and_any_text_at_drop_it(
    lang: str, colour: str, kind: str, kind_first: bool, between: str,
    case: Callable[[str], str], text: str,
) -> None:  # fmt: skip
    """A piece named in LANG's words in any order, case and separator is that piece; any
    other text is a move or refused in one line."""
    state = game().start(0)
    colours, kinds = WORDS[lang]
    words = [colours[colour], kinds[kind]]
    typed = between.join(reversed(words) if kind_first else words)
    with i18n.use(lang):
        drop = drop_it.parse(f"{case(typed)} 110 0", state, 0)
        assert isinstance(drop, Drop) and drop.piece == f"{colour}-{kind}", typed
        try:
            drop_it.parse(text, state, 0)
        except (BadInput, IllegalAction) as error:
            assert len(str(error).splitlines()) == 1, error
