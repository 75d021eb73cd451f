"""Languages (issue 46, item 4): gettext catalogues read through the standard library,
locales negotiated and numbers and dates written by Babel.

Every message is written once, in English, in the code (`_("...")` in Python, `t("...")`
in the pages); the `.po` file of each language is its source of truth (`make i18n`
extracts, updates, compiles the `.mo` files and writes the pages' JSON from them; see
`gamenight.i18n.build`). Two kinds of catalogue, each in the same place everywhere:

- the platform's (terminal, server, pages): `locale/<lang>/LC_MESSAGES/gamenight.po`
- each game's (its rules in player words, its pitch), in every game package:
  `games/<game>/locale/<lang>/LC_MESSAGES/game.po`

The language of a terminal comes from LANGUAGE, LC_ALL, LC_MESSAGES and LANG (gettext's
order); a server sets it per request (`use`). English is the fallback for any message a
catalogue lacks.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from datetime import date, datetime
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from types import SimpleNamespace
from typing import Any

LANGUAGES = ("en", "de", "nl", "ru")  # English first: the source language and the fallback
DEFAULT = "en"
# Each language in its own words, for the switcher (never translated).
NATIVE_NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "ru": "Русский"}
PLATFORM_DOMAIN = "gamenight"
GAME_DOMAIN = "game"  # the same in every game package
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: ContextVar[str | None] = ContextVar("gamenight_language", default=None)


def package_dir(package: str) -> Path:
    """Where a package's files are (`gamenight`, `gamenight.games.arne`)."""
    found = find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise LookupError(f"no package {package}")
    return Path(next(iter(found.submodule_search_locations)))


def locale_dir(package: str = "gamenight") -> Path:
    return package_dir(package) / "locale"


def negotiate(preferred: Iterable[str], available: Iterable[str] = LANGUAGES) -> str:
    """The first supported language of a list of preferences ("de-DE", "nl_BE.UTF-8",
    "ru", "C"); English if none is. A region or encoding never matters: "de_AT" is German."""
    known = set(available)
    for raw in preferred:
        tag = raw.split(".")[0].split("@")[0].strip().replace("-", "_").lower()
        primary = tag.split("_")[0]
        if primary in known:
            return primary
    return DEFAULT


def accept_language(header: str | None) -> list[str]:
    """The languages of an Accept-Language header, best first ("de-DE,de;q=0.9,en;q=0.5")."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def from_environment(env: dict[str, str] | None = None) -> str:
    """The terminal's language: the first of LANGUAGE (a colon list), LC_ALL, LC_MESSAGES
    and LANG that is set decides (as gettext reads them); "C" or "POSIX" is English."""
    env = dict(os.environ) if env is None else env
    for name in ENV_VARS:
        value = env.get(name, "")
        if value:
            return negotiate(value.split(":"))
    return DEFAULT


def current() -> str:
    """The language now: the one `use` set (a request, a test), else the terminal's."""
    chosen = _chosen.get()
    return chosen if chosen is not None else from_environment()


def set_language(lang: str) -> None:
    """Use `lang` from now on in this context (a supported code; anything else: English)."""
    _chosen.set(negotiate([lang]))


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Messages in `lang` inside the block (a request, a test)."""
    token = _chosen.set(negotiate([lang]))
    try:
        yield _chosen.get() or DEFAULT
    finally:
        _chosen.reset(token)


@cache
def translations(lang: str, package: str = "gamenight") -> gettext.NullTranslations:
    """The compiled catalogue of `lang` for the platform (`gamenight`) or a game package;
    English, a missing catalogue: the messages as written."""
    domain = PLATFORM_DOMAIN if package == "gamenight" else GAME_DOMAIN
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, locale_dir(package), languages=[lang], fallback=True)


def _(message: str) -> str:
    """`message` in the current language."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n` in the current language (Russian has three)."""
    return translations(current()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for extraction; it is translated where it is shown."""
    return message


def game_text(package: str, message: str, lang: str | None = None) -> str:
    """A game's own message (its pitch, a rule) in `lang` (None: the current language)."""
    return translations(lang or current(), package).gettext(message)


def game_gettext(
    package: str,
) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """`_` and `ngettext` of a game's own module (its terminal table): each message from
    that game's catalogue in the current language (`_, ngettext = game_gettext(PACKAGE)`;
    the game's extraction, games.cfg, finds the calls by these names)."""

    def gettext_(message: str) -> str:
        return translations(current(), package).gettext(message)

    def ngettext_(singular: str, plural: str, n: int) -> str:
        return translations(current(), package).ngettext(singular, plural, n)

    return gettext_, ngettext_


def rules_in(rules: Any, package: str, lang: str | None = None) -> Any:
    """A game's `rules` module (SECTIONS, ENTRIES, ENTRIES_TITLE) in `lang`: every title,
    paragraph, name and rule from the game's catalogue; keys and clause ids unchanged."""
    tr = translations(lang or current(), package).gettext
    return SimpleNamespace(
        ENTRIES_TITLE=tr(rules.ENTRIES_TITLE),
        SECTIONS=tuple(
            replace(s, title=tr(s.title), paragraphs=tuple(tr(p) for p in s.paragraphs))
            for s in rules.SECTIONS
        ),
        ENTRIES=tuple(replace(e, name=tr(e.name), rule=tr(e.rule)) for e in rules.ENTRIES),
    )


def options_in(
    rows: list[dict[str, Any]], package: str, lang: str | None = None
) -> list[dict[str, Any]]:
    """A game's options as `describe_options` gives them, in `lang`: each help text and each
    choice's label from the game's catalogue; names, values and bounds unchanged (they are
    what a person types)."""
    tr = translations(lang or current(), package).gettext

    def said(row: dict[str, Any]) -> dict[str, Any]:
        labels = row.get("labels")
        return {
            **row,
            "help": tr(row["help"]) if row.get("help") else row.get("help", ""),
            "labels": [tr(label) for label in labels] if labels else labels,
        }

    return [said(row) for row in rows]


def tutorial_in(tutorial: Any, package: str, lang: str | None = None) -> Any:
    """A game's guided first game (engine/tutorial.py's `Tutorial`) in `lang`: its title,
    intro, outro, seats' names and every step's sentences from the game's catalogue; the
    deal, the moves and the points at the table unchanged."""
    from gamenight.engine.tutorial import Step

    tr = translations(lang or current(), package).gettext

    def step(item: Any) -> Any:
        if not isinstance(item, Step):
            return item  # a bot's move: no words
        names = ("say", "why", "refuse", "keys")  # ("" stays "": gettext's "" is the header)
        words: dict[str, Any] = {n: tr(getattr(item, n)) for n in names if getattr(item, n)}
        return replace(item, **words)

    return replace(
        tutorial,
        title=tr(tutorial.title),
        intro=tr(tutorial.intro),
        outro=tr(tutorial.outro),
        names=tuple(tr(name) for name in tutorial.names),
        script=tuple(step(item) for item in tutorial.script),
    )


def number(value: float, lang: str | None = None) -> str:
    """A number as the language writes it (1,234.5 / 1.234,5 / 1 234,5)."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=lang or current())


def when(moment: datetime | date, lang: str | None = None) -> str:
    """A date (and time) as the language writes it, medium length ("6. Dez. 2026")."""
    from babel.dates import format_date, format_datetime

    if isinstance(moment, datetime):
        return format_datetime(moment, "medium", locale=lang or current())
    return format_date(moment, "medium", locale=lang or current())
