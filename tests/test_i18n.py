"""Languages (issue 46, item 4): every catalogue has every message a covered file shows and
is compiled from its `.po`; locales are negotiated as browsers and terminals say them;
plural forms and numbers and dates follow the language."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

import pytest

from gamenight import i18n
from gamenight.engine.registry import games, spec
from gamenight.i18n import build


def test_every_catalogue_has_every_message_and_is_compiled_from_its_po() -> None:
    """Extract now and compare: no message of a covered file (the lobby, the table page's
    chrome, the terminal's top-level messages, every game's rules and pitch) is missing from
    the German, Dutch or Russian catalogue, and every .mo and web JSON is what `make i18n`
    writes from the .po files."""
    assert build.missing() == []
    assert build.stale() == []


def test_every_game_package_has_the_same_catalogue_files() -> None:
    for name in games():
        domain = next(d for d in build.domains() if d.root == i18n.package_dir(spec(name).package))
        for lang in build.TRANSLATED:
            assert domain.po(lang).exists() and domain.mo(lang).exists(), (name, lang)


def test_the_pages_catalogues_have_the_same_messages_in_every_language() -> None:
    keys = {}
    for lang in build.TRANSLATED:
        keys[lang] = set(json.loads(build.web_path(lang).read_text())["messages"])
    assert keys["de"] == keys["nl"] == keys["ru"]
    assert "Create table" in keys["de"]
    assert json.loads(build.web_path("en").read_text())["messages"] == {}


@pytest.mark.parametrize(
    ("preferred", "lang"),
    [
        (["de-DE", "en"], "de"),
        (["nl_BE.UTF-8"], "nl"),
        (["fr-FR", "ru"], "ru"),
        (["C"], "en"),
        (["POSIX"], "en"),
        ([], "en"),
        (["pt-BR", "es"], "en"),
    ],
)
def test_a_language_is_negotiated_from_what_a_browser_or_terminal_says(
    preferred: list[str], lang: str
) -> None:
    assert i18n.negotiate(preferred) == lang


def test_accept_language_is_read_by_quality() -> None:
    header = "en;q=0.4, nl-NL, de;q=0.9, *;q=0.1, fr;q=0"
    assert i18n.accept_language(header) == ["nl-NL", "de", "en"]
    assert i18n.accept_language(None) == []


def test_the_terminal_language_follows_gettexts_order_of_variables() -> None:
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.from_environment({"LANG": "de_DE.UTF-8", "LC_ALL": "ru_RU.UTF-8"}) == "ru"
    assert i18n.from_environment({"LANGUAGE": "nl:de", "LC_ALL": "ru_RU.UTF-8"}) == "nl"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({}) == "en"


def test_plural_forms_follow_the_language_russian_has_three() -> None:
    one, many = "{name} {n} win", "{name} {n} wins"
    with i18n.use("ru"):
        assert [i18n.ngettext(one, many, n).format(name="Аня", n=n) for n in (1, 3, 5, 21, 12)] == [
            "Аня: 1 победа",
            "Аня: 3 победы",
            "Аня: 5 побед",
            "Аня: 21 победа",
            "Аня: 12 побед",
        ]
    with i18n.use("de"):
        assert i18n.ngettext(one, many, 1) == "{name} {n} Sieg"
        assert i18n.ngettext(one, many, 2) == "{name} {n} Siege"
    with i18n.use("en"):
        assert i18n.ngettext(one, many, 2) == many


def test_numbers_and_dates_are_written_as_the_language_writes_them() -> None:
    assert i18n.number(1234.5, "en") == "1,234.5"
    assert i18n.number(1234.5, "de") == "1.234,5"
    assert i18n.number(1234.5, "nl") == "1.234,5"
    assert i18n.number(1234.5, "ru").replace("\xa0", " ") == "1 234,5"
    assert i18n.when(date(2026, 12, 6), "de") == "06.12.2026"
    assert i18n.when(date(2026, 12, 6), "nl") == "6 dec 2026"
    assert "2026" in i18n.when(datetime(2026, 12, 6, 20, 15), "ru")


@pytest.mark.parametrize("name", games())
def test_a_games_rules_in_german_keep_their_keys_and_clauses(name: str) -> None:
    rules = spec(name).player_rules()
    german = i18n.rules_in(rules, spec(name).package, "de")
    assert [s.key for s in german.SECTIONS] == [s.key for s in rules.SECTIONS]
    assert [s.clauses for s in german.SECTIONS] == [s.clauses for s in rules.SECTIONS]
    assert [e.key for e in german.ENTRIES] == [e.key for e in rules.ENTRIES]
    assert german.SECTIONS[0].title == "Das Ziel"
    assert all(
        g.paragraphs != s.paragraphs for g, s in zip(german.SECTIONS, rules.SECTIONS, strict=True)
    )
    english = i18n.rules_in(rules, spec(name).package, "en")
    assert english.SECTIONS == rules.SECTIONS


@pytest.mark.parametrize("name", games())
def test_every_refusal_is_said_in_every_language_with_the_same_words(name: str) -> None:
    """Issue 46 item 3: each game's refusal sentences (refusals.py REASONS) are in its
    catalogue in German, Dutch and Russian, and each translation names exactly the words
    its English sentence fills in (a missing or misspelt {word} would fall back to English)."""
    import importlib
    import string

    from gamenight.i18n.refusals import translate

    module = importlib.import_module(f"{spec(name).package}.refusals")
    for key, english in module.REASONS.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(english) if f}
        reason = module.say(key, **{f: f"<{f}>" for f in fields})
        for lang in build.TRANSLATED:
            said = translate(reason, lang)
            assert said != english and said != str(reason), (name, key, lang)
            assert all(f"<{f}>" in said for f in fields), (name, key, lang, said)


def test_an_arne_refusal_names_its_card_and_colour_from_the_catalogues() -> None:
    """A refused move's reason carries its key and words (engine.Reason), English as the
    string itself; the card's and colour's names come from the catalogues."""
    from gamenight.engine.core import IllegalAction, Reason
    from gamenight.games.arne import actions as A
    from gamenight.i18n.refusals import translate

    game = gamenight_load("arne", players=3)
    state = game.start(seed=1)
    seat = state.actors[0]
    state.act(seat, A.ChooseColour("red"))
    nxt = state.actors[0]
    with pytest.raises(IllegalAction) as refused:
        state.act(nxt, A.ChooseColour("red"))
    reason = refused.value.reason
    assert isinstance(reason, Reason) and reason.key == "colour_taken"
    assert reason == "you can't choose red: it is already taken"
    assert translate(reason, "de") == "Du kannst rot nicht wählen: die Farbe ist schon vergeben"
    assert translate(reason, "ru") == "Вы не можете выбрать цвет «красный»: он уже занят"
    assert Reason.from_json(reason.to_json()) == reason
    card = Reason.from_json(reason.to_json())
    assert isinstance(card, Reason) and translate(card, "nl").startswith("Je kunt rood niet")


def gamenight_load(name: str, **options: int) -> Any:
    from gamenight import load

    return load(name, **options)
