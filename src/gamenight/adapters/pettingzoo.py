"""PettingZoo AEC environments for every gamenight game.

    from gamenight.adapters.pettingzoo import env
    e = env("arne", players=4, render_mode="ansi")
    e.reset(seed=7)                 # plays the game `game.start(7)`
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["action_mask"])
        e.step(action)

- Agents are `player_0` .. `player_{n-1}` (seat numbers). The agent stepped next is the
  game's `actors[0]`; in Arne's reaction windows the other seats wait their turn.
- Actions are the game's fixed integer action space (`game.num_actions`); Drop It's is its
  discrete drop grid (piece x position bin x angle bin, then the two joker choices).
- An observation is `{"observation": game.encode(state.view(seat)), "action_mask": ...}`:
  only what that seat may see, and a 0/1 mask of its legal actions now. Observations are
  computed when asked for (`observe`/`last`), not on every step.
- The reward is 0 until the end, then each seat's payoff in [0, 1] (1 first, 0 last, ties
  share). A game stopped by an engine cap ends with `truncated` for every agent (payoff 0.5).
  Drop or Stop has no length bound of its own: the adapter sets `max_rounds=100` unless
  given (see `gamenight.adapters._common.DEFAULT_MAX_ROUNDS`).
- An illegal action raises `gamenight.engine.IllegalAction` and leaves the game unchanged.
- `reset(seed=s)` starts `game.start(s)`; later resets without a seed continue a seeded
  sequence of games. `render_mode="ansi"` returns the spectator's table as text (no hidden
  cards); Drop It also has `"rgb_array"` (the board as an RGB array).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamenight.adapters._common import ansi, bounded_game
from gamenight.engine.core import BadInput, Game, State


def env(game: str | Game, render_mode: str | None = None, **options: Any) -> GamenightAEC:
    """The AEC environment of `game` (a name or a loaded Game) with game `options`."""
    return GamenightAEC(game, render_mode=render_mode, **options)


def rgb(state: State) -> np.ndarray:
    """Drop It's board as an RGB array (height x width x 3, uint8)."""
    import io

    import cairosvg
    from PIL import Image

    from gamenight.games.drop_it.render import svg

    data = cairosvg.svg2png(bytestring=svg(state).encode())
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


class GamenightAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """One gamenight game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(self, game: str | Game, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = bounded_game(game, **options)
        modes = ["ansi", "rgb_array"] if self.game.name == "drop-it" else ["ansi"]
        self.metadata = {
            "render_modes": modes,
            "name": f"gamenight_{self.game.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode not in modes:
            raise BadInput(f"render_mode must be one of {modes} or None, got {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -np.inf, np.inf, (self.game.encoding_size,), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State | None = None
        self.game_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._rng.getrandbits(63)
        self.game_seed = game_seed
        self.state = self.game.start(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.actors[0]]
        self._skip_agent_selection = None

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each action index `agent` may take now."""
        assert self.state is not None
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        index = self.game.action_index
        for action in self.state.actions(self._seat[agent]):
            mask[index(action)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None, "call reset() first"
        seat = self._seat[agent]
        return {
            "observation": self.game.encode(self.state.view(seat)),
            "action_mask": self.action_mask(agent),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None, "call reset() first"
        if action is None:
            raise BadInput(f"{agent} must act: give an action index, not None")
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.act(seat, self.game.action_at(int(action)))
        if state.over:
            out = state.outcome()
            for a in self.agents:
                self.rewards[a] = float(out.payoff[self._seat[a]])
                if out.truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        elif len(state.history) >= (self.game.max_decisions or 0):
            for a in self.agents:
                self.rewards[a] = 0.5
                self.truncations[a] = True
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.actors[0]]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return rgb(self.state)
        return ansi(self.state)

    def close(self) -> None:
        self.state = None
