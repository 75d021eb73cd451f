"""Balance search: the settings that bring a game's report figures to their targets.

    gamenight tune drop-or-stop --players 2 --goal "first-seat win rate within 50±2%" \\
        --goal "game length within 10±1" --vary deck,target=6..16,hand_size --budget 10m

A goal is `FIGURE within TARGET±TOLERANCE` (`parse_goal`): the report's figures (first-seat
win rate and advantage, the round-start win rate and advantage, game length, lead changes,
score spread, the skill gap between the easy and the hard bot). Rates meant to be fair at
one in n split a shared win (1/k to each of k winners): counted whole, as the report's
turn positions count it, a fair game with shared wins reads above one in n, and a search
would chase the ties. The search varies the named settings over the ranges their
`setting()` declares (choices, presets, booleans, min to max or ceiling) or over a
narrower range given with `--vary name=lo..hi` or `name=a|b|c` (`parse_vary`). Every
game is played by the simulation runner (`runner.run`: local worker processes or Ray); the
figures are read as the report reads them (turn positions, `report.spread`, the games'
`stats()`).

Three stages, each on its own deals, so that noise cannot pass for a finding:

1. **Search** (half the budget or more): Optuna's TPE sampler proposes settings, one
   trial at a time (ask and tell). A proposal is played on a block of deals, and block b is the same
   deals for every setting (common random numbers: settings are compared on the same
   cards). A setting proposed again is played on its next block and its estimate pooled
   over every block it has had, so a promising setting gathers evidence instead of being
   judged on one lucky block. The trial's loss is the sum over goals of
   ((figure - target) / tolerance)^2.
2. **Race** (0.6 of the rest): the best settings of the search, one-change
   simplifications of the best and the default, on fresh deals, by successive halving:
   all play a round; the better half plays a round of twice as many games; and so on
   until one is left, which is the proposal. Better means: meets every goal with the
   fewest changed settings (then the smallest loss); missing a goal, the smaller loss. A
   search's best estimate is biased by its selection (the winner's curse); the race's
   deals are new, and its last rounds give the contenders the most games.
3. **Final** (what is left): the default and the proposal on a third set of deals. The
   page's figures before and after, their 95% intervals and the paired tests (exact McNemar on
   a yes/no figure per game, Wilcoxon signed-rank otherwise, as the report's) come from
   these games only, which neither proposed nor chose the setting.

Why Optuna's TPE rather than NTBEA (the Tabletop Games framework's choice). NTBEA's
strength with noisy games is its statistics: every evaluation updates the mean of each
value (and pair of values) it contains, so noise averages out over many evaluations. Here
common random numbers, pooling the blocks of a setting proposed again, the race and the
final stage give that robustness, and the figures on the page never come from the search.
TPE models each setting's good and bad values (like NTBEA's 1-tuples) and, multivariate,
their joint; it takes categorical presets, booleans and integer ranges of a hundred values
as they are declared, without a hand-made grid; and it is a maintained library, not an
optimiser of ours to keep.
"""

from __future__ import annotations

import csv
import dataclasses
import html
import itertools
import math
import multiprocessing
import os
import re
import shutil
import signal
import statistics
import tempfile
import time
import typing
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from gamenight.bots import default_bot, levels, make_seat
from gamenight.engine.core import BadInput, Game
from gamenight.engine.registry import game_class
from gamenight.engine.seeds import derive_seed
from gamenight.i18n import _, ngettext
from gamenight.i18n import number as _number
from gamenight.sim.report import Setting, settings, spread, write_report
from gamenight.sim.runner import GameResult, Job, run, wilson
from gamenight.sim.story import PER_ROUND

# The search has at least SEARCH_SHARE of the budget (all but what the race and the final
# can use, MOST_GAMES per setting); of what is left, the race RACE_SHARE and the final the rest.
SEARCH_SHARE = 0.5
RACE_SHARE = 0.6
TRIAL_GAMES = 1000  # games per block of the search
MOST_GAMES = 20_000  # games per setting in the race and the final: past this, time is left
RACE_SIZE = 8  # settings in the race, the default included
RACE_BEST = 4  # of which the best of the search
SHOWN = 60  # characters of a person's text repeated in an error
BEST_TRIALS = 30  # trials listed on the page (trials.csv has every one)
MOST_REFUSED = 200  # trials in a row the game refuses before the search gives up


