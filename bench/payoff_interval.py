"""A bot's mean payoff over one or more `gamenight tournament --out FILE` runs, with 95%
intervals. For Arne's hard seat against greedy in every other seat this is the share of
greedy seats it finished ahead of (ties half), which the tournament's head-to-head table
gives per greedy seat only; at 2 players it is the head-to-head share itself.

Printed: the mean over games with the normal interval (1.96 standard errors) and Wilson's
(as the tournament's own table, a tie counted half); and the interval over deals, since a
tournament plays every deal once per seat rotation (the same group and game index: the
same shuffle), so the deal's luck cancels within a deal and the games are not independent.
Several files are pooled (runs with different --seed are different deals).

Usage: python bench/payoff_interval.py FILE [FILE ...] [--bot BOT, default hard]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path

from gamenight.sim.runner import normal_interval, wilson_fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--bot", default="hard")
    args = parser.parse_args()
    payoffs: list[float] = []
    deals: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    for f, path in enumerate(args.files):
        for game in json.loads(path.read_text())["games"]:
            for bot, payoff in zip(game["seats"], game["payoff"], strict=True):
                if bot == args.bot:
                    payoffs.append(payoff)
                    deals[(f, game["group"], game["index"])].append(payoff)
    if not payoffs:
        raise SystemExit(f"error: no seat of bot {args.bot!r} in {', '.join(map(str, args.files))}")
    n = len(payoffs)
    mean, lo, hi = normal_interval(payoffs)
    _, wlo, whi = wilson_fraction(sum(payoffs), n)
    by_deal = [statistics.fmean(v) for v in deals.values()]
    _, dlo, dhi = normal_interval(by_deal)
    print(
        f"{args.bot}: {n} games, mean payoff {mean:.1%} [{lo:.1%}-{hi:.1%}], "
        f"Wilson [{wlo:.1%}-{whi:.1%}]; over {len(by_deal)} deals [{dlo:.1%}-{dhi:.1%}]"
    )


if __name__ == "__main__":
    main()
