"""The big run: N random Arne games for every player count 2..6 and every variant that exists
at that count, each played to the end without error.

Variants: normal, losing (mode), learning, dummy (2-5 players) and team (4 and 6 players);
a variant is skipped where `Options` refuses its player count. Every game plays random legal
decisions (`state.actions(state.actors[0])`, one RNG per game seeded by its number) and must
end (`state.over`) within `game.max_decisions`, with a well-formed `state.outcome()`.
Games are shared between 2 worker processes in chunks. Prints one JSON line per (players,
variant) with games, errors, seconds (worker time spent on those games) and the mean number
of decisions; then one line with the totals and the wall time.

Usage: python bench/arne_soak.py [games per combination, default 10000]
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
import time
import traceback
from typing import Any

import gamenight
from gamenight.games.arne.variants import VARIANTS, combinations

PLAYERS = range(2, 7)
CHUNK = 250
WORKERS = 2


def outcome_problem(state: Any) -> str | None:
    """Why `state.outcome()` is not well formed, or None."""
    n = state.game.players
    out = state.outcome()
    if out.truncated:
        return "outcome is truncated"
    if len(out.scores) != n or len(out.ranks) != n or len(out.payoff) != n:
        return f"outcome has the wrong length: {out}"
    if list(out.scores) != list(state.totals):
        return f"outcome scores {out.scores} are not the totals {state.totals}"
    if not out.winners or set(out.winners) != {p for p in range(n) if out.ranks[p] == 1}:
        return f"winners {out.winners} do not match ranks {out.ranks}"
    best = min(out.scores) if state.game.losing else max(out.scores)
    if {out.scores[p] for p in out.winners} != {best}:
        return f"winners {out.winners} do not hold the best score {best}: {out.scores}"
    if not all(1 <= r <= n for r in out.ranks) or not all(0 <= x <= 1 for x in out.payoff):
        return f"ranks or payoffs out of range: {out}"
    if abs(sum(out.payoff) - n / 2) > 1e-9:
        return f"payoffs {out.payoff} do not add up to {n / 2}"
    json.dumps(out.to_json())
    return None


def play_one(game: Any, seed: int) -> tuple[int, str | None]:
    """One random game: (decisions, problem or None)."""
    state = game.start(seed)
    rng = random.Random(seed)
    limit = game.max_decisions
    while not state.over:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
        if len(state.history) > limit:
            return len(state.history), f"ran past max_decisions = {limit}"
    return len(state.history), outcome_problem(state)


def run_chunk(task: tuple[int, str, int, int]) -> dict[str, Any]:
    players, variant, first, count = task
    game = gamenight.load("arne", players=players, **VARIANTS[variant])
    errors = 0
    first_error = None
    decisions = 0
    start = time.perf_counter()
    for seed in range(first, first + count):
        try:
            made, problem = play_one(game, seed)
            decisions += made
        except Exception:  # every failure is counted and the first one shown
            problem = traceback.format_exc(limit=3)
        if problem is not None:
            errors += 1
            if first_error is None:
                first_error = f"seed {seed}: {problem}"
    return {
        "players": players,
        "variant": variant,
        "games": count,
        "errors": errors,
        "first_error": first_error,
        "decisions": decisions,
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    combos = combinations(PLAYERS)
    tasks = [
        (n, v, first, min(CHUNK, games - first))
        for n, v in combos
        for first in range(0, games, CHUNK)
    ]
    totals: dict[tuple[int, str], dict[str, Any]] = {}
    done: dict[tuple[int, str], int] = dict.fromkeys(combos, 0)
    start = time.perf_counter()
    all_errors = 0
    with multiprocessing.get_context("spawn").Pool(WORKERS) as pool:
        for part in pool.imap_unordered(run_chunk, tasks):
            key = (part["players"], part["variant"])
            row = totals.setdefault(
                key, {"games": 0, "errors": 0, "first_error": None, "decisions": 0, "seconds": 0.0}
            )
            for field in ("games", "errors", "decisions", "seconds"):
                row[field] += part[field]
            row["first_error"] = row["first_error"] or part["first_error"]
            done[key] += part["games"]
            if done[key] == games:
                all_errors += row["errors"]
                line: dict[str, Any] = {
                    "players": key[0],
                    "variant": key[1],
                    "games": row["games"],
                    "errors": row["errors"],
                    "seconds": round(row["seconds"], 1),
                    "mean_decisions": round(row["decisions"] / max(1, row["games"]), 1),
                }
                if row["first_error"]:
                    line["first_error"] = row["first_error"]
                print(json.dumps(line), flush=True)
    print(
        json.dumps(
            {
                "total_games": games * len(combos),
                "combinations": len(combos),
                "errors": all_errors,
                "wall_seconds": round(time.perf_counter() - start, 1),
            }
        ),
        flush=True,
    )
    sys.exit(1 if all_errors else 0)


if __name__ == "__main__":
    main()
