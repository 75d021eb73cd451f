"""`gamenight train GAME --self-play`: a league of the learner's own past policies.

A small PSRO-style population, as fictitious self-play runs it: generation g trains the one
MaskablePPO network further, for `steps` decisions, against opponents drawn afresh for
every episode and every seat from the league. Half the time a seat gets the newest
snapshot (self-play), otherwise one of the older snapshots or an anchor (fixed bots, by
default `random`), uniformly: the policy keeps beating what it was, not only what it is.
With `snapshots=False` (`--no-snapshots`) every seat gets an anchor: the network becomes a
best response to those bots (Drop or Stop's 2-player policy learns to beat `exact` so).
After each generation the network is frozen as a snapshot (`gen{g}.npz` in the league's
folder, played by its opponents sampled, not greedy, so the league stays varied) and
measured, greedy, against the `judge` bot over `judge_games` deals with the seats rotated:
its mean payoff per generation is the curve (`curve.json`, `curve.png`). The last
generation is written into `out` under `p{players}/`, as `gamenight train` writes.

With `imitate` (a bot, e.g. Arne's `greedy`) the network first learns that bot's moves,
supervised, from `imitate_decisions` of its decisions in games it plays against itself (the
policy by cross-entropy over the legal moves, the value by the seat's final payoff), as
AlphaStar's league starts from human play: PPO then improves a player that already plays,
instead of spending its first million decisions finding the rules' good moves by chance.

Everything is seeded from `seed` (the deals, the seats, the opponents drawn, the network's
initial weights and PPO's minibatches; torch on one thread), so a run is reproducible on
the same machine and library versions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.engine.core import BadInput
from gamenight.learn.train import (
    HIDDEN,
    LearnerSeat,
    _require,
    export,
    frames,
    new_model,
    snapshot_layers,
    write_layers,
)

SELF = 0.5  # the share of seats given to the newest snapshot


@dataclass
class Generation:
    """One point of the curve: the policy after `decisions` against `judge`."""

    generation: int
    decisions: int
    judge: str
    games: int
    mean_payoff: float  # the learner's seat, per game (payoffs are a game's own scale)
    interval: float  # 95% half-width over deals
    win_share: float  # the share of games where the learner's payoff was the best


class LeagueEnv(LearnerSeat):
    """The learner at a random seat against opponents drawn from the league each episode."""

    def __init__(
        self,
        game: str,
        players: int,
        anchors: Sequence[str],
        seed: int,
    ) -> None:
        from gamenight.adapters.gymnasium import GamenightEnv

        self.frame = frames(game, players)

        def make(seat: int, texts: list[str]) -> GamenightEnv:
            return GamenightEnv(game, texts, seat=seat, players=players, seat_frame=self.frame)

        self.make = make
        self.players = players
        self.anchors = list(anchors)
        self.snapshots: list[str] = []  # seated ones: none with --no-snapshots
        self.rng = random.Random(seed)
        self.use_spaces(self.make(0, [self.anchors[0]]))

    def opponent(self) -> str:
        if self.snapshots and self.rng.random() < SELF:
            return self.snapshots[-1]
        return self.rng.choice(self.anchors + self.snapshots[:-1] or self.anchors)

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        seat = self.rng.randrange(self.players)
        self.env = self.make(seat, [self.opponent() for _ in range(self.players - 1)])
        return self.begin(self.rng.getrandbits(31))


def judge(
    game: str, players: int, policy: Path, against: str, games: int, seed: int
) -> tuple[float, float, float]:
    """The policy (greedy) in one seat, `against` in the others, the seat rotating over
    deals: mean payoff, its 95% half-width over games, and the share of games it won."""
    from gamenight.bots import make_seat
    from gamenight.engine import load, play
    from gamenight.engine.seeds import derive_seed
    from gamenight.sim.runner import normal_interval

    table = load(game, players=players)
    payoffs, wins = [], 0.0
    for i in range(games):
        seat = i % players
        seats = [  # (every game its own bot seeds: Drop It deals nothing, so a game with
            # the same seeds is the same game, and 20 "games" were 2)
            make_seat(
                f"bot:learned?path={policy}" if s == seat else against,
                table,
                derive_seed(seed, "judge", i, s),
            )
            for s in range(players)
        ]
        state = play(table, seats, seed=seed * 100_003 + i)
        payoff = state.outcome().payoff
        payoffs.append(payoff[seat])
        best = max(payoff)
        if payoff[seat] == best:
            wins += 1 / sum(1 for p in payoff if p == best)  # a shared best shares the win
    mean, low, high = normal_interval(payoffs)
    return mean, (high - low) / 2, wins / games


def self_play(
    game: str,
    players: int,
    generations: int,
    steps: int,
    *,
    seed: int = 0,
    anchors: Sequence[str] = ("bot:random",),
    judge_bot: str = "bot:random",
    judge_games: int = 100,
    imitate: str | None = None,
    imitate_decisions: int = 20_000,
    imitate_rounds: int = 0,
    imitate_epochs: int = 6,
    hidden: Sequence[int] = HIDDEN,
    keep_best: bool = False,
    snapshots: bool = True,
    out: Path,
    on_progress: Callable[[int], None] | None = None,
    on_generation: Callable[[Generation], None] | None = None,
    on_imitation: Callable[[int, float], None] | None = None,
) -> list[Generation]:
    """Train by self-play (see the module docstring); the curve, one point per generation."""
    _, torch, _ = _require()
    from stable_baselines3.common.callbacks import BaseCallback

    if generations < 0 or steps < 1 or (generations == 0 and imitate is None):
        raise BadInput(
            "self-play needs at least one generation of at least one step (or --imitate)"
        )
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    league = out.parent / f"{out.stem}-league"
    league.mkdir(parents=True, exist_ok=True)
    env = LeagueEnv(game, players, anchors, seed)

    class Progress(BaseCallback):
        def _on_step(self) -> bool:
            if on_progress is not None:
                on_progress(1)
            return True

    # (PPO collects whole rollouts: a short run, a short one)
    model = new_model(env, seed, rollout=min(2048, max(steps, 1)), hidden=hidden)
    if imitate is not None:
        teach(
            model,
            game,
            players,
            imitate,
            imitate_decisions,
            seed,
            rounds=imitate_rounds,
            epochs=imitate_epochs,
            on_round=on_imitation,
        )
    curve: list[Generation] = []

    def freeze(g: int) -> None:
        """Generation g's snapshot joins the league and is judged: a point of the curve."""
        snapshot = (league / f"gen{g}.npz").resolve()
        snapshot.unlink(missing_ok=True)
        export(model, players, snapshot, env.frame)
        if snapshots:  # (without, it is still kept and judged, never seated)
            env.snapshots.append(f"bot:learned?path={snapshot}&greedy=false")
        mean, half, share = judge(game, players, snapshot, judge_bot, judge_games, seed + g)
        point = Generation(g, model.num_timesteps, judge_bot, judge_games, mean, half, share)
        curve.append(point)
        if on_generation is not None:
            on_generation(point)

    if imitate is not None:
        freeze(0)  # the clone, before any self-play
    for g in range(1, generations + 1):
        model.learn(total_timesteps=steps, callback=Progress(), reset_num_timesteps=False)
        freeze(g)
    if keep_best and curve:  # the judge's best generation, not the last (a run can decline)
        with np.load(league / f"gen{best_generation(curve)}.npz") as snapshot:
            write_layers(snapshot_layers(snapshot, players), players, out, env.frame)
    else:
        export(model, players, out, env.frame)
    (league / "curve.json").write_text(json.dumps([asdict(p) for p in curve], indent=1) + "\n")
    plot_curve(curve, f"{game}, {players} players: self-play", league / "curve.png")
    return curve


