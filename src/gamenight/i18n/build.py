"""`make i18n` (`python -m gamenight.i18n.build`): extract every message, bring each
language's `.po` up to date, compile the `.mo` files and write the pages' JSON catalogues.

The `.po` files are the one source of truth of every translation: a translator (or a tool
such as Poedit or Weblate) edits a `.po`, never the JSON or the `.mo`. Why this way round:
extraction, plural forms and translator notes are gettext's own, and the JSON for the pages
is only the web part of the platform's `.po` written in the shape a browser reads, so a
message shown both in the terminal and on a page is translated once.

The compiled files (`.mo`, `web/i18n/*.json`) are committed, so a checkout or a wheel
works without a build step; `python -m gamenight.i18n.build --check` (run by the tests)
fails when any of them is not what its `.po` compiles to, or a `.po` lacks a message a
covered file shows (COVERED).

The same extraction with pybabel's own command (the mapping files are in this folder):
    pybabel extract -F src/gamenight/i18n/babel.cfg -o gamenight.pot src/gamenight
    pybabel extract -F src/gamenight/i18n/games.cfg -o game.pot src/gamenight/games/arne
"""

from __future__ import annotations

import argparse
import gettext
import io
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from gamenight.i18n import DEFAULT, GAME_DOMAIN, LANGUAGES, PLATFORM_DOMAIN, package_dir

HERE = Path(__file__).parent
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT)
# A message with a location under web/ is in the pages' JSON, and so is one of these server
# modules, whose words the pages show (the chat's quick phrases).
WEB_SOURCES = ("web/", "server/chat.py")
# The files whose every message is translated (the check fails on a gap there); the rest
# is on its way (a message missing a translation is shown in English). Every game's own
# catalogue (its rules, its pitch) is covered whole.
COVERED = (
    "web/index.html",
    "web/lobby.js",
    "web/table.html",
    "web/table.js",
    "web/common.js",
    "web/rules.js",
    "web/chat.js",
    "web/turn-signal.js",
    "web/shared-screen.js",
    "web/moment.js",
    "server/chat.py",
    "web/replay.html",
    "web/replay.js",
    "web/replay-chat.js",
    "web/profile.html",
    "web/profile.js",
    "web/missing.html",
    "web/games/*.js",  # every game's table, lobby variants and cards (no game named here)
    "cli/*.py",  # (the help of every command and option too, and click's words: click_words)
    "learn/command.py",  # `gamenight train`'s help and lines
    "sim/tune.py",  # `gamenight tune`'s progress line and refusals of a goal, option or budget
    "web/learn.html",
    "web/learn.js",
    "engine/tutorial.py",  # the guided first games' runner (their scripts: each game's own)
    "engine/core.py",  # the engine's own refusals (the game is over, not this seat's turn)
    "engine/options.py",  # a bad option's sentence, with its name and value
    "engine/codec.py",  # a move's or a replay file's JSON that is not right
    "engine/registry.py",  # no such game
    "server/*.py",  # every refusal of the server, its routes and accounts (live_table.Refused)
    "games/terminal_text.py",  # words every game's terminal table shares (player 1, and)
    "bots/*.py",  # a bad bot seat, name or parameter (play --seats, train --judge, a server)
)
PO_WIDTH = 96


@dataclass(frozen=True)
class Domain:
    """One set of catalogues: the platform's, or one game's."""

    name: str  # gettext domain
    root: Path  # the package folder extraction reads
    mapping: Path  # the Babel mapping file
    web: bool = False  # also written as the pages' JSON

    @property
    def locale(self) -> Path:
        return self.root / "locale"

    def po(self, lang: str) -> Path:
        return self.locale / lang / "LC_MESSAGES" / f"{self.name}.po"

    def mo(self, lang: str) -> Path:
        return self.po(lang).with_suffix(".mo")


def domains() -> list[Domain]:
    """The platform, then every game package (each with the same files)."""
    root = package_dir("gamenight")
    found = [Domain(PLATFORM_DOMAIN, root, HERE / "babel.cfg", web=True)]
    for game in sorted((root / "games").iterdir()):
        if (game / "__init__.py").exists() and (game / "rules.py").exists():
            found.append(Domain(GAME_DOMAIN, game, HERE / "games.cfg"))
    return found


