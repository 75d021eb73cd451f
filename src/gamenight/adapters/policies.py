"""gamenight's bots in other libraries' shapes: an OpenSpiel `pyspiel.Bot`, an OpenSpiel
`policy.Policy` (for exploitability and best response), and a PettingZoo policy.

    bot = spiel_bot(game, "bot:exact", player=0)           # game: a loaded OpenSpiel game
    policy = spiel_policy(game, "bot:threshold")            # every player plays that bot
    act = pettingzoo_policy(env, "bot:threshold")           # act(observation, agent) -> int

Seat texts are as on the command line (`bot`, `bot:NAME`, `bot:NAME?param=value`, a level).
A bot reads only what its seat may know (the engine state it is given is the true one, as
in gamenight's own drivers; bots use `view`, `events` and `determinize`).
"""

from __future__ import annotations

from typing import Any

import pyspiel
from open_spiel.python import policy as spiel_policies

from gamenight.bots import make_seat
from gamenight.engine.driver import Bot


def spiel_bot(game: Any, text: str, player: int, seed: int = 0) -> pyspiel.Bot:
    """A gamenight bot playing `player` in an OpenSpiel gamenight game."""
    return _SpielBot(make_seat(text, game.inner, seed), player)


class _SpielBot(pyspiel.Bot):
    def __init__(self, bot: Bot, player: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.player = player

    def step(self, state: Any) -> int:
        inner = state.inner
        action = self.bot.choose(inner, self.player)
        return int(inner.game.action_index(action))

    def restart_at(self, state: Any) -> None:
        pass


class BotPolicy(spiel_policies.Policy):
    """An OpenSpiel policy: each player plays the bot of `text` (probability 1 on its
    choice). Bots with randomness are seeded alike at every state, so the policy is a
    function of the state."""

    def __init__(self, game: Any, text: str, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.text = text
        self.seed = seed
        self.inner_game = game.inner

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        inner = state.inner
        seat = state.current_player() if player_id is None else player_id
        bot = make_seat(self.text, self.inner_game, self.seed)
        chosen = int(self.inner_game.action_index(bot.choose(inner, seat)))
        return {a: float(a == chosen) for a in state.legal_actions(seat)}


def spiel_policy(game: Any, text: str, seed: int = 0) -> BotPolicy:
    return BotPolicy(game, text, seed)


def pettingzoo_policy(env: Any, text: str, seed: int = 0) -> Any:
    """`act(observation, agent) -> action index` for a gamenight PettingZoo env: the bot
    of `text` playing `agent`'s seat (the observation is not needed: bots read the seat's
    view from the env's engine state)."""
    bare = env.unwrapped
    bots: dict[str, Bot] = {}

    def act(observation: Any, agent: str) -> int:
        if agent not in bots:
            bots[agent] = make_seat(text, bare.game, seed + bare.possible_agents.index(agent))
        seat = bare.possible_agents.index(agent)
        action = bots[agent].choose(bare.game_state, seat)
        return int(bare.game.action_index(action))

    return act
