"""Arne bots: `random`; `greedy`, a one-step heuristic; `rollout`, greedy improved by
simulation (the `hard` level from 3 players up, see RolloutBot and LEVELS).

All use only what their seat may see: `state.view(seat)`, `state.actions(seat)` and
`state.determinize(seat, rng)`.
The greedy bot scores every legal action by how it changes the live score preview
(spec 5.1) for itself against its best opponent, minus a price for spending a card, and
plays the best one (passing when nothing is worth its card). So it lays its own points,
crushes the leader's big cards, locks crushes on its own cards, keeps a thief for a
chameleon stack and plays -200 on the leader; in the losing game every sign turns round.
"""

from __future__ import annotations

import functools
import math
import random
import time
from typing import Any

from gamenight.engine.core import Action, State
from gamenight.engine.driver import RandomBot
from gamenight.games.arne import actions as A
from gamenight.games.arne.components import FACE
from gamenight.games.arne.scoring import ScoredStack, display_score, player_scores

# What spending a card costs the greedy bot (it keeps black cards for good moments).
CARD_PRICE = {
    "CRUSH": 120,
    "LOCK": 80,
    "MINUS200": 60,
    "CHAMELEON": 60,
    "THIEF": 150,
    "STOP": 40,
    "REVERSE": 40,
}
WHITE_VALUE = {"TakeRandom": 60, "DemandBlack": 70, "DrawThree": 110, "PassHands": 0}
# How much a card is worth keeping, for choosing what to hand over (A24/A25).
KEEP = {"STOP": 1, "REVERSE": 2, "LOCK": 5, "MINUS200": 6, "CHAMELEON": 7, "CRUSH": 8, "THIEF": 9}


def _stacks(display: dict[str, Any]) -> list[ScoredStack]:
    return [
        ScoredStack(s["base"].split()[-1], s["x3"], s["crush"], s["lock"], s["chameleon"])
        for s in display["stacks"]
    ]


class GreedyBot:
    """One-step look-ahead on the public score preview (see the module docstring)."""

    quick = True  # tens of microseconds a move (see gamenight.bots.is_quick)

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def ranked(self, state: State, seat: int) -> list[Action]:
        """The legal actions, best first (ties in the engine's order): ISMCTS widens its
        root along this."""
        legal = state.actions(seat)
        ctx = self._context(state, seat)
        values = [ctx.value(action) for action in legal]
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        return [legal[i] for i in order]

    def _value_of(self, state: State, seat: int, action: Action) -> float:
        return self._context(state, seat).value(action)

    def _context(self, state: State, seat: int) -> _Context:
        return _Context(state.view(seat), seat)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if len(legal) == 1:
            return legal[0]
        ctx = self._context(state, seat)
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            value = ctx.value(action)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else self._tie(best)

    def _tie(self, best: list[Action]) -> Action:
        return self.rng.choice(best)


class SearchGreedy(GreedyBot):
    """Greedy inside ISMCTS (its rollouts and the ranking that widens its tree): the same
    choices and the same random draws as GreedyBot, read from `_table_view` (the public
    part of the table, built straight from the state) instead of the whole seat view,
    which was 28% of a 2-player search's time, and with the displays' stacks made
    straight from the state's (`_table_stacks`), not through their views' names."""

    def _context(self, state: State, seat: int) -> _Context:
        return _Context(_table_view(state), seat, _table_stacks(state))


