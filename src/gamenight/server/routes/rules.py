"""A game's rules in player words, as the rules panel beside a table shows them: its
sections and its entries (cards, pieces, terms), from the game's `rules` module (the same
text `gamenight rules` prints), in the request's language (?lang=, the page's cookie,
Accept-Language: the game's own catalogue). Unknown game: 404 with one line."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Request

from gamenight.engine.core import BadInput
from gamenight.engine.registry import spec
from gamenight.i18n import DEFAULT, rules_in
from gamenight.server.language import request_language
from gamenight.server.tables import Refused

router = APIRouter()


@cache
def rules_json(name: str, lang: str = DEFAULT) -> dict[str, Any]:
    """The rules of a known game as JSON in `lang` (they never change while the server
    runs)."""
    found = spec(name)
    rules = rules_in(found.player_rules(), found.package, lang)
    return {
        "game": found.name,
        "title": found.title,
        "sections": [section.to_json() for section in rules.SECTIONS],
        "entries_title": rules.ENTRIES_TITLE,
        "entries": [entry.to_json() for entry in rules.ENTRIES],
    }


@router.get("/api/games/{name}/rules")
async def game_rules(name: str, request: Request) -> dict[str, Any]:
    """The game's rules in player words: {game, title, sections, entries_title, entries}."""
    try:
        return rules_json(name, request_language(request))
    except BadInput as err:
        raise Refused(str(err), 404) from err
