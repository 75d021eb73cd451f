"""What every router shares: the running hub and accounts (`Server`, which a route gets
as its `ServerDep` parameter), the table summary sent over HTTP, cookies, reading a JSON
body or message, and turning every refusal into one line with its status
(`refuse_cleanly`)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from gamenight.engine.core import BadInput, Reason
from gamenight.engine.registry import spec
from gamenight.i18n import N_, accept_language, negotiate
from gamenight.i18n.refusals import message_of, said, translate
from gamenight.server.accounts import Accounts, account_of
from gamenight.server.db import token_hash
from gamenight.server.guard import cross_origin
from gamenight.server.limits import Rates
from gamenight.server.names import BadName, display_name
from gamenight.server.pages import MISSING, NOT_PAGES
from gamenight.server.programs import Programs
from gamenight.server.tables import Hub, LiveTable, Refused

log = logging.getLogger("gamenight.server")
MAX_MESSAGE = 4096  # bytes of one client WebSocket message
MAX_BODY = 16384
LANGUAGE_COOKIE = "gamenight_lang"  # a page's chosen language (server/language.py)


def seat_cookie(table_id: str) -> str:
    return f"gn_seat_{table_id}"


def owner_cookie(table_id: str) -> str:
    return f"gn_owner_{table_id}"


def is_owner(request: Request, row_owner_hash: str | None, table_id: str) -> bool:
    owner = request.cookies.get(owner_cookie(table_id))
    return bool(owner) and token_hash(owner or "") == row_owner_hash


def request_language(request: HTTPConnection) -> str:
    """The language of a request's (or a WebSocket's) answer: ?lang=, else the page's
    cookie, else its Accept-Language header; English when none is known."""
    wanted = [request.query_params.get("lang") or "", request.cookies.get(LANGUAGE_COOKIE, "")]
    wanted += accept_language(request.headers.get("accept-language"))
    return negotiate(w for w in wanted if w)


def bad_text(obj: Any) -> str | None:
    """The reason to refuse parsed JSON holding a NUL or another control character in a
    text (PostgreSQL cannot store NUL; names are shown to people), else None."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and any(ord(ch) < 32 and ch not in "\t\n\r" for ch in item):
            return N_("text may not contain control characters (such as NUL)")
    return None


def parse_json(raw: str | bytes) -> Any:
    """JSON, or Refused with a one-line reason (also for nesting too deep to parse)."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Refused(N_("not JSON: {error}"), 400, error=err) from err
    except RecursionError as err:
        raise Refused(N_("JSON nested too deeply"), 400) from err


async def body(request: Request) -> dict[str, Any]:
    """The JSON object of a POST body: application/json, at most MAX_BODY bytes (counted
    as it streams in), text without control characters."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(N_("a request body must be JSON (Content-Type: application/json)"), 415)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(N_("request body too large (limit {limit} bytes)"), 413, limit=MAX_BODY)
    obj = parse_json(bytes(raw) or b"{}")
    if not isinstance(obj, dict):
        raise Refused(N_("the request body must be a JSON object"), 400)
    reason = bad_text(obj)
    if reason:
        raise Refused(reason, 400)
    return obj


def same_origin(conn: HTTPConnection) -> bool:
    """Is this request or socket from this server's own pages? The one origin check
    (`guard.cross_origin`): `Guard` applies it to every POST/DELETE, the table socket calls
    it here. Another site's page must not act with this browser's cookies."""
    headers = {k.lower(): v for k, v in conn.headers.items()}
    return cross_origin(conn.url.scheme, headers) is None


def set_cookie(
    response: Response, request: HTTPConnection, name: str, value: str, max_age: int | None = None
) -> None:
    """Every cookie this server sets: HTTP-only, SameSite=Lax, for the whole site, and
    `Secure` when the page was served over TLS (the scheme is https: uvicorn takes it from
    X-Forwarded-Proto of a trusted proxy), so it never travels in clear text after."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme in ("https", "wss"),
        path="/",
    )


async def seat_name(request: Request, name: Any) -> str:
    """The display name a person takes a seat under, as shown (spaces tidied), or Refused:
    no control, zero-width or bidi characters, and not a name that reads like an account's
    (names.skeleton) unless the request is signed in as that account."""
    try:
        shown = display_name(name)
    except BadName as err:
        raise Refused(str(err), 400) from None
    people: Accounts = request.app.state.holder["accounts"]
    owner = await asyncio.to_thread(people.name_owner, shown)
    if owner is not None:
        me = await account_of(request, people)
        if me is None or me["id"] != owner["id"]:
            raise Refused(
                N_(
                    "the name {name} belongs to an account; "
                    "sign in as {name} or choose another name"
                ),
                403,
                name=owner["name"],
            )
    return shown


# pydantic's short messages of the errors a request most often makes, by their type, as
# pydantic writes them (its `message_template_python`): each one translated in the
# platform's catalogue; another type's message is said in English.
PYDANTIC = {
    "missing": N_("Field required"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "literal_error": N_("Input should be {expected}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
}


def pydantic_said(error: Any) -> str:
    """pydantic's short message of one error dict on one line: a Reason where its type is
    one of PYDANTIC (the same English, translated where shown), else the text as it is."""
    text = " ".join(str(error.get("msg", "")).split())
    template = PYDANTIC.get(str(error.get("type", "")))
    if template is None:
        return text
    context = error.get("ctx") or {}
    try:
        found = said(template, **{str(k): str(v) for k, v in context.items()})
    except (KeyError, IndexError, ValueError):  # a context other than pydantic's own
        return text
    return found if found == text else text


def first_problem(errors: Sequence[Any], model: Any = None) -> Reason:
    """One line for the first of pydantic's (or FastAPI's) error dicts: the model's own
    sentence for the field when it has one (`model.sentence`), else the field and pydantic's
    short message (never the input); a Reason, said in the reader's language."""
    if not errors:
        return said(N_("the request is not valid"))
    first = errors[0]
    loc = [str(part) for part in first.get("loc", ())]
    field = loc[0] if loc else ""
    if model is not None and field:
        sentence = model.sentence(field)
        if sentence:
            return message_of(sentence)
    where = ".".join(loc)
    text = pydantic_said(first)
    return (
        said(N_("'{field}': {problem}"), field=where, problem=text) if where else message_of(text)
    )