class _RolloutGreedy(SearchGreedy):
    """SearchGreedy for the seats of the hard level's rollouts, with its random stream
    started only at the first tie (the same draws; seeding one per seat and rollout cost
    3%)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.tie_rng: random.Random | None = None

    def _tie(self, best: list[Action]) -> Action:
        if self.tie_rng is None:
            self.tie_rng = random.Random(self.seed)
        return self.tie_rng.choice(best)


def _table_stacks(state: Any) -> list[list[ScoredStack]]:
    """Every display's stacks as `_Context` reads them from a view (`_stacks`), made from
    the state's stacks (their base card's type, and which attachments lie on them)."""
    game = state.game
    card_kind, kind_type = game.card_kind, game.kind_type
    new = tuple.__new__  # ScoredStack(...) without NamedTuple's keyword handling
    tables = []
    for stacks in state.displays:  # loops: a comprehension makes a function per call (3.11)
        table = []
        for s in stacks:
            scored = (
                kind_type[card_kind[s.base]],
                s.x3 >= 0,
                s.crush >= 0,
                s.lock >= 0,
                s.chameleon >= 0,
            )
            table.append(new(ScoredStack, scored))
        tables.append(table)
    return tables


def _table_view(state: Any) -> dict[str, Any]:
    """The public keys of `state.view(seat)` that `_Context` reads, the same values, but
    the displays (`_table_stacks` gives their stacks)."""
    game = state.game
    names, card_kind = game.kind_name, game.card_kind
    hands, player_at = state.hands, state.player_at
    pending = state.pending
    seats = []
    for seat in range(game.n):
        team = seat % game.teams if game.team else seat
        seats.append({"team": team, "hand_size": len(hands[player_at[seat]])})
    return {
        "mode": game.options.mode,
        "variant": game.options.variant,
        "seat_of": list(state.seat_of),
        "seats": seats,
        "dummy_seat": state.dummy_controller
        if game.dummy and state.dummy_controller >= 0
        else None,
        "discard": [names[card_kind[state.discard[-1]]]] if state.discard else [],
        "draw_pile": len(state.deck),
        "turn_seat": state.turn_seat,
        "direction": state.direction,
        "pending": {"kind": pending.kind, "player": pending.player} if pending else None,
    }


class _Context:
    """The table as lists of stacks, and the value of an action for `me`."""

    def __init__(
        self, view: dict[str, Any], me: int, tables: list[list[ScoredStack]] | None = None
    ) -> None:
        self.view = view
        self.me = me
        self.sign = 1 if view["mode"] == "normal" else -1
        self.tables = [_stacks(d) for d in view["displays"]] if tables is None else tables
        # loops, not comprehensions: a context is made for every decision of a rollout
        scores: list[int] = []
        for table in self.tables:
            scores.append(display_score(table))
        self.scores = scores
        self.seat_of = list(view["seat_of"])
        self.n = len(self.seat_of)
        self.team = view["variant"] == "team"
        self.dummy = view["variant"] == "dummy"
        others: list[int] = []
        for p in range(self.n):
            if p != me:
                others.append(p)
        self.others = others
        self.base = self._eval(self.scores, self.seat_of, view["dummy_seat"])
        # Cards left in hand are worth nothing once the draw pile is empty (A41, A42).
        self.thrift = 0.0 if view["draw_pile"] == 0 else 1.0

    def _eval(self, scores: list[int], seat_of: list[int], dummy_seat: int | None) -> float:
        """My score against the best opponent's (sign turned in the losing game)."""
        if not self.team and not self.dummy:  # each player scores their own display (A46)
            mine = scores[seat_of[self.me]]
            others = []
            for p in self.others:
                others.append(scores[seat_of[p]])
        else:
            teams = None
            if self.team:
                teams = [s["team"] for s in self.view["seats"]]
            per = player_scores(
                scores,
                seat_of,
                team_of_seat=teams,
                dummy_display=self.n if self.dummy else None,
                dummy_controller=dummy_seat if self.dummy else None,
            )
            mine = per[self.me]
            mates = set()
            if teams is not None:
                mine_team = teams[seat_of[self.me]]
                mates = {p for p in range(self.n) if teams[seat_of[p]] == mine_team}
            others = [per[p] for p in range(self.n) if p != self.me and p not in mates]
        if not others:
            return self.sign * mine
        rival = max(others) if self.sign > 0 else min(others)
        return self.sign * (mine - rival)

    def _with(self, j: int, stacks: list[ScoredStack]) -> float:
        scores = list(self.scores)
        scores[j] = display_score(stacks)
        return self._eval(scores, self.seat_of, self.view["dummy_seat"]) - self.base

    def value(self, a: Action) -> float:
        t = self.tables
        # the kinds in the order searches meet them most (PlayPoint, Pass, Crush, ...);
        # a changed stack is made whole, not by NamedTuple._replace (Python-level, slow)
        if isinstance(a, A.PlayPoint):
            if a.display < 0:  # discarding: lose the least
                return -FACE.get(a.card, 0) / 100 - (a.card == "X2")
            return self._with(a.display, [*t[a.display], ScoredStack(a.card)]) + 1
        if isinstance(a, A.Pass):
            return 0.0
        if isinstance(a, A.Crush):
            st = t[a.display][a.stack]
            new = self._replace(
                a.display, a.stack, ScoredStack(st.base, st.x3, True, st.lock, st.chameleon)
            )
            return self._with(a.display, new) - self._price("CRUSH")
        if isinstance(a, A.ChooseColour | A.Give):
            if isinstance(a, A.Give):
                return -FACE.get(a.card, 0) - KEEP.get(a.card, 3) * 10
            return 0.0
        if isinstance(a, A.Triple):
            st = t[a.display][a.stack]
            tripled = ScoredStack(st.base, True, st.crush, st.lock, st.chameleon)
            return self._with(a.display, self._replace(a.display, a.stack, tripled))
        if isinstance(a, A.MinusTwoHundred):
            gain = self._with(a.display, [*t[a.display], ScoredStack("MINUS200")])
            return gain - self._price("MINUS200")
        if isinstance(a, A.Chameleon):
            gain = self._with(a.display, [*t[a.display], ScoredStack(a.card, chameleon=True)])
            spent = FACE.get(a.card, 0) / 4  # the carried card could have been laid white
            return gain - self._price("CHAMELEON") - spent
        if isinstance(a, A.Lock):
            st = t[a.display][a.stack]
            new = self._replace(
                a.display, a.stack, ScoredStack(st.base, st.x3, st.crush, True, st.chameleon)
            )
            return self._with(a.display, new) - self._price("LOCK")
        if isinstance(a, A.ThiefStack):
            return self._steal(a) - self._price("THIEF")
        if isinstance(a, A.ThiefDiscard):
            top = self.view["discard"][-1].split()[-1]
            worth = FACE.get(top, 0) / 2 + CARD_PRICE.get(top, 0)
            return worth - self._price("THIEF")
        if isinstance(a, A.Stop | A.Reverse):
            return self._next_turn_value(a) - self._price(a.kind.upper())
        if isinstance(a, A.SwapPlaces):
            seat_of = list(self.seat_of)
            q = a.target
            seat_of[self.me], seat_of[q] = seat_of[q], seat_of[self.me]
            return self._eval(self.scores, seat_of, self.view["dummy_seat"]) - self.base
        if isinstance(a, A.DemandPoints):
            target = self.view["seats"][self.seat_of[a.target]]
            gain = self._with(a.display, [*t[a.display], ScoredStack("P100"), ScoredStack("P100")])
            return gain * min(1.0, target["hand_size"] / 6) + 20
        return float(WHITE_VALUE.get(type(a).__name__, 0))

    def _price(self, card: str) -> float:
        return CARD_PRICE[card] * self.thrift

    def _next_turn_value(self, a: Action) -> float:
        """STOP/REVERSE (A14, A34, A35): worth a turn when it gives me one I would not get."""
        view = self.view
        if self.thrift == 0.0 or (self.dummy and isinstance(a, A.Reverse)):
            return 0.0
        pending = view["pending"]
        if pending is not None and pending["player"] == self.me:
            return 0.0
        mine = self.seat_of[self.me]
        nxt = (view["turn_seat"] + view["direction"]) % self.n
        if pending is None and nxt == mine:
            return 0.0  # the turn comes to me anyway
        return 60.0

    def _replace(self, j: int, s: int, st: ScoredStack) -> list[ScoredStack]:
        stacks = list(self.tables[j])
        stacks[s] = st
        return stacks

    def _steal(self, a: A.ThiefStack) -> float:
        me_seat = self.seat_of[self.me]
        src = list(self.tables[a.display])
        st = src.pop(a.stack)
        dst = [*self.tables[me_seat], st]
        scores = list(self.scores)
        scores[a.display] = display_score(src)
        scores[me_seat] = display_score(dst)
        return self._eval(scores, self.seat_of, self.view["dummy_seat"]) - self.base


