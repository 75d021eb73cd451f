r"""Drop or Stop rules: the state machine of spec §5 with the clauses of §8.

    SETUP -> DEAL -> TURN(c) ... -> SCORE -> CHECK_END -> GAME_OVER
                                                      \-> CLEANUP -> DEAL

Only TURN and GAME_OVER are ever seen from outside (`Phase`); DEAL, SCORE, CHECK_END and
CLEANUP run inside the action that ends a round, one method each. Cards are numbered
0..38; `game.card_kind[i]` names the kind of card i. Lists are used as stacks (the top of
the draw pile is the end of the list).
"""

from __future__ import annotations

import random
from enum import IntEnum
from itertools import repeat, starmap
from typing import TYPE_CHECKING, Any, Self

from gamenight.engine.core import Action, Event, Outcome, State
from gamenight.engine.rng import copied_random, seeded_random
from gamenight.games.drop_or_stop import observation, refusals
from gamenight.games.drop_or_stop.actions import DROP, DROP_OR_STOP, NOTHING, ONLY_STOP, STOP, Drop
from gamenight.games.drop_or_stop.components import DECK_SIZE
from gamenight.games.drop_or_stop.scoring import OVERFLOW_RANK

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gamenight.games.drop_or_stop.game import DropOrStop


# Event(kind, data, to) in one C call (NamedTuple's own constructor is Python code, and
# events are made on every move).
_new_event = tuple.__new__


class Phase(IntEnum):
    """The states of spec §5 (R34 adds a truncated end)."""

    SETUP = 0
    DEAL = 1
    TURN = 2
    SCORE = 3
    CHECK_END = 4
    CLEANUP = 5
    GAME_OVER = 6
    TRUNCATED = 7