def error(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


@dataclass
class Server:
    """The running app's parts, filled in by the lifespan (`holder`), and its rates."""

    rates: Rates
    holder: dict[str, Any] = field(default_factory=dict)

    def hub(self) -> Hub:
        found: Hub = self.holder["hub"]
        return found

    def people(self) -> Accounts:
        found: Accounts = self.holder["accounts"]
        return found

    def programs(self) -> Programs:
        found: Programs = self.holder["programs"]
        return found

    def summary(self, table: LiveTable, request: Request | None = None) -> dict[str, Any]:
        """A table as the lobby and the table page read it over HTTP (with the caller's
        seat and ownership when `request` is given)."""
        hub = self.hub()
        info = hub.public_table(table)
        info["title"] = spec(table.row.game).title
        if request is not None:
            you = hub.seat_of(table, request.cookies.get(seat_cookie(table.row.id)))
            info["you"] = you
            info["owner"] = is_owner(request, table.row.owner_hash, table.row.id)
            info["version"] = table.version
        info["invite"] = f"/tables/{table.row.id}"
        return info


async def server_of(request: Request) -> Server:
    """The running app's `Server` (set by `app.create_app`): the routes' one dependency."""
    found: Server = request.app.state.server
    return found


ServerDep = Annotated[Server, Depends(server_of)]


def refuse_cleanly(app: FastAPI) -> None:
    """Refusals and storage failures become {"error": reason} with their status (and a
    Retry-After header when the refusal says how long to wait); a refusal is said in the
    request's language (`request_language`), the log keeps it in English."""

    @app.exception_handler(Refused)
    async def _refused(request: Request, err: Refused) -> JSONResponse:
        log.info("refused %s %s: %s", request.method, request.url.path, err.reason)
        response = error(translate(err.reason, request_language(request)), err.status)
        if err.wait is not None:
            response.headers["retry-after"] = str(max(1, round(err.wait)))
        return response

    @app.exception_handler(BadInput)
    async def _bad(request: Request, err: BadInput) -> JSONResponse:
        # A sentence of the platform's catalogue (a Reason with its words: an option's
        # problem, a setting's bounds; or a fixed sentence marked N_ where it is written)
        # in the request's language; one the catalogue lacks as it is.
        log.info("refused %s %s: %s", request.method, request.url.path, err)
        return error(translate(message_of(err), request_language(request)), 400)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        # a path or query parameter of the wrong type (FastAPI's own check): one line, no echo
        reason = first_problem(err.errors())
        log.info("refused %s %s: %s", request.method, request.url.path, reason)
        return error(translate(reason, request_language(request)), 400)

    @app.exception_handler(HTTPException)
    async def _nowhere(request: Request, err: HTTPException) -> Response:
        # Starlette's own answers (no such route, a wrong method) said as ours: one line in
        # the request's language; to a browser asking for a page, a page with a way back.
        if err.status_code == 404:
            path = request.url.path
            if "text/html" in request.headers.get("accept", "") and not path.startswith(NOT_PAGES):
                return FileResponse(MISSING, status_code=404)
            reason = N_("there is nothing at this address")
        elif err.status_code == 405:
            reason = N_("this address does not take that method")
        else:
            reason = str(err.detail)
        response = error(translate(said(reason), request_language(request)), err.status_code)
        response.headers.update(err.headers or {})
        return response

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)
    async def _storage(request: Request, err: Exception) -> JSONResponse:
        # A full or read-only disk, a lost database: one line in the log, a reason back.
        log.warning("storage failed on %s %s: %s", request.method, request.url.path, err)
        said = Refused(N_("the server could not store this (its disk or database failed)"))
        return error(translate(said.reason, request_language(request)), 503)
