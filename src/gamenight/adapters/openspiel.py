"""OpenSpiel games for every gamenight game, registered with `pyspiel` on import.

    import pyspiel
    import gamenight.adapters.openspiel  # registers the games
    game = pyspiel.load_game("python_gamenight_drop_or_stop(players=2,deck=descending)")
    game = pyspiel.load_game("python_gamenight_arne", {"players": 4, "rng_seed": 7})

- Short names `python_gamenight_<game>` (`-` as `_`); sequential, imperfect information.
- Parameters are flat: `players`, `rng_seed` (-1: a random one), `chance`, `reward`, `seeds`
  and every option of the game under its own name (`deck=descending`, `mode=losing`). An
  option that is a number or something else (`max_rounds`, `first_start_seat`) is a number
  parameter, -1 = its default; one that is a list is text, "" = its default.
- `chance="sampled"` (the default): chance mode SAMPLED_STOCHASTIC, no chance nodes; all
  randomness happens inside a move from the game's seed (drawn from `rng_seed` when the
  state is first used). States serialize (seed + actions, replayed), but OpenSpiel cannot
  serialize such a Python *game*: Game::Serialize appends GetRNGState() for every sampled
  game and OpenSpiel 2.0.2's trampoline for Python games does not forward that call to
  Python, so `random_sim_test(serialize=True)` fails inside OpenSpiel before our code runs
  (pinned by a test). For it use one of the explicit modes:
- `chance="seeded"`, any game: EXPLICIT_STOCHASTIC; the first node is a chance node that
  picks the game's seed, one of `seeds` (default 1000) equally likely; the rest follows.
- `chance="explicit"`, for games whose spec names chance hooks (Drop or Stop, Arne):
  EXPLICIT_STOCHASTIC, every card drawn or dealt is a chance node whose outcomes are the
  card kinds with their real probabilities (and Arne's random choices, such as the card
  TAKE_RANDOM takes, one node per choice), so CFR, best response and exploitability work.
  The hooks, in the game's chance module: `check(game)`, `outcome_count(game)`,
  `outcome_name(game, outcome)`, `new_slots(state, since)` (the chance slots opened by the
  events logged since), `outcomes(state, pending)`, `fix(state, pending, outcome)` (decides
  `pending[0]`; may return a new state and insert slots after it) and, optionally,
  `act(state, seat, action, pending)` (a decision that may be held back for chance nodes).
- Actions are the game's fixed integer action space; the current player is the game's
  `actors[0]` (Arne's reaction windows ask the seats in priority order). Returns are the
  payoffs in [0, 1] (constant sum n/2), or with `reward=zero_sum` 2*payoff-1 (zero sum).
  Drop or Stop has no length bound of its own: the adapter sets `max_rounds=100` unless given.
- Information state string: what the seat has seen, canonical and compact (its own event
  stream, cards in private events sorted so that the order of a deal does not split an
  information set; at most 2,000 characters, the oldest events as a digest when longer:
  `tensors.information_string`). Information state tensor: the observation tensor, then
  what the seat saw happen that the view no longer shows (`tensors.information_tensor`;
  each game's README has both tables). Observation string: the seat's view as JSON;
  observation tensor: `game.encode(view)`.
- `serialize()`/`deserialize_state()` and pickling of games and states work in every mode:
  a state is kept as (game parameters, seed, actions) and rebuilt by replay;
  `random_sim_test(serialize=True)` passes in the seeded and explicit modes.
- `resample_from_infostate(player, sampler)` is `determinize`; for reproducible ISMCTS use
  `seeded_resampler(seed)` with OpenSpiel's `ISMCTSBot.set_resampler`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import typing
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel

from gamenight.adapters._common import bounded_game, check_reward, scale_payoff
from gamenight.adapters.tensors import (
    canonical_event,
    information_size,
    information_string,
    information_tensor,
)
from gamenight.engine.core import Action, BadInput, Game, State
from gamenight.engine.registry import game_class, games, spec

ADAPTER_PARAMETERS = {"players", "rng_seed", "chance", "reward", "seeds"}
CHANCE_MODES = ("sampled", "seeded", "explicit")
SEED = "seed"  # the pending chance slot of chance=seeded


def short_name(game_name: str) -> str:
    return "python_gamenight_" + game_name.replace("-", "_")


def option_parameters(game_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every option of the game (but `players`) as an OpenSpiel parameter with its default,
    and the stand-ins that mean "the game's default": a plain bool/int/float/str option is
    itself; one that may be a number or something else (`int | None`, `int | str`) is a
    number, -1 standing for its default (OpenSpiel reads `first_start_seat=0` as a number);
    anything else is text, "" standing for its default."""
    cls = game_class(game_name).Options
    hints = typing.get_type_hints(cls)
    out: dict[str, Any] = {}
    stand_ins: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        if field.name == "players":
            continue
        default, hint = field.default, hints[field.name]
        if type(default) in (bool, int, float, str) and hint is type(default):
            out[field.name] = default
            continue
        stand_ins[field.name] = -1 if int in typing.get_args(hint) else ""
        out[field.name] = stand_ins[field.name]
    return out, stand_ins


