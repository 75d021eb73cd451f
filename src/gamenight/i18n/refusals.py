"""A refusal in the language of the person who reads it (issue 46, items 3 and 4).

The engine refuses in English and keeps the sentence's key and words (`engine.Reason`); a
surface that knows its reader's language (a WebSocket's page, the terminal's LANG) says it
with `translate`: the template from the catalogue of the package that wrote it (a game's
`game.po`, or the platform's `gamenight.po` for a colour's or a piece's name), each word
that is itself a Reason translated the same way, plain words (numbers, typed names) as they
are. A message a catalogue lacks, or a translation naming a word the sentence does not
have, is said in English.
"""

from __future__ import annotations

from gamenight.engine.core import Reason
from gamenight.i18n import DEFAULT, current, translations


def said(template: str, **words: object) -> Reason:
    """A sentence of the platform's catalogue (its English `template`, marked `N_` where it
    is written) with its words filled in: a name or a number as it is, a Reason (a
    colour's name, a table's status) translated with the sentence."""
    filled = {k: w if isinstance(w, str) else str(w) for k, w in words.items()}
    return Reason(template, filled or None, "gamenight", template)


def translate(reason: str, lang: str | None = None) -> str:
    """`reason` in `lang` (None: the current language); a plain string as it is."""
    if not isinstance(reason, Reason):
        return str(reason)
    lang = lang or current()
    if lang == DEFAULT or not reason.template:
        return str(reason)
    text = translations(lang, reason.package or "gamenight").gettext(reason.template)
    if not reason.words:
        return text
    words = {name: translate(word, lang) for name, word in reason.words.items()}
    try:
        return text.format(**words)
    except (KeyError, IndexError, ValueError):  # a translation naming another word
        return str(reason)
