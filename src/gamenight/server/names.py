"""Names people are shown under: accounts' names and the display names of seats.

Two names that read alike are one name. Each is compared by its *skeleton*: NFKC with
accents dropped, case-folded, every character that Unicode lists as a look-alike of a
Latin letter or digit (`confusable_homoglyphs`: Cyrillic "і", Greek "ο", ...) replaced by
it, then the ASCII look-alikes folded ("l", "1", "|" and "!" read as "i"; "0" as "o";
"rn" as "m"; "vv" as "w") and everything but letters and digits dropped. So "Mira.",
"Mlra", "M1ra", "MIRA" and "Mіra" (Cyrillic і) all have the skeleton of "Mira".

Control, format (zero-width, bidi overrides), private-use and unassigned characters and
line separators are refused in every name: they hide or reorder what people read.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

from gamenight.i18n import N_

MAX_DISPLAY = 40  # characters of a seat's display name (table_store.join cuts there too)
# Unicode categories never allowed in a name: controls, format characters (zero-width
# joiners and spaces, bidi embeddings and overrides), surrogates, private use, unassigned,
# line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# ASCII look-alikes, after case folding
ASCII_FOLD = str.maketrans({"l": "i", "1": "i", "|": "i", "!": "i", "0": "o"})
PAIRS = (("rn", "m"), ("vv", "w"))


class BadName(ValueError):
    """A name that is refused; the message is one line for the person, marked `N_`: the
    refusal (routes/common.seat_name) says it in the reader's language."""


@functools.cache
def latin_map() -> dict[str, str]:
    """Non-ASCII character -> the ASCII letter or digit it is confusable with. The
    library's table is read here and dropped (importing its `confusables` module would keep
    all of it: 6 MB in Python objects, for the 2,000 entries kept here), and the server
    builds this map as it starts (app.py), not at its first join."""
    from confusable_homoglyphs.utils import load

    found: dict[str, str] = {}
    for char, glyphs in load("confusables.json").items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in glyphs:
            target = glyph["c"].strip("\u200e")
            if len(target) == 1 and target.isascii() and target.isalnum():
                found[char] = target.lower()
                break
    return found


def skeleton(name: str) -> str:
    """The form two names that read alike share (see the module doc)."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = unicodedata.normalize("NFKC", text.casefold())
    latin = latin_map()
    text = "".join(latin.get(ch, ch) for ch in text).casefold().translate(ASCII_FOLD)
    text = "".join(ch for ch in text if ch.isalnum())
    for pair, one in PAIRS:
        text = text.replace(pair, one)
    return text


# Characters that draw nothing though Unicode counts some of them as letters (the Hangul
# fillers are category Lo) or marks: Unicode's Default_Ignorable_Code_Point set outside
# the refused categories, and the blank braille pattern. "Mira\u3164" read as "Mira".
INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
)


def invisible(ch: str) -> bool:
    """Does this character hide, reorder or draw nothing?"""
    return (
        ch in INVISIBLE
        or unicodedata.category(ch) in REFUSED_CATEGORIES
        or 0xE0100 <= ord(ch) <= 0xE01EF  # variation selectors supplement
    )


def hidden_characters(text: str) -> bool:
    """Does `text` hold a character that hides or reorders what is shown?"""
    return any(invisible(ch) for ch in text)


def display_name(name: Any) -> str:
    """A seat's display name as it will be shown (spaces tidied), or BadName."""
    if not isinstance(name, str):
        raise BadName(N_("'name' must be text"))
    if hidden_characters(name.replace("\t", " ").replace("\n", " ").replace("\r", " ")):
        raise BadName(
            N_("a name may not hold control, zero-width or right-to-left override characters")
        )
    tidy = " ".join(name.split())[:MAX_DISPLAY]
    if not tidy:
        raise BadName(N_("a display name is needed to take a seat"))
    if not skeleton(tidy):
        raise BadName(N_("a name needs at least one letter or digit"))
    return tidy
