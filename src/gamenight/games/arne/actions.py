"""Arne's decisions (spec section 10) as small frozen actions.

Cards in actions are named by type and printed colour, never by a physical copy: copies of
one kind are interchangeable, and naming kinds keeps an action meaningful across
determinizations. Displays are numbered by seat (display i lies in front of seat i; the dummy
display is number `players`). Stacks are numbered by their position in a display. `target`
is always a player number (A56). `display = -1` on a point card means the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gamenight.engine.core import Action


@dataclass(frozen=True, slots=True)
class ChooseColour(Action):
    """A3: take a free colour of the deck (team game: for the team)."""

    kind: ClassVar[str] = "choose_colour"
    colour: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """A15: give up priority (final round A41: play nothing)."""

    kind: ClassVar[str] = "pass"


# -- white cards (A21-A28), declared by the active player ----------------------------------
@dataclass(frozen=True, slots=True)
class PlayPoint(Action):
    """A21: a point card (incl. X2) as a new stack in `display`, or -1: the discard pile."""

    kind: ClassVar[str] = "play_point"
    card: str
    colour: str
    display: int


@dataclass(frozen=True, slots=True)
class Triple(Action):
    """A22: X3 on a stack."""

    kind: ClassVar[str] = "x3"
    display: int
    stack: int


@dataclass(frozen=True, slots=True)
class TakeRandom(Action):
    """A23: take a random card from `target`."""

    kind: ClassVar[str] = "take_random"
    target: int


@dataclass(frozen=True, slots=True)
class DemandPoints(Action):
    """A24: demand 2 point cards of `colour` from `target`, laid into `display`."""

    kind: ClassVar[str] = "demand_points"
    target: int
    colour: str
    display: int


@dataclass(frozen=True, slots=True)
class DemandBlack(Action):
    """A25: demand 2 black cards from `target`."""

    kind: ClassVar[str] = "demand_black"
    target: int


@dataclass(frozen=True, slots=True)
class DrawThree(Action):
    """A26: draw three cards."""

    kind: ClassVar[str] = "draw_three"


@dataclass(frozen=True, slots=True)
class PassHands(Action):
    """A28: everybody passes their hand on."""

    kind: ClassVar[str] = "pass_hands"


@dataclass(frozen=True, slots=True)
class SwapPlaces(Action):
    """A27: swap seats with `target`."""

    kind: ClassVar[str] = "swap_places"
    target: int


@dataclass(frozen=True, slots=True)
class Give(Action):
    """A24/A25: the demand's target hands over one card (a secret choice for DEMAND_BLACK).
    `colour` is "" for a neutral card."""

    kind: ClassVar[str] = "give"
    card: str
    colour: str


# -- black actions (A29-A35), by anyone holding priority ----------------------------------
@dataclass(frozen=True, slots=True)
class MinusTwoHundred(Action):
    """A30: a -200 of `colour` as a new stack in `display`."""

    kind: ClassVar[str] = "minus200"
    colour: str
    display: int


@dataclass(frozen=True, slots=True)
class Chameleon(Action):
    """A31: a chameleon carrying `card` of `colour` as a new stack in `display`."""

    kind: ClassVar[str] = "chameleon"
    card: str
    colour: str
    display: int


@dataclass(frozen=True, slots=True)
class ThiefDiscard(Action):
    """A29.1: a thief takes the top card of the discard pile."""

    kind: ClassVar[str] = "thief_discard"


@dataclass(frozen=True, slots=True)
class ThiefStack(Action):
    """A29.2: a thief takes a chameleon stack into the thief-player's own display."""

    kind: ClassVar[str] = "thief_stack"
    display: int
    stack: int


@dataclass(frozen=True, slots=True)
class Crush(Action):
    """A32: crush a point-card stack."""

    kind: ClassVar[str] = "crush"
    display: int
    stack: int


@dataclass(frozen=True, slots=True)
class Lock(Action):
    """A33: lock a crush or a -200."""

    kind: ClassVar[str] = "lock"
    display: int
    stack: int


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """A34: STOP!"""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Reverse(Action):
    """A35 (A51 in the dummy game): REVERSE!"""

    kind: ClassVar[str] = "reverse"


ACTION_TYPES: tuple[type[Action], ...] = (
    ChooseColour,
    Pass,
    PlayPoint,
    Triple,
    TakeRandom,
    DemandPoints,
    DemandBlack,
    DrawThree,
    PassHands,
    SwapPlaces,
    Give,
    MinusTwoHundred,
    Chameleon,
    ThiefDiscard,
    ThiefStack,
    Crush,
    Lock,
    Stop,
    Reverse,
)
WHITE_ACTIONS = (
    PlayPoint,
    Triple,
    TakeRandom,
    DemandPoints,
    DemandBlack,
    DrawThree,
    PassHands,
    SwapPlaces,
)
PASS = Pass()


_JSON: dict[Action, dict[str, Any]] = {}


def cached_json(action: Action) -> dict[str, Any]:
    """`action.to_json()`, a fresh dict each time, built once per action (events name every
    declared and black action)."""
    obj = _JSON.get(action)
    if obj is None:
        obj = _JSON[action] = action.to_json()
    return dict(obj)
