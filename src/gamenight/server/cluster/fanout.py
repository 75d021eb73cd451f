"""The Redis side: one pub/sub connection per process, re-made when Redis goes away.

Channels:
  gn:t:<table id>   the owner announces each new version of a table (all processes listen,
                    with one pattern subscription, so nothing is subscribed per table)
  gn:p:<process>    requests forwarded to this process (it owns the table) and the replies
                    to requests it forwarded
  gn:b              an event for a bot account's programs (a challenge), asked of every
                    process: those where the account's program listens answer that they
                    told it (bot API, programs.py)

An announcement carries only public facts: the version number, the status, the timer and
whose it is, and which seats passed in advance (read only for that seat's own message).
Never a view, an action or an event: each process reads the new actions from PostgreSQL
and builds each of its connections' own view itself, so nothing a seat must not see ever
leaves the database in a message (see the server README, "Several processes").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("gamenight.server.cluster")

TABLES = "gn:t:*"
PROGRAMS = "gn:b"


def table_channel(table_id: str) -> str:
    return f"gn:t:{table_id}"


def process_channel(process: str) -> str:
    return f"gn:p:{process}"


class Bus:
    """Publishes JSON messages and hands every received one to `on_message(channel, msg)`.

    `on_reconnect` runs after every re-made subscription (messages sent while it was down
    are lost: the hub re-reads its tables from the database then)."""

    def __init__(
        self,
        url: str,
        me: str,
        on_message: Callable[[str, dict[str, Any]], Awaitable[None] | None],
        on_reconnect: Callable[[], Awaitable[None]],
    ) -> None:
        self.redis = aioredis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self.me = me
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.up = asyncio.Event()
        self.generation = 0  # bumped at every (re)subscription: replies sent before are lost
        self.task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.failing_since: float | None = None  # loop time publishing began to fail
        self.failed_publishes = 0  # since then

    def start(self) -> None:
        self.task = asyncio.create_task(self._listen())

    async def wait_up(self, timeout: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.up.wait(), timeout)
        return self.up.is_set()

    async def publish(self, channel: str, msg: dict[str, Any]) -> int:
        """How many subscribers got it; 0 if Redis is unreachable (logged)."""
        data = json.dumps(msg, separators=(",", ":"))
        for attempt in range(2):
            try:
                received = int(await self.redis.publish(channel, data))
            except (aioredis.RedisError, OSError) as err:
                # After a Redis restart the first command on a pooled connection fails;
                # the second gets a fresh connection (a lost reply would stall a request).
                if attempt == 1:
                    self._publish_failed(channel, err)
                continue
            if self.failing_since is not None:
                lasted = asyncio.get_running_loop().time() - self.failing_since
                log.warning(
                    "publishing to Redis works again after %.1f s (%d message(s) not published)",
                    lasted,
                    self.failed_publishes,
                )
                self.failing_since, self.failed_publishes = None, 0
            return received
        return 0

    def _publish_failed(self, channel: str, err: BaseException) -> None:
        """One log line when publishing starts failing, not one per message (an outage
        of a busy server wrote thousands); the line when it works again says how many."""
        self.failed_publishes += 1
        if self.failing_since is None:
            self.failing_since = asyncio.get_running_loop().time()
            log.warning(
                "publishing to %s failed: %s; not logged again until it works", channel, err
            )

    async def listening(self, channel: str) -> bool:
        """Whether some process is subscribed to `channel` (a dead one is not)."""
        try:
            counts = await self.redis.pubsub_numsub(channel)
        except (aioredis.RedisError, OSError):
            return False
        return bool(counts) and int(counts[0][1]) > 0

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(TABLES)
                await pubsub.subscribe(process_channel(self.me), PROGRAMS)
                self.generation += 1
                self.up.set()
                if not first:
                    log.warning("Redis is back; re-reading every table from the database")
                    self._spawn(self.on_reconnect())
                first = False
                while True:
                    raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if raw is None or raw.get("type") not in ("message", "pmessage"):
                        continue
                    channel = raw["channel"].decode()
                    try:
                        msg = json.loads(raw["data"])
                    except (ValueError, TypeError):
                        log.warning("not JSON on %s; ignored", channel)
                        continue
                    if isinstance(msg, dict):
                        result = self.on_message(channel, msg)
                        if result is not None:
                            self._spawn(result)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # Redis went away: retry until it is back
                if self.up.is_set():
                    log.warning("lost Redis (%s); retrying", err)
                self.up.clear()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception:
                log.exception("handling a Redis message failed")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
