"""Gymnasium single-agent environments: one learning seat, the other seats played by bots.

    from gamenight.adapters.gymnasium import make
    env = make("drop-or-stop", opponents=["bot:threshold", "bot:random"])
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(action)

- `opponents` are seat texts as on the command line (`bot`, `bot:NAME`, `bot:NAME?p=v`),
  one per other seat; `seat` is the learner's seat (default 0). Without `players` in the
  options the game has `len(opponents) + 1` seats (`["bot:threshold"]` is a two-player
  game); with `players` given, one text may also stand for all the other seats.
  Bots are built with `gamenight.bots.make_seat` and seeded from the episode's seed.
- The observation is `{"observation": game.encode(view), "action_mask": 0/1 per action}`,
  made from the learner's view only; `action_masks()` gives the mask as booleans (for
  maskable learners). Actions are the game's fixed integer action space.
- `seat_frame=True` (a game with `Game.seat_frame`: Arne) turns the table so that the
  learner sits in seat 0: the observation encodes the frame's view, and the mask and the
  actions taken are the frame's (so one policy learns every seat at once); `gamenight
  train` uses it where the game has one.
- The reward is 0 until the end, then the learner's payoff in [0, 1] (1 first, 0 last, ties
  share), or with `reward="zero_sum"` 2*payoff-1 (+1 win, -1 loss in two-player games).
  An illegal action changes nothing, costs `illegal_reward` (default -1) and is reported
  in `info["illegal"]` (the masking convention of sb3-contrib's MaskablePPO: learners
  that read `action_masks()` never send one). `game_state` is the engine state.
  The episode is truncated when the game hits an engine cap
  (Drop or Stop: `max_rounds`, 100 by default in adapters) or after `max_steps` steps.
- Render modes: `human` prints the spectator's table, `ansi` returns it as text; Drop It
  also has `rgb_array`.
- Importing this module registers `gamenight/<game>-v0` with Gymnasium, so
  `gymnasium.make("gamenight/arne-v0", opponents=["bot:greedy"], players=2)` works too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gamenight.adapters._common import (
    bounded_game,
    check_render_mode,
    check_reward,
    render,
    render_modes,
    scale_payoff,
)
from gamenight.bots import make_seat
from gamenight.engine.core import BadInput, Game, IllegalAction, SeatFrame, State, has_seat_frame
from gamenight.engine.driver import Bot
from gamenight.engine.seeds import derive_seed


def make(
    game: str | Game,
    opponents: Sequence[str] = ("bot",),
    *,
    seat: int = 0,
    render_mode: str | None = None,
    illegal_reward: float = -1.0,
    max_steps: int | None = None,
    reward: str = "payoff",
    seat_frame: bool = False,
    **options: Any,
) -> GamenightEnv:
    """The single-agent environment of `game` against `opponents` (seat texts)."""
    return GamenightEnv(
        game,
        opponents,
        seat=seat,
        render_mode=render_mode,
        illegal_reward=illegal_reward,
        max_steps=max_steps,
        reward=reward,
        seat_frame=seat_frame,
        **options,
    )


class GamenightEnv(gym.Env[Any, Any]):
    """One seat of a gamenight game; bots play the others (see the module docstring)."""

    # Every mode any game may have; an instance narrows it to its game's modes.
    metadata: dict[str, Any] = {  # noqa: RUF012 (the libraries read a plain dict)
        "render_modes": ["human", "ansi", "rgb_array"],
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game,
        opponents: Sequence[str] = ("bot",),
        *,
        seat: int = 0,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        reward: str = "payoff",
        seat_frame: bool = False,
        **options: Any,
    ) -> None:
        if isinstance(opponents, str):
            raise BadInput(f"opponents is a list of seat texts, got the text {opponents!r}")
        told = "players" in options or isinstance(game, Game)
        if not told:  # the opponents say how many seats there are
            options["players"] = len(opponents) + 1
        self.game = bounded_game(game, **options)
        n = self.game.players
        if not 0 <= seat < n:
            raise BadInput(f"seat must be 0..{n - 1}, got {seat}")
        others = n - 1
        if len(opponents) != others and not (told and len(opponents) == 1):
            raise BadInput(
                f"{self.game.name} has {n} seats: give {others} opponents (or one for all), "
                f"got {len(opponents)}"
            )
        texts = list(opponents) * others if len(opponents) == 1 else list(opponents)
        self.seat = seat
        if seat_frame and not has_seat_frame(self.game):
            raise BadInput(f"{self.game.name} has no seat frame (seat_frame=True)")
        self.seat_frame = seat_frame
        self.opponent_texts = texts
        for text in texts:  # refuse bad bot names now
            make_seat(text, self.game, 0)
        self.metadata = {**type(self).metadata, "render_modes": render_modes(self.game)}
        check_render_mode(self.game, render_mode)
        check_reward(reward)
        self.render_mode = render_mode
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps if max_steps is not None else self.game.max_decisions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.game.encoding_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: State | None = None
        self.game_seed: int | None = None
        self.bots: dict[int, Bot] = {}
        self.steps = 0

    # -- the episode -------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        # The seed fixes every hidden card: kept on the env for replays, never observed.
        self.game_seed = game_seed
        self.game_state = self.game.start(game_seed)
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots = {
            s: make_seat(text, self.game, derive_seed(game_seed, "seat", s))
            for s, text in zip(others, self.opponent_texts, strict=True)
        }
        self.steps = 0
        self._play_others()
        return self._obs(), {}

    def _play_others(self) -> None:
        state = self.game_state
        assert state is not None
        while state.actors and state.actors[0] != self.seat:
            seat = state.actors[0]
            state.act(seat, self.bots[seat].choose(state, seat))

    def action_masks(self) -> np.ndarray:
        """True for each action index the learner may take now."""
        assert self.game_state is not None, "call reset() first"
        mask = np.zeros(self.game.num_actions, dtype=bool)
        index = self.game.action_index
        frame = self._frame()
        for action in self.game_state.actions(self.seat):
            mask[index(frame.to_frame(action) if frame else action)] = True
        return mask

    def _frame(self) -> SeatFrame | None:
        """The learner's seat frame now (with `seat_frame`), else None."""
        if not self.seat_frame:
            return None
        assert self.game_state is not None
        return self.game.seat_frame(self.game_state.view(self.seat))

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.game_state is not None
        frame = self._frame()
        return {
            "observation": frame.tensor()
            if frame
            else self.game.encode(self.game_state.view(self.seat)),
            "action_mask": self.action_masks().astype(np.int8),
        }

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.game_state
        assert state is not None, "call reset() first"
        if state.over:
            raise BadInput("the episode is over: call reset()")
        self.steps += 1
        info: dict[str, Any] = {}
        reward = 0.0
        try:
            chosen = self.game.action_at(int(action))
            frame = self._frame()
            state.act(self.seat, frame.from_frame(chosen) if frame else chosen)
        except (IllegalAction, BadInput) as err:
            info = {"illegal": True, "reason": str(err)}
            reward = self.illegal_reward
        else:
            self._play_others()
        terminated = truncated = False
        if state.over:
            out = state.outcome()
            reward += scale_payoff(out.payoff[self.seat], self.reward)
            truncated = out.truncated
            terminated = not out.truncated
        elif self.max_steps is not None and self.steps >= self.max_steps:
            truncated = True
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> Any:
        if self.game_state is None:
            return None
        return render(self.game_state, self.render_mode)


def _register() -> None:
    """`gymnasium.make("gamenight/arne-v0", opponents=[...], ...)` for every game."""
    from gamenight.engine.registry import games

    for name in games():
        env_id = f"gamenight/{name}-v0"
        if env_id not in gym.registry:
            gym.register(
                env_id,
                entry_point="gamenight.adapters.gymnasium:GamenightEnv",
                kwargs={"game": name},
            )


_register()
