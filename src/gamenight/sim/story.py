"""The report's answers to a designer's next questions, from the games' `stats()`:

- the lead: how often it changes hands (`lead_changes`) and how often the winner was behind
  at some point (`comeback`);
- per round: a statistic a game records once per round as `name.r<round>` (Drop or Stop:
  `start_won.r3`, whether the seat that started round 3 won it), as a rate per round over
  the games that reached that round;
- the skill curve: the same setting with one seat at each difficulty level (easy, medium,
  hard) against easy bots; a steep curve says the setting rewards skill.

Each part returns its HTML (escaped, built from numbers and labels) and writes its plot.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamenight.bots import LEVELS, levels
from gamenight.sim.runner import GameResult, Job, run_many, wilson

if TYPE_CHECKING:
    from gamenight.sim.report import Setting

PER_ROUND = re.compile(r"^(?P<name>[a-z_]+)\.r(?P<round>\d+)$")
LEAD_KEYS = ("lead_changes", "comeback")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def scalar_keys(keys: Sequence[str] | set[str]) -> list[str]:
    """Stat keys worth a mean column or a histogram (not per-round, not yes/no)."""
    return sorted(k for k in keys if not PER_ROUND.match(k) and k != "comeback")


# -- the lead ---------------------------------------------------------------------------------
def lead(results: Sequence[GameResult]) -> dict[str, float] | None:
    """Mean lead changes and the comeback rate (over games with a winner), or None when the
    game does not record them."""
    rows = [r for r in results if "lead_changes" in r.stats]
    if not rows:
        return None
    decided = [r for r in rows if r.winners and not r.truncated]
    comebacks = sum(int(r.stats.get("comeback", 0.0)) for r in decided)
    rate, lo, hi = wilson(comebacks, len(decided))
    return {
        "games": len(rows),
        "lead_changes": sum(r.stats["lead_changes"] for r in rows) / len(rows),
        "comebacks": comebacks,
        "decided": len(decided),
        "comeback": rate,
        "comeback_lo": lo,
        "comeback_hi": hi,
    }


def lead_section(columns: Sequence[Setting]) -> str:
    found = [(s, lead(s.results)) for s in columns]
    if all(figures is None for _, figures in found):
        return ""
    rows = [
        "<h2>The lead</h2><p class='note'>After every step the game records (a round, "
        "say) the standings are checked. A lead change: a new sole leader takes over "
        "from another. A comeback: a game whose winner was behind someone at some point "
        "(share of games with a winner, 95% interval).</p>",
        "<table><tr><th>setting</th><th>mean lead changes</th><th>comebacks</th>"
        "<th>95% interval</th></tr>",
    ]
    for s, figures in found:
        if figures is None:
            rows.append(f"<tr><td>{html.escape(s.label)}</td><td colspan='3'>not recorded</td>")
            continue
        rows.append(
            f"<tr><td>{html.escape(s.label)}</td><td>{figures['lead_changes']:.2f}</td>"
            f"<td>{_pct(figures['comeback'])} ({figures['comebacks']:,} of "
            f"{figures['decided']:,})</td><td>{_pct(figures['comeback_lo'])} - "
            f"{_pct(figures['comeback_hi'])}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


# -- per round --------------------------------------------------------------------------------
# Per-round stats that are not a yes/no but a signed figure (Drop or Stop's `start_edge.rN`,
# the start seat's share of the round minus the others' mean): `gamenight tune` reads them as
# its `round-start advantage`; the yes/no section below leaves them out.
SIGNED_PER_ROUND = frozenset({"start_edge"})


def per_round(results: Sequence[GameResult]) -> dict[str, dict[int, tuple[int, int]]]:
    """name -> round -> (games where it held, games that reached the round), for the
    yes/no per-round stats (not SIGNED_PER_ROUND)."""
    out: dict[str, dict[int, list[int]]] = {}
    for r in results:
        for key, value in r.stats.items():
            match = PER_ROUND.match(key)
            if match and match["name"] not in SIGNED_PER_ROUND:
                cell = out.setdefault(match["name"], {}).setdefault(int(match["round"]), [0, 0])
                cell[0] += int(value > 0)
                cell[1] += 1
    return {
        name: {k: (a, b) for k, (a, b) in sorted(rounds.items())} for name, rounds in out.items()
    }


ROUND_TITLES = {"start_won": "Does the seat that starts a round win it?"}


def per_round_section(columns: Sequence[Setting], out: Path) -> str:
    tables = [per_round(s.results) for s in columns]
    names = sorted({name for t in tables for name in t})
    parts = []
    for name in names:
        title = ROUND_TITLES.get(name, f"{name} per round")
        file = f"round_{name}.png"
        _plot_per_round(columns, [t.get(name, {}) for t in tables], out / file)
        parts.append(
            f"<h2>{html.escape(title)}</h2><p class='note'>Per round r: the share of the "
            f"games that reached round r in which <code>{html.escape(name)}</code> held, "
            "with 95% intervals (rounds played in fewer than 20 games are left out of the "
            "plot); dashed: one in n, a seat's fair share if rounds had one winner (shared "
            "round wins count for every co-winner).</p>"
        )
        parts.append(f"<img src='{file}' alt='{html.escape(title)}'>")
        parts.append(_per_round_table(columns, [t.get(name, {}) for t in tables]))
    return "\n".join(parts)


def _per_round_table(columns: Sequence[Setting], tables: list[dict[int, tuple[int, int]]]) -> str:
    rounds = sorted({r for t in tables for r in t})[:12]
    head = "".join(f"<th>round {r}</th>" for r in rounds)
    rows = [f"<table><tr><th>setting</th>{head}</tr>"]
    for s, table in zip(columns, tables, strict=True):
        cells = []
        for r in rounds:
            held, games = table.get(r, (0, 0))
            cells.append(
                f"<td>{_pct(held / games)} <small>of {games:,}</small></td>"
                if games
                else "<td></td>"
            )
        rows.append(f"<tr><td>{html.escape(s.label)}</td>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _plot_per_round(
    columns: Sequence[Setting], tables: list[dict[int, tuple[int, int]]], path: Path
) -> None:
    from matplotlib.ticker import MaxNLocator

    from gamenight.sim.plots import grid, save

    fig, axes = grid(len(columns))
    for ax, s, table in zip(axes[0], columns, tables, strict=True):
        points = [(r, *wilson(a, b)) for r, (a, b) in table.items() if b >= 20]
        if points:
            ax.errorbar(
                [p[0] for p in points],
                [p[1] for p in points],
                yerr=[[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]],
                marker="o",
                capsize=3,
                color="#4c72b0",
            )
        ax.axhline(1 / s.players, color="#c44e52", linestyle="--", linewidth=1)
        ax.set_xlabel("round")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 1)
        ax.set_title(s.label, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("share of games (95% interval)")
    save(fig, path)


# -- skill curves -----------------------------------------------------------------------------
def skill_curves(
    game_name: str,
    columns: Sequence[Setting],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    backend: str = "processes",
    address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[dict[str, tuple[int, int]]]:
    """Per setting, per level: (wins, games) of one seat at that level against easy bots
    in every other seat; the level's seat goes round the table (game i of the seat-s run
    uses derived seed i, as in the report). Co-winners count as wins."""
    jobs: list[tuple[Job, int]] = []
    plan: list[tuple[int, str, int]] = []  # (column, level, seat)
    for c, s in enumerate(columns):
        named = levels(game_name, s.players)
        per_seat = max(1, math.ceil(games / s.players))
        for level in LEVELS:
            for seat in range(s.players):
                seats = tuple(
                    named[level] if i == seat else named["easy"] for i in range(s.players)
                )
                options = tuple(sorted(s.options.items()))
                jobs.append((Job(game_name, options, seats, seed, batched=None), per_seat))
                plan.append((c, level, seat))
    results = run_many(
        jobs, workers=workers, on_progress=on_progress, backend=backend, address=address
    )
    curves: list[dict[str, list[int]]] = [{level: [0, 0] for level in LEVELS} for _ in columns]
    for (c, level, seat), batch in zip(plan, results, strict=True):
        cell = curves[c][level]
        for r in batch:
            cell[0] += seat in r.winners
            cell[1] += 1
    return [{level: (a, b) for level, (a, b) in curve.items()} for curve in curves]


def skill_section(
    game_name: str, columns: Sequence[Setting], curves: list[dict[str, tuple[int, int]]], out: Path
) -> str:
    if not curves:
        return ""
    _plot_skill(columns, curves, out / "skill.png")
    rows = [
        "<h2>Does the setting reward skill?</h2><p class='note'>One seat at each level "
        "(its bot in brackets) against easy bots in every other seat, that seat going round "
        "the table; its win rate with 95% intervals. Easy against easy is the fair share "
        "(above one in n where wins are shared: every co-winner counts); the steeper the "
        "curve, the more the better player wins.</p>",
        "<img src='skill.png' alt='win rate per level'>",
        "<table><tr><th>setting</th>"
        + "".join(f"<th>{html.escape(level)}</th>" for level in LEVELS)
        + "<th>hard minus easy</th></tr>",
    ]
    for s, curve in zip(columns, curves, strict=True):
        named = levels(game_name, s.players)
        cells = []
        for level in LEVELS:
            wins, games = curve[level]
            rate, lo, hi = wilson(wins, games)
            cells.append(
                f"<td>{_pct(rate)} <small>({_pct(lo)} - {_pct(hi)}, {games:,} games; "
                f"{html.escape(named[level])})</small></td>"
            )
        gap = _rate(curve["hard"]) - _rate(curve["easy"])
        label = html.escape(s.label)
        rows.append(f"<tr><td>{label}</td>{''.join(cells)}<td>{100 * gap:+.1f} points</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _rate(cell: tuple[int, int]) -> float:
    return cell[0] / cell[1] if cell[1] else 0.0


def _plot_skill(
    columns: Sequence[Setting], curves: list[dict[str, tuple[int, int]]], path: Path
) -> None:
    from gamenight.sim.plots import grid, save

    fig, axes = grid(len(columns))
    for ax, s, curve in zip(axes[0], columns, curves, strict=True):
        stats: list[Any] = [wilson(*curve[level]) for level in LEVELS]
        ax.errorbar(
            range(len(LEVELS)),
            [r for r, _, _ in stats],
            yerr=[[r - lo for r, lo, _ in stats], [hi - r for r, _, hi in stats]],
            marker="o",
            capsize=4,
            color="#55a868",
        )
        ax.axhline(1 / s.players, color="#c44e52", linestyle="--", linewidth=1)
        ax.set_xticks(range(len(LEVELS)), list(LEVELS))
        ax.set_xlabel("level of the one seat (others easy)")
        ax.set_ylim(0, 1)
        ax.set_title(s.label, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("its win rate (95% interval)")
    save(fig, path)
