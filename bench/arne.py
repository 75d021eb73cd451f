"""Random-playout speed of Arne (2, 4 and 6 players) against RLCard's Uno, in one run.

Prints one JSON line per figure: full games per second and actions per second for
gamenight's Arne with 2, 4 and 6 players (default options, random legal decisions through
the public contract: `state.actions(seat)` and `state.act(seat, action)` for `actors[0]`),
and actions per second for RLCard's Uno (random legal actions, every `env.step` counted);
then the ratio Arne / Uno of actions per second for each player count. The measurements
are interleaved in short rounds and each figure is its best round (like timeit's
best-of), so that load from other processes on this shared 2-core machine hits all of them
alike. Goal: each ratio >= 2.

Usage: python bench/arne.py [seconds per figure, default 3]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import gamenight
from goals import figure, load_average

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
ROUNDS = 10
PLAYERS = (2, 4, 6)

Runner = Callable[[float, random.Random], tuple[int, int, float]]


def arne(players: int) -> Runner:
    game = gamenight.load("arne", players=players)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        games = actions = 0
        seed = rng.randrange(1 << 30)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.start(seed)
            seed += 1
            while not state.over:
                seat = state.actors[0]
                state.act(seat, rng.choice(state.actions(seat)))
                actions += 1
            games += 1
        return games, actions, time.perf_counter() - start

    return run


def uno() -> Runner:
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        env.seed(rng.randrange(1 << 30))
        games = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                actions += 1
            games += 1
        return games, actions, time.perf_counter() - start

    return run


def main() -> None:
    rng = random.Random(0)
    runners: dict[str, Runner] = {f"arne_{n}p": arne(n) for n in PLAYERS}
    runners["rlcard_uno"] = uno()
    games = dict.fromkeys(runners, 0.0)
    actions = dict.fromkeys(runners, 0.0)
    for _ in range(ROUNDS):
        for name, run in runners.items():
            g, a, spent = run(SECONDS / ROUNDS, rng)
            games[name] = max(games[name], g / spent)
            actions[name] = max(actions[name], a / spent)
    for name in runners:
        figure(f"{name}_games_per_s", value=round(games[name], 1))
        figure(f"{name}_actions_per_s", value=round(actions[name]))
    anchor = actions["rlcard_uno"]
    for n in PLAYERS:
        ratio = actions[f"arne_{n}p"] / anchor
        figure(f"ratio_arne_{n}p_uno_actions", goal=">= 2", met=ratio >= 2, value=round(ratio, 2))
    figure("load_average", value=load_average())


if __name__ == "__main__":
    main()