def parameter_specification(game_name: str) -> dict[str, Any]:
    return {
        "players": spec(game_name).default_players,
        "rng_seed": -1,
        "chance": "sampled",
        "reward": "payoff",
        "seeds": 1000,
        **option_parameters(game_name)[0],
    }


class GamenightSpielGame(pyspiel.Game):
    """One gamenight game with its options, as an OpenSpiel game."""

    game_name: str = ""  # set by each registered subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params = dict(params or {})
        specification = parameter_specification(name)
        unknown = sorted(set(params) - set(specification))
        if unknown:
            raise BadInput(
                f"{short_name(name)} has no parameter(s) {unknown}; see {sorted(specification)}"
            )
        stand_ins = option_parameters(name)[1]
        options = {
            k: v
            for k, v in params.items()
            if k not in ADAPTER_PARAMETERS and not (k in stand_ins and v == stand_ins[k])
        } | {"players": int(params.get("players", specification["players"]))}
        options = _exact_defaults(options, specification)
        self.params = params
        self.chance_mode = str(params.get("chance", "sampled"))
        if self.chance_mode not in CHANCE_MODES:
            raise BadInput(f"chance must be one of {list(CHANCE_MODES)}, got {self.chance_mode!r}")
        self.reward = str(params.get("reward", "payoff"))
        check_reward(self.reward)
        self.inner: Game = bounded_game(name, **options)
        self.seeds = int(params.get("seeds", specification["seeds"]))
        if self.seeds < 1:
            raise BadInput(f"seeds must be at least 1, got {self.seeds}")
        self.chance: ModuleType | None = None
        if self.chance_mode == "explicit":
            try:
                self.chance = spec(name).module("chance")
            except LookupError:
                raise BadInput(f"{name} offers no explicit chance; use chance=sampled") from None
            self.chance.check(self.inner)
        seed = int(params.get("rng_seed", -1))
        self.rng = random.Random(seed if seed >= 0 else None)
        n = self.inner.players
        zero_sum = self.reward == "zero_sum"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.inner.num_actions,
            max_chance_outcomes=self._chance_outcomes(),
            num_players=n,
            min_utility=-1.0 if zero_sum else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else n / 2,
            max_game_length=int(self.inner.max_decisions or 0),
        )
        super().__init__(game_type(name, self.explicit, zero_sum), info, params)

    @property
    def explicit(self) -> bool:
        """Chance shows as chance nodes (seeded or explicit), not inside moves."""
        return self.chance_mode != "sampled"

    def _chance_outcomes(self) -> int:
        if self.chance_mode == "seeded":
            return self.seeds
        return self.chance.outcome_count(self.inner) if self.chance else 0

    def new_initial_state(self) -> GamenightSpielState:
        """A state whose game starts (and draws its seed) when it is first used: OpenSpiel's
        Clone makes a new initial state and then overwrites it."""
        return GamenightSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GamenightObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return GamenightObserver(self.inner, iig_obs_type)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (short_name(self.game_name), self.params))


def _load_game(name: str, params: dict[str, Any]) -> GamenightSpielGame:
    """The game for unpickling, from its parameters as given (exact numbers, unlike the
    game's text); a plain function of ours, so a pickle names it rather than pybind11's
    roundabout path to `pyspiel.load_game`."""
    game: GamenightSpielGame = pyspiel.load_game(name, params)
    return game