def _shown(text: str) -> str:
    """A person's text in an error: quoted (so a newline reads \\n) and cut short."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")


# -- figures ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Figure:
    """A report figure: a ratio of per-unit sums (per game, or per pair of skill games)."""

    key: str
    name: str
    what: str  # one sentence for the page
    rate: bool  # shown and targeted in percent
    signed: bool = False  # a difference: shown in points with its sign
    skill: bool = False  # played in skill games (one seat easy or hard against easy bots)
    aliases: tuple[str, ...] = ()


FIGURES = (
    Figure(
        "first_seat",
        "first-seat win rate",
        "share of games won by the seat asked first, a win shared by k seats counted 1/k "
        "(so a fair game gives one in n however often it ends shared; the report's turn "
        "position 0 counts every co-winner fully)",
        rate=True,
        aliases=("first seat win rate", "first player win rate"),
    ),
    Figure(
        "first_seat_advantage",
        "first-seat advantage",
        "first-seat win rate minus the mean win rate of the other seats, shared wins split "
        "(points; 0 in a fair game)",
        rate=True,
        signed=True,
        aliases=("first player advantage",),
    ),
    Figure(
        "round_start",
        "round-start win rate",
        "share of rounds the seat that started the round won, as the game records it "
        "(start_won.rN); a game that counts a shared round for every co-winner reads above "
        "one in n when fair, by half its shared rounds at two players",
        rate=True,
        aliases=("start seat win rate", "round start win rate"),
    ),
    Figure(
        "round_start_advantage",
        "round-start advantage",
        "per round, the start seat's share of the round's win minus the mean share of the "
        "other seats (a game's start_edge.rN; points, 0 when fair)",
        rate=True,
        signed=True,
        aliases=("start seat advantage", "round start advantage"),
    ),
    Figure("length", "game length", "decisions per game", rate=False, aliases=("decisions",)),
    Figure("lead_changes", "lead changes", "lead changes per game", rate=False),
    Figure("spread", "score spread", "best score minus worst, per game", rate=False),
    Figure(
        "skill_gap",
        "skill gap",
        "win rate of one hard seat minus one easy seat, each against easy bots, shared "
        "wins split (points)",
        rate=True,
        signed=True,
        skill=True,
        aliases=("bot skill gap", "skill gap between easy and hard", "easy hard gap"),
    ),
)
BY_NAME = {_n: f for f in FIGURES for _n in (f.name.replace("-", " "), *f.aliases)}
BY_KEY = {f.key: f for f in FIGURES}


def _words(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class Goal:
    """A figure's target and tolerance, in the figure's units (rates as fractions)."""

    figure: Figure
    target: float
    tolerance: float

    def miss(self, value: float) -> float:
        """How far `value` is from the target, in tolerances (signed)."""
        return (value - self.target) / self.tolerance

    def met(self, value: float) -> bool:
        return abs(value - self.target) <= self.tolerance

    @property
    def text(self) -> str:
        unit = " points" if self.figure.signed else "%"  # a difference of rates: points
        if self.figure.rate:
            return f"{self.figure.name} within {100 * self.target:g}±{100 * self.tolerance:g}{unit}"
        return f"{self.figure.name} within {self.target:g}±{self.tolerance:g}"


_NUMBER = r"[-+]?[0-9]+(?:\.[0-9]+)?"
_GOAL = re.compile(
    rf"(?P<figure>.+?)\s+within\s+(?P<target>{_NUMBER})\s*(?P<tpct>%)?\s*"
    rf"(?:±|\+-|\+/-)\s*(?P<tolerance>{_NUMBER})\s*(?P<pct>%|points?)?",
    re.ASCII,
)


def _goal_form() -> str:
    """How a goal is written, in the terminal's language (the figures' names and `within` are
    typed as they are)."""
    return _(
        "--goal takes 'FIGURE within TARGET±TOLERANCE' (e.g. 'first-seat win rate within 50±2%')"
    )


def parse_goal(text: str) -> Goal:
    """`first-seat win rate within 50±2%` -> Goal(first-seat win rate, 0.50, 0.02). Rates
    are read in percent (the % is optional); `+-` may stand for ±. BadInput in one line
    for anything else."""
    found = _GOAL.fullmatch(text.strip())
    if found is None:
        raise BadInput(_("{form}, got {text}").format(form=_goal_form(), text=_shown(text)))
    figure = BY_NAME.get(_words(found["figure"]))
    if figure is None:
        names = ", ".join(f.name for f in FIGURES)
        said = _("--goal: no figure {figure}; figures: {figures}")
        raise BadInput(said.format(figure=_shown(found["figure"]), figures=names))
    target, tolerance = float(found["target"]), float(found["tolerance"])
    if (found["pct"] or found["tpct"]) and not figure.rate:
        said = _("--goal: {figure} is not a rate; give its target without %")
        raise BadInput(said.format(figure=figure.name))
    if not (math.isfinite(target) and math.isfinite(tolerance)) or tolerance <= 0:
        said = _("--goal: the tolerance must be a number above 0, got {text}")
        raise BadInput(said.format(text=_shown(text)))
    if figure.rate:
        low = -100.0 if figure.signed else 0.0
        if not low <= target <= 100 or tolerance > 100:
            said = _("--goal: {figure} is a percentage from {low} to 100, got {text}")
            raise BadInput(said.format(figure=figure.name, low=f"{low:g}", text=_shown(text)))
        target, tolerance = target / 100, tolerance / 100
    return Goal(figure, target, tolerance)


def parse_goals(texts: Sequence[str]) -> list[Goal]:
    """Several goals, each figure once."""
    goals = [parse_goal(t) for t in texts]
    if not goals:
        raise BadInput(_("{form}; give at least one").format(form=_goal_form()))
    names = [g.figure.name for g in goals]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        said = _("--goal names {figures} twice; give each figure once")
        raise BadInput(said.format(figures=", ".join(twice)))
    return goals


# -- the search space ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Axis:
    """One setting the search varies: its values (choices) or its range (low to high)."""

    name: str
    values: tuple[Any, ...] = ()
    low: float = 0
    high: float = 0
    whole: bool = True  # a range of whole numbers

    def distribution(self) -> Any:
        from optuna.distributions import (
            CategoricalDistribution,
            FloatDistribution,
            IntDistribution,
        )

        if self.values:
            return CategoricalDistribution(self.values)
        if self.whole:
            return IntDistribution(int(self.low), int(self.high))
        return FloatDistribution(self.low, self.high)

    def holds(self, value: Any) -> bool:
        if self.values:
            return any(value == v and type(value) is type(v) for v in self.values)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return self.low <= value <= self.high and (not self.whole or float(value).is_integer())

    @property
    def text(self) -> str:
        if self.values:
            return f"{self.name}: {', '.join(str(v) for v in self.values)}"
        return f"{self.name}: {self.low:g} to {self.high:g}"


_RANGE = re.compile(rf"(?P<low>{_NUMBER})\s*\.\.\s*(?P<high>{_NUMBER})", re.ASCII)


def _vary_form() -> str:
    """How --vary is written, in the terminal's language."""
    return _(
        "--vary takes option names separated by commas, each optionally name=LOW..HIGH or "
        "name=A|B|C"
    )


def parse_vary(game_name: str, texts: Sequence[str], fixed: dict[str, Any]) -> list[Axis]:
    """`deck,target=9..13,hand_size=1|2|3` (several --vary add up) -> one Axis per option,
    its range as declared unless narrowed. BadInput in one line for an unknown option, one
    given twice or with --set, `players`, or an option whose `setting()` declares no range."""
    options_cls = game_class(game_name).Options
    fields = {f.name: f for f in dataclasses.fields(options_cls)}
    hints = typing.get_type_hints(options_cls)
    axes: list[Axis] = []
    for text in texts:
        for item in text.split(","):
            if not item.strip():
                continue
            name, eq, narrowed = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in fields:
                said = _("--vary: {game} has no option {option}; options: {options}")
                options = ", ".join(n for n in fields if n != "players")
                raise BadInput(said.format(game=game_name, option=_shown(name), options=options))
            if name == "players":
                raise BadInput(_("--vary: players is the table, not a rule; set it with --players"))
            if name in fixed:
                said = _("--vary: {option} is also given with --set; give it in one place")
                raise BadInput(said.format(option=name))
            if any(a.name == name for a in axes):
                said = _("--vary names {option} twice; give each option once")
                raise BadInput(said.format(option=name))
            if eq:
                axis = _narrowed(name, narrowed.strip(), hints[name])
                _within_declared(axis, fields[name])
            else:
                axis = _declared(name, fields[name], hints[name])
            axes.append(axis)
    if not axes:
        raise BadInput(_("{form}; give at least one").format(form=_vary_form()))
    return axes


def _kinds(hint: Any) -> set[type]:
    """The types an option's annotation allows (None left out)."""
    args = typing.get_args(hint) if typing.get_origin(hint) is not None else (hint,)
    return {a for a in args if a is not type(None)}


def _declared(name: str, field_: dataclasses.Field[Any], hint: Any) -> Axis:
    """The range the option's `setting()` declares: choices, served presets, true/false, or
    min to max (to the ceiling where no max is declared)."""
    meta = field_.metadata
    kinds = _kinds(hint)
    if meta.get("choices"):
        return Axis(name, tuple(meta["choices"]))
    if meta.get("served"):
        return Axis(name, tuple(meta["served"]))
    if kinds == {bool}:
        return Axis(name, (False, True))
    high = meta.get("max") if meta.get("max") is not None else meta.get("ceiling")
    low = meta.get("min") if meta.get("min") is not None else meta.get("floor")
    if kinds in ({int}, {float}) and low is not None and high is not None:
        return Axis(name, low=low, high=high, whole=kinds == {int})
    if kinds & {int, float}:
        said = _(
            "--vary: {option} declares no range to search; give its values, e.g. "
            "{option}=A|B|C or name=LOW..HIGH"
        )
    else:
        said = _(
            "--vary: {option} declares no range to search; give its values, e.g. {option}=A|B|C"
        )
    raise BadInput(said.format(option=name))


def _within_declared(axis: Axis, field_: dataclasses.Field[Any]) -> None:
    """A narrowed range stays inside the declared one (choices, min and max)."""
    meta = field_.metadata
    low, high = meta.get("min"), meta.get("max")
    ends = axis.values or (axis.low, axis.high)
    for value in ends:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        outside = (
            (meta.get("choices") and value not in meta["choices"])
            or (number and low is not None and value < low)
            or (number and high is not None and value > high)
        )
        if outside:
            shown = f"{value:g}" if number else repr(value)
            declared = _declared_text(meta)
            said = _("--vary: {option}={value} is outside its range ({declared})")
            raise BadInput(said.format(option=axis.name, value=shown, declared=declared))


