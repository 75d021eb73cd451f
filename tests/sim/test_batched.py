"""The batched Drop or Stop simulator plays the engine's games (games/drop_or_stop/batched.py)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import gamenight
from gamenight.engine.seeds import derive_seed
from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.drop_or_stop import batched as B
from gamenight.sim.runner import Job, Summary, batchable, run, stream

OPTION_SETS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "deck": "descending"},
    {"players": 3, "allow_drop_when_overflowed": False, "target": 9},
    {"players": 2, "max_rounds": 2, "first_start_seat": 1},
    {"players": 4, "hand_size": 0, "deck": "1to6"},
]


def _job(options: dict[str, object], seats: tuple[str, ...], batched: bool | None) -> Job:
    return Job("drop-or-stop", tuple(sorted(options.items())), seats, 11, batched)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_threshold_batches_give_the_engines_results(options: dict[str, object]) -> None:
    players = options["players"]
    assert isinstance(players, int)
    seats = (("bot:threshold", "bot:threshold?stop_at=6&max_risk=0.3") * 2)[:players]
    batched, engine = _job(options, seats, None), _job(options, seats, False)
    assert batchable(batched) and not batchable(engine)
    fast, slow = run(batched, 150), run(engine, 150)
    assert fast == slow  # outcomes and every stat: length, the lead's story, start_won.r<N>
    assert all("comeback" in r.stats and "start_won.r1" in r.stats for r in fast)
    assert all("start_edge.r1" in r.stats for r in fast)  # and start_edge.r<N>, to the float


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_batched_game_replays_through_the_engine(options: dict[str, object]) -> None:
    game = gamenight.load("drop-or-stop", **options)
    seeds = [derive_seed(3, i) for i in range(400)]
    played = B.play(game, seeds, [B.RandomPolicy()] * game.players)
    sample = list(range(0, 400, 13))
    for i, history in zip(sample, played.histories(sample), strict=True):
        state = game.replay(seeds[i], history)  # act() refuses any illegal decision
        assert not state.actors
        assert state.outcome() == played.outcome(i)
        assert state.round == played.tables.round[i]


@pytest.mark.parametrize("first_start_seat", ["random", 1])
def test_games_that_reshuffle_twice_or_more_replay_through_the_engine(
    monkeypatch: pytest.MonkeyPatch, first_start_seat: object
) -> None:
    """R13: a table's generator is rebuilt from its seed at each reshuffle (not held), past
    the first shuffle, the start seat (R6, when drawn) and every earlier reshuffle's keys."""
    reshuffles: Counter[int] = Counter()
    reshuffle = B.Tables._reshuffle

    def counted(tables: B.Tables, slot: int) -> None:
        reshuffles[tables.seeds[slot]] += 1
        reshuffle(tables, slot)

    monkeypatch.setattr(B.Tables, "_reshuffle", counted)
    game = gamenight.load("drop-or-stop", players=4, first_start_seat=first_start_seat)
    seeds = [derive_seed(5, i) for i in range(300)]
    played = B.play(game, seeds, [B.RandomPolicy()] * 4)
    twice = [i for i, seed in enumerate(seeds) if reshuffles[seed] >= 2][:40]
    assert len(twice) >= 20
    for i, history in zip(twice, played.histories(twice), strict=True):
        state = game.replay(seeds[i], history)
        assert state.outcome() == played.outcome(i)
        assert state.round == played.tables.round[i]