class RolloutBot:
    """Greedy improved by simulation (a rollout algorithm): each of greedy's `top` best
    actions is tried on the same `samples` determinizations (common random numbers: the
    same resampled hands, deck order and seeds for every candidate), the table plays on
    with greedy in every seat for `horizon` decisions, and the action with the best mean
    payoff wins (a finished game's payoff, else `margin_estimate`). Greedy's own pick
    wins ties, so the bot plays greedy where the samples tell the moves apart by nothing.

    Since the table is played on by the very policy the opponents use, the comparison is
    between futures that differ only by this move; ISMCTS spreads the same budget over a
    tree of every seat's decisions and fresh determinizations per iteration, so two root
    moves are compared through different deals and the noise hides small edges.
    cut: after half the samples only the best `cut` candidates play the other half (0: all
    play every sample), so the close ones get the samples the clearly worse ones would cost
    (not better at 5 players in a probe, see HARD; no level uses it).
    seconds: a cap on one decision's time (0: none; results then depend on the clock)."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 48,
        top: int = 4,
        horizon: int = 20,
        cut: int = 0,
        seconds: float = 0.0,
    ) -> None:
        if samples < 1 or top < 1 or horizon < 0 or cut < 0:
            raise ValueError("rollout needs samples >= 1, top >= 1, horizon >= 0 and cut >= 0")
        self.rng = random.Random(seed)
        self.samples = samples
        self.top = top
        self.horizon = horizon
        self.cut = cut
        self.seconds = seconds
        self.greedy = GreedyBot(seed)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.actions(seat)
        if len(legal) == 1:
            return legal[0]
        candidates = self.greedy.ranked(state, seat)[: self.top]
        totals = self.values(state, seat, candidates)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def values(self, state: State, seat: int, candidates: list[Action]) -> list[float]:
        """Summed payoff of each candidate over the samples (the same futures for all);
        a candidate cut after half the samples gets -inf."""
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        first = self.samples
        if 0 < self.cut < len(candidates):
            first = max(1, self.samples // 2)
        for done in range(self.samples):
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if done == first:
                alive = sorted(alive, key=lambda i: (-totals[i], i))[: self.cut]
            world = state.determinize(seat, self.rng)
            bot_seed = self.rng.getrandbits(32)
            for i in alive:
                totals[i] += self._play_on(world, seat, candidates[i], bot_seed)
        return [t if i in alive else float("-inf") for i, t in enumerate(totals)]

    def _play_on(self, world: State, seat: int, action: Action, bot_seed: int) -> float:
        """`seat`'s payoff after `action` and `horizon` greedy decisions in every seat."""
        future = world.copy()
        future.act_legal(seat, action)
        bots = [_RolloutGreedy(bot_seed + p) for p in range(world.game.players)]
        steps = 0
        while future.actors and steps < self.horizon:
            mover = future.actors[0]
            future.act_legal(mover, bots[mover].choose(future, mover))
            steps += 1
        payoff = future.outcome().payoff if not future.actors else margin_estimate(future)
        return payoff[seat]


