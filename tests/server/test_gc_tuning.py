"""`gamenight serve` runs its garbage collections between events, never inside the handling
of one (server/gc_tuning.py): the automatic collector ran where an allocation crossed a
threshold, which is inside an action, so every collection held one up."""

from __future__ import annotations

import asyncio
import gc
import json
import signal
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gamenight.server import gc_tuning
from tests.server.helpers import Server


@pytest.fixture
def tuned(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`tune` as `gamenight serve` calls it (low thresholds, so a test crosses them), then
    the collector as it was."""
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    monkeypatch.setenv("GAMENIGHT_GC_THRESHOLDS", "1000,2,2000")
    monkeypatch.delenv("GAMENIGHT_GC_BETWEEN_EVENTS", raising=False)
    monkeypatch.delenv("GAMENIGHT_GC_LOG", raising=False)
    gc_tuning.tune([])
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def run_events(handle: int, allocate: int) -> list[tuple[int, bool]]:
    """Handle `handle` events, each allocating `allocate` containers in one go, with the
    collector task running; the collections seen, as (generation, inside an event)."""
    inside = [False]
    seen: list[tuple[int, bool]] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append((info["generation"], inside[0]))

    async def main() -> None:
        collector = asyncio.create_task(gc_tuning.collect_between_events(period=0.001))
        kept = []
        for _ in range(handle):
            inside[0] = True  # an event handled: no await inside
            kept.append([[i] for i in range(allocate)])
            inside[0] = False
            await asyncio.sleep(0.003)
        collector.cancel()

    gc.callbacks.append(callback)
    try:
        asyncio.run(main())
    finally:
        gc.callbacks.remove(callback)
    return seen


def test_no_collection_runs_inside_the_handling_of_an_event(tuned: None) -> None:
    # each event allocates five times the young threshold: the automatic collector would
    # have run inside every one of them
    seen = run_events(handle=30, allocate=5_000)
    assert seen, "no collection ran at all"
    assert [g for g, inside in seen if inside] == []
    assert {g for g, _ in seen} == {0, 1}  # young ones, and a middle one every third


def test_garbage_in_cycles_is_still_freed(tuned: None) -> None:
    class Node:
        me: object

    async def main() -> bool:
        collector = asyncio.create_task(gc_tuning.collect_between_events(period=0.001))
        node = Node()
        node.me = node  # freed only by a collection
        ref = weakref.ref(node)
        del node
        kept = []
        for _ in range(200):
            kept.append([[i] for i in range(500)])  # net allocations: toward a collection
            await asyncio.sleep(0.001)
            if ref() is None:
                break
        collector.cancel()
        return ref() is None

    assert asyncio.run(main())


class ServeCommand(Server):
    """`gamenight serve` itself (the tests' Server starts the app without the CLI's tuning),
    writing its collections to a log at exit."""

    def command(self) -> list[str]:
        code = "from gamenight.cli import main; main()"
        return [sys.executable, "-c", code, "serve", "--port", str(self.port), "--db", self.db]

    def env(self) -> dict[str, str]:
        return {
            **super().env(),
            "GAMENIGHT_GC_LOG": str(self.data / "gc.jsonl"),
            "GAMENIGHT_GC_THRESHOLDS": "500,2,2000",
        }


def test_gamenight_serve_collects_with_the_automatic_collector_off(tmp_path: Path) -> None:
    server = ServeCommand(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path).start()
    try:
        for _ in range(20):
            r = httpx.post(
                f"{server.url}/api/tables",
                json={"game": "drop-or-stop", "seats": ["open", "open"], "options": {"players": 2}},
                timeout=10,
            )
            assert r.status_code in (200, 201), r.text
        assert server.proc is not None
        server.proc.send_signal(signal.SIGINT)  # Ctrl+C: the log is written at exit
        server.proc.wait(20)
    finally:
        server.stop()
    line = json.loads((tmp_path / "gc.jsonl").read_text().splitlines()[-1])
    assert line["automatic"] is False
    assert line["gen0"]["count"] > 0, line
