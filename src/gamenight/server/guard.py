"""What every request passes before the app sees it: the Host header (against DNS
rebinding), the origin of every state-changing request (against CSRF), the body size
(refused from Content-Length before it is read), and the security headers on every
response (CSP without inline script, nosniff, no framing)."""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

# The account session cookie's name (accounts/sessions.py sets it; the budget reads it).
SESSION_COOKIE = "gn_session"
log = logging.getLogger("gamenight.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
LOCAL_NAMES = ("localhost", "testserver")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CROSS_SITE = "this request must come from this site's own pages"


def host_name(host: str) -> str:
    """The name part of a Host header: 'Example.org:8000' -> 'example.org'."""
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_header(scope: Scope) -> str | None:
    """The request's Host header, as text (None: none sent)."""
    for key, value in scope["headers"]:
        if key == b"host":
            return str(value.decode("latin-1"))
    return None


def cross_origin(scheme: str, headers: dict[str, str]) -> str | None:
    """Why a request with these (lower-case) headers comes from another site, else None:
    the one origin check of the server, for every POST/DELETE (`Guard`) and every
    WebSocket (`routes.common.same_origin`). A browser sends `Origin` with every
    cross-site POST (whatever its content type, a text/plain form's too) and with every
    socket; it must be this server, scheme and host. Without one, `Sec-Fetch-Site` (sent
    by browsers since 2020) must not say another site. A client that sends neither is not
    a browser, and no browser's cookies ride with it."""
    want = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin.strip())
        host = (headers.get("host") or "").strip().lower()
        if parts.scheme != want or not host or parts.netloc.lower() != host:
            return CROSS_SITE
        return None
    if headers.get("sec-fetch-site", "").strip().lower() in ("cross-site", "same-site"):
        return CROSS_SITE
    return None


class HostCheck:
    """The host names this server answers to. An IP address is always fine: DNS rebinding
    needs the attacker's own name in the Host header."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = {n.strip().lower() for n in names if n.strip()} | set(LOCAL_NAMES)

    def allows(self, host: str | None) -> bool:
        if not host:
            return False
        name = host_name(host)
        return name in self.names or _is_ip(name) or "*" in self.names


class Guard:
    """ASGI middleware in front of the whole app."""

    def __init__(self, app: ASGIApp, hosts: HostCheck, max_body: int) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if not self.hosts.allows(headers.get("host")):
            log.warning("refused a request for host %r", headers.get("host"))
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4400})
            else:
                await _refuse(send, 400, "this server does not answer to that host name")
            return
        if scope["type"] == "websocket":
            del headers  # not kept alive for the whole session (about 1.7 KB per table)
            await self.app(scope, receive, send)
            return
        if scope.get("method", "GET") in UNSAFE_METHODS:
            reason = cross_origin(str(scope.get("scheme", "http")), headers)
            if reason is not None:
                log.info("refused a cross-site %s %s", scope.get("method"), scope.get("path"))
                await _refuse(send, 403, reason)
                return
        length = headers.get("content-length")
        if length is not None and (
            not (length.isascii() and length.isdecimal()) or int(length) > self.max_body
        ):
            await _refuse(send, 413, f"request body too large (limit {self.max_body} bytes)")
            return

        # (a body sent without Content-Length is counted as it streams in: app.read_body)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
