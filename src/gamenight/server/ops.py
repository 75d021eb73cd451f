"""Operations: health (with the worker pool's state), metrics, and the echo socket that
anchors the load benchmark."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

router = APIRouter()


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


@router.get("/api/health")
async def health(request: Request) -> Response:
    work = _hub(request).pool
    if work.broken:
        return Response("worker pool broken (a worker died); restarting it", 503)
    extra = f" (worker pool restarted {work.restarts} time(s))" if work.restarts else ""
    return Response("ok" + extra, media_type="text/plain")


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.send_text(await websocket.receive_text())


router.add_websocket_route("/ws/echo", echo)  # a plain route, as the tables' own (live.py)
