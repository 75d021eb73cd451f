"""Rate limits: a token bucket per WebSocket (messages) and per client address (tables)."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rates:
    """How much one client may ask of the server."""

    messages_per_second: float = 20.0  # WebSocket messages of one connection...
    message_burst: int = 100  # ...after a burst of this many; past it the socket is closed
    outbox: int = 256  # messages queued for a slow reader before it is dropped
    tables_per_minute: float = 20.0  # tables one client address may create...
    table_burst: int = 20  # ...after a burst of this many
    # open WebSockets of one client address, over every table (a page holds one): more
    # are refused at once (code 4429), so a crowd of watchers from one place cannot flood
    # the server (GAMENIGHT_SOCKETS_PER_ADDRESS)
    sockets_per_address: int = 32
    # open or running tables with a bot that thinks (a search in the worker processes, not a
    # quick bot in the event loop): table work is costly work too, so one person cannot fill
    # the workers with tables. Per person (a signed-in account; a guest is their address,
    # GAMENIGHT_THINKING_TABLES_PER_PERSON) and per address, all its people together (a
    # household or a café, GAMENIGHT_THINKING_TABLES_PER_ADDRESS); counted in the database
    thinking_tables_per_person: int = 6
    thinking_tables_per_address: int = 12


@dataclass
class TokenBucket:
    rate: float  # tokens per second
    burst: float
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class PerClient:
    """A token bucket per client key, forgetting the least recently seen past `size`."""

    def __init__(self, rate: float, burst: float, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.buckets: collections.OrderedDict[str, TokenBucket] = collections.OrderedDict()

    def take(self, key: str) -> bool:
        bucket = self.buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        self.buckets[key] = bucket
        while len(self.buckets) > self.size:
            self.buckets.popitem(last=False)
        return bucket.take()
