"""Balance reports: run many games per setting and write `DIR/index.html` with plots.

    gamenight report drop-or-stop --games 20000 --out report --sweep deck=standard,descending,1to6
    gamenight report drop-or-stop --sweep deck=standard,descending --sweep players=2,3,4

For every setting (the `--set` options, times each combination of the `--sweep` values:
several sweeps make a grid) the same
bots play the same derived seeds (game i of every setting uses `derive_seed(seed, i)`, so
settings are compared on common random numbers). The page shows, per setting and side by
side: win rate per seat and per turn position (position 0 is the seat asked first; its
lead over the others is the first-player advantage) with 95% Wilson intervals, score and
game-length distributions, how often games end in a shared win, the score spread and the
winner's margin, and a table of figures. Every setting is compared with the first one on
the same deals by paired tests (exact McNemar on "the first seat won", Wilcoxon signed-rank
on the length), with p-values. From the games' `stats()` (story.py): lead changes and
comebacks, figures per round (Drop or Stop: does the round's start seat win it?), and with
`skill_games` the skill curves (one seat at each level against easy bots). Every game is
also written to `games.csv` and `games.parquet` for analysis elsewhere.
"""

from __future__ import annotations

import csv
import html
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamenight.bots import default_bot, make_seat
from gamenight.engine.core import BadInput, Game
from gamenight.engine.options import options_to_json
from gamenight.engine.registry import load
from gamenight.sim.runner import GameResult, Job, Summary, run_many, wilson
from gamenight.sim.story import (
    lead_section,
    per_round_section,
    scalar_keys,
    skill_curves,
    skill_section,
)


@dataclass
class Setting:
    """One column of the report: its options, the games played and their figures."""

    label: str
    options: dict[str, Any]
    game: Game
    results: list[GameResult] = field(default_factory=list)
    first: list[int] = field(default_factory=list)  # seat asked first, per game
    swept: tuple[tuple[str, str], ...] = ()  # (option, value) of each sweep, in order

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def summary(self) -> Summary:
        return Summary.of(self.results, self.players)

    def position_wins(self) -> list[int]:
        """Wins per turn position: position p is the seat p places after the first one."""
        n = self.players
        wins = [0] * n
        for r, first in zip(self.results, self.first, strict=True):
            for w in r.winners:
                wins[(w - first) % n] += 1
        return wins


Sweep = tuple[str, list[str]]


def parse_sweep(text: str | None) -> Sweep | None:
    """`deck=standard,descending` -> ("deck", ["standard", "descending"])."""
    if not text:
        return None
    key, eq, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not eq or not key.strip() or not items:
        raise BadInput(f"--sweep takes option=v1,v2,..., got {text!r}")
    return key.strip().replace("-", "_"), items


def parse_sweeps(texts: Sequence[str] | None) -> list[Sweep]:
    """Several `--sweep`s, which combine as a grid; an option swept twice is refused."""
    sweeps = [s for s in (parse_sweep(t) for t in texts or ()) if s is not None]
    keys = [k for k, _ in sweeps]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise BadInput(f"--sweep names {', '.join(twice)} twice; give each option once")
    return sweeps


def settings(
    game_name: str,
    options: dict[str, Any],
    sweep: Sweep | Sequence[Sweep] | None,
    players: int | None = None,
) -> list[Setting]:
    """The settings of a report, each with its game loaded (bad options raise BadInput).
    Several sweeps give every combination of their values (the last sweep varies fastest)."""
    base = dict(options)
    sweeps: list[Sweep] = []
    if sweep:
        sweeps = [sweep] if isinstance(sweep[0], str) else list(sweep)  # type: ignore[arg-type,list-item]
    if players is not None and "players" not in base and "players" not in dict(sweeps):
        base["players"] = players
    combos: list[tuple[str, dict[str, Any], tuple[tuple[str, str], ...]]]
    if not sweeps:
        label = ", ".join(f"{k}={v}" for k, v in base.items()) or "default options"
        combos = [(label, base, ())]
    else:
        keys = [k for k, _ in sweeps]
        combos = []
        for values in itertools.product(*(v for _, v in sweeps)):
            pairs = tuple(zip(keys, values, strict=True))
            label = ", ".join(f"{k}={v}" for k, v in pairs)
            combos.append((label, base | dict(pairs), pairs))
    out = []
    for label, given, swept in combos:
        game = load(game_name, **given)
        canonical = options_to_json(game.options) | {"players": game.players}
        out.append(Setting(label, canonical, game, swept=swept))
    return out


