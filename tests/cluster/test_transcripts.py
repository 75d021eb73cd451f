"""A failover pinned (issue 44, item 8): the scripted failover on two processes gives every
page the same messages as when tests/golden/failover.json was recorded
(tests/cluster/transcripts.py; record again with `python -m tests.cluster.transcripts` only
for a change made on purpose, and say which in the commit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cluster.helpers import Redis
from tests.cluster.transcripts import GOLDEN, a_failover
from tests.server.transcripts import assert_same

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_page_is_sent_what_it_was_sent_through_a_failover(
    pg_url: str, redis: Redis, work: Path
) -> None:
    expected = json.loads(GOLDEN.read_text())
    assert_same("failover", expected, a_failover(pg_url, redis.url, work))
