"""A guided first game on the real engine (issue 46, item 1): the shared runner of every
game's `tutorial` module (`GameSpec.tutorial()`), which holds one `Tutorial` as data.

A tutorial is a short scripted game: the game's options and a seed fix the deal, and its
script is a list of the person's `Step`s and the bots' fixed `Move`s, in order. Each step
says what to do in one sentence (`say`), where (`point`: the element the table page
highlights, a CSS selector of the game's own web table; several are pressed in turn),
which moves it accepts (`expect`)
and, once done, what happened and why (`why`, the rule in player words). A step without
`expect` is a look: it is done by pressing the element pointed at (Enter in the terminal).

The runner never names a game and keeps no person's progress: the state before step k is a
function of k alone (a move accepted at a step is replaced by the step's own `play`, so a
Drop It drop aimed anywhere in the accepted range lands as the explanation says). States are
computed once per process and shared, so any number of people cost no more than one.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamenight.engine.core import Action, BadInput, Event, Game, State, said
from gamenight.engine.registry import load
from gamenight.i18n import N_, _

MAX_ACTIONS_LISTED = 400  # a page is sent the legal moves when there are at most this many


@dataclass(frozen=True)
class Step:
    """One thing the person does. `expect` maps fields of the accepted action's JSON to a
    value or to an inclusive [low, high] range (None: a look step, no move); `play` is the
    move applied when the person's move is accepted (default: `expect`, which then must be
    exact); `refuse` says why any other move is refused at this step."""

    say: str
    point: str | tuple[str, ...]  # several: pressed in turn (a card, then where it goes)
    why: str
    expect: Mapping[str, Any] | None = None
    play: Mapping[str, Any] | None = None
    refuse: str = ""
    keys: str = ""  # what to type at the terminal, when the terminal's words differ
    wait: str = ""  # a key of the person's view that must be true first ("final_round")

    @property
    def points(self) -> tuple[str, ...]:
        return (self.point,) if isinstance(self.point, str) else self.point

    @property
    def look(self) -> bool:
        return self.expect is None

    @property
    def move(self) -> Mapping[str, Any] | None:
        return self.play if self.play is not None else self.expect

    def accepts(self, action: Mapping[str, Any]) -> bool:
        """Does the person's action (as JSON) fit this step?"""
        if self.expect is None:
            return False
        for key, wanted in self.expect.items():
            given = action.get(key)
            if isinstance(wanted, list | tuple):
                low, high = wanted
                if not isinstance(given, int | float) or isinstance(given, bool):
                    return False
                if not low <= given <= high:
                    return False
            elif given != wanted:
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {
            "say": self.say,
            "point": list(self.points),
            "look": self.look,
            "expect": dict(self.expect) if self.expect is not None else None,
            "keys": self.keys,
        }


@dataclass(frozen=True)
class Move:
    """A bot's fixed move (its seat and its action as JSON)."""

    seat: int
    action: Mapping[str, Any]


@dataclass(frozen=True)
class Tutorial:
    """One game's guided first game, as data."""

    title: str
    minutes: int  # about how long a new person takes
    options: Mapping[str, Any]
    seed: int
    seat: int  # the person's seat
    names: tuple[str, ...]  # every seat's name, the person's "You"
    intro: str
    outro: str
    script: tuple[Step | Move, ...]
    # Every other decision, where the game asks many (Arne's passes in reaction windows):
    # a seat owing a decision that is not the script's next is given this move (None: the
    # script names every move).
    idle: Mapping[str, Any] | None = None
    # The arranged deal: changes the state just started (the deck's order), in the game's
    # own package; None: the seed's deal as it is.
    arrange: Callable[[Any], None] | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(item for item in self.script if isinstance(item, Step))


class ScriptError(Exception):
    """The script does not fit the game (a bot move that is not legal, a step whose move is
    not the person's to make): a bug in the tutorial's data, found by its tests."""


@dataclass
class Answer:
    """The runner's answer to a move at a step: accepted (with what happened and why) or
    refused (with the reason)."""

    accepted: bool
    reason: str = ""
    why: str = ""