def template(domain: Domain) -> Catalog:
    """Every message the code of `domain` shows, as extracted now."""
    with domain.mapping.open() as file:
        method_map, options_map = parse_mapping_cfg(file)
    catalog = Catalog(domain=domain.name, project="gamenight", fuzzy=False)
    found = extract_from_dir(
        str(domain.root),
        method_map,
        options_map,
        keywords=DEFAULT_KEYWORDS,
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(
            message,
            None,
            [(filename.replace("\\", "/"), lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain=path.stem)


def updated(domain: Domain, lang: str, fresh: Catalog) -> Catalog:
    """The `.po` of `lang` with the messages of `fresh`: translations kept, new messages
    empty, messages no longer shown dropped."""
    path = domain.po(lang)
    if path.exists():
        po = read(path, lang)
        fresh.creation_date = po.creation_date  # a stable header: no diff without a change
        po.update(fresh, no_fuzzy_matching=True, update_header_comment=False)
    else:
        po = Catalog(locale=lang, domain=domain.name, project="gamenight")
        po.creation_date = po.revision_date = datetime(2026, 12, 6, tzinfo=UTC)
        po.update(fresh, no_fuzzy_matching=True)
    po.obsolete.clear()
    po.fuzzy = False  # the header is kept by write_mo: its Plural-Forms are Russian's three
    po.last_translator = "gamenight <gamenight@invalid>"
    po.language_team = {"de": "Deutsch", "nl": "Nederlands", "ru": "Русский"}.get(lang, lang)
    return po


def po_bytes(po: Catalog) -> bytes:
    buffer = io.BytesIO()
    # (no line numbers: a line moved in the code is no change to a catalogue)
    write_po(
        buffer,
        po,
        width=PO_WIDTH,
        ignore_obsolete=True,
        include_previous=False,
        include_lineno=False,
    )
    return buffer.getvalue()


def mo_bytes(po: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, po, use_fuzzy=False)
    return buffer.getvalue()


def plural_categories(lang: str, po: Catalog) -> dict[str, int]:
    """CLDR plural category (what Intl.PluralRules says) -> index of the gettext form."""
    form = gettext.c2py(po.plural_expr)
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in range(0, 1000):
        found.setdefault(rule(n), form(n))
    found.setdefault("other", po.num_plurals - 1)  # fractions (1.5): the last form
    return found


def web_json(lang: str, po: Catalog | None) -> bytes:
    """The pages' catalogue of `lang`: every translated message with a location under
    web/, a plural message as {CLDR category: text}."""
    messages: dict[str, Any] = {}
    categories = plural_categories(lang, po) if po is not None else {}
    for message in po or ():
        if not message.id or not message.string or message.fuzzy:
            continue
        if not any(path.startswith(WEB_SOURCES) for path, _ in message.locations):
            continue
        if isinstance(message.id, tuple):
            forms = list(message.string)
            if not all(forms):
                continue
            key = message.id[0]
            messages[key] = {cat: forms[min(i, len(forms) - 1)] for cat, i in categories.items()}
        else:
            messages[str(message.id)] = message.string
    body = {"lang": lang, "messages": dict(sorted(messages.items()))}
    return (json.dumps(body, ensure_ascii=False, indent=1, sort_keys=False) + "\n").encode()


def web_path(lang: str) -> Path:
    return package_dir("gamenight") / "web" / "i18n" / f"{lang}.json"


def outputs() -> Iterator[tuple[Path, bytes]]:
    """Every file `make i18n` writes, with what it should hold now."""
    for domain in domains():
        fresh = template(domain)
        for lang in TRANSLATED:
            po = updated(domain, lang, fresh.clone() if hasattr(fresh, "clone") else _copy(fresh))
            yield domain.po(lang), po_bytes(po)
            yield domain.mo(lang), mo_bytes(po)
            if domain.web:
                yield web_path(lang), web_json(lang, po)
        if domain.web:
            yield web_path(DEFAULT), web_json(DEFAULT, None)


def _copy(catalog: Catalog) -> Catalog:
    """A fresh copy of a template (update() changes the catalogue it is given)."""
    copy = Catalog(domain=catalog.domain, project="gamenight", fuzzy=False)
    copy.creation_date = catalog.creation_date
    for message in catalog:
        if message.id:
            copy.add(
                message.id,
                None,
                list(message.locations),
                auto_comments=list(message.auto_comments),
                context=message.context,
            )
    return copy


def covered(domain: Domain, locations: Sequence[tuple[str, int | None]]) -> bool:
    """Is a message shown by a covered file (every game's catalogue is)?"""
    if domain.name != PLATFORM_DOMAIN:
        return True
    return any(fnmatch(path, pattern) for path, _ in locations for pattern in COVERED)


def missing(everything: bool = False) -> list[str]:
    """Messages a covered file shows (`everything`: any file) that a language's `.po` does
    not translate (fuzzy or empty)."""
    found = []
    for domain in domains():
        fresh = template(domain)
        for lang in TRANSLATED:
            po = read(domain.po(lang), lang) if domain.po(lang).exists() else None
            for message in fresh:
                if not message.id or not (everything or covered(domain, message.locations)):
                    continue
                have = po.get(message.id, message.context) if po is not None else None
                strings = (
                    (have.string if isinstance(have.string, tuple) else (have.string,))
                    if have
                    else ()
                )
                if have is None or have.fuzzy or not all(strings):
                    where = message.locations[0][0] if message.locations else "?"
                    short = message.id[0] if isinstance(message.id, tuple) else message.id
                    po_file = domain.po(lang).relative_to(package_dir("gamenight"))
                    found.append(f"{po_file}: {short[:60]!r} ({where})")
    return found


def compiled() -> Iterator[tuple[Path, bytes]]:
    """Every compiled file with what the `.po` files as they are now compile to."""
    for domain in domains():
        for lang in TRANSLATED:
            po = read(domain.po(lang), lang)
            yield domain.mo(lang), mo_bytes(po)
            if domain.web:
                yield web_path(lang), web_json(lang, po)
        if domain.web:
            yield web_path(DEFAULT), web_json(DEFAULT, None)


def stale() -> list[Path]:
    """Compiled files (`.mo`, the pages' JSON) that are not what their `.po` compiles to (a
    `.po` behind the code is `missing`'s business: a line moved is no change)."""
    return [path for path, content in compiled() if not path.exists() or not same(path, content)]


def same(path: Path, content: bytes) -> bool:
    """Does the file hold `content`? A `.mo` is compared by its messages and plural forms,
    not its bytes: the header names the Babel version that compiled it."""
    if path.suffix != ".mo":
        return path.read_bytes() == content
    return _mo_messages(path.read_bytes()) == _mo_messages(content)


def _mo_messages(data: bytes) -> tuple[dict[Any, str], str]:
    found = gettext.GNUTranslations(io.BytesIO(data))
    catalog = dict(found._catalog)  # type: ignore[attr-defined]
    header = catalog.pop("", "")
    plural = next((line for line in header.splitlines() if line.startswith("Plural-Forms")), "")
    return catalog, plural


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gamenight.i18n.build", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if anything is stale or missing"
    )
    args = parser.parse_args(argv)
    if args.check:
        wrong = stale()
        gaps = missing()
        for path in wrong:
            print(f"stale: {path} (run make i18n)")
        for gap in gaps:
            print(f"untranslated: {gap}")
        return 1 if wrong or gaps else 0
    for path, content in outputs():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != content:
            path.write_bytes(content)
            print(f"wrote {path}")
    gaps, later = missing(), missing(everything=True)
    if gaps:
        print(f"{len(gaps)} messages of covered files are not translated (--check lists them)")
    print(f"{len(later) - len(gaps)} messages of files not yet covered are shown in English")
    return 0


if __name__ == "__main__":
    sys.exit(main())
