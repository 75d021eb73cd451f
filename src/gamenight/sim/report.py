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
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamenight.bots import default_bot, make_seat
from gamenight.engine.core import BadInput, Game, said
from gamenight.engine.options import as_people_read, options_to_json, player_seat, seat_options
from gamenight.engine.registry import load, options_class
from gamenight.i18n import N_
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
        raise BadInput(said(N_("--sweep takes option=v1,v2,..., got {text}"), text=repr(text)))
    return key.strip().replace("-", "_"), items


def parse_sweeps(texts: Sequence[str] | None) -> list[Sweep]:
    """Several `--sweep`s, which combine as a grid; an option swept twice is refused."""
    sweeps = [s for s in (parse_sweep(t) for t in texts or ()) if s is not None]
    keys = [k for k, _ in sweeps]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise BadInput(
            said(
                N_("--sweep names {options} twice; give each option once"), options=", ".join(twice)
            )
        )
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
    # a seat option swept as typed ("first_seat=1,2") counts players from 1, as --set does
    seats = seat_options(options_class(game_name))
    sweeps = [
        (k, [str(player_seat(k, v)) if k in seats else v for v in values]) for k, values in sweeps
    ]
    if players is not None and "players" not in base and "players" not in dict(sweeps):
        base["players"] = players
    combos: list[tuple[str, dict[str, Any], tuple[tuple[str, str], ...]]]
    if not sweeps:
        label = as_people_read(options_class(game_name), base)
        combos = [(label, base, ())]
    else:
        keys = [k for k, _ in sweeps]
        combos = []
        for values in itertools.product(*(v for _, v in sweeps)):
            pairs = tuple(zip(keys, values, strict=True))
            label = as_people_read(options_class(game_name), dict(pairs))
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
        # refuse bad bot names and parameters before playing (a bot's own ValueError, a
        # value outside the range it declares, is a BadInput naming the seat: make_seat)
        for spec in seats:
            make_seat(spec, s.game, 0)
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
    """Write the report into `out` (made if missing); returns its index.html. The files
    are written in a hidden folder inside `out` and each moved into place once all are
    written (index.html last): a report stopped while it is written (Ctrl+C) leaves no
    half-written file, and the files of an earlier report stay as they were."""
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".writing-", dir=out))
    try:
        _write_report(game_name, columns, seats, work, seed=seed, curves=curves)
        for file in sorted(work.iterdir(), key=lambda f: f.name == "index.html"):
            os.replace(file, out / file.name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out / "index.html"


def _write_report(
    game_name: str,
    columns: Sequence[Setting],
    seats: Sequence[Sequence[str]],
    out: Path,
    *,
    seed: int = 0,
    curves: Sequence[dict[str, tuple[int, int]]] = (),
) -> Path:
    import matplotlib

    from gamenight.sim import plots  # here: plots reads this module's Setting

    matplotlib.use("Agg")
    out.mkdir(parents=True, exist_ok=True)
    figures = [
        (
            "winrate.png",
            "Win rate per seat",
            plots.plot_win_rates(columns, out / "winrate.png", False),
        ),
        (
            "position.png",
            "Win rate per turn position (first-player advantage)",
            plots.plot_win_rates(columns, out / "position.png", True),
        ),
        (
            "scores.png",
            "Score distribution per seat",
            plots.plot_scores(columns, out / "scores.png"),
        ),
        ("length.png", "Game length", plots.plot_lengths(columns, out / "length.png")),
        ("ties.png", "Shared wins and truncated games", plots.plot_ties(columns, out / "ties.png")),
    ]
    if len(columns) > 1:
        figures.insert(
            0,
            (
                "sweep.png",
                "Win rate per turn position across the sweep",
                plots.plot_sweep(columns, out / "sweep.png"),
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


def pct(x: float) -> str:
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
            f"<td>{pct(t['first_won_base'])} &rarr; {pct(t['first_won'])}</td>"
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
                cells.append(f"<td>{pct(rate)} <small>({pct(lo)} - {pct(hi)})</small></td>")
            else:
                cells.append("<td></td>")
        tie = summary.shared / max(1, summary.games)
        cells.append(f"<td>{pct(tie)}</td><td>{summary.truncated:,}</td>")
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
            f"<tr><td>{seat}</td><td>{html.escape(names[seat])}</td><td>{pct(rate)}</td>"
            f"<td>{pct(lo)} - {pct(hi)}</td><td>{summary.payoff[seat]:.3f}</td>"
            f"<td>{mean_scores[seat]:.2f}</td><td>{pct(prate)} (position {seat})</td>"
            f"<td>{pct(plo)} - {pct(phi)}</td></tr>"
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
        f"<tr><td>shared wins (ties)</td><td>{pct(tie)} ({pct(tlo)} - {pct(thi)})</td></tr>"
        f"<tr><td>truncated by an engine cap</td><td>{summary.truncated:,}</td></tr>"
        f"{extras}"
        f"<tr><td>options</td><td>{html.escape(str(s.options))}</td></tr></table>"
    )
    return "\n".join(rows)
