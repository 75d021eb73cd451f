"""OpenSpiel games for every gamenight game, registered with `pyspiel` on import.

    import pyspiel
    import gamenight.adapters.openspiel  # registers the three games
    game = pyspiel.load_game("python_gamenight_arne", {"players": 4, "rng_seed": 7})
    game = pyspiel.load_game("python_gamenight_drop_or_stop", {"options": "deck=descending"})

- Short names `python_gamenight_drop_or_stop`, `python_gamenight_arne` and
  `python_gamenight_drop_it`; sequential, imperfect information, chance mode
  SAMPLED_STOCHASTIC: there are no chance nodes, all randomness happens inside a move from
  the seed of the game (drawn from the game's `rng_seed` when the state is first used).
- Parameters: `players`, `rng_seed` (-1: a random one) and `options`, the other game
  options as text (`"mode=losing,learning=true"`).
- Actions are the game's fixed integer action space; the current player is the game's
  `actors[0]` (Arne's reaction windows ask the seats in priority order); returns are the
  payoffs in [0, 1] (constant sum n/2). Drop or Stop has no length bound of its own: the
  adapter sets `max_rounds=100` unless given.
- Information state string: the seat's own event stream (`info_key`); observation string:
  the seat's view as JSON; observation tensor: `game.encode(view)`.
- `resample_from_infostate(player, sampler)` is `determinize`; for reproducible ISMCTS use
  `seeded_resampler(seed)` with OpenSpiel's `ISMCTSBot.set_resampler`.
- States are not serializable and games do not pickle (the Python objects inside cannot
  be rebuilt by OpenSpiel): keep `(seed, history)` instead (`state.seed`, `state.inner`).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from gamenight.adapters._common import bounded_game
from gamenight.engine.core import BadInput, Game, State
from gamenight.engine.options import _parse

NAMES = {
    "drop-or-stop": "python_gamenight_drop_or_stop",
    "arne": "python_gamenight_arne",
    "drop-it": "python_gamenight_drop_it",
}
_PLAYERS = {"drop-or-stop": (3, 1, 12), "arne": (4, 2, 12), "drop-it": (2, 2, 6)}


def parse_options(text: str) -> dict[str, Any]:
    """`"mode=losing,learning=true"` -> {"mode": "losing", "learning": "true"}."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"options are option=value separated by commas, got {item!r}")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


class _Box:
    """Holds the engine state; `copy.deepcopy` (which OpenSpiel's Clone uses on every
    attribute) copies it with the cheap `State.copy()` and shares the Game."""

    __slots__ = ("game", "seed", "state")

    def __init__(self, game: GamenightSpielGame, state: State | None, seed: int | None) -> None:
        self.game = game
        self.state = state
        self.seed = seed

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        if self.state is None:  # start it now, so that the copy plays the same game
            self.start()
        assert self.state is not None
        return _Box(self.game, self.state.copy(), self.seed)

    def start(self) -> State:
        self.seed = self.game.rng.getrandbits(62)
        self.state = self.game.inner.start(self.seed)
        return self.state


