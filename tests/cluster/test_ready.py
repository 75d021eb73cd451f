"""Readiness under real outages of a cluster's Redis and PostgreSQL (issue 44, item 7):
/api/health said "ok" through both. Now /api/ready names what is down (503) and is 200 again
once it is back; the cluster's counters show on /metrics; a Redis outage is one log line
when it starts and one when it ends, not one per failed publish."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from tests.cluster.helpers import Node, Redis, create_table, have_redis, join, nodes
from tests.server.conftest import wait_for
from tests.server.test_health import ready_again, restartable_pg, sample

QUICK = {"players": 2}


def ready(node: Node) -> httpx.Response:
    return httpx.get(f"{node.url}/api/ready", timeout=10)


def test_a_redis_outage_is_not_ready_then_ready_again(
    pg_url: str, redis: Redis, work: Path
) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, _owner = create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
        ready_again(a.url, 10)
        r = ready(a).json()
        assert r["checks"] == {"database": "ok", "workers": "ok", "redis": "ok", "leases": "ok"}
        redis.stop()
        for node in (a, b):
            r = ready(node)
            assert r.status_code == 503, r.text
            assert r.json()["checks"]["redis"].startswith("unreachable"), r.text
            assert r.json()["checks"]["database"] == "ok"
            assert httpx.get(f"{node.url}/api/health").status_code == 200  # alive all along
        # on the owner, changes that each announce (publish) during the outage
        join(a, tid, 0, "Ann")
        join(a, tid, 1, "Bob")
        redis.start()
        for node in (a, b):
            ready_again(node.url)
        said = a.log.read_text()
        # one line when publishing started failing, one when it worked again
        assert said.count("publishing to gn:") == 1, said[-3000:]
        assert wait_for(lambda: "publishing to Redis works again" in a.log.read_text(), 15)
        assert sample(httpx.get(f"{a.url}/metrics").text, "gamenight_leases_held") == 1


def test_forwards_that_fail_are_counted(pg_url: str, redis: Redis, work: Path) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, _owner = create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
        join(b, tid, 0, "Ann")  # forwarded to the owner, a, and answered
        text = httpx.get(f"{b.url}/metrics").text
        assert sample(text, "gamenight_forwards_total") >= 1
        assert sample(text, "gamenight_forwards_failed_total") == 0
        redis.stop()
        r = httpx.post(
            f"{b.url}/api/tables/{tid}/join", json={"seat": 1, "name": "Bob"}, timeout=30
        )
        assert r.status_code == 503, r.text
        assert "try again shortly" in r.json()["error"]
        assert sample(httpx.get(f"{b.url}/metrics").text, "gamenight_forwards_failed_total") >= 1


def test_a_takeover_is_counted(pg_url: str, redis: Redis, work: Path) -> None:
    with nodes(pg_url, redis.url, work, 2) as (a, b):
        tid, owner = create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
        join(a, tid, 0, "Ann")
        join(a, tid, 1, "Bob")
        started = httpx.post(f"{a.url}/api/tables/{tid}/start", cookies={f"gn_owner_{tid}": owner})
        assert started.status_code == 200, started.text
        a.kill()
        taken = lambda: sample(httpx.get(f"{b.url}/metrics").text, "gamenight_takeovers_total")  # noqa: E731
        assert wait_for(lambda: taken() >= 1, 20)
        assert sample(httpx.get(f"{b.url}/metrics").text, "gamenight_leases_held") == 1


def test_a_postgresql_outage_is_not_ready_then_ready_again(redis: Redis, work: Path) -> None:
    """PostgreSQL stopped under a cluster process that owns a table: the database check
    fails at once, the lease check after the next renewal round; both come back."""
    if not have_redis():
        pytest.skip("no redis-server")
    with restartable_pg() as pg, nodes(pg.url, redis.url, work, 1, lease=1.0) as (a,):
        create_table(a, "drop-or-stop", QUICK, ["open", "open"], {"bot_delay": 0})
        ready_again(a.url, 10)
        pg.stop()
        time.sleep(1.0)  # a renewal round (a third of the lease) has failed by now
        r = ready(a)
        assert r.status_code == 503, r.text
        checks = r.json()["checks"]
        assert checks["database"].startswith("unreachable"), checks
        assert checks["leases"].startswith("the last lease renewal failed"), checks
        assert checks["redis"] == "ok"
        assert httpx.get(f"{a.url}/api/health").status_code == 200
        pg.start()
        ready_again(a.url)
        text = httpx.get(f"{a.url}/metrics").text
        assert sample(text, "gamenight_lease_renewals_failed_total") >= 1