class DropOrStopState(State):
    game: DropOrStop
    # `actors` is a plain attribute here, not the engine's property: every playout reads it
    # on every move. `_actors`, which the engine's shared code reads, is its alias.
    actors: tuple[int, ...] = ()

    @property
    def _actors(self) -> tuple[int, ...]:
        return self.actors

    @_actors.setter
    def _actors(self, seats: tuple[int, ...]) -> None:
        self.actors = seats

    def __init__(self, game: DropOrStop, seed: int) -> None:
        # SETUP (§4)
        self.game = game
        self.rng = seeded_random(seed)
        self.history = []
        self._log = []
        n = game.players
        self.draw = shuffled_deck(self.rng)  # R5
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[]] * n  # each replaced by its dealt hand (R7)
        self.tableaux: list[list[int]] = []  # R8 (set by _deal, like `active`)
        self.active: list[bool] = []
        self.wins = [0] * n  # R3
        # Each seat's round cards as one running sum (`game.card_weight`), so a total is
        # one lookup (`game.total_at`) on hot paths.
        self.weight = [0] * n
        # The draw-pile generation each card was last drawn from: cards of one generation
        # were shuffled together, which is what determinize may resample (R13, R30).
        self.generation = 0
        self.card_generation = [0] * DECK_SIZE
        self.hand_event: list[int] = [-1] * n  # index in _log of each seat's private hand
        self.results: list[dict[str, Any]] = []  # R29: the public record of every reveal
        self.round = 0
        self.truncated = False
        first = game.options.first_start_seat
        self.start_seat = random_below(self.rng, n) if first == "random" else int(first)  # R6
        self.current = self.start_seat
        self.actors = ()
        self._log.append(
            _new_event(Event, ("started", {"players": n, "start_seat": self.start_seat}, None))
        )
        self._deal()

    @property
    def phase(self) -> Phase:
        """TURN while someone owes a decision, else GAME_OVER (or TRUNCATED, R34)."""
        if self.actors:
            return Phase.TURN
        return Phase.TRUNCATED if self.truncated else Phase.GAME_OVER

    # -- cards --------------------------------------------------------------------------
    def _draw_card(self) -> int:
        """R13: reshuffle the discard pile only when a card must be drawn from an empty pile."""
        if not self.draw:
            self.draw, self.discard = self.discard, []
            shuffle(self.draw, self.rng)
            self.generation += 1
            for c in self.draw:
                self.card_generation[c] = self.generation
            self._emit("reshuffled", cards=self.game.multiset(self.draw))  # R30
        return self.draw.pop()

    # -- DEAL -----------------------------------------------------------------------------
    def _deal(self) -> None:
        """R7, R8: deal HAND_SIZE cards to each seat from the start seat clockwise."""
        game = self.game
        self.round = round_number = self.round + 1
        start = self.start_seat
        hands, draw, dealt = self.hands, self.draw, game.cards_dealt
        if 0 < dealt <= len(draw):  # the common case: each hand sliced off the pile's top
            for seat, cut in enumerate(game.hand_cuts[start]):
                hands[seat] = draw[cut]
            del draw[-dealt:]
        else:  # card by card, as R13 may reshuffle between two of them
            for seat in game.deal_order[start]:
                hands[seat] = [self._draw_card() for _ in range(game.hand_size)]
        log = self._log
        log.append(_new_event(Event, ("dealt", {"round": round_number, "start_seat": start}, None)))
        ids, weighs = game.card_id, game.card_weight
        weight, hand_event = self.weight, self.hand_event
        for seat, only in enumerate(game.only):
            # one plain loop per hand for its sum and its names: on Python 3.11 a
            # comprehension makes a function object each time, a `map` a bound method
            cards, total = [], 0
            for card in hands[seat]:
                cards.append(ids[card])
                total += weighs[card]
            weight[seat] = total
            hand_event[seat] = len(log)
            log.append(_new_event(Event, ("hand", {"seat": seat, "cards": cards}, only)))
        tableaux: list[list[int]] = []
        for _ in hands:  # a loop again, cheaper here than `[[] for _ in hands]`
            tableaux.append([])
        self.tableaux = tableaux
        self.active = [True] * len(hands)
        self.current = start  # R9
        self.actors = game.alone[start]

    # -- TURN -----------------------------------------------------------------------------
    def actions(self, seat: int) -> list[Action]:
        """R10, R12a, R14: {DROP, STOP} or {STOP}. (`act` repeats the DROP test inline.)"""
        if seat != self.current or not self.actors:
            return NOTHING
        if (self.draw or self.discard) and (  # R14: a card is left to draw
            self.game.allow_overflow_drop  # R12a: a forced STOP is shown like a chosen one
            or self.game.total_at[self.weight[seat]] is not None
        ):
            return DROP_OR_STOP
        return ONLY_STOP

    def _refusal(self, seat: int, action: Action) -> str | None:
        """Why DROP is not offered, in player words (issue 45, item 5: a click on an
        unavailable choice says why); told only to the seat asking, whose own cards it
        is about (R12a: never announced to the others)."""
        if action == DROP and seat == self.current and self.actors:  # (parsed: equal, not DROP)
            if not (self.draw or self.discard):  # R14
                return refusals.say("nothing_to_draw")
            if not self.game.allow_overflow_drop and self.game.total_at[self.weight[seat]] is None:
                return refusals.say("over_the_limit")  # R12a
        return super()._refusal(seat, action)

    def act(self, seat: int, action: Action) -> list[Event]:
        """The contract's `act`; the seat to act with the shared DROP or STOP, when legal
        (R10, R12a, R14), goes straight to `_apply`, the hot path of every playout.
        Anything else takes `State.act`'s way, with its refusals."""
        if (
            seat == self.current
            and self.actors
            and (
                action is STOP
                or (  # DROP when `actions(seat)` offers it (R12a, R14), inlined
                    action is DROP
                    and (self.draw or self.discard)
                    and (
                        self.game.allow_overflow_drop
                        or self.game.total_at[self.weight[seat]] is not None
                    )
                )
            )
        ):
            log = self._log
            start = len(log)
            self._apply(seat, action)
            self.history.append((seat, action))
            return log[start:]
        return super().act(seat, action)

    def _apply(self, seat: int, action: Action) -> None:
        game = self.game
        if action is DROP or (action is not STOP and isinstance(action, Drop)):
            draw = self.draw
            card = draw.pop() if draw else self._draw_card()  # R13 only on an empty pile
            self.tableaux[seat].append(card)  # R11
            self.weight[seat] += game.card_weight[card]
            self._log.append(game.drop_events[seat][card])
        else:
            self.active[seat] = False  # R12
            self._log.append(game.stop_events[seat])
        active = self.active
        for nxt in game.after[seat]:  # §5 nextActive (R9)
            if active[nxt]:
                self.current = nxt
                self.actors = game.alone[nxt]
                return
        self._score_round()  # R15: nobody is active

    def total(self, seat: int) -> int | None:
        """§7 value of the seat's hand + tableau; None is OVERFLOW (R17)."""
        return self.game.total_at[self.weight[seat]]

    def recount(self) -> None:
        """Recompute the running sums from the cards and, in a round being played, each
        seat's private hand event from its hand (after cards were placed by hand or
        resampled: the reveal reads that event). A truncated game's emptied hands keep
        their events."""
        game = self.game
        ids = game.card_id
        for seat in range(game.players):
            at = self.hand_event[seat]
            named = [ids[c] for c in self.hands[seat]]
            if self.actors and at >= 0 and self._log[at].data["cards"] != named:
                old = self._log[at]  # replaced, not changed: copies share the old event
                self._log[at] = type(old)(old.kind, {**old.data, "cards": named}, old.to)
            self.weight[seat] = sum(
                game.card_weight[c] for c in self.hands[seat] + self.tableaux[seat]
            )

    # -- SCORE, CHECK_END, CLEANUP ------------------------------------------------------
    def _score_round(self) -> None:
        """R16-R20: reveal, value, award round wins; then CHECK_END (R21)."""
        game = self.game
        ids = game.card_id
        reveal = game.reveal_at
        # Plain loops: with 2-4 seats they beat comprehensions and map chains.
        ranks, totals, flex = [], [], []
        for weight in self.weight:
            rank, shown, choices = reveal[weight]  # R17, R29: looked up
            ranks.append(rank)
            totals.append(shown)
            flex.append(choices)  # shared by every reveal: events are never changed
        best = max(ranks)  # R18: the highest rank; OVERFLOW's rank never wins (R19)
        wins = self.wins
        winners = []
        if best != OVERFLOW_RANK:
            for seat, rank in enumerate(ranks):
                if rank == best:
                    winners.append(seat)
                    wins[seat] += 1  # R20
        log = self._log
        tableaux, hands = [], []
        for tableau in self.tableaux:
            names = []
            for card in tableau:
                names.append(ids[card])
            tableaux.append(names)
        for at in self.hand_event:
            # a hand does not change in its round: its private event already names it
            # (`recount` keeps that so when cards are placed by hand)
            hands.append(log[at][1]["cards"])
        result = {
            "round": self.round,
            "hands": hands,
            "tableaux": tableaux,
            "flex": flex,
            "totals": totals,
            "winners": winners,
            "wins": list(wins),
        }
        self.results.append(result)
        log.append(_new_event(Event, ("revealed", result, None)))  # R16, R29
        # CHECK_END, R21: a seat at WINS_TO_WIN ends the game (co-champions share it)
        wins_to_win = game.wins_to_win
        if max(wins) >= wins_to_win:
            champions = []
            for seat, count in enumerate(wins):
                if count >= wins_to_win:
                    champions.append(seat)
            self.actors = ()
            self._emit("game_over", winners=champions, wins=list(wins))
            return
        self._cleanup()

    def _cleanup(self) -> None:
        """R22-R24: round cards face up onto the discard pile, start card left, deal again;
        R34: a round cap ends the game truncated instead."""
        n = len(self.hands)
        discard = self.discard
        for s in range(n):  # R22
            discard += self.hands[s]
            discard += self.tableaux[s]
        cap = self.game.max_rounds
        if cap is not None and self.round >= cap:  # R34
            self.hands = [[] for _ in range(n)]
            self.tableaux = [[] for _ in range(n)]
            self.truncated = True
            self.actors = ()
            self._emit("truncated", rounds=self.round)
            return
        self.start_seat = (self.start_seat + 1) % n  # R23
        self._deal()  # R24

    # -- GAME_OVER and the rest of the contract -----------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (§6); see observation.View for its keys."""
        return observation.view(self, seat)  # type: ignore[return-value]

    def stats(self) -> dict[str, float]:
        """Length, the lead's story (round wins after each round: lead changes, and whether
        a winner trailed at some point) and, per round r, whether the seat that started it
        won it (`start_won.r<r>`; R23 moves the start seat each round) and its edge in
        that round (`start_edge.r<r>`: its share of the round's win, 1/k of a round won by
        k seats, minus the mean share of the other seats; 0 in a round nobody wins)."""
        out: dict[str, float] = {"decisions": len(self.history), "rounds": self.round}
        best = max(self.wins)
        winners = (
            ()
            if self.actors or self.truncated
            else tuple(seat for seat, wins in enumerate(self.wins) if wins == best)
        )
        out.update(lead_story([result["wins"] for result in self.results], winners))
        n = len(self.wins)
        for result in self.results:
            r = result["round"]
            start = (self.start_seat - (self.round - r)) % n  # R23: one seat on per round
            out[f"start_won.r{r}"] = float(start in result["winners"])
            out[f"start_edge.r{r}"] = start_edge(n, start, result["winners"])
        return out

    def estimate(self) -> tuple[float, ...]:
        """Rank by round wins so far (R21: wins decide the game)."""
        return Outcome.from_scores(self.wins).payoff

    def outcome(self) -> Outcome:
        """R21 winners share the game; R34 a capped game is truncated."""
        if self.actors:
            raise RuntimeError("the game is not over")
        return Outcome.from_scores(self.wins, truncated=self.truncated)

    def copy(self) -> Self:
        new = self._copy_shell()
        new.rng = copied_random(self.rng)
        new.draw = list(self.draw)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.tableaux = [list(t) for t in self.tableaux]
        new.active = list(self.active)
        new.wins = list(self.wins)
        new.weight = list(self.weight)
        new.card_generation = list(self.card_generation)
        new.hand_event = list(self.hand_event)
        new.results = list(self.results)
        return new

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Resample other hands and the draw pile within each shuffle generation, and the
        future (R13 reshuffles), keeping everything `seat` has seen."""
        new = self.copy()
        kind = self.game.card_kind
        places: dict[int, list[tuple[list[int], int]]] = {}
        hidden = [h for s, h in enumerate(new.hands) if s != seat and new.actors]
        for pile in [*hidden, new.draw]:
            for i, card in enumerate(pile):
                places.setdefault(new.card_generation[card], []).append((pile, i))
        for generation in sorted(places):
            spots = places[generation]
            cards = sorted((pile[i] for pile, i in spots), key=lambda c: (kind[c], c))
            rng.shuffle(cards)
            for (pile, i), card in zip(spots, cards, strict=True):
                pile[i] = card
        new.recount()  # the sums, and the resampled hands' private events
        new.rng = seeded_random(rng.getrandbits(64))
        return new


_DECK = range(DECK_SIZE)


def start_edge(players: int, start: int, winners: Sequence[int]) -> float:
    """The start seat's share of a round's win minus the mean share of the other seats
    (a round won by k seats: 1/k each); one division of whole numbers, so that the batched
    tables (batched.py) give the same float."""
    k = len(winners)
    if not k or players < 2:
        return 0.0
    own = int(start in winners)
    return float((own * (players - 1) - (k - own)) / (k * (players - 1)))


def lead_story(standings: list[list[int]], winners: tuple[int, ...]) -> dict[str, float]:
    """From the standings after each step: `lead_changes`, how often a sole leader took
    over from another; `comeback`, 1 when a winner was behind someone at some step."""
    changes, leader = 0, None
    comeback = False
    for step in standings:
        best = max(step)
        leaders = [seat for seat, value in enumerate(step) if value == best]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
        comeback = comeback or any(step[w] < best for w in winners)
    return {"lead_changes": float(changes), "comeback": float(comeback)}


def shuffled_deck(rng: random.Random) -> list[int]:
    """R5: the 39 cards in a uniform order; `shuffle` of the cards in order 0..38, whose
    key list is indexed by card number itself."""
    keys = list(starmap(rng.random, repeat((), DECK_SIZE)))  # DECK_SIZE calls, in C
    return sorted(_DECK, key=keys.__getitem__)


def random_below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n >= 1: the same draws (`Random._randbelow_with_getrandbits`)
    without randrange's Python-level argument handling."""
    bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle in place by sorting on uniform keys: the same uniform permutation as
    `rng.shuffle`, from one C call per card instead of a Python loop (R5, R13)."""
    keys = {c: rng.random() for c in cards}
    cards.sort(key=keys.__getitem__)