def _declared_text(meta: Any) -> str:
    if meta.get("choices"):
        return _("one of {values}").format(values=", ".join(repr(c) for c in meta["choices"]))
    low, high = meta.get("min"), meta.get("max")
    if low is not None and high is not None:
        return _("from {low} to {high}").format(low=low, high=high)
    if low is not None:
        return _("{low} or more").format(low=low)
    return _("{high} or less").format(high=high)


def _narrowed(name: str, text: str, hint: Any) -> Axis:
    """`9..13` (whole numbers when the option is one) or `a|b|c` (parsed as the option's
    type; `load` checks each value against the declared range before it is played)."""
    from gamenight.engine.options import _parse

    kinds = _kinds(hint)
    found = _RANGE.fullmatch(text)
    if found is not None:
        if not kinds & {int, float}:
            said = _("--vary: {option} is not a number; give its values as {option}=A|B|C")
            raise BadInput(said.format(option=name))
        low, high = float(found["low"]), float(found["high"])
        whole = float not in kinds
        if low >= high or (whole and not (low.is_integer() and high.is_integer())):
            said = _("--vary: {option}={text} needs LOW < HIGH, whole numbers")
            raise BadInput(said.format(option=name, text=_shown(text)))
        return Axis(name, low=low, high=high, whole=whole)
    words = [w.strip() for w in text.split("|") if w.strip()]
    if "|" not in text or len(words) < 2 or len(set(words)) < len(words):
        said = _("{form} (two or more different values); got {option}={text}")
        raise BadInput(said.format(form=_vary_form(), option=name, text=_shown(text)))
    values = tuple(_parse(name, w, hint) for w in words)
    if len({(type(v), v) for v in values}) < len(values):
        said = _("--vary: {option}={text} names one value twice")
        raise BadInput(said.format(option=name, text=_shown(text)))
    return Axis(name, values)


# -- the budget ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """Wall-clock seconds or games (every game played counts, skill games too)."""

    seconds: float | None = None
    games: int | None = None

    def used(self, seconds: float, games: int) -> float:
        """The share of the budget used."""
        if self.seconds is not None:
            return seconds / self.seconds
        return games / (self.games or 1)

    @property
    def text(self) -> str:
        if self.games is not None:
            return f"{self.games:,} games"
        seconds = self.seconds or 0.0
        return f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} seconds"


_BUDGET = re.compile(
    rf"(?P<amount>{_NUMBER})\s*(?P<unit>s|sec|seconds?|m|min|minutes?|h|hours?|g|games?)",
    re.ASCII,
)
UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}


def parse_budget(text: str) -> Budget:
    """`20m`, `90s`, `1h` (wall clock) or `5000 games`."""
    found = _BUDGET.fullmatch(text.strip().lower())
    amount = float(found["amount"]) if found else 0.0
    if found is None or amount <= 0:
        said = _(
            "--budget takes a time (90s, 20m, 1h) or a number of games (5000 games), got {text}"
        )
        raise BadInput(said.format(text=_shown(text)))
    unit = found["unit"]
    if unit.startswith("g"):
        if not amount.is_integer():
            said = _("--budget: a whole number of games, got {text}")
            raise BadInput(said.format(text=_shown(text)))
        return Budget(games=int(amount))
    return Budget(seconds=amount * UNITS[unit.rstrip("s") if len(unit) > 1 else unit])


# -- playing a setting --------------------------------------------------------------------------
@dataclass
class Sample:
    """Per figure, per unit (a game; for the skill gap a pair of skill games on one deal):
    the numerator and the denominator of the figure's ratio. Units of two samples played
    on the same deals line up, which the paired tests use."""

    units: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)

    def add(self, other: Sample) -> None:
        for key, (num, den) in other.units.items():
            mine = self.units.setdefault(key, ([], []))
            mine[0].extend(num)
            mine[1].extend(den)

    def summed(self) -> Sample:
        """The same figures as one unit per figure (the sums): what pooling needs, in a
        few numbers instead of a few per game."""
        return Sample({k: ([math.fsum(n)], [math.fsum(d)]) for k, (n, d) in self.units.items()})

    def has(self, key: str) -> bool:
        return key in self.units and sum(self.units[key][1]) > 0

    def value(self, key: str) -> float:
        num, den = self.units[key]
        return math.fsum(num) / max(1e-300, math.fsum(den))


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float


def estimate(figure: Figure, sample: Sample) -> Estimate:
    """The figure with its 95% interval: Wilson's where every unit is a yes or a no (as
    the report's rates), else the normal one of a ratio of sums (the delta method, with
    the games as clusters: a game's rounds are not independent)."""
    num, den = sample.units[figure.key]
    if figure.rate and all(d == 1 for d in den) and all(x in (0, 1) for x in num):
        return Estimate(*wilson(int(sum(num)), len(num)))
    value = sample.value(figure.key)
    half = 1.96 * _ratio_se(num, den, value)
    return Estimate(value, value - half, value + half)


def _linear(num: Sequence[float], den: Sequence[float], value: float) -> list[float]:
    """Each unit's share of a ratio's deviation (the delta method): mean 0, and the ratio's
    standard error is their standard deviation over the square root of the units."""
    scale = math.fsum(den) / max(1, len(den)) or 1.0
    return [(x - value * d) / scale for x, d in zip(num, den, strict=True)]


def _ratio_se(num: Sequence[float], den: Sequence[float], value: float) -> float:
    if len(num) < 2:
        return math.nan
    return statistics.stdev(_linear(num, den, value)) / math.sqrt(len(num))


@dataclass(frozen=True)
class Change:
    """A setting's figure minus the default's on the same deals: 95% interval and p."""

    diff: float
    low: float
    high: float
    p: float


def paired_change(figure: Figure, base: Sample, other: Sample) -> Change:
    """`other` against `base`, unit by unit (the same deals): the difference of the ratios
    with the normal interval of paired linearised differences; p from the exact McNemar
    test where every unit is a yes or a no per game (as the report's first-seat test),
    else the Wilcoxon signed-rank test on the per-unit figures (as its length test)."""
    from scipy.stats import binomtest, wilcoxon

    (bn, bd), (on, od) = base.units[figure.key], other.units[figure.key]
    n = min(len(bd), len(od))
    bn, bd, on, od = bn[:n], bd[:n], on[:n], od[:n]
    b_value, o_value = _ratio(bn, bd), _ratio(on, od)
    pairs = zip(_linear(bn, bd, b_value), _linear(on, od, o_value), strict=True)
    diffs = [y - x for x, y in pairs]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.nan
    diff = o_value - b_value
    binary = all(d == 1 for d in (*bd, *od)) and all(x in (0, 1) for x in (*bn, *on))
    if binary:
        only_base = sum(x > y for x, y in zip(bn, on, strict=True))
        only_other = sum(y > x for x, y in zip(bn, on, strict=True))
        k = only_base + only_other
        p = float(binomtest(only_base, k, 0.5).pvalue) if k else 1.0
    else:
        per_unit = [
            y / e - x / d
            for x, d, y, e in zip(bn, bd, on, od, strict=True)
            if d > 0 and e > 0 and y / e != x / d
        ]
        p = float(wilcoxon(per_unit).pvalue) if per_unit else 1.0
    return Change(diff, diff - half, diff + half, p)


def _ratio(num: Sequence[float], den: Sequence[float]) -> float:
    return math.fsum(num) / max(1e-300, math.fsum(den))


def first_seat(game: Game, seed: int) -> int:
    """The seat asked first in the game dealt from `seed` (as the report counts it)."""
    state = game.start(seed)
    return state.actors[0] if state.actors else 0


