"""Arne's cards as data (spec section 2), validated against the spec's sanity totals.

The deck table is the CSV of spec section 11, copied verbatim: one row per card type with
its counts per deck group (S, S1, N, N1). Coloured rows are per colour and appear only in
the groups of their colour (star colours in S/S1, the others in N/N1), see 2.4 and 2.6.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

DECK_CSV = """\
card,white,coloured,S,S1,N,N1
P50,1,1,1,1,1,1
P100,1,1,2,1,1,2
P200,1,1,0,2,0,2
P500,1,1,0,1,0,1
P1000,1,1,0,1,0,1
X2,1,1,1,0,1,0
MINUS200,0,1,0,1,0,1
STOP,0,0,0,2,2,2
CRUSH,0,0,0,2,3,2
REVERSE,0,0,0,1,4,1
CHAMELEON,0,0,0,2,2,2
THIEF,0,0,0,3,4,2
LOCK,0,0,0,2,2,2
X3,1,0,1,1,2,2
TAKE_RANDOM,1,0,0,1,1,2
DEMAND_POINTS,1,0,0,1,1,2
DEMAND_BLACK,1,0,1,0,1,1
DRAW_THREE,1,0,0,1,1,2
PASS_HANDS,1,0,1,0,2,0
SWAP_PLACES,1,0,1,0,3,0
"""

GROUPS = ("S", "S1", "N", "N1")
STAR_GROUPS = ("S", "S1")
DEFAULT_COLOURS = ("red", "green", "yellow", "blue", "c5", "c6")
DEFAULT_STAR_COLOURS = ("c5", "c6")
DEFAULT_COLOUR_NAMES = (("c5", "purple"), ("c6", "orange"))

# 2.2: point cards are P50..P1000 and X2; face values (X2 multiplies instead, A45).
FACE = {"P50": 50, "P100": 100, "P200": 200, "P500": 500, "P1000": 1000, "X2": 0}
POINT_TYPES = tuple(FACE)
# White action cards declared with a pre-window (A11).
PRE_WINDOW_TYPES = frozenset(
    {"TAKE_RANDOM", "DEMAND_POINTS", "DEMAND_BLACK", "DRAW_THREE", "SWAP_PLACES"}
)

NONE = -1  # no card, colour, display or seat here
EMPTY: frozenset[int] = frozenset()  # no cards (nothing known of a hand, A58)


class Stack(NamedTuple):
    """A stack in a display, as card ids (NONE: not there): a base card (a point card,
    X2 or -200; A21, A30) and what lies on it (chameleon A31, X3 A22, CRUSH A32, LOCK A33)."""

    base: int
    chameleon: int = NONE
    x3: int = NONE
    crush: int = NONE
    lock: int = NONE


# Spec 2.5 / 11 sanity values.
GROUP_TOTALS = {"S": 12, "S1": 30, "N": 40, "N1": 52}
BOX_TOTAL = 134
NO_STAR_DECK = (92, 60, 32)  # cards, white, black
STAR_DECK = (42, 28, 14)


@dataclass(frozen=True)
class CardType:
    """One row of the deck table."""

    id: str
    white: bool
    coloured: bool
    counts: dict[str, int]  # per group; for coloured types: per colour of that group

    @property
    def black(self) -> bool:
        return not self.white

    @property
    def point(self) -> bool:
        return self.id in FACE


def _load_types() -> dict[str, CardType]:
    rows = list(csv.DictReader(io.StringIO(DECK_CSV)))
    types = {}
    for row in rows:
        types[row["card"]] = CardType(
            id=row["card"],
            white=row["white"] == "1",
            coloured=row["coloured"] == "1",
            counts={g: int(row[g]) for g in GROUPS},
        )
    return types


TYPES: dict[str, CardType] = _load_types()
TYPE_IDS = tuple(TYPES)
COLOURED_TYPES = tuple(t for t in TYPE_IDS if TYPES[t].coloured)
NEUTRAL_TYPES = tuple(t for t in TYPE_IDS if not TYPES[t].coloured)
BLACK_TYPES = frozenset(t for t in TYPE_IDS if TYPES[t].black)


def group_cards(
    group: str,
    colours: tuple[str, ...] = DEFAULT_COLOURS,
    star_colours: tuple[str, ...] = DEFAULT_STAR_COLOURS,
) -> Counter[tuple[str, str | None]]:
    """The cards of one deck group as a multiset of (type, colour or None) (2.4)."""
    star = group in STAR_GROUPS
    out: Counter[tuple[str, str | None]] = Counter()
    for t in TYPES.values():
        count = t.counts[group]
        if not count:
            continue
        if t.coloured:
            for c in colours:
                if (c in star_colours) == star:
                    out[(t.id, c)] += count
        else:
            out[(t.id, None)] += count
    return out


def groups_for(owners: int, learning: bool) -> tuple[str, ...]:
    """2.6: the groups used for a number of owners (players, teams, or players + dummy)."""
    if owners <= 2:
        return ("S1",) if learning else ("S", "S1")
    if owners <= 4:
        return ("N1",) if learning else ("N", "N1")
    return ("S1", "N1") if learning else GROUPS


def colours_for(
    owners: int,
    colours: tuple[str, ...] = DEFAULT_COLOURS,
    star_colours: tuple[str, ...] = DEFAULT_STAR_COLOURS,
) -> tuple[str, ...]:
    """2.6: the colours in the deck for a number of owners."""
    if owners <= 2:
        return tuple(c for c in colours if c in star_colours)
    if owners <= 4:
        return tuple(c for c in colours if c not in star_colours)
    return tuple(colours)


def deck(
    owners: int,
    learning: bool,
    boxes: int = 1,
    colours: tuple[str, ...] = DEFAULT_COLOURS,
    star_colours: tuple[str, ...] = DEFAULT_STAR_COLOURS,
) -> Counter[tuple[str, str | None]]:
    """The whole deck for a game (2.6; team game: both boxes, A53)."""
    out: Counter[tuple[str, str | None]] = Counter()
    for g in groups_for(owners, learning):
        for card, count in group_cards(g, colours, star_colours).items():
            out[card] += count * boxes
    return out


def validate() -> None:
    """Assert the sanity totals of spec 2.5 and section 11 (run on import)."""
    for g, total in GROUP_TOTALS.items():
        got = sum(group_cards(g).values())
        if got != total:
            raise AssertionError(f"group {g} has {got} cards, spec says {total}")

    def split(cards: Counter[tuple[str, str | None]]) -> tuple[int, int, int]:
        white = sum(n for (t, _), n in cards.items() if TYPES[t].white)
        total = sum(cards.values())
        return total, white, total - white

    if sum(deck(6, False).values()) != BOX_TOTAL:
        raise AssertionError("the box does not hold 134 cards")
    if split(deck(4, False)) != NO_STAR_DECK:
        raise AssertionError(f"no-star deck is {split(deck(4, False))}, not {NO_STAR_DECK}")
    if split(deck(2, False)) != STAR_DECK:
        raise AssertionError(f"star deck is {split(deck(2, False))}, not {STAR_DECK}")
    # 2.3: every colour has 11 cards; learning game 8 (no star) or 7 (star).
    for c in DEFAULT_COLOURS:
        full = sum(n for (_, col), n in deck(6, False).items() if col == c)
        learn = sum(n for (_, col), n in deck(6, True).items() if col == c)
        if full != 11 or learn != (7 if c in DEFAULT_STAR_COLOURS else 8):
            raise AssertionError(f"colour {c}: {full} cards, {learn} in the learning game")


validate()
