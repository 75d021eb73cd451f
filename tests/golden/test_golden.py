"""Behaviour pinned: 50 seeded games of every game and variant give the same events per
seat, history and outcome as when `digests.json` was recorded (tests/golden/logs.py)."""

from __future__ import annotations

import json

import pytest

from tests.golden.logs import CASES, DIGESTS, case_digests


@pytest.mark.parametrize(("name", "case", "options"), CASES, ids=[f"{n}/{c}" for n, c, _ in CASES])
def test_golden_logs_unchanged(name: str, case: str, options: dict) -> None:
    expected = json.loads(DIGESTS.read_text())[f"{name}/{case}"]
    got = case_digests(name, options)
    changed = [seed for seed, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    assert not changed, f"{name}/{case}: seeds {changed} no longer play as recorded"
