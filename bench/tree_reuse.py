"""What ISMCTS tree reuse between decisions could buy (issue 17, item 5): in Arne games
where seat 0 searches a fixed number of iterations a decision and seat 1 plays greedy,
the share of the last search's iterations that lie below the node the game has reached
when seat 0 decides again (its own move, then everyone's since, forced moves skipped as
`skip_forced` skips them). Reuse would start the new search with that many iterations.

Usage: python bench/tree_reuse.py [games] [iterations] [players]
"""

from __future__ import annotations

import statistics
import sys
from typing import Any

import gamenight
from gamenight.bots.ismcts import ISMCTSBot, SearchNode
from gamenight.games.arne.bots import ISMCTS, GreedyBot


def reached(old: Any, root: SearchNode, now: Any) -> SearchNode | None:
    """The node of the old tree at the end of the moves played since `old` (None: a move
    the tree never tried)."""
    index = now.game.action_index
    state, node = old.copy(), root
    for mover, action in now.history[len(old.history) :]:
        forced = node is not root and len(state.actions(mover)) == 1
        if not forced:
            found = node.children.get((mover, index(action)))
            if found is None:
                return None
            node = found
        state.act_legal(mover, action)
    return node


def shares(games: int, iterations: int, players: int) -> list[float]:
    out = []
    for seed in range(games):
        game = gamenight.load("arne", players=players)
        state = game.start(seed)
        greedy = GreedyBot(seed)
        bot = ISMCTSBot(game, seed=seed, **{**ISMCTS, "iterations": iterations})
        last: tuple[Any, SearchNode] | None = None
        while state.actors:
            seat = state.actors[0]
            if seat != 0 or len(state.actions(seat)) == 1:
                state.act(seat, greedy.choose(state, seat))
                continue
            if last is not None:
                node = reached(*last, state)
                out.append(0.0 if node is None else node.visits / iterations)
            root = SearchNode(None, seat)
            children = bot.search(state, seat)
            for child in children:
                root.children[(seat, game.action_index(child.action))] = child
            last = (state.copy(), root)
            state.act(seat, max(children, key=lambda n: (n.visits, n.reward)).action)
    return out


def main() -> None:
    given = [int(a) for a in sys.argv[1:]]
    games, iterations, players = given + [6, 170, 2][len(given) :]
    found = shares(games, iterations, players)
    print(
        f"{len(found)} decisions, {iterations} iterations each: below the reached node "
        f"mean {statistics.mean(found):.3f}, median {statistics.median(found):.3f}, "
        f"none in {sum(x == 0 for x in found) / len(found):.0%}"
    )


if __name__ == "__main__":
    main()
