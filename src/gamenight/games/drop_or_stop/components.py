"""Drop or Stop components as data: the 39 drop cards (spec §2.2) and their presets.

A deck is a list of card kinds with copies; the physical cards are numbered 0..38 and each
number maps to a kind. Presets come from the spec's table; a JSON file in the spec's
machine-readable format (§2.2) can replace them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamenight.engine.core import BadInput, said_in
from gamenight.i18n import N_

DECK_SIZE = 39  # R2
FLEX_VALUES = (1, 5)  # §2.3

# Preset name -> copies of the fixed values 1..6 and of FLEX (spec §2.2, second table).
PRESETS: dict[str, dict[str, int]] = {
    "standard": {"D1": 7, "D2": 7, "D3": 7, "D4": 7, "D5": 7, "FLEX": 4},
    "descending": {"D1": 9, "D2": 8, "D3": 7, "D4": 6, "D5": 5, "FLEX": 4},
    "1to6": {"D1": 6, "D2": 6, "D3": 6, "D4": 6, "D5": 6, "D6": 6, "FLEX": 3},
}


def refused(template: str, **words: object) -> BadInput:
    """A refusal of a deck or deck file: `template` (marked N_) is a sentence of Drop or
    Stop's catalogue, said in the reader's language where it is shown; its words (the
    file's name, ids, values) as they are, the deck it names (`deck_named`) translated
    with it."""
    return BadInput(said_in(__package__ or "", template, **words))


def deck_named(template: str, **words: object) -> str:
    """The deck a refusal is about, in words ("deck file my.json", "preset standard")."""
    return said_in(__package__ or "", template, **words)


@dataclass(frozen=True)
class CardKind:
    """One kind of drop card: fixed(value) or flex(lo|hi) (R2)."""

    id: str
    flex: bool
    value: int  # the fixed value, or the low flex value
    copies: int


@dataclass(frozen=True)
class Deck:
    """A validated 39-card deck. `card_kind[i]` is the kind index of physical card i."""

    kinds: tuple[CardKind, ...]
    flex_values: tuple[int, int]

    @property
    def card_kind(self) -> tuple[int, ...]:
        return tuple(k for k, kind in enumerate(self.kinds) for _ in range(kind.copies))

    @property
    def size(self) -> int:
        return sum(k.copies for k in self.kinds)

    def smallest_hand(self, hand_size: int) -> int:
        """The lowest value a hidden hand can have (flex as low): for the 'certainly over' mark."""
        values = sorted(k.value for k in self.kinds for _ in range(k.copies))
        return sum(values[:hand_size])


def _kind_from_json(entry: Any, flex_values: tuple[int, int], where: str) -> CardKind:
    if not isinstance(entry, dict):
        raise refused(
            N_("{where}: a deck entry is an object, got {entry}"), where=where, entry=repr(entry)
        )
    cid, kind, copies = entry.get("id"), entry.get("kind"), entry.get("copies")
    if not isinstance(cid, str) or not cid:
        raise refused(N_("{where}: every deck entry needs a text 'id'"), where=where)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        raise refused(
            N_("{where}: card {card}: 'copies' must be a whole number >= 1"), where=where, card=cid
        )
    if kind == "fixed":
        value = entry.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise refused(
                N_("{where}: card {card}: a fixed card needs an integer 'value' >= 1"),
                where=where,
                card=cid,
            )
        return CardKind(cid, False, value, copies)
    if kind == "flex":
        values = entry.get("values")
        if not isinstance(values, list) or tuple(values) != flex_values:
            raise refused(
                N_(
                    "{where}: card {card}: flex 'values' {values} must equal flexValues "
                    "{flex} (spec §2.2)"
                ),
                where=where,
                card=cid,
                values=repr(values),
                flex=list(flex_values),
            )
        return CardKind(cid, True, flex_values[0], copies)
    raise refused(
        N_("{where}: card {card}: 'kind' must be 'fixed' or 'flex' (R2), got {kind}"),
        where=where,
        card=cid,
        kind=repr(kind),
    )


def deck_from_json(doc: Any, where: str = "") -> Deck:
    """A Deck from the spec's machine-readable form; refuses anything but 39 cards (R2).
    `where` names the deck in a refusal (`deck_named`; "" is "deck")."""
    where = where or deck_named(N_("deck"))
    if not isinstance(doc, dict) or not isinstance(doc.get("deck"), list):
        raise refused(N_("{where}: expected an object with a 'deck' list (spec §2.2)"), where=where)
    raw_flex = doc.get("flexValues", list(FLEX_VALUES))
    if (
        not isinstance(raw_flex, list)
        or len(raw_flex) != 2
        or not all(isinstance(v, int) for v in raw_flex)
        or not 1 <= raw_flex[0] < raw_flex[1]
    ):
        raise refused(N_("{where}: 'flexValues' must be two increasing whole numbers"), where=where)
    flex_values = (raw_flex[0], raw_flex[1])
    kinds = tuple(_kind_from_json(e, flex_values, where) for e in doc["deck"])
    ids = [k.id for k in kinds]
    if len(set(ids)) != len(ids):
        raise refused(N_("{where}: card ids must be unique, got {ids}"), where=where, ids=ids)
    total = sum(k.copies for k in kinds)
    if total != DECK_SIZE:
        raise refused(
            N_("{where}: the deck has {total} cards; it must have exactly {size} (R2)"),
            where=where,
            total=total,
            size=DECK_SIZE,
        )
    return Deck(kinds, flex_values)


def preset_json(name: str) -> dict[str, Any]:
    """A preset in the spec's JSON form (what a user copies to make their own deck file)."""
    deck = []
    for cid, copies in PRESETS[name].items():
        if cid == "FLEX":
            deck.append({"id": cid, "kind": "flex", "values": list(FLEX_VALUES), "copies": copies})
        else:
            deck.append({"id": cid, "kind": "fixed", "value": int(cid[1:]), "copies": copies})
    return {"flexValues": list(FLEX_VALUES), "deck": deck}


def load_deck(spec: str) -> Deck:
    """`spec` is a preset name or the path of a JSON deck file."""
    if spec in PRESETS:
        return deck_from_json(preset_json(spec), deck_named(N_("preset {name}"), name=spec))
    path = Path(spec)
    if not path.suffix == ".json":
        raise refused(
            N_("deck {deck} is neither a preset ({presets}) nor a .json file"),
            deck=repr(spec),
            presets=", ".join(PRESETS),
        )
    try:
        doc = json.loads(path.read_text())
    except OSError as err:
        raise refused(
            N_("cannot read deck file {file}: {error}"), file=spec, error=err.strerror
        ) from err
    except ValueError as err:  # not JSON, or not even text (UnicodeDecodeError)
        raise refused(N_("deck file {file} is not JSON: {error}"), file=spec, error=err) from err
    return deck_from_json(doc, deck_named(N_("deck file {file}"), file=spec))
