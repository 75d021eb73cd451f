"""Arne's state machine (spec section 4): setup, turns, reaction windows, effects, the end.

Representation: hands are sorted lists of card ids per player; the draw pile is a list
(top = end); the discard pile is a list (top = end); a display is a list of stacks, each a
tuple (base, chameleon, x3, crush, lock) of card ids (-1 = none). Seats and players differ
only after SWAP_PLACES (A56): `seat_of[player]`, `player_at[seat]`.

Knowledge (A58): `known[r][p]` is the frozenset of card ids that player r knows to be in
player p's hand; `determinize` keeps those and resamples the rest.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Any, Self

from gamenight.engine.core import Action, Event, Outcome, State
from gamenight.games.arne import actions as A
from gamenight.games.arne.components import PRE_WINDOW_TYPES
from gamenight.games.arne.game import Arne
from gamenight.games.arne.scoring import Stack, display_score, player_scores

# phases
COLOUR, WINDOW, WHITE, GIVE, FINAL, OVER = range(6)
PHASE_NAMES = ("colour", "window", "white", "give", "final", "over")
MAIN, PRE, END = range(3)
WINDOW_NAMES = ("main", "pre", "end")
NONE = -1
Stk = tuple[int, int, int, int, int]  # base, chameleon, x3, crush, lock
EMPTY: frozenset[int] = frozenset()
# The white action card each declaration plays (A22-A28).
WHITE_CARD: dict[type[Action], str] = {
    A.Triple: "X3",
    A.TakeRandom: "TAKE_RANDOM",
    A.DemandPoints: "DEMAND_POINTS",
    A.DemandBlack: "DEMAND_BLACK",
    A.DrawThree: "DRAW_THREE",
    A.PassHands: "PASS_HANDS",
    A.SwapPlaces: "SWAP_PLACES",
}


_JSON: dict[Action, dict[str, Any]] = {}
_new_event = tuple.__new__  # Event(kind, data, to) without the NamedTuple's keyword handling


def _json(action: Action) -> dict[str, Any]:
    """`action.to_json()`, a fresh dict each time, built once per action (events name every
    declared and black action)."""
    obj = _JSON.get(action)
    if obj is None:
        obj = _JSON[action] = action.to_json()
    return dict(obj)


class ArneState(State):
    """One moment of a game (or series) of Arne."""

    game: Arne

    def __init__(self, game: Arne, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.history = []
        self._log = []
        self._priv: list[tuple[int, tuple[int, ...], int]] = []  # (log index, cards, history i)
        self._actors = ()
        n = game.n
        self.game_no = 0
        self.turns = 0
        self.totals = [0] * n
        self.results: list[list[int]] = []
        first = game.options.first_seat
        self.series_first = self.rng.randrange(n) if first == "random" else int(first)
        self._emit(
            "series",
            players=n,
            games=game.options.series_games,
            mode=game.options.mode,
            variant=game.options.variant,
        )
        self._setup()

    # ======================================================================================
    # setup (A1-A5, A49, A53, A55)
    # ======================================================================================
    def _setup(self) -> None:
        g = self.game
        n = g.n
        self.game_no += 1
        self.first_seat = (self.series_first + self.game_no - 1) % n  # A5, A55
        self.seat_of = list(range(n))  # A56
        self.player_at = list(range(n))
        self.seat_colour = [NONE] * n
        self.disp_colour = [NONE] * g.n_displays
        self.displays: list[list[Stk]] = [[] for _ in range(g.n_displays)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck = list(range(g.num_cards))
        self.rng.shuffle(self.deck)  # A4, A48
        self.discard: list[int] = []
        self.known: list[list[frozenset[int]]] = [[EMPTY] * n for _ in range(n)]
        self.d = 1
        self.turn_seat = self.first_seat
        self.active = self.player_at[self.first_seat]
        self.pending: tuple[str, int] | None = None
        self.in_play = NONE
        self.decl: Action | None = None
        self.wkind = MAIN
        self.holder = 0
        self.quiet = 0
        self.played = False
        self.fetched = (0,) * n  # A29 guard: thieves fetched this window, per player
        self.early: frozenset[int] = EMPTY  # players who passed in advance (window)
        self.give: tuple[int, int, str, int, int] | None = None  # target, to, P/B, colour, left
        self.give_disp = NONE
        self.final_order: tuple[int, ...] = ()
        self.final_pos = 0
        self.dummy_ctrl = NONE  # A51: the seat holding the dummy card
        self.displays_of: dict[int, tuple[int, ...]] = {}  # colour -> displays (A21, A30)
        self._emit("game", game_no=self.game_no, first_seat=self.first_seat)
        if g.options.colour_assignment == "random":
            free = list(g.deck_colour_idx)
            self.rng.shuffle(free)
            owners = g.teams if g.team else n
            for s in range(owners):
                self._set_colour(s, free[s])
            self._after_colours()
        else:
            owners = g.teams if g.team else n
            self.choosers = tuple((self.first_seat + i) % n for i in range(owners))
            self.choose_pos = 0
            self.phase = COLOUR
            self._actors = (self.player_at[self.choosers[0]],)

    def _set_colour(self, seat: int, ci: int) -> None:
        """A3; team game: seat i belongs to team i mod T and shares its colour (A53)."""
        g = self.game
        seats = [s for s in range(g.n) if s % g.teams == seat % g.teams] if g.team else [seat]
        for s in seats:
            self.seat_colour[s] = ci
            self.disp_colour[s] = ci
        self._emit("colour", seats=seats, colour=g.colours[ci])

    def _after_colours(self) -> None:
        g = self.game
        if g.dummy:  # A49: the dummy colour at random among the unowned ones
            free = [ci for ci in g.deck_colour_idx if ci not in self.seat_colour]
            ci = free[self.rng.randrange(len(free))]
            self.disp_colour[g.n] = ci
            self._emit("dummy", display=g.n, colour=g.colours[ci])
        colours = self.disp_colour
        self.displays_of = {
            ci: tuple(j for j in range(g.n_displays) if colours[j] == ci) for ci in set(colours)
        }
        self._deal()

    def _deal(self) -> None:
        """A4: deal hand_size cards to each player, from the first seat on."""
        g = self.game
        n = g.n
        for i in range(n):
            p = self.player_at[(self.first_seat + i) % n]
            cards = [self.deck.pop() for _ in range(g.options.hand_size)]
            cards.sort()
            self.hands[p] = cards
        self._emit("dealt", hand_sizes=[len(h) for h in self.hands], draw_pile=len(self.deck))
        for p in range(n):
            self._emit_cards("hand", g.only[p], self.hands[p], player=p)
        self._start_turn(self.first_seat)

    # ======================================================================================
    # turns (A6-A14)
    # ======================================================================================
    def _start_turn(self, seat: int) -> None:
        """A6, A7, A8."""
        self.turns += 1
        self.turn_seat = seat
        p = self.active = self.player_at[seat]
        self.pending = None
        self._emit("turn", seat=seat, player=p, direction=self.d)
        self._draw(p, 1)
        self._open_window(MAIN, seat)

    def _draw(self, p: int, count: int) -> None:
        """A7, A26: the count is public, the cards private."""
        m = min(count, len(self.deck))
        cards = [self.deck.pop() for _ in range(m)]
        hand = self.hands[p]
        for c in cards:
            insort(hand, c)
        self._emit("drew", player=p, count=m, draw_pile=len(self.deck))
        if m:
            self._emit_cards("drew_cards", self.game.only[p], cards, player=p)

    def _open_window(self, wkind: int, seat: int) -> None:
        """A15: priority starts at `seat`; A16: the quiet counter starts at 0."""
        self.phase = WINDOW
        self.wkind = wkind
        self.holder = seat
        self.quiet = 0
        self.played = False
        self.early = EMPTY
        if self.game.options.thief_may_take_thief:
            self.fetched = (0,) * self.game.n
        self._window_actors()

    def _window_actors(self) -> None:
        """The holder, then every seat that may still get priority, in priority order, less
        those who passed in advance (public facts only, A17)."""
        order = self.game.seat_order[self.d][self.holder]  # seats from the holder on
        at = self.player_at
        early = self.early
        if early:
            self._actors = (at[order[0]], *(at[s] for s in order[1:] if at[s] not in early))
        elif self.seat_of == self.game.identity:  # nobody swapped: seats are players
            self._actors = order
        else:
            self._actors = tuple(map(at.__getitem__, order))

    def _pass_priority(self) -> None:
        """A16: count quiet players; the window closes when all n have been quiet. A player
        who passed in advance passes now, seen exactly as a chosen pass."""
        n = self.game.n
        quiet = 1 if self.played else self.quiet + 1
        self.played = False
        holder = self.holder
        while quiet < n:
            holder = (holder + self.d) % n
            p = self.player_at[holder]
            if p not in self.early:
                self.quiet = quiet
                self.holder = holder
                self._window_actors()
                return
            self.early = self.early - {p}
            self._emit("pass", player=p)
            quiet += 1
        self.quiet = quiet
        self.holder = holder
        self._close_window()

    def _close_window(self) -> None:
        w = self.wkind
        if w == MAIN:
            # A9: the white step, or no white card at all (looks alike to others, A20).
            if self._has_white(self.active):
                self.phase = WHITE
                self._actors = (self.active,)
            else:
                self._emit("no_white", player=self.active)
                self._end_of_turn()
        elif w == PRE:
            self._resolve()
        else:
            self._end_of_turn()

    def _end_of_turn(self) -> None:
        """A13, A14, A37, A38."""
        g = self.game
        n = g.n
        if not self.deck:
            self._start_final()
            return
        pend = self.pending
        if pend is None:
            nxt = (self.turn_seat + self.d) % n
        elif pend[0] == "STOP":
            nxt = self.seat_of[pend[1]]
        else:
            self.d = -self.d
            if g.options.reverse_mode == "flip_and_take" or (
                n == 2 and g.options.two_player_reverse_as_stop
            ):
                nxt = self.seat_of[pend[1]]
            else:
                nxt = (self.turn_seat + self.d) % n
        self._start_turn(nxt)

    # ======================================================================================
    # legal actions
    # ======================================================================================
    def actions(self, seat: int) -> list[Action]:
        if not self._actors or (
            seat != self._actors[0] and (self.phase != WINDOW or seat not in self._actors)
        ):
            return []
        g = self.game
        phase = self.phase
        if phase == WINDOW:
            if seat != self.player_at[self.holder]:
                return [g.a_pass]  # a pass in advance (DESIGN: the server may allow it)
            out = [g.a_pass]
            if self.wkind == MAIN and seat == self.active:
                out += self._whites(seat)  # A8
            out += self._blacks(seat, False)
            return out
        if phase == WHITE:
            return self._whites(seat)
        if phase == FINAL:
            return [g.a_pass, *self._blacks(seat, True)]
        if phase == GIVE:
            return self._gives()
        if phase == COLOUR:
            taken = set(self.seat_colour)
            return [a for ci, a in g.a_choose.items() if ci not in taken]
        return []

    def _refusal(self, seat: int, action: Action) -> str | None:
        """The base check (`action in actions(seat)`), with shortcuts for the common cases
        that build only the part of the list the action can be in. `act` has already
        checked that `seat` is in `actors`. A refused action always gets the full list."""
        phase = self.phase
        kind = type(action)
        if kind is A.Pass:  # every listed seat may pass in a window and in the final round
            if phase in (WINDOW, FINAL):
                return None
        elif phase == WINDOW and seat == self.player_at[self.holder]:
            if kind in A.WHITE_ACTIONS:
                if self.wkind == MAIN and seat == self.active and action in self._whites(seat):
                    return None
            elif action in self._blacks(seat, False):
                return None
        return super()._refusal(seat, action)

    def _own_colour(self, p: int) -> int:
        return self.seat_colour[self.seat_of[p]]

    def _has_white(self, p: int) -> bool:
        """`bool(self._whites(p))` without building the list: every white card but an X3
        always has a use (A20); an X3 needs a stack without one."""
        hand = self.hands[p]
        if not hand:
            return False
        g = self.game
        ck = g.card_kind
        black = g.k_black
        types = g.k_type
        for c in hand:
            k = ck[c]
            if not black[k]:
                if types[k] != "X3":
                    return bool(self._whites(p)) if types[k] == "DEMAND_POINTS" else True
                if any(st[2] < 0 for disp in self.displays for st in disp):
                    return True
        return False

    def _whites(self, p: int) -> list[Action]:
        """A20-A28: the active player's declarable white cards with every legal target."""
        g = self.game
        hand = self.hands[p]
        if not hand:
            return []
        ck = g.card_kind
        types = g.k_type
        own = self._own_colour(p)
        own_disp = self.seat_of[p]
        n = g.n
        dummy_ci = self.disp_colour[n] if g.dummy else NONE
        k_point = g.k_point
        k_col = g.k_col
        a_point = g.a_point
        displays_of = self.displays_of
        losing = g.losing
        out: list[Action] = []
        prev = -1
        for c in hand:
            k = ck[c]
            if k == prev:
                continue
            prev = k
            if k_point[k]:  # A21
                ci = k_col[k]
                row = a_point[k]
                out.append(row[0])  # the discard pile
                if losing:
                    targets = displays_of.get(ci, ()) if ci != own else ()
                else:
                    targets = displays_of.get(ci, ()) if ci in (own, dummy_ci) else ()
                for j in targets:
                    out.append(row[j + 1])
                continue
            t = types[k]
            if t == "X3":  # A22
                for j, disp in enumerate(self.displays):
                    row = g.a_x3[j]
                    for s, st in enumerate(disp):
                        if st[2] < 0:
                            out.append(row[s])
            elif t == "TAKE_RANDOM":
                out.extend(g.a_take[q] for q in range(n) if q != p)
            elif t == "DEMAND_BLACK":
                out.extend(g.a_dblack[q] for q in range(n) if q != p)
            elif t == "SWAP_PLACES":
                out.extend(g.a_swap[q] for q in range(n) if q != p)
            elif t == "DRAW_THREE":
                out.append(g.a_draw3)
            elif t == "PASS_HANDS":
                out.append(g.a_pass_hands)
            elif t == "DEMAND_POINTS":  # A24
                if g.losing:
                    for ci, disps in self.displays_of.items():
                        if ci == own or ci < 0:
                            continue
                        for j in disps:
                            out.extend(g.a_dpoints[(q, ci, j)] for q in range(n) if q != p)
                else:
                    out.extend(g.a_dpoints[(q, own, own_disp)] for q in range(n) if q != p)
        return out

    def _blacks(self, p: int, final: bool) -> list[Action]:
        """A29-A35 (A41 in the final round): black actions of player p with their targets."""
        g = self.game
        hand = self.hands[p]
        if not hand:
            return []
        o = g.options
        ck = g.card_kind
        types = g.k_type
        out: list[Action] = []
        carried: list[int] = []
        has_cham = False
        prev = -1
        displays = self.displays
        k_base = g.k_base
        k_minus = g.k_minus
        k_black = g.k_black
        for c in hand:
            k = ck[c]
            if k == prev:
                continue
            prev = k
            if k_base[k]:
                carried.append(k)
                if k_minus[k]:
                    row = g.a_minus[k]  # A30
                    for j in self.displays_of.get(g.k_col[k], ()):
                        out.append(row[j])
                continue
            if not k_black[k]:
                continue
            t = types[k]
            if t == "CRUSH":  # A32
                for j, disp in enumerate(displays):
                    row = g.a_crush[j]
                    for s, st in enumerate(disp):
                        if st[3] < 0 and not g.k_minus[ck[st[0]]]:
                            out.append(row[s])
            elif t == "LOCK":  # A33
                for j, disp in enumerate(displays):
                    row = g.a_lock[j]
                    for s, st in enumerate(disp):
                        if st[4] < 0 and (st[3] >= 0 or g.k_minus[ck[st[0]]]):
                            out.append(row[s])
            elif t == "THIEF":  # A29
                if o.thief_may_take_thief and self._thieves(p) <= self.fetched[p]:
                    continue
                if self.discard:
                    top = self.discard[-1]
                    if o.thief_may_take_thief or types[ck[top]] != "THIEF":
                        out.append(g.a_thief_discard)
                own = self.seat_of[p]
                for j, disp in enumerate(displays):
                    if j == own or (j == g.n and not o.dummy_thief_allowed):
                        continue
                    row = g.a_tstack[j]
                    for s, st in enumerate(disp):
                        if st[1] >= 0:
                            out.append(row[s])
            elif t == "CHAMELEON":
                has_cham = True
            elif t == "STOP":
                if not final:
                    out.append(g.a_stop)
            elif t == "REVERSE" and (not final or (g.dummy and o.dummy_reverse_in_final_round)):
                out.append(g.a_reverse)
        if has_cham and carried:  # A31 (A41 in the final round)
            rule = o.chameleon_in_final_round if final else "all"
            same_ok = o.chameleon_same_colour_allowed
            colours = self.disp_colour
            for k in carried:
                if rule == "none" or (rule == "minus200_only" and not g.k_minus[k]):
                    continue
                ci = g.k_col[k]
                row = g.a_cham[k]
                for j in range(g.n_displays):
                    if same_ok or colours[j] != ci:
                        out.append(row[j])
        return out

    def _thieves(self, p: int) -> int:
        ck = self.game.card_kind
        types = self.game.k_type
        return sum(1 for c in self.hands[p] if types[ck[c]] == "THIEF")

    def _gives(self) -> list[Action]:
        """A24/A25: the kinds the demand's target may hand over."""
        g = self.game
        assert self.give is not None
        target, _, mode, ci, _ = self.give
        out = []
        prev = -1
        for c in self.hands[target]:
            k = g.card_kind[c]
            if k != prev and self._fits(k, mode, ci):
                out.append(g.a_give[k])
            prev = k
        return out

    def _fits(self, k: int, mode: str, ci: int) -> bool:
        g = self.game
        if mode == "P":
            return g.k_point[k] and g.k_col[k] == ci
        return g.k_black[k]

    # ======================================================================================
    # applying a decision
    # ======================================================================================
    def _apply(self, seat: int, action: Action) -> None:
        phase = self.phase
        if phase == COLOUR:
            assert isinstance(action, A.ChooseColour)
            self._set_colour(self.choosers[self.choose_pos], self.game.colours.index(action.colour))
            self.choose_pos += 1
            if self.choose_pos < len(self.choosers):
                self._actors = (self.player_at[self.choosers[self.choose_pos]],)
            else:
                self._after_colours()
            return
        if phase == GIVE:
            assert isinstance(action, A.Give)
            self._give_one(self.game.kind_of[(action.card, action.colour)], chosen=True)
            return
        if isinstance(action, A.Pass):
            if phase == FINAL:
                self._emit("pass", player=seat)
                self._next_final()
            elif seat != self.player_at[self.holder]:
                self.early = self.early | {seat}
                self._emit("pass_in_advance", player=seat)
                self._window_actors()
            else:
                self._emit("pass", player=seat)
                self._pass_priority()
            return
        if isinstance(action, A.WHITE_ACTIONS):
            self._declare(seat, action)
            return
        self._black(seat, action)
        if phase == FINAL:
            self._next_final()
        else:
            self.played = True  # A15: the holder keeps priority
            if self.early:  # a new black card cancels every pass in advance
                self.early = EMPTY
                self._window_actors()

    # -- cards leaving a hand ---------------------------------------------------------------
    def _take(self, p: int, k: int) -> int:
        """Remove one card of kind k from p's hand, publicly (A58: others' knowledge of p's
        hand loses one card of that kind, whichever copy they knew)."""
        g = self.game
        ck = g.card_kind
        hand = self.hands[p]
        copies = [c for c in hand if ck[c] == k]
        if not copies:  # pragma: no cover - actions() only offers held kinds
            raise AssertionError(f"player {p} holds no {g.k_name[k]}")
        c = copies[0]
        if len(copies) > 1:
            # Release a copy others already know of, so a copy they never saw stays unseen
            # (copies of a kind are interchangeable at the table).
            c = max(copies, key=lambda x: sum(x in row[p] for row in self.known))
        hand.remove(c)
        for row in self.known:
            kn = row[p]
            if not kn:
                continue
            if c in kn:
                row[p] = kn - {c}
            else:
                same = [x for x in kn if ck[x] == k]
                if same:
                    row[p] = kn - {max(same)}
        return c

    # -- white cards ------------------------------------------------------------------------
    def _declare(self, p: int, action: Action) -> None:
        """A10: the card leaves the hand face up with its choices; it is in play (A57)."""
        g = self.game
        k = self._white_kind(action)
        self.in_play = self._take(p, k)
        self.decl = action
        self._emit("declared", player=p, card=g.k_name[k], action=_json(action))
        if g.k_type[k] in PRE_WINDOW_TYPES and g.options.pre_resolution_windows:
            self._open_window(PRE, (self.turn_seat + self.d) % g.n)  # A11
        else:
            self._resolve()

    def _white_kind(self, action: Action) -> int:
        g = self.game
        if isinstance(action, A.PlayPoint):
            return g.kind_of[(action.card, action.colour)]
        return g.kind_of[(WHITE_CARD[type(action)], "")]

    def _resolve(self) -> None:
        """A12 and A21-A28: carry out the declared card as far as still possible."""
        g = self.game
        a = self.decl
        p = self.active
        card = self.in_play
        if isinstance(a, A.PlayPoint):  # A21
            if a.display < 0:
                self.discard.append(card)
            else:
                self.displays[a.display].append((card, NONE, NONE, NONE, NONE))
            self.in_play = NONE
        elif isinstance(a, A.Triple):  # A22
            b, ch, _, cr, lk = self.displays[a.display][a.stack]
            self.displays[a.display][a.stack] = (b, ch, card, cr, lk)
            self.in_play = NONE
        elif isinstance(a, A.TakeRandom):  # A23
            self._take_random(p, a.target)
        elif isinstance(a, A.DemandPoints):  # A24
            ci = g.colours.index(a.colour)
            self._start_demand(a.target, p, "P", ci, a.display)
            if self.give is not None:
                return
        elif isinstance(a, A.DemandBlack):  # A25
            self._start_demand(a.target, p, "B", NONE, NONE)
            if self.give is not None:
                return
        elif isinstance(a, A.DrawThree):  # A26
            self._draw(p, 3)
        elif isinstance(a, A.SwapPlaces):  # A27
            self._swap(p, a.target)
        elif isinstance(a, A.PassHands):  # A28
            self._pass_hands()
        self._finish_resolve()

    def _finish_resolve(self) -> None:
        """A57: an action card goes to the discard pile; then END_WINDOW (A12)."""
        if self.in_play >= 0:
            self.discard.append(self.in_play)
            self.in_play = NONE
        self.decl = None
        self.give = None
        self._emit("resolved")
        self._open_window(END, (self.turn_seat + self.d) % self.game.n)

    def _take_random(self, a: int, t: int) -> None:
        """A23: a uniformly random card; taker and victim see it, others only that it moved."""
        g = self.game
        hand = self.hands[t]
        if not hand:
            self._emit("took_random", player=a, target=t, moved=False)
            return
        c = hand.pop(self.rng.randrange(len(hand)))
        insort(self.hands[a], c)
        known = self.known
        for r in range(g.n):
            if r == a:
                known[r][t] = known[r][t] - {c}
            elif r == t:
                known[r][a] = known[r][a] | {c}
            else:
                known[r][t] = EMPTY  # any known card of t may be the one that left
        self._emit("took_random", player=a, target=t, moved=True)
        self._emit_cards("card_taken", frozenset({a, t}), [c], player=a, target=t)

    def _start_demand(self, t: int, a: int, mode: str, ci: int, disp: int) -> None:
        """A24/A25: the count handed over is public at once; the target then picks the cards
        one per decision when there is a choice to make public-independently (count 2)."""
        g = self.game
        ck = g.card_kind
        fitting = [c for c in self.hands[t] if self._fits(ck[c], mode, ci)]
        count = min(2, len(fitting))
        self._emit(
            "demand",
            player=a,
            target=t,
            count=count,
            cards="black" if mode == "B" else g.colours[ci],
        )
        if mode == "B":
            # A58: third parties know where their known black cards of t went only when the
            # count shows that t handed over all of them.
            for r in range(g.n):
                if r in (a, t):
                    continue
                row = self.known[r]
                kb = frozenset(c for c in row[t] if g.k_black[ck[c]])
                if kb:
                    row[t] = row[t] - kb
                    if count < 2:
                        row[a] = row[a] | kb
        self.give = (t, a, mode, ci, count)
        self.give_disp = disp
        if count == 0:
            self.give = None
            return
        if count < 2 or g.options.demand_selection == "random":
            while self.give is not None:
                fit = [c for c in self.hands[t] if self._fits(ck[c], mode, ci)]
                c = fit[0] if count < 2 else fit[self.rng.randrange(len(fit))]
                self._give_one(ck[c], chosen=False)
            return
        self.phase = GIVE
        self._actors = (t,)

    def _give_one(self, k: int, chosen: bool) -> None:
        """Hand over one card of kind k (A24: laid face up; A25: face down to the demander)."""
        g = self.game
        assert self.give is not None
        t, a, mode, ci, left = self.give
        if mode == "P":
            c = self._take(t, k)
            self.displays[self.give_disp].append((c, NONE, NONE, NONE, NONE))
            self._emit("gave_point", target=t, player=a, card=g.k_name[k], display=self.give_disp)
        else:
            hand = self.hands[t]
            c = next(x for x in hand if g.card_kind[x] == k)
            hand.remove(c)
            insort(self.hands[a], c)
            self.known[a][t] = self.known[a][t] - {c}
            self.known[t][a] = self.known[t][a] | {c}
            self._emit("gave_black", target=t, player=a)
            hist = len(self.history) if chosen else -1
            self._emit_cards("gave_card", frozenset({a, t}), [c], hist=hist, target=t, player=a)
        left -= 1
        if left > 0:
            self.give = (t, a, mode, ci, left)
            return
        self.give = None
        if self.phase == GIVE:
            self.phase = WINDOW
            self._finish_resolve()

    def _swap(self, a: int, t: int) -> None:
        """A27: players exchange seats; hands go with them, displays and colours stay."""
        sa, st = self.seat_of[a], self.seat_of[t]
        self.seat_of[a], self.seat_of[t] = st, sa
        self.player_at[sa], self.player_at[st] = t, a
        g = self.game
        if g.team:  # A54: teams follow the seats; say so
            teams = [self.seat_of[p] % g.teams for p in range(g.n)]
            self._emit("swapped", player=a, target=t, seat_of=list(self.seat_of), teams=teams)
            if g.options.team_open_hands:
                self._reopen_hands(sa, st)
        else:
            self._emit("swapped", player=a, target=t, seat_of=list(self.seat_of))

    def _reopen_hands(self, sa: int, st: int) -> None:
        """A47 with open hands: former team-mates keep knowing each other's hands, new
        team-mates are shown theirs."""
        g = self.game
        for seat in (sa, st):
            for other in range(g.n):
                if other != seat and other % g.teams == seat % g.teams:
                    p, q = self.player_at[seat], self.player_at[other]
                    self._emit_cards("team_hand", frozenset({q}), self.hands[p], player=p)
                    self._emit_cards("team_hand", frozenset({p}), self.hands[q], player=q)
        before = {self.player_at[sa]: st, self.player_at[st]: sa}  # player -> old seat
        for p, old in before.items():
            for other in range(g.n):
                q = self.player_at[other]
                if q not in before and other % g.teams == old % g.teams:
                    self.known[p][q] = frozenset(self.hands[q])
                    self.known[q][p] = frozenset(self.hands[p])

    def _pass_hands(self) -> None:
        """A28: every hand goes to the occupant of next(own seat) in direction d."""
        g = self.game
        n = g.n
        old = self.hands
        new: list[list[int]] = [[] for _ in range(n)]
        to = [0] * n  # receiver of each player's hand
        for p in range(n):
            q = self.player_at[(self.seat_of[p] + self.d) % n]
            to[p] = q
            new[q] = old[p]
        known = self.known
        moved: list[list[frozenset[int]]] = [[EMPTY] * n for _ in range(n)]
        for r in range(n):
            for p in range(n):
                q = to[p]
                if q != r and known[r][p]:
                    moved[r][q] = known[r][p]
            moved[r][to[r]] = frozenset(old[r])  # r knows the hand r gave away
        self.known = moved
        self.hands = new
        self._emit("hands_passed", hand_sizes=[len(h) for h in new], direction=self.d)
        for p in range(n):
            self._emit_cards(
                "hand_received", frozenset({p, to[p]}), new[to[p]], player=to[p], giver=p
            )

    # -- black cards ------------------------------------------------------------------------
    def _black(self, p: int, a: Action) -> None:
        """A29-A35: resolve one black action completely (A19), cards to the pile in order
        (A18)."""
        g = self.game
        kind_of = g.kind_of
        if isinstance(a, A.MinusTwoHundred):  # A30
            c = self._take(p, kind_of[("MINUS200", a.colour)])
            self.displays[a.display].append((c, NONE, NONE, NONE, NONE))
            self._emit("black", player=p, action=_json(a))
        elif isinstance(a, A.Chameleon):  # A31
            ch = self._take(p, kind_of[("CHAMELEON", "")])
            c = self._take(p, kind_of[(a.card, a.colour)])
            self.displays[a.display].append((c, ch, NONE, NONE, NONE))
            self._emit("black", player=p, action=_json(a))
        elif isinstance(a, A.Crush):  # A32
            c = self._take(p, kind_of[("CRUSH", "")])
            b, ch, x3, _, lk = self.displays[a.display][a.stack]
            self.displays[a.display][a.stack] = (b, ch, x3, c, lk)
            self._emit("black", player=p, action=_json(a))
        elif isinstance(a, A.Lock):  # A33
            c = self._take(p, kind_of[("LOCK", "")])
            b, ch, x3, cr, _ = self.displays[a.display][a.stack]
            self.displays[a.display][a.stack] = (b, ch, x3, cr, c)
            self._emit("black", player=p, action=_json(a))
        elif isinstance(a, A.ThiefDiscard):  # A29.1
            thief = self._take_thief(p)
            c = self.discard.pop()
            insort(self.hands[p], c)
            for r in range(g.n):
                if r != p:
                    self.known[r][p] = self.known[r][p] | {c}
            self.discard.append(thief)
            if g.k_type[g.card_kind[c]] == "THIEF":
                f = list(self.fetched)
                f[p] += 1
                self.fetched = tuple(f)
            self._emit("black", player=p, action=_json(a), card=g.k_name[g.card_kind[c]])
        elif isinstance(a, A.ThiefStack):  # A29.2
            thief = self._take_thief(p)
            stack = self.displays[a.display].pop(a.stack)
            own = self.seat_of[p]
            b, ch, x3, cr, lk = stack
            removed = g.k_col[g.card_kind[b]] == self.seat_colour[own]
            if removed:  # the stack now counts by its printed colour
                self.discard.append(ch)
                stack = (b, NONE, x3, cr, lk)
            self.displays[own].append(stack)
            self.discard.append(thief)
            self._emit(
                "black", player=p, action=_json(a), to_display=own, chameleon_removed=removed
            )
        elif isinstance(a, A.Stop):  # A34, A37
            self.discard.append(self._take(p, kind_of[("STOP", "")]))
            self.pending = ("STOP", p)
            self._emit("black", player=p, action=_json(a))
        elif isinstance(a, A.Reverse):
            self.discard.append(self._take(p, kind_of[("REVERSE", "")]))
            if g.dummy:  # A51, A52
                if self.phase != FINAL or g.options.dummy_reverse_in_final_round:
                    self.dummy_ctrl = self.seat_of[p]
                self._emit("black", player=p, action=_json(a), dummy_seat=self.dummy_ctrl)
            else:  # A35, A37
                self.pending = ("REVERSE", p)
                self._emit("black", player=p, action=_json(a))
        else:  # pragma: no cover
            raise AssertionError(f"not a black action: {a}")

    def _take_thief(self, p: int) -> int:
        return self._take(p, self.game.kind_of[("THIEF", "")])

    # ======================================================================================
    # the end (A41-A44, A55)
    # ======================================================================================
    def _start_final(self) -> None:
        """A41: from next(turn seat) round to the turn seat, one black action each."""
        n = self.game.n
        self.final_order = tuple((self.turn_seat + self.d * i) % n for i in range(1, n + 1))
        self.final_pos = 0
        self.phase = FINAL
        self.pending = None
        if self.game.options.thief_may_take_thief:
            self.fetched = (0,) * n
        self._emit("final_round", order=[self.player_at[s] for s in self.final_order])
        self._actors = (self.player_at[self.final_order[0]],)

    def _next_final(self) -> None:
        self.final_pos += 1
        if self.final_pos < len(self.final_order):
            self._actors = (self.player_at[self.final_order[self.final_pos]],)
        else:
            self._cleanup()

    def _cleanup(self) -> None:
        """A42: hands face up onto the discard pile; A43: score; A55: next game or over."""
        g = self.game
        n = g.n
        shown = [[g.k_name[g.card_kind[c]] for c in h] for h in self.hands]
        for h in self.hands:
            self.discard.extend(h)
        self.hands = [[] for _ in range(n)]
        self.known = [[EMPTY] * n for _ in range(n)]
        self._emit("cleanup", hands=shown)
        scores = self.scores()
        self.results.append(scores)
        for p in range(n):
            self.totals[p] += scores[p]
        self._emit("scored", game_no=self.game_no, scores=scores, totals=list(self.totals))
        o = g.options
        target = o.series_target_score
        reached = target is not None and max(self.totals) >= target
        if self.game_no < o.series_games and not reached:
            self._setup()
            return
        self.phase = OVER
        self._actors = ()
        out = self.outcome()
        self._emit("over", totals=list(self.totals), winners=list(out.winners))

    def display_scores(self) -> list[int]:
        """5.1 for every display (a live preview until the end)."""
        ck = self.game.card_kind
        types = self.game.k_type
        return [
            display_score(
                Stack(types[ck[b]], x3 >= 0, cr >= 0, lk >= 0) for b, _, x3, cr, lk in disp
            )
            for disp in self.displays
        ]

    def scores(self) -> list[int]:
        """A46, A52, A54: per player, from the seat held now."""
        g = self.game
        return player_scores(
            self.display_scores(),
            self.seat_of,
            team_of_seat=[s % g.teams for s in range(g.n)] if g.team else None,
            dummy_display=g.n if g.dummy else None,
            dummy_controller=self.dummy_ctrl if g.dummy else None,
        )

    def stats(self) -> dict[str, float]:
        """Numbers worth averaging over many games."""
        return {"decisions": len(self.history), "turns": self.turns, "games": self.game_no}

    def estimate(self) -> tuple[float, ...]:
        """For rollouts cut short: rank by totals so far plus the table's score now (A43)."""
        now = self.scores()
        totals = [t + now[p] for p, t in enumerate(self.totals)]
        return Outcome.from_scores(totals, higher_is_better=not self.game.losing).payoff

    def outcome(self) -> Outcome:
        """A43: highest total wins (losing game: lowest); ties share (tie_rule)."""
        if self._actors:
            raise RuntimeError("the game is not over")
        return Outcome.from_scores(self.totals, higher_is_better=not self.game.losing)

    # ======================================================================================
    # what a seat sees (section 6)
    # ======================================================================================
    def _emit_cards(
        self, kind: str, to: frozenset[int], cards: list[int], hist: int = -1, **data: Any
    ) -> None:
        """A private event naming cards; `determinize` rewrites it for other seats."""
        ids = tuple(sorted(cards))
        if self.game.options.team_open_hands and self.game.team:  # A47: mates see it too
            to = to.union(*(self._open_hands(p) for p in to))
        self._priv.append((len(self._log), ids, hist))
        names = self.game.k_name
        ck = self.game.card_kind
        self._emit(kind, to, cards=[names[ck[c]] for c in ids], **data)

    def _open_hands(self, p: int) -> list[int]:
        """A47: the team-mates whose hands p sees (team_open_hands)."""
        g = self.game
        if not (g.team and g.options.team_open_hands) or self.phase == COLOUR:
            return []
        my = self.seat_of[p]
        return [self.player_at[s] for s in range(g.n) if s != my and s % g.teams == my % g.teams]

    def _emit(self, kind: str, to: frozenset[int] | None = None, /, **data: Any) -> None:
        """The base `_emit`, a little faster (two events per decision on average)."""
        self._log.append(_new_event(Event, (kind, data, to)))

    def view(self, seat: int | None) -> dict[str, Any]:
        from gamenight.games.arne.view import seat_view

        return seat_view(self, seat)

    # ======================================================================================
    # copies and determinization
    # ======================================================================================
    def copy(self) -> Self:
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.history = list(self.history)
        new._log = list(self._log)
        new._priv = list(self._priv)
        new.totals = list(self.totals)
        new.results = list(self.results)
        new.seat_of = list(self.seat_of)
        new.player_at = list(self.player_at)
        new.seat_colour = list(self.seat_colour)
        new.disp_colour = list(self.disp_colour)
        new.displays = [list(x) for x in self.displays]
        new.hands = [list(h) for h in self.hands]
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.known = [list(row) for row in self.known]
        return new

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A58: see knowledge.py."""
        from gamenight.games.arne.knowledge import determinize

        return determinize(self, seat, rng)

    # -- conveniences for tests and bots ----------------------------------------------------
    def all_cards(self) -> list[int]:
        """Every card id wherever it lies (cards are never created or lost)."""
        out = list(self.deck) + list(self.discard)
        for h in self.hands:
            out.extend(h)
        for disp in self.displays:
            for st in disp:
                out.extend(c for c in st if c >= 0)
        if self.in_play >= 0:
            out.append(self.in_play)
        return out
