"""The Arne Game: card tables for one set of options, the integer action space.

Cards are numbered 0..C-1 in kind order; `card_kind[i]` is the kind of card i. A kind is a
card type with its printed colour (index into `options.colours`, -1 for neutral cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, SeatFrame
from gamenight.games.arne import actions as A
from gamenight.games.arne.black_cards import BLACK_TARGETS
from gamenight.games.arne.components import (
    BLACK_TYPES,
    COLOURED_TYPES,
    NEUTRAL_TYPES,
    POINT_TYPES,
    colours_for,
    deck,
)
from gamenight.games.arne.observation import BASE_TYPES, encode, encoding_size, seat_frame
from gamenight.games.arne.options import Options as ArneOptions
from gamenight.games.arne.state import ArneState
from gamenight.games.arne.white_cards import WHITE_TARGETS


class Arne(Game):
    """Shared tables for every state of one game (stateless)."""

    name = "arne"
    Options = ArneOptions
    action_types = A.ACTION_TYPES

    def __init__(self, options: ArneOptions) -> None:
        super().__init__(options)
        self.options: ArneOptions = options
        self.n = options.players
        self.team = options.variant == "team"
        self.dummy = options.variant == "dummy"
        self.teams = self.n // 2 if self.team else 0
        self.losing = options.mode == "losing"
        colours = options.colours
        self.colours = colours
        # -- kinds: (card type, colour index or -1) ------------------------------------------
        kinds: list[tuple[str, int]] = [
            (card_type, colour) for card_type in COLOURED_TYPES for colour in range(len(colours))
        ] + [(card_type, -1) for card_type in NEUTRAL_TYPES]
        self.kinds = kinds
        self.kind_of = {
            (card_type, colours[colour] if colour >= 0 else ""): kind
            for kind, (card_type, colour) in enumerate(kinds)
        }
        types = [card_type for card_type, _ in kinds]
        self.kind_type = tuple(types)
        self.kind_colour = tuple(colour for _, colour in kinds)
        self.is_point = tuple(card_type in POINT_TYPES for card_type in types)
        self.is_base = tuple(card_type in BASE_TYPES for card_type in types)
        self.is_minus = tuple(card_type == "MINUS200" for card_type in types)
        self.is_black = tuple(card_type in BLACK_TYPES for card_type in types)
        self.kind_name = tuple(
            card_type if colour < 0 else f"{colours[colour]} {card_type}"
            for card_type, colour in kinds
        )
        self.name_kind = {name: kind for kind, name in enumerate(self.kind_name)}
        # -- the deck (2.6, A2, A49, A53) ------------------------------------------------
        owners, stars = options.owners, options.star_colours
        self.deck_colours = colours_for(owners, colours, stars)
        self.deck_colour_idx = tuple(colours.index(c) for c in self.deck_colours)
        counts = deck(owners, options.learning, 2 if self.team else 1, colours, stars)
        card_kind: list[int] = []
        for kind, (card_type, colour) in enumerate(kinds):
            copies = counts.get((card_type, colours[colour] if colour >= 0 else None), 0)
            card_kind.extend([kind] * copies)
        self.card_kind = tuple(card_kind)
        self.num_cards = len(card_kind)
        self.present = tuple(sorted(set(card_kind)))
        self.n_displays = self.n + (1 if self.dummy else 0)
        self.max_stacks = sum(1 for kind in card_kind if self.is_base[kind])
        self.only = tuple(frozenset({player}) for player in range(self.n))
        self.identity = list(range(self.n))
        # seat_order[direction][holder]: the seats from the holder round the table (A15)
        self.seat_order = {
            direction: tuple(
                tuple((holder + direction * i) % self.n for i in range(self.n))
                for holder in range(self.n)
            )
            for direction in (1, -1)
        }
        # per kind: the function listing its legal plays (white_cards.py, black_cards.py)
        self.white_targets = tuple(WHITE_TARGETS.get(card_type) for card_type in types)
        self.black_targets = tuple(BLACK_TARGETS.get(card_type) for card_type in types)
        self._build_actions()

    # -- the integer action space ---------------------------------------------------------
    def _build_actions(self) -> None:
        players, displays, stacks = range(self.n), range(self.n_displays), range(self.max_stacks)
        colours = self.colours
        out: list[Action] = []

        def add(action: Action) -> Action:
            out.append(action)
            return action

        def colour_of(kind: int) -> str:
            colour = self.kind_colour[kind]
            return colours[colour] if colour >= 0 else ""

        self.choose_actions = {c: add(A.ChooseColour(colours[c])) for c in self.deck_colour_idx}
        self.pass_action = add(A.PASS)
        self.draw_three_action = add(A.DrawThree())
        self.pass_hands_action = add(A.PassHands())
        self.thief_discard_action = add(A.ThiefDiscard())
        self.stop_action = add(A.Stop())
        self.reverse_action = add(A.Reverse())
        self.take_random_actions: list[Action] = [add(A.TakeRandom(t)) for t in players]
        self.demand_black_actions: list[Action] = [add(A.DemandBlack(t)) for t in players]
        self.swap_actions: list[Action] = [add(A.SwapPlaces(t)) for t in players]
        self.demand_points_actions = {
            (target, colour, display): add(A.DemandPoints(target, colours[colour], display))
            for target in players
            for colour in self.deck_colour_idx
            for display in displays
        }
        self.point_actions: dict[int, list[Action]] = {}
        self.give_actions: dict[int, Action] = {}
        self.minus_actions: dict[int, list[Action]] = {}
        self.chameleon_actions: dict[int, list[Action]] = {}
        for kind in self.present:
            card, colour = self.kind_type[kind], colour_of(kind)
            if self.is_point[kind]:  # display -1: the discard pile
                self.point_actions[kind] = [
                    add(A.PlayPoint(card, colour, d)) for d in range(-1, self.n_displays)
                ]
            self.give_actions[kind] = add(A.Give(card, colour))
            if self.is_minus[kind]:
                self.minus_actions[kind] = [add(A.MinusTwoHundred(colour, d)) for d in displays]
            if self.is_base[kind]:
                self.chameleon_actions[kind] = [add(A.Chameleon(card, colour, d)) for d in displays]
        self.x3_actions = [[add(A.Triple(d, s)) for s in stacks] for d in displays]
        self.thief_stack_actions = [[add(A.ThiefStack(d, s)) for s in stacks] for d in displays]
        self.crush_actions = [[add(A.Crush(d, s)) for s in stacks] for d in displays]
        self.lock_actions = [[add(A.Lock(d, s)) for s in stacks] for d in displays]
        self.all_actions = tuple(out)
        self.index = {action: i for i, action in enumerate(out)}

    @property
    def players(self) -> int:
        return self.n

    def start(self, seed: int) -> ArneState:
        return ArneState(self, seed)

    @property
    def num_actions(self) -> int:
        return len(self.all_actions)

    def action_index(self, action: Action) -> int:
        try:
            return self.index[action]
        except KeyError:
            raise BadInput(f"{action} is not an action of this arne game") from None

    def action_at(self, index: int) -> Action:
        if not 0 <= index < len(self.all_actions):
            raise BadInput(f"arne action index must be 0..{len(self.all_actions) - 1}, got {index}")
        return self.all_actions[index]

    @property
    def max_decisions(self) -> int:
        """A19 makes every window finite. Per game: colour choices and the final round (n
        each); per turn (at most one per card in the draw pile, A7) three windows of n
        passes and n - 1 passes in advance, the white card and two answers; every black
        action (each card at most once, plus once more per THIEF that fetched it) with the
        passes, in advance or not, it reopens. With thief_may_take_thief a window is bounded
        by its hand measure instead (A19, A29)."""
        n, c = self.n, self.num_cards
        turns = c - n * self.options.hand_size
        blacks = 2 * c
        if self.options.thief_may_take_thief:
            blacks = 2 * c * 3 * turns
        per_game = 2 * n + turns * (6 * n + 3) + blacks * (2 * n + 1)
        return per_game * self.options.series_games

    # -- encoding (observation.py) ---------------------------------------------------------
    @property
    def encoding_size(self) -> int:
        return encoding_size(self)

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """See `observation.encode`."""
        return encode(self, view)

    def seat_frame(self, view: Mapping[str, Any]) -> SeatFrame:
        """See `observation.seat_frame`."""
        return seat_frame(self, view)
