"""A bot's mean payoff in a `gamenight tournament --out FILE` run, with a 95% interval
over games (normal approximation, 1.96 standard errors): for Arne's hard seat against
greedy in every other seat this is the share of greedy seats it finished ahead of (ties
half), which the tournament's head-to-head table gives per greedy seat only.

Usage: python bench/payoff_interval.py FILE [BOT, default hard]
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text())
    bot = sys.argv[2] if len(sys.argv) > 2 else "hard"
    payoffs = [
        p
        for game in data["games"]
        for b, p in zip(game["seats"], game["payoff"], strict=True)
        if b == bot
    ]
    n = len(payoffs)
    mean = statistics.fmean(payoffs)
    half = 1.96 * statistics.stdev(payoffs) / math.sqrt(n)
    print(f"{bot}: {n} games, mean payoff {mean:.1%} [{mean - half:.1%}-{mean + half:.1%}]")


if __name__ == "__main__":
    main()
