"""The pages: lobby, table and replay. Static HTML; their scripts fetch everything else.
An address that leads nowhere is a page for a browser too (`MISSING`, status 404: see
`routes/common.refuse_cleanly`)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent / "web"

MISSING = WEB / "missing.html"
NOT_PAGES = ("/api/", "/ws/", "/static/", "/metrics", "/health")  # a program's addresses

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(WEB / "index.html")


@router.get("/tables/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "table.html")


@router.get("/tables/{table_id}/replay")
async def replay_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "replay.html")


@router.get("/learn/{name}")
async def learn_page(name: str) -> FileResponse:
    """A game's guided first game (routes/learn.py serves its steps)."""
    return FileResponse(WEB / "learn.html")


def install(app: FastAPI) -> None:
    """The page routes and the static files (scripts, styles) under /static."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
