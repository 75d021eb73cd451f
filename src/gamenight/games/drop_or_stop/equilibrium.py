"""The `equilibrium` bot: a solved policy for 2-player Drop or Stop (equilibrium.npz).

What was solved: the full 2-player game with the standard deck, target 11 and 3 round
wins to win (the defaults, spec §2.2-§2.3), as a sequence of rounds whose results are worth
what the game makes of them: a context is (round wins of the start seat, round wins of the
other), and in each context a round is a zero-sum game whose four outcomes (start seat
wins, other wins, both, nobody; R19-R21) are valued by the contexts they lead to (R23 moves
the start seat). Every context's round was solved by discounted CFR (cfr.py) on the public
tree of card multisets (round_tree.py), from the last context back to the first.

One simplification, stated where it matters: every round is solved as if dealt from a full,
freshly shuffled deck. In the real game later rounds are dealt from what is left (R22), and
a card counter knows more; the policy does not use it. Round 1 is exactly the real one.

The shipped file holds, per context and decision node, P(DROP) for each hand the mover
can hold there, in steps of 1/16, kept only where the bot's own earlier choices can bring
it (elsewhere 0: it never gets there); where they bring it with a chance below 1e-2 (its
deal, its cards and its own choices together) it takes its likelier action only. Both
roundings cost the bot a little and make its exact best response (the certificate,
bench/equilibrium.py) a walk of minutes rather than days: the figures are for the file as
shipped. Regenerate it with

    python -m gamenight.games.drop_or_stop.equilibrium solve [--iterations 80]

(about an hour of one core); bench/equilibrium.py measures what it ships.
"""

from __future__ import annotations

import functools
import importlib.resources
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.engine.core import Action, BadInput, Game, State
from gamenight.games.drop_or_stop.actions import DROP, STOP
from gamenight.games.drop_or_stop.round_tree import BOTH, O_ALONE, OTHER, S_ALONE, START

FILE = "equilibrium.npz"
LEVELS = 16  # P(DROP) is stored as k / 16 (a byte)
KEEP = 1e-2  # below this own reach an information set plays its likelier action only


def policy_path() -> Path:
    return Path(str(importlib.resources.files("gamenight.games.drop_or_stop"))) / FILE


