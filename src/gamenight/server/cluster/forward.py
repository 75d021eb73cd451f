"""Forwarding a request to the process that owns a table, and waiting for its reply.

A request is published on the owner's process channel with a fresh id and the channel to
answer on; the owner runs it (the same code as a local request) and publishes the reply.
PUBLISH tells how many processes received the request: 0 means the owner is gone (or Redis
is), which the caller learns at once rather than after a time-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from gamenight.server import metrics
from gamenight.server.cluster.fanout import Bus, process_channel

REPLY_TIMEOUT = 15.0  # seconds; a Drop It drop takes up to a few seconds of physics
CHECK_EVERY = 0.5  # seconds between "is the owner still subscribed?" while waiting
ASK_TIMEOUT = 2.0  # seconds for some process to answer a question asked of all


class NoAnswer(Exception):
    """The owner did not get the request or did not answer: it may be gone."""


class NotOwnerAnymore(Exception):
    """The process asked does not own the table (any more)."""


class Forwarder:
    def __init__(self, bus: Bus, me: str) -> None:
        self.bus = bus
        self.me = me
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def call(
        self,
        owner: str,
        table_id: str,
        op: str,
        args: list[Any],
        proof: str | None = None,
        timeout: float = REPLY_TIMEOUT,
    ) -> dict[str, Any]:
        """The owner's reply {"ok": true, "result": ...} or {"ok": false, "reason", "status"}
        to operation `op` (operations.py) with `args`; `proof`: the asking page's seat
        token hash (None: the server's own request)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        try:
            msg: dict[str, Any] = {"k": "req", "id": rid, "from": self.me, "t": table_id}
            msg.update(op=op, a=args, p=proof)
            channel = process_channel(owner)
            generation = self.bus.generation
            if await self.bus.publish(channel, msg) == 0:
                raise NoAnswer(f"process {owner} is not listening")
            give_up = asyncio.get_running_loop().time() + timeout
            while True:
                try:
                    reply = await asyncio.wait_for(asyncio.shield(future), CHECK_EVERY)
                    break
                except TimeoutError:
                    if not self.bus.up.is_set() or self.bus.generation != generation:
                        raise NoAnswer("Redis went away; the reply may be lost") from None
                    # a long request (a Drop It drop): is the owner still there?
                    if not await self.bus.listening(channel):
                        raise NoAnswer(f"process {owner} went away") from None
                    if asyncio.get_running_loop().time() > give_up:
                        raise NoAnswer(f"process {owner} did not answer in {timeout:g} s") from None
        finally:
            self.waiting.pop(rid, None)
            metrics.forwarded(self, future.done())
        if reply.get("not_owner"):
            raise NotOwnerAnymore(owner)
        return reply

    async def ask_everyone(
        self, channel: str, body: dict[str, Any], timeout: float = ASK_TIMEOUT
    ) -> bool:
        """Publish `body` to every process on `channel`; True once one of them answers
        that it did what was asked (the others stay silent), False after `timeout`."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        try:
            msg = {"k": "ask", "id": rid, "from": self.me, **body}
            if await self.bus.publish(channel, msg) <= 1:  # nobody but this process
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(future), timeout)
            return future.done()
        finally:
            self.waiting.pop(rid, None)

    def resolve(self, msg: dict[str, Any]) -> None:
        future = self.waiting.get(str(msg.get("id")))
        if future is not None and not future.done():
            future.set_result(msg)

    async def reply(self, to: str, rid: str, body: dict[str, Any]) -> None:
        await self.bus.publish(process_channel(to), {"k": "rep", "id": rid, **body})
