"""Why a Drop It choice is not available now, in player words (issue 46 item 3, "why not?").

`ArneState`'s sibling for Drop It: `DropItState._refusal` asks these functions, the page
shows the sentence on a click, the terminal on a typed move. Every sentence a person reads
is in `REASONS` (one place for a later translation catalogue); clause ids stay in comments.
Supplies are public in Drop It, so a reason may name the pieces a side has left.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamenight.engine.core import Reason
from gamenight.i18n import N_

REASONS: dict[str, str] = {
    # V3: the joker decision comes right after a drop that broke a rule, and only then
    "joker_first": N_("you can't drop now: your drop broke a rule; first spend a joker or keep it"),
    "joker_not_now": N_("you can't use a joker now: only right after a drop that broke a rule"),
    "not_drop_it": N_("you can't do that in Drop It: choose a piece and drop it"),
    # D33: a piece is a colour and a shape
    "no_such_piece": N_(
        "you can't drop {piece}: there is no such piece; a piece is a colour "
        "({colours}) and a shape ({kinds})"
    ),
    # D10: a side drops only its own pieces, each once
    "not_yours": N_("you can't drop {piece}: it is not one of your pieces (yours: {left})"),
    "all_used": N_("you can't drop {piece}: all of yours are on the board (left: {left})"),
    "this_one_used": N_(
        "you can't drop that {piece}: it is on the board already; take another of them"
    ),
    "nothing_left": N_("you can't drop {piece}: you have no pieces left"),
    # D11: the aim, in strict mode refused rather than moved inside the slot
    "not_a_number": N_("you can't drop there: the {what} must be a number"),
    "outside": N_(
        "you can't drop {piece} there: turned this way it fits the slot only "
        "between {lo} and {hi} mm"
    ),
    "too_deep": N_("you can't hold {piece} at that depth: from 0 to {deepest} mm at this angle"),
}

AIM_WORDS = {"x": N_("position"), "angle": N_("angle"), "depth": N_("depth")}


def say(key: str, **words: str) -> Reason:
    """The sentence `key` with its words filled in (English; translated where it is shown:
    the template is a message of this game's catalogue)."""
    return Reason(REASONS[key], words, __package__ or "", key)


def piece_name(name: str) -> Reason:
    """ "red-circle-1" or "red-circle" as a player names it: "red circle" (a message of the
    platform's catalogue: the page's piece names, drop-it.js)."""
    parts = name.split("-")
    return Reason(" ".join(parts[:2]) if len(parts) >= 2 else name, package="gamenight")


def piece_words(name: str) -> Reason:
    """ "red-circle-1" or "red-circle" as a player says it: "a red circle"."""
    return Reason(N_("a {piece}"), {"piece": piece_name(name)}, __package__ or "")


def kinds_left(supply: Iterable[str]) -> Reason:
    """The kinds of a supply in words: "red circle, red square"."""
    kinds = sorted({piece.rsplit("-", 1)[0] for piece in supply})
    words = {f"k{i}": piece_name(kind) for i, kind in enumerate(kinds)}
    return Reason(", ".join("{" + name + "}" for name in words), words)


def aim_word(name: str) -> Reason:
    """What a drop's number is ("x": "position"), in this game's catalogue."""
    return Reason(AIM_WORDS[name], package=__package__ or "")
