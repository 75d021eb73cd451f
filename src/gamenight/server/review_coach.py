"""The coach's review of a finished game: for each decision of one seat, what the game's
coach (server/coach.py) would have advised there, beside what was played.

Each reviewed decision carries `rank`, where the played action stands among the coach's
options by the coach's own numbers (0: none is worth more; the page says "the coach's
choice"), and `best`, the option worth most, which the page names as the one it preferred.
Ranks are by each option's `value` (every coach's options carry one, higher is better),
never by the options' order: Drop or Stop lists Drop then Stop whatever they are worth.
A review asks the coach with its review budget (`run_advice(..., review=True)`): Arne's
search is a third of the live coach's, so a 60-decision game is reviewed in about 15 s.

Computed in the worker pool one decision at a time (the position travels from job to job,
so a review holds a worker for one decision at a time), with progress to poll. Each
decision is the asker's job in the scheduler (budget.py): after table work, in turn with
other people's requests; one review per person at a time, at most a couple at once. Only
for a finished game: never while anyone still plays at the table. Kept in memory, the
latest few reviews only.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from gamenight.engine.core import BadInput, Game, State, said
from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.server.budget import Asker, asker_of
from gamenight.server.coach import coach_module, run_advice
from gamenight.server.tables import Hub, LiveTable, Refused

log = logging.getLogger("gamenight.server")

KEPT = 16  # reviews kept in memory
AT_ONCE = 2  # reviews computed at the same time
STEP_PATIENCE = 60.0  # seconds a review retries a decision the scheduler refused (busy)


@dataclasses.dataclass
class Review:
    seat: int
    total: int  # the seat's decisions
    done: int = 0
    finished: bool = False
    error: str | None = None
    steps: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def review_step(
    game: Game, seed: Any, state: State | None, moves: list[Any], seat: int
) -> tuple[State, dict[str, Any] | None]:
    """In a worker: play `moves` on from `state` (the start if None), then the coach's
    advice for `seat` there (None when it had no choice)."""
    if state is None:
        state = game.start(seed)
    for s, obj in moves:
        state.act(s, game.action_from_json(obj))
    if len(state.actions(seat)) < 2:
        return state, None
    return state, run_advice(game.name, state, seat, review=True)


TIE = 1e-9  # values closer than this are equal (sums of the same chances in another order)


def _worth(option: dict[str, Any]) -> tuple[float, float] | None:
    """An option's value and the margin around it (0 when exact), or None: not valued."""
    value = option.get("value")
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        return None
    margin = option.get("margin")
    if not isinstance(margin, int | float) or isinstance(margin, bool) or not margin >= 0:
        margin = 0.0
    return float(value), float(margin)


def _better(one: tuple[float, float], other: tuple[float, float]) -> bool:
    """`one` is worth more than `other`, beyond both margins (a sampled estimate is not
    called better than another it cannot be told apart from)."""
    return one[0] - one[1] > other[0] + other[1] + TIE


def rank_of(played: dict[str, Any], advice: dict[str, Any]) -> int | None:
    """Where the played action stands among the coach's options by their values: the
    number of options worth more (0: the coach's choice), or None when the coach did not
    list it. Without values (a coach's only play), the coach's own order."""
    options = [o for o in advice.get("options", []) if isinstance(o, dict)]
    for i, option in enumerate(options):
        if option.get("action") == played:
            worth = _worth(option)
            if worth is None:
                return i
            return sum(1 for o in options if (w := _worth(o)) is not None and _better(w, worth))
    return None


def best_of(advice: dict[str, Any]) -> int:
    """The index of the option worth most (the first of equals, in the coach's order); 0
    when none is valued."""
    options = [o for o in advice.get("options", []) if isinstance(o, dict)]
    best, top = 0, None
    for i, option in enumerate(options):
        worth = _worth(option)
        if worth is not None and (top is None or worth[0] > top + TIE):
            best, top = i, worth[0]
    return best