class GamenightSpielGame(pyspiel.Game):
    """One gamenight game with its options, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        default_players, _, _ = _PLAYERS[name]
        players = int(params.get("players", default_players))
        options = parse_options(str(params.get("options", "")))
        options = {k: _coerce(v) for k, v in options.items()}
        options["players"] = players
        self.inner: Game = bounded_game(name, **options)
        seed = int(params.get("rng_seed", -1))
        self.rng = random.Random(seed if seed >= 0 else None)
        n = self.inner.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.inner.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=n / 2,
            max_game_length=int(self.inner.max_decisions or 0),
        )
        super().__init__(_game_type(name), info, params)

    def new_initial_state(self) -> GamenightSpielState:
        """A state whose game starts (and draws its seed) when it is first used: OpenSpiel's
        Clone makes a new initial state and then overwrites it."""
        return GamenightSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GamenightObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return GamenightObserver(self.inner, iig_obs_type)


def _coerce(value: str) -> Any:
    """Option text to int/float/bool where it reads as one (the game validates it)."""
    for hint in (int, float, bool):
        try:
            return _parse("option", value, hint)
        except (BadInput, ValueError):
            continue
    return value


class GamenightSpielState(pyspiel.State):
    """An OpenSpiel state around one engine state (see the module docstring)."""

    def __init__(self, game: GamenightSpielGame) -> None:
        super().__init__(game)
        self._box = _Box(game, None, None)  # the only attribute: see _Box

    # -- the engine state, started lazily --------------------------------------------------
    @property
    def inner(self) -> State:
        box = self._box
        return box.state if box.state is not None else box.start()

    @property
    def seed(self) -> int:
        self.inner  # noqa: B018 (starts the game)
        assert self._box.seed is not None
        return self._box.seed

    # -- pyspiel.State -----------------------------------------------------------------------
    def current_player(self) -> int:
        actors = self.inner._actors
        return actors[0] if actors else pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        index = self._box.game.inner.action_index
        return sorted(index(a) for a in self.inner.actions(player))

    def _apply_action(self, action: int) -> None:
        state = self.inner
        state.act(state._actors[0], self._box.game.inner.action_at(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._box.game.inner.action_at(action))

    def is_terminal(self) -> bool:
        return not self.inner._actors

    def returns(self) -> list[float]:
        state = self.inner
        if state._actors:
            return [0.0] * state.game.players
        return [float(p) for p in state.outcome().payoff]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state `player_id` cannot tell from this one (the engine's `determinize`), with
        its randomness seeded from `probability_sampler()`."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return self.determinized(player_id, rng)

    def determinized(self, player: int, rng: random.Random) -> GamenightSpielState:
        clone = self.clone()
        clone._box = _Box(self._box.game, self.inner.determinize(player, rng), None)
        return clone

    def __str__(self) -> str:
        state = self.inner
        index = state.game.action_index
        moves = " ".join(f"{s}:{index(a)}" for s, a in state.history)
        return f"{state.game.name} seed {self._box.seed} moves {moves}"


def seeded_resampler(seed: int) -> Any:
    """A resampler for OpenSpiel's `ISMCTSBot.set_resampler`, seeded (reproducible)."""
    rng = random.Random(seed)

    def resample(state: GamenightSpielState, player: int) -> GamenightSpielState:
        return state.determinized(player, rng)

    return resample


class GamenightObserver:
    """OpenSpiel's PyObserver: the seat's view (tensor and JSON string) or, with perfect
    recall, its information state (its own event stream)."""

    def __init__(self, game: Game, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = 0 if self.perfect_recall else game.encoding_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GamenightSpielState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = self.game.encode(state.inner.view(player))

    def string_from(self, state: GamenightSpielState, player: int) -> str:
        if self.perfect_recall:
            return repr(state.inner.info_key(player))
        return json.dumps(state.inner.view(player), sort_keys=True, default=str)


def _game_type(name: str) -> Any:
    _, low, high = _PLAYERS[name]
    return pyspiel.GameType(
        short_name=NAMES[name],
        long_name=f"gamenight {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": _PLAYERS[name][0], "rng_seed": -1, "options": ""},
    )


class DropOrStopSpiel(GamenightSpielGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("drop-or-stop", params)


class ArneSpiel(GamenightSpielGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("arne", params)


class DropItSpiel(GamenightSpielGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("drop-it", params)


# Registered as module-level classes: OpenSpiel keeps the factory until the C++ registry is
# torn down after Python has finalized, and a factory referenced only from there (a
# closure) then crashes the interpreter at exit.
GAME_CLASSES: dict[str, type[GamenightSpielGame]] = {
    "drop-or-stop": DropOrStopSpiel,
    "arne": ArneSpiel,
    "drop-it": DropItSpiel,
}


def _register() -> None:
    registered = {g.short_name for g in pyspiel.registered_games()}
    for name, cls in GAME_CLASSES.items():
        if NAMES[name] not in registered:
            pyspiel.register_game(_game_type(name), cls)


_register()
