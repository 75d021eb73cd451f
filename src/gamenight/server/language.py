"""The pages' language (issue 46, item 4): which one a request wants, the JSON catalogue a
page reads, and the choice an account keeps (accounts.language, migration 0011).

A page asks GET /api/i18n?want=de,en-US (its saved choice, then navigator.languages) and
gets {lang, languages, account, messages}: a signed-in account's choice wins over the
device's, so a person meets their language on every device. A guest's choice stays in the
page's localStorage and in the `gamenight_lang` cookie, which the server's own answers
(the games' pitch, the rules panel) read; else the Accept-Language header decides.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any, ClassVar

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import Engine, select, update
from starlette.requests import HTTPConnection

from gamenight.i18n import LANGUAGES, N_, NATIVE_NAMES, negotiate
from gamenight.i18n.refusals import said
from gamenight.server.accounts.links import account_of
from gamenight.server.accounts.schema import accounts
from gamenight.server.live_table import Refused
from gamenight.server.pages import WEB
from gamenight.server.routes.common import LANGUAGE_COOKIE, ServerDep, request_language
from gamenight.server.routes.models import Shape, posted

MAX_WANTED = 12  # languages read from ?want= (a page sends a few)
router = APIRouter()
__all__ = ["LANGUAGE_COOKIE", "request_language", "router", "socket_language"]


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The pages' messages of `lang` (web/i18n/<lang>.json, written by `make i18n`)."""
    return dict(orjson.loads((WEB / "i18n" / f"{lang}.json").read_bytes()))


def account_language(engine: Engine, account_id: int) -> str | None:
    with engine.connect() as conn:
        found = conn.execute(
            select(accounts.c.language).where(accounts.c.id == account_id)
        ).scalar()
    return found if found in LANGUAGES else None


def set_account_language(engine: Engine, account_id: int, lang: str) -> str:
    with engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id).values(language=lang))
    return lang


async def socket_language(websocket: HTTPConnection, people: Any, session: str | None) -> str:
    """The language a table page's WebSocket is answered in (its refusals): the signed-in
    account's choice, else the page's cookie or Accept-Language (as `request_language`)."""
    if session:
        account = await asyncio.to_thread(people.who, session)
        if account is not None:
            chosen = await asyncio.to_thread(account_language, people.engine, account["id"])
            if chosen is not None:
                return chosen
    return request_language(websocket)


@router.get("/api/i18n")
async def page_language(request: Request, server: ServerDep, want: str = "") -> Response:
    """The language a page shows and its messages: the account's choice, else the first
    of `want` (comma separated) that is known, else Accept-Language, else English."""
    people = server.people()
    account = await account_of(request, people)
    chosen = None
    if account is not None:
        chosen = await asyncio.to_thread(account_language, people.engine, account["id"])
    if chosen is None:
        wanted = [w for w in want.split(",")[:MAX_WANTED] if w.strip()]
        chosen = negotiate(wanted) if wanted else request_language(request)
    body = {
        "lang": chosen,
        "languages": NATIVE_NAMES,
        "account": account is not None,
        "messages": catalogue(chosen)["messages"],
    }
    return Response(orjson.dumps(body), media_type="application/json")


@router.get("/api/i18n/{lang}")
async def page_catalogue(lang: str) -> Response:
    """One language's catalogue for the pages: {lang, messages}."""
    if lang not in LANGUAGES:
        raise Refused(
            N_("no language {lang}; known: {known}"),
            404,
            lang=repr(lang),
            known=", ".join(LANGUAGES),
        )
    return Response(
        orjson.dumps(catalogue(lang)),
        media_type="application/json",
        headers={"cache-control": "public, max-age=300"},
    )


class LanguageChoice(Shape):
    """POST /api/account/language."""

    language: str

    wrong: ClassVar[dict[str, str]] = {
        "language": said(N_("'language' must be one of {known}"), known=", ".join(LANGUAGES))
    }


@router.post("/api/account/language")
async def choose_language(request: Request, server: ServerDep) -> dict[str, Any]:
    """{"language": "de"}: the signed-in account's pages are in German on every device."""
    choice = await posted(request, LanguageChoice)
    if choice.language not in LANGUAGES:
        raise Refused(LanguageChoice.wrong["language"], 400)
    people = server.people()
    account = await account_of(request, people)
    if account is None:
        raise Refused(N_("sign in first"), 401)
    lang = await asyncio.to_thread(
        set_account_language, people.engine, account["id"], choice.language
    )
    return {"language": lang}