def best_generation(curve: Sequence[Generation]) -> int:
    """The generation that measured best against the judge (`keep_best` writes it)."""
    return max(curve, key=lambda p: p.mean_payoff).generation


def plot_curve(curve: Sequence[Generation], title: str, path: Path) -> None:
    """The learner's mean payoff against the judge, per generation, with its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    x = [p.decisions for p in curve]
    y = [p.mean_payoff for p in curve]
    ax.errorbar(x, y, yerr=[p.interval for p in curve], marker="o", capsize=3)
    ax.set_xlabel("decisions trained")
    ax.set_ylabel(f"mean payoff vs {curve[0].judge.removeprefix('bot:')}" if curve else "")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def demonstrations(
    game_name: str,
    players: int,
    teacher: str,
    decisions: int,
    seed: int,
    learner: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Games until `decisions` choices (of more than one legal move) are seen, each labelled
    with `teacher`'s move: observations (float16, to hold hundreds of thousands), masks,
    the teacher's action indices, and each decision's seat's final payoff. The teacher
    plays every seat; with `learner` (a network's layers), the learner plays them and the
    teacher only says what it would have done: DAgger's states, the ones the learner
    itself reaches."""
    from gamenight.adapters.gymnasium import GamenightEnv
    from gamenight.bots import make_seat
    from gamenight.learn.policy import Forward

    game = GamenightEnv(game_name, [teacher], players=players).game  # (bounded, as trained)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    seats_of: list[int] = []
    payoffs: list[float] = []
    forward = Forward(learner) if learner is not None else None
    deal = 0
    while len(acts) < decisions:
        bots = [make_seat(teacher, game, seed * 1009 + deal * 17 + s) for s in range(players)]
        state = game.start(seed * 7919 + deal)
        first = len(acts)
        while not state.over and len(acts) < decisions:
            seat = state.actors[0]
            legal = state.actions(seat)
            if len(legal) == 1:
                state.act(seat, legal[0])
                continue
            action = bots[seat].choose(state, seat)
            index = game.action_index(action)  # (an off-grid move: its nearest grid point)
            indices = [game.action_index(a) for a in legal]
            view = state.view(seat)
            frame = game.seat_frame(view)  # (a game with one learns in it, see `frames`)
            if frame is not None:
                x = frame.tensor()
                index = game.action_index(frame.to_frame(action))
                indices = [game.action_index(frame.to_frame(a)) for a in legal]
            else:
                x = game.encode(view)
            mask = np.zeros(game.num_actions, dtype=bool)
            mask[indices] = True
            if mask[index]:
                obs.append(x.astype(np.float16))
                masks.append(mask)
                acts.append(index)
                seats_of.append(seat)
            if forward is not None:
                scores = forward(x[: forward.first_rows.shape[0]].astype(np.float32), indices)
                action = legal[int(np.argmax(scores))]
            state.act(seat, action)
        final = state.outcome().payoff if state.over else [0.0] * players
        payoffs.extend(final[s] for s in seats_of[first:])
        deal += 1
    return (
        np.asarray(obs, dtype=np.float16),
        np.asarray(masks),
        np.asarray(acts, dtype=np.int64),
        np.asarray(payoffs, dtype=np.float32),
    )


