"""Which ISMCTS settings choose better moves in Arne, scored move by move by an oracle.

A cheaper screen than games against OpenSpiel at 1 s a decision (a 40-game screen at 4
players takes an hour of both cores and tells apart only large differences). Positions come
from greedy self-play (each decision with a real choice kept with probability 3%, so they
spread over the game); at each, every named setting chooses with the same time budget.
Where their choices differ, the oracle values each chosen move: greedy's rollout bot
(RolloutBot) with `horizon` lifted, so the table plays greedy in every seat to the end of
the game, on the same `samples` determinizations for every move (common random numbers).
Printed: each setting's mean oracle value over the positions (0 where all settings agree),
and each setting's difference to the first with its 95% interval over positions.

What the oracle cannot see: it scores a move by greedy's continuation, not by the
continuation strong players (or OpenSpiel's search) would play, so a setting that plays
toward greedy's futures (rollouts to the end) is favoured by construction. A difference
here is a reason to spend a planned tournament on a setting, not a result.

Stop 32 (2026-12-03, load 2.0, 150 positions at 4 players, 1 s, 300 samples): settings
cut at 20 (Arne's), 40, 60 and greedy rollouts to the end chose differently from the cut at
20 in 40, 55 and 96 of 150 positions, yet the oracle valued them alike: +0.0007 +- 0.0033,
-0.0011 +- 0.0038, -0.0013 +- 0.0041 per decision. So the horizon moves the choice a lot
and its value little; at ~1,500 iterations a decision the root has settled (its best
child holds 60-80% of the visits), so more iterations (tree reuse) would not move it
either. The resolution (0.004 per decision, about 0.2 over a game's ~50 choices) is too
coarse to call the settings equal in play.

Usage: python bench/ismcts_oracle.py [--positions 150] [--seconds 1] [--samples 300]
       [--settings '{"cut20": {}, "cut60": {"max_rollout": "60"}}'] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
from typing import Any

import gamenight
from gamenight.bots import make
from gamenight.engine.core import Game, State
from gamenight.games.arne.bots import GreedyBot, RolloutBot

KEEP = 0.03  # share of greedy's real choices kept as positions
C = "0.7"


def position(index: int, players: int) -> tuple[Game, State, int]:
    """A position of greedy self-play, seeded by its index, where the mover has a choice."""
    game = gamenight.load("arne", players=players)
    rng = random.Random(index)
    bots = [GreedyBot(index * 10 + s) for s in range(players)]
    state = game.start(5000 + index)
    while state.actors:
        seat = state.actors[0]
        if len(state.actions(seat)) > 1 and rng.random() < KEEP:
            return game, state, seat
        state.act(seat, bots[seat].choose(state, seat))
    return position(index + 100_000, players)  # a game without a kept choice: another deal


def score(job: tuple[int, int, str, int, dict[str, dict[str, Any]]]) -> dict[str, float]:
    """Each setting's chosen move at one position, valued by the oracle."""
    index, players, seconds, samples, settings = job
    game, state, seat = position(index, players)
    key = game.action_index
    chosen = {}
    for name, overrides in settings.items():
        params: dict[str, Any] = {"seed": str(index), "seconds": seconds, "c": C, **overrides}
        bot = make("ismcts", game, **params)
        chosen[name] = key(bot.choose(state, seat))
    distinct = sorted(set(chosen.values()))
    if len(distinct) == 1:
        return dict.fromkeys(settings, 0.0)
    legal = {key(a): a for a in state.actions(seat)}
    oracle = RolloutBot(seed=index, samples=samples, horizon=10**6)
    totals = oracle.values(state, seat, [legal[k] for k in distinct])
    value = {k: t / samples for k, t in zip(distinct, totals, strict=True)}
    return {name: value[k] for name, k in chosen.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", default="1")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--settings",
        default='{"cut20": {}, "cut60": {"max_rollout": "60"}}',
        help="JSON: name -> ISMCTS overrides; the first is the one compared against",
    )
    args = parser.parse_args()
    settings: dict[str, dict[str, Any]] = json.loads(args.settings)
    jobs = [
        (i, args.players, args.seconds, args.samples, settings)
        for i in range(args.first, args.first + args.positions)
    ]
    with multiprocessing.Pool(args.workers) as pool:
        rows = pool.map(score, jobs, chunksize=1)
    names = list(settings)
    for name in names:
        print(f"{name}: mean oracle value {statistics.fmean(r[name] for r in rows):.4f}")
    for name in names[1:]:
        diff = [r[name] - r[names[0]] for r in rows]
        half = 1.96 * statistics.stdev(diff) / len(diff) ** 0.5
        moved = sum(d != 0 for d in diff)
        print(
            f"{name} - {names[0]}: {statistics.fmean(diff):+.4f} +- {half:.4f} per decision; "
            f"a different value in {moved} of {len(diff)} positions"
        )


if __name__ == "__main__":
    main()
