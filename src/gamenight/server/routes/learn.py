"""The guided first game of each game (issue 46, item 1): the tutorial page's two requests.

A tutorial is not a table: it has no seats to fill, no timers, no bots to plan and nothing
stored. The state before step k is a function of k alone (engine/tutorial.py), so the page
asks for step k and posts the person's move at step k; the server keeps one `Lesson` per
game, whose states are computed once and shared by everyone (physics included, off the
event loop), so a crowd of learners costs what one does.

GET  /api/learn/{game}?at=K   the table and the step before step K (intro, outro, minutes)
POST /api/learn/{game}/{K}    {"action": {...} | null}: {"accepted": true, "why", "next"}
                              or {"accepted": false, "reason"} (the rules' reason when the
                              move is illegal, else the step's own)

Both answer in the request's language (?lang=, the page's cookie, Accept-Language): the
script's words from the game's own catalogue (i18n.tutorial_in), the states shared.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any, ClassVar

from fastapi import APIRouter, Request

from gamenight.engine.core import BadInput
from gamenight.engine.registry import spec
from gamenight.engine.tutorial import Lesson
from gamenight.i18n import DEFAULT, N_, tutorial_in, use
from gamenight.server.language import request_language
from gamenight.server.routes.models import Shape, posted
from gamenight.server.tables import Refused

router = APIRouter()


class LearnMove(Shape):
    """POST /api/learn/{game}/{at}: the person's move at a step (null: a look step done)."""

    action: dict[str, Any] | None = None

    wrong: ClassVar[dict[str, str]] = {"action": "'action' must be an action object or null"}


@cache
def lesson(name: str) -> Lesson:
    """The one runner of a game's tutorial in this process (unknown game: 404)."""
    try:
        found = spec(name)
    except BadInput as err:
        raise Refused(str(err), 404) from err
    return Lesson(found.name, found.tutorial().TUTORIAL)


@cache
def worded(name: str, lang: str = DEFAULT) -> Lesson:
    """The game's lesson in `lang`'s words (its states shared with every language's)."""
    runner = lesson(name)
    if lang == DEFAULT:
        return runner
    return runner.in_words(tutorial_in(runner.tutorial, spec(name).package, lang))


def _page(name: str, at: int, lang: str = DEFAULT) -> dict[str, Any]:
    runner = worded(name, lang)
    tutorial = runner.tutorial
    return {
        **runner.to_json(at),
        "intro": tutorial.intro,
        "outro": tutorial.outro,
        "minutes": tutorial.minutes,
    }


@router.get("/api/learn/{name}")
async def learn_step(name: str, request: Request, at: int = 0) -> dict[str, Any]:
    """The table and the step before step `at` (0: the start)."""
    runner = lesson(name)
    if not 0 <= at <= len(runner.steps):
        raise Refused(
            N_("this tutorial has steps 0 to {last}, not {at}"), 404, last=len(runner.steps), at=at
        )
    lang = request_language(request)
    with use(lang):  # (the thread runs in a copy of this context)
        return await asyncio.to_thread(_page, name, at, lang)


@router.post("/api/learn/{name}/{at}")
async def learn_move(name: str, at: int, request: Request) -> dict[str, Any]:
    """The person's move at step `at`: accepted with what happened and why, and the next
    step's table; or refused with the reason."""
    move = await posted(request, LearnMove)
    lang = request_language(request)
    runner = worded(name, lang)
    with use(lang):  # the runner's and the rules' reasons too
        answer = await asyncio.to_thread(runner.answer, at, move.action)
        if not answer.accepted:
            return {"accepted": False, "reason": answer.reason}
        page = await asyncio.to_thread(_page, name, at + 1, lang)
    return {"accepted": True, "why": answer.why, "next": page}