def _exact_defaults(options: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """A number option equal to its default up to the digits OpenSpiel writes in a game's
    text (`dt=0.004166666666667` for 1/240) is its default, so `load_game(str(game))` is
    the same game."""
    return {
        k: defaults[k]
        if isinstance(v, float)
        and isinstance(defaults.get(k), float)
        and math.isclose(v, defaults[k], rel_tol=1e-11)
        else v
        for k, v in options.items()
    }


class _Box:
    """Holds the engine state, its seed, the OpenSpiel actions applied so far and the chance
    slots still to fix. `copy.deepcopy` (which OpenSpiel's Clone uses on every attribute)
    copies it with the cheap `State.copy()`; pickling keeps (game, seed, actions) only."""

    __slots__ = ("actions", "game", "pending", "scanned", "seed", "state")

    def __init__(self, game: GamenightSpielGame) -> None:
        self.game = game
        self.state: State | None = None
        self.seed: int | None = None
        self.actions: list[int] = []
        self.pending: list[Any] = []  # chance slots (explicit chance only)
        self.scanned = 0  # log events already scanned for new slots

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        state = self.started()
        new = _Box(self.game)
        new.state, new.seed = state.copy(), self.seed
        new.actions, new.pending, new.scanned = list(self.actions), list(self.pending), self.scanned
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        self.started()
        return (_restore_box, (self.game, self.seed, list(self.actions)))

    def started(self, seed: int | None = None) -> State:
        if self.state is None:
            if self.game.chance_mode == "seeded":  # a stand-in until the seed's chance node
                self.seed, self.pending = 0, [SEED]
            else:
                self.seed = self.game.rng.getrandbits(62) if seed is None else seed
            self.state = self.game.inner.start(self.seed)
            self._scan()
        return self.state

    def _scan(self) -> None:
        chance = self.game.chance
        if chance is not None and self.state is not None:
            self.pending += chance.new_slots(self.state, self.scanned)
            self.scanned = len(self.state.log)

    def apply(self, action: int) -> None:
        state = self.started()
        if self.pending and self.pending[0] == SEED:
            self.seed, self.pending = action, []
            self.state = self.game.inner.start(action)
        elif self.pending:
            assert self.game.chance is not None
            fixed = self.game.chance.fix(state, self.pending, action)
            self.pending.pop(0)
            if fixed is not None:
                self.state = fixed
            self._scan()
        else:
            self._act(state, self.game.inner.action_at(action))
            self._scan()
        self.actions.append(action)

    def _act(self, state: State, action: Action) -> None:
        """A seat's decision; explicit chance may hold it back for chance nodes first."""
        chance, seat = self.game.chance, state.actors[0]
        if chance is not None and hasattr(chance, "act"):
            self.state = chance.act(state, seat, action, self.pending)
        else:
            state.act(seat, action)


def _restore_box(game: GamenightSpielGame, seed: int, actions: list[int]) -> _Box:
    box = _Box(game)
    box.started(seed)
    for action in actions:
        box.apply(action)
    return box


class GamenightSpielState(pyspiel.State):
    """An OpenSpiel state around one engine state (see the module docstring)."""

    def __init__(self, game: GamenightSpielGame) -> None:
        super().__init__(game)
        self._box = _Box(game)  # the only attribute: see _Box

    # -- the engine state, started lazily --------------------------------------------------
    @property
    def inner(self) -> State:
        return self._box.started()

    @property
    def seed(self) -> int:
        self._box.started()
        assert self._box.seed is not None
        return self._box.seed

    # -- pyspiel.State -----------------------------------------------------------------------
    def current_player(self) -> int:
        actors = self.inner.actors
        if not actors:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self._box.pending else actors[0]

    def _legal_actions(self, player: int) -> list[int]:
        index = self._box.game.inner.action_index
        return sorted(index(a) for a in self.inner.actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game, box = self._box.game, self._box
        self.inner  # noqa: B018 (starts the game)
        if box.pending and box.pending[0] == SEED:
            return [(i, 1.0 / game.seeds) for i in range(game.seeds)]
        chance = game.chance
        if chance is None or not box.pending:
            return []
        result: list[tuple[int, float]] = chance.outcomes(self.inner, self._box.pending)
        return result

    def _apply_action(self, action: int) -> None:
        self._box.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._box.game
        if player == pyspiel.PlayerId.CHANCE:
            if game.chance is None:
                return f"seed {action}"
            return str(game.chance.outcome_name(game.inner, action))
        return str(game.inner.action_at(action))

    def is_terminal(self) -> bool:
        return not self.inner.actors

    def returns(self) -> list[float]:
        state = self.inner
        if state.actors:
            return [0.0] * state.game.players
        reward = self._box.game.reward
        return [scale_payoff(p, reward) for p in state.outcome().payoff]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state `player_id` cannot tell from this one (the engine's `determinize`), with
        its randomness seeded from `probability_sampler()` (sampled chance only)."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return self.determinized(player_id, rng)

    def determinized(self, player: int, rng: random.Random) -> GamenightSpielState:
        if self._box.game.explicit:
            raise BadInput("resampling needs chance=sampled (chance nodes fix the cards)")
        clone = self.clone()
        box = _Box(self._box.game)
        box.state = self.inner.determinize(player, rng)
        box.seed = None  # not a replayable game: its cards did not come from a seed
        box.actions = list(self._box.actions)
        clone._box = box
        return clone

    def __str__(self) -> str:
        moves = " ".join(str(a) for a in self._box.actions)
        if self._box.game.explicit:
            return f"{self._box.game.inner.name} actions {moves}"
        self._box.started()
        return f"{self._box.game.inner.name} seed {self._box.seed} actions {moves}"

    def __reduce__(self) -> tuple[Any, ...]:
        self._box.started()
        return (_restore_state, (self._box.game, self._box.seed, list(self._box.actions)))


def _restore_state(game: GamenightSpielGame, seed: int, actions: list[int]) -> GamenightSpielState:
    state = game.new_initial_state()
    state._box.started(seed)
    for action in actions:
        state.apply_action(action)
    return state


def wrap_state(game: GamenightSpielGame, state: State) -> GamenightSpielState:
    """An OpenSpiel state around a copy of an engine state of the same game (sampled chance:
    a bot's view of a running game; it is not replayable, having no seed of this game)."""
    if game.explicit:
        raise BadInput("wrapping a running game needs chance=sampled")
    wrapped = game.new_initial_state()
    box = wrapped._box
    box.state = state.copy()
    box.seed = None
    index = game.inner.action_index
    box.actions = [index(action) for _, action in state.history]
    return wrapped


def seeded_resampler(seed: int) -> Any:
    """A resampler for OpenSpiel's `ISMCTSBot.set_resampler`, seeded (reproducible)."""
    rng = random.Random(seed)

    def resample(state: GamenightSpielState, player: int) -> GamenightSpielState:
        return state.determinized(player, rng)

    return resample


def canonical_information(state: State, seat: int) -> str:
    """What `seat` has seen in full, one event a line (the information state string is its
    compact form, `tensors.information_string`)."""
    lines = [canonical_event(event) for event in state.events(seat)]
    lines.append(f"to act: {seat in state.actors}")
    return "\n".join(lines)


class GamenightObserver:
    """OpenSpiel's PyObserver: the seat's view (tensor and JSON string) or, with perfect
    recall, its information state (tensor and compact string; adapters/tensors.py)."""

    def __init__(self, game: Game, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        size = information_size(game) if self.perfect_recall else game.encoding_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GamenightSpielState, player: int) -> None:
        if self.perfect_recall:
            self.tensor[:] = information_tensor(state.inner, player)
        else:
            self.tensor[:] = self.game.encode(state.inner.view(player))

    def string_from(self, state: GamenightSpielState, player: int) -> str:
        if self.perfect_recall:
            return information_string(state.inner, player)
        return json.dumps(state.inner.view(player), sort_keys=True, default=str)


def game_type(name: str, explicit: bool = False, zero_sum: bool = False) -> Any:
    low, high = spec(name).players
    mode = pyspiel.GameType.ChanceMode
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"gamenight {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if explicit else mode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


# Registered as module-level classes: OpenSpiel keeps the factory until the C++ registry is
# torn down after Python has finalized, and a factory referenced only from there (a
# closure) then crashes the interpreter at exit.
GAME_CLASSES: dict[str, type[GamenightSpielGame]] = {
    name: type(f"Spiel_{name.replace('-', '_')}", (GamenightSpielGame,), {"game_name": name})
    for name in games()
}
NAMES = {name: short_name(name) for name in GAME_CLASSES}


def _register() -> None:
    registered = {g.short_name for g in pyspiel.registered_games()}
    for name, cls in GAME_CLASSES.items():
        if NAMES[name] not in registered:
            pyspiel.register_game(game_type(name), cls)


_register()