BOTS: dict[str, type[Any]] = {"random": RandomBot, "greedy": GreedyBot, "rollout": RolloutBot}
HEURISTIC = "greedy"
SEARCH_HEURISTIC = SearchGreedy  # the heuristic as ISMCTS plays it (gamenight.bots)

# ISMCTS settings for Arne, every table size: rollouts played by the greedy bot, cut after
# 20 decisions and scored by the margin estimate below (totals, table and hand), and the
# root widened along greedy's ranking from its best 3 actions (a black-card window offers
# every stack of every display). An iteration costs about 4x a random one and buys far
# more: against OpenSpiel's ISMCTS at 0.1 s per decision (bench/ismcts.py head_to_head,
# 90 games each, 2026-12-01, load ~12) ours finished ahead in 65.6% [55.3-74.6] at 2
# players and 70.4% [60.3-78.9] at 4. Before (random rollouts, to the end at 2 players,
# cut at 20 and ranked by `estimate()` at more): 48% and 56% in two 80-game runs at 2.
# At 1 s per decision (2 players, 90 games) only 53.3% [43.1-63.3]: OpenSpiel's rollouts to
# the end catch up once it runs enough of them; a cut rollout's estimate caps ours there.
ISMCTS = {
    "iterations": 1000,
    "max_rollout": 20,
    "rollout": "heuristic",
    "estimate": "margin",
    "widen": 3,
    # Every node widened along greedy's ranking from the mover's view, its best expanded
    # first: a reply is searched where greedy would play, not at random among dozens.
    # On the same 20 deals played twice (bench/ismcts.py --duplicate, 0.1 s, 2 players):
    # 0.775 with it, 0.575 without. With it (2026-12-01, load 2-2.9): 0.1 s 2 players 160
    # games 62.5% [54.8-69.6], with 80 more (--first 160, run after seeing that) 240 games
    # 64.2% [57.9-70.0]; 4 players 60 games 60.2% [47.6-71.6]; 1 s 2 players 26 games
    # 73.1% [53.9-86.3], and 60 more games (--first 26, fourth session, load 2.5-3.7)
    # 60.0% [47.4-71.4] at 1,273 against 525 iterations per decision; 4 players 200 more
    # games (--first 60, load 1.9-2.0) 59.2% [52.3-65.8], over deals [54.9-63.4], at 169
    # against 36. Goal (interval above 55%) met only by the 240-game 0.1 s figure.
    # Sixth session (2026-12-01, load 2.0-2.4), 2 players, 0.1 s, 200 games each: on deals
    # 1000-1199 51.5% [44.6-58.3] at 170 against 72 iterations (c=0.4: 56.2%); the same
    # deals with the heuristic played as SearchGreedy (same moves, faster) 65.5%
    # [58.7-71.7] at 207 against 67, +14.0 points by deal [+3.9, +24.1]; then fresh deals
    # 1200-1399 64.2% [57.4-70.6] at 192 against 63 (met). 4 players, 0.1 s, with
    # SearchGreedy, fresh deals 1000-1199 (load 2.0-3.7): 62.7% [55.9-69.2] at 132 against
    # 19 (met). 2 players, 1 s, before SearchGreedy, 120 games (--first 300, load 2.0):
    # 57.1% [48.1-65.6] at 1,420 against 588; with the 86 games above 60.0% [53.1-66.4].
    # Greedy rollouts to the end (max_rollout=1000) at 2 players, 0.1 s, deals 1000-1199:
    # 60.3% [53.3-66.8], by deal -5.2 points [-13.4, +2.9] against the cut at 20.
    # Seventh session (2026-12-02, load 2.0), 2 players, 1 s, with SearchGreedy, fresh
    # deals 1400-1599 (two halves of 100 games): 53.5% and 68.0%, pooled 60.75%
    # [53.8-67.3] at 1,660 against 516 iterations (not met).
    # Eighth session (2026-12-02, load 1.5-2.2, a CI run beside it for 11 minutes), planned
    # as two tournaments pooled: `gamenight tournament arne --bots "ismcts?seconds=1,
    # openspiel-ismcts?seconds=1" --players 2 --games 100 --seed 271|272 --workers 2`:
    # 60.5% [50.7-69.5] and 71.0% [61.5-79.0]; pooled (bench/payoff_interval.py) 200 games
    # 65.8%, Wilson [58.9-72.0], over 100 deals [59.3-72.2] (met).
    # Stop 28 (2026-12-02, load 0.1-2.0), 0.1 s through `gamenight tournament` (the same
    # command at seconds=0.1, --games 200): 2 players --seed 281 63.5% [56.6-69.9], over
    # 100 deals [56.2-70.8] (met); 4 players --seed 282, each seating of a deal once (two
    # bots on four seats), 63.3% [56.4-69.7], over 100 deals [59.2-67.4] (met).
    "widen_tree": True,
    # A lone legal action below the root (a black-card window's only Pass: a third of the
    # decisions at 2 players, nearly half at 4) is played without a node, so each
    # iteration's one expansion goes to a real choice. Screen (stop 36, 2026-12-04, load
    # 2.0, bench/ismcts.py --duplicate --first 2000, 0.1 s, 2 players, 100 games each, the
    # same 50 deals): 54.0% without, 67.0% with, +13.0 points by deal [+0.5, +25.5]
    # (bench/compare_scores.py), at 140 and 114 iterations a decision. The planned
    # tournaments after it (bench/results/README.md) did not confirm that size: 2 players
    # --seed 501 60.5%, over 100 deals [53.1-67.9] (seed 401 before it: 59.5%); 4 players
    # --seed 502 64.4% [59.4-69.3]. On the same 50 deals, with it, paired=true gave -11.5
    # points [-23.3, +0.3] and c=0.45 -7.0 [-17.8, +3.8]: neither kept.
    "skip_forced": True,
    # Tree reuse between decisions is not built: what it would carry over is small
    # (bench/tree_reuse.py, stop 38: of the last search's iterations, below the node the
    # game reached by the seat's next decision lay 2 players 170 iterations mean 21%,
    # median 7%; 1,000 iterations mean 23%, median 6%; 4 players 170 iterations mean 8%,
    # median 0%), gathered under the older, wider belief.
}


