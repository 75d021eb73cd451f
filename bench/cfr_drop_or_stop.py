"""Exploitability of Drop or Stop bots and of CFR on a small Drop or Stop, explicit chance.

    PYTHONPATH=src python bench/cfr_drop_or_stop.py [--iterations 30] [--target 4]

The game: 2 players, one hidden card each, a three-kind deck (13 cards each of 1, 2 and 3),
`target` as given, one round decides (wins_to_win=1, max_rounds=1), no drawing once over.
Every card is a chance node (chance=explicit), so OpenSpiel's exploitability is exact.
Prints one JSON line per policy: the exploitability (zero-sum payoffs, in [0, 2]); 0 is
an equilibrium; `note` says what the policy is. Then CFR's exploitability after each
reported iteration count.

A bot's policy (`BotPolicy`, adapters/policies.py) puts probability 1 on the bot's pick,
the bot made afresh with seed 0 at every state: a pure policy. So `bot:random` is not the
uniform policy but one fixed pick per state (random.Random(0) takes the second of two legal
actions: it always stops when it may drop); the `uniform` line is every legal action
equally likely (OpenSpiel's UniformRandomPolicy, the same as `cfr@1`).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import pyspiel
from open_spiel.python import policy as spiel_policies
from open_spiel.python.algorithms import cfr, exploitability

import gamenight.adapters.openspiel  # noqa: F401 (registers the games)
from gamenight.adapters.policies import spiel_policy

DECK = {"deck": [{"id": f"D{v}", "kind": "fixed", "value": v, "copies": 13} for v in (1, 2, 3)]}

# The policies measured, in order: name -> what it is (printed as `note`).
POLICIES = {
    "bot:random": "pure: bot:random seeded 0 at every state picks the 2nd legal action (always"
    " stops when it may drop); not the uniform policy",
    "uniform": "every legal action equally likely (OpenSpiel UniformRandomPolicy; = cfr@1)",
    "bot:threshold": "pure: the threshold bot's pick",
    "bot:threshold?stop_at=3": "pure: the threshold bot's pick, stop_at=3",
    "bot:exact": "pure: the exact bot's pick",
}


def small_game(deck: str, target: int) -> pyspiel.Game:
    return pyspiel.load_game(
        "python_gamenight_drop_or_stop",
        {
            "players": 2,
            "chance": "explicit",
            "reward": "zero_sum",
            "first_start_seat": 0,
            "hand_size": 1,
            "target": target,
            "wins_to_win": 1,
            "max_rounds": 1,
            "allow_drop_when_overflowed": False,
            "deck": deck,
        },
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--target", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "three-kinds.json"
        deck.write_text(json.dumps(DECK))
        game = small_game(str(deck), args.target)
        for text, note in POLICIES.items():
            start = time.perf_counter()
            measured = (
                spiel_policies.UniformRandomPolicy(game)
                if text == "uniform"
                else spiel_policy(game, text)
            )
            value = exploitability.exploitability(game, measured)
            print(
                json.dumps(
                    {
                        "policy": text,
                        "exploitability": round(value, 4),
                        "seconds": round(time.perf_counter() - start, 1),
                        "note": note,
                    }
                ),
                flush=True,
            )
        solver = cfr.CFRSolver(game)
        start = time.perf_counter()
        for i in range(1, args.iterations + 1):
            solver.evaluate_and_update_policy()
            if i in (1, 2, 5, 10, 20, 30, 50, 100) or i == args.iterations:
                value = exploitability.exploitability(game, solver.average_policy())
                print(
                    json.dumps(
                        {
                            "policy": f"cfr@{i}",
                            "exploitability": round(value, 4),
                            "seconds": round(time.perf_counter() - start, 1),
                        }
                    ),
                    flush=True,
                )


if __name__ == "__main__":
    main()
