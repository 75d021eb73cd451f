"""Drop or Stop at 2 players, solved: exploitability of every shipped bot, CFR speed against
OpenSpiel's C++ CFR, and the equilibrium bot against every bot.

    PYTHONPATH=src python bench/equilibrium.py [--deals 300] [--skip game,bots,speed,play]
    PYTHONPATH=src python bench/equilibrium.py --players 3,4 [--play-deals 1000]

What is measured (one JSON line per figure, each with its goal; bench/goals.py):

- `equilibrium_nash_conv`: the shipped policy (equilibrium.npz) in the full game as it
  was solved (standard deck, target 11, 3 round wins; every round dealt from a full deck,
  see equilibrium.py): the sum over both seats of what an exact best response gains over
  the game's constant sum 1, answering best in every later round too (backward over the
  round wins). The best response sees every card in order (exact_response.py), so the
  figure is an upper bound on the policy's loss in that game. `exploitability` is half of
  it: what a best responder gains on average per seat, in win probability. Also per
  context (a, b) = (start seat's round wins, the other's).
- `round1_nash_conv` for every shipped bot (threshold, exact, learned, equilibrium): the
  first round of the real game (a full deck: R5), exact, the round's four results valued
  by the solved game's values of what follows (so a bot that wins rounds but not games
  pays for it); the bots are asked through the engine, the very `choose` they play with.
- `cfr_nodes_per_second`: histories (public node x joint hand) our numpy DCFR walks per
  second, per iteration two walks (one per seat) over the whole tree, against OpenSpiel's
  C++ `CFRSolver` (two walks per iteration, every node counted, chance nodes too) on
  liars_dice(1 die), measured in the same run; ours on the round of target 5 (748,377
  histories, nearest in size) and on the standard round (97 million, no C++ game of that
  size fits a tabular CFR here).
- `equilibrium_vs_<bot>` and `exact_vs_<bot>`: mean payoff over deals played twice with the
  seats swapped, with its 95% interval over deals; `hard_level` says whether the
  equilibrium is at least as strong as `exact` against every shipped bot.

At 3 and 4 players (`--players 3,4`; exact_response_multi.py; a round valued by
`--valuation`, default round_share: a seat's share of the round win, R19; every seat
playing the same shipped bot, the standard deck, target 11, the real first round dealt
from a full deck, seat 0 starting):

- `round1_gain_from_play_<n>p_<bot>` (sampled, every bot and player count of
  `--play-players`, default 3,4): a lower bound on what one seat gains by deviating alone.
  Every seat in turn deviates to each of a few other bots (threshold variants, the other
  shipped bot); on the first half of the deals the best one per seat is picked, on the
  second half its gain is measured, paired with the bot's own play of the same deal, with
  its 95% interval: an exact best response gains at least that much (up to the interval).
- `round1_exploitability_<n>p_<bot>` (exact, opt-in: `--exact-players 3`): every seat's
  gain by deviating alone to an exact best response in the real first round (cards in
  order, the others asked through the engine), minus its payoff playing the bot; `value`
  is their mean (exploitability per seat), `nash_conv` their sum; with the sizes (deals,
  histories walked, round ends scored, bot decisions asked). Before it
  `round1_profile_<n>p` (every seat's payoff when all play the bot), and one
  `round1_seat_gain_<n>p` line per seat as it is found. Out of reach on this machine so
  far: on 2026-12-06 the first of the four walks at 3 players (`threshold`, the profile's
  own) met 900,000 public histories, scored 3.07 million round ends and asked the bot 2.65
  million times in 38 minutes (9 CPU minutes, load 7-13) without finishing; see
  bench/results/README.md.
- `round1_walk_probe_<n>p_<bot>` (opt-in: `--probe-players 4`, `--probe-seconds`): how
  far the profile's own walk gets in that time: histories, bot decisions asked,
  first-move subtrees finished.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import gamenight
from gamenight.bots import make_seat
from gamenight.engine import play
from gamenight.games.drop_or_stop.cfr import RoundSolver, contexts, utilities
from gamenight.games.drop_or_stop.equilibrium import EquilibriumBot, solved, table
from gamenight.games.drop_or_stop.exact_response import (
    BotPolicy,
    TablePolicy,
    best_response,
    exact_bot_reads,
    game_best_responses,
    rows_between,
)
from gamenight.games.drop_or_stop.exact_response_multi import (
    ENGINE_PAYOFF,
    ROUND_SHARE,
    Round,
    Walk,
    bot_profile,
)
from gamenight.games.drop_or_stop.round_tree import OTHER, START, RoundTree, Rules
from gamenight.sim.runner import normal_interval
from goals import figure, load_average

# `exact` is left out of the exhaustive walk: a decision takes it 30-70 ms here, and a
# best response asks about a million (node, hand) pairs (threshold's took 750,000); its
# figure is the lower bound from play (`exact_exploitability_from_play`).
BOTS = ("threshold", "learned", "equilibrium")
GOAL_EPSILON = 0.005  # a best responder's mean gain per seat, in win probability


def solved_values(policy: Any) -> dict[tuple[int, int], float]:
    order = sorted(policy.contexts, key=policy.contexts.get)
    return {c: float(v) for c, v in zip(order, policy.game_values, strict=True)}


# -- the equilibrium in the full game -------------------------------------------------------
def full_game(policy: Any, wins_to_win: int) -> None:
    game = gamenight.load("drop-or-stop", players=2)
    solved_tree = RoundTree(Rules.of(game))
    tree = RoundTree(Rules.of(game), prune=False)
    rows = rows_between(tree, solved_tree)
    policies = {}
    for context in contexts(wins_to_win):
        answered = TablePolicy(table(policy, context), rows)
        policies[context] = (answered, answered)
    start = time.perf_counter()
    visited = [0]

    def seen(a: int, b: int, role: int, value: float, count: int) -> None:
        visited[0] += count

    best = game_best_responses(tree, policies, wins_to_win, passes=3, on_round=seen, workers=2)
    values = solved_values(policy)
    for context in contexts(wins_to_win):
        a, b = context
        conv = best[(a, b, START)] + best[(a, b, OTHER)] - 1.0
        figure(
            "equilibrium_nash_conv_context",
            context=list(context),
            value=round(conv, 5),
            start_seat_value=round(values[context], 4),
            best_as_start_seat=round(best[(a, b, START)], 5),
            best_as_other_seat=round(best[(a, b, OTHER)], 5),
        )
    conv = best[(0, 0, START)] + best[(0, 0, OTHER)] - 1.0
    figure(
        "equilibrium_nash_conv",
        goal=f"exploitability (nash_conv / 2) <= {GOAL_EPSILON} in the game solved "
        "(full game, every round from a full deck), by an exact best response",
        met=conv / 2 <= GOAL_EPSILON,
        value=round(conv, 5),
        exploitability=round(conv / 2, 5),
        game_value_start_seat=round(values[(0, 0)], 5),
        histories_visited=visited[0],
        seconds=round(time.perf_counter() - start, 1),
    )


# -- every bot in the real first round ------------------------------------------------------
class Chance:
    """The equilibrium bot asked for its probability of DROP rather than one draw."""

    def __init__(self, bot: EquilibriumBot) -> None:
        self.bot = bot

    def choose(self, state: Any, seat: int) -> float:
        return self.bot.solved.drop_chance(state.view(seat), self.bot.index)


def round_one(policy: Any, wins_to_win: int) -> dict[str, float]:
    game = gamenight.load("drop-or-stop", players=2, first_start_seat=0)
    tree = RoundTree(Rules.of(game), prune=False)
    u = utilities((0, 0), solved_values(policy), wins_to_win)
    found = {}
    for name in BOTS:
        start = time.perf_counter()
        sides = []
        for seat in (START, OTHER):
            reads = exact_bot_reads(tree, seat) if name == "exact" else None  # (if asked)

            def make(name: str = name) -> Any:
                bot = make_seat(f"bot:{name}", game, 0)
                return Chance(bot) if isinstance(bot, EquilibriumBot) else bot

            sides.append(BotPolicy(tree, game, seat, make, reads))
        best_s, _ = best_response(tree, START, sides[OTHER], u)
        best_o, _ = best_response(tree, OTHER, sides[START], u)
        conv = best_s + best_o - 1.0
        found[name] = conv
        figure(
            "round1_nash_conv",
            bot=name,
            value=round(conv, 5),
            exploitability=round(conv / 2, 5),
            best_as_start_seat=round(best_s, 5),
            best_as_other_seat=round(best_o, 5),
            bot_decisions_asked=sum(side.asked for side in sides),
            seconds=round(time.perf_counter() - start, 1),
        )
    others = [v for k, v in found.items() if k != "equilibrium"]
    figure(
        "round1_least_exploitable",
        goal="the equilibrium is the least exploitable shipped bot in the real first round",
        met=found["equilibrium"] <= min(others),
        value=round(found["equilibrium"], 5),
        next_best=round(min(others), 5),
    )
    return found


# -- speed ------------------------------------------------------------------------------------
def cfr_speed() -> None:
    import pyspiel

    game = gamenight.load("drop-or-stop", players=2)
    rules = Rules.of(game)
    ours = {}
    for label, target in (("target5", 5), ("standard", 11)):
        tree = RoundTree(dataclasses.replace(rules, target=target))
        solver = RoundSolver(tree)
        solver.set_utilities(np.asarray([1.0, 0.0, 0.5, 0.5]))
        solver.iterate(1)
        histories = len(tree.keys) * len(tree.joint)
        count, start = 0, time.perf_counter()
        while count < 2 or time.perf_counter() - start < 10:
            solver.iterate(1)
            count += 1
        ours[label] = (2 * histories * count / (time.perf_counter() - start), histories)
    anchor = pyspiel.load_game("liars_dice(numdice=1,dice_sides=6)")
    nodes = _count(anchor.new_initial_state())
    spiel = pyspiel.CFRSolver(anchor)
    spiel.evaluate_and_update_policy()
    count, start = 0, time.perf_counter()
    while count < 2 or time.perf_counter() - start < 10:
        spiel.evaluate_and_update_policy()
        count += 1
    theirs = 2 * nodes * count / (time.perf_counter() - start)
    figure(
        "cfr_nodes_per_second",
        goal="our DCFR walks more histories per second than OpenSpiel's C++ CFR on a game "
        "of about the same size",
        met=ours["target5"][0] >= theirs,
        value=round(ours["target5"][0]),
        histories=ours["target5"][1],
        anchor="OpenSpiel C++ CFRSolver on liars_dice(1 die)",
        anchor_value=round(theirs),
        anchor_histories=nodes,
        ratio=round(ours["target5"][0] / theirs, 2),
        standard_round=round(ours["standard"][0]),
        standard_histories=ours["standard"][1],
        standard_ratio=round(ours["standard"][0] / theirs, 2),
        load_average=load_average(),
    )


def _count(state: Any) -> int:
    if state.is_terminal():
        return 1
    moves = (
        [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    return 1 + sum(_count(state.child(a)) for a in moves)


# -- play -------------------------------------------------------------------------------------
def match(game: Any, mine: str, theirs: str, deals: int) -> tuple[float, float, float]:
    """`mine`'s mean payoff against `theirs`, each deal played twice with the seats
    swapped; the interval is over deals."""
    per_deal = []
    for deal in range(deals):
        seed = 7_000_000 + deal
        total = 0.0
        for me in (0, 1):
            texts = [theirs, theirs]
            texts[me] = mine
            seats = [make_seat(t, game, seed * 2 + s) for s, t in enumerate(texts)]
            total += play(game, seats, seed).outcome().payoff[me]
        per_deal.append(total / 2)
    return normal_interval(per_deal) if len(per_deal) > 1 else (per_deal[0],) * 3


def tournaments(deals: int) -> None:
    game = gamenight.load("drop-or-stop", players=2)
    rivals = ("random", "threshold", "learned", "exact")
    scores: dict[tuple[str, str], float] = {}
    low: dict[tuple[str, str], float] = {}
    for mine in ("equilibrium", "exact"):
        for theirs in rivals:
            if mine == theirs:
                continue
            start = time.perf_counter()
            mean, lo, hi = match(game, f"bot:{mine}", f"bot:{theirs}", deals)
            scores[(mine, theirs)], low[(mine, theirs)] = mean, lo
            figure(
                f"{mine}_vs_{theirs}",
                value=round(mean, 4),
                interval95=[round(lo, 4), round(hi, 4)],
                deals=deals,
                games=2 * deals,
                seconds=round(time.perf_counter() - start, 1),
            )
    head = scores[("equilibrium", "exact")]
    figure(
        "exact_exploitability_from_play",
        value=round(head - 0.5, 4),
        interval95=[round(low[("equilibrium", "exact")] - 0.5, 4), None],
        note="what the equilibrium, one strategy among all, gains per seat against exact in "
        "the real game: a best responder gains at least this (up to the interval)",
    )
    better = [
        t
        for t in ("random", "threshold", "learned")
        if scores[("equilibrium", t)] >= scores[("exact", t)]
    ]
    figure(
        "hard_level",
        goal="the equilibrium scores at least as well as exact against every shipped bot "
        "and at least 1/2 against exact (then it is the 2-player hard level)",
        met=head >= 0.5 and len(better) == 3,
        value=round(head, 4),
        at_least_as_well_as_exact_against=better,
    )


# -- 3 and 4 players ------------------------------------------------------------------------
VALUATIONS = {v.name: v for v in (ROUND_SHARE, ENGINE_PAYOFF)}


def certificate(players: int, name: str, valuation: Any) -> None:
    """The exact certificate of the profile where every seat plays `name`."""
    game = gamenight.load("drop-or-stop", players=players, first_start_seat=0)
    table = Round(Rules.of(game), players)
    profile = bot_profile(table, game, lambda seat: make_seat(f"bot:{name}", game, seat))
    start = time.perf_counter()

    def walked(responder: int | None) -> tuple[np.ndarray, Walk]:
        walk = Walk(table, profile, valuation, responder)
        walk.report = lambda w: print(  # progress, not a figure
            f"  {players}p {name} seat {responder}: {w.visited:,} histories, {w.ends:,} ends, "
            f"{sum(p.asked for p in profile):,} asked, {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        return walk.run(), walk

    own, walk = walked(None)
    histories, ends = walk.visited, walk.ends
    figure(
        f"round1_profile_{players}p",
        bot=name,
        valuation=valuation.name,
        value=[round(float(v), 5) for v in own],
        histories=walk.visited,
        round_ends=walk.ends,
        seconds=round(time.perf_counter() - start, 1),
    )
    best = []
    for seat in range(players):
        began = time.perf_counter()
        values, walk = walked(seat)
        found = float(values.sum())
        best.append(found)
        histories, ends = histories + walk.visited, ends + walk.ends
        figure(
            f"round1_seat_gain_{players}p",
            bot=name,
            seat=seat,
            valuation=valuation.name,
            value=round(found - float(own[seat]), 5),
            best=round(found, 5),
            own=round(float(own[seat]), 5),
            histories=walk.visited,
            round_ends=walk.ends,
            bot_decisions_asked=sum(p.asked for p in profile),
            seconds=round(time.perf_counter() - began, 1),
        )
    gains = [b - float(o) for b, o in zip(best, own, strict=True)]
    figure(
        f"round1_exploitability_{players}p_{name}",
        value=round(sum(gains) / players, 5),
        nash_conv=round(sum(gains), 5),
        gains=[round(g, 5) for g in gains],
        best=[round(b, 5) for b in best],
        own=[round(float(o), 5) for o in own],
        valuation=valuation.name,
        method="exact: a best response per seat in the real first round, cards in order, "
        "the other seats asked through the engine",
        deals=table.deals,
        tableaux=len(table.tableaux),
        histories=histories,
        round_ends=ends,
        bot_decisions_asked=sum(p.asked for p in profile),
        seconds=round(time.perf_counter() - start, 1),
        load_average=load_average(),
    )


def probe(players: int, name: str, valuation: Any, seconds: float) -> None:
    """How far the exact walk of the profile gets in `seconds` (where a full walk is out
    of reach): histories met, bot decisions asked, and how many of the first seat's first
    moves (STOP, then DROP per card kind) have their subtree done."""
    game = gamenight.load("drop-or-stop", players=players, first_start_seat=0)
    table = Round(Rules.of(game), players)
    profile = bot_profile(table, game, lambda seat: make_seat(f"bot:{name}", game, seat))
    deadline = time.perf_counter() + seconds
    done: list[Any] = []

    class Timed(Walk):
        def _decide(self, node: Any, reach: Any, history: Any) -> np.ndarray:
            if time.perf_counter() > deadline:
                raise TimeoutError
            value = super()._decide(node, reach, history)
            if len(history) == 1:
                done.append(history)
            return value

    walk = Timed(table, profile, valuation)
    start = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        walk.run()
    figure(
        f"round1_walk_probe_{players}p_{name}",
        value=len(done),
        of=1 + table.rules.kinds,
        meaning="first moves of seat 0 whose subtree the profile's exact walk finished",
        histories=walk.visited,
        round_ends=walk.ends,
        bot_decisions_asked=sum(p.asked for p in profile),
        deals=table.deals,
        dealt_multisets=len(table.combos),
        seconds=round(time.perf_counter() - start, 1),
        load_average=load_average(),
    )


def deviations(name: str) -> list[str]:
    """The bots a seat tries instead of `name` (every one a legal strategy)."""
    tried = [f"bot:threshold?stop_at={s}" for s in (6, 7, 9, 10, 11)]
    tried += ["bot:threshold?max_risk=0.3", "bot:threshold?max_risk=0.7"]
    tried += [f"bot:threshold?stop_at={s}&max_risk=0.7" for s in (10, 11)]
    tried.append("bot:learned" if name != "learned" else "bot:threshold")
    return [t for t in tried if t != f"bot:{name}"]


def gain_from_play(players: int, name: str, valuation: Any, deals: int) -> None:
    """A lower bound on each seat's gain from deviating: the best of `deviations(name)`
    picked on the first half of the deals and measured on the second, each deviating
    round paired with the bot's own round of the same deal (same shuffle, same seeds)."""
    game = gamenight.load("drop-or-stop", players=players, first_start_seat=0, max_rounds=1)
    tried = deviations(name)
    start = time.perf_counter()

    def share(texts: list[str], seed: int, seat: int | None = None) -> Any:
        bots = [make_seat(t, game, seed * players + s) for s, t in enumerate(texts)]
        winners = tuple(play(game, bots, seed).results[0]["winners"])
        pay = valuation.payoff(players, winners)
        return pay if seat is None else pay[seat]

    own = [share([f"bot:{name}"] * players, 9_000_000 + deal) for deal in range(deals)]
    half = deals // 2
    found = []
    for seat in range(players):
        rows = []
        for text in tried:
            texts = [f"bot:{name}"] * players
            texts[seat] = text
            rows.append([share(texts, 9_000_000 + deal, seat) for deal in range(deals)])
        picked = max(
            range(len(tried)),
            key=lambda i: sum(rows[i][d] - own[d][seat] for d in range(half)),
        )
        diffs = [rows[picked][d] - own[d][seat] for d in range(half, deals)]
        mean, lo, hi = normal_interval(diffs)
        found.append((tried[picked], mean, lo, hi))
    mean_gain = sum(f[1] for f in found) / players
    figure(
        f"round1_gain_from_play_{players}p_{name}",
        value=round(mean_gain, 4),
        per_seat=[
            {
                "seat": s,
                "deviation": d,
                "gain": round(m, 4),
                "interval95": [round(lo, 4), round(hi, 4)],
            }
            for s, (d, m, lo, hi) in enumerate(found)
        ],
        valuation=valuation.name,
        method="sampled lower bound: the best of the tried deviations (picked on half the "
        "deals), its paired gain over the other half",
        tried=tried,
        deals=deals,
        seconds=round(time.perf_counter() - start, 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--skip", default="", help="comma list of: game, bots, speed, play")
    parser.add_argument("--policy", default="", help="an equilibrium.npz other than the shipped")
    parser.add_argument("--players", default="2", help="comma list of 2, 3, 4")
    parser.add_argument("--bots", default="threshold,learned", help="3-4 players: the profiles")
    parser.add_argument("--exact-players", default="", help="3-4 players walked exactly")
    parser.add_argument("--play-players", default="3,4", help="3-4 players: bound from play")
    parser.add_argument("--play-deals", type=int, default=1000)
    parser.add_argument("--probe-players", default="", help="3-4 players: a timed walk")
    parser.add_argument("--probe-seconds", type=float, default=900)
    parser.add_argument("--valuation", default="round_share", choices=sorted(VALUATIONS))
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    counts = [int(n) for n in args.players.split(",") if n]
    for players in (n for n in counts if n > 2):
        valuation = VALUATIONS[args.valuation]
        for name in filter(None, args.bots.split(",")):
            if str(players) in args.exact_players.split(","):
                certificate(players, name, valuation)
            if str(players) in args.play_players.split(","):
                gain_from_play(players, name, valuation, args.play_deals)
            if str(players) in args.probe_players.split(","):
                probe(players, name, valuation, args.probe_seconds)
    if 2 not in counts:
        return
    policy = solved(args.policy or None)
    wins_to_win = policy.wins_to_win
    figure(
        "equilibrium_size",
        goal="the shipped policy file is under 2 MB",
        met=(Path(args.policy) if args.policy else _shipped()).stat().st_size < 2_000_000,
        value=(Path(args.policy) if args.policy else _shipped()).stat().st_size,
        contexts=len(policy.contexts),
        decision_nodes=len(policy.nodes),
        mixed_entries=int(((policy.policy > 0) & (policy.policy < policy.levels)).sum()),
    )
    if "speed" not in skip:
        cfr_speed()
    if "bots" not in skip:
        round_one(policy, wins_to_win)
    if "game" not in skip:
        full_game(policy, wins_to_win)
    if "play" not in skip:
        tournaments(args.deals)


def _shipped() -> Path:
    from gamenight.games.drop_or_stop.equilibrium import policy_path

    return policy_path()


if __name__ == "__main__":
    main()