# Deeper cuts at 4 players (three rounds, as the hard level's rollouts) did not pay at 0.1 s
# a decision (bench/ismcts.py --duplicate, 2026-12-01, fifth session, load 2): a screen on
# 20 deals played twice gave 61.6% cut at 20, 67.8% at 60 (87 iterations a decision
# against 172) and 60.0% at 100, but the planned 200 games at 60 on new deals (--first
# 300) gave 57.9% [50.9-64.5], against 59.2% for 20 on deals 60-259. At 1 s a decision, cut
# at 60: 2 players 40 games (--first 86) 61.3% [45.8-74.7] at 1,422 against 808 iterations;
# 4 players 20 games (--first 500) 59.4% [38.1-77.6] at 842 against 385. These settings, 4
# players, 0.1 s, 200 games on deals 700-899 (--first 700, load 1-2.2): 62.9% [56.0-69.3];
# paired=true on the same deals 58.4%, by deal -4.5 points [-10.5, +1.5]
# (bench/compare_scores.py). At 1 s, 4 players, 150 positions (bench/ismcts_oracle.py, stop
# 32): cut at 40, 60 or greedy to the end chose otherwise than the cut at 20 in 40, 55 and
# 96 positions, and greedy-to-the-end play valued their choices alike (within 0.004 a
# decision): nothing there to start a planned tournament on.
def ismcts_for(players: int) -> dict[str, Any]:
    return ISMCTS


