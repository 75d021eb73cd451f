"""The bot registry: `make(name, game, **params)` for every game's bots.

Each game package has a `bots` module with `BOTS` (name -> class) and `HEURISTIC` (the
name of its hand-written player). Seats on the command line are written `bot`,
`bot:NAME` or `bot:NAME?param=value&param=value`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import sys
from types import ModuleType
from typing import Any
from urllib.parse import parse_qsl

from gamenight.bots.policy import PolicyFactory, from_policy, policy_from_spawn
from gamenight.engine.core import BadInput, Game, said
from gamenight.engine.driver import Bot
from gamenight.engine.options import _parse
from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.i18n.refusals import message_of

__all__ = ["LEVELS", "from_policy", "levels", "make", "make_seat", "register"]


def _module(game_name: str) -> ModuleType:
    """The game's bots module, named by its spec."""
    return spec(game_name).module("bots")


LEVELS = ("easy", "medium", "hard")

# Bots added from outside: name -> (factory, the games it plays or None for all).
_REGISTERED: dict[str, tuple[Any, tuple[str, ...] | None]] = {}
ENTRY_POINT_GROUP = "gamenight.bots"


def register(name: str, factory: Any, games: tuple[str, ...] | None = None) -> None:
    """Make `factory` the bot `name` everywhere (play, tournament, report, server).

    `factory(**params)` returns an object with `choose(state, seat)`; its keyword parameters
    are the bot's parameters (a `game` parameter gets the loaded game, `seed` the seat's
    seed). `games` limits it to those games. Worker processes started afterwards
    (simulate, tournament, a server's bots) get it too when the factory is importable by
    its module path (a class or function at the top of a module, `__main__` included); a
    lambda or a nested function stays in this process. Packages can do the same without
    code run by the user through the entry-point group `gamenight.bots` (`name =
    "module:factory"`; a factory's `games` attribute limits it)."""
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise BadInput(f"a bot name is letters, digits, - and _, got {name!r}")
    if not callable(factory):
        raise BadInput(f"bot {name}: the factory must be callable, got {factory!r}")
    if isinstance(factory, PolicyFactory):
        factory.name = name  # (its errors name the bot)
    _REGISTERED[name] = (factory, games)
    if not _LOADING:
        _pass_on(name, factory, games)


_LOADING: list[bool] = []  # non-empty while _load_entry_points registers (nothing to pass on)


SPAWNED = "GAMENIGHT_BOTS"  # registrations handed to worker processes (JSON)
LOCAL = "local"  # ... and the mark of one a worker cannot import


def _pass_on(name: str, factory: Any, games: tuple[str, ...] | None) -> None:
    """Hand a registration to the worker processes this one starts (simulate, tournament,
    a server's bots): they inherit the environment, and `_load_entry_points` imports the
    factory there by its module path. A factory that has no importable path (a lambda, a
    function inside a function) stays in this process."""
    path = f"{LOCAL}:"  # a worker says why it cannot play this bot (not "no bot")
    if isinstance(factory, PolicyFactory):  # (from_policy: the policy's own path)
        if factory.spawn is not None:
            path = f"policy:{factory.spawn}"
    else:
        module = getattr(factory, "__module__", None)
        qualname = getattr(factory, "__qualname__", "")
        target: Any = sys.modules.get(module or "") if "<" not in qualname else None
        for part in qualname.split(".") if target is not None else ():
            target = getattr(target, part, None)
        if module and target is factory:
            path = f"{module}:{qualname}"
    passed = json.loads(os.environ.get(SPAWNED, "{}"))
    passed[name] = [path, list(games) if games is not None else None]
    os.environ[SPAWNED] = json.dumps(passed)


