"""Reading the open archive (`gamenight export`, docs/archive.md) for imitation learning.

    from gamenight.learn.archive import games, pairs, dataset

    for archived in games("games.parquet", game="drop-or-stop"):
        state = archived.replay()          # the final state, checked against the stored outcome
    for pair in pairs("games.parquet", game="arne", players=4):
        pair.observation, pair.action_mask, pair.action   # what the seat saw, could do, did
    observations, masks, actions = dataset("games.parquet", game="drop-or-stop", players=2)

A pair is one decision of a seat, in the adapters' terms (PettingZoo's observation and the
fixed integer action space): `observation` is `game.encode(state.view(seat))` just before
the decision, `action_mask` the 0/1 mask of that seat's legal actions then, and `action`
`game.action_index(action)` of what it did (a Drop It drop off the grid maps to its
nearest grid point, as in the adapters). Each game is replayed from its seed and history
and its final outcome checked against the stored one (`ReplayMismatch` otherwise) before
any of its pairs is given: a pair never comes from a game the rules no longer rebuild.

By default only people's decisions are given (`people=True`: seats of accounts and guests,
not bots, and not a seat a bot sat in for at the end, whose last moves may be the bot's).
The learn layer reads files only: the archive is written by the server (server/archive.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, Outcome, State
from gamenight.engine.registry import load

FORMAT = "gamenight-archive/1"  # server/archive.FORMAT: the schema this module reads
PEOPLE = ("account", "guest")


class ReplayMismatch(BadInput):
    """An archived game that does not replay to its stored outcome with these rules."""


@dataclass(frozen=True)
class ArchivedGame:
    """One row of the archive: what rebuilds the game and what it came to."""

    game_id: str
    game: str
    options: dict[str, Any]
    seed: int
    history: tuple[tuple[int, dict[str, Any]], ...]  # (seat, the action's JSON form)
    seats: tuple[dict[str, Any], ...]
    outcome: Outcome

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ArchivedGame:
        return cls(
            game_id=row["game_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            seed=int(row["seed"]),
            history=tuple((m["seat"], json.loads(m["action"])) for m in row["history"]),
            seats=tuple(row["seats"]),
            outcome=Outcome(
                scores=tuple(row["scores"]),
                winners=tuple(row["winners"]),
                ranks=tuple(row["ranks"]),
                payoff=tuple(row["payoff"]),
                truncated=bool(row["truncated"]),
            ),
        )

    def load(self) -> Game:
        """`gamenight.load(game, **options)`."""
        return load(self.game, **self.options)

    def actions(self, game: Game | None = None) -> list[tuple[int, Action]]:
        """The history as the engine takes it: `game.replay(seed, actions())`."""
        game = game or self.load()
        return [(seat, game.action_from_json(obj)) for seat, obj in self.history]

    def replay(self) -> State:
        """The final state, bit for bit: `ReplayMismatch` if it is not over with the stored
        outcome."""
        game = self.load()
        state = game.replay(self.seed, self.actions(game))
        self.check(state)
        return state

    def check(self, state: State) -> None:
        if not state.over or state.outcome() != self.outcome:
            found = state.outcome() if state.over else "a game not over"
            raise ReplayMismatch(
                f"archived game {self.game_id} ({self.game}) replays to {found}, not to its "
                f"stored outcome {self.outcome}"
            )

    def people(self) -> set[int]:
        """The seats people played to the end (no bot sat in for them)."""
        return {s["seat"] for s in self.seats if s["kind"] in PEOPLE and not s["stand_in"]}


@dataclass(frozen=True)
class Pair:
    """One decision: what the seat saw and could do, and what it did."""

    game_id: str
    seat: int
    observation: np.ndarray  # float32, game.encoding_size
    action_mask: np.ndarray  # int8, game.num_actions
    action: int  # game.action_index


def _open(path: str | Path) -> Any:
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(path)
    except FileNotFoundError:
        raise BadInput(f"no archive at {path}") from None
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError
        raise BadInput(f"{path} is not a Parquet file: {err}") from None
    found = (file.schema_arrow.metadata or {}).get(b"format", b"").decode()
    if found != FORMAT:
        raise BadInput(f"{path} is not a gamenight archive ({FORMAT}); its format: {found!r}")
    return file


def games(
    path: str | Path, game: str | None = None, players: int | None = None
) -> Iterator[ArchivedGame]:
    """The archive's games in file order (of `game`, with `players` seats, if given), read
    a batch of rows at a time."""
    file = _open(path)
    for batch in file.iter_batches(batch_size=256):
        for row in batch.to_pylist():
            if (game is None or row["game"] == game) and (
                players is None or row["players"] == players
            ):
                yield ArchivedGame.from_row(row)


def _mask(game: Game, state: State, seat: int) -> np.ndarray:
    """The 0/1 mask of `seat`'s legal actions now (the PettingZoo adapter's)."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    for action in state.actions(seat):
        mask[game.action_index(action)] = 1
    return mask


def game_pairs(archived: ArchivedGame, seat: int | None = None, people: bool = True) -> list[Pair]:
    """The decisions of one game (of `seat`, if given; of people only, with `people`),
    from a replay checked against the stored outcome."""
    game = archived.load()
    wanted = archived.people() if people else set(range(game.players))
    if seat is not None:
        wanted &= {seat}
    state = game.start(archived.seed)
    found = []
    for mover, action in archived.actions(game):
        if mover in wanted:
            found.append(
                Pair(
                    archived.game_id,
                    mover,
                    game.encode(state.view(mover)),
                    _mask(game, state, mover),
                    game.action_index(action),
                )
            )
        state.act(mover, action)
    archived.check(state)
    return found


def pairs(
    path: str | Path,
    game: str,
    players: int | None = None,
    seat: int | None = None,
    people: bool = True,
) -> Iterator[Pair]:
    """Every decision of `game`'s archived games (with `players` seats, of `seat`, of people
    only: see the module doc), game by game in file order."""
    for archived in games(path, game, players):
        yield from game_pairs(archived, seat, people)


def dataset(
    path: str | Path,
    game: str,
    players: int | None = None,
    seat: int | None = None,
    people: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`pairs` stacked: observations (n x encoding_size, float32), action masks (n x
    num_actions, int8) and actions (n, int64). The games must share one encoding (the same
    number of seats, and options that size it alike): give `players` when they differ."""
    found = list(pairs(path, game, players, seat, people))
    if not found:
        return np.zeros((0, 0), np.float32), np.zeros((0, 0), np.int8), np.zeros(0, np.int64)
    shapes = {(p.observation.shape, p.action_mask.shape) for p in found}
    if len(shapes) > 1:
        raise BadInput(
            f"the archive's {game} games have {len(shapes)} encodings (different numbers of "
            "seats or options): choose one with players=N"
        )
    return (
        np.stack([p.observation for p in found]).astype(np.float32, copy=False),
        np.stack([p.action_mask for p in found]),
        np.array([p.action for p in found], dtype=np.int64),
    )
