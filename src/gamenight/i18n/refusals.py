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

from gamenight.engine.core import Reason, said
from gamenight.i18n import DEFAULT, current, translations

__all__ = ["message_of", "said", "translate"]


def message_of(error: BaseException | str) -> Reason:
    """What an error (a BadInput, a ValueError) or a message says, as a sentence to
    translate: its Reason, else its text as a sentence of the platform's catalogue (a
    fixed sentence marked `N_` where it is written; one the catalogue lacks stays as it
    is)."""
    text = error.args[0] if isinstance(error, BaseException) and error.args else error
    if isinstance(text, Reason):
        return text
    return said(str(text))


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