class Reviews:
    def __init__(self, hub: Callable[[], Hub]) -> None:
        self.hub = hub
        self.kept: dict[tuple[str, int], Review] = {}
        # held: the loop keeps only weak references; by who asked, one each
        self.tasks: dict[asyncio.Task[None], str] = {}

    def running(self) -> int:
        return len(self.tasks)

    async def start(self, table: LiveTable, seat: int, asker: Asker) -> Review:
        key = (table.row.id, seat)
        found = self.kept.get(key)
        if found is not None and found.error is None:
            return found
        if asker.person in self.tasks.values():
            raise Refused(N_("the coach is still reviewing your other game; wait for it"), 429)
        if self.running() >= AT_ONCE:
            raise Refused(N_("the coach is reviewing other games; try again in a minute"), 429)
        history = await self.hub().db(self.hub().store.history, table.row.id)
        review = Review(seat=seat, total=sum(1 for s, _ in history if s == seat))
        self.kept[key] = review
        while len(self.kept) > KEPT:
            self.kept.pop(next(iter(self.kept)))
        task = asyncio.get_running_loop().create_task(
            self.compute(review, table.game, table.row.seed, history, asker)
        )
        self.tasks[task] = asker.person
        task.add_done_callback(self.tasks.pop)
        return review

    async def step(self, asker: Asker, *args: Any) -> tuple[State, dict[str, Any] | None]:
        """One decision's job in the asker's share; while the scheduler is busy (429) it
        tries again, for STEP_PATIENCE seconds at most."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + STEP_PATIENCE
        while True:
            try:
                found: tuple[State, dict[str, Any] | None] = await self.hub().pool.run_for(
                    asker, "review", review_step, *args
                )
                return found
            except Refused as err:
                if err.status != 429 or loop.time() > give_up:
                    raise
                await asyncio.sleep(0.5)

    async def compute(
        self,
        review: Review,
        game: Game,
        seed: Any,
        history: list[tuple[int, Any]],
        asker: Asker,
    ) -> None:
        state: State | None = None
        last = 0
        try:
            for k, (s, played) in enumerate(history):
                if s != review.seat:
                    continue
                state, advice = await self.step(
                    asker, game, seed, state, history[last:k], review.seat
                )
                last = k
                review.done += 1
                if advice is not None:
                    review.steps.append(
                        {
                            "step": k,
                            "played": played,
                            "advice": advice,
                            "rank": rank_of(played, advice),
                            "best": best_of(advice),
                        }
                    )
        except Refused as err:  # the server stayed too busy for this review
            review.error = err.reason
        except Exception:  # a broken game or pool: say so, keep the server
            log.exception("coach review of seat %s failed", review.seat)
            review.error = "the review stopped on an error; ask again later"
        review.finished = True


def router(hub: Callable[[], Hub], seat_cookie: Callable[[str], str]) -> APIRouter:
    api = APIRouter()
    reviews = Reviews(hub)

    async def target(table_id: str, request: Request, seat: int | None) -> tuple[LiveTable, int]:
        table = await hub().get(table_id)
        if table.row.status != "finished":
            raise Refused(N_("the coach reviews a game once it is over"))
        if coach_module(table.row.game) is None:
            raise Refused(N_("{game} has no coach yet"), game=spec(table.row.game).title)
        if seat is None:
            seat = hub().seat_of(table, request.cookies.get(seat_cookie(table_id)))
            if seat is None:
                raise BadInput(said(N_("you did not play at this table: choose a seat to review")))
        if not 0 <= seat < table.game.players:
            raise BadInput(said(N_("seat must be 0..{last}"), last=table.game.players - 1))
        return table, seat

    @api.post("/api/tables/{table_id}/coach/review")
    async def start(table_id: str, request: Request, seat: int | None = None) -> dict[str, Any]:
        table, seat = await target(table_id, request, seat)
        token = request.cookies.get(seat_cookie(table_id))
        asker = asker_of(request, token if hub().seat_of(table, token) is not None else None)
        return (await reviews.start(table, seat, asker)).to_json()

    @api.get("/api/tables/{table_id}/coach/review")
    async def progress(table_id: str, request: Request, seat: int | None = None) -> dict[str, Any]:
        table, seat = await target(table_id, request, seat)
        found = reviews.kept.get((table.row.id, seat))
        if found is None:
            raise Refused(N_("no review was asked for this seat yet"))
        return found.to_json()

    return api
