"""Why a Drop It choice is not available now, in player words (issue 46 item 3, "why not?").

`ArneState`'s sibling for Drop It: `DropItState._refusal` asks these functions, the page
shows the sentence on a click, the terminal on a typed move. Every sentence a person reads
is in `REASONS` (one place for a later translation catalogue); clause ids stay in comments.
Supplies are public in Drop It, so a reason may name the pieces a side has left.
"""

from __future__ import annotations

from collections.abc import Iterable

REASONS: dict[str, str] = {
    # V3: the joker decision comes right after a drop that broke a rule, and only then
    "joker_first": ("you can't drop now: your drop broke a rule; first spend a joker or keep it"),
    "joker_not_now": "you can't use a joker now: only right after a drop that broke a rule",
    "not_drop_it": "you can't do that in Drop It: choose a piece and drop it",
    # D33: a piece is a colour and a shape
    "no_such_piece": (
        "you can't drop {piece}: there is no such piece; a piece is a colour "
        "({colours}) and a shape ({kinds})"
    ),
    # D10: a side drops only its own pieces, each once
    "not_yours": "you can't drop {piece}: it is not one of your pieces (yours: {left})",
    "all_used": "you can't drop {piece}: all of yours are on the board (left: {left})",
    "this_one_used": (
        "you can't drop that {piece}: it is on the board already; take another of them"
    ),
    "nothing_left": "you can't drop {piece}: you have no pieces left",
    # D11: the aim, in strict mode refused rather than moved inside the slot
    "not_a_number": "you can't drop there: the {what} must be a number",
    "outside": (
        "you can't drop {piece} there: turned this way it fits the slot only "
        "between {lo} and {hi} mm"
    ),
    "too_deep": "you can't hold {piece} at that depth: from 0 to {deepest} mm at this angle",
}

AIM_WORDS = {"x": "position", "angle": "angle", "depth": "depth"}


def say(key: str, **words: str) -> str:
    """The sentence `key` with its words filled in."""
    return REASONS[key].format(**words)


def piece_words(name: str) -> str:
    """ "red-circle-1" or "red-circle" as a player says it: "a red circle"."""
    parts = name.split("-")
    words = " ".join(parts[:2]) if len(parts) >= 2 else name
    return f"a {words}"


def kinds_left(supply: Iterable[str]) -> str:
    """The kinds of a supply in words: "red circle, red square"."""
    kinds = sorted({piece.rsplit("-", 1)[0].replace("-", " ") for piece in supply})
    return ", ".join(kinds)