def main_sample(setting: Setting) -> Sample:
    """The figures of a setting's games (its results and first seats, as the report has
    them): every figure the games record."""
    results = setting.results
    n = setting.players
    ones = [1.0] * len(results)
    shares = [
        [share(r, (first + p) % n) for p in range(n)]
        for r, first in zip(results, setting.first, strict=True)
    ]
    others = max(1, n - 1)
    units: dict[str, tuple[list[float], list[float]]] = {
        "first_seat": ([s[0] for s in shares], list(ones)),
        "first_seat_advantage": ([s[0] - math.fsum(s[1:]) / others for s in shares], list(ones)),
        "spread": ([spread(r.scores) for r in results], list(ones)),
    }
    for key, stat in (("length", "decisions"), ("lead_changes", "lead_changes")):
        if any(stat in r.stats for r in results):
            units[key] = ([float(r.stats.get(stat, 0.0)) for r in results], list(ones))
    for key, stat in (("round_start", "start_won"), ("round_start_advantage", "start_edge")):
        counts = [_per_round(r, stat) for r in results]
        if any(rounds for _, rounds in counts):
            units[key] = ([c[0] for c in counts], [c[1] for c in counts])
    return Sample(units)


def share(result: GameResult, seat: int) -> float:
    """The seat's share of the game's win: 1/k of a win shared by k seats, else 0."""
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def _per_round(result: GameResult, name: str) -> tuple[float, float]:
    """(the sum over rounds, rounds) of a per-round stat `name.rN` of a game ((0, 0) if it
    records none), the values as recorded: `start_won` is 1 for a round the start seat won
    or shared where the game counts co-winners fully, or its share where it records one."""
    total = rounds = 0.0
    for key, value in result.stats.items():
        found = PER_ROUND.match(key)
        if found and found["name"] == name:
            total += value
            rounds += 1
    return total, rounds


def skill_sample(
    by_level: dict[str, list[list[GameResult]]],
) -> Sample:
    """The skill gap per unit: on one deal, with the level's seat at seat s, that seat's
    share of the win at `hard` minus its share at `easy` (1: the hard seat won alone and
    the easy one lost; shared wins split)."""
    num: list[float] = []
    for seat, (hard, easy) in enumerate(zip(by_level["hard"], by_level["easy"], strict=True)):
        for h, e in zip(hard, easy, strict=True):
            num.append(share(h, seat) - share(e, seat))
    return Sample({"skill_gap": (num, [1.0] * len(num))})


@dataclass
class Played:
    """A setting (its options and game) and every game played for it so far."""

    setting: Setting
    sample: Sample = field(default_factory=Sample)
    blocks: int = 0
    params: dict[str, Any] = field(default_factory=dict)  # the searched settings' values
    first: str = ""  # its first block's figures, as text: equal for settings of equal games


class Evaluator:
    """Plays settings with the runner (local processes or Ray) and the seats' bots, and
    measures the figures the goals need."""

    def __init__(
        self,
        game_name: str,
        seats: tuple[str, ...],
        *,
        skill: bool,
        workers: int,
        backend: str,
        address: str | None,
        pool: Pool | None,
        on_games: Callable[[int], None],
    ) -> None:
        self.game_name = game_name
        self.seats = seats
        self.skill = skill
        self.workers = workers
        self.backend = backend
        self.address = address
        self.pool = pool
        self.on_games = on_games
        self.games = 0
        self.seconds = 0.0  # spent playing (the search's own work left out)

    def _run(self, job: Job, games: int) -> list[GameResult]:
        start = time.monotonic()
        results = run(
            job, games, workers=self.workers, backend=self.backend, address=self.address,
            pool=self.pool, on_progress=self._count,
        )  # fmt: skip
        self.seconds += time.monotonic() - start
        return results

    @property
    def rate(self) -> float:
        """Games per second of playing."""
        return self.games / max(1e-9, self.seconds)

    def _count(self, k: int) -> None:
        self.games += k
        self.on_games(k)

    def play(self, setting: Setting, games: int, seed: int, *, keep: bool = False) -> Sample:
        """The figures of `games` games of `setting` dealt from `seed` (game i from
        derive_seed(seed, i), as the report's) and, when a goal needs it, of the skill
        games on the same deals. `keep`: leave the games in `setting.results` (for the
        report), else drop them once measured."""
        options = tuple(sorted(setting.options.items()))
        setting.results = self._run(Job(self.game_name, options, self.seats, seed), games)
        setting.first = [first_seat(setting.game, r.seed) for r in setting.results]
        sample = main_sample(setting)
        if not keep:
            setting.results, setting.first = [], []
        if self.skill:
            sample.add(self.skill_games(setting, games, seed))
        return sample

    def skill_games(self, setting: Setting, games: int, seed: int) -> Sample:
        """One seat at `hard`, then at `easy`, against easy bots, that seat going round the
        table; seat s plays deals 0..games/n-1 both times (as the report's skill curves)."""
        n = setting.players
        named = levels(self.game_name, n)
        options = tuple(sorted(setting.options.items()))
        per_seat = max(1, math.ceil(games / n))
        by_level: dict[str, list[list[GameResult]]] = {"hard": [], "easy": []}
        for level in by_level:
            for seat in range(n):
                seats = tuple(named[level] if i == seat else named["easy"] for i in range(n))
                by_level[level].append(
                    self._run(Job(self.game_name, options, seats, seed), per_seat)
                )
        return skill_sample(by_level)


# -- the search ---------------------------------------------------------------------------------
@dataclass
class Trial:
    """One proposal of the search and what its setting's games said so far."""

    number: int
    params: dict[str, Any]
    loss: float | None  # None: the game refused the options
    values: dict[str, float] = field(default_factory=dict)
    blocks: int = 0
    refused: str = ""
    seconds: float = 0.0  # to play its block


@dataclass
class Candidate:
    """A setting of the race or the final: its varied values and figures."""

    params: dict[str, Any]
    label: str
    changes: int
    played: Played
    loss: float = math.inf
    met: bool = False
    games: int = 0
    rounds: int = 0  # rounds of the race it played

    def play(
        self, evaluator: Evaluator, goals: Sequence[Goal], games: int, seed: int, keep: bool = False
    ) -> None:
        """`games` more games on the deals of `seed`, pooled with those it played."""
        sample = evaluator.play(self.played.setting, games, seed, keep=keep)
        self.played.sample.add(sample)
        self.played.blocks += 1
        self.games += games
        self.loss = loss_of(goals, self.played.sample)
        self.met = all(g.met(self.played.sample.value(g.figure.key)) for g in goals)

    @property
    def rank(self) -> tuple[bool, int, float]:
        """Better first: every goal met with the fewest changes, then the smallest loss; a
        setting that misses a goal by its loss alone."""
        return (not self.met, self.changes if self.met else 0, self.loss)


@dataclass
class Status:
    """What a progress display shows: the share of the budget used and one line."""

    used: float
    line: str


@dataclass
class Tuned:
    """Everything the page says."""

    game_name: str
    goals: list[Goal]
    axes: list[Axis]
    fixed: dict[str, Any]
    players: int
    seats: tuple[str, ...]
    seed: int
    budget: Budget
    trials: list[Trial]
    race: list[Candidate]
    default: Candidate
    proposed: Candidate
    final_games: int
    games: int
    seconds: float
    trial_games: int

    @property
    def changed(self) -> dict[str, tuple[Any, Any]]:
        """Option -> (default value, proposed value), for each option the proposal changes."""
        return {
            name: (self.default.params[name], value)
            for name, value in self.proposed.params.items()
            if value != self.default.params[name]
        }


def loss_of(goals: Sequence[Goal], sample: Sample) -> float:
    return math.fsum(g.miss(sample.value(g.figure.key)) ** 2 for g in goals)