def _take_passed() -> None:
    """In a worker: the registrations its parent passed on (see `_pass_on`). One that
    cannot be imported here (a module not on this process's path) fails only when its bot
    is asked for, in one line; every other bot is unaffected."""
    for name, (path, games) in json.loads(os.environ.get(SPAWNED, "{}")).items():
        if name in _REGISTERED:
            continue
        module, _, qualname = path.partition(":")
        target: Any
        try:
            if module == LOCAL:
                target = _local_only(name)
            elif module == "policy":
                target = policy_from_spawn(qualname)
                target.name = name
            else:
                target = importlib.import_module(module)
                for part in qualname.split("."):
                    target = getattr(target, part)
        except (ImportError, AttributeError, BadInput) as err:
            target = _unimportable(name, path, err)
        _REGISTERED[name] = (target, tuple(games) if games is not None else None)


def _local_only(name: str) -> Any:
    def refuse(**params: Any) -> Any:
        raise BadInput(
            said(
                N_(
                    "bot {bot} lives only in the process that registered it (a lambda, a "
                    "nested function or a model in memory); for worker processes register a "
                    "function at the top of a module or a saved model's path, or use one "
                    "worker"
                ),
                bot=name,
            )
        )

    return refuse


def _unimportable(name: str, path: str, err: Exception) -> Any:
    def refuse(**params: Any) -> Any:
        raise BadInput(
            said(
                N_("bot {bot}: cannot import {path} in this process ({problem})"),
                bot=name,
                path=path,
                problem=err,
            )
        )

    return refuse


@functools.cache
def _load_entry_points() -> None:
    """Once per process: the bots installed packages declare."""
    from importlib.metadata import entry_points

    from gamenight.learn.policy import LearnedBot

    _LOADING.append(True)
    try:
        # every game: a game's shipped policies, or any game's trained file (path=...)
        register("learned", LearnedBot)
        register("openspiel-ismcts", openspiel_ismcts)
        _take_passed()
        for point in entry_points(group=ENTRY_POINT_GROUP):
            if point.name not in _REGISTERED:
                factory = point.load()
                register(point.name, factory, getattr(factory, "games", None))
    finally:
        _LOADING.clear()


def openspiel_ismcts(
    game: Game, seed: int = 0, seconds: float = 0.0, iterations: int = 1000, c: float = 0.7
) -> Any:
    """OpenSpiel's own ISMCTS (random rollouts to the end), the reference ours is measured
    against: gamenight.adapters.openspiel_ismcts, imported only when seated (OpenSpiel
    takes a third of a second to import)."""
    from gamenight.adapters.openspiel_ismcts import OpenSpielISMCTS

    return OpenSpielISMCTS(game, seed=seed, seconds=seconds, iterations=iterations, c=c)


# The largest value of a bot parameter a server accepts from untrusted people (the work
# one bot move may cost). A number parameter not named here is capped at 100x its default.
PARAMETER_CEILINGS: dict[str, float] = {
    "iterations": 5000,  # ISMCTS searches
    "seconds": 2.0,  # ISMCTS time budget
    "max_rollout": 1000,
    "samples": 48,  # Drop It planner: candidate drops simulated
    "jitter_samples": 6,
    "budget_s": 2.0,
    "horizon": 200,  # Arne rollout bot: decisions played on per candidate and sample
    "top": 12,  # Arne rollout bot: candidates tried
    "cut": 12,  # Arne rollout bot: candidates kept for the second half of the samples
}


def available(game_name: str) -> dict[str, type]:
    """Every bot of a game: name -> class. ISMCTS works on every game."""
    from gamenight.bots.ismcts import ISMCTSBot

    _load_entry_points()
    extra = {n: f for n, (f, only) in _REGISTERED.items() if only is None or game_name in only}
    return {**extra, **_module(game_name).BOTS, "ismcts": ISMCTSBot}


def default_bot(game_name: str) -> str:
    return str(_module(game_name).HEURISTIC)


def search_heuristic(game_name: str) -> type:
    """The class ISMCTS plays the game's heuristic with (rollouts, widening): the bots
    module's `SEARCH_HEURISTIC` (the same moves, read faster from the searched world),
    else the heuristic bot itself."""
    module = _module(game_name)
    found = getattr(module, "SEARCH_HEURISTIC", None)
    return found if found is not None else available(game_name)[default_bot(game_name)]


