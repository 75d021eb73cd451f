"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse
2012) over the engine contract, for any game.

Every iteration searches one determinization of the root (`state.determinize(seat, rng)`:
what the seat cannot know is resampled), walks the one tree of the seat's information set
with UCB1 using availability counts (a child's exploration term counts the iterations in
which it was legal, not the parent's visits), expands one node, finishes the game with a
rollout policy and backs up each mover's payoff. The tree holds decisions of every seat;
the state itself is never deep-copied beyond the one determinization per iteration.
"""

from __future__ import annotations

import math
import operator
import random
import time
from typing import Any

from gamenight.engine.core import Action, Game, State, said
from gamenight.i18n import N_


class SearchNode:
    """An edge and the node below it: the action that led here, who took it, its stats."""

    __slots__ = ("action", "avail", "children", "mover", "reward", "visits")

    def __init__(self, action: Action | None, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[Any, SearchNode] = {}  # action index, or (mover, index)
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSBot:
    """ISMCTS with an iteration budget (or a time budget in seconds), seeded.

    rollout: "random" plays uniformly; "heuristic" plays the game's own heuristic bot (as
    `gamenight.bots.search_heuristic` gives it: the same moves, read from the searched world).
    c: the UCB exploration constant (payoffs are in [0, 1]).
    max_rollout: decisions after which a rollout stops and is scored by the state's own
    `estimate()` (a draw if it has none); games like Drop or Stop have no bound (R34), and
    long games like Arne play stronger with short rollouts and a good estimate.
    estimate: how a cut rollout is scored: "state" is the state's own `estimate()`; any
    other name is a function of the game's bots module `ESTIMATES` (a smoother guess, say).
    widen: progressive widening at the root: when > 0, the search considers only the
    `widen` actions the game's heuristic ranks best (its `ranked(state, seat)`), one more
    each time the root's iterations pass the next square of 4, 8, 12, ... (all of them
    after enough iterations); a wide choice (Arne's black cards: any stack of any display)
    then spends its iterations on the moves worth comparing.
    widen_tree: widen every node of the tree the same way (with the node's visits for the
    root's iterations), the mover's actions ranked on the iteration's world from the
    mover's own view, and expand the best-ranked untried action first: an opponent's reply
    is then first searched where the heuristic would play, not at random among dozens.
    paired: compare the root's actions on common determinizations: every round resamples
    the hidden cards once and runs one iteration below each candidate root action (the
    heuristic's best `widen`, or every legal action when widen is 0) on a copy of that
    same world, with the same seeds for what follows (rollout policy, the tree's random
    choices). The tree below each root action is the usual ISMCTS. With fresh
    determinizations per root selection, the deal's noise (which hand the opponent holds)
    hides the small edges between two moves; on a shared deal it cancels out of their
    difference. Rounds run whole, so every candidate gets the same visits and the most
    visited (ties: the best summed payoff) is the best mean.
    skip_forced: below the root, a mover with one legal action plays it without a node of
    the tree (children are then keyed by mover and action, since the same path can reach
    different movers). Otherwise each forced step costs an iteration's one expansion: a
    third of Arne's decisions at 2 players, nearly half at 4, are a lone Pass of a
    black-card window, so the tree grew that much slower below the root.
    """

    def __init__(
        self,
        game: Game | None = None,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        max_rollout: int = 400,
        estimate: str = "state",
        widen: int = 0,
        paired: bool = False,
        widen_tree: bool = False,
        skip_forced: bool = False,
    ) -> None:
        if iterations < 1 and seconds <= 0:
            # (a ValueError: bots.make_seat says it as BadInput naming the seat)
            raise ValueError(said(N_("ismcts needs iterations >= 1 or seconds > 0")))
        if rollout not in ("random", "heuristic"):
            raise ValueError(
                said(
                    N_("rollout must be 'random' or 'heuristic', got {value}"), value=repr(rollout)
                )
            )
        self.game = game
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.max_rollout = max_rollout
        self.estimate = estimate
        self.widen = widen
        self.paired = paired
        self.widen_tree = widen_tree
        self.skip_forced = skip_forced
        self._tree_ranker: Any = None
        self._estimator: Any = None
        self._heuristic: Any = None
        self.last_iterations = 0
        if game is not None:
            # A parameter this game cannot use is refused now, when the seat is made (a
            # ValueError: bots.make_seat says it as BadInput naming the seat), not at the
            # bot's first search mid-game. (No heuristic is made here: the seeds stay.)
            self._estimator_of(game)
            if widen > 0 and not hasattr(self._heuristic_class(game), "ranked"):
                raise _cannot_widen(game)

    def _rollout_policy(self, game: Game) -> Any:
        if self.rollout == "random":
            return None
        return self._heuristic_bot(game)

    def _heuristic_bot(self, game: Game) -> Any:
        if self._heuristic is None:
            self._heuristic = self._heuristic_class(game)(seed=self.rng.randrange(1 << 30))
        return self._heuristic

    @staticmethod
    def _heuristic_class(game: Game) -> Any:
        from gamenight.bots import search_heuristic

        return search_heuristic(game.name)

    def _estimator_of(self, game: Game) -> Any:
        """The function scoring a cut rollout: `State.estimate` or one the game names."""
        if self._estimator is None:
            if self.estimate == "state":
                self._estimator = operator.methodcaller("estimate")
            else:
                from gamenight.bots import estimates

                known = estimates(game.name)
                if self.estimate not in known:
                    raise ValueError(
                        said(
                            N_("{game} has no estimate {name}; estimates: state, {estimates}"),
                            game=game.name,
                            name=repr(self.estimate),
                            estimates=", ".join(sorted(known)),
                        )
                    )
                self._estimator = known[self.estimate]
        return self._estimator

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if len(legal) == 1:
            return legal[0]
        best = max(self.search(state, seat), key=lambda n: (n.visits, n.reward))
        assert best.action is not None
        return best.action

    def search(self, state: State, seat: int) -> list[SearchNode]:
        """Search from `seat`'s information set and return the root's children that are
        legal now: each with its action, visits and summed payoff (a coach reads these)."""
        legal = state.actions(seat)
        game = state.game
        index = game.action_index
        policy = self._rollout_policy(game)
        estimator = self._estimator_of(game)
        rng = self.rng
        root = SearchNode(None, seat)
        ranked = self._ranked(state, seat, legal)
        if self.widen_tree and self.widen > 0:
            self._tree_ranker = self._ranker(game)
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        if self.paired:
            candidates = ranked[: self.widen] if ranked else legal
            self._search_paired(state, seat, root, candidates, estimator, deadline)
            return self._legal_children(root, seat, legal, index)
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done > 0:
                    break
            elif done >= self.iterations:
                break
            allowed = ranked[: self.widen + math.isqrt(done) // 4] if ranked else None
            self._iterate(
                state.determinize(seat, rng), root, index, policy, estimator, rng, allowed
            )
            done += 1
        self.last_iterations = done
        return self._legal_children(root, seat, legal, index)

    def _legal_children(
        self, root: SearchNode, seat: int, legal: list[Action], index: Any
    ) -> list[SearchNode]:
        keys = set(self._keys(seat, legal, index))
        return [child for key, child in root.children.items() if key in keys]

    def _keys(self, mover: int, legal: list[Action], index: Any) -> list[Any]:
        """The children's keys of `legal`: the action index, or (mover, index) with
        skip_forced, where one path can reach different movers."""
        keys = []  # loops: on Python 3.11 a comprehension makes a function per call
        if self.skip_forced:
            for a in legal:
                keys.append((mover, index(a)))
        else:
            for a in legal:
                keys.append(index(a))
        return keys

    def _search_paired(
        self,
        state: State,
        seat: int,
        root: SearchNode,
        candidates: list[Action],
        estimator: Any,
        deadline: float | None,
    ) -> None:
        """Whole rounds: one determinization, one iteration below every candidate on a copy
        of it, each with the same seed for the rest (see the class docstring). Under a
        time budget a round starts only when it is expected to end before the deadline."""
        game = state.game
        index = game.action_index
        rng = self.rng
        heuristic = None if self.rollout == "random" else self._heuristic_class(game)
        k = len(candidates)
        rounds = 0
        round_time = 0.0
        while True:
            if deadline is not None:
                now = time.perf_counter()
                if rounds > 0 and now + round_time > deadline:
                    break
            elif rounds * k >= self.iterations:
                break
            world = state.determinize(seat, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                d = world if i == k - 1 else world.copy()
                policy = None if heuristic is None else heuristic(seed=seed)
                self._iterate(d, root, index, policy, estimator, random.Random(seed), [action])
            rounds += 1
            if deadline is not None:
                round_time = time.perf_counter() - now
        self.last_iterations = rounds * k

    def _ranked(self, state: State, seat: int, legal: list[Action]) -> list[Action] | None:
        """The root's actions best first by the game's heuristic, when widening pays."""
        if self.widen <= 0 or len(legal) <= self.widen:
            return None
        ranked: list[Action] = self._ranker(state.game).ranked(state, seat)
        return ranked

    def _ranker(self, game: Game) -> Any:
        heuristic = self._heuristic_bot(game)
        if not hasattr(heuristic, "ranked"):
            raise _cannot_widen(game)
        return heuristic

    def _iterate(
        self,
        d: State,
        root: SearchNode,
        index: Any,
        policy: Any,
        estimator: Any,
        rng: random.Random,
        allowed: list[Action] | None = None,
    ) -> None:
        node = root
        path = []
        c = self.c
        ranker = self._tree_ranker
        skip = self.skip_forced
        # Selection and expansion.
        while d.actors:
            mover = d.actors[0]
            ordered = False
            if node is root and allowed is not None:
                legal = allowed
            else:
                legal = d.actions(mover)
                if skip and len(legal) == 1 and node is not root:
                    d.act_legal(mover, legal[0])
                    continue
                if ranker is not None and len(legal) > self.widen:
                    # The mover's best by the heuristic, on this world as the mover sees it.
                    top = self.widen + math.isqrt(node.visits) // 4
                    legal = ranker.ranked(d, mover)[:top]
                    ordered = True
            children = node.children
            keys = self._keys(mover, legal, index)
            untried = []
            for i, key in enumerate(keys):
                child = children.get(key)
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                if ordered or len(untried) == 1:
                    i = untried[0]
                else:
                    i = untried[rng.randrange(len(untried))]
                action = legal[i]
                child = SearchNode(action, mover)
                child.avail = 1
                children[keys[i]] = child
                d.act_legal(mover, action)
                path.append(child)
                break
            best = None
            best_score = -1.0
            for key in keys:
                child = children[key]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_score = child, score
            assert best is not None and best.action is not None
            d.act_legal(mover, best.action)
            path.append(best)
            node = best
        # Rollout.
        steps = 0
        while d.actors and steps < self.max_rollout:
            mover = d.actors[0]
            if policy is None:
                options = d.actions(mover)
                d.act_legal(mover, options[rng.randrange(len(options))])
            else:
                d.act_legal(mover, policy.choose(d, mover))
            steps += 1
        payoff = d.outcome().payoff if not d.actors else estimator(d)
        for child in path:
            child.visits += 1
            child.reward += payoff[child.mover] if payoff is not None else 0.5


def _cannot_widen(game: Game) -> ValueError:
    """`widen` in a game whose heuristic cannot rank the actions."""
    return ValueError(
        said(N_("widen needs a heuristic with ranked(); {game} has none"), game=game.name)
    )
