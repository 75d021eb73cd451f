"""PettingZoo AEC environments for every gamenight game.

    from gamenight.adapters.pettingzoo import env
    e = env("arne", players=4, render_mode="ansi")
    e.reset(seed=7)                 # plays the game `game.start(7)`
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["action_mask"])
        e.step(action)

- `env(...)` is wrapped as PettingZoo's classic games are (TerminateIllegalWrapper,
  AssertOutOfBoundsWrapper, OrderEnforcingWrapper); `raw_env(...)` is the bare environment.
- Agents are `player_0` .. `player_{n-1}` (seat numbers). The agent stepped next is the
  game's `actors[0]`; in Arne's reaction windows the other seats wait their turn.
- Actions are the game's fixed integer action space (`game.num_actions`); Drop It's is its
  discrete drop grid (piece x position bin x angle bin, then the two joker choices).
- An observation is `{"observation": game.encode(state.view(seat)), "action_mask": ...}`:
  only what that seat may see, and a 0/1 mask of its legal actions now. Observations are
  computed when asked for (`observe`/`last`), not on every step.
- `state()` is the global state for centralised critics: every seat's encoded view, seat
  by seat (hidden cards included; never give it to a seat's policy). The engine state is
  `game_state`.
- The reward is 0 until the end, then each seat's payoff in [0, 1] (1 first, 0 last, ties
  share), or with `reward="zero_sum"` 2*payoff-1 (+1/-1 in two-player games, summing to 0).
  A game stopped by an engine cap ends with `truncated` for every agent (payoff 0.5).
  Drop or Stop has no length bound of its own: the adapter sets `max_rounds=100` unless
  given (see `gamenight.adapters._common.DEFAULT_MAX_ROUNDS`).
- An illegal action: the wrapped `env` prints PettingZoo's warning, does not play it,
  and ends the game (every agent terminated and truncated): the mover gets
  `illegal_reward` (default -1) and the others 0, whatever `reward` is (PettingZoo's
  convention; outside [0, 1]). The bare `raw_env` raises `gamenight.engine.IllegalAction`
  and leaves the game unchanged. See the adapters README.
- `reset(seed=s)` starts `game.start(s)`; later resets without a seed continue a seeded
  sequence of games. Render modes: `human` (prints the spectator's table), `ansi` (returns
  it as text; no hidden cards) and, where the game draws itself (Drop It), `rgb_array`.
- `parallel_env(...)`: a ParallelEnv where every seat that may answer at once does
  (Arne's reaction windows), with `max_cycles`; see `GamenightParallel`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from gamenight.adapters._common import (
    bounded_game,
    check_render_mode,
    check_reward,
    render,
    render_modes,
    rgb,
    scale_payoff,
)
from gamenight.engine.core import BadInput, Game, IllegalAction, State

__all__ = ["GamenightAEC", "GamenightParallel", "env", "parallel_env", "raw_env", "rgb"]


def raw_env(
    game: str | Game, render_mode: str | None = None, reward: str = "payoff", **options: Any
) -> GamenightAEC:
    """The bare AEC environment of `game` (a name or a loaded Game) with game `options`."""
    return GamenightAEC(game, render_mode=render_mode, reward=reward, **options)


def env(
    game: str | Game,
    render_mode: str | None = None,
    reward: str = "payoff",
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The AEC environment wrapped as PettingZoo's classic games are: an illegal action
    ends the game with `illegal_reward` for the mover."""
    bare = raw_env(game, render_mode=render_mode, reward=reward, **options)
    wrapped: AECEnv[str, dict[str, np.ndarray], int]
    wrapped = wrappers.TerminateIllegalWrapper(bare, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class GamenightAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """One gamenight game as a PettingZoo AEC environment (see the module docstring)."""

    # Every mode any game may have; an instance narrows it to its game's modes.
    metadata: dict[str, Any] = {  # noqa: RUF012 (the libraries read a plain dict)
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "gamenight_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        reward: str = "payoff",
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = bounded_game(game, **options)
        self.metadata = {
            **type(self).metadata,
            "render_modes": render_modes(self.game),
            "name": f"gamenight_{self.game.name.replace('-', '_')}_v0",
        }
        check_render_mode(self.game, render_mode)
        check_reward(reward)
        self.render_mode = render_mode
        self.reward = reward
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
        size = n * self.game.encoding_size
        self.state_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self._rng = random.Random()
        self.game_seed: int | None = None
        self.game_state: State | None = None

    def state(self) -> np.ndarray:
        """Every seat's encoded view, seat by seat: the global state (hidden cards included)."""
        assert self.game_state is not None, "call reset() first"
        encode, view = self.game.encode, self.game_state.view
        return np.concatenate([encode(view(s)) for s in range(self.game.players)])

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
        self.game_state = self.game.start(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.actors[0]]
        self._skip_agent_selection = None

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each action index `agent` may take now."""
        assert self.game_state is not None
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        index = self.game.action_index
        for action in self.game_state.actions(self._seat[agent]):
            mask[index(action)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game_state is not None, "call reset() first"
        seat = self._seat[agent]
        return {
            "observation": self.game.encode(self.game_state.view(seat)),
            "action_mask": self.action_mask(agent),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
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
                self.rewards[a] = scale_payoff(out.payoff[self._seat[a]], self.reward)
                if out.truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        elif len(state.history) >= (self.game.max_decisions or 0):
            for a in self.agents:
                self.rewards[a] = scale_payoff(0.5, self.reward)
                self.truncations[a] = True
        if self.terminations[agent] or self.truncations[agent]:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.actors[0]]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.game_state is None:
            return None
        return render(self.game_state, self.render_mode)

    def close(self) -> None:
        self.game_state = None


# -- simultaneous answers ---------------------------------------------------------------------
def parallel_env(
    game: str | Game,
    render_mode: str | None = None,
    reward: str = "payoff",
    max_cycles: int | None = None,
    **options: Any,
) -> GamenightParallel:
    """The PettingZoo ParallelEnv of `game` (see `GamenightParallel`)."""
    return GamenightParallel(game, render_mode, reward, max_cycles, **options)


class GamenightParallel(ParallelEnv[str, dict[str, np.ndarray], int]):
    """Every seat that may answer now acts in the same step, where the rules allow it:
    in a reaction window (`state.window_seats()`: Arne's windows, A15-A17) the seat with
    priority takes any legal action while every other seat of the window may pass in
    advance or wait (DESIGN: a pass in advance is cancelled by any new black card); the
    passes are played first, in priority order, then the priority seat's action. Outside
    windows the seat to move acts alone. Every live agent gives an action each step:
    `WAIT` (index `game.num_actions`, the last) is the action of an agent that does
    nothing now, the only one in its mask when it has nothing to decide; the priority
    seat's mask never has it. An action outside an agent's mask raises `IllegalAction`
    and changes nothing. `max_cycles` (steps) truncates the episode (payoff 1/2 each).
    Observations, rewards and seeds are the AEC environment's."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (the libraries read a plain dict)
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "gamenight_parallel_v0",
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        reward: str = "payoff",
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        self.aec = GamenightAEC(game, render_mode=render_mode, reward=reward, **options)
        self.game = self.aec.game
        self.metadata = {**self.aec.metadata, "name": self.aec.metadata["name"] + "_parallel"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = list(self.aec.possible_agents)
        self.wait = self.game.num_actions
        box = spaces.Box(-np.inf, np.inf, (self.game.encoding_size,), np.float32)
        mask = spaces.Box(0, 1, (self.wait + 1,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.wait + 1) for a in self.possible_agents}
        self.cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State | None:
        return self.aec.game_state

    def state(self) -> np.ndarray:
        return self.aec.state()

    def _acting(self) -> tuple[int, ...]:
        state = self.game_state
        assert state is not None, "call reset() first"
        window = state.window_seats()
        return tuple(window) if window else tuple(state.actors[:1])

    def action_mask(self, agent: str) -> np.ndarray:
        state = self.game_state
        assert state is not None, "call reset() first"
        seat = self.aec._seat[agent]
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        acting = self._acting()
        if seat in acting:
            for action in state.actions(seat):
                mask[self.game.action_index(action)] = 1
        if not acting or seat != acting[0]:
            mask[self.wait] = 1
        return mask

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        state = self.game_state
        assert state is not None
        return {
            a: {
                "observation": self.game.encode(state.view(self.aec._seat[a])),
                "action_mask": self.action_mask(a),
            }
            for a in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observe(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.game_state
        assert state is not None, "call reset() first"
        acting = self._acting()
        masks = {a: self.action_mask(a) for a in self.agents}
        for agent in self.agents:
            action = actions.get(agent, self.wait)
            if not 0 <= int(action) <= self.wait or not masks[agent][int(action)]:
                raise IllegalAction(f"{agent} may not take action {action} now")
        for seat in (*acting[1:], *acting[:1]):  # passes in advance, then the priority seat
            action = int(actions.get(self.possible_agents[seat], self.wait))
            if action != self.wait:
                state.act(seat, self.game.action_at(action))
        self.cycles += 1
        rewards = dict.fromkeys(self.agents, 0.0)
        ended = truncated = False
        if state.over:
            out = state.outcome()
            rewards = {
                a: scale_payoff(out.payoff[self.aec._seat[a]], self.aec.reward) for a in self.agents
            }
            ended, truncated = not out.truncated, out.truncated
        elif len(state.history) >= (self.game.max_decisions or 0) or (
            self.max_cycles is not None and self.cycles >= self.max_cycles
        ):
            rewards = {a: scale_payoff(0.5, self.aec.reward) for a in self.agents}
            truncated = True
        observations = self._observe()
        terminations = dict.fromkeys(self.agents, ended)
        truncations = dict.fromkeys(self.agents, truncated)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if ended or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