def simulation_bot(game_name: str) -> str:
    """The bot `simulate` seats when none is named: the heuristic, unless the game names a
    cheaper one for mass runs (`SIMULATE`, e.g. where the heuristic runs physics)."""
    module = _module(game_name)
    return str(getattr(module, "SIMULATE", module.HEURISTIC))


def levels(game_name: str, players: int | None = None) -> dict[str, str]:
    """Difficulty name -> seat text (a concrete bot and budget) for a game (and a number
    of players, where a game's bots depend on it)."""
    module = _module(game_name)
    if players is not None and hasattr(module, "levels_for"):
        return dict(module.levels_for(players))
    return dict(
        getattr(module, "LEVELS", None)
        or {
            "easy": "bot:random",
            "medium": f"bot:{module.HEURISTIC}",
            "hard": "bot:ismcts?iterations=1000",
        }
    )


def parameters(cls: type) -> dict[str, Any]:
    """A bot's parameters and their defaults (from its constructor)."""
    return dict(_parameters(cls))


@functools.cache
def _parameters(cls: type) -> tuple[tuple[str, Any], ...]:
    # Read once per class: a server's bot seats a bot per move (make_seat), and reading a
    # signature cost more than the quick bot's move itself.
    sig = inspect.signature(cls)
    return tuple(
        (p.name, p.default)
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    )


def search_settings(game_name: str, players: int | None = None) -> dict[str, Any]:
    """A game's own ISMCTS settings (`ISMCTS`, or `ismcts_for(players)` where they
    depend on the table size)."""
    module = _module(game_name)
    if players is not None and hasattr(module, "ismcts_for"):
        return dict(module.ismcts_for(players))
    return dict(getattr(module, "ISMCTS", {}))


def estimates(game_name: str) -> dict[str, Any]:
    """A game's named guesses of the payoff of an unfinished state (`ESTIMATES` in its
    bots module), which ISMCTS can score cut rollouts with."""
    return dict(getattr(_module(game_name), "ESTIMATES", {}))


def defaults(game_name: str, name: str, players: int | None = None) -> dict[str, Any]:
    """A bot's parameters with the defaults it gets in this game (a game's own ISMCTS
    settings replace the search's generic ones)."""
    known = parameters(available(game_name)[name])
    if name == "ismcts":
        known.update(search_settings(game_name, players))
    return known


def parameter_ceiling(key: str, default: Any) -> float | None:
    """The server's ceiling of a bot parameter (None: not a number)."""
    if key in PARAMETER_CEILINGS:
        return PARAMETER_CEILINGS[key]
    if isinstance(default, int | float) and not isinstance(default, bool):
        return 100 * max(1.0, abs(float(default)))
    return None


# Parameters that name a file on the machine (the learned bot's policy file): a server
# taking seats from strangers must not open paths they choose, nor say which exist.
LOCAL_ONLY = frozenset({"path"})


def _check_ceiling(name: str, key: str, value: Any, default: Any) -> None:
    if key == "seed":
        return
    if key in LOCAL_ONLY:
        raise BadInput(
            said(
                N_("bot {bot} parameter '{key}' names a file; this server does not take it"),
                bot=name,
                key=key,
            )
        )
    if isinstance(value, str) and len(value) > 40:
        raise BadInput(said(N_("bot {bot} parameter '{key}' is too long"), bot=name, key=key))
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    top = parameter_ceiling(key, default)
    if value != value or (top is not None and not -top <= value <= top):  # NaN or past it
        raise BadInput(
            said(
                N_("bot {bot} parameter '{key}' = {value}: this server allows at most {most}"),
                bot=name,
                key=key,
                value=repr(value),
                most=f"{top:g}",
            )
        )


def _check_range(name: str, cls: type, key: str, value: Any) -> None:
    """A bot's own bounds on a parameter (its class's `ranges`: name -> (lowest,
    highest)), for every caller: outside them the bot would play nonsense, not refuse."""
    bounds = getattr(cls, "ranges", {}).get(key)
    if bounds is None or not isinstance(value, int | float) or isinstance(value, bool):
        return
    low, high = bounds
    if not low <= value <= high:  # NaN too
        raise BadInput(
            said(
                N_("bot {bot} parameter '{key}' = {value}: it is {low} to {high}"),
                bot=name,
                key=key,
                value=repr(value),
                low=f"{low:g}",
                high=f"{high:g}",
            )
        )


