"""`gamenight serve`: the app under uvicorn, one process (or one of several with --redis)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from dataclasses import replace

from gamenight.server import gc_tuning
from gamenight.server.db import DatabaseInUse, connect
from gamenight.server.limits import Rates


def serve(host: str, port: int, db: str | None, redis: str | None = None) -> None:
    """Run the app with uvicorn until interrupted; prints the address to open."""
    import uvicorn

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    # Threads (the database thread) get the GIL back from the event loop within 1 ms.
    sys.setswitchinterval(float(os.environ.get("GAMENIGHT_SWITCH_INTERVAL", "0.001")))
    try:
        engine = connect(db)  # one server per SQLite file: refuse before serving
    except DatabaseInUse as err:
        print(f"gamenight: {err}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    names = [n for n in os.environ.get("GAMENIGHT_HOSTS", "").split(",") if n]
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    rates = Rates()
    per_minute = os.environ.get("GAMENIGHT_TABLES_PER_MINUTE")
    if per_minute:  # tables one address may create per minute (and at once)
        rates = replace(
            rates, tables_per_minute=float(per_minute), table_burst=int(float(per_minute))
        )
    sockets = os.environ.get("GAMENIGHT_SOCKETS_PER_ADDRESS")
    if sockets:  # a load generator on one address opens thousands
        rates = replace(rates, sockets_per_address=int(sockets))
    thinking = os.environ.get("GAMENIGHT_THINKING_TABLES_PER_ADDRESS")
    if thinking:
        rates = replace(rates, thinking_tables_per_address=int(thinking))
    thinking = os.environ.get("GAMENIGHT_THINKING_TABLES_PER_PERSON")
    if thinking:
        rates = replace(rates, thinking_tables_per_person=int(thinking))
    from gamenight.server.app import create_app

    app = create_app(engine, hosts=names, rates=rates, redis_url=redis)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"gamenight is serving at http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,  # views are small; compression costs more than it saves
    )
    server = uvicorn.Server(config)

    async def serve_and_collect() -> None:
        # uvicorn.run's loop, plus the garbage collections between events (gc_tuning)
        collector = asyncio.create_task(gc_tuning.collect_between_events())
        try:
            await server.serve()
        finally:
            collector.cancel()

    try:
        with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
            runner.run(serve_and_collect())
    except KeyboardInterrupt:
        pass
    if not server.started:
        raise SystemExit(3)  # as uvicorn.run: it could not start (the port, most often)
