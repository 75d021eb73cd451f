"""Fixtures of the cluster tests: one throwaway PostgreSQL per module, a Redis per test.

Their files live in a directory of their own (not pytest's tmp_path): pytest runs of other
checkouts on the same machine prune old pytest-of-<user> directories, which would delete a
database under a running test."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.helpers import Redis, have_redis
from tests.server.helpers import pg_tools, postgres_cluster


@contextlib.contextmanager
def private_dir(prefix: str) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if pg_tools() is None:
        pytest.skip("no PostgreSQL binaries (Debian package postgresql)")
    if not have_redis():
        pytest.skip("no redis-server (Debian package redis-server)")
    with private_dir("gamenight-cluster-pg-") as path, postgres_cluster(path / "pg") as url:
        yield url


@pytest.fixture
def work() -> Iterator[Path]:
    """A directory for this test's server logs and data."""
    with private_dir("gamenight-cluster-") as path:
        yield path


@pytest.fixture
def redis(work: Path) -> Iterator[Redis]:
    if not have_redis():
        pytest.skip("no redis-server (Debian package redis-server)")
    server = Redis(work / "redis").start()
    try:
        yield server
    finally:
        server.stop()
