"""OpenSpiel's own ISMCTS as a gamenight bot, `openspiel-ismcts`, so ours can be measured
against it wherever bots play (`gamenight tournament arne --bots "hard,openspiel-ismcts"`).

`FairOpenSpielISMCTS` is `open_spiel.python.algorithms.ismcts.ISMCTSBot` with random
rollouts to the end (its own evaluator) and two changes a user of it on these games would
make. Its nodes are keyed by the mover and the actions taken since the searched root, not by
`information_state_string`: the adapter's string is the seat's whole event stream, and
building it took about half of their search time. That key is the single-observer tree our
ISMCTS grows (with their `allow_inconsistent_action_sets`, since an opponent's node is then
reached with different legal actions). And with `seconds` its search loop runs until a
deadline instead of a fixed count (`run_search` with `range(max_simulations)` replaced by a
clock). Selection, expansion, the evaluator and the final policy are theirs, untouched.

`OpenSpielISMCTS` wraps the engine state a bot is given in the adapter's state (no copy of
the hidden cards leaves it: OpenSpiel's search sees the game only through
`resample_from_infostate`, the engine's `determinize`, seeded).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import gamenight.adapters.openspiel as adapter
from gamenight.engine.core import Action, BadInput, Game, State


class FairOpenSpielISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS with nodes keyed by the path from the root and (with `seconds`)
    a deadline for its search loop (see the module docstring)."""

    def __init__(
        self, game: Any, seed: int, iterations: int = 0, seconds: float = 0.0, c: float = 0.7
    ) -> None:
        rs = np.random.RandomState(seed)
        super().__init__(
            game,
            mcts.RandomRolloutEvaluator(1, rs),
            c,
            max(1, iterations),
            random_state=rs,
            allow_inconsistent_action_sets=True,
        )
        self.seconds = seconds
        self.set_resampler(adapter.seeded_resampler(seed))
        self.searched = 0
        self.search_time = 0.0
        self.iterations_done = 0
        self.root_length = 0

    def get_state_key(self, state: Any) -> Any:
        inner = state.inner
        index = inner.game.action_index
        return state.current_player(), tuple(index(a) for _, a in inner.history[self.root_length :])

    def run_search(self, state: Any) -> Any:
        self.root_length = len(state.inner.history)
        legal = state.legal_actions()
        if len(legal) == 1:  # (theirs returns here too, before making a root)
            return [(legal[0], 1.0)]
        start = time.perf_counter()
        if not self.seconds:
            policy = super().run_search(state)
        else:
            self.reset()
            self._root_node = self.create_new_node(state)
            deadline = start + self.seconds
            # The first simulation only expands the root; the final policy needs a visit.
            while self._root_node.total_visits < 1 or time.perf_counter() < deadline:
                self.run_simulation(self.sample_root_state(state))
            policy = self.get_final_policy(state, self._root_node)
        self.searched += 1
        self.search_time += time.perf_counter() - start
        self.iterations_done += self._root_node.total_visits
        return policy


class OpenSpielISMCTS:
    """A gamenight bot (`choose(state, seat)`) that asks OpenSpiel's ISMCTS.

    seconds: thinking time per decision (0: `iterations` simulations instead); c: the UCB
    exploration constant (payoffs are in [0, 1]). It plays the game of the state it is
    given (its options included); the OpenSpiel game around it only names the action space.
    """

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        seconds: float = 0.0,
        iterations: int = 1000,
        c: float = 0.7,
    ) -> None:
        if iterations < 1 and seconds <= 0:
            raise BadInput("openspiel-ismcts needs iterations >= 1 or seconds > 0")
        self.spiel_game = pyspiel.load_game(
            adapter.short_name(game.name), {"players": game.players}
        )
        self.search = FairOpenSpielISMCTS(
            self.spiel_game, seed % 2**31, iterations=iterations, seconds=seconds, c=c
        )
        self.last_iterations = 0

    def choose(self, state: State, seat: int) -> Action:
        if not state.actors or state.actors[0] != seat:
            raise BadInput(f"seat {seat} is not the one to move")
        wrapped = adapter.wrap_state(self.spiel_game, state)
        before = self.search.iterations_done
        index = self.search.step(wrapped)
        self.last_iterations = self.search.iterations_done - before
        return state.game.action_at(int(index))
