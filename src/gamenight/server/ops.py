"""Operations: liveness (/api/health), readiness (/api/ready), metrics (/metrics for
Prometheus, /api/metrics in JSON), and the echo socket that anchors the load benchmark.

/api/health answers whenever the event loop does: a wedged loop answers nothing, and a
probe's time-out is then the signal. /api/ready asks what a request needs: the database
answers a trivial query, Redis answers PING (with --redis), the worker pool is not broken,
and in a cluster the last round of lease renewals succeeded; 503 with each check's verdict
when one fails (a load balancer sends no new pages there meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from gamenight.server import admission
from gamenight.server import metrics as prometheus

router = APIRouter()
CHECK_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as not answering
# The database pings still running, per hub: a database that hangs holds one thread, not
# one more per probe.
_PINGING: weakref.WeakKeyDictionary[Any, asyncio.Future[Any]] = weakref.WeakKeyDictionary()


def _hub(request: Request) -> Any:
    return request.app.state.holder["hub"]


@router.get("/api/metrics")
async def metrics(request: Request) -> dict[str, Any]:
    """Actions accepted since the start, and the server-side time of the last 10,000 (from
    taking the action to having queued its broadcast)."""
    hub = _hub(request)
    times = sorted(hub.timings)
    if not times:
        return {"actions": hub.accepted}

    def q(x: float) -> float:
        return round(1000 * times[min(len(times) - 1, int(x * len(times)))], 3)

    return {"actions": hub.accepted, "median_ms": q(0.5), "p99_ms": q(0.99), "max_ms": q(1.0)}


@router.get("/metrics")
async def prometheus_metrics(request: Request) -> Response:
    """The Prometheus text exposition of this process (metrics.py)."""
    body = prometheus.for_hub(_hub(request)).scrape()
    return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/api/health")
async def health(request: Request) -> Response:
    """Liveness: 200 whenever the process answers. Whether it can serve is /api/ready."""
    hub = _hub(request)
    admission.of(hub).start()  # the lag samples start with the first probe
    work = hub.pool
    extra = ""
    if work.broken:
        extra = " (worker pool broken: a worker died; restarting it)"
    elif work.restarts:
        extra = f" (worker pool restarted {work.restarts} time(s))"
    return Response("ok" + extra, media_type="text/plain")


@router.get("/api/ready")
async def ready(request: Request) -> JSONResponse:
    """Readiness: {"ready": bool, "checks": {name: "ok" or what is wrong}}; 503 if not."""
    hub = _hub(request)
    names = ["database", "workers"]
    tasks = [_database(hub), _workers(hub)]
    if getattr(hub, "bus", None) is not None:  # several processes (--redis)
        names += ["redis", "leases"]
        tasks += [_redis(hub), _leases(hub)]
    checks = dict(zip(names, await asyncio.gather(*tasks), strict=True))
    ok = all(v == "ok" for v in checks.values())
    body = {"ready": ok, "checks": checks, "load": admission.of(hub).snapshot()}
    return JSONResponse(body, status_code=200 if ok else 503)


def _ping(engine: Any) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def _database(hub: Any) -> str:
    running = _PINGING.get(hub)
    if running is not None and not running.done():
        return "not answering (the previous check is still waiting)"
    # Not the hub's database thread: a queue of writes there is no outage.
    ping = asyncio.ensure_future(asyncio.to_thread(_ping, hub.store.engine))
    _PINGING[hub] = ping
    try:
        await asyncio.wait_for(asyncio.shield(ping), CHECK_TIMEOUT)
    except TimeoutError:
        return f"not answering within {CHECK_TIMEOUT:g} s"
    except Exception as err:
        return f"unreachable: {_first_line(err)}"
    return "ok"


async def _workers(hub: Any) -> str:
    if hub.pool.broken:
        return "broken (a worker died); a new pool starts at the next sweep"
    return "ok"


async def _redis(hub: Any) -> str:
    try:
        await asyncio.wait_for(hub.bus.redis.ping(), CHECK_TIMEOUT)
    except TimeoutError:
        return f"not answering within {CHECK_TIMEOUT:g} s"
    except Exception as err:
        return f"unreachable: {_first_line(err)}"
    if not hub.bus.up.is_set():
        return "answers PING but the subscription is not back yet"
    return "ok"


async def _leases(hub: Any) -> str:
    said = prometheus.renewals(hub)
    ok, failed = said.get("ok", 0.0), said.get("failed", 0.0)
    if failed > ok:
        return "the last lease renewal failed (the database did not answer)"
    if hub.owned and ok and time.monotonic() - ok > 2 * hub.lease_seconds:
        return f"no lease renewed for {time.monotonic() - ok:.0f} s"
    return "ok"


def _first_line(err: BaseException) -> str:
    said = str(err).strip().splitlines()
    return f"{type(err).__name__}: {said[0][:200]}" if said else type(err).__name__


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.send_text(await websocket.receive_text())


router.add_websocket_route("/ws/echo", echo)  # a plain route, as the tables' own (live.py)
