"""Behaviour pinned: 50 seeded games of every game and variant give the same events per
seat, history and outcome as when `digests.json` was recorded (tests/golden/logs.py)."""

from __future__ import annotations

import json
import os

import pytest

from tests.golden.logs import CASES, DIGESTS, GAMES_PER_CASE, case_digests

# Drop It's games run real physics (about 1.3 s a game): the suite replays the first 20 of
# each case's 50, which keeps `make test` under its 20 minutes; `make golden` replays all.
IN_SUITE = {"drop-it": 20}
EVERY_GAME = os.environ.get("GAMENIGHT_GOLDEN_ALL") == "1"


@pytest.mark.parametrize(("name", "case", "options"), CASES, ids=[f"{n}/{c}" for n, c, _ in CASES])
def test_golden_logs_unchanged(name: str, case: str, options: dict) -> None:
    games = GAMES_PER_CASE if EVERY_GAME else IN_SUITE.get(name, GAMES_PER_CASE)
    expected = json.loads(DIGESTS.read_text())[f"{name}/{case}"][:games]
    got = case_digests(name, options, games)
    changed = [seed for seed, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    assert not changed, f"{name}/{case}: seeds {changed} no longer play as recorded"
