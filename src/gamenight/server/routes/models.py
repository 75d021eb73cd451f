"""The shapes of what clients send: HTTP bodies and WebSocket messages as pydantic models.

Every body, accounts' included, is read by `posted`: `common.body` first (Content-Type, a
size limit counted as the body streams in, JSON, an object, no control characters in text:
FastAPI's own body reading would take any size in), then validated against its model. One
reader, one size limit, one error type (`Refused`; a bad field is `BadInput`, also 400).
Every model is strict (no "1" for 1, no 1 for true) and ignores unknown keys. A failed
validation becomes one plain line (`one_line`): the field's own sentence when the model
gives one, else the field's name and pydantic's short message; never the input itself.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeVar

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gamenight.engine.core import BadInput
from gamenight.engine.registry import games
from gamenight.i18n import N_
from gamenight.i18n.refusals import message_of, said
from gamenight.server.accounts import NAME_RULE, PASSWORD_LENGTH
from gamenight.server.routes.common import body, first_problem

MAX_SEED = 2**63  # seeds are stored as signed 64-bit integers
VERSION_NEEDED = N_("an action needs the integer 'version' of the state it was made on")

M = TypeVar("M", bound="Shape")


class Shape(BaseModel):
    """A strict model whose fields may each name the sentence shown when they are wrong
    (English, marked `N_`, or a `said` sentence with its words: translated where shown)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)
    wrong: ClassVar[dict[str, str]] = {}

    @classmethod
    def sentence(cls, field: str) -> str | None:
        return cls.wrong.get(field)


def one_line(err: ValidationError, model: type[Shape] | None = None) -> str:
    """The first problem of a failed validation, in one line."""
    return first_problem(err.errors(include_url=False, include_input=False), model)


def validate(model: type[M], obj: Any) -> M:
    """`obj` as `model`, or BadInput with one line (a Reason: said in the reader's
    language)."""
    try:
        return model.model_validate(obj)
    except ValidationError as err:
        raise BadInput(message_of(one_line(err, model))) from None


async def posted(request: Request, model: type[M]) -> M:
    """The request's JSON body as `model` (see the module doc), or a one-line refusal."""
    return validate(model, await body(request))


# -- HTTP bodies ----------------------------------------------------------------------------
class NewTable(Shape):
    """POST /api/tables."""

    game: str
    seats: list[str]
    practice: bool = False
    seed: Annotated[int, Field(ge=0, lt=MAX_SEED)] | None = None
    options: dict[str, Any] | None = None
    settings: dict[str, Any] | None = None
    name: str | None = None  # with `sit`: the creator takes that seat at once
    sit: int | None = None

    wrong: ClassVar[dict[str, str]] = {
        "seats": N_("'seats' must be a list with 'open' or a bot level per seat"),
        "practice": N_("'practice' must be true or false"),
        "seed": N_("'seed' must be a whole number from 0 to 2^63 - 1"),
        "options": N_("'options' must be an object of option name to value"),
        "settings": N_("'settings' must be an object"),
        "name": N_("'name' must be text"),
        "sit": N_("'sit' must be a seat number"),
    }

    @classmethod
    def sentence(cls, field: str) -> str | None:
        if field == "game":
            return said(N_("'game' must be one of {games}"), games=", ".join(games()))
        return super().sentence(field)


class Challenge(Shape):
    """POST /api/tables/{id}/challenge: a bot account, by name."""

    bot: str

    wrong: ClassVar[dict[str, str]] = {"bot": N_("'bot' must be a bot account's name")}


class ProgramJoin(Shape):
    """POST /api/bot/tables/{id}/join."""

    seat: int

    wrong: ClassVar[dict[str, str]] = {"seat": N_("'seat' must be a seat number")}


class Join(Shape):
    """POST /api/tables/{id}/join."""

    seat: int
    name: str

    wrong: ClassVar[dict[str, str]] = {
        "seat": N_("'seat' must be a seat number"),
        "name": N_("'name' must be text"),
    }


class SeatChange(Shape):
    """POST /api/tables/{id}/seats/{seat}."""

    to: str

    wrong: ClassVar[dict[str, str]] = {
        "to": N_("'to' must be one of open, bot, easy, medium, hard")
    }


