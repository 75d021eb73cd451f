"""Random-playout speed of Drop or Stop against two blackjack anchors, in one run.

Prints one JSON line per figure: actions per second for gamenight's Drop or Stop (2
players, random legal decisions through the public contract), OpenSpiel's C++ blackjack
driven from Python through pyspiel (chance steps counted as actions), and RLCard's
blackjack; then the two ratios. The measurements are interleaved in short rounds and each
figure is the best round (like timeit's best-of), so that load from other processes on
this 2-core machine hits all three alike. Goals: ratio_openspiel >= 1, ratio_rlcard >= 10.
"""

from __future__ import annotations

import json
import random
import sys
import time

import gamenight

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
ROUNDS = 10


def ours(seconds: float, rng: random.Random) -> tuple[int, float]:
    game = gamenight.load("drop-or-stop", players=2)
    actions = 0
    seed = rng.randrange(1 << 30)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.start(seed)
        seed += 1
        while state.actors:
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
            actions += 1
    return actions, time.perf_counter() - start


def openspiel(seconds: float, rng: random.Random) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("blackjack")
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            # Blackjack's chance is uniform over legal_actions(): sample it like a decision.
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions, time.perf_counter() - start


def rlcard(seconds: float, rng: random.Random) -> tuple[int, float]:
    import rlcard as rl

    env = rl.make("blackjack", config={"seed": rng.randrange(1 << 30)})
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    rng = random.Random(0)
    runners = {
        "gamenight_drop_or_stop": ours,
        "openspiel_blackjack": openspiel,
        "rlcard_blackjack": rlcard,
    }
    rates = dict.fromkeys(runners, 0.0)
    for _ in range(ROUNDS):
        for name, run in runners.items():
            count, spent = run(SECONDS / ROUNDS, rng)
            rates[name] = max(rates[name], count / spent)
    for name, rate in rates.items():
        print(json.dumps({"figure": f"{name}_actions_per_s", "value": round(rate)}))
    ours_rate = rates["gamenight_drop_or_stop"]
    print(
        json.dumps(
            {
                "figure": "ratio_openspiel",
                "value": round(ours_rate / rates["openspiel_blackjack"], 2),
                "goal": ">= 1",
            }
        )
    )
    print(
        json.dumps(
            {
                "figure": "ratio_rlcard",
                "value": round(ours_rate / rates["rlcard_blackjack"], 2),
                "goal": ">= 10",
            }
        )
    )


if __name__ == "__main__":
    main()