def _label(params: dict[str, Any], default: dict[str, Any]) -> str:
    changed = [f"{k}={v}" for k, v in params.items() if v != default[k]]
    return ", ".join(changed) or "default"


def _key(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in params.items()))


@contextmanager
def _runtime(backend: str, workers: int, address: str | None) -> Iterator[Pool | None]:
    """One pool of worker processes, or one Ray runtime, for the whole search: starting
    one per trial (the runner does, for a single run) would cost more than the games."""
    if backend == "ray":
        import logging

        import ray

        started = not ray.is_initialized()
        if started and address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        elif started:  # as backends.ray_map starts a local runtime
            os.environ.setdefault("RAY_worker_niceness", "0")
            ray.init(
                num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False,
                logging_level=logging.WARNING,
            )  # fmt: skip
        try:
            yield None
        finally:
            if started:
                ray.shutdown()
    elif workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_ctrl_c)
        try:
            yield pool
        finally:
            pool.terminate()
            pool.join()
    else:
        yield None


def _ignore_ctrl_c() -> None:
    """Workers leave Ctrl+C to the parent (as the runner's pool's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def tune(
    game_name: str,
    goals: Sequence[Goal],
    axes: Sequence[Axis],
    budget: Budget,
    *,
    options: dict[str, Any] | None = None,
    players: int | None = None,
    bots: Sequence[str] = (),
    seed: int = 0,
    workers: int = 1,
    backend: str = "processes",
    address: str | None = None,
    trial_games: int = TRIAL_GAMES,
    on_status: Callable[[Status], None] | None = None,
) -> Tuned:
    """Search, race and final (see the module docstring); returns what the page shows.
    BadInput for options, bots or a figure the game does not record."""
    fixed = dict(options or {})
    base = settings(game_name, fixed, None, players)[0]
    names = list(bots) or [default_bot(game_name)]
    seats = tuple(n if n.startswith("bot") else f"bot:{n}" for n in names)
    seats = tuple(seats[i % len(seats)] for i in range(base.players))
    for text in seats:
        try:
            make_seat(text, base.game, 0)
        except BadInput:
            raise
        except ValueError as error:
            refused = _("bot {bot}: {error}").format(bot=text.removeprefix("bot:"), error=error)
            raise BadInput(refused) from error
    default_params = {a.name: getattr(base.game.options, a.name) for a in axes}
    skill = any(g.figure.skill for g in goals)
    cost = 3 if skill else 1  # games played per game of a setting (skill: hard, easy)
    said = on_status or (lambda status: None)
    line = [_("starting")]  # the progress bar's line, in the terminal's language
    with _runtime(backend, workers, address) as pool:
        evaluator = Evaluator(
            game_name, seats, skill=skill, workers=workers, backend=backend, address=address,
            pool=pool, on_games=lambda k: said(Status(spent.used(), line[0])),
        )  # fmt: skip
        spent = Spending(budget, evaluator)
        played: dict[tuple[tuple[str, str], ...], Played] = {}

        def setting_of(params: dict[str, Any]) -> Setting:
            return settings(game_name, fixed | params, None, base.players)[0]

        def evaluate(params: dict[str, Any]) -> Played:
            """One more block of the search's deals for this setting, pooled."""
            key = _key(params)
            point = played.get(key)
            if point is None:
                point = played[key] = Played(setting_of(params), params=dict(params))
            block_seed = derive_seed(seed, "search", point.blocks)
            block = evaluator.play(point.setting, trial_games, block_seed).summed()
            point.first = point.first or repr(sorted(block.units.items()))
            point.sample.add(block)
            point.blocks += 1
            return point

        first = evaluate(default_params)
        _check_recorded(game_name, goals, first.sample)
        trials = _search(
            goals, axes, default_params, evaluate, seed,
            until=lambda: spent.used() >= 1 - spent.reserve(cost), line=line,
        )  # fmt: skip

        def games_for(share: float, count: int) -> int:
            """Games per setting for `count` settings from `share` of what is left."""
            return max(trial_games, min(MOST_GAMES, int(share * spent.left() / (count * cost))))

        ranked = _distinct(list(played.values()), goals)
        race_params = _race_params(ranked, default_params, axes, setting_of)
        race = [_candidate(setting_of(p), p, default_params) for p in race_params]
        rounds = max(1, math.ceil(math.log2(len(race))))
        first_games = games_for(RACE_SHARE / rounds, len(race))
        chosen = _race(evaluator, goals, race, first_games, seed, line)
        final_games = games_for(1.0, 2 if chosen.changes else 1)
        games = ngettext("{n} game", "{n} games", final_games).format(n=_number(final_games))
        line[0] = _("final: default and proposal, {games} each").format(games=games)
        final = derive_seed(seed, "final")
        default = _candidate(setting_of(default_params), default_params, default_params)
        default.play(evaluator, goals, final_games, final, keep=True)
        proposed = default
        if chosen.changes:
            proposed = _candidate(setting_of(chosen.params), chosen.params, default_params)
            proposed.play(evaluator, goals, final_games, final, keep=True)
    said(Status(1.0, _("done")))
    return Tuned(
        game_name, list(goals), list(axes), fixed, base.players, seats, seed, budget, trials,
        race, default, proposed, final_games, evaluator.games, spent.seconds(),
        trial_games,
    )  # fmt: skip


class Spending:
    """The budget as it is used. A time budget is turned into games at the rate played so
    far (every game counted, the search's overheads too)."""

    def __init__(self, budget: Budget, evaluator: Evaluator) -> None:
        self.budget = budget
        self.evaluator = evaluator
        self.start = time.monotonic()

    def seconds(self) -> float:
        return time.monotonic() - self.start

    def used(self) -> float:
        """The share of the budget used."""
        return self.budget.used(self.seconds(), self.evaluator.games)

    def whole(self) -> float:
        """The whole budget in games (a time budget at the rate games are played)."""
        if self.budget.games is not None:
            return float(self.budget.games)
        return (self.budget.seconds or 0.0) * self.evaluator.rate

    def left(self) -> float:
        """Games the budget still buys."""
        if self.budget.games is not None:
            return max(0.0, self.budget.games - self.evaluator.games)
        return max(0.0, (self.budget.seconds or 0.0) - self.seconds()) * self.evaluator.rate

    def reserve(self, cost: int) -> float:
        """The share the race and the final keep: 1 - SEARCH_SHARE, or less where that
        would buy more than MOST_GAMES per setting (the search has the rest)."""
        most = (RACE_SIZE + 2) * MOST_GAMES * cost
        return min(1.0 - SEARCH_SHARE, most / max(1.0, self.whole()))


def _check_recorded(game_name: str, goals: Sequence[Goal], sample: Sample) -> None:
    for goal in goals:
        if not sample.has(goal.figure.key):
            said = _("{game} does not record {figure} ({what}); figures it records: {figures}")
            recorded = ", ".join(f.name for f in FIGURES if sample.has(f.key) or f.skill)
            raise BadInput(
                said.format(
                    game=game_name,
                    figure=goal.figure.name,
                    what=goal.figure.what,
                    figures=recorded,
                )
            )


