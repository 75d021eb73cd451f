"""Issue 46, item 4: each game's options in the lobby's language. The help text of every
option and the words of every choice come from the game's own catalogue, sent by
GET /api/games in the request's language; the names and values stay what a person types."""

from __future__ import annotations

import io

import pytest
from fastapi.testclient import TestClient

from gamenight.engine.options import describe_options
from gamenight.engine.registry import games, options_class, spec
from gamenight.i18n import game_text


def listed(client: TestClient, header: str) -> dict[str, dict[str, dict]]:
    """{game: {option: its row}} of GET /api/games with this Accept-Language."""
    answer = client.get("/api/games", headers={"Accept-Language": header})
    assert answer.status_code == 200
    return {g["name"]: {o["name"]: o for o in g["options"]} for g in answer.json()}


@pytest.mark.parametrize("lang", ["de", "nl", "ru"])
def test_every_options_help_and_choice_words_come_in_the_requests_language(
    client: TestClient, lang: str
) -> None:
    shown = listed(client, f"{lang}-XX,{lang};q=0.9,en;q=0.5")
    for name in games():
        package = spec(name).package
        for english in describe_options(options_class(name)):
            row = shown[name][english["name"]]
            said = game_text(package, english["help"], lang)
            assert said != english["help"], (name, lang, english["help"])  # translated
            assert row["help"] == said
            if english["choices"]:  # every choice has words, in the choices' order
                assert row["choices"] == english["choices"]  # the values sent are unchanged
                assert len(row["labels"]) == len(row["choices"])
                for label, word in zip(row["labels"], english["labels"], strict=True):
                    assert label == game_text(package, word, lang)


def test_the_words_of_a_few_options_in_german_russian_and_english(client: TestClient) -> None:
    de = listed(client, "de-DE")
    reverse = de["arne"]["reverse_mode"]
    assert reverse["labels"] == ["umkehren und als Nächstes ziehen", "nur umkehren"]
    assert reverse["choices"] == ["flip_and_take", "flip"] and reverse["default"] == "flip_and_take"
    assert de["drop-or-stop"]["target"]["help"] == "die höchste Summe ohne Überlauf (TARGET)"
    assert de["drop-it"]["edge_mode"]["labels"] == ["Farbränder", "Formränder", "ohne Randmarken"]
    ru = listed(client, "ru")
    assert ru["arne"]["tie_rule"]["labels"] == ["общая победа"]
    assert ru["drop-it"]["jitter_x"]["help"] == "сигма смещения по x в мм (D16)"
    en = listed(client, "en-GB")
    assert en["arne"]["reverse_mode"]["labels"] == ["turn and play next", "only turn"]
    assert en["drop-or-stop"]["target"]["help"].startswith("the highest total")


def test_the_deck_help_names_every_preset() -> None:
    """The deck's help is a literal (so it is in each catalogue): it must name the presets
    the deck option serves."""
    from gamenight.games.drop_or_stop.components import PRESETS

    deck = next(r for r in describe_options(options_class("drop-or-stop")) if r["name"] == "deck")
    assert all(preset in deck["help"] for preset in PRESETS)


def test_an_option_text_that_is_no_literal_is_refused_at_extraction() -> None:
    from gamenight.i18n.extract import extract_options

    source = b'from x import setting\nclass O:\n    a: int = setting(1, f"{X} things")\n'
    with pytest.raises(ValueError, match=r"option .a. .*literal string"):
        list(extract_options(io.BytesIO(source), [], [], {}))
    good = b'class O:\n    a: str = setting("x", help="what", choices=("x",), labels={"x": "ex"})\n'
    found = [
        (message, notes) for _, _, message, notes in extract_options(io.BytesIO(good), [], [], {})
    ]
    assert found == [
        ("what", ["game option 'a': help"]),
        ("ex", ["game option 'a': label of the choice 'x'"]),
    ]