class Solved:
    """The arrays of equilibrium.npz, with the lookups a seat needs."""

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        self.values = tuple(int(v) for v in arrays["values"])
        self.flex = tuple(bool(f) for f in arrays["flex"])
        self.copies = tuple(int(c) for c in arrays["copies"])
        self.ids = tuple(str(i) for i in arrays["ids"])
        self.target, self.hand_size, self.wins_to_win = (int(x) for x in arrays["settings"][:3])
        self.overflow_drop = bool(arrays["settings"][3])
        self.flex_values = (int(arrays["flex_values"][0]), int(arrays["flex_values"][1]))
        self.hands = {tuple(int(c) for c in h): i for i, h in enumerate(arrays["hands"])}
        self.tableaux = {tuple(int(c) for c in m): i for i, m in enumerate(arrays["tableaux"])}
        phase, ts, to = arrays["phase"], arrays["ts"], arrays["to"]
        self.nodes = {
            (int(p), int(a), int(b)): i
            for i, (p, a, b) in enumerate(zip(phase, ts, to, strict=True))
        }
        self.contexts = {(int(a), int(b)): i for i, (a, b) in enumerate(arrays["contexts"])}
        self.policy = arrays["policy"]  # (contexts, decisions, hands) uint8: k / levels
        self.levels = int(arrays["levels"][0])
        self.game_values = arrays["game_values"]

    def fits(self, game: Any) -> str | None:
        """Why this policy does not fit `game` (None: it does)."""
        kinds = game.deck.kinds
        if game.players != 2:
            return f"it is solved for 2 players, this table has {game.players}"
        rules = (
            tuple(k.value for k in kinds),
            tuple(k.flex for k in kinds),
            tuple(k.copies for k in kinds),
            tuple(k.id for k in kinds),
        )
        if rules != (self.values, self.flex, self.copies, self.ids):
            return "it is solved for the standard deck"
        options = game.options
        settings = (
            options.target,
            options.hand_size,
            options.wins_to_win,
            options.allow_drop_when_overflowed,
            tuple(game.flex_values),
        )
        solved = (
            self.target,
            self.hand_size,
            self.wins_to_win,
            self.overflow_drop,
            self.flex_values,
        )
        if settings != solved:
            return (
                f"it is solved for target {self.target}, hand size {self.hand_size}, "
                f"{self.wins_to_win} round wins, flex {list(self.flex_values)}"
            )
        return None

    def live(self, counts: tuple[int, ...]) -> bool:
        """Not certainly over (R32): the tableau's minimum plus the smallest hand fits."""
        smallest = sorted(
            v for v, c in zip(self.values, self.copies, strict=True) for _ in range(c)
        )
        visible = sum(c * v for c, v in zip(counts, self.values, strict=True))
        return visible <= self.target - sum(smallest[: self.hand_size])

    def drop_chance(self, view: Mapping[str, Any], index: Mapping[str, int]) -> float:
        """P(DROP) for the seat of `view` (to act) under the solved policy; 0 where the
        rules of the solved tree make it stop (round_tree.py's forced stops)."""
        start = view["start_seat"]
        other = 1 - start
        seats = view["seats"]
        kinds = len(self.values)

        def counts(ids: list[str]) -> tuple[int, ...]:
            out = [0] * kinds
            for cid in ids:
                out[index[cid]] += 1
            return tuple(out)

        mine_s, mine_o = counts(seats[start]["tableau"]), counts(seats[other]["tableau"])
        if not (self.live(mine_s) and self.live(mine_o)):
            return 0.0  # someone is certainly over: the mover cannot gain by drawing
        active = (seats[start]["active"], seats[other]["active"])
        phase = BOTH if all(active) else (S_ALONE if active[0] else O_ALONE)
        node = self.nodes.get((phase, self.tableaux[mine_s], self.tableaux[mine_o]))
        hand = self.hands.get(counts(view["hand"] or []))
        context = self.contexts.get((seats[start]["wins"], seats[other]["wins"]))
        if node is None or hand is None or context is None:
            return 0.0
        return float(self.policy[context, node, hand]) / self.levels


@functools.cache
def _solved(path: str, stamp: tuple[int, int]) -> Solved:
    try:
        with np.load(path, allow_pickle=False) as data:
            return Solved({k: data[k] for k in data.files})
    except (OSError, ValueError, KeyError) as err:
        raise BadInput(f"equilibrium policy {path} is not readable ({err})") from err


def solved(path: str | Path | None = None) -> Solved:
    """The shipped solved policy (or the file `path`); a missing file is one line."""
    where = Path(path) if path else policy_path()
    try:
        st = where.stat()
    except OSError:
        raise BadInput(
            f"equilibrium policy {where} not found; regenerate it with "
            "python -m gamenight.games.drop_or_stop.equilibrium solve"
        ) from None
    return _solved(str(where), (st.st_mtime_ns, st.st_size))


class EquilibriumBot:
    """Plays the solved policy (module docstring): DROP with the policy's probability for
    its hand and the public table, drawn from its own seeded generator. Reads only its
    view (§6): its hand, the tableaux, who is active, the round wins and the start seat."""

    quick = True  # a dictionary lookup a move

    def __init__(self, game: Game, seed: int = 0, path: str = "") -> None:
        self.solved = solved(path or None)
        problem = self.solved.fits(game)
        if problem:
            raise BadInput(f"bot equilibrium: {problem}; use bot:exact there")
        self.index = {k.id: i for i, k in enumerate(game.deck.kinds)}  # type: ignore[attr-defined]
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if DROP not in legal:
            return STOP
        chance = self.solved.drop_chance(state.view(seat), self.index)
        if chance <= 0.0:
            return STOP
        if chance >= 1.0:
            return DROP
        return DROP if self.rng.random() < chance else STOP