def _search(
    goals: Sequence[Goal],
    axes: Sequence[Axis],
    default_params: dict[str, Any],
    evaluate: Callable[[dict[str, Any]], Played],
    seed: int,
    *,
    until: Callable[[], bool],
    line: list[str],
) -> list[Trial]:
    """Optuna's TPE, asked and told one trial at a time, until the search's share of the
    budget is used. The default goes first where it lies in the space."""
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # multivariate TPE is marked experimental
        sampler = optuna.samplers.TPESampler(
            seed=derive_seed(seed, "tpe") % 2**32, multivariate=True, n_startup_trials=8
        )
        study = optuna.create_study(direction="minimize", sampler=sampler)
    space = {a.name: a.distribution() for a in axes}
    if all(a.holds(default_params[a.name]) for a in axes):
        study.enqueue_trial(default_params)
    trials: list[Trial] = []
    best: Trial | None = None
    refused = 0  # in a row: a space the game refuses almost everywhere ends the search
    while not until() and refused < MOST_REFUSED:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            asked = study.ask(space)
        params = dict(asked.params)
        number = len(trials) + 1
        start = time.monotonic()
        try:
            point = evaluate(params)
        except BadInput as error:  # options the game refuses together (too many cards)
            study.tell(asked, state=TrialState.FAIL)
            trials.append(Trial(number, params, None, refused=str(error)))
            refused += 1
            continue
        refused = 0
        loss = loss_of(goals, point.sample)
        study.tell(asked, loss)
        values = {g.figure.key: point.sample.value(g.figure.key) for g in goals}
        trial = Trial(number, params, loss, values, point.blocks, seconds=time.monotonic() - start)
        trials.append(trial)
        if best is None or loss < (best.loss or 0.0):
            best = trial
        shown = _label(best.params, default_params)
        said = _("trial {number}: best so far {setting} (loss {loss})")
        line[0] = said.format(
            number=number,
            setting=_("default") if shown == "default" else shown,
            loss=_number(round(best.loss or 0.0, 2)),
        )
    return trials


def _distinct(points: list[Played], goals: Sequence[Goal]) -> list[dict[str, Any]]:
    """The searched settings by loss, each set of games once. Settings whose first blocks
    gave exactly the same figures played the same games (an option that changes nothing
    there, as allowing a DROP where no total can pass the target): of those, the one with
    the fewest changes from the default (`points[0]`) stands for all, at the loss of the
    one with the most blocks."""
    default = points[0].params

    def changes(point: Played) -> int:
        return sum(v != default[k] for k, v in point.params.items())

    twins: dict[str, list[Played]] = {}
    for point in points:
        twins.setdefault(point.first, []).append(point)
    ranked = []
    for group in twins.values():
        surest = max(group, key=lambda p: p.blocks)
        simplest = min(group, key=changes)
        ranked.append((loss_of(goals, surest.sample), changes(simplest), simplest.params))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [params for _, _, params in ranked]


def _race_params(
    ranked: list[dict[str, Any]],
    default_params: dict[str, Any],
    axes: Sequence[Axis],
    setting_of: Callable[[dict[str, Any]], Setting],
) -> list[dict[str, Any]]:
    """The default, the search's best few and one-change simplifications of its best (each
    change alone, and the best without each change), at most RACE_SIZE, each once."""
    chosen: list[dict[str, Any]] = [default_params]
    seen = {_key(default_params)}

    def take(params: dict[str, Any]) -> None:
        if len(chosen) >= RACE_SIZE or _key(params) in seen:
            return
        try:
            setting_of(params)
        except BadInput:
            return
        seen.add(_key(params))
        chosen.append(params)

    for params in ranked[:RACE_BEST]:
        take(params)
    if ranked:
        best = ranked[0]
        changed = [a.name for a in axes if best[a.name] != default_params[a.name]]
        if len(changed) >= 2:
            for name in changed:
                take(default_params | {name: best[name]})
                take(best | {name: default_params[name]})
    for params in ranked[RACE_BEST:]:
        take(params)
    return chosen


def _candidate(
    setting: Setting, params: dict[str, Any], default_params: dict[str, Any]
) -> Candidate:
    label = _label(params, default_params)
    setting.label = label
    changes = sum(params[k] != default_params[k] for k in params)
    return Candidate(params, label, changes, Played(setting))


def _race(
    evaluator: Evaluator,
    goals: Sequence[Goal],
    race: list[Candidate],
    games: int,
    seed: int,
    line: list[str],
) -> Candidate:
    """Successive halving on the race's deals: every setting plays `games` games of round
    0's deals; the better half (by `Candidate.rank`, pooled over its rounds) plays twice as
    many of round 1's, and so on until one is left. Each round's deals are the same for
    every setting in it, and the last settings standing have the most games."""
    alive = list(race)
    round_ = 0
    while True:
        said = _("race round {round}: {settings}, {games} each")
        line[0] = said.format(
            round=round_ + 1,
            settings=ngettext("{n} setting", "{n} settings", len(alive)).format(n=len(alive)),
            games=ngettext("{n} game", "{n} games", games).format(n=_number(games)),
        )
        for candidate in alive:
            candidate.play(evaluator, goals, games, derive_seed(seed, "race", round_))
            candidate.rounds += 1
        alive = sorted(alive, key=lambda c: c.rank)[: math.ceil(len(alive) / 2)]
        if len(alive) == 1:
            return alive[0]
        round_ += 1
        games = min(MOST_GAMES, 2 * games)


# -- the page -----------------------------------------------------------------------------------
def show(figure: Figure, value: float) -> str:
    if figure.signed:
        return show_points(figure, value)
    if figure.rate:
        return f"{100 * value:.1f}%"
    return f"{value:.2f}"


def show_points(figure: Figure, value: float) -> str:
    """A difference: percentage points for rates."""
    if figure.rate:
        return f"{100 * value:+.1f} points"
    return f"{value:+.2f}"


def show_p(p: float) -> str:
    """A p-value as text (below the smallest float: said so, not 0)."""
    return f"{p:.3g}" if p > 0 else "< 1e-300"


def shown_figures(tuned: Tuned) -> list[Figure]:
    """The goals' figures first, then every other figure the final games record."""
    sample = tuned.default.played.sample
    first = [g.figure for g in tuned.goals]
    rest = [f for f in FIGURES if f not in first and sample.has(f.key)]
    return first + rest