def run_report(
    game_name: str,
    games: int,
    out_dir: str | Path,
    *,
    options: dict[str, Any] | None = None,
    sweep: Sweep | Sequence[Sweep] | None = None,
    bots: Sequence[str] = (),
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str = "processes",
    address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    skill_games: int = 0,
    detail: bool = True,
) -> Path:
    """Play `games` games per setting and write the report; returns the index.html path.
    `skill_games` > 0 adds the skill curves (that many games per level and setting);
    `detail` plays every game through the engine so the games' whole `stats()` reach the
    report (lead changes, per-round figures), else lockstep batches where a game has them
    (the same games, faster, with only their length)."""
    if players is None and bots and len(bots) > 1:
        players = len(bots)
    columns = settings(game_name, options or {}, sweep, players)
    jobs = []
    for s in columns:
        names = list(bots) or [default_bot(game_name)]
        seats = tuple(_spec(names[i % len(names)]) for i in range(s.players))
        for spec in seats:
            make_seat(spec, s.game, 0)  # refuse bad bot names before playing
        batched = False if detail else None
        jobs.append((Job(game_name, tuple(sorted(s.options.items())), seats, seed, batched), games))
    results = run_many(
        jobs, workers=workers, on_progress=on_progress, backend=backend, address=address
    )
    for s, batch in zip(columns, results, strict=True):
        s.results = batch
        s.first = [_first_seat(s.game, r.seed) for r in batch]
    curves = []
    if skill_games > 0:
        curves = skill_curves(
            game_name, columns, skill_games, seed=seed, workers=workers, backend=backend,
            address=address, on_progress=on_progress,
        )  # fmt: skip
    seat_names = [j.seats for j, _ in jobs]
    return write_report(game_name, columns, seat_names, Path(out_dir), seed=seed, curves=curves)


def _spec(name: str) -> str:
    return name if name.startswith("bot") else f"bot:{name}"


def _first_seat(game: Game, seed: int) -> int:
    state = game.start(seed)
    return state.actors[0] if state.actors else 0


