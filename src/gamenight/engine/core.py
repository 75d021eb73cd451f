"""The engine contract: Action, Event, Outcome, State and Game.

Every game implements the same small surface (see engine/README.md). The base classes
here hold what is shared: refusing illegal actions without touching the state, the event
log with per-seat visibility, the history used for replay, and the information key.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self

from gamenight.i18n import N_

if TYPE_CHECKING:  # an annotation only: `import gamenight` stays light (start-up time)
    import numpy as np


class Reason(str):
    """A sentence said to a person (why an action is refused), in English as the string
    itself, carrying what a translation needs: the `package` whose catalogue holds it (a
    game package, or "gamenight" for the platform's words), its English `template`, its
    `key`, and the `words` filled in: each a plain string (a number, a typed name: the same
    in every language) or a Reason (a card's or colour's name, itself translated). The
    engine never translates: a person's language is known only where the sentence is shown
    (`gamenight.i18n.refusals.translate`)."""

    template: str
    words: dict[str, str]
    package: str
    key: str

    def __new__(
        cls, template: str, words: Mapping[str, str] | None = None, package: str = "", key: str = ""
    ) -> Reason:
        filled = dict(words or {})
        self = super().__new__(cls, template.format(**filled) if filled else template)
        self.template, self.words, self.package, self.key = template, filled, package, key
        return self

    def __str__(self) -> str:
        # itself, not a plain copy: `str(err)` of a BadInput or IllegalAction holding a
        # Reason keeps what a translation needs, wherever the message is passed on
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # (a worker process's refusal comes back whole)
        return Reason, (self.template, self.words, self.package, self.key)

    def to_json(self) -> dict[str, Any]:
        """The sentence and its words as JSON (a refusal sent to another server process)."""
        words = {k: v.to_json() if isinstance(v, Reason) else str(v) for k, v in self.words.items()}
        return {"template": self.template, "words": words, "package": self.package, "key": self.key}

    @classmethod
    def from_json(cls, obj: Any) -> str:
        """`to_json`'s reason again; anything else read as plain text."""
        if isinstance(obj, str):
            return obj
        if not isinstance(obj, dict) or not isinstance(obj.get("template"), str):
            return str(obj)
        raw = obj.get("words")
        words = {str(k): cls.from_json(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
        try:
            return cls(obj["template"], words, str(obj.get("package", "")), str(obj.get("key", "")))
        except (KeyError, IndexError, ValueError):
            return obj["template"]


def said(template: str, **words: object) -> Reason:
    """A sentence of the platform's catalogue (its English `template`, marked `N_` where it
    is written) with its words filled in: a name, a number or a value's repr as it is (the
    same in every language), a Reason (a piece of a sentence: "one of 'a', 'b'") translated
    with the sentence. The engine's BadInput messages are these: English as strings, said
    in a reader's language where they are shown (`gamenight.i18n.refusals.translate`)."""
    return said_in("gamenight", template, **words)


def said_in(package: str, template: str, **words: object) -> Reason:
    """`said`'s sentence in the catalogue of `package`: a game's own (its options' refusals,
    `said_in(__package__, N_("..."))` in the game's package, extracted into its `game.po`)
    or the platform's ("gamenight")."""
    filled = {k: w if isinstance(w, str) else str(w) for k, w in words.items()}
    return Reason(template, filled or None, package, template)


class IllegalAction(Exception):
    """An action the rules do not allow now. The state is unchanged; `reason` says why (a
    game's refusal is a `Reason`: English, with its key and words for a translation)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadInput(ValueError):
    """Malformed input from outside (an option, an action's JSON, a file). Its message is
    a `Reason` where the engine or the server says it (`said`): English as a string,
    translated by every surface that shows it to a person."""


@dataclass(frozen=True, slots=True)
class Action:
    """A decision. Subclasses are small frozen dataclasses with a `kind` tag.

    Their JSON form is `{"type": kind, **fields}`; it is stable across versions.
    """

    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            obj[f.name] = list(value) if isinstance(value, tuple) else value
        return obj

    def __str__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{self.kind}({args})" if args else self.kind


class Event(NamedTuple):
    """Something that happened. `to` is None when every seat (and spectators) may see it,
    otherwise the set of seats that may. (A NamedTuple: events are made on every move.)"""

    kind: str
    data: Mapping[str, Any]
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    scores: the game's own points per seat; winners: seats that won (ties share);
    ranks: 1 = first, equal scores share a rank; payoff: per seat in [0, 1], 1 for first,
    0 for last, tied seats share the mean of the places they cover. truncated: the game hit
    an engine cap and has no result (payoff 0.5 for everyone, no winners).
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    payoff: tuple[float, ...]
    truncated: bool = False

    @classmethod
    def from_scores(
        cls, scores: Sequence[float], *, higher_is_better: bool = True, truncated: bool = False
    ) -> Outcome:
        n = len(scores)
        scores = tuple(scores)
        if truncated:
            return cls(scores, (), tuple([1] * n), tuple([0.5] * n), True)
        sign = 1 if higher_is_better else -1
        order = sorted(range(n), key=lambda s: -sign * scores[s])
        ranks = [0] * n
        payoff = [0.0] * n
        place = 0
        while place < n:
            tied = [s for s in order[place:] if scores[s] == scores[order[place]]]
            places = range(place, place + len(tied))
            share = sum(1 - p / (n - 1) if n > 1 else 1.0 for p in places) / len(tied)
            for s in tied:
                ranks[s] = place + 1
                payoff[s] = share
            place += len(tied)
        winners = tuple(s for s in range(n) if ranks[s] == 1)
        return cls(scores, winners, tuple(ranks), tuple(payoff))

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_new_event = tuple.__new__  # Event(kind, data, to) without the NamedTuple's keyword handling


class State(ABC):
    """One moment of one game. Subclasses implement the `_` methods and the rules.

    Shared bookkeeping: `history` (every decision, hidden ones too, for replay only),
    `_log` (every event with its visibility; public read-only as `log`) and `_actors`
    (stored, because drivers and adapters ask for it many times per move; public as
    `actors`). Subclasses write `_log` through `_emit` only.
    """

    game: Game
    history: list[tuple[int, Action]]
    _log: list[Event]
    _actors: tuple[int, ...]

    # -- asked by everyone ------------------------------------------------------------
    @property
    def actors(self) -> tuple[int, ...]:
        """Seats that owe a decision now, in priority order; () when the game is over."""
        return self._actors

    @property
    def over(self) -> bool:
        return not self._actors

    @property
    def log(self) -> Sequence[Event]:
        """Every event so far, with its visibility, in order (read-only: do not change it).
        For drivers that forward new events (`log[shown:]`); a seat's own stream is
        `events(seat)`."""
        return self._log

    def window_seats(self) -> tuple[int, ...]:
        """The seats now in a timed reaction window (Arne A15-A17: a seat that may still
        answer out of turn), in priority order; () when no window is open (the default, for
        games without windows). Servers and pass-and-play read this to run window timers and
        automatic passes instead of reading a game's view."""
        return ()

    def window_key(self) -> Hashable | None:
        """Which reaction window is open: a key equal for as long as the same window stays
        open and different for the next one; None outside windows (the default). Servers
        keep a seat's pass in advance while the key stays the same."""
        return None

    def turn_key(self) -> Hashable | None:
        """Which turn is being played: a key equal for the whole of one turn, its windows
        included, and different for the next; None (the default) for games without reaction
        windows. Servers keep a pass "for the rest of this turn" while it stays the same."""
        return None

    @abstractmethod
    def actions(self, seat: int) -> list[Action]:
        """The legal actions of `seat` now (a finite list; [] if it owes no decision)."""

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply `seat`'s decision and return the events it caused.

        Raises IllegalAction with a reason, leaving the state exactly as it was.
        """
        if not self._actors:  # (the platform's catalogue says these to a person)
            raise IllegalAction(Reason(N_("the game is over"), None, "gamenight", "over"))
        if seat not in self._actors:
            raise IllegalAction(
                Reason(
                    N_("seat {seat} owes no decision now; waiting for seat {first}"),
                    {"seat": str(seat + 1), "first": str(self._actors[0] + 1)},  # from 1
                    "gamenight",
                    "not-asked",
                )
            )
        if not isinstance(action, Action):  # e.g. the text "drop": "drop is not legal" misled
            raise IllegalAction(
                said(
                    N_(
                        "{value} is not an action: take one from state.actions(seat), or read "
                        "its JSON with game.action_from_json"
                    ),
                    value=repr(action)[:80],
                )
            )
        reason = self._refusal(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        start = len(self._log)
        self._apply(seat, action)
        self.history.append((seat, action))
        return self._log[start:]

    def act_legal(self, seat: int, action: Action) -> None:
        """`act` for an action just taken from `actions(seat)` of a seat in `actors`:
        skips re-checking it. For search and rollout loops only; anything from outside
        goes through `act`."""
        self._apply(seat, action)
        self.history.append((seat, action))

    def _refusal(self, seat: int, action: Action) -> str | None:
        """Why `action` is illegal for `seat` now, or None. Override for continuous actions."""
        legal = self.actions(seat)
        if action in legal:
            return None
        return said(
            N_("{action} is not legal now; legal: {legal}"),
            action=action,
            legal=", ".join(str(a) for a in legal),
        )

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Carry out a legal action: change the state, append events, update `_actors`."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready snapshot of what `seat` may see (None: a spectator)."""

    def events(self, seat: int | None) -> list[Event]:
        """Every event so far that `seat` may see, in order."""
        return [e for e in self._log if e.to is None or (seat is not None and seat in e.to)]

    def info_key(self, seat: int) -> tuple[Any, ...]:
        """Equal for two states iff `seat` cannot tell them apart: its own event stream."""
        stream = [(e.kind, repr(e.data)) for e in self._log if e.to is None or seat in e.to]
        return (*stream, seat in self._actors)

    def estimate(self) -> tuple[float, ...] | None:
        """A payoff guess per seat, in [0, 1], for a game not yet over, from this state's
        own facts (search that stops a rollout early calls it on determinized states);
        None when the game has no sensible guess."""
        return None

    def stats(self) -> dict[str, float]:
        """Numbers worth averaging over many games (simulation tables, reports)."""
        return {"decisions": len(self.history)}

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; only when `over`."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy that keeps the true hidden cards and the RNG (not for search)."""

    def _copy_shell(self) -> Self:
        """The start of every `copy()`: a new state sharing this one's attributes, with its
        own history and event log. A game's `copy()` then copies its mutable tables (and
        its RNG, where it has one)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new._log = list(self._log)
        return new

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy in which all that `seat` cannot know is resampled from `rng`."""

    def _emit(self, kind: str, to: frozenset[int] | None = None, /, **data: Any) -> None:
        """Append an event: the one way for rules to emit one. (Built with `tuple.__new__`,
        skipping the NamedTuple's keyword handling: events are made on every move.)"""
        self._log.append(_new_event(Event, (kind, data, to)))


class SeatFrame:
    """One seat's view with the table turned so that the viewer sits first (see
    `Game.seat_frame`): the frame's view (made when first asked for), its observation
    tensor, and its actions' maps between the table and the frame."""

    def __init__(
        self,
        view: Callable[[], Mapping[str, Any]],
        to_frame: Callable[[Action], Action],
        from_frame: Callable[[Action], Action],
        tensor: Callable[[], np.ndarray],
    ) -> None:
        self._view = view
        self.to_frame = to_frame  # an action at the table -> the same in the frame
        self.from_frame = from_frame  # and back
        self.tensor = tensor  # `game.encode(self.view)`, by a quicker way where there is one

    @functools.cached_property
    def view(self) -> Mapping[str, Any]:
        return self._view()


class Game(ABC):
    """A game with its options fixed. Stateless: everything that changes lives in State."""

    name: ClassVar[str]
    Options: ClassVar[type]
    action_types: ClassVar[tuple[type[Action], ...]]

    def __init__(self, options: Any) -> None:
        self.options = options

    @classmethod
    def from_options(cls, **given: Any) -> Self:
        """The game with `given` options validated against `Options` (BadInput if wrong)."""
        from gamenight.engine.options import build_options

        game = shared_game(cls, build_options(cls.Options, given, cls.name))
        assert isinstance(game, cls)
        return game

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is its class and options: a pickled state carries those few bytes, not
        # the game's lookup tables (tens of KB), and the receiving process shares its own.
        return (shared_game, (type(self), self.options))

    @property
    @abstractmethod
    def players(self) -> int:
        """The number of seats."""

    @abstractmethod
    def start(self, seed: int) -> State:
        """A new game; every random thing in it comes from `seed`."""

    def replay(self, seed: int, history: Sequence[tuple[int, Action]]) -> State:
        """The state reached by `history` from `seed`, bit for bit."""
        state = self.start(seed)
        for seat, action in history:
            state.act(seat, action)
        return state

    def action_from_json(self, obj: Any) -> Action:
        from gamenight.engine.codec import action_from_json

        return action_from_json(obj, self.action_types)

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the fixed integer action space."""

    @abstractmethod
    def action_index(self, action: Action) -> int: ...

    @abstractmethod
    def action_at(self, index: int) -> Action: ...

    @property
    @abstractmethod
    def max_decisions(self) -> int | None:
        """An upper bound on len(history); None when the rules set none (see the README)."""

    @property
    @abstractmethod
    def encoding_size(self) -> int: ...

    @abstractmethod
    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """A float32 vector of length `encoding_size` made from one seat's view."""

    def seat_frame(self, view: Mapping[str, Any]) -> SeatFrame | None:
        """The view as if its viewer sat in seat 0, every seat, player and seat-owned thing
        renumbered from there, or None when the game has no such symmetry. A policy that
        reads frames learns one seat's play once instead of once per seat (policy files
        with `p{players}/frame` are played so, `learn/policy.py`)."""
        return None

    def __repr__(self) -> str:
        return f"<{self.name} {self.options}>"


def has_seat_frame(game: Game) -> bool:
    """Whether the game turns views into seat frames (`Game.seat_frame`)."""
    return type(game).seat_frame is not Game.seat_frame


@functools.lru_cache(maxsize=256)
def _cached_game(cls: type[Game], options: Hashable) -> Game:
    return cls(options)


def shared_game(cls: type[Game], options: Any) -> Game:
    """The one game of `cls` with these validated options in this process. A Game is fixed
    configuration (everything that changes is in State), so every table, state and unpickled
    copy with the same options shares one: a live table no longer carries its own lookup
    tables (78 KB for Drop or Stop). A deck file is read once per path and process."""
    try:
        return _cached_game(cls, options)
    except TypeError:  # options that cannot be hashed: a game of their own
        return cls(options)