class Mute(Shape):
    """POST /api/tables/{id}/chat/mute."""

    seat: int
    on: bool = True

    wrong: ClassVar[dict[str, str]] = {
        "seat": N_("'seat' must be a seat number and 'on' true or false"),
        "on": N_("'seat' must be a seat number and 'on' true or false"),
    }


class SignUp(Shape):
    """POST /api/accounts (the name's pattern and the password's length: accounts/sessions.py)."""

    name: str
    password: str

    wrong: ClassVar[dict[str, str]] = {"name": NAME_RULE, "password": N_("send a password")}


class LogIn(Shape):
    """POST /api/session."""

    name: str
    password: str

    wrong: ClassVar[dict[str, str]] = {
        "name": N_("send a name and a password"),
        "password": N_("send a name and a password"),
    }


class ChangePassword(Shape):
    """POST /api/account/password (the new password's strength: passwords.py)."""

    old: str
    new: str

    wrong: ClassVar[dict[str, str]] = {
        "old": N_("send the old password and the new one"),
        "new": said(
            N_("a password is {low} to {high} characters"),
            low=PASSWORD_LENGTH[0],
            high=PASSWORD_LENGTH[1],
        ),
    }


class DeleteAccount(Shape):
    """DELETE /api/account."""

    password: str

    wrong: ClassVar[dict[str, str]] = {"password": N_("send the account's password")}


# -- WebSocket messages ---------------------------------------------------------------------
class Act(Shape):
    type: Literal["act"]
    version: int
    action: Any = None  # the game parses its own actions (with their own one-line errors)

    wrong: ClassVar[dict[str, str]] = {"version": VERSION_NEEDED}


class Switch(Shape):
    type: Literal["auto_pass", "pass_ahead"]
    on: bool = False
    turn: bool = False  # a pass in advance for every window of this turn

    wrong: ClassVar[dict[str, str]] = {
        "on": N_("'on' must be true or false"),
        "turn": N_("'turn' must be true or false"),
    }


class Wait(Shape):
    """ "Wait!": the full time in this reaction window (pipeline.hold)."""

    type: Literal["wait"]


class TakeBack(Shape):
    type: Literal["take_back"]


class Seen(Shape):
    type: Literal["seen"]
    version: int

    wrong: ClassVar[dict[str, str]] = {
        "version": N_("'seen' needs the integer 'version' the page shows")
    }


class Hello(Shape):
    type: Literal["hello"]
    name: Any = None  # a spectator's name; cleaned (or dropped) by seats.spectator_name


class Ping(Shape):
    type: Literal["ping"]
    t: Any = None  # echoed back


class Sync(Shape):
    type: Literal["sync"]


class Say(Shape):
    """A chat line: its text, or a quick phrase's key (chat.PHRASES)."""

    type: Literal["chat"]
    text: Any = None  # cleaned (or refused with its reason) by chat.clean_text
    phrase: str | None = None

    wrong: ClassVar[dict[str, str]] = {"phrase": N_("no quick phrase of that kind: send its name")}


class Share(Shape):
    """A seated person's vote to keep the chat in the replay."""

    type: Literal["chat_share"]
    on: bool

    wrong: ClassVar[dict[str, str]] = {"on": N_("'on' must be true or false")}


class ChatSync(Shape):
    type: Literal["chat_sync"]


class Look(Shape):
    """A shared screen's device says who looks at it now (None: nobody)."""

    type: Literal["look"]
    seat: int | None = None

    wrong: ClassVar[dict[str, str]] = {"seat": N_("'seat' must be a seat number or null")}


Message = (
    Act | Switch | Wait | TakeBack | Seen | Hello | Ping | Sync | Say | Share | ChatSync | Look
)
KINDS: dict[str, type[Message]] = {
    "act": Act,
    "auto_pass": Switch,
    "pass_ahead": Switch,
    "wait": Wait,
    "take_back": TakeBack,
    "seen": Seen,
    "hello": Hello,
    "ping": Ping,
    "sync": Sync,
    "chat": Say,
    "chat_share": Share,
    "chat_sync": ChatSync,
    "look": Look,
}


def message(kind: str, obj: dict[str, Any]) -> Message:
    """The table message of type `kind` (one of KINDS), or BadInput with one line."""
    found: Message = validate(KINDS[kind], obj)
    return found
