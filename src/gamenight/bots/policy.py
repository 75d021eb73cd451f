"""Bring your own policy (issue 47, item 4): `from_policy` makes a bot of a function or a
trained Stable-Baselines3 model that reads what the adapters give a learner.

A policy sees exactly what `gamenight.adapters.gymnasium` gives: the seat's encoded view
(`game.encode`, the same features as the Gymnasium observation) and the mask of legal
action indices (`game.num_actions` long); it answers an action index. A function
(observation, mask) -> index is called as it is; an object with `predict` (an SB3 model,
MaskablePPO or not) is asked `predict(observation, action_masks=mask, deterministic=True)`,
the observation shaped as it was trained (the Gymnasium adapter's dict, or flat);
a path to a saved SB3 model (`.zip`) is loaded with sb3-contrib's MaskablePPO in each
process that seats it. `register(name, from_policy(...))` then makes it the bot `name`
everywhere; worker processes get it too when the function is at the top of a module, or the
policy is a saved model's path (bots.register, `_pass_on`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from gamenight.engine.core import Action, BadInput, Game, State, has_seat_frame, said
from gamenight.i18n import N_


class PolicyBot:
    """A seat played by a policy (see the module docstring)."""

    def __init__(self, policy: Any, game: Game, name: str, seat_frame: bool = False) -> None:
        self.policy, self.game, self.name = policy, game, name
        self.as_dict = _trained_on_dict(policy)  # (read once, not at every decision)
        if seat_frame and not has_seat_frame(game):
            reason = said(
                N_("policy {policy} reads seat frames; {game} has none"),
                policy=name,
                game=game.name,
            )
            raise BadInput(reason)
        self.seat_frame = seat_frame

    def choose(self, state: State, seat: int) -> Action:
        import numpy as np  # (here: `gamenight --help` imports the registry, never numpy)

        game = self.game
        legal = state.actions(seat)
        view = state.view(seat)
        frame = game.seat_frame(view) if self.seat_frame else None
        if frame is not None:  # what it learned in the seat frame (GamenightEnv(seat_frame=True))
            by_index = {game.action_index(frame.to_frame(a)): a for a in legal}
            features = frame.tensor()
        else:
            by_index = {game.action_index(a): a for a in legal}
            features = game.encode(view)
        mask = np.zeros(game.num_actions, dtype=bool)
        mask[list(by_index)] = True
        observation = features.astype(np.float32)
        try:
            if hasattr(self.policy, "predict"):
                seen = (
                    {"observation": observation, "action_mask": mask.astype(np.int8)}
                    if self.as_dict
                    else observation
                )
                answer = self.policy.predict(seen, action_masks=mask, deterministic=True)
                answer = answer[0] if isinstance(answer, tuple) else answer
            else:
                answer = self.policy(observation, mask)
            index = int(np.asarray(answer).reshape(-1)[0])
        except BadInput:
            raise
        except Exception as err:  # the policy's own failure, said in one line
            raise BadInput(
                said(
                    N_("policy {policy} failed: {kind}: {problem}"),
                    policy=self.name,
                    kind=type(err).__name__,
                    problem=err,
                )
            ) from err
        if index not in by_index:
            raise BadInput(
                said(
                    N_(
                        "policy {policy} chose action {index}, which is not legal here "
                        "({legal} legal of {actions}; read the mask)"
                    ),
                    policy=self.name,
                    index=index,
                    legal=len(by_index),
                    actions=game.num_actions,
                )
            )
        return by_index[index]


def _trained_on_dict(model: Any) -> bool:
    """Whether `model` was trained on the Gymnasium adapter's dict observation
    ({"observation", "action_mask"}, `adapters.gymnasium.make`) rather than on the flat
    features (`gamenight train`): it is asked in the shape it learned."""
    keys = getattr(getattr(model, "observation_space", None), "spaces", None)
    return isinstance(keys, dict) and {"observation", "action_mask"} <= set(keys)


class PolicyFactory:
    """What `from_policy` returns: a bot factory `register` takes, (game, seed) -> bot.

    `spawn` is how a worker process finds the policy again ("module:qualname" of a
    function, or "sb3:PATH" of a saved model), None when it cannot (a lambda, a model
    object only in memory: such a bot plays in this process only)."""

    def __init__(self, policy: Any, name: str, spawn: str | None, seat_frame: bool = False) -> None:
        self.policy, self.name, self.seat_frame = policy, name, seat_frame
        self.spawn = f"{spawn}{FRAMED}" if spawn is not None and seat_frame else spawn

    def __call__(self, game: Game, seed: int = 0) -> PolicyBot:
        policy = self.policy
        if isinstance(policy, str):  # a saved model, loaded once per process
            policy = _load_sb3(policy)
        return PolicyBot(policy, game, self.name, self.seat_frame)


FRAMED = "#seat_frame"  # the end of a spawn text whose policy reads seat frames


def from_policy(policy: Any, *, seat_frame: bool = False) -> PolicyFactory:
    """A bot factory of `policy`: a function (observation, mask) -> action index, an object
    with SB3's `predict`, or the path of a model saved by SB3 (`model.save("mine")` writes
    mine.zip). Register it: `bots.register("mine", bots.from_policy(fn))`. `seat_frame`:
    the policy learned in seat frames (`GamenightEnv(..., seat_frame=True)`), so it is shown
    its seat's frame and its answer is turned back to the table's action."""
    if isinstance(policy, str | Path):
        path = Path(policy).expanduser().resolve()
        if path.suffix != ".zip":
            path = path.with_suffix(".zip") if not path.is_file() else path
        if not path.is_file():
            raise BadInput(f"no saved model at {path} (SB3's model.save writes a .zip)")
        return PolicyFactory(str(path), path.stem, f"sb3:{path}", seat_frame)
    if hasattr(policy, "predict") and callable(policy.predict):
        return PolicyFactory(policy, type(policy).__name__, None, seat_frame)
    if not callable(policy):
        raise BadInput(
            "from_policy takes a function (observation, mask) -> action index, an SB3 model "
            f"or a saved model's path; got {type(policy).__name__}"
        )
    module = getattr(policy, "__module__", None)
    qualname = getattr(policy, "__qualname__", "")
    spawn = f"{module}:{qualname}" if module and "<" not in qualname else None
    return PolicyFactory(policy, getattr(policy, "__name__", "policy"), spawn, seat_frame)


@functools.cache
def _load_sb3(path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as err:
        raise BadInput(
            said(N_("a saved model needs the learn extra: pip install 'gamenight[learn]'"))
        ) from err
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as err:
        raise BadInput(
            said(
                N_("cannot load the model {path}: {kind}: {problem}"),
                path=path,
                kind=type(err).__name__,
                problem=err,
            )
        ) from err


def policy_from_spawn(spawn: str) -> PolicyFactory:
    """In a worker process: the policy a parent's `PolicyFactory.spawn` names."""
    import importlib

    framed = spawn.endswith(FRAMED)
    spawn = spawn.removesuffix(FRAMED)
    if spawn.startswith("sb3:"):
        return from_policy(spawn.removeprefix("sb3:"), seat_frame=framed)
    module, _, qualname = spawn.partition(":")
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return from_policy(target, seat_frame=framed)