# hard: greedy improved by simulation (RolloutBot) from 3 players up. A turn is about n + 1
# decisions (every seat holds priority once in its window, A15-A16), so a round is about
# n(n + 1): the rollouts cover about three rounds from 4 players up (60, 90, 126 decisions;
# 60 at 3 players is five). The old 5-6 player horizon, 20, ended before the seat's own next
# turn and left the kept cards to the estimate's fixed prices: 55.1% (200 games, 5 players)
# and 53.1% (72 games, 6 players) ahead of greedy with 48 samples.
# Chosen on probes (bench/arne_hard_probe.py, the same deals for each setting, 2026-12-01,
# load 2-3): 5 players, 80 games: 16 samples/90 decisions 63.6%, 32/90 66.1%, 16/150
# 56.9%, 24/90 with cut=2 56.4%; 6 players, 72 games: 16/126 63.7%. At 2 players hard
# stays the ISMCTS on 200 iterations (not measured against the rollout bot there).
#
# Measured (2026-12-01, 200 games per size, `gamenight tournament arne --bots
# "hard,greedy,greedy?seed=1,..." --players N --games 200 --workers 1`: one hard seat,
# greedy in every other, seats rotated). "Finishes ahead of greedy" is the head-to-head
# measure: hard's final score above a given greedy seat's (ties half), averaged over the
# greedy seats; that is hard's mean payoff. Winning alone against N-1 greedy seats is not
# the measure (an equal bot wins 1/N). Interval: 95% over games (bench/payoff_interval.py
# on the run's --out file).
#   3 players: 61.8% [56.4-67.2] (rows 63.2%, 60.4%), won alone 45.3%; the old hard
#              (ISMCTS 200 iterations) was 48-57% in small runs. Load 3.7-5.3.
#   4 players: 61.6% [56.7-66.5] (rows 60.8%, 61.3%, 62.7%), won alone 35.0%. Load 3.7-5.3.
#   5 players: 62.1% [57.6-66.6] (rows 60.0-64.8%), won alone 26.5%. Load 2.1-2.7.
#   6 players: 60.8% [56.3-65.2] in 204 games (--games 200 rounds up to whole
#              rotations; rows 58.3-62.7%, won alone 23.5%) with 32 samples/126
#              decisions (2026-12-01, fourth session, load 0.9-3.7). With 16/126 it
#              was 58.2% [53.9-62.5] (rows 54.4-61.0%, won alone 15.2%).
# Time per decision of the hard seat (bench/arne_hard_probe.py, decisions with 2+ legal
# actions, niced 19 beside other work): 5 players 32/90 CPU mean 0.136 s, p99 0.251 s,
# max 0.327 s (wall max 0.483 s, load 2.9); 6 players 16/126 CPU mean 0.101 s, p99
# 0.187 s, max 0.228 s (wall max 0.835 s, load 3.0).
LEVELS = {"easy": "bot:random", "medium": "bot:greedy", "hard": "bot:rollout"}
HARD = {
    2: "bot:ismcts?iterations=200",
    3: "bot:rollout?samples=16&horizon=60",
    4: "bot:rollout?samples=16&horizon=60",
    5: "bot:rollout?samples=32&horizon=90",
    6: "bot:rollout?samples=32&horizon=126",
}


