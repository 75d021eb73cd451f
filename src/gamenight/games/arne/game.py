"""The Arne Game: card tables for one set of options, the integer action space, encoding.

Cards are numbered 0..C-1 in kind order; `card_kind[i]` is the kind of card i. A kind is a
card type with its printed colour (index into `options.colours`, -1 for neutral cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game
from gamenight.games.arne import actions as A
from gamenight.games.arne.components import (
    BLACK_TYPES,
    COLOURED_TYPES,
    NEUTRAL_TYPES,
    POINT_TYPES,
    colours_for,
    deck,
)
from gamenight.games.arne.options import Options as ArneOptions

if TYPE_CHECKING:
    from gamenight.games.arne.rules import ArneState

BASE_TYPES = (*POINT_TYPES, "MINUS200")
# View phases, in the order of the state machine (4.2).
PHASES = ("colour", "window", "white", "give", "final", "over")
WINDOWS = ("main", "pre", "end")


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
        self.k_type = tuple(t for t, _ in kinds)
        self.k_col = tuple(ci for _, ci in kinds)
        self.k_point = tuple(t in POINT_TYPES for t, _ in kinds)
        self.k_base = tuple(t in BASE_TYPES for t, _ in kinds)
        self.k_minus = tuple(t == "MINUS200" for t, _ in kinds)
        self.k_black = tuple(t in BLACK_TYPES for t, _ in kinds)
        self.k_name = tuple(t if ci < 0 else f"{colours[ci]} {t}" for t, ci in kinds)
        self.name_kind = {name: k for k, name in enumerate(self.k_name)}
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
        self.max_stacks = sum(1 for k in card_kind if self.k_base[k])
        self.only = tuple(frozenset({p}) for p in range(self.n))
        self.identity = list(range(self.n))
        # seat_order[d][h]: the seats from h round the table in direction d (A15)
        self.seat_order = {
            d: tuple(tuple((h + d * i) % self.n for i in range(self.n)) for h in range(self.n))
            for d in (1, -1)
        }
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
            ci = self.k_col[k]
            return colours[ci] if ci >= 0 else ""

        self.a_choose = {ci: add(A.ChooseColour(colours[ci])) for ci in self.deck_colour_idx}
        self.a_pass = add(A.PASS)
        self.a_draw3 = add(A.DrawThree())
        self.a_pass_hands = add(A.PassHands())
        self.a_thief_discard = add(A.ThiefDiscard())
        self.a_stop = add(A.Stop())
        self.a_reverse = add(A.Reverse())
        self.a_take = [add(A.TakeRandom(t)) for t in range(n)]
        self.a_dblack = [add(A.DemandBlack(t)) for t in range(n)]
        self.a_swap = [add(A.SwapPlaces(t)) for t in range(n)]
        self.a_dpoints = {
            (t, ci, j): add(A.DemandPoints(t, colours[ci], j))
            for t in range(n)
            for ci in self.deck_colour_idx
            for j in range(nd)
        }
        self.a_point: dict[int, list[Action]] = {}
        self.a_give: dict[int, Action] = {}
        self.a_minus: dict[int, list[Action]] = {}
        self.a_cham: dict[int, list[Action]] = {}
        for k in self.present:
            t = self.k_type[k]
            if self.k_point[k]:
                self.a_point[k] = [add(A.PlayPoint(t, cname(k), j)) for j in range(-1, nd)]
            self.a_give[k] = add(A.Give(t, cname(k)))
            if self.k_minus[k]:
                self.a_minus[k] = [add(A.MinusTwoHundred(cname(k), j)) for j in range(nd)]
            if self.k_base[k]:
                self.a_cham[k] = [add(A.Chameleon(t, cname(k), j)) for j in range(nd)]
        self.a_x3 = [[add(A.Triple(j, s)) for s in range(ms)] for j in range(nd)]
        self.a_tstack = [[add(A.ThiefStack(j, s)) for s in range(ms)] for j in range(nd)]
        self.a_crush = [[add(A.Crush(j, s)) for s in range(ms)] for j in range(nd)]
        self.a_lock = [[add(A.Lock(j, s)) for s in range(ms)] for j in range(nd)]
        self.all_actions = tuple(out)
        self.index = {a: i for i, a in enumerate(out)}

    @property
    def players(self) -> int:
        return self.n

    def start(self, seed: int) -> ArneState:
        from gamenight.games.arne.rules import ArneState

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

    # -- encoding ---------------------------------------------------------------------------
    @property
    def encoding_size(self) -> int:
        nk = len(self.kinds)
        return 3 * nk + 1 + self.n_displays * 16 + self.n * 6 + len(PHASES) + len(WINDOWS) + 8

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """Own hand, discard pile and its top, every display (stacks by base and attachments,
        score), every seat (hand size, marks), and the turn state; from one seat's view."""
        nk = len(self.kinds)
        out = np.zeros(self.encoding_size, dtype=np.float32)
        kind = self.name_kind
        me = view.get("player")
        for name in view.get("hand") or ():
            out[kind[name]] += 1 / 3
        for name in view["discard"]:
            out[nk + kind[name]] += 1 / 4
        top = view["discard"][-1] if view["discard"] else None
        if top is None:
            out[3 * nk] = 1
        else:
            out[2 * nk + kind[top]] = 1
        base = 3 * nk + 1
        my_seat = view["seat_of"][me] if me is not None else -1
        for d in view["displays"]:
            f = out[base : base + 16]
            f[0] = d["owner_seat"] == my_seat
            f[1] = d["owner_seat"] is None
            f[2] = d["score"] / 2000
            f[3] = len(d["stacks"]) / 10
            for s in d["stacks"]:
                b = s["base"].split()[-1]
                counted = (not s["lock"]) if b == "MINUS200" else (not s["crush"] or s["lock"])
                f[4 + BASE_TYPES.index(b)] += counted / 3
                f[11] += s["x3"] / 3
                f[12] += s["chameleon"] / 3
                f[13] += (s["crush"] and not s["lock"]) / 3
                f[14] += s["lock"] / 3
            f[15] = d.get("controller_seat") == my_seat and my_seat >= 0
            base += 16
        for seat in view["seats"]:
            f = out[base : base + 6]
            f[0] = seat["hand_size"] / 8
            f[1] = seat["player"] == me
            f[2] = seat["seat"] == view["turn_seat"]
            f[3] = view["window"] is not None and seat["seat"] == view["window"]["holder_seat"]
            f[4] = seat["team"] == (view["seats"][my_seat]["team"] if my_seat >= 0 else -1)
            f[5] = seat["score"] / 2000
            base += 6
        out[base + PHASES.index(view["phase"])] = 1
        base += len(PHASES)
        if view["window"] is not None:
            out[base + WINDOWS.index(view["window"]["kind"])] = 1
        base += len(WINDOWS)
        out[base] = view["draw_pile"] / max(1, self.num_cards)
        out[base + 1] = view["direction"]
        pending = view["pending"]
        out[base + 2] = pending is not None and pending["kind"] == "STOP"
        out[base + 3] = pending is not None and pending["kind"] == "REVERSE"
        out[base + 4] = view["active"] == me
        out[base + 5] = view["to_act"] == me
        out[base + 6] = view["in_play"] is not None
        out[base + 7] = view["game_no"] / self.options.series_games
        return out
