"""Fixtures of the cluster tests: one throwaway PostgreSQL per module, a Redis per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.helpers import Redis, have_redis
from tests.server.helpers import pg_tools, postgres_cluster


@pytest.fixture(scope="module")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if pg_tools() is None:
        pytest.skip("no PostgreSQL binaries (Debian package postgresql)")
    if not have_redis():
        pytest.skip("no redis-server (Debian package redis-server)")
    with postgres_cluster(tmp_path_factory.mktemp("pg")) as url:
        yield url


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    if not have_redis():
        pytest.skip("no redis-server (Debian package redis-server)")
    server = Redis(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()
