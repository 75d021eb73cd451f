"""Drop or Stop the game: options resolved to card tables, start, the action space."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

import numpy as np

from gamenight.engine.core import Action, BadInput, Event, Game
from gamenight.games.drop_or_stop import observation
from gamenight.games.drop_or_stop.actions import DROP_OR_STOP, Drop, Stop
from gamenight.games.drop_or_stop.components import DECK_SIZE, Deck, load_deck
from gamenight.games.drop_or_stop.options import FILE_SETTINGS, refused
from gamenight.games.drop_or_stop.options import Options as DropOrStopOptions
from gamenight.games.drop_or_stop.scoring import OVERFLOW_RANK, flex_choices, round_total
from gamenight.games.drop_or_stop.state import DropOrStopState
from gamenight.i18n import N_


class DropOrStop(Game):
    """Drop or Stop?! (spec rules/drop-or-stop.md)."""

    name = "drop-or-stop"
    Options = DropOrStopOptions
    action_types = (Drop, Stop)

    def __init__(self, options: DropOrStopOptions) -> None:
        super().__init__(options)
        self.options: DropOrStopOptions = options
        self.deck: Deck = load_deck(options.deck)
        self.flex_values = self.deck.flex_values
        kinds = self.deck.kinds
        self.card_kind = self.deck.card_kind
        self.card_id = tuple(kinds[k].id for k in self.card_kind)
        self.is_flex = tuple(kinds[k].flex for k in self.card_kind)
        self.low_value = tuple(kinds[k].value for k in self.card_kind)
        self.fixed_value = tuple(0 if kinds[k].flex else kinds[k].value for k in self.card_kind)
        self.kind_index = {k.id: i for i, k in enumerate(kinds)}
        # What every card id is worth, shown in views: {"D3": {"flex": false, "value": 3}}.
        self.card_table = {k.id: {"flex": k.flex, "value": k.value} for k in kinds}
        self.smallest_hand = self.deck.smallest_hand(options.hand_size)
        # A seat's cards are looked up by one number, their weight: a flex card weighs
        # flex_weight, any other card its value, so a weight is flex count * flex_weight +
        # fixed sum (the fixed sum never reaches flex_weight) and a drop adds one number.
        self.flex_weight = flex_weight = sum(self.fixed_value) + 1
        self.card_weight = tuple(
            flex_weight if flex else value
            for flex, value in zip(self.is_flex, self.fixed_value, strict=True)
        )
        weights = range(flex_weight * (sum(self.is_flex) + 1))
        # §7 total by weight (None: OVERFLOW, R17).
        self.total_at = tuple(
            round_total(w % flex_weight, w // flex_weight, options.target, self.flex_values)
            for w in weights
        )
        # R17-R19 and R29 at reveal, by weight: (rank, total as shown, flex values);
        # OVERFLOW's rank is below every total.
        self.reveal_at = tuple(
            (
                OVERFLOW_RANK if total is None else total,
                "OVERFLOW" if total is None else total,
                # a list, as events hold it; shared by every reveal (never changed)
                flex_choices(w % flex_weight, w // flex_weight, options.target, self.flex_values),
            )
            for w, total in zip(weights, self.total_at, strict=True)
        )
        # Hot-path copies of options and the private-event audiences.
        self.target = options.target
        self.hand_size = options.hand_size
        self.allow_overflow_drop = options.allow_drop_when_overflowed
        self.wins_to_win = options.wins_to_win
        self.max_rounds = options.max_rounds
        n = options.players
        self.only = tuple(frozenset((seat,)) for seat in range(n))
        self.deal_order = tuple(tuple((start + i) % n for i in range(n)) for start in range(n))
        # R7's deal from the top of the pile (its end), as slices: with `start` first, the
        # seat dealt k-th gets the k-th HAND_SIZE cards from the top, top card first.
        size = options.hand_size
        self.cards_dealt = n * size
        self.hand_cuts = tuple(
            tuple(
                slice(-k * size - 1, -(k + 1) * size - 1, -1)
                for k in ((seat - start) % n for seat in range(n))
            )
            for start in range(n)
        )
        # §5 nextActive's search order: the seats after s clockwise, s itself last (R9).
        self.after = tuple(tuple((seat + i) % n for i in range(1, n + 1)) for seat in range(n))
        self.alone = tuple((seat,) for seat in range(n))  # `actors` while `seat` is to act
        # The events of a DROP of card c by seat s and of a STOP by s, made once and shared
        # by every state of this game (events are never changed once made).
        self.drop_events = tuple(
            tuple(Event("dropped", {"seat": seat, "card": card}) for card in self.card_id)
            for seat in range(n)
        )
        self.stop_events = tuple(Event("stopped", {"seat": seat}) for seat in range(n))

    @classmethod
    def from_options(cls, **given: Any) -> Self:
        """Settings in a deck file (§2.2 block) apply unless given explicitly."""
        deck = given.get("deck")
        if isinstance(deck, str) and deck.endswith(".json") and Path(deck).is_file():
            try:
                doc = json.loads(Path(deck).read_text())
            except (OSError, ValueError):  # unreadable, not text (binary) or not JSON
                doc = None  # load_deck reports the problem with the file
            if isinstance(doc, dict):
                unknown = set(doc) - set(FILE_SETTINGS) - {"deck", "flexValues"}
                if unknown:
                    raise refused(
                        N_("deck file {file}: unknown key(s) {keys}"),
                        file=deck,
                        keys=sorted(unknown),
                    )
                for key, name in FILE_SETTINGS.items():
                    if key in doc and name not in given:
                        given[name] = doc[key]
        return super().from_options(**given)

    @property
    def players(self) -> int:
        return int(self.options.players)

    def start(self, seed: int) -> DropOrStopState:
        return DropOrStopState(self, seed)

    def value(self, cards: list[int]) -> int | None:
        """§7 value of a set of cards."""
        fixed = flex = 0
        for c in cards:
            if self.is_flex[c]:
                flex += 1
            else:
                fixed += self.low_value[c]
        return round_total(fixed, flex, self.options.target, self.flex_values)

    def multiset(self, cards: list[int]) -> dict[str, int]:
        return dict(sorted(Counter(self.card_id[c] for c in cards).items()))

    # -- integer action space and encoding ----------------------------------------------
    @property
    def num_actions(self) -> int:
        return 2

    def action_index(self, action: Action) -> int:
        return 0 if isinstance(action, Drop) else 1

    def action_at(self, index: int) -> Action:
        if index not in (0, 1):
            raise BadInput(f"drop-or-stop actions are 0 (drop) and 1 (stop), got {index}")
        return DROP_OR_STOP[index]

    @property
    def max_decisions(self) -> int | None:
        """R15 bounds a round by 39 - N turns; only a round cap (R34) bounds a game."""
        cap = self.options.max_rounds
        return None if cap is None else cap * (DECK_SIZE - self.players)

    @property
    def encoding_size(self) -> int:
        return observation.encoding_size(self)

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """See observation.encode."""
        return observation.encode(self, view)
