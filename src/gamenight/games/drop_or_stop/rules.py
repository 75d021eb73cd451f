"""Drop or Stop rules: the state machine of spec §5 with the clauses of §8.

Cards are numbered 0..38; `Deck.card_kind[i]` names the kind of card i. Lists are used as
stacks (the top of the draw pile is the end of the list).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np

from gamenight.engine.core import Action, BadInput, Event, Game, Outcome, State
from gamenight.engine.options import setting
from gamenight.games.drop_or_stop.components import DECK_SIZE, PRESETS, Deck, load_deck
from gamenight.games.drop_or_stop.scoring import flex_choices, round_total, round_winners


@dataclass(frozen=True)
class DropOrStopOptions:
    """Every named setting of the spec (§2.3, R12a, R34)."""

    players: int = setting(3, "number of players (R1)", min=1, max=12)
    deck: str = setting(
        "standard",
        f"deck preset ({', '.join(PRESETS)}) or the path of a JSON deck file (§2.2)",
        served=tuple(PRESETS),
    )
    target: int = setting(
        11, "the highest total that does not overflow (TARGET)", min=1, ceiling=100
    )
    hand_size: int = setting(
        2, "hidden cards dealt to each player per round (HAND_SIZE)", min=0, ceiling=10
    )
    wins_to_win: int = setting(
        3, "round wins needed to win the game (WINS_TO_WIN)", min=1, ceiling=10
    )
    min_players: int = setting(2, "MIN_PLAYERS (R1)", min=1, ceiling=12)
    max_players: int = setting(
        4, "MAX_PLAYERS (R1); one colour set of scoring cards each", min=1, ceiling=12
    )
    allow_drop_when_overflowed: bool = setting(
        True, "a player already over the target may still DROP (R12a)"
    )
    first_start_seat: int | str = setting(
        "random",
        "'random' (seeded, R6/R27) or the seat index that gets the start card first",
        ceiling=11,
    )
    max_rounds: int | None = setting(
        None,
        "engine cap on rounds; a capped game ends truncated, without winners (R34)",
        min=1,
        ceiling=500,
    )

    def __post_init__(self) -> None:
        if not self.min_players <= self.players <= self.max_players:
            raise BadInput(
                f"drop-or-stop needs {self.min_players}-{self.max_players} players (R1), "
                f"got {self.players}; change min_players/max_players to allow it"
            )
        if self.first_start_seat != "random" and self.first_start_seat not in range(self.players):
            raise BadInput(
                "first_start_seat must be 'random' or a seat index "
                f"0..{self.players - 1}, got {self.first_start_seat!r}"
            )
        if self.players * self.hand_size > DECK_SIZE:
            raise BadInput(f"{self.players} hands of {self.hand_size} need more than 39 cards")


# Keys of the spec's machine-readable block (§2.2) that a deck file may also set.
FILE_SETTINGS = {
    "target": "target",
    "handSize": "hand_size",
    "winsToWin": "wins_to_win",
    "minPlayers": "min_players",
    "maxPlayers": "max_players",
    "allowDropWhenOverflowed": "allow_drop_when_overflowed",
    "firstStartSeat": "first_start_seat",
}


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """DROP: draw one card face up into your tableau (R11)."""

    kind: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """STOP: pass for the rest of the round (R12)."""

    kind: ClassVar[str] = "stop"


DROP = Drop()
STOP = Stop()
_DROP_OR_STOP: list[Action] = [DROP, STOP]
_ONLY_STOP: list[Action] = [STOP]
_NOTHING: list[Action] = []


class DropOrStopState(State):
    game: DropOrStop

    def __init__(self, game: DropOrStop, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.history = []
        self._log = []
        n = game.players
        self.draw = list(range(DECK_SIZE))
        shuffle(self.draw, self.rng)  # R5
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.tableaux: list[list[int]] = [[] for _ in range(n)]
        self.active = [False] * n
        self.wins = [0] * n  # R3
        # Running sums of each seat's round cards, so totals cost nothing on hot paths.
        self.fixed_sum = [0] * n
        self.flex_count = [0] * n
        # The draw-pile generation each card was last drawn from: cards of one generation
        # were shuffled together, which is what determinize may resample (R13, R30).
        self.generation = 0
        self.card_generation = [0] * DECK_SIZE
        self.hand_event: list[int] = [-1] * n  # index in _log of each seat's private hand
        self.results: list[dict[str, Any]] = []  # R29: the public record of every reveal
        self.round = 0
        self.truncated = False
        first = game.options.first_start_seat
        self.start_seat = self.rng.randrange(n) if first == "random" else int(first)  # R6
        self.current = self.start_seat
        self._actors = ()
        self._emit("started", players=n, start_seat=self.start_seat)
        self._deal()

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

    def _deal(self) -> None:
        """R7, R8: deal HAND_SIZE cards to each seat from the start seat clockwise."""
        game = self.game
        size = game.hand_size
        self.round += 1
        ids, fixed_value, is_flex = game.card_id, game.fixed_value, game.is_flex
        hands, fixed_sum, flex_count = self.hands, self.fixed_sum, self.flex_count
        draw = self.draw
        for seat in game.deal_order[self.start_seat]:
            if 0 < size <= len(draw):  # the common case, without a call per card
                hand = draw[: -size - 1 : -1]
                del draw[-size:]
            else:
                hand = [self._draw_card() for _ in range(size)]
                draw = self.draw
            hands[seat] = hand
            fixed_sum[seat] = sum(map(fixed_value.__getitem__, hand))
            flex_count[seat] = sum(map(is_flex.__getitem__, hand))
        log = self._log
        log.append(new_event(("dealt", {"round": self.round, "start_seat": self.start_seat}, None)))
        hand_event = self.hand_event
        for seat, only in enumerate(game.only):
            hand_event[seat] = len(log)
            data = {"seat": seat, "cards": [ids[c] for c in hands[seat]]}
            log.append(new_event(("hand", data, only)))
        n = len(hands)
        self.tableaux = [[] for _ in range(n)]
        self.active = [True] * n
        self.current = self.start_seat  # R9
        self._actors = (self.start_seat,)

    # -- the contract -------------------------------------------------------------------
    def actions(self, seat: int) -> list[Action]:
        """R10, R12a, R14: {DROP, STOP} or {STOP}."""
        if not self._actors or seat != self.current:
            return _NOTHING
        if not self.draw and not self.discard:
            return _ONLY_STOP  # R14
        if not self.game.allow_overflow_drop and self.total(seat) is None:
            return _ONLY_STOP  # R12a: recorded and shown exactly like a voluntary STOP
        return _DROP_OR_STOP

    def _apply(self, seat: int, action: Action) -> None:
        if action is DROP or isinstance(action, Drop):
            card = self._draw_card()
            self.tableaux[seat].append(card)  # R11
            game = self.game
            if game.is_flex[card]:
                self.flex_count[seat] += 1
            else:
                self.fixed_sum[seat] += game.low_value[card]
            data = {"seat": seat, "card": game.card_id[card]}
            self._log.append(new_event(("dropped", data, None)))
        else:
            self.active[seat] = False  # R12
            self._log.append(new_event(("stopped", {"seat": seat}, None)))
        nxt = self._next_active(seat)
        if nxt is None:
            self._score_round()  # R15
        else:
            self.current = nxt
            self._actors = (nxt,)

    def _next_active(self, seat: int) -> int | None:
        """§5 nextActive: seats after `seat` clockwise, `seat` itself last (R9)."""
        active = self.active
        n = len(active)
        for step in range(1, n + 1):
            other = (seat + step) % n
            if active[other]:
                return other
        return None

    def total(self, seat: int) -> int | None:
        """§7 value of the seat's hand + tableau; None is OVERFLOW (R17)."""
        game = self.game
        return round_total(
            self.fixed_sum[seat], self.flex_count[seat], game.target, game.flex_values
        )

    def recount(self) -> None:
        """Recompute the running sums from the cards (after cards were placed by hand)."""
        game = self.game
        for seat in range(game.players):
            cards = self.hands[seat] + self.tableaux[seat]
            self.flex_count[seat] = sum(game.is_flex[c] for c in cards)
            self.fixed_sum[seat] = sum(game.low_value[c] for c in cards if not game.is_flex[c])

    def _score_round(self) -> None:
        """R16-R24: reveal, value, award round wins, end the game or clean up and deal."""
        game = self.game
        n = len(self.hands)
        ids = game.card_id
        target, flex_values = game.target, game.flex_values
        fixed, flex = self.fixed_sum, self.flex_count
        totals = [round_total(fixed[s], flex[s], target, flex_values) for s in range(n)]
        winners = round_winners(totals)  # R18, R19
        wins = self.wins
        for s in winners:
            wins[s] += 1  # R20
        log = self._log
        result = {
            "round": self.round,
            "hands": [[ids[c] for c in h] for h in self.hands],
            "tableaux": [[ids[c] for c in t] for t in self.tableaux],
            "flex": [
                flex_choices(fixed[s], flex[s], target, flex_values) if flex[s] else []
                for s in range(n)
            ],
            "totals": ["OVERFLOW" if t is None else t for t in totals],
            "winners": winners,
            "wins": list(wins),
        }
        self.results.append(result)
        log.append(new_event(("revealed", result, None)))  # R16, R29
        champions = [s for s in range(n) if wins[s] >= game.wins_to_win]
        if champions:  # R21
            self._actors = ()
            self._emit("game_over", winners=champions, wins=list(self.wins))
            return
        discard = self.discard
        for s in range(n):  # R22: hands and tableaux go face up onto the discard pile
            discard += self.hands[s]
            discard += self.tableaux[s]
        cap = game.max_rounds
        if cap is not None and self.round >= cap:  # R34
            self.hands = [[] for _ in range(n)]
            self.tableaux = [[] for _ in range(n)]
            self.truncated = True
            self._actors = ()
            self._emit("truncated", rounds=self.round)
            return
        self.start_seat = (self.start_seat + 1) % n  # R23
        self._deal()  # R24

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (§6, R25, R29-R32); None is a spectator."""
        game = self.game
        ids = game.card_id
        lowest_hand = game.smallest_hand
        seats = []
        for s in range(game.players):
            tableau = self.tableaux[s]
            visible_min = sum(game.low_value[c] for c in tableau)
            seats.append(
                {
                    "tableau": [ids[c] for c in tableau],
                    "visible_min": visible_min,
                    "flex_count": sum(game.is_flex[c] for c in tableau),
                    "tableau_value": _shown(game.value(tableau)),
                    "certainly_over": visible_min + lowest_hand > game.options.target,
                    "active": self.active[s] and bool(self._actors),
                    "wins": self.wins[s],
                    "hand_size": len(self.hands[s]),
                }
            )
        known = list(self.discard)
        for tableau in self.tableaux:
            known.extend(tableau)
        if not self._actors:  # the final reveal showed every hand (R29)
            for hand in self.hands:
                known.extend(hand)
        own = self.hands[seat] if seat is not None else []
        if self._actors:
            known.extend(own)
        unseen = Counter(game.card_id) - Counter(ids[c] for c in known)
        return {
            "game": game.name,
            "seat": seat,
            "players": game.players,
            "round": self.round,
            "start_seat": self.start_seat,
            "to_act": self._actors[0] if self._actors else None,
            "target": game.options.target,
            "flex_values": list(game.flex_values),
            "cards": game.card_table,
            "wins_to_win": game.options.wins_to_win,
            "hand": None if seat is None else [ids[c] for c in own],  # R31
            "own_total": None if seat is None else _shown(self.total(seat)),
            "seats": seats,
            "draw_pile_size": len(self.draw),
            "discard_pile_size": len(self.discard),
            "discard": game.multiset(self.discard),
            "unseen": dict(sorted(unseen.items())),  # R32
            "rounds": list(self.results),  # R29 (a copy: a view is a snapshot)
            "legal": [a.kind for a in self.actions(seat)] if seat is not None else [],
            "over": not self._actors,
            "winners": list(self.outcome().winners) if not self._actors else [],
            "truncated": self.truncated,
        }

    def stats(self) -> dict[str, float]:
        return {"decisions": len(self.history), "rounds": self.round}

    def estimate(self) -> tuple[float, ...]:
        """Rank by round wins so far (R21: wins decide the game)."""
        return Outcome.from_scores(self.wins).payoff

    def outcome(self) -> Outcome:
        """R21 winners share the game; R34 a capped game is truncated."""
        if self._actors:
            raise RuntimeError("the game is not over")
        return Outcome.from_scores(self.wins, truncated=self.truncated)

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.history = list(self.history)
        new._log = list(self._log)
        new.draw = list(self.draw)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.tableaux = [list(t) for t in self.tableaux]
        new.active = list(self.active)
        new.wins = list(self.wins)
        new.fixed_sum = list(self.fixed_sum)
        new.flex_count = list(self.flex_count)
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
        hidden = [h for s, h in enumerate(new.hands) if s != seat and new._actors]
        for pile in [*hidden, new.draw]:
            for i, card in enumerate(pile):
                places.setdefault(new.card_generation[card], []).append((pile, i))
        for generation in sorted(places):
            spots = places[generation]
            cards = sorted((pile[i] for pile, i in spots), key=lambda c: (kind[c], c))
            rng.shuffle(cards)
            for (pile, i), card in zip(spots, cards, strict=True):
                pile[i] = card
        ids = self.game.card_id
        if new._actors:
            for s in range(self.game.players):
                if s != seat and new.hand_event[s] >= 0:
                    old = new._log[new.hand_event[s]]
                    data = {"seat": s, "cards": [ids[c] for c in new.hands[s]]}
                    new._log[new.hand_event[s]] = type(old)(old.kind, data, old.to)
        new.recount()
        new.rng = random.Random(rng.getrandbits(64))
        return new


def new_event(fields: tuple[str, Any, frozenset[int] | None]) -> Event:
    """An Event without NamedTuple's Python-level constructor (events are made every move)."""
    return tuple.__new__(Event, fields)


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle in place by sorting on uniform keys: the same uniform permutation as
    `rng.shuffle`, from one C call per card instead of a Python loop (R5, R13)."""
    keys = {c: rng.random() for c in cards}
    cards.sort(key=keys.__getitem__)


def _shown(total: int | None) -> int | str:
    return "OVERFLOW" if total is None else total


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
        # Hot-path copies of options and the private-event audiences.
        self.target = options.target
        self.hand_size = options.hand_size
        self.allow_overflow_drop = options.allow_drop_when_overflowed
        self.wins_to_win = options.wins_to_win
        self.max_rounds = options.max_rounds
        n = options.players
        self.only = tuple(frozenset((seat,)) for seat in range(n))
        self.deal_order = tuple(tuple((start + i) % n for i in range(n)) for start in range(n))

    @classmethod
    def from_options(cls, **given: Any) -> Self:
        """Settings in a deck file (§2.2 block) apply unless given explicitly."""
        deck = given.get("deck")
        if isinstance(deck, str) and deck.endswith(".json") and Path(deck).is_file():
            try:
                doc = json.loads(Path(deck).read_text())
            except (OSError, json.JSONDecodeError):
                doc = None  # load_deck reports the problem with the file
            if isinstance(doc, dict):
                unknown = set(doc) - set(FILE_SETTINGS) - {"deck", "flexValues"}
                if unknown:
                    raise BadInput(f"deck file {deck}: unknown key(s) {sorted(unknown)}")
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
        return _DROP_OR_STOP[index]

    @property
    def max_decisions(self) -> int | None:
        """R15 bounds a round by 39 - N turns; only a round cap (R34) bounds a game."""
        cap = self.options.max_rounds
        return None if cap is None else cap * (DECK_SIZE - self.players)

    @property
    def encoding_size(self) -> int:
        k = len(self.deck.kinds)
        return k + 2 + self.players * (k + 4) + 2 * k + 2

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """Own hand, own total, every seat from the viewer's left (tableau, active, wins,
        to act, start), discard and unseen counts, pile size and round."""
        k = len(self.deck.kinds)
        n = self.players
        out = np.zeros(self.encoding_size, dtype=np.float32)
        index = self.kind_index
        for cid in view["hand"] or ():
            out[index[cid]] += 1
        total = view["own_total"]
        target = self.options.target
        out[k] = 0.0 if total in (None, "OVERFLOW") else total / target
        out[k + 1] = 1.0 if total == "OVERFLOW" else 0.0
        me = view["seat"] or 0
        base = k + 2
        for j in range(n):
            s = (me + j) % n
            info = view["seats"][s]
            for cid in info["tableau"]:
                out[base + index[cid]] += 1
            out[base + k] = info["active"]
            out[base + k + 1] = info["wins"] / self.options.wins_to_win
            out[base + k + 2] = view["to_act"] == s
            out[base + k + 3] = view["start_seat"] == s
            base += k + 4
        copies = [kind.copies for kind in self.deck.kinds]
        for cid, count in view["discard"].items():
            out[base + index[cid]] = count / copies[index[cid]]
        base += k
        for cid, count in view["unseen"].items():
            out[base + index[cid]] = count / copies[index[cid]]
        base += k
        out[base] = view["draw_pile_size"] / DECK_SIZE
        out[base + 1] = min(view["round"], 20) / 20
        return out