def write_page(tuned: Tuned, out: Path) -> Path:
    """The page (index.html), its plots and, in `report/`, the balance report of the default
    against the proposal on the final deals. Written in a hidden folder and moved into
    place (index.html last), as the report is: a page stopped half-way is never left."""
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".writing-", dir=out))
    try:
        _write_page(tuned, work)
        for file in sorted(work.iterdir(), key=lambda f: f.name == "index.html"):
            target = out / file.name
            if target.is_dir() and file.is_dir():
                shutil.rmtree(target)
            os.replace(file, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out / "index.html"


def _write_page(tuned: Tuned, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    columns = [tuned.default.played.setting]
    if tuned.proposed is not tuned.default:
        tuned.proposed.played.setting.label = f"proposed: {tuned.proposed.label}"
        columns.append(tuned.proposed.played.setting)
    tuned.default.played.setting.label = "default"
    write_report(
        tuned.game_name, columns, [tuned.seats] * len(columns), out / "report", seed=tuned.seed
    )
    plots = [
        ("before_after.png", "Before and after", _plot_before_after(tuned, out)),
        ("search.png", "The search, trial by trial", _plot_search(tuned, out)),
        ("race.png", "The race", _plot_race(tuned, out)),
        ("settings.png", "What each setting does", _plot_settings(tuned, out)),
    ]
    e = html.escape
    game = e(tuned.game_name)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{game} balance search</title>",
        "<style>body{font-family:sans-serif;margin:24px;max-width:1400px}"
        "table{border-collapse:collapse;margin:8px 0 24px}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
        "img{max-width:100%;border:1px solid #eee}.note{color:#555}</style></head><body>",
        f"<h1>{game}: balance search</h1>",
        "<h2>Goals</h2><ul>",
        *(f"<li>{e(g.text)}: {e(g.figure.what)}</li>" for g in tuned.goals),
        "</ul>",
        _proposal(tuned),
        _before_after_table(tuned),
        "<p>The full balance report of the default against the proposal on the final deals "
        "(every figure, per seat and per turn position, with its plots and paired tests): "
        "<a href='report/index.html'>report/index.html</a>.</p>",
        _what_was_searched(tuned),
        _race_table(tuned),
    ]
    for file, title, note in plots:
        parts.append(f"<h2>{e(title)}</h2><p class='note'>{e(note)}</p>")
        parts.append(f"<img src='{file}' alt='{e(title)}'>")
    parts.append(_trials_table(tuned))
    write_trials(tuned, out / "trials.csv")
    parts.append("</body></html>")
    (out / "index.html").write_text("\n".join(parts))


def _proposal(tuned: Tuned) -> str:
    e = html.escape
    changed = tuned.changed
    if not changed:
        met = tuned.default.met
        said = (
            "The default already meets every goal: no change of the searched settings is needed."
            if met
            else "No setting of the race did better than the default: no change is proposed."
        )
        return f"<h2>Proposal</h2><p>{e(said)}</p>"
    rows = "".join(
        f"<li><b>{e(name)}</b>: {e(str(old))} &rarr; <b>{e(str(new))}</b></li>"
        for name, (old, new) in changed.items()
    )
    verdict = (
        "It meets every goal on the final deals."
        if tuned.proposed.met
        else "No setting of the race met every goal; this one came closest."
    )
    return f"<h2>Proposal</h2><ul>{rows}</ul><p>{e(verdict)}</p>"


def _before_after_table(tuned: Tuned) -> str:
    """Each figure of the default and the proposal on the final deals, the paired change
    and the goal; with no change proposed, the default's figures alone."""
    e = html.escape
    base, after = tuned.default.played.sample, tuned.proposed.played.sample
    changed = tuned.proposed is not tuned.default
    goals = {g.figure.key: g for g in tuned.goals}
    title = "Figures before and after" if changed else "The default's figures"
    games = f"{tuned.final_games:,} games" + (
        " of each (game i of both from the same seed)" if changed else ""
    )
    head = ["figure", "goal", "default", "95% interval"]
    if changed:
        head += ["proposed", "95% interval", "change", "95% interval", "p"]
    rows = [
        f"<h2>{title}</h2><p class='note'>On the final deals: {games}, which neither the "
        "search nor the race saw. 95% intervals: Wilson's for a yes/no per game, else the "
        "normal interval of a ratio over games."
        + (
            " The change is paired: exact McNemar test for a yes/no per game, Wilcoxon "
            "signed-rank test otherwise."
            if changed
            else ""
        )
        + "</p>",
        "<table><tr>" + "".join(f"<th>{h}</th>" for h in [*head, "goal met"]) + "</tr>",
    ]
    for figure in shown_figures(tuned):
        goal = goals.get(figure.key)
        before, now = estimate(figure, base), estimate(figure, after)
        cells = [e(figure.name), e(goal.text if goal else ""), *_with_interval(figure, before)]
        if changed:
            change = paired_change(figure, base, after)
            cells += [
                *_with_interval(figure, now),
                show_points(figure, change.diff),
                f"{show_points(figure, change.low)} to {show_points(figure, change.high)}",
                show_p(change.p),
            ]
        cells.append(_met_text(goal, now) if goal else "")
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    rows.append("</table><ul class='note'>")
    rows += [f"<li>{e(f.name)}: {e(f.what)}</li>" for f in shown_figures(tuned)]
    rows.append("</ul>")
    return "\n".join(rows)


def _with_interval(figure: Figure, found: Estimate) -> list[str]:
    return [show(figure, found.value), f"{show(figure, found.low)} - {show(figure, found.high)}"]


def _met_text(goal: Goal, found: Estimate) -> str:
    if not goal.met(found.value):
        return "no"
    inside = goal.met(found.low) and goal.met(found.high)
    return "yes, interval inside" if inside else "yes (interval reaches past)"


def _what_was_searched(tuned: Tuned) -> str:
    e = html.escape
    fixed = ", ".join(f"{k}={v}" for k, v in tuned.fixed.items()) or "none"
    refused = sum(t.loss is None for t in tuned.trials)
    return "\n".join(
        [
            "<h2>What was searched</h2><ul>",
            *(f"<li>{e(a.text)}</li>" for a in tuned.axes),
            "</ul>",
            f"<p>{tuned.players} players; bots {e(', '.join(tuned.seats))}; other options "
            f"{e(fixed)}; master seed {tuned.seed}. Budget {e(tuned.budget.text)}: "
            f"{tuned.games:,} games in {tuned.seconds:,.0f} s; {len(tuned.trials)} trials "
            f"({refused} refused by the game's own checks), {tuned.trial_games:,} games per "
            "block.</p>",
            "<p class='note'>Search: Optuna's TPE sampler, one trial at a time; every setting "
            "is played on the same blocks of deals (common random numbers), and a setting "
            "proposed again is played on its next block, its figures pooled over its blocks. "
            "The loss is the sum over goals of ((figure - target) / tolerance)². Race: the "
            "default, the search's best and one-change simplifications of its best on fresh "
            "deals; the proposal is the one meeting every goal with the fewest changes (then "
            "the smallest loss). Final: the default and the proposal on a third set of deals. "
            "The search's own figures are biased by its choosing (the winner's curse); the "
            "race's and the final's are not.</p>",
        ]
    )


def _race_table(tuned: Tuned) -> str:
    e = html.escape
    goals = tuned.goals
    head = "".join(f"<th>{e(g.figure.name)} (95% interval)</th>" for g in goals)
    rows = [
        "<h2>The race</h2><p class='note'>Successive halving on the race's own deals: every "
        "setting plays the first round's deals; the better half (every goal met with the "
        "fewest changes, then the smallest loss) plays twice as many of the next round's, "
        "until one is left. Figures pooled over the rounds a setting played.</p>",
        f"<table><tr><th>setting</th><th>changes</th><th>rounds</th><th>games</th>{head}"
        "<th>loss</th><th>every goal met</th></tr>",
    ]
    for c in tuned.race:
        cells = []
        for g in goals:
            found = estimate(g.figure, c.played.sample)
            cells.append(
                f"<td>{show(g.figure, found.value)} <small>({show(g.figure, found.low)} - "
                f"{show(g.figure, found.high)})</small></td>"
            )
        rows.append(
            f"<tr><td>{e(c.label)}</td><td>{c.changes}</td><td>{c.rounds}</td>"
            f"<td>{c.games:,}</td>{''.join(cells)}"
            f"<td>{c.loss:.2f}</td><td>{'yes' if c.met else 'no'}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _trials_table(tuned: Tuned) -> str:
    e = html.escape
    goals = tuned.goals
    head = "".join(f"<th>{e(g.figure.name)}</th>" for g in goals)
    best = sorted(tuned.trials, key=lambda t: math.inf if t.loss is None else t.loss)
    shown = best[:BEST_TRIALS] + [t for t in tuned.trials if t.loss is None]
    rows = [
        f"<h2>The search's best trials</h2><p class='note'>The {BEST_TRIALS} trials of the "
        "smallest loss (and any the game refused), with the setting's figures pooled over "
        "the blocks it had by then: search deals, biased by the choosing (see above). Every "
        "trial is in <a href='trials.csv'>trials.csv</a>.</p>",
        f"<table><tr><th>trial</th><th>setting</th><th>blocks</th>{head}<th>loss</th>"
        "<th>seconds</th></tr>",
    ]
    default = tuned.default.params
    for t in shown:
        label = e(_label(t.params, default))
        if t.loss is None:
            rows.append(
                f"<tr><td>{t.number}</td><td>{label}</td>"
                f"<td colspan='{len(goals) + 3}'>refused: {e(t.refused)}</td></tr>"
            )
            continue
        cells = "".join(f"<td>{show(g.figure, t.values[g.figure.key])}</td>" for g in goals)
        rows.append(
            f"<tr><td>{t.number}</td><td>{label}</td><td>{t.blocks}</td>{cells}"
            f"<td>{t.loss:.2f}</td><td>{t.seconds:.1f}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def write_trials(tuned: Tuned, path: Path) -> None:
    """Every trial as a row: its number, the searched settings, blocks, each goal's figure
    as the search saw it, the loss, seconds, and why the game refused it (if it did)."""
    names = [a.name for a in tuned.axes]
    keys = [g.figure.key for g in tuned.goals]
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["trial", *names, "blocks", *keys, "loss", "seconds", "refused"])
        for t in tuned.trials:
            values = [t.values.get(k, "") for k in keys]
            loss = "" if t.loss is None else t.loss
            writer.writerow(
                [t.number, *(t.params.get(n) for n in names), t.blocks, *values, loss,
                 round(t.seconds, 3), t.refused]
            )  # fmt: skip


def _scale(figure: Figure) -> float:
    return 100.0 if figure.rate else 1.0


def _band(ax: Any, goal: Goal, horizontal: bool = True) -> None:
    s = _scale(goal.figure)
    low, high = s * (goal.target - goal.tolerance), s * (goal.target + goal.tolerance)
    if horizontal:
        ax.axhspan(low, high, color="#55a868", alpha=0.15, label="goal")
        ax.axhline(s * goal.target, color="#55a868", linewidth=1)
    else:
        ax.axvspan(low, high, color="#55a868", alpha=0.15, label="goal")


def _whiskers(found: Sequence[Estimate], scale: float) -> list[list[float]]:
    """Error bars below and above (never of negative length: a rounding at 0 or 1)."""
    return [
        [scale * max(0.0, f.value - f.low) for f in found],
        [scale * max(0.0, f.high - f.value) for f in found],
    ]


def _most_of(ax: Any, ys: Sequence[float], goal: Goal) -> None:
    """A y axis over 98% of the points and the goal's band: a few settings far off (games
    ten times as long) would squash the rest into a line."""
    if len(ys) < 50:
        return
    s = _scale(goal.figure)
    ordered = sorted(ys)
    low = min(ordered[len(ordered) // 100], s * (goal.target - goal.tolerance))
    high = max(ordered[-1 - len(ordered) // 100], s * (goal.target + goal.tolerance))
    pad = 0.05 * (high - low or 1.0)
    ax.set_ylim(low - pad, high + pad)


def _axis_label(figure: Figure) -> str:
    return f"{figure.name} (%)" if figure.rate else figure.name


def _plot_before_after(tuned: Tuned, out: Path) -> str:
    from gamenight.sim.plots import grid, save

    goals = tuned.goals
    fig, axes = grid(len(goals), height=3.4)
    for ax, goal in zip(axes[0], goals, strict=True):
        s = _scale(goal.figure)
        both = (tuned.default, tuned.proposed)
        found = [estimate(goal.figure, c.played.sample) for c in both]
        ax.bar(
            [0, 1],
            [s * f.value for f in found],
            yerr=_whiskers(found, s),
            capsize=5,
            color=["#8c8c8c", "#4c72b0"],
        )
        _band(ax, goal)
        ax.set_xticks([0, 1], ["default", "proposed"])
        ax.set_ylabel(_axis_label(goal.figure))
        ax.set_title(goal.text, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    save(fig, out / "before_after.png")
    return (
        "Each goal's figure for the default and the proposal on the final deals; whiskers "
        "are 95% intervals, the green band is the goal."
    )


def _plot_search(tuned: Tuned, out: Path) -> str:
    from gamenight.sim.plots import grid, save

    goals = tuned.goals
    fig, axes = grid(len(goals) + 1, height=3.4)
    scored = [t for t in tuned.trials if t.loss is not None]
    xs = [t.number for t in scored]
    for ax, goal in zip(axes[0], goals, strict=False):
        s = _scale(goal.figure)
        ys = [s * t.values[goal.figure.key] for t in scored]
        ax.scatter(xs, ys, s=8, alpha=0.5, color="#4c72b0")
        _band(ax, goal)
        _most_of(ax, ys, goal)
        ax.set_xlabel("trial")
        ax.set_ylabel(_axis_label(goal.figure))
        ax.set_title(goal.text, fontsize=10)
        ax.grid(alpha=0.3)
    ax = axes[0][-1]
    losses = [t.loss or 0.0 for t in scored]
    best = list(itertools.accumulate(losses, min))
    ax.scatter(xs, [max(x, 1e-3) for x in losses], s=10, color="#8c8c8c", label="trial")
    ax.plot(xs, [max(x, 1e-3) for x in best], color="#c44e52", label="best so far")
    ax.set_yscale("log")
    ax.set_xlabel("trial")
    ax.set_ylabel("loss (log scale)")
    ax.set_title("loss: sum of squared misses in tolerances", fontsize=10)
    ax.grid(alpha=0.3)
    if xs:
        ax.legend(fontsize=8)
    save(fig, out / "search.png")
    return (
        "Each trial's figures as the search saw them (pooled over the setting's blocks of "
        "search deals) and its loss; the green band is the goal."
    )


def _plot_race(tuned: Tuned, out: Path) -> str:
    from gamenight.sim.plots import grid, save, tick

    goals = tuned.goals
    fig, axes = grid(len(goals), height=max(3.0, 0.5 * len(tuned.race) + 1.2))
    for ax, goal in zip(axes[0], goals, strict=True):
        s = _scale(goal.figure)
        ys = list(range(len(tuned.race)))
        found = [estimate(goal.figure, c.played.sample) for c in tuned.race]
        ax.errorbar(
            [s * f.value for f in found],
            ys,
            xerr=_whiskers(found, s),
            fmt="o",
            capsize=4,
            color="#4c72b0",
        )
        _band(ax, goal, horizontal=False)
        ax.set_yticks(ys, [tick(c.label) for c in tuned.race], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(_axis_label(goal.figure))
        ax.set_title(goal.text, fontsize=10)
        ax.grid(alpha=0.3)
    save(fig, out / "race.png")
    return "Each setting of the race with its 95% interval on the race's deals."


def _plot_settings(tuned: Tuned, out: Path) -> str:
    from matplotlib.ticker import MaxNLocator

    from gamenight.sim.plots import grid, save

    goal = tuned.goals[0]
    s = _scale(goal.figure)
    scored = [t for t in tuned.trials if t.loss is not None]
    fig, axes = grid(len(tuned.axes), height=3.2)
    for ax, axis in zip(axes[0], tuned.axes, strict=True):
        shown = [t for t in scored if axis.holds(t.params.get(axis.name))]
        values = [t.params[axis.name] for t in shown]
        ys = [s * t.values[goal.figure.key] for t in shown]
        if axis.values:
            order = list(axis.values)
            xs = [order.index(v) for v in values]
            ax.set_xticks(range(len(order)), [str(v) for v in order], fontsize=8)
            ax.set_xlim(-0.5, len(order) - 0.5)
        else:
            xs = values
            if axis.whole:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.scatter(xs, ys, s=8, alpha=0.3, color="#4c72b0")
        _band(ax, goal)
        _most_of(ax, ys, goal)
        ax.set_xlabel(axis.name)
        ax.set_ylabel(_axis_label(goal.figure))
        ax.grid(alpha=0.3)
    save(fig, out / "settings.png")
    return (
        f"The first goal's figure ({goal.figure.name}) of every trial against each searched "
        "setting's value: how the figure moves with each."
    )