# A cut rollout's guess: each seat's share of opponents it is ahead of, counted softly by
# the margin (a logistic of the difference over MARGIN_SCALE points) of totals, plus the
# table's score now, plus what its hand is still worth while cards are drawn: black cards
# at the greedy bot's price and its own colour's point cards at HAND_POINT of their face.
# The rank share `ArneState.estimate` gives jumps from 0 to 1 on a 50-point swing and
# prices a kept CRUSH at nothing, so short rollouts rarely tell two moves apart.
MARGIN_SCALE = 400.0
HAND_POINT = 0.5


@functools.cache
def _hand_prices(game: Any) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Per card id: its price in hand if black (else 0), and its colour if a point card
    (else -1)."""
    kind_type, kind_colour = game.kind_type, game.kind_colour
    price = tuple(float(CARD_PRICE.get(kind_type[k], 0)) for k in game.card_kind)
    colour = tuple(kind_colour[k] if kind_type[k] in FACE else -1 for k in game.card_kind)
    return price, colour


def margin_estimate(state: Any) -> tuple[float, ...]:
    game = state.game
    now = state.scores()
    worth = [float(total + now[player]) for player, total in enumerate(state.totals)]
    if state.deck:
        price, colour = _hand_prices(game)
        card_kind, kind_type = game.card_kind, game.kind_type
        for player, hand in enumerate(state.hands):
            mine = state.seat_colour[state.seat_of[player]]
            value = 0.0
            for card in hand:
                if colour[card] == mine:
                    value += HAND_POINT * FACE[kind_type[card_kind[card]]]
                else:
                    value += price[card]
            worth[player] += value
    sign = (-1.0 if game.losing else 1.0) / MARGIN_SCALE
    scaled = [sign * w for w in worth]
    n = len(scaled)
    if n < 2:
        return (1.0,)
    return tuple(
        sum(_behind(other - mine) for j, other in enumerate(scaled) if j != i) / (n - 1)
        for i, mine in enumerate(scaled)
    )


def _behind(gap: float) -> float:
    """The logistic share of a rival `gap` (scaled) points ahead; clamped, since a 3-player
    tournament met a gap past math.exp's range (about 280,000 points: multipliers)."""
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, gap))))


ESTIMATES = {"margin": margin_estimate}

# The shipped learned policies (learned.npz, one per table size, 2-6; `bot:learned`): the
# 2-player one is medium at its table size: above greedy, far below ISMCTS's hard budget.
# Since 2026-12-07 (in seat frames, trained against ISMCTS at one iteration; 800 and 400
# deals, docs/self-play.md): ahead of ISMCTS at equal time in 60.5% (58.1-63.0), of greedy
# in 56.6% (53.1-60.0).
LEARNED_PLAYERS = (2,)


def levels_for(players: int) -> dict[str, str]:
    """Medium is the learned policy where one is shipped for the table size."""
    levels = {**LEVELS, "hard": HARD.get(players, LEVELS["hard"])}
    if players in LEARNED_PLAYERS:
        levels["medium"] = "bot:learned"
    return levels
