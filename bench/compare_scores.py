"""Two ISMCTS settings compared on the same deals, from `bench/ismcts.py --out` files.

Every game of `bench/ismcts.py --duplicate` has a deal (game index // 2) played from both
sides; two settings run with the same --first, --players and --seconds meet the same deals.
The difference of their deal means cancels the deal's luck, so it tells two settings apart
with far fewer games than two separate intervals against OpenSpiel do.

Usage: python bench/compare_scores.py SCORES.jsonl --players 4 --seconds 0.1 \
           --a "" --b "paired=true"
(--a and --b are the --ours texts of the two runs; "" is the game's own settings.)
Prints one line: deals in common, each setting's mean there, and the difference with its
95% interval over deals (normal approximation: mean +- 1.96 standard errors).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path
from urllib.parse import parse_qsl

from gamenight.sim.runner import normal_interval


def deal_means(rows: list[dict], players: int, seconds: float, ours: dict) -> dict[int, float]:
    scores: dict[int, list[float]] = defaultdict(list)
    for row in rows:
        if row["players"] == players and row["seconds"] == seconds and row["ours"] == ours:
            scores[row["game"] // 2].append(row["score"])
    return {deal: sum(s) / len(s) for deal, s in scores.items() if len(s) == 2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scores", type=Path)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--a", default="", help="the first run's --ours text")
    parser.add_argument("--b", default="", help="the second run's --ours text")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.scores.read_text().splitlines() if line.strip()]
    a = deal_means(rows, args.players, args.seconds, dict(parse_qsl(args.a)))
    b = deal_means(rows, args.players, args.seconds, dict(parse_qsl(args.b)))
    common = sorted(a.keys() & b.keys())
    if len(common) < 2:
        raise SystemExit(f"only {len(common)} deal(s) played by both settings; need 2 or more")
    diffs = [b[d] - a[d] for d in common]
    mean, low, high = normal_interval(diffs)
    print(
        f"{len(common)} deals: a {statistics.fmean(a[d] for d in common):.3f}, "
        f"b {statistics.fmean(b[d] for d in common):.3f}, "
        f"b - a {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
    )


if __name__ == "__main__":
    main()
