"""Every operation that changes a table, declared once (issue 44, item 1).

An operation is its name (also its name on the wire between processes), the function that
does it on the process that owns the table (a module path, as a game's GameSpec names its
modules: the parts that hold them call operations too, so this table sits below them),
who may ask for it, whether it changes the seat rows or settings (then every process reads
the row again) and where it runs (`owner`: on the table's owner; `here`: on the process that
was asked, as a rematch, which makes a new table). Its function stores, plans (bots,
timers) and broadcasts; that is the parts' own business.

`Hub.run(OP, table, *args, proof=...)` runs one here; the cluster's hub overrides only how
an operation reaches the table's owner (forwarded through Redis, or the lease taken and
run here), reading this table for what follows. Arguments are JSON values, so a forwarded
operation is the same call on the owner. For an operation of a seat (`SEAT_OPERATIONS`,
its first argument the seat) a page's request carries `proof`, its seat token's hash,
checked on the owner (rights.vouch); the server's own bots and timers pass none.

| operation | function | who may ask | seats | where |
| --- | --- | --- | --- | --- |
| act | pipeline.act | the seat's page (proof), or the server's bots and timers | | owner |
| pass_ahead | pipeline.set_pass_ahead | the seat's page, in an open reaction window | | owner |
| hold | pipeline.hold | the seat's page, still to answer in an open window ("Wait!") | | owner |
| auto_pass | table_store.set_auto_pass | the seat's page | yes | owner |
| take_back | table_store.take_back | the seat's page, while a bot sits in | yes | owner |
| join | table_store.join | anyone at an open seat (a private seed: its creator) (1) | yes | owner |
| reclaim | table_store.reclaim | the signed-in account linked to the seat | yes | owner |
| start | table_store.start | the table's owner (2) | yes | owner |
| seat | table_store.set_seat | the table's owner | yes | owner |
| accept | series.accept | a person of the last game, for their seat of the rematch | yes | owner |
| decline | series.decline_seat | a person of the last game | yes | owner |
| rematch | series.rematch | a person of the last game, or its owner | | here |

(1) also a bot account's program, where the owner welcomes programs (programs.py);
(2) also the server, when the only person's page arrives at a table of bots.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from gamenight.server.live_table import LiveTable

R = TypeVar("R")


@dataclass(frozen=True)
class Operation(Generic[R]):
    name: str
    function: str  # "module:function" under gamenight.server: (hub, table, *args) -> R
    who: str  # who may ask for it (checked where it is asked: rights.py, the routes)
    seats: bool = False  # it changes seat rows or settings: every process reads the row
    where: Literal["owner", "here"] = "owner"
    _found: list[Callable[..., Awaitable[R]]] = field(default_factory=list, compare=False)

    def implementation(self) -> Callable[..., Awaitable[R]]:
        if not self._found:
            module, name = self.function.split(":")
            found = getattr(importlib.import_module(f"gamenight.server.{module}"), name)
            self._found.append(found)
        return self._found[0]


ACT: Operation[None] = Operation("act", "pipeline:act", "the seat's page (proof), or the server")
PASS_AHEAD: Operation[None] = Operation(
    "pass_ahead", "pipeline:set_pass_ahead", "the seat's page, in an open window"
)
HOLD: Operation[None] = Operation("hold", "pipeline:hold", "the seat's page, still to answer")
AUTO_PASS: Operation[None] = Operation(
    "auto_pass", "table_store:set_auto_pass", "the seat's page", seats=True
)
TAKE_BACK: Operation[None] = Operation(
    "take_back", "table_store:take_back", "the seat's page", seats=True
)
JOIN: Operation[str] = Operation("join", "table_store:join", "anyone at an open seat", seats=True)
RECLAIM: Operation[str] = Operation(
    "reclaim", "table_store:reclaim", "the account linked to the seat", seats=True
)
START: Operation[None] = Operation("start", "table_store:start", "the owner", seats=True)
SEAT: Operation[None] = Operation("seat", "table_store:set_seat", "the owner", seats=True)
ACCEPT: Operation[str | None] = Operation(
    "accept", "series:accept", "a person of the last game", seats=True
)
DECLINE: Operation[None] = Operation(
    "decline", "series:decline_seat", "a person of the last game", seats=True
)
REMATCH: Operation[tuple[LiveTable, str | None]] = Operation(
    "rematch", "series:rematch", "a person of the last game, or its owner", where="here"
)

EVERY: tuple[Operation[Any], ...] = (ACT, PASS_AHEAD, HOLD, AUTO_PASS, TAKE_BACK, JOIN, RECLAIM)
EVERY += (START, SEAT, ACCEPT, DECLINE, REMATCH)
OPERATIONS: dict[str, Operation[Any]] = {op.name: op for op in EVERY}
# Operations of one seat (their first argument): a page's request carries its proof.
SEAT_OPERATIONS = frozenset({ACT, PASS_AHEAD, HOLD, AUTO_PASS, TAKE_BACK})
