"""Random-playout speed of Drop or Stop against two blackjack anchors, in one run, and the
batched simulator against both the anchors and today's `simulate`.

Figures (one JSON line each, with goal and met / not met; see goals.py):

1. Actions per second of random play, 2 players, one process:
   - gamenight through the public contract (`state.act`, events, history, views intact);
     counted: decisions.
   - OpenSpiel's C++ blackjack through pyspiel, driven the fastest way its user would:
     blackjack's chance nodes are uniform over `legal_actions()` (every remaining card
     1/52 ... checked below), so a chance step is `rng.choice(state.legal_actions())`
     like a decision, no Python sampler over `chance_outcomes()`; counted: every applied
     action, chance steps (cards dealt) included, as OpenSpiel counts them.
   - RLCard's blackjack through its `env.step` API; counted: decisions.
   - the batched simulator (games/drop_or_stop/batched.py, random policy, 8,192 games in
     lockstep, every game replayable from (seed, history)); counted like OpenSpiel:
     decisions plus chance steps (every card drawn, dealt or dropped). Its decisions-only
     rate against OpenSpiel's decisions-only rate is printed beside, as context.
2. `simulate`'s games per second with its default bots (the threshold bot, 3 players, one
   worker): the engine path against the batched path (the same games, identical results,
   checked), both through `gamenight.sim.runner.run`.

Fairness: the measurements are interleaved in short rounds and each figure is the best
round (timeit's best-of), so load from other processes on this shared 2-core machine hits
every side alike; each side runs in this one process on one thread, timed by
`time.process_time` (this process's CPU time: waiting for a core while other engineers'
jobs run is not counted against any side). Goals: the contract
>= 0.4x fair OpenSpiel and >= 12x RLCard (issue 17, item 2); batched >= 1.5x fair OpenSpiel
and `simulate` batched >= 10x the engine path (item 3).
Usage: python bench/drop_or_stop.py [seconds]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import gamenight
from gamenight.games.drop_or_stop import batched
from gamenight.sim.runner import Job, run
from goals import figure, load_average

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
ROUNDS = 8
BATCH = 8192

Counts = tuple[int, int, float]  # (actions as counted, decisions, seconds)


def ours(seconds: float, rng: random.Random) -> Counts:
    game = gamenight.load("drop-or-stop", players=2)
    actions = 0
    seed = rng.randrange(1 << 30)
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.start(seed)
        seed += 1
        while state.actors:
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
            actions += 1
    return actions, actions, time.process_time() - start


def openspiel(seconds: float, rng: random.Random) -> Counts:
    import pyspiel

    game = pyspiel.load_game("blackjack")
    actions = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))  # chance is uniform
            actions += 1
    return actions, decisions, time.process_time() - start


def rlcard(seconds: float, rng: random.Random) -> Counts:
    import rlcard as rl

    env = rl.make("blackjack", config={"seed": rng.randrange(1 << 30)})
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
    return actions, actions, time.process_time() - start


def lockstep(seconds: float, rng: random.Random) -> Counts:
    game = gamenight.load("drop-or-stop", players=2)
    actions = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        first = rng.randrange(1 << 40)
        played = batched.play(game, range(first, first + BATCH), [batched.RandomPolicy()] * 2)
        actions += played.decisions + played.chance_steps
        decisions += played.decisions
    return actions, decisions, time.process_time() - start


def check_uniform_chance() -> bool:
    """Blackjack's chance outcomes are uniform over its legal actions (what `openspiel` uses)."""
    import pyspiel

    state = pyspiel.load_game("blackjack").new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if sorted(a for a, _ in outcomes) != sorted(state.legal_actions()):
                return False
            if max(p for _, p in outcomes) - min(p for _, p in outcomes) > 1e-12:
                return False
        state.apply_action(rng.choice(state.legal_actions()))
    return True


def simulate_rates(games: int) -> tuple[float, float, bool]:
    """`simulate`'s default Drop or Stop job on one worker: engine path, batched path."""
    seats = ("bot:threshold",) * 3
    rates = []
    outputs = []
    for way in (False, None):
        job = Job("drop-or-stop", (("players", 3),), seats, 7, way)
        count = games if way is False else games * 10
        start = time.process_time()
        outputs.append(run(job, count)[:games])
        rates.append(count / (time.process_time() - start))
    return rates[0], rates[1], outputs[0] == outputs[1]


def main() -> None:
    rng = random.Random(0)
    runners: dict[str, Callable[[float, random.Random], Counts]] = {
        "gamenight_drop_or_stop": ours,
        "openspiel_blackjack": openspiel,
        "rlcard_blackjack": rlcard,
        "batched_drop_or_stop": lockstep,
    }
    best: dict[str, tuple[float, float]] = dict.fromkeys(runners, (0.0, 0.0))
    for _ in range(ROUNDS):
        for name, measure in runners.items():
            actions, decisions, spent = measure(SECONDS / ROUNDS, rng)
            if actions / spent > best[name][0]:
                best[name] = (actions / spent, decisions / spent)
    load = load_average()
    for name, (rate, decisions) in best.items():
        figure(f"{name}_actions_per_s", value=round(rate), decisions_per_s=round(decisions))
    figure("openspiel_chance_is_uniform", goal="true", met=check_uniform_chance())
    fair = best["openspiel_blackjack"][0]
    contract = best["gamenight_drop_or_stop"][0]
    ratio = contract / fair
    figure("ratio_contract_openspiel", goal=">= 0.4", met=ratio >= 0.4, value=round(ratio, 2))
    ratio = contract / best["rlcard_blackjack"][0]
    figure("ratio_contract_rlcard", goal=">= 12", met=ratio >= 12, value=round(ratio, 2))
    ratio = best["batched_drop_or_stop"][0] / fair
    figure("ratio_batched_openspiel", goal=">= 1.5", met=ratio >= 1.5, value=round(ratio, 2))
    decisions_ratio = best["batched_drop_or_stop"][1] / best["openspiel_blackjack"][1]
    figure("ratio_batched_openspiel_decisions_only", value=round(decisions_ratio, 2))
    engine, lock, same = simulate_rates(300)
    figure("simulate_games_per_s", engine=round(engine), batched=round(lock))
    figure("simulate_batched_identical_results", goal="true", met=same)
    figure(
        "ratio_simulate_batched",
        goal=">= 10",
        met=lock / engine >= 10,
        value=round(lock / engine, 1),
    )
    figure("load_average", value=load)


if __name__ == "__main__":
    main()
