"""Issue 48, item 3: the research loader turns the open archive into (observation, action)
pairs for imitation learning, in the adapters' terms, from games whose replay is checked
against the stored outcome; and the schema's documentation replays a row as it says."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gamenight
from gamenight.adapters.pettingzoo import raw_env
from gamenight.engine import BadInput, RandomBot, play
from gamenight.engine.options import options_to_json
from gamenight.learn import archive as loader
from gamenight.server import archive

DOCS = Path(__file__).parents[2] / "docs" / "archive.md"
FAST_DROP_IT = {
    "players": 2,
    "dt": 0.02,
    "iterations": 5,
    "t_max": 2.0,
    "t_rest": 0.1,
    "frame_every": 0,
    "x_bins": 5,
    "angle_bins": 2,
}


def record(name: str, options: dict[str, Any], seed: int, kinds: list[str]) -> dict[str, Any]:
    """A game played by random bots, as the export writes it; `kinds` per seat."""
    game = gamenight.load(name, **options)
    state = play(game, [RandomBot(seed + s) for s in range(game.players)], seed=seed)
    outcome = state.outcome()
    seats = [
        {
            "seat": s,
            "kind": kind.removesuffix("+bot"),
            "player": f"g-{s:020x}" if kind != "bot" else "bot:easy",
            "bot": "random" if "bot" in kind else None,
            "stand_in": kind.endswith("+bot"),
            "rating_mu": None,
            "rating_sigma": None,
            "rating_mu_after": None,
            "rating_sigma_after": None,
        }
        for s, kind in enumerate(kinds)
    ]
    return {
        "game_id": f"t-{seed:020x}",
        "rematch_of": None,
        "game": name,
        "options": json.dumps(options_to_json(game.options) | {"players": game.players}),
        "players": game.players,
        "seed": seed,
        "history": [
            {"seat": seat, "action": json.dumps(action.to_json())} for seat, action in state.history
        ],
        "moves": len(state.history),
        "seats": seats,
        "scores": [float(x) for x in outcome.scores],
        "winners": list(outcome.winners),
        "ranks": list(outcome.ranks),
        "payoff": list(outcome.payoff),
        "truncated": outcome.truncated,
        "finished": dt.date(2026, 12, 1),
        "rated": False,
        "practice": False,
    }


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    pq.write_table(pa.Table.from_pylist(records, schema=archive.SCHEMA), path)
    return path


@pytest.fixture(scope="module")
def file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = [
        record("drop-or-stop", {"players": 2}, 1, ["guest", "account"]),
        record("drop-or-stop", {"players": 2}, 2, ["account", "bot"]),
        record("drop-or-stop", {"players": 3}, 3, ["guest", "guest+bot", "bot"]),
        record("arne", {"players": 3}, 4, ["account", "guest", "account"]),
        record("drop-it", FAST_DROP_IT, 5, ["guest", "guest"]),
    ]
    return write(tmp_path_factory.mktemp("archive") / "games.parquet", records)


def test_the_loader_reads_the_servers_format() -> None:
    assert loader.FORMAT == archive.FORMAT


@pytest.mark.parametrize("name", ["drop-or-stop", "arne", "drop-it"])
def test_each_pair_is_what_the_seat_saw_could_do_and_did(file: Path, name: str) -> None:
    (first, *_) = [g for g in loader.games(file, name)]
    game = first.load()
    history = first.actions(game)
    found = loader.game_pairs(first, people=False)
    assert len(found) == len(history)
    state = game.start(first.seed)
    for pair, (seat, action) in zip(found, history, strict=True):
        assert pair.seat == seat and pair.game_id == first.game_id
        assert np.array_equal(pair.observation, game.encode(state.view(seat)))
        assert pair.observation.shape == (game.encoding_size,)
        assert pair.action_mask.shape == (game.num_actions,) and pair.action_mask[pair.action]
        assert pair.action == game.action_index(action)
        state.act(seat, action)
    assert state.outcome() == first.outcome


def test_the_observation_is_the_pettingzoo_adapters(file: Path) -> None:
    """Where the server asked the adapters' seat (actors[0]), the pair's observation and
    mask are those the PettingZoo environment gives that agent."""
    (archived,) = [g for g in loader.games(file, "drop-or-stop") if g.seed == 1]
    aec = raw_env("drop-or-stop", **archived.options)
    aec.reset(seed=archived.seed)
    for pair in loader.game_pairs(archived, people=False):
        agent = aec.agent_selection
        assert agent == f"player_{pair.seat}"
        seen = aec.observe(agent)
        assert np.array_equal(seen["observation"], pair.observation)
        assert np.array_equal(seen["action_mask"], pair.action_mask)
        aec.step(pair.action)


def test_only_peoples_decisions_by_default(file: Path) -> None:
    by_seed = {g.seed: g for g in loader.games(file)}
    assert {p.seat for p in loader.game_pairs(by_seed[2])} == {0}  # seat 1 is a bot
    assert {p.seat for p in loader.game_pairs(by_seed[3])} == {0}  # a bot sat in at seat 1
    assert {p.seat for p in loader.game_pairs(by_seed[3], people=False)} == {0, 1, 2}
    ones = list(loader.pairs(file, "drop-or-stop", players=2, seat=1))
    assert ones and {p.game_id for p in ones} == {by_seed[1].game_id}


def test_dataset_stacks_one_encoding_and_refuses_two(file: Path) -> None:
    observations, masks, actions = loader.dataset(file, "drop-or-stop", players=2)
    game = gamenight.load("drop-or-stop", players=2)
    assert observations.shape == (len(actions), game.encoding_size)
    assert observations.dtype == np.float32 and actions.dtype == np.int64
    assert masks[np.arange(len(actions)), actions].all()
    with pytest.raises(BadInput, match="choose one with players=N"):
        loader.dataset(file, "drop-or-stop")
    empty = loader.dataset(file, "drop-or-stop", players=4)
    assert [len(a) for a in empty] == [0, 0, 0]


def test_a_game_that_does_not_replay_to_its_outcome_gives_no_pair(tmp_path: Path) -> None:
    honest = record("drop-or-stop", {"players": 2}, 1, ["guest", "guest"])
    forged = honest | {"payoff": honest["payoff"][::-1], "ranks": honest["ranks"][::-1]}
    cut = honest | {"history": honest["history"][:-1]}
    for bad in (forged, cut):
        path = write(tmp_path / "bad.parquet", [bad])
        with pytest.raises(loader.ReplayMismatch, match="stored outcome"):
            next(loader.pairs(path, "drop-or-stop"))
        with pytest.raises(loader.ReplayMismatch):
            next(loader.games(path)).replay()


def test_a_file_that_is_not_an_archive_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="no archive at"):
        next(loader.games(tmp_path / "missing.parquet"))
    (tmp_path / "text.parquet").write_text("hello")
    with pytest.raises(BadInput, match="is not a Parquet file"):
        next(loader.games(tmp_path / "text.parquet"))
    pq.write_table(pa.table({"x": [1]}), tmp_path / "other.parquet")
    with pytest.raises(BadInput, match="is not a gamenight archive"):
        next(loader.games(tmp_path / "other.parquet"))


def test_the_docs_name_every_column() -> None:
    docs = DOCS.read_text()
    names = [f.name for f in archive.SCHEMA] + [f.name for f in archive.SEAT]
    names += [f.name for f in archive.MOVE]
    for name in names:
        assert f"`{name}`" in docs, name


def test_the_docs_example_replays_every_row(file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = DOCS.read_text()
    blocks = re.findall(r"```python\n(.*?)```", docs, re.S)
    example = next(b for b in blocks if ".replay(" in b)
    assert len(example.strip().splitlines()) <= 12
    monkeypatch.chdir(file.parent)
    namespace: dict[str, Any] = {}
    exec(compile(example, str(DOCS), "exec"), namespace)
    assert namespace["replayed"] == pq.read_table(file).num_rows