# -- the page ---------------------------------------------------------------------------------
def write_report(
    game_name: str,
    columns: Sequence[Setting],
    seats: Sequence[Sequence[str]],
    out: Path,
    *,
    seed: int = 0,
    curves: Sequence[dict[str, tuple[int, int]]] = (),
) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    out.mkdir(parents=True, exist_ok=True)
    figures = [
        ("winrate.png", "Win rate per seat", _plot_win_rates(columns, out / "winrate.png", False)),
        (
            "position.png",
            "Win rate per turn position (first-player advantage)",
            _plot_win_rates(columns, out / "position.png", True),
        ),
        ("scores.png", "Score distribution per seat", _plot_scores(columns, out / "scores.png")),
        ("length.png", "Game length", _plot_lengths(columns, out / "length.png")),
        ("ties.png", "Shared wins and truncated games", _plot_ties(columns, out / "ties.png")),
    ]
    if len(columns) > 1:
        figures.insert(
            0,
            (
                "sweep.png",
                "Win rate per turn position across the sweep",
                _plot_sweep(columns, out / "sweep.png"),
            ),
        )
    games = len(columns[0].results) if columns else 0
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(game_name)} balance report</title>",
        "<style>body{font-family:sans-serif;margin:24px;max-width:1400px}"
        "table{border-collapse:collapse;margin:8px 0 24px}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
        "img{max-width:100%;border:1px solid #eee}.note{color:#555}</style></head><body>",
        f"<h1>{html.escape(game_name)}: balance report</h1>",
        f"<p>{games:,} games per setting, master seed {seed}; game <i>i</i> of every setting is "
        "dealt from the same derived seed. Win rates count every co-winner of a shared win; "
        "intervals are 95% Wilson score intervals. Turn position 0 is the seat asked first "
        "in the game, position 1 the next seat round the table, and so on.</p>",
    ]
    parts.append(_overview(columns))
    if len(columns) > 1:
        parts.append(_paired(columns))
    parts.append(lead_section(columns))
    parts.append(per_round_section(columns, out))
    parts.append(skill_section(game_name, columns, list(curves), out))
    written = write_tables(columns, out)
    links = " and ".join(f"<a href='{f}'>{f}</a>" for f in written)
    parts.append(f"<p>Every game, one row each: {links}.</p>")
    for s, names in zip(columns, seats, strict=True):
        parts.append(_table(s, names))
    for file, title, note in figures:
        parts.append(f"<h2>{html.escape(title)}</h2>")
        if note:
            parts.append(f"<p class='note'>{html.escape(note)}</p>")
        parts.append(f"<img src='{file}' alt='{html.escape(title)}'>")
    parts.append("</body></html>")
    index = out / "index.html"
    index.write_text("\n".join(parts))
    return index


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# -- per-game figures, paired tests and tables ----------------------------------------------
def margin(scores: Sequence[float]) -> float:
    """How far the best score is ahead of the next one (0 when the lead is shared)."""
    ordered = sorted(scores, reverse=True)
    return float(ordered[0] - ordered[1]) if len(ordered) > 1 else 0.0


def spread(scores: Sequence[float]) -> float:
    """Best score minus worst."""
    return float(max(scores) - min(scores)) if scores else 0.0


def first_won(s: Setting) -> list[int]:
    """Per game: 1 when the seat asked first is among the winners."""
    return [int(first in r.winners) for r, first in zip(s.results, s.first, strict=True)]


def paired_tests(base: Setting, other: Setting) -> dict[str, float]:
    """`other` against `base` on the same deals (game i of both from the same seed):
    exact McNemar p-value on "the first seat won" and Wilcoxon signed-rank p-value on the
    number of decisions; 1.0 where the pairs never differ."""
    from scipy.stats import binomtest, wilcoxon

    a, b = first_won(base), first_won(other)
    only_a = sum(x > y for x, y in zip(a, b, strict=False))
    only_b = sum(y > x for x, y in zip(a, b, strict=False))
    discordant = only_a + only_b
    mcnemar = binomtest(only_a, discordant, 0.5).pvalue if discordant else 1.0
    la = [r.stats.get("decisions", 0.0) for r in base.results]
    lb = [r.stats.get("decisions", 0.0) for r in other.results]
    diffs = [y - x for x, y in zip(la, lb, strict=False) if y != x]
    length = float(wilcoxon(diffs).pvalue) if diffs else 1.0
    return {
        "first_won_base": sum(a) / max(1, len(a)),
        "first_won": sum(b) / max(1, len(b)),
        "first_won_p": float(mcnemar),
        "length_base": sum(la) / max(1, len(la)),
        "length": sum(lb) / max(1, len(lb)),
        "length_p": length,
    }