def make(name: str, game: Game, *, bounded: bool = False, **params: Any) -> Bot:
    """The bot `name` for `game`; parameters given as text are parsed to the default's type.

    bounded: refuse parameters past their ceiling (a server taking seats from strangers)."""
    bots = available(game.name)
    if name not in bots:
        raise BadInput(
            said(
                N_("{game} has no bot {bot}; bots: {bots}"),
                game=game.name,
                bot=repr(name),
                bots=", ".join(sorted(bots)),
            )
        )
    cls = bots[name]
    if name == "ismcts":  # a game's own search settings, overridable per seat
        params = {**search_settings(game.name, game.players), **params}
    known = parameters(cls)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise BadInput(
            said(
                N_("bot {bot} has no parameter(s) {unknown}; parameters: {known}"),
                bot=name,
                unknown=unknown,
                known=sorted(known),
            )
        )
    typed = {}
    for key, value in params.items():
        default = known[key]
        hint = (
            type(default) if default is not None and default is not inspect.Parameter.empty else str
        )
        typed[key] = _parse(key, value, hint) if isinstance(value, str) else value
        _check_range(name, cls, key, typed[key])
        if bounded:
            _check_ceiling(name, key, typed[key], default)
    if "game" in known and "game" not in typed:
        typed["game"] = game
    bot: Bot = cls(**typed)
    return bot


def parse_seat(text: str) -> tuple[str, dict[str, str]]:
    """`bot:ismcts?iterations=2000` -> ("ismcts", {"iterations": "2000"}); `bot` -> ("", {})."""
    text = text.strip()
    if text == "bot":
        return "", {}
    if not text.startswith("bot:"):
        raise BadInput(
            said(
                N_("a bot seat is 'bot', 'bot:NAME' or 'bot:NAME?param=value', got {seat}"),
                seat=repr(text),
            )
        )
    name, _, query = text[4:].partition("?")
    try:
        params = dict(parse_qsl(query, strict_parsing=bool(query)))
    except ValueError as err:
        raise BadInput(
            said(
                N_("bad bot parameters in {seat}: write name?param=value&param=value"),
                seat=repr(text),
            )
        ) from err
    return name, params


def _seat_bot(text: str, game: Game) -> tuple[str, dict[str, str]]:
    """The bot name and parameters a seat text means: plain `bot` is the game's heuristic
    and a difficulty (`easy`, `bot:hard`) names the level's bot."""
    text = text.strip()
    level = text.removeprefix("bot:")
    if level in LEVELS:
        text = levels(game.name, game.players)[level]
    name, params = parse_seat(text)
    return name or default_bot(game.name), params


def is_quick(text: str, game: Game) -> bool:
    """Whether the seat's bot decides in microseconds (its class says `quick = True`).
    A server plays such a bot in its own event loop: sending the state to a worker
    process and back would cost more than the move, and a server whose bots are all
    quick needs no worker processes at all. An unknown bot is not quick."""
    try:
        name, _ = _seat_bot(text, game)
    except BadInput:
        return False
    return bool(getattr(available(game.name).get(name), "quick", False))


def make_seat(text: str, game: Game, seed: int, *, bounded: bool = False) -> Bot:
    """A bot from its seat text, seeded (see `_seat_bot` for what the text may say). A bot
    refusing a value outside the range it declares with a ValueError (ismcts: iterations
    >= 1 or seconds > 0) is refused here as BadInput naming the seat: "bot
    ismcts?iterations=0: ...", in the reader's language where it is shown."""
    name, params = _seat_bot(text, game)
    if "seed" in parameters(available(game.name).get(name, object)) and "seed" not in params:
        params["seed"] = str(seed)
    try:
        return make(name, game, bounded=bounded, **params)
    except BadInput:
        raise
    except ValueError as err:
        bot = text.removeprefix("bot:")
        raise BadInput(said(N_("bot {bot}: {error}"), bot=bot, error=message_of(err))) from err
