"""Arne's `hard` seat against greedy in every other seat: its strength and its time per
decision, in one run (a probe for choosing settings; the figures of record come from
`gamenight tournament`, which does not time decisions).

Each deal is played `players` times with the hard seat rotated through every seat (like
the tournament's rotations), greedy seeded per seat elsewhere. Prints the hard seat's
mean payoff (= the share of greedy seats it finished ahead of, ties half) with a 95%
t-interval over games, and the wall and CPU time of each of its decisions (mean, p99, max;
only decisions with two or more legal actions, since one legal action is returned at
once; wall time includes waits for a busy CPU, this being niced), and the load average.

Usage: python bench/arne_hard_probe.py PLAYERS DEALS [SEAT TEXT, default hard] [FIRST DEAL]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

import gamenight
from gamenight.bots import make_seat
from gamenight.engine.core import Action, State
from gamenight.games.arne.bots import GreedyBot
from gamenight.sim.runner import normal_interval


class Timed:
    """A bot whose decisions are timed."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu: list[float] = []

    def choose(self, state: State, seat: int) -> Action:
        wide = len(state.actions(seat)) > 1
        start, cpu = time.perf_counter(), time.process_time()
        action: Action = self.bot.choose(state, seat)
        if wide:
            self.times.append(time.perf_counter() - start)
            self.cpu.append(time.process_time() - cpu)
        return action


def spread(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return f"mean {statistics.fmean(times):.3f}s p99 {p99:.3f}s max {times[-1]:.3f}s"


def main() -> None:
    players = int(sys.argv[1])
    deals = int(sys.argv[2])
    text = sys.argv[3] if len(sys.argv) > 3 else "hard"
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    game = gamenight.load("arne", players=players)
    payoffs: list[float] = []
    times: list[float] = []
    cpu: list[float] = []
    start = time.perf_counter()
    for deal in range(first, first + deals):
        for hard_seat in range(players):
            hard = Timed(make_seat(text, game, 1000 + deal))
            seats: list[Any] = [GreedyBot(deal * 10 + s) for s in range(players)]
            seats[hard_seat] = hard
            state = game.start(deal)
            while state.actors:
                seat = state.actors[0]
                state.act(seat, seats[seat].choose(state, seat))
            payoffs.append(state.outcome().payoff[hard_seat])
            times.extend(hard.times)
            cpu.extend(hard.cpu)
    n = len(payoffs)
    mean, low, high = normal_interval(payoffs)
    print(
        f"{players}p {text}: {n} games, ahead of greedy {mean:.1%} "
        f"[{low:.1%}-{high:.1%}]; {len(times)} decisions, "
        f"wall {spread(times)}, CPU {spread(cpu)}; over 1 s: {sum(t >= 1 for t in times)}; "
        f"{time.perf_counter() - start:.0f}s wall; load {os.getloadavg()[0]:.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
