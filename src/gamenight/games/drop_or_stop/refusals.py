"""Why a Drop or Stop choice is not available now, in player words (issue 45 item 5, issue
46 item 3, "why not?"): `DropOrStopState._refusal` asks `say`; the page shows the sentence
on a click, the terminal on a typed move. Every sentence a person reads is in `REASONS`,
as in every game package; clause ids stay in comments. A reason is told only to the seat
asking, whose own cards it is about (R12a: never announced to the others).
"""

from __future__ import annotations

from gamenight.engine.core import Reason
from gamenight.i18n import N_

REASONS: dict[str, str] = {
    # R14: the round ends when nothing is left to draw
    "nothing_to_draw": N_("you can't drop: no card is left to draw, so you must stop"),
    # R12a, with allow_overflow_drop off: over the limit, the only choice is to stop
    "over_the_limit": N_("you can't drop: your cards are already over the limit, so you must stop"),
}


def say(key: str, **words: str) -> Reason:
    """The sentence `key` with its words filled in (English; translated where it is shown:
    the template is a message of this game's catalogue)."""
    return Reason(REASONS[key], words, __package__ or "", key)
