"""Bring your own policy: a registered or installed bot plays wherever gamenight's do."""

from __future__ import annotations

import sys

import pytest

from gamenight import bots
from gamenight.engine import BadInput, load, play
from gamenight.games.drop_or_stop import DROP, STOP


class AlwaysStop:
    """A policy from outside: stops at once."""

    def __init__(self, seed: int = 0, patience: int = 0) -> None:
        self.patience = patience

    def choose(self, state, seat):
        legal = state.actions(seat)
        return DROP if self.patience > 0 and DROP in legal else STOP


def test_register_makes_a_bot_everywhere(monkeypatch):
    # registered for this test only: other tests in the process list the shipped bots.
    # They are loaded first (once per process, cached): loaded into the copy, they went
    # with it, and every later test in the process found no `learned` bot.
    bots._load_entry_points()
    monkeypatch.setattr(bots, "_REGISTERED", dict(bots._REGISTERED))
    monkeypatch.setenv(bots.SPAWNED, "{}")  # (else every later subprocess of this worker
    bots.register("always-stop", AlwaysStop, games=("drop-or-stop",))  # imports it)
    game = load("drop-or-stop", players=2)
    bot = bots.make_seat("bot:always-stop?patience=0", game, 1)
    assert isinstance(bot, AlwaysStop)
    assert "always-stop" in bots.available("drop-or-stop")
    assert "always-stop" not in bots.available("arne")  # limited to its games
    state = play(game, [bot, bots.make_seat("bot:threshold", game, 2)], seed=3)
    assert all(a == STOP for s, a in state.history if s == 0)


def test_register_refuses_bad_names_and_factories():
    with pytest.raises(BadInput):
        bots.register("no spaces", AlwaysStop)
    with pytest.raises(BadInput):
        bots.register("fine", "not callable")


def test_an_installed_package_adds_a_bot_through_the_entry_point_group(tmp_path, monkeypatch):
    package = tmp_path / "mybots.py"
    package.write_text(
        "from gamenight.games.drop_or_stop import STOP\n"
        "class Lazy:\n"
        "    games = ('drop-or-stop',)\n"
        "    def __init__(self, seed=0): pass\n"
        "    def choose(self, state, seat): return STOP\n"
    )
    info = tmp_path / "mybots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gamenight.bots]\nlazy = mybots:Lazy\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bots._load_entry_points.cache_clear()
    try:
        game = load("drop-or-stop", players=2)
        bot = bots.make_seat("bot:lazy", game, 0)
        assert type(bot).__name__ == "Lazy"
        assert "lazy" not in bots.available("arne")
    finally:
        bots._REGISTERED.pop("lazy", None)
        sys.modules.pop("mybots", None)
        bots._load_entry_points.cache_clear()


def test_gamenight_bots_as_pettingzoo_policies():
    import numpy as np

    from gamenight.adapters.pettingzoo import env
    from gamenight.adapters.policies import pettingzoo_policy

    e = env("drop-or-stop", players=2)
    act = pettingzoo_policy(e, "bot:threshold")
    e.reset(seed=2)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        action = None if term or trunc else act(obs, agent)
        assert action is None or obs["action_mask"][action] == 1
        e.step(action)
    assert e.unwrapped.game_state.over
    assert np.isfinite(e.state()).all()


def test_a_registered_bot_reaches_worker_processes(monkeypatch):
    """`register` in the parent, a tournament on two spawned workers: they import the
    factory by its module path (passed on in GAMENIGHT_BOTS) and play it."""
    from gamenight.sim.tournament import play_tournament

    bots._load_entry_points()
    monkeypatch.setattr(bots, "_REGISTERED", dict(bots._REGISTERED))
    monkeypatch.setenv(bots.SPAWNED, "{}")
    bots.register("always-stop", AlwaysStop, games=("drop-or-stop",))
    assert "always-stop" in bots.os.environ[bots.SPAWNED]
    # (the options name the players too: sim/tournament.py's schedule does not add
    # `players` to them, so `{}` would load the default 3-seat table)
    tour = play_tournament(
        "drop-or-stop", {"players": 2}, ["bot:always-stop", "bot:threshold"], 2, 4, workers=2
    )
    assert len(tour.matches) >= 4
    stopper = [m for m in tour.matches if "always-stop" in m.seats]
    assert stopper


def test_a_bot_without_an_import_path_stays_in_its_process(monkeypatch):
    """A lambda plays here; a worker process is told it cannot have it, and says why in
    one line (it said "drop-or-stop has no bot 'lambda-bot'", as if misspelt)."""
    monkeypatch.setattr(bots, "_REGISTERED", dict(bots._REGISTERED))
    monkeypatch.setenv(bots.SPAWNED, "{}")
    bots.register("lambda-bot", lambda seed=0: AlwaysStop(seed))
    bots.register("policy-lambda", bots.from_policy(lambda o, m: int(m.argmax())))
    game = load("drop-or-stop", players=2)
    assert hasattr(bots.make_seat("bot:lambda-bot", game, 0), "choose")
    passed = bots.json.loads(bots.os.environ[bots.SPAWNED])
    assert passed["lambda-bot"][0] == passed["policy-lambda"][0] == f"{bots.LOCAL}:"
    monkeypatch.setattr(bots, "_REGISTERED", {})  # as a fresh worker process
    bots._load_entry_points.cache_clear()
    try:
        for name in ("lambda-bot", "policy-lambda"):
            with pytest.raises(BadInput, match=f"bot {name} lives only in the process") as err:
                bots.make_seat(f"bot:{name}", game, 0)
            assert "\n" not in str(err.value) and "top of a module" in str(err.value)
    finally:
        bots._load_entry_points.cache_clear()


def test_a_passed_on_bot_that_cannot_be_imported_fails_alone(monkeypatch):
    """A worker whose path lacks the module of a passed-on bot still plays every other
    bot; that one is refused in one line when asked for."""
    monkeypatch.setattr(bots, "_REGISTERED", {})
    monkeypatch.setenv(bots.SPAWNED, '{"ghost": ["no_such_module:Ghost", null]}')
    bots._load_entry_points.cache_clear()
    try:
        game = load("drop-or-stop", players=2)
        assert hasattr(bots.make_seat("bot:threshold", game, 0), "choose")
        with pytest.raises(BadInput, match="bot ghost: cannot import no_such_module:Ghost") as err:
            bots.make_seat("bot:ghost", game, 0)
        assert "\n" not in str(err.value)
    finally:
        bots._load_entry_points.cache_clear()
