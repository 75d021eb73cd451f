"""A bot's mean payoff over one or more `gamenight tournament --out FILE` runs, with 95%
intervals. For Arne's hard seat against greedy in every other seat this is the share of
greedy seats it finished ahead of (ties half), which the tournament's head-to-head table
gives per greedy seat only; at 2 players it is the head-to-head share itself.

Printed: the mean over games with the normal interval (1.96 standard errors) and Wilson's
(as the tournament's own table, a tie counted half); and the interval over deals, since a
tournament plays every deal once per seat rotation (the same group and game index: the
same shuffle), so the deal's luck cancels within a deal and the games are not independent.
Several files are pooled (runs with different --seed are different deals).

A game counts once: where the bot holds several seats (two bots on four seats), its value
is the mean of its seats' (it counted each seat, 400 "games" for 200). With `--against B`
the value is the tournament's head-to-head share instead: of the (bot seat, B seat) pairs,
the share where the bot finished ahead (ties half), so several runs' head-to-heads pool.

Usage: python bench/payoff_interval.py FILE [FILE ...] [--bot BOT, default hard] [--against B]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path

from gamenight.sim.runner import normal_interval, wilson_fraction
from gamenight.sim.tournament import ahead_share, seat_mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--against", default=None, help="head-to-head share against this bot")
    args = parser.parse_args()
    payoffs: list[float] = []
    deals: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    for f, path in enumerate(args.files):
        for game in json.loads(path.read_text())["games"]:
            seats = tuple(game["seats"])
            if args.bot not in seats or (args.against and args.against not in seats):
                continue
            if args.against:
                value = ahead_share(seats, game["payoff"], args.bot, args.against)
            else:
                value = seat_mean(seats, game["payoff"], args.bot)
            payoffs.append(value)
            deals[(f, game["group"], game["index"])].append(value)
    if not payoffs:
        who = args.bot + (f" with {args.against}" if args.against else "")
        raise SystemExit(f"error: no game of {who!r} in {', '.join(map(str, args.files))}")
    n = len(payoffs)
    mean, lo, hi = normal_interval(payoffs)
    _, wlo, whi = wilson_fraction(sum(payoffs), n)
    by_deal = [statistics.fmean(v) for v in deals.values()]
    _, dlo, dhi = normal_interval(by_deal)
    what = f"ahead of {args.against}" if args.against else "mean payoff"
    print(
        f"{args.bot}: {n} games, {what} {mean:.1%} [{lo:.1%}-{hi:.1%}], "
        f"Wilson [{wlo:.1%}-{whi:.1%}]; over {len(by_deal)} deals [{dlo:.1%}-{dhi:.1%}]"
    )


if __name__ == "__main__":
    main()
