"""Drop or Stop as a Gymnasium `VectorEnv`: one learning seat at N tables in lockstep.

Built on the batched simulator (batched.py): the other seats play array policies (the
threshold bot by default), every step takes one decision of the learner at every table,
and the tables run on until the learner is to act again. Observations are the game's
observation tensor of the learner's seat, the very numbers `game.encode(state.view(seat))`
gives (observation.py, `observation_features`; computed here over arrays, `observe`), so
a policy trained here plays through the `learned` bot and every adapter; actions are the
engine's indices (0 DROP, 1 STOP, see `DropOrStop.action_index`); a DROP where only STOP
is legal (R12a, R14) is played as STOP, and `infos["action_mask"]` says which actions are
legal. The reward is the learner's payoff
of the game (Outcome.payoff, 1 first ... 0 last) on the step that ends it; finished tables
start their next game in the same step (Gymnasium's same-step autoreset), the last
observation of the old game in `infos["final_obs"]`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from gamenight.engine.features import offsets
from gamenight.engine.seeds import derive_seed
from gamenight.games.drop_or_stop import DropOrStop
from gamenight.games.drop_or_stop.batched import Policy, Tables, ThresholdPolicy
from gamenight.games.drop_or_stop.components import DECK_SIZE
from gamenight.games.drop_or_stop.observation import highs, observation_features

DROP_INDEX, STOP_INDEX = 0, 1


class DropOrStopVectorEnv(VectorEnv):
    def __init__(
        self,
        game: DropOrStop,
        num_envs: int,
        *,
        seat: int = 0,
        opponents: Sequence[Policy] | None = None,
        seed: int = 0,
    ) -> None:
        if not 0 <= seat < game.players:
            raise ValueError(f"seat must be 0..{game.players - 1}, got {seat}")
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.game = game
        self.num_envs = num_envs
        self.seat = seat
        others = list(opponents) if opponents is not None else [ThresholdPolicy()]
        self.policies = [others[s % len(others)] for s in range(game.players)]
        high = highs(observation_features(game))
        self.single_observation_space = spaces.Box(0.0, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(2)
        self.observation_space = spaces.Box(0.0, np.tile(high, (num_envs, 1)), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete([2] * num_envs)
        self.tables = Tables(game, num_envs, record=False)
        self.slots = np.arange(num_envs)
        self.master = seed
        self.games_started = 0

    def _start(self, slots: np.ndarray) -> None:
        first = self.games_started
        self.games_started += len(slots)
        seeds = [derive_seed(self.master, i) for i in range(first, first + len(slots))]
        self.tables.start(slots, seeds)

    def _others_play(self, slots: np.ndarray) -> np.ndarray:
        """Play the other seats until the learner is to act or the game ends; the ended."""
        tables = self.tables
        ended = [slots[:0]]
        waiting = slots[tables.live[slots] & (tables.current[slots] != self.seat)]
        while waiting.size:
            ended.append(tables.apply(waiting, tables.decide(waiting, self.policies)))
            waiting = waiting[tables.live[waiting] & (tables.current[waiting] != self.seat)]
        return np.concatenate(ended)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        mask = np.ones((self.num_envs, 2), dtype=bool)
        mask[:, DROP_INDEX] = self.tables.can_drop(self.slots)
        return observe(self.tables, self.slots, self.seat), {"action_mask": mask}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, int):
            self.master, self.games_started = seed, 0
        self._start(self.slots)
        self._settle(self.slots)
        return self._observe()

    def _settle(self, slots: np.ndarray) -> np.ndarray:
        """Bring `slots` to the learner's turn, restarting games that end meanwhile; the
        learner's payoff for each game that ended (0 where none did)."""
        reward = np.zeros(self.num_envs)
        ended = self._others_play(slots)
        finished = np.zeros(self.num_envs, dtype=bool)
        while ended.size:  # a game can end while others play; restart it at once
            finished[ended] = True
            reward[ended] += self._payoff(ended)
            self._start(ended)
            ended = self._others_play(ended)
        self._finished = finished
        return reward

    def _payoff(self, slots: np.ndarray) -> np.ndarray:
        """Outcome.payoff of the learner's seat over arrays: 1 first ... 0 last, ties share
        the mean of the places they cover; a truncated game pays 1/2 (R34)."""
        wins = self.tables.wins[slots]
        mine = wins[:, self.seat][:, None]
        above = (wins > mine).sum(axis=1)
        tied = (wins == mine).sum(axis=1)
        n = self.game.players
        first_place, last_place = above, above + tied - 1
        share = 1 - (first_place + last_place) / 2 / max(1, n - 1)
        return np.where(self.tables.truncated[slots], 0.5, share)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        tables = self.tables
        drop = (np.asarray(actions) == DROP_INDEX) & tables.can_drop(self.slots)
        ended = tables.apply(self.slots, drop)
        final = observe(tables, self.slots, self.seat)
        reward = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=bool)
        done[ended] = True
        reward[ended] = self._payoff(ended)
        if ended.size:
            self._start(ended)
        reward += self._settle(self.slots)  # games that end while the others play count too
        done |= self._finished
        obs, infos = self._observe()
        infos["final_obs"] = np.where(done[:, None], final, 0.0).astype(np.float32)
        infos["_final_obs"] = done
        return obs, reward, done, np.zeros(self.num_envs, dtype=bool), infos


def observe(tables: Tables, slots: np.ndarray, seat: int) -> np.ndarray:
    """`game.encode(state.view(seat))` for every table in `slots`, over arrays: one row
    per table, the blocks of `observation_features` (a finished game as its view shows
    it: nobody active or to act, every hand counted as seen)."""
    game = tables.game
    n, k = tables.players, tables.kinds
    at = offsets(observation_features(game))
    out = np.zeros((len(slots), at["round"].stop), dtype=np.float32)
    live = tables.live[slots]
    out[:, at["hand"]] = tables.hand_kinds[slots, seat]
    total = tables.own_total(slots, seat)
    out[:, at["total"].start] = np.maximum(total, 0) / tables.target
    out[:, at["overflow"].start] = total < 0
    kinds = np.arange(k)
    tableau_kinds = np.zeros((len(slots), n, k))
    for s in range(n):
        cards = tables.tableaux[slots, s].astype(np.int64)
        held = np.arange(DECK_SIZE)[None, :] < tables.tableau_len[slots, s][:, None]
        tableau_kinds[:, s] = ((tables.kind_of[cards][..., None] == kinds) & held[..., None]).sum(
            axis=1
        )
    for j in range(n):
        s = (seat + j) % n
        out[:, at[f"seat{j}.tableau"]] = tableau_kinds[:, s]
        out[:, at[f"seat{j}.active"].start] = tables.active[slots, s] & live
        out[:, at[f"seat{j}.wins"].start] = tables.wins[slots, s] / tables.wins_to_win
        out[:, at[f"seat{j}.to_act"].start] = (tables.current[slots] == s) & live
        out[:, at[f"seat{j}.start"].start] = tables.start_seat[slots] == s
    public = tables.public_kinds[slots]
    discard = public - tableau_kinds.sum(axis=1)
    seen = public + np.where(
        live[:, None], tables.hand_kinds[slots, seat], tables.hand_kinds[slots].sum(axis=1)
    )
    out[:, at["discard"]] = discard / tables.copies
    out[:, at["unseen"]] = (tables.copies - seen) / tables.copies
    out[:, at["draw_pile"].start] = tables.draw_len[slots] / DECK_SIZE
    out[:, at["round"].start] = np.minimum(tables.round[slots], 20) / 20
    return out