@dataclass
class Lesson:
    """The runner of one tutorial: the state before each step, computed once and shared
    (never changed: every move is made on a copy)."""

    game_name: str
    tutorial: Tutorial
    game: Game = field(init=False)
    _before: list[State] = field(init=False, default_factory=list)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.game = load(self.game_name, **dict(self.tutorial.options))
        self.steps = self.tutorial.steps
        self._positions = [
            i for i, item in enumerate(self.tutorial.script) if isinstance(item, Step)
        ]

    def in_words(self, tutorial: Tutorial) -> Lesson:
        """This lesson with `tutorial`'s words (the same script in another language,
        i18n.tutorial_in): the states are shared, computed once for every language."""
        worded = copy.copy(self)  # (the same _before list and lock)
        worded.tutorial = tutorial
        worded.steps = tutorial.steps
        return worded

    # -- states ---------------------------------------------------------------------------
    def before(self, k: int) -> State:
        """The state before step `k` (k == len(steps): after the last step and the bots'
        moves that follow it). Do not change it: copy it first."""
        if not 0 <= k <= len(self.steps):
            raise BadInput(
                said(
                    N_("this tutorial has steps 0 to {last}, not {step}"),
                    last=len(self.steps) - 1,
                    step=k,
                )
            )
        with self._lock:
            if not self._before:
                state = self.game.start(self.tutorial.seed)
                if self.tutorial.arrange is not None:
                    self.tutorial.arrange(state)
                self._advance(state, 0, self._positions[0] if self._positions else None)
                self._before.append(state)
            while len(self._before) <= k:
                done = len(self._before) - 1
                state = self._before[done].copy()
                step = self.steps[done]
                if step.move is not None:
                    self._act(state, self.tutorial.seat, step.move)
                start = self._positions[done] + 1
                end = self._positions[done + 1] if done + 1 < len(self.steps) else None
                self._advance(state, start, end)
                self._before.append(state)
            return self._before[k]

    def _act(self, state: State, seat: int, move: Mapping[str, Any]) -> None:
        action = self.game.action_from_json(dict(move))
        reason = refusal(state, seat, action)
        if reason is not None:
            raise ScriptError(f"{self.game_name} tutorial: {move} of seat {seat}: {reason}")
        state.act(seat, action)

    def _legal(self, state: State, seat: int, move: Mapping[str, Any]) -> bool:
        action = self.game.action_from_json(dict(move))
        return refusal(state, seat, action) is None

    def _due(self, state: State, step: Step) -> bool:
        """May the person do `step` now (they owe a decision)?"""
        person = self.tutorial.seat
        if step.wait and not state.view(person).get(step.wait):
            return False
        return step.look or self._legal(state, person, step.move or {})

    def _advance(self, state: State, start: int, end: int | None) -> None:
        """Play the script's moves from `start` up to the step at `end` (None: the end).
        A scripted move is made at the first decision of its seat where it is legal; every
        other decision on the way gets the idle move. The way stops where the step at `end`
        can be done: at the person's decision where its move is legal (a look step: at
        the person's next decision), or when the game is over."""
        script = self.tutorial.script
        moves = [item for item in script[start:end] if isinstance(item, Move)]
        step = script[end] if end is not None else None
        person = self.tutorial.seat
        while not state.over:
            seat = state.actors[0]
            if moves and moves[0].seat == seat and self._legal(state, seat, moves[0].action):
                self._act(state, seat, moves.pop(0).action)
                continue
            if not moves:
                if not isinstance(step, Step):
                    break  # after the last step: its moves made, the game left as it is
                if seat == person and self._due(state, step):
                    break
            if self.tutorial.idle is None:
                raise ScriptError(f"seat {seat} owes a decision the script does not name")
            self._act(state, seat, self.tutorial.idle)
        if moves:
            raise ScriptError(f"the game ended before the moves {moves}")

    # -- the person's moves ---------------------------------------------------------------
    def answer(self, k: int, given: Mapping[str, Any] | None) -> Answer:
        """The person's move at step `k` (None: a look step's "done"): accepted, or refused
        with the reason (the rules' own when the move is not legal at all)."""
        if not 0 <= k < len(self.steps):
            return Answer(False, _("the tutorial is over: there is no step to do"))
        step = self.steps[k]
        if given is None:
            if step.look:
                return Answer(True, why=step.why)
            return Answer(False, step.refuse or _("Not yet: {step}").format(step=step.say))
        if step.look:
            return Answer(False, _("Just look for now: {step}").format(step=step.say))
        state = self.before(k)
        try:
            action = self.game.action_from_json(dict(given))
        except BadInput as err:
            return Answer(False, str(err))
        if step.accepts(action.to_json()):
            return Answer(True, why=step.why)
        reason = refusal(state, self.tutorial.seat, action)
        if reason is not None:
            return Answer(False, reason)
        return Answer(False, step.refuse or _("Not this time: {step}").format(step=step.say))

    def events(self, k: int) -> list[Event]:
        return self.before(k).events(self.tutorial.seat)

    def to_json(self, k: int) -> dict[str, Any]:
        """What the tutorial page draws before step `k`: the table as the person sees it
        (the game's own view and legal moves), every event so far, and the step."""
        seat = self.tutorial.seat
        state = self.before(k)
        legal = state.actions(seat) if seat in state.actors else []
        step = self.steps[k] if k < len(self.steps) else None
        listed = len(legal) <= MAX_ACTIONS_LISTED  # (a grid of drops is not listed)
        return {
            "game": self.game_name,
            "title": self.tutorial.title,
            "at": k,
            "steps": len(self.steps),
            "seat": seat,
            "names": list(self.tutorial.names),
            "view": state.view(seat),
            "actions": [action.to_json() for action in legal] if listed else None,
            "asked": bool(state.actors) and state.actors[0] == seat,
            "events": [event.to_json() for event in state.events(seat)],
            "step": step.to_json() if step is not None else None,
            "outcome": state.outcome().to_json() if state.over else None,
        }


def refusal(state: State, seat: int, action: Action) -> str | None:
    """Why the rules refuse `seat`'s `action` now (None: it is legal), without applying it:
    the same reasons `State.act` gives."""
    if state.over:
        return _("the game is over")
    if seat not in state.actors:
        return _("it is not your turn: wait for the others")
    return state._refusal(seat, action)  # the rules' own check, as act makes it


def check(lesson: Lesson) -> None:
    """Play the whole script (raising ScriptError where it does not fit the game), and check
    that every step that asks for a move asks the person's seat."""
    for k, step in enumerate(lesson.steps):
        state = lesson.before(k)
        if step.move is not None and lesson.tutorial.seat not in state.actors:
            raise ScriptError(f"step {k} asks for a move while the person owes none")
        if step.move is not None and not step.accepts(dict(step.move)):
            raise ScriptError(f"step {k} does not accept its own move {step.move}")
    lesson.before(len(lesson.steps))
