"""Our ISMCTS against OpenSpiel's ISMCTS on Arne, through the OpenSpiel adapter.

Prints one JSON line per figure:

1. `iterations_per_second` (one line per player count): both bots search the same Arne
   positions (random play, decisions with more than one legal action) with the same
   iteration budget. Ours: `gamenight.bots.ismcts.ISMCTSBot` on the engine state; OpenSpiel's:
   `open_spiel.python.algorithms.ismcts.ISMCTSBot` with a random-rollout evaluator on the
   adapter's state, resampling through the adapter (`determinize`, seeded). Both do one
   determinization per iteration and play rollouts to the end of the game (ours with
   `max_rollout` lifted), with the same exploration constant c. Goal: ratio >= 3.
2. `head_to_head`: two-player Arne, one bot per seat, seats swapped every game, the same
   thinking time per decision for both (OpenSpiel's search loop run until a deadline
   instead of a fixed count; the mean searched time per decision of each bot is printed).
   A win counts 1, a shared result 1/2. Goal: our 95% interval above 50%.

Usage: python bench/ismcts.py [--games 80] [--seconds 0.1] [--iterations 100]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import gamenight.adapters.openspiel as adapter
from gamenight.bots.ismcts import ISMCTSBot
from gamenight.engine.seeds import derive_seed
from gamenight.sim.runner import wilson_fraction

C = 0.7  # payoffs are in [0, 1] for both bots
NO_CAP = 10**6  # ours stops rollouts after max_rollout decisions; OpenSpiel's never does


class TimedOpenSpielISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS with its search loop run until a deadline (`run_search` of
    open_spiel/python/algorithms/ismcts.py with `range(max_simulations)` replaced by a
    clock; everything else is theirs)."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        rs = np.random.RandomState(seed)
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rs), C, 1, random_state=rs)
        self.seconds = seconds
        self.set_resampler(adapter.seeded_resampler(seed))
        self.searched = 0
        self.search_time = 0.0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        start = time.perf_counter()
        self._root_node = self.create_new_node(state)
        deadline = start + self.seconds
        done = 0
        # The first simulation only expands the root; the final policy needs a visit.
        while self._root_node.total_visits < 1 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.searched += 1
        self.search_time += time.perf_counter() - start
        return self.get_final_policy(state, self._root_node)


def positions(players: int, count: int, seed: int) -> list[Any]:
    """Adapter states of random Arne games at decisions with a real choice."""
    game = pyspiel.load_game("python_gamenight_arne", {"players": players, "rng_seed": seed})
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.15:
                found.append(state.clone())
            state.apply_action(rng.choice(legal))
    return found


def iteration_rates(players: int, iterations: int, count: int = 12) -> dict[str, Any]:
    states = positions(players, count, seed=players)
    game = states[0].get_game()
    ours_time = theirs_time = 0.0
    for i, s in enumerate(states):  # interleaved, so load changes hit both alike
        start = time.perf_counter()
        ISMCTSBot(seed=i, iterations=iterations, c=C, max_rollout=NO_CAP).choose(
            s.inner, s.current_player()
        )
        ours_time += time.perf_counter() - start
        rs = np.random.RandomState(i)
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), C, iterations, random_state=rs
        )
        bot.set_resampler(adapter.seeded_resampler(i))
        start = time.perf_counter()
        bot.step(s.clone())
        theirs_time += time.perf_counter() - start
    ours = len(states) * iterations / ours_time
    theirs = len(states) * iterations / theirs_time
    return {
        "figure": "iterations_per_second",
        "game": f"arne, {players} players",
        "positions": len(states),
        "iterations_per_decision": iterations,
        "ours": round(ours, 1),
        "openspiel": round(theirs, 1),
        "ratio": round(ours / theirs, 2),
        "goal": ">= 3",
        "met": ours / theirs >= 3,
    }


def duel(args: tuple[int, int, float]) -> dict[str, Any]:
    """One two-player game; ours sits in seat `index % 2`."""
    master, index, seconds = args
    game = pyspiel.load_game(
        "python_gamenight_arne", {"players": 2, "rng_seed": derive_seed(master, index) % 2**31}
    )
    ours_seat = index % 2
    ours = ISMCTSBot(seed=derive_seed(master, index, "ours"), seconds=seconds, c=C)
    ours.max_rollout = NO_CAP
    theirs = TimedOpenSpielISMCTS(game, seconds, derive_seed(master, index, "theirs") % 2**31)
    state = game.new_initial_state()
    inner = game.inner
    our_time = 0.0
    our_searches = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == ours_seat:
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                start = time.perf_counter()
                action = inner.action_index(ours.choose(state.inner, player))
                our_time += time.perf_counter() - start
                our_searches += 1
        else:
            action = theirs.step(state)
        state.apply_action(int(action))
    return {
        "payoff": state.returns()[ours_seat],
        "our_time": our_time,
        "our_searches": our_searches,
        "their_time": theirs.search_time,
        "their_searches": theirs.searched,
    }


def head_to_head(games: int, seconds: float, workers: int) -> dict[str, Any]:
    tasks = [(2026, i, seconds) for i in range(games)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(duel, tasks, chunksize=1)
    else:
        results = [duel(t) for t in tasks]
    score = sum(r["payoff"] for r in results)
    rate, low, high = wilson_fraction(score, games)
    ours_t = sum(r["our_time"] for r in results) / max(1, sum(r["our_searches"] for r in results))
    their_t = sum(r["their_time"] for r in results) / max(
        1, sum(r["their_searches"] for r in results)
    )
    return {
        "figure": "head_to_head",
        "game": "arne, 2 players, seats swapped every game",
        "games": games,
        "seconds_per_decision": seconds,
        "ours_mean_search_s": round(ours_t, 4),
        "openspiel_mean_search_s": round(their_t, 4),
        "ours_win_rate": round(rate, 3),
        "interval_95": [round(low, 3), round(high, 3)],
        "goal": "interval above 0.5",
        "met": low > 0.5,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for players in (2, 4):
        print(json.dumps(iteration_rates(players, args.iterations)), flush=True)
    print(json.dumps(head_to_head(args.games, args.seconds, args.workers)), flush=True)


if __name__ == "__main__":
    main()
