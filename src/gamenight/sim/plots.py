"""The report's plots (matplotlib, drawn off-screen): one function per picture, each
returning its file name; `grid` lays panels out in rows so no picture is too wide to read."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamenight.sim.report import Setting, pct
from gamenight.sim.runner import wilson
from gamenight.sim.story import scalar_keys

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


def grid(k: int, rows: int = 1, height: float = 3.6, across: int | None = None) -> Any:
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


def tick(label: str) -> str:
    """A setting's label as a tick: one option per line, so neighbours do not overlap."""
    return label.replace(", ", "\n")


def save(fig: Any, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_win_rates(columns: Sequence[Setting], path: Path, by_position: bool) -> str:
    fig, axes = grid(len(columns), across=per_row(columns))
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
            ax.text(x, r / 2, pct(r), ha="center", va="center", color="white", fontsize=8)
        ax.set_xticks(range(n))
        ax.set_xlabel("turn position (0 = first)" if by_position else "seat")
        ax.set_title(s.label, fontsize=10)
        ax.set_ylim(0, max(0.05, min(1.0, max(hi for _, _, hi in stats) * 1.15)))
        ax.set_ylabel("win rate (95% interval)")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8, loc="upper right")
    save(fig, path)
    return "Bars are win rates, whiskers the 95% intervals; the dashed line is one in n."


def plot_scores(columns: Sequence[Setting], path: Path) -> str:
    import numpy as np

    fig, axes = grid(len(columns), across=per_row(columns))
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
    save(fig, path)
    return "The game's own final score of each seat (its fraction of games)."


def plot_lengths(columns: Sequence[Setting], path: Path) -> str:
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    keys = scalar_keys({k for s in columns for r in s.results[:1] for k in r.stats})
    keys = keys or ["decisions"]
    # A row per figure and a column per setting; with more settings than fit a row, the
    # other way round (a row per setting), so no panel shrinks below reading size.
    transpose = len(columns) > PANELS_PER_ROW
    if transpose:
        fig, axes = grid(len(keys), rows=len(columns), height=2.6)
    else:
        fig, axes = grid(len(columns), rows=len(keys), height=3.0)
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
    save(fig, path)
    return (
        "Decisions per game (and rounds and lead changes, where the game counts them); "
        "dashed: the mean."
    )


def plot_ties(columns: Sequence[Setting], path: Path) -> str:
    import matplotlib.pyplot as plt

    k = len(columns)
    fig, ax = plt.subplots(figsize=(min(12.5, 2.0 + 1.6 * k), 3.6), layout="constrained")
    labels = [tick(s.label) for s in columns]
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
            ax.text(x, hi, pct(r), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(k), labels, fontsize=9)
    ax.set_ylabel("share of games (95% interval)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    save(fig, path)
    return "A shared win is a game with two or more winners."


def sweep_panels(columns: Sequence[Setting]) -> list[tuple[str, list[tuple[str, Setting]]]]:
    """(title, [(x label, setting)]) per panel: with two or more sweeps a panel per value
    of the others and the last sweep along x, so a line never joins settings that differ
    in two options; with one sweep (or none) one panel across every setting."""
    if not columns or len(columns[0].swept) < 2:
        return [("", [(tick(s.label), s) for s in columns])]
    panels: dict[str, list[tuple[str, Setting]]] = {}
    for s in columns:
        title = ", ".join(f"{k}={v}" for k, v in s.swept[:-1])
        key, value = s.swept[-1]
        panels.setdefault(title, []).append((f"{key}={value}", s))
    return list(panels.items())


def plot_sweep(columns: Sequence[Setting], path: Path) -> str:
    panels = sweep_panels(columns)
    across = min(len(panels), 2)
    fig, axes = grid(len(panels), height=4.0, across=across)
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
    save(fig, path)
    return (
        "Each line is one turn position across the settings of the sweep (with several "
        "sweeps, a panel per value of the others and the last sweep along the axis); "
        "lines close together mean the order of play matters little."
    )