def teach(
    model: Any,
    game: str,
    players: int,
    teacher: str,
    decisions: int,
    seed: int,
    *,
    rounds: int = 0,
    epochs: int = 6,
    on_round: Callable[[int, float], None] | None = None,
) -> float:
    """Behaviour cloning of `teacher` into the model's policy (and its value head):
    `epochs` of cross-entropy over the legal moves on the teacher's own games, then
    `rounds` of DAgger (Ross et al. 2011): the network plays `decisions` more choices
    itself, the teacher labels each, and it learns again from everything seen so far.
    Cloning alone learns the teacher's states but not the ones its own mistakes lead to;
    there a clone of Arne's greedy agreed with it on 80% of its moves against 89% on the
    teacher's. Returns the agreement on a held-out twentieth of the data."""
    import torch

    from gamenight.learn.train import layers_of

    parts = [demonstrations(game, players, teacher, decisions, seed)]
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    generator = torch.Generator().manual_seed(seed)
    accuracy = 0.0
    for round_ in range(rounds + 1):
        if round_:
            learner = layers_of(model)
            parts.append(demonstrations(game, players, teacher, decisions, seed + round_, learner))
        obs, masks, acts, payoffs = (np.concatenate(column) for column in zip(*parts, strict=True))
        tensors = [torch.as_tensor(x) for x in (obs, masks, acts, payoffs)]
        order = torch.randperm(len(acts), generator=generator)
        held, train = order[: len(acts) // 20], order[len(acts) // 20 :]
        for _epoch in range(epochs):
            for idx in train[torch.randperm(len(train), generator=generator)].split(256):
                o, m, a, v = (t[idx] for t in tensors)
                values, log_prob, _ = policy.evaluate_actions(o.float(), a, action_masks=m)
                loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), v)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        with torch.no_grad():
            o, m, a = tensors[0][held].float(), tensors[1][held], tensors[2][held]
            accuracy = float((policy.get_distribution(o, m.numpy()).mode() == a).float().mean())
        if on_round is not None:
            on_round(round_, accuracy)
    return accuracy