def test_batched_random_play_has_the_engines_distribution() -> None:
    """The random policy draws from a counter-based stream, not RandomBot's: 3,000 games
    each way agree on mean game length and seat 0's win rate within 4 standard errors of
    the difference (a false alarm about 1 in 16,000; the seeds are fixed, so it is stable)."""
    games = 3000
    results = {
        way: run(_job({"players": 2}, ("bot:random",) * 2, way), games) for way in (True, False)
    }
    lengths = {w: np.array([r.stats["decisions"] for r in rs]) for w, rs in results.items()}
    gap = lengths[True].mean() - lengths[False].mean()
    error = math.sqrt(sum(x.var() / games for x in lengths.values()))
    assert abs(gap) < 4 * error
    rates = {w: Summary.of(rs, 2).wins[0] / games for w, rs in results.items()}
    error = math.sqrt(sum(p * (1 - p) / games for p in rates.values()))
    assert abs(rates[True] - rates[False]) < 4 * error
    assert [r.seed for r in results[True]] == [r.seed for r in results[False]]


def test_a_game_does_not_depend_on_its_batch() -> None:
    job = _job({"players": 3}, ("bot:random",) * 3, True)
    alone = run(job, 60)
    game = gamenight.load("drop-or-stop", players=3)
    seeds = [derive_seed(11, i) for i in range(60)]
    halves = [B.play(game, part, [B.RandomPolicy()] * 3) for part in (seeds[:25], seeds[25:])]
    outcomes = [h.outcome(i) for h in halves for i in range(len(h.seeds))]
    assert [o.scores for o in outcomes] == [r.scores for r in alone]


def test_a_forward_pass_plays_a_seat() -> None:
    game = gamenight.load("drop-or-stop", players=2)
    seen: list[tuple[int, ...]] = []

    def never(x: np.ndarray) -> np.ndarray:
        seen.append(x.shape)
        assert ((x >= 0) & (x <= 1)).all()
        return np.zeros(len(x))

    def always(x: np.ndarray) -> np.ndarray:
        return np.ones(len(x))

    played = B.play(game, list(range(50)), [B.ForwardPolicy(never), B.ForwardPolicy(always)])
    assert seen and all(shape[1] == B.FEATURES for shape in seen)
    for history in played.histories(range(50)):
        assert all(action is STOP for seat, action in history if seat == 0)
        assert any(action is DROP for seat, action in history if seat == 1)


def test_streamed_results_come_in_game_order() -> None:
    job = _job({"players": 2}, ("bot:threshold",) * 2, None)
    assert [r.index for r in stream(job, 300, workers=2)] == list(range(300))


def test_the_vector_env_pays_what_the_engine_pays() -> None:
    """A random learner against the threshold bot: mean payoff over 4,000 VectorEnv games
    and 1,500 engine games agree within 4 standard errors of the difference."""
    from gamenight.games.drop_or_stop.vector_env import DropOrStopVectorEnv

    env = DropOrStopVectorEnv(gamenight.load("drop-or-stop", players=2), 256)
    obs, infos = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert infos["action_mask"].shape == (256, 2) and infos["action_mask"][:, 1].all()
    rng = np.random.default_rng(0)
    payoffs: list[float] = []
    while len(payoffs) < 4000:
        obs, reward, done, truncated, infos = env.step(rng.integers(0, 2, 256))
        assert env.observation_space.contains(obs) and not truncated.any()
        payoffs += reward[done].tolist()
        assert (reward[~done] == 0).all()
    engine = run(_job({"players": 2}, ("bot:random", "bot:threshold"), False), 1500)
    theirs = np.array([r.payoff[0] for r in engine])
    ours = np.array(payoffs)
    error = math.sqrt(ours.var() / len(ours) + theirs.var() / len(theirs))
    assert abs(ours.mean() - theirs.mean()) < 4 * error


def test_the_vector_env_repeats_from_a_seed() -> None:
    from gamenight.games.drop_or_stop.vector_env import DropOrStopVectorEnv

    game = gamenight.load("drop-or-stop", players=3)
    runs = []
    for _ in range(2):
        env = DropOrStopVectorEnv(game, 8, seat=1, opponents=[B.RandomPolicy()])
        obs, _ = env.reset(seed=9)
        seen = [obs]
        for step in range(40):
            obs, *_ = env.step(np.full(8, step % 2))
            seen.append(obs)
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])
