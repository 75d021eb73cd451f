"""The server's behaviour pinned (issue 44, item 8): scripted tables give every page the
same messages as when tests/golden/transcripts.json was recorded (tests/server/transcripts.py;
record again with `python -m tests.server.transcripts` only for a change made on purpose,
and say which in the commit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.server.transcripts import GOLDEN, SCRIPTS, assert_same


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_page_is_sent_what_it_was_sent_when_recorded(name: str, tmp_path: Path) -> None:
    expected = json.loads(GOLDEN.read_text())[name]
    assert_same(name, expected, SCRIPTS[name](tmp_path))
