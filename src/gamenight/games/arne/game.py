"""The Arne Game: card tables for one set of options, the integer action space.

Cards are numbered 0..C-1 in kind order; `card_kind[i]` is the kind of card i. A kind is a
card type with its printed colour (index into `options.colours`, -1 for neutral cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game
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
from gamenight.games.arne.observation import BASE_TYPES, encode, encoding_size
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
        o = options
        self.n = o.players
        self.team = o.variant == "team"
        self.dummy = o.variant == "dummy"
        self.teams = self.n // 2 if self.team else 0
        self.losing = o.mode == "losing"
        colours = o.colours
        self.colours = colours
        # -- kinds ---------------------------------------------------------------------
        kinds: list[tuple[str, int]] = [
            (t, ci) for t in COLOURED_TYPES for ci in range(len(colours))
        ] + [(t, -1) for t in NEUTRAL_TYPES]
        self.kinds = kinds
        self.kind_of = {(t, colours[ci] if ci >= 0 else ""): k for k, (t, ci) in enumerate(kinds)}
        self.kind_type = tuple(t for t, _ in kinds)
        self.kind_colour = tuple(ci for _, ci in kinds)
        self.is_point = tuple(t in POINT_TYPES for t, _ in kinds)
        self.is_base = tuple(t in BASE_TYPES for t, _ in kinds)
        self.is_minus = tuple(t == "MINUS200" for t, _ in kinds)
        self.is_black = tuple(t in BLACK_TYPES for t, _ in kinds)
        self.kind_name = tuple(t if ci < 0 else f"{colours[ci]} {t}" for t, ci in kinds)
        self.name_kind = {name: k for k, name in enumerate(self.kind_name)}
        # -- the deck (2.6, A2, A49, A53) ------------------------------------------------
        self.deck_colours = colours_for(o.owners, colours, o.star_colours)
        self.deck_colour_idx = tuple(colours.index(c) for c in self.deck_colours)
        counts = deck(o.owners, o.learning, 2 if self.team else 1, colours, o.star_colours)
        card_kind: list[int] = []
        for k, (t, ci) in enumerate(kinds):
            card_kind.extend([k] * counts.get((t, colours[ci] if ci >= 0 else None), 0))
        self.card_kind = tuple(card_kind)
        self.num_cards = len(card_kind)
        self.present = tuple(sorted(set(card_kind)))
        self.n_displays = self.n + (1 if self.dummy else 0)
        self.max_stacks = sum(1 for k in card_kind if self.is_base[k])
        self.only = tuple(frozenset({p}) for p in range(self.n))
        self.identity = list(range(self.n))
        # seat_order[d][h]: the seats from h round the table in direction d (A15)
        self.seat_order = {
            d: tuple(tuple((h + d * i) % self.n for i in range(self.n)) for h in range(self.n))
            for d in (1, -1)
        }
        # per kind: the function listing its legal plays (white_cards.py, black_cards.py)
        self.white_targets = tuple(WHITE_TARGETS.get(t) for t in self.kind_type)
        self.black_targets = tuple(BLACK_TARGETS.get(t) for t in self.kind_type)
        self._build_actions()

    # -- the integer action space ---------------------------------------------------------
    def _build_actions(self) -> None:
        n, nd, ms = self.n, self.n_displays, self.max_stacks
        colours = self.colours
        out: list[Action] = []

        def add(a: Action) -> Action:
            out.append(a)
            return a

        def cname(k: int) -> str:
            ci = self.kind_colour[k]
            return colours[ci] if ci >= 0 else ""

        self.choose_actions = {ci: add(A.ChooseColour(colours[ci])) for ci in self.deck_colour_idx}
        self.pass_action = add(A.PASS)
        self.draw_three_action = add(A.DrawThree())
        self.pass_hands_action = add(A.PassHands())
        self.thief_discard_action = add(A.ThiefDiscard())
        self.stop_action = add(A.Stop())
        self.reverse_action = add(A.Reverse())
        self.take_random_actions: list[Action] = [add(A.TakeRandom(t)) for t in range(n)]
        self.demand_black_actions: list[Action] = [add(A.DemandBlack(t)) for t in range(n)]
        self.swap_actions: list[Action] = [add(A.SwapPlaces(t)) for t in range(n)]
        self.demand_points_actions = {
            (t, ci, j): add(A.DemandPoints(t, colours[ci], j))
            for t in range(n)
            for ci in self.deck_colour_idx
            for j in range(nd)
        }
        self.point_actions: dict[int, list[Action]] = {}
        self.give_actions: dict[int, Action] = {}
        self.minus_actions: dict[int, list[Action]] = {}
        self.chameleon_actions: dict[int, list[Action]] = {}
        for k in self.present:
            t = self.kind_type[k]
            if self.is_point[k]:
                self.point_actions[k] = [add(A.PlayPoint(t, cname(k), j)) for j in range(-1, nd)]
            self.give_actions[k] = add(A.Give(t, cname(k)))
            if self.is_minus[k]:
                self.minus_actions[k] = [add(A.MinusTwoHundred(cname(k), j)) for j in range(nd)]
            if self.is_base[k]:
                self.chameleon_actions[k] = [add(A.Chameleon(t, cname(k), j)) for j in range(nd)]
        self.x3_actions = [[add(A.Triple(j, s)) for s in range(ms)] for j in range(nd)]
        self.thief_stack_actions = [[add(A.ThiefStack(j, s)) for s in range(ms)] for j in range(nd)]
        self.crush_actions = [[add(A.Crush(j, s)) for s in range(ms)] for j in range(nd)]
        self.lock_actions = [[add(A.Lock(j, s)) for s in range(ms)] for j in range(nd)]
        self.all_actions = tuple(out)
        self.index = {a: i for i, a in enumerate(out)}

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