def role_of(view: Mapping[str, Any]) -> int:
    return START if view["seat"] == view["start_seat"] else OTHER


# -- making the file -------------------------------------------------------------------------
def export(
    solver: Any, solution: Any, wins_to_win: int, keep: float = KEEP
) -> dict[str, np.ndarray]:
    """The arrays of equilibrium.npz from a solved game (cfr.solve_game): each context's
    average policy in steps of 1/LEVELS, pure where its own reach is below `keep`, zero
    where the mover's own choices never lead."""
    tree = solver.tree
    rules = tree.rules
    order = sorted(solution.policies)
    policy = np.zeros((len(order), tree.decisions, len(tree.hands)), dtype=np.uint8)
    for c, context in enumerate(order):
        table = solution.policies[context]
        steps = np.rint(table * LEVELS).astype(np.uint8)
        pure = np.where(table > 0.5, LEVELS, 0).astype(np.uint8)
        for seat in (START, OTHER):
            solver._forward(table, leave_out=1 - seat)  # the seat's own reach, with chance
            for g in solver.groups:
                if g.mover != seat:
                    continue
                rows = slice(g.start, g.stop)
                reach = solver.reach[rows] @ g.onehot
                chosen = np.where(reach >= keep, steps[rows], pure[rows])
                policy[c, rows] = np.where(reach > 0, chosen, 0)
    d = tree.decisions
    return {
        "values": np.asarray(rules.values, dtype=np.int16),
        "flex": np.asarray(rules.flex, dtype=bool),
        "copies": np.asarray(rules.copies, dtype=np.int16),
        "ids": np.asarray(rules.ids),
        "settings": np.asarray(
            [rules.target, rules.hand_size, wins_to_win, int(rules.overflow_drop)], dtype=np.int16
        ),
        "flex_values": np.asarray(rules.flex_values, dtype=np.int16),
        "hands": np.asarray(tree.hands, dtype=np.uint8),
        "tableaux": np.asarray(tree.tableaux, dtype=np.uint8),
        "phase": tree.phase[:d].astype(np.uint8),
        "ts": tree.ts[:d].astype(np.uint16),
        "to": tree.to[:d].astype(np.uint16),
        "contexts": np.asarray(order, dtype=np.uint8),
        "policy": policy,
        "levels": np.asarray([LEVELS], dtype=np.int16),
        "game_values": np.asarray([solution.values[c] for c in order]),
    }


def table(solved_policy: Solved, context: tuple[int, int]) -> np.ndarray:
    """One context's policy as P(DROP) per (decision node, hand), as the bot plays it."""
    chosen = solved_policy.policy[solved_policy.contexts[context]]
    return chosen.astype(np.float64) / solved_policy.levels


def main(argv: list[str] | None = None) -> None:
    """`python -m gamenight.games.drop_or_stop.equilibrium solve [--iterations N]
    [--passes N] [--out FILE]`: solve and write the policy file."""
    import argparse
    import time

    import gamenight
    from gamenight.games.drop_or_stop.cfr import RoundSolver, solve_game
    from gamenight.games.drop_or_stop.round_tree import RoundTree, Rules

    parser = argparse.ArgumentParser(prog="python -m gamenight.games.drop_or_stop.equilibrium")
    parser.add_argument("command", choices=["solve"])
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--out", default=str(policy_path()))
    args = parser.parse_args(argv)
    game = gamenight.load("drop-or-stop", players=2)
    start = time.perf_counter()
    solver = RoundSolver(RoundTree(Rules.of(game)))

    def report(context: tuple[int, int], p: int, value: float, iterations: int) -> None:
        print(
            f"context {context} pass {p}: value {value:.5f} for the start seat after "
            f"{iterations} iterations ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )

    solution = solve_game(solver, game.options.wins_to_win, args.iterations, args.passes, report)
    arrays = export(solver, solution, game.options.wins_to_win)
    np.savez_compressed(args.out, **arrays)  # type: ignore[arg-type]
    size = Path(args.out).stat().st_size
    print(f"wrote {args.out} ({size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    main()
