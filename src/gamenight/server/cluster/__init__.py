"""Several `gamenight serve` processes sharing tables: PostgreSQL holds the truth and the
leases (lease.py), Redis carries announcements and forwarded requests (fanout.py,
forward.py), ClusterHub (hub.py) is the Hub that uses them. See the server README,
"Several processes"."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

from gamenight.engine.core import BadInput, said
from gamenight.i18n import N_


def check_urls(db: str | None, redis: str | None) -> None:
    """A clear one-line error for a combination that cannot work."""
    if redis is None:
        return
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        raise BadInput(said(N_("--redis must be a redis:// URL, not {url}"), url=repr(redis)))
    if not db or not db.startswith("postgresql"):
        raise BadInput(
            said(
                N_(
                    "--redis (several processes) needs a shared PostgreSQL database: "
                    "--db postgresql+psycopg://user@host/dbname"
                )
            )
        )


async def make_hub(
    engine: Any,
    pool: Any,
    db_pool: Executor,
    redis_url: str,
    idle_timeout: float,
    limits: Any = None,
) -> Any:
    """A started ClusterHub on this engine (the `gamenight serve --redis` hub)."""
    from gamenight.server.cluster.hub import ClusterHub, process_id
    from gamenight.server.cluster.lease import ClusterStore

    hub = ClusterHub(
        ClusterStore(engine, process_id()),
        pool,
        db_pool,
        redis_url=redis_url,
        idle_timeout=idle_timeout,
        limits=limits,
    )
    await hub.start_cluster()
    return hub