def _paired(columns: Sequence[Setting]) -> str:
    base = columns[0]
    rows = [
        f"<h2>Paired against {html.escape(base.label)}</h2>",
        "<p class='note'>Each setting against the first on the same deals (game i of both "
        "from the same seed). p: exact McNemar test on whether the first seat won, "
        "Wilcoxon signed-rank test on the number of decisions; a small p (below 0.05) says "
        "the difference is unlikely to be chance.</p>",
        "<table><tr><th>setting</th><th>first seat won</th><th>p</th>"
        "<th>mean decisions</th><th>p</th><th>mean winner's margin</th>"
        "<th>mean score spread</th></tr>",
    ]
    for s in columns[1:]:
        t = paired_tests(base, s)
        games = max(1, len(s.results))
        margins = sum(margin(r.scores) for r in s.results) / games
        spreads = sum(spread(r.scores) for r in s.results) / games
        rows.append(
            f"<tr><td>{html.escape(s.label)}</td>"
            f"<td>{_pct(t['first_won_base'])} &rarr; {_pct(t['first_won'])}</td>"
            f"<td>{t['first_won_p']:.3g}</td>"
            f"<td>{t['length_base']:.1f} &rarr; {t['length']:.1f}</td>"
            f"<td>{t['length_p']:.3g}</td><td>{margins:.2f}</td><td>{spreads:.2f}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def game_rows(columns: Sequence[Setting]) -> list[dict[str, Any]]:
    """Every game of every setting as a flat row (CSV and Parquet)."""
    rows = []
    n = max(s.players for s in columns)
    keys = sorted({k for s in columns for r in s.results for k in r.stats})
    for s in columns:
        for r, first in zip(s.results, s.first, strict=True):
            row: dict[str, Any] = {
                "setting": s.label,
                "players": s.players,
                "game": r.index,
                "seed": r.seed,
                "first_seat": first,
                "winners": " ".join(str(w) for w in r.winners),
                "shared": int(len(r.winners) > 1),
                "truncated": int(r.truncated),
                "margin": margin(r.scores),
                "spread": spread(r.scores),
            }
            for seat in range(n):
                has = seat < s.players
                row[f"score_{seat}"] = r.scores[seat] if has else None
                row[f"payoff_{seat}"] = r.payoff[seat] if has else None
            for key in keys:
                row[key] = r.stats.get(key)
            rows.append(row)
    return rows


def write_tables(columns: Sequence[Setting], out: Path) -> list[str]:
    """games.csv and games.parquet (pyarrow, a dependency; skipped if it is missing); the
    names written."""
    rows = game_rows(columns)
    if not rows:
        return []
    with (out / "games.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return ["games.csv"]
    pq.write_table(pa.Table.from_pylist(rows), out / "games.parquet")
    return ["games.csv", "games.parquet"]


def _overview(columns: Sequence[Setting]) -> str:
    """One row per setting: win rate per turn position, ties, length."""
    n = max(s.players for s in columns)
    keys = scalar_keys({k for s in columns for k in s.summary.stats})
    head = "".join(f"<th>position {p}{' (first)' if p == 0 else ''}</th>" for p in range(n))
    head += "<th>shared wins</th><th>truncated</th>"
    head += "".join(f"<th>mean {html.escape(k)}</th>" for k in keys)
    rows = ["<h2>Overview</h2><table><tr><th>setting</th><th>games</th>" + head + "</tr>"]
    for s in columns:
        summary = s.summary
        pos = s.position_wins()
        cells = []
        for p in range(n):
            if p < s.players:
                rate, lo, hi = wilson(pos[p], summary.games)
                cells.append(f"<td>{_pct(rate)} <small>({_pct(lo)} - {_pct(hi)})</small></td>")
            else:
                cells.append("<td></td>")
        tie = summary.shared / max(1, summary.games)
        cells.append(f"<td>{_pct(tie)}</td><td>{summary.truncated:,}</td>")
        cells += [f"<td>{summary.stats.get(k, 0.0):.2f}</td>" for k in keys]
        rows.append(
            f"<tr><td>{html.escape(s.label)}</td><td>{summary.games:,}</td>{''.join(cells)}</tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _table(s: Setting, names: Sequence[str]) -> str:
    summary = s.summary
    n = s.players
    games = max(1, summary.games)
    pos = s.position_wins()
    mean_scores = [
        sum(r.scores[seat] for r in s.results) / games if s.results else 0.0 for seat in range(n)
    ]
    rows = [
        f"<h2>{html.escape(s.label)}</h2>",
        "<table><tr><th>seat</th><th>bot</th><th>win rate</th><th>95% interval</th>"
        "<th>mean payoff</th><th>mean score</th><th>win rate at turn position</th>"
        "<th>95% interval</th></tr>",
    ]
    for seat in range(n):
        rate, lo, hi = summary.win_rate(seat)
        prate, plo, phi = wilson(pos[seat], summary.games)
        rows.append(
            f"<tr><td>{seat}</td><td>{html.escape(names[seat])}</td><td>{_pct(rate)}</td>"
            f"<td>{_pct(lo)} - {_pct(hi)}</td><td>{summary.payoff[seat]:.3f}</td>"
            f"<td>{mean_scores[seat]:.2f}</td><td>{_pct(prate)} (position {seat})</td>"
            f"<td>{_pct(plo)} - {_pct(phi)}</td></tr>"
        )
    rows.append("</table>")
    tie, tlo, thi = wilson(summary.shared, summary.games)
    extras = "".join(
        f"<tr><td>mean {html.escape(k)} per game</td><td>{summary.stats[k]:.2f}</td></tr>"
        for k in scalar_keys(set(summary.stats))
    )
    rows.append(
        "<table>"
        f"<tr><td>games</td><td>{summary.games:,}</td></tr>"
        f"<tr><td>shared wins (ties)</td><td>{_pct(tie)} ({_pct(tlo)} - {_pct(thi)})</td></tr>"
        f"<tr><td>truncated by an engine cap</td><td>{summary.truncated:,}</td></tr>"
        f"{extras}"
        f"<tr><td>options</td><td>{html.escape(str(s.options))}</td></tr></table>"
    )
    return "\n".join(rows)


PANELS_PER_ROW = 3  # wider rows shrink every label below reading size on the page
PANEL_WIDTH = 4.2  # inches per panel: a row of three fits the page (1400 px) at 100 dpi


def per_row(columns: Sequence[Setting]) -> int:
    """Panels per row: a grid of two or more sweeps puts the last sweep's values along a
    row (one row per value of the others); otherwise rows of PANELS_PER_ROW."""
    if columns and len(columns[0].swept) >= 2:
        last = {s.swept[-1] for s in columns}
        if len(last) <= PANELS_PER_ROW:
            return len(last)
    return min(len(columns), PANELS_PER_ROW) or 1


def _grid(k: int, rows: int = 1, height: float = 3.6, across: int | None = None) -> Any:
    """A figure of panels. With `rows` == 1: `k` panels wrapped `across` to a row (default
    PANELS_PER_ROW), returned as one list, `axes[0]`, in reading order. With several `rows`
    (a figure per setting and row): a rows x k grid. Each panel has its own y axis: a
    shared one cut the bars of the taller settings."""
    import matplotlib.pyplot as plt

    if rows > 1:
        width = 1.0 + PANEL_WIDTH * min(k, PANELS_PER_ROW)
        fig, axes = plt.subplots(
            rows, k, figsize=(width, height * rows), squeeze=False, layout="constrained"
        )
        return fig, axes
    across = max(1, min(k, across or PANELS_PER_ROW))
    down = math.ceil(k / across)
    fig, grid = plt.subplots(
        down,
        across,
        figsize=(1.0 + PANEL_WIDTH * across, height * down),
        squeeze=False,
        layout="constrained",
    )
    flat = [ax for row in grid for ax in row]
    for ax in flat[k:]:
        ax.set_visible(False)
    return fig, [flat[:k]]


def _tick(label: str) -> str:
    """A setting's label as a tick: one option per line, so neighbours do not overlap."""
    return label.replace(", ", "\n")


def _save(fig: Any, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=100)
    plt.close(fig)


def _plot_win_rates(columns: Sequence[Setting], path: Path, by_position: bool) -> str:
    fig, axes = _grid(len(columns), across=per_row(columns))
    for ax, s in zip(axes[0], columns, strict=True):
        summary = s.summary
        n = s.players
        wins = s.position_wins() if by_position else summary.wins
        stats = [wilson(w, summary.games) for w in wins]
        rates = [r for r, _, _ in stats]
        errors = [[r - lo for r, lo, _ in stats], [hi - r for r, _, hi in stats]]
        ax.bar(range(n), rates, yerr=errors, capsize=4, color="#4c72b0")
        ax.axhline(1 / n, color="#c44e52", linestyle="--", linewidth=1, label="1 / players")
        for x, r in enumerate(rates):
            ax.text(x, r / 2, _pct(r), ha="center", va="center", color="white", fontsize=8)
        ax.set_xticks(range(n))
        ax.set_xlabel("turn position (0 = first)" if by_position else "seat")
        ax.set_title(s.label, fontsize=10)
        ax.set_ylim(0, max(0.05, min(1.0, max(hi for _, _, hi in stats) * 1.15)))
        ax.set_ylabel("win rate (95% interval)")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8, loc="upper right")
    _save(fig, path)
    return "Bars are win rates, whiskers the 95% intervals; the dashed line is one in n."


def _plot_scores(columns: Sequence[Setting], path: Path) -> str:
    import numpy as np

    fig, axes = _grid(len(columns), across=per_row(columns))
    for ax, s in zip(axes[0], columns, strict=True):
        scores = np.array([r.scores for r in s.results], dtype=float).reshape(-1, s.players)
        values = np.unique(scores)
        integral = bool(np.all(np.equal(np.mod(values, 1), 0)))
        if integral and len(values) and values[-1] - values[0] <= 30:  # a bar per value
            width = 0.8 / s.players
            for seat in range(s.players):
                counts = [(scores[:, seat] == v).mean() for v in values]
                xs = values + (seat - (s.players - 1) / 2) * width
                ax.bar(xs, counts, width=width, label=f"seat {seat}")
            if len(values) <= 12:
                ax.set_xticks(values, [f"{v:g}" for v in values])
        else:
            bins = np.histogram_bin_edges(scores, bins=30)
            for seat in range(s.players):
                ax.hist(
                    scores[:, seat],
                    bins=bins,
                    histtype="step",
                    linewidth=1.5,
                    weights=np.full(len(scores), 1 / max(1, len(scores))),
                    label=f"seat {seat}",
                )
        ax.set_xlabel("final score")
        ax.set_ylabel("share of games")
        ax.set_title(s.label, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    _save(fig, path)
    return "The game's own final score of each seat (its fraction of games)."


def _plot_lengths(columns: Sequence[Setting], path: Path) -> str:
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    keys = scalar_keys({k for s in columns for r in s.results[:1] for k in r.stats})
    keys = keys or ["decisions"]
    # A row per figure and a column per setting; with more settings than fit a row, the
    # other way round (a row per setting), so no panel shrinks below reading size.
    transpose = len(columns) > PANELS_PER_ROW
    if transpose:
        fig, axes = _grid(len(keys), rows=len(columns), height=2.6)
    else:
        fig, axes = _grid(len(columns), rows=len(keys), height=3.0)
    for row, key in enumerate(keys):
        for col, s in enumerate(columns):
            ax = axes[col][row] if transpose else axes[row][col]
            data = np.array([r.stats.get(key, 0.0) for r in s.results], dtype=float)
            if len(data) == 0:
                continue
            lo, hi = float(data.min()), float(data.max())
            if np.all(np.mod(data, 1) == 0):  # counts: whole-number bins, at most 40
                width = max(1, math.ceil((hi - lo + 1) / 40))
                bins = np.arange(lo - 0.5, hi + width + 0.5, width)
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            else:
                bins = np.histogram_bin_edges(data, bins=40)
            ax.hist(
                data,
                bins=bins,
                weights=np.full(len(data), 1 / len(data)),
                color="#55a868",
                edgecolor="white",
                linewidth=0.5,
            )
            ax.axvline(data.mean(), color="#333", linestyle="--", linewidth=1)
            ax.set_xlabel(f"{key} per game (mean {data.mean():.1f})")
            if transpose or row == 0:
                ax.set_title(s.label, fontsize=10)
            ax.set_ylabel("share of games")
            ax.grid(axis="y", alpha=0.3)
    _save(fig, path)
    return (
        "Decisions per game (and rounds and lead changes, where the game counts them); "
        "dashed: the mean."
    )


def _plot_ties(columns: Sequence[Setting], path: Path) -> str:
    import matplotlib.pyplot as plt

    k = len(columns)
    fig, ax = plt.subplots(figsize=(min(12.5, 2.0 + 1.6 * k), 3.6), layout="constrained")
    labels = [_tick(s.label) for s in columns]
    for offset, (name, colour, count) in enumerate(
        [
            ("shared win", "#8172b2", lambda s: s.summary.shared),
            ("truncated", "#ccb974", lambda s: s.summary.truncated),
        ]
    ):
        stats = [wilson(count(s), s.summary.games) for s in columns]
        xs = [i + (offset - 0.5) * 0.38 for i in range(k)]
        ax.bar(
            xs,
            [r for r, _, _ in stats],
            width=0.36,
            yerr=[[r - lo for r, lo, _ in stats], [hi - r for r, _, hi in stats]],
            capsize=4,
            color=colour,
            label=name,
        )
        for x, (r, _, hi) in zip(xs, stats, strict=True):
            ax.text(x, hi, _pct(r), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(k), labels, fontsize=9)
    ax.set_ylabel("share of games (95% interval)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)
    return "A shared win is a game with two or more winners."


def _sweep_panels(columns: Sequence[Setting]) -> list[tuple[str, list[tuple[str, Setting]]]]:
    """(title, [(x label, setting)]) per panel: with two or more sweeps a panel per value
    of the others and the last sweep along x, so a line never joins settings that differ
    in two options; with one sweep (or none) one panel across every setting."""
    if not columns or len(columns[0].swept) < 2:
        return [("", [(_tick(s.label), s) for s in columns])]
    panels: dict[str, list[tuple[str, Setting]]] = {}
    for s in columns:
        title = ", ".join(f"{k}={v}" for k, v in s.swept[:-1])
        key, value = s.swept[-1]
        panels.setdefault(title, []).append((f"{key}={value}", s))
    return list(panels.items())


def _plot_sweep(columns: Sequence[Setting], path: Path) -> str:
    panels = _sweep_panels(columns)
    across = min(len(panels), 2)
    fig, axes = _grid(len(panels), height=4.0, across=across)
    n = max(s.players for s in columns)
    for ax, (title, points) in zip(axes[0], panels, strict=True):
        xs = list(range(len(points)))
        for p in range(n):
            pts = [
                (x, *wilson(s.position_wins()[p], s.summary.games))
                for x, (_, s) in zip(xs, points, strict=True)
                if p < s.players
            ]
            if not pts:
                continue
            ax.errorbar(
                [x + (p - (n - 1) / 2) * 0.06 for x, *_ in pts],
                [r for _, r, _, _ in pts],
                yerr=[[r - lo for _, r, lo, _ in pts], [hi - r for _, r, _, hi in pts]],
                marker="o",
                capsize=4,
                color=f"C{p}",
                label=f"position {p}" + (" (first)" if p == 0 else ""),
            )
        ax.set_xticks(xs, [x for x, _ in points], fontsize=9)
        ax.set_xlim(-0.5, len(points) - 0.5)
        ax.set_ylabel("win rate (95% interval)")
        if title:
            ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    # One scale for the panels (lines, nothing cut), so panels compare at a glance.
    low = min(ax.get_ylim()[0] for ax in axes[0])
    high = max(ax.get_ylim()[1] for ax in axes[0])
    for ax in axes[0]:
        ax.set_ylim(low, high)
    _save(fig, path)
    return (
        "Each line is one turn position across the settings of the sweep (with several "
        "sweeps, a panel per value of the others and the last sweep along the axis); "
        "lines close together mean the order of play matters little."
    )
