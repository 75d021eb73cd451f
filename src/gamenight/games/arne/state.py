"""Arne's state machine (spec section 4): setup, turns, reaction windows, the end.

What each card does lives in white_cards.py and black_cards.py (one function per card type,
in tables); what a seat sees and the resampling of what it cannot know (A58) in
observation.py; the phases in phases.py. This module is about 650 lines on purpose: it is
one class, the machine's transitions (setup, turns, windows, decisions, the end) and the
bookkeeping of hidden cards they share, which read best in one place.

Representation: hands are sorted lists of card ids per player; the draw pile is a list
(top = end); the discard pile is a list (top = end); a display is a list of `Stack`s of
card ids. Seats and players differ only after SWAP_PLACES (A56): `seat_of[player]`,
`player_at[seat]`.

Knowledge (A58): `known[knower][player]` is the frozenset of card ids that `knower` knows
to be in `player`'s hand; `determinize` keeps those and resamples the rest.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any, Self, cast

from gamenight.engine.core import Action, Event, Outcome, State
from gamenight.engine.rng import copied_random, seeded_random
from gamenight.games.arne import actions as A
from gamenight.games.arne.actions import cached_json
from gamenight.games.arne.black_cards import BLACK_EFFECTS, Pending, black_actions
from gamenight.games.arne.components import EMPTY, NONE, PRE_WINDOW_TYPES, Stack
from gamenight.games.arne.observation import resample, seat_view
from gamenight.games.arne.phases import (
    COLOUR,
    END,
    FINAL,
    GIVE,
    MAIN,
    OVER,
    PRE,
    WHITE,
    WINDOW,
    Phase,
    Window,
)
from gamenight.games.arne.refusals import why
from gamenight.games.arne.scoring import ScoredStack, display_score, player_scores
from gamenight.games.arne.white_cards import (
    RESOLVE,
    Demand,
    declared_kind,
    give_actions,
    give_one,
    has_white,
    white_actions,
)

if TYPE_CHECKING:
    from gamenight.games.arne.game import Arne

__all__ = ["EMPTY", "ArneState", "Phase", "Window"]


class ArneState(State):
    """One moment of a game (or series) of Arne."""

    game: Arne
    phase: Phase
    window: Window

    def __init__(self, game: Arne, seed: int) -> None:
        self.game = game
        self.rng = seeded_random(seed)
        self.history = []
        self._log = []
        # private events naming cards: (log index, card ids, history index of a chosen give)
        self._private: list[tuple[int, tuple[int, ...], int]] = []
        self._actors = ()
        players = game.n
        self.game_no = 0
        self.turns = 0
        self.totals = [0] * players
        self.results: list[list[int]] = []
        first = game.options.first_seat
        self.series_first = self.rng.randrange(players) if first == "random" else int(first)
        self._emit(
            "series",
            players=players,
            games=game.options.series_games,
            mode=game.options.mode,
            variant=game.options.variant,
        )
        self._setup()

    # ======================================================================================
    # setup (A1-A5, A49, A53, A55)
    # ======================================================================================
    def _setup(self) -> None:
        game = self.game
        players = game.n
        self.game_no += 1
        self.first_seat = (self.series_first + self.game_no - 1) % players  # A5, A55
        self.seat_of = list(range(players))  # A56
        self.player_at = list(range(players))
        self.seat_colour = [NONE] * players
        self.display_colour = [NONE] * game.n_displays
        self.displays: list[list[Stack]] = [[] for _ in range(game.n_displays)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck = list(range(game.num_cards))
        self.rng.shuffle(self.deck)  # A4, A48
        self.discard: list[int] = []
        self.known: list[list[frozenset[int]]] = [[EMPTY] * players for _ in range(players)]
        self.direction = 1
        self.turn_seat = self.first_seat
        self.active = self.player_at[self.first_seat]
        self.pending: Pending | None = None  # A37
        self.in_play = NONE  # A57: the declared white card
        self.declared: Action | None = None
        self.window = MAIN
        self.holder = 0  # the seat holding priority (A15)
        self.quiet = 0  # A16
        self.holder_played = False
        self.fetched = (0,) * players  # A29 guard: thieves fetched this window, per player
        self.passed_early: frozenset[int] = EMPTY  # players who passed in advance (window)
        self.demand: Demand | None = None  # A24/A25
        self.final_order: tuple[int, ...] = ()
        self.final_pos = 0
        self.dummy_controller = NONE  # A51: the seat holding the dummy card
        self.displays_of: dict[int, tuple[int, ...]] = {}  # colour -> displays (A21, A30)
        self._emit("game", game_no=self.game_no, first_seat=self.first_seat)
        owners = game.teams if game.team else players
        if game.options.colour_assignment == "random":
            free = list(game.deck_colour_idx)
            self.rng.shuffle(free)
            for seat in range(owners):
                self._set_colour(seat, free[seat])
            self._after_colours()
        else:
            self.choosers = tuple((self.first_seat + i) % players for i in range(owners))
            self.choose_pos = 0
            self.phase = COLOUR
            self._actors = (self.player_at[self.choosers[0]],)

    def _set_colour(self, seat: int, colour: int) -> None:
        """A3; team game: seat i belongs to team i mod T and shares its colour (A53)."""
        game = self.game
        if game.team:
            seats = [other for other in range(game.n) if other % game.teams == seat % game.teams]
        else:
            seats = [seat]
        for member in seats:
            self.seat_colour[member] = colour
            self.display_colour[member] = colour
        self._emit("colour", seats=seats, colour=game.colours[colour])

    def _after_colours(self) -> None:
        game = self.game
        if game.dummy:  # A49: the dummy colour at random among the unowned ones
            free = [c for c in game.deck_colour_idx if c not in self.seat_colour]
            colour = free[self.rng.randrange(len(free))]
            self.display_colour[game.n] = colour
            self._emit("dummy", display=game.n, colour=game.colours[colour])
        colours = self.display_colour
        self.displays_of = {
            colour: tuple(d for d in range(game.n_displays) if colours[d] == colour)
            for colour in set(colours)
        }
        self._deal()

    def _deal(self) -> None:
        """A4: deal hand_size cards to each player, from the first seat on."""
        game = self.game
        players = game.n
        for i in range(players):
            player = self.player_at[(self.first_seat + i) % players]
            hand = [self.deck.pop() for _ in range(game.options.hand_size)]
            hand.sort()
            self.hands[player] = hand
        self._emit("dealt", hand_sizes=[len(hand) for hand in self.hands], draw_pile=len(self.deck))
        for player in range(players):
            self.emit_cards("hand", game.only[player], self.hands[player], player=player)
        self._start_turn(self.first_seat)

    # ======================================================================================
    # turns and windows (A6-A19, A37, A38)
    # ======================================================================================
    def _start_turn(self, seat: int) -> None:
        """A6, A7, A8."""
        self.turns += 1
        self.turn_seat = seat
        player = self.active = self.player_at[seat]
        self.pending = None
        self._emit("turn", seat=seat, player=player, direction=self.direction)
        self.draw(player, 1)
        self._open_window(MAIN, seat)

    def draw(self, player: int, count: int) -> None:
        """A7, A26: the count is public, the cards private."""
        deck, drawn = self.deck, []
        for _ in range(min(count, len(deck))):  # a loop: searches draw on every turn
            drawn.append(deck.pop())
        hand = self.hands[player]
        for card in drawn:
            insort(hand, card)
        self._emit("drew", player=player, count=len(drawn), draw_pile=len(self.deck))
        if drawn:
            self.emit_cards("drew_cards", self.game.only[player], drawn, player=player)

    def _open_window(self, window: Window, seat: int) -> None:
        """A15: priority starts at `seat`; A16: the quiet counter starts at 0."""
        self.phase = WINDOW
        self.window = window
        self.holder = seat
        self.quiet = 0
        self.holder_played = False
        self.passed_early = EMPTY
        if self.game.options.thief_may_take_thief:
            self.fetched = (0,) * self.game.n
        self._window_actors()

    def _window_actors(self) -> None:
        """The holder, then every seat that may still get priority, in priority order, less
        those who passed in advance (public facts only, A17)."""
        order = self.game.seat_order[self.direction][self.holder]  # seats from the holder on
        player_at = self.player_at
        early = self.passed_early
        if early:
            rest = (player_at[seat] for seat in order[1:] if player_at[seat] not in early)
            self._actors = (player_at[order[0]], *rest)
        elif self.seat_of == self.game.identity:  # nobody swapped: seats are players
            self._actors = order
        else:
            self._actors = tuple(map(player_at.__getitem__, order))

    def _pass_priority(self) -> None:
        """A16: count quiet players; the window closes when all n have been quiet. A player
        who passed in advance passes now, seen exactly as a chosen pass."""
        players = self.game.n
        quiet = 1 if self.holder_played else self.quiet + 1
        self.holder_played = False
        holder = self.holder
        while quiet < players:
            holder = (holder + self.direction) % players
            player = self.player_at[holder]
            if player not in self.passed_early:
                self.quiet = quiet
                self.holder = holder
                self._window_actors()
                return
            self.passed_early = self.passed_early - {player}
            self._emit("pass", player=player)
            quiet += 1
        self.quiet = quiet
        self.holder = holder
        self._close_window()

    def _close_window(self) -> None:
        if self.window == MAIN:
            # A9: the white step, or no white card at all (looks alike to others, A20).
            if has_white(self, self.active):
                self.phase = WHITE
                self._actors = (self.active,)
            else:
                self._emit("no_white", player=self.active)
                self._end_of_turn()
        elif self.window == PRE:
            self._resolve()
        else:
            self._end_of_turn()

    def _end_of_turn(self) -> None:
        """A13, A14, A37, A38."""
        game = self.game
        players = game.n
        if not self.deck:
            self._start_final()
            return
        pending = self.pending
        if pending is None:
            next_seat = (self.turn_seat + self.direction) % players
        elif pending.kind == "STOP":
            next_seat = self.seat_of[pending.player]
        else:
            self.direction = -self.direction
            if game.options.reverse_mode == "flip_and_take" or (
                players == 2 and game.options.two_player_reverse_as_stop
            ):
                next_seat = self.seat_of[pending.player]
            else:
                next_seat = (self.turn_seat + self.direction) % players
        self._start_turn(next_seat)

    def window_seats(self) -> tuple[int, ...]:
        """The engine hook: in a reaction window (A15-A17) the seats asked, priority holder
        first (those who passed in advance are left out); () outside windows."""
        return self._actors if self.phase == WINDOW else ()

    def window_key(self) -> tuple[int, int, int] | None:
        """The engine hook: a window is its kind (main A8 or pre-turn) on whose turn in
        which game of the series; None outside windows."""
        return (self.window, self.turn_seat, self.game_no) if self.phase == WINDOW else None

    def turn_key(self) -> tuple[int, int]:
        """The engine hook: the turn (A7-A14) of which game of the series."""
        return (self.game_no, self.turns)

    @property
    def in_final_round(self) -> bool:
        return self.phase == FINAL

    # ======================================================================================
    # legal actions
    # ======================================================================================
    def actions(self, seat: int) -> list[Action]:
        actors = self._actors
        if not actors or (seat != actors[0] and (self.phase != WINDOW or seat not in actors)):
            return []
        game = self.game
        phase = self.phase
        if phase == WINDOW:
            if seat != self.player_at[self.holder]:
                return [game.pass_action]  # a pass in advance (DESIGN: the server may allow it)
            out = [game.pass_action]
            if self.window == MAIN and seat == self.active:
                out += white_actions(self, seat)  # A8
            out += black_actions(self, seat, False)
            return out
        if phase == WHITE:
            return white_actions(self, seat)
        if phase == FINAL:
            return [game.pass_action, *black_actions(self, seat, True)]
        if phase == GIVE:
            return give_actions(self)
        if phase == COLOUR:
            taken = set(self.seat_colour)
            return [a for c, a in game.choose_actions.items() if c not in taken]
        return []

    def _refusal(self, seat: int, action: Action) -> str | None:
        """The base check (`action in actions(seat)`), with shortcuts for the common cases
        that build only the part of the list the action can be in. `act` has already
        checked that `seat` is in `actors`. A refused action always gets the full list."""
        phase = self.phase
        action_type = type(action)
        if action_type is A.Pass:  # every listed seat may pass in a window and the final round
            if phase in (WINDOW, FINAL):
                return None
        elif phase == WINDOW and seat == self.player_at[self.holder]:
            if action_type in A.WHITE_ACTIONS:
                if (
                    self.window == MAIN
                    and seat == self.active
                    and action in white_actions(self, seat)
                ):
                    return None
            elif action in black_actions(self, seat, False):
                return None
        if action in self.actions(seat):
            return None
        return why(self, seat, action)  # in player words (refusals.py)

    def own_colour(self, player: int) -> int:
        return self.seat_colour[self.seat_of[player]]

    # ======================================================================================
    # applying a decision
    # ======================================================================================
    def _apply(self, seat: int, action: Action) -> None:
        phase = self.phase
        if type(action) is A.Pass:  # the most common decision, first
            if phase == FINAL:  # A41: play nothing
                self._emit("pass", player=seat)
                self._next_final()
            elif seat != self.player_at[self.holder]:  # a pass in advance
                self.passed_early = self.passed_early | {seat}
                self._emit("pass_in_advance", player=seat)
                self._window_actors()
            else:  # A15, A16
                self._emit("pass", player=seat)
                self._pass_priority()
            return
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
            give_one(self, self.game.kind_of[(action.card, action.colour)], chosen=True)
            return
        if isinstance(action, A.WHITE_ACTIONS):
            self._declare(seat, action)
            return
        BLACK_EFFECTS[type(action)](self, seat, action)
        if phase == FINAL:
            self._next_final()
        else:
            self.holder_played = True  # A15: the holder keeps priority
            if self.passed_early:  # a new black card cancels every pass in advance
                self.passed_early = EMPTY
                self._window_actors()

    def take(self, player: int, kind: int) -> int:
        """Remove one card of `kind` from the hand, publicly (A58: others' knowledge of the
        hand loses one card of that kind, whichever copy they knew)."""
        card_kind = self.game.card_kind
        hand = self.hands[player]
        copies = []
        for c in hand:  # a loop: on Python 3.11 a comprehension makes a function per call
            if card_kind[c] == kind:
                copies.append(c)
        if not copies:  # pragma: no cover - actions() only offers held kinds
            raise AssertionError(f"player {player} holds no {self.game.kind_name[kind]}")
        card = copies[0]
        if len(copies) > 1:
            # Release a copy others already know of, so a copy they never saw stays unseen
            # (copies of a kind are interchangeable at the table).
            card = max(copies, key=lambda c: sum(c in row[player] for row in self.known))
        hand.remove(card)
        for row in self.known:
            known = row[player]
            if not known:
                continue
            if card in known:
                row[player] = known - {card}
            else:
                same = [c for c in known if card_kind[c] == kind]
                if same:
                    row[player] = known - {max(same)}
        return card

    def _declare(self, player: int, action: Action) -> None:
        """A10: the card leaves the hand face up with its choices; it is in play (A57)."""
        game = self.game
        kind = declared_kind(game, action)
        self.in_play = self.take(player, kind)
        self.declared = action
        self._emit("declared", player=player, card=game.kind_name[kind], action=cached_json(action))
        if game.kind_type[kind] in PRE_WINDOW_TYPES and game.options.pre_resolution_windows:
            self._open_window(PRE, (self.turn_seat + self.direction) % game.n)  # A11
        else:
            self._resolve()

    def _resolve(self) -> None:
        """A12 and A21-A28: carry out the declared card as far as still possible."""
        declared = self.declared
        assert declared is not None
        RESOLVE[type(declared)](self, declared)
        if self.demand is None:  # else the target answers first (A24/A25)
            self._finish_resolve()

    def ask_to_give(self, target: int) -> None:
        """A24/A25: the demand's target picks the cards it hands over."""
        self.phase = GIVE
        self._actors = (target,)

    def demand_answered(self) -> None:
        """The last card of a demand went; resolve the card if the target had to choose."""
        if self.phase == GIVE:
            self.phase = WINDOW
            self._finish_resolve()

    def _finish_resolve(self) -> None:
        """A57: an action card goes to the discard pile; then END_WINDOW (A12)."""
        if self.in_play >= 0:
            self.discard.append(self.in_play)
            self.in_play = NONE
        self.declared = None
        self.demand = None
        self._emit("resolved")
        self._open_window(END, (self.turn_seat + self.direction) % self.game.n)

    # ======================================================================================
    # the end (A41-A44, A55)
    # ======================================================================================
    def _start_final(self) -> None:
        """A41: from next(turn seat) round to the turn seat, one black action each."""
        players = self.game.n
        self.final_order = tuple(
            (self.turn_seat + self.direction * i) % players for i in range(1, players + 1)
        )
        self.final_pos = 0
        self.phase = FINAL
        self.pending = None
        if self.game.options.thief_may_take_thief:
            self.fetched = (0,) * players
        self._emit("final_round", order=[self.player_at[seat] for seat in self.final_order])
        self._actors = (self.player_at[self.final_order[0]],)

    def _next_final(self) -> None:
        self.final_pos += 1
        if self.final_pos < len(self.final_order):
            self._actors = (self.player_at[self.final_order[self.final_pos]],)
        else:
            self._cleanup()

    def _cleanup(self) -> None:
        """A42: hands face up onto the discard pile; A43: score; A55: next game or over."""
        game = self.game
        players = game.n
        shown = [[game.kind_name[game.card_kind[c]] for c in hand] for hand in self.hands]
        for hand in self.hands:
            self.discard.extend(hand)
        self.hands = [[] for _ in range(players)]
        self.known = [[EMPTY] * players for _ in range(players)]
        self._emit("cleanup", hands=shown)
        scores = self.scores()
        self.results.append(scores)
        for player in range(players):
            self.totals[player] += scores[player]
        self._emit("scored", game_no=self.game_no, scores=scores, totals=list(self.totals))
        options = game.options
        target = options.series_target_score
        reached = target is not None and max(self.totals) >= target
        if self.game_no < options.series_games and not reached:
            self._setup()
            return
        self.phase = OVER
        self._actors = ()
        self._emit("over", totals=list(self.totals), winners=list(self.outcome().winners))

    def display_scores(self) -> list[int]:
        """5.1 for every display (a live preview until the end)."""
        card_kind, kind_type = self.game.card_kind, self.game.kind_type
        return [
            display_score(
                ScoredStack(kind_type[card_kind[s.base]], s.x3 >= 0, s.crush >= 0, s.lock >= 0)
                for s in stacks
            )
            for stacks in self.displays
        ]

    def scores(self) -> list[int]:
        """A46, A52, A54: per player, from the seat held now."""
        game = self.game
        return player_scores(
            self.display_scores(),
            self.seat_of,
            team_of_seat=[seat % game.teams for seat in range(game.n)] if game.team else None,
            dummy_display=game.n if game.dummy else None,
            dummy_controller=self.dummy_controller if game.dummy else None,
        )

    def stats(self) -> dict[str, float]:
        """Numbers worth averaging over many games."""
        return {"decisions": len(self.history), "turns": self.turns, "games": self.game_no}

    def estimate(self) -> tuple[float, ...]:
        """For rollouts cut short: rank by totals so far plus the table's score now (A43)."""
        now = self.scores()
        totals = [total + now[player] for player, total in enumerate(self.totals)]
        return Outcome.from_scores(totals, higher_is_better=not self.game.losing).payoff

    def outcome(self) -> Outcome:
        """A43: highest total wins (losing game: lowest); ties share (tie_rule)."""
        if self._actors:
            raise RuntimeError("the game is not over")
        return Outcome.from_scores(self.totals, higher_is_better=not self.game.losing)

    # ======================================================================================
    # what a seat sees (section 6; the view itself is in observation.py)
    # ======================================================================================
    def emit_cards(
        self, kind: str, to: frozenset[int], cards: list[int], decision: int = -1, **data: Any
    ) -> None:
        """A private event naming cards; `determinize` rewrites it for other seats.
        `decision`: the history index of the `give` that chose the card, if one did."""
        ids = tuple(sorted(cards))
        if self.game.options.team_open_hands and self.game.team:  # A47: mates see it too
            to = to.union(*(self.open_hands(player) for player in to))
        self._private.append((len(self._log), ids, decision))
        names, card_kind = self.game.kind_name, self.game.card_kind
        shown = []
        for c in ids:  # a loop: on Python 3.11 a comprehension makes a function per call
            shown.append(names[card_kind[c]])
        self._emit(kind, to, cards=shown, **data)

    def open_hands(self, player: int) -> list[int]:
        """A47: the team-mates whose hands `player` sees (team_open_hands)."""
        game = self.game
        if not (game.team and game.options.team_open_hands) or self.phase == COLOUR:
            return []
        my_seat = self.seat_of[player]
        return [
            self.player_at[seat]
            for seat in range(game.n)
            if seat != my_seat and seat % game.teams == my_seat % game.teams
        ]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Section 6 (observation.py); typed readers call `seat_view` for an `ArneView`."""
        return cast("dict[str, Any]", seat_view(self, seat))

    def drop_private_events(self) -> None:
        """Forget every private event (for tables rearranged by tests, whose dealt hands
        no longer match what the deal's events said)."""
        self._log = [event for event in self._log if event.to is None]
        self._private = []

    # ======================================================================================
    # copies and determinization (A58)
    # ======================================================================================
    def copy(self) -> Self:
        new = self._copy_shell()
        new.rng = copied_random(self.rng)
        new._private = list(self._private)
        new.totals = list(self.totals)
        new.results = list(self.results)
        new.seat_of = list(self.seat_of)
        new.player_at = list(self.player_at)
        new.seat_colour = list(self.seat_colour)
        new.display_colour = list(self.display_colour)
        # map, not comprehensions: no function object per copy (searches copy a lot)
        new.displays = list(map(list, self.displays))
        new.hands = list(map(list, self.hands))
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.known = list(map(list, self.known))
        return new

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A58: keep what `seat` knows (its hand, known cards in other hands, everything
        public); resample other hands' unknown cards and the draw pile (observation.py);
        rewrite other seats' private events, knowledge and hidden choices to match;
        reseed."""
        new = self.copy()
        hands, deck, sigma = resample(self, seat, rng)
        for player, hand in hands.items():
            new.hands[player] = hand
        new.deck = deck
        for knower in range(self.game.n):
            if knower == seat:
                continue
            row = new.known[knower]
            for player, known in enumerate(row):
                if known:
                    row[player] = frozenset(sigma.get(c, c) for c in known)
        names, card_kind = self.game.kind_name, self.game.card_kind
        for index, (log_index, ids, decision) in enumerate(self._private):
            event = self._log[log_index]
            if event.to is not None and seat in event.to:
                continue
            moved = tuple(sorted(sigma.get(c, c) for c in ids))
            if moved == ids:
                continue
            data = dict(event.data)
            data["cards"] = [names[card_kind[c]] for c in moved]
            new._log[log_index] = Event(event.kind, data, event.to)
            new._private[index] = (log_index, moved, decision)
            if decision >= 0:
                who, _ = new.history[decision]
                new.history[decision] = (who, self.game.give_actions[card_kind[moved[0]]])
        new.rng = seeded_random(rng.getrandbits(64))
        return new

    # -- conveniences for tests and bots ----------------------------------------------------
    def all_cards(self) -> list[int]:
        """Every card id wherever it lies (cards are never created or lost)."""
        out = list(self.deck) + list(self.discard)
        for hand in self.hands:
            out.extend(hand)
        for stacks in self.displays:
            for stack in stacks:
                out.extend(card for card in stack if card >= 0)
        if self.in_play >= 0:
            out.append(self.in_play)
        return out
