"""`gamenight tune`: search a game's settings for the ones that bring report figures to
their targets (sim/tune.py), and write the page that proposes the change.

Registered by `root.register_commands` (`app.command("tune")(tune_command)`). Everything a
person can get wrong (a goal, an option to vary, the budget, an output folder, a bot, a
backend) is refused in one line before the first game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from gamenight.cli.batch import (
    CPUS,
    Address,
    Backend,
    Bots,
    Players,
    Seed,
    Workers,
    _check_backend,
    _check_bots,
    _check_new_folder,
    _names,
    _quiet_ray,
    _reach,
    _run_failed,
    _workers,
)
from gamenight.cli.helptext import filled
from gamenight.cli.output import (
    fail,
    fixed,
    interrupted,
    out,
    percent,
    say,
    show,
    significant,
    whole,
)
from gamenight.cli.table import GameName, SetOpt, parse_sets
from gamenight.engine.core import BadInput
from gamenight.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from gamenight.sim.tune import Estimate, Figure, Status, Tuned

FIGURE_NAMES = (  # sim/tune.FIGURES, not imported for --help (tests keep the two equal)
    "first-seat win rate, first-seat advantage, round-start win rate, round-start advantage, "
    "game length, lead changes, score spread, skill gap"
)


HELP = N_(  # the help of `gamenight tune` (root.register_commands)
    "Balance search: the settings that bring report figures to their targets, tried on the "
    "same deals as the default, raced on fresh deals and checked on a third set; writes a page "
    "with the proposal, the figures before and after with 95% intervals, paired tests and "
    "plots (and the balance report of the default against the proposal)."
)


def tune_command(
    game: GameName,
    goal: Annotated[
        list[str],
        typer.Option(
            metavar=N_("GOAL"),
            help=filled(
                N_(
                    "'FIGURE within TARGET±TOLERANCE' (rates in %; repeatable), e.g. "
                    "'first-seat win rate within 50±2%'; figures: {figures}"
                ),
                figures=FIGURE_NAMES,
            ),
        ),
    ],
    vary: Annotated[
        list[str],
        typer.Option(
            metavar=N_("OPTIONS"),
            help=N_(
                "options to search, comma list (repeatable): each over the range its "
                "setting declares, or narrowed as name=LOW..HIGH or name=A|B|C"
            ),
        ),
    ],
    budget: Annotated[
        str,
        typer.Option(
            metavar=N_("BUDGET"), help=N_("wall clock (90s, 20m, 1h) or games (5000 games)")
        ),
    ] = "5m",
    out_: Annotated[
        Path,
        typer.Option("--out", metavar=N_("FOLDER"), help=N_("folder for index.html and its plots")),
    ] = Path("tune"),
    players: Players = None,
    bots: Bots = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
    trial_games: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"),
            min=10,
            help=N_("games per block of deals a trial of the search plays"),
        ),
    ] = 1000,
) -> None:
    """`gamenight tune` (its help: HELP)."""
    from gamenight.sim.report import settings
    from gamenight.sim.tune import parse_budget, parse_goals, parse_vary, tune, write_page

    try:
        _check_backend(backend, address)
        _check_new_folder(out_)
        goals = parse_goals(goal)
        fixed: dict[str, Any] = parse_sets(set_, game)
        axes = parse_vary(game, vary, fixed)
        spend = parse_budget(budget)
        bot_list = _names(bots)
        _check_bots(game, bot_list)
        count = players if players is not None else (len(bot_list) if len(bot_list) > 1 else None)
        settings(game, fixed, None, count)  # refuse bad options before playing
    except BadInput as error:
        raise fail(str(error)) from error
    _reach(address)
    workers = _workers(workers, trial_games, backend, address)
    try:
        with _quiet_ray(backend, address), _progress(game) as on_status:
            tuned = tune(
                game, goals, axes, spend, options=fixed, players=count, bots=bot_list,
                seed=seed, workers=workers, backend=backend, address=address,
                trial_games=trial_games, on_status=on_status,
            )  # fmt: skip
        index = write_page(tuned, out_)
    except KeyboardInterrupt:
        said = _(
            "the search of {game} was stopped; no page was written to {path} "
            "(a page already there is as it was)"
        )
        raise interrupted(said.format(game=game, path=out_)) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    except OSError as error:
        said = _("cannot write {path}: {error}")
        path = error.filename or out_
        raise fail(said.format(path=path, error=error.strerror or error)) from error
    _say_result(tuned)
    say(_("page written to {path}").format(path=index))


@contextmanager
def _progress(game: str) -> Iterator[Callable[[Status], None]]:
    """A bar of the budget used, with the search's best so far; yields its callback."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(game, style="bold"),
        BarColumn(),
        TextColumn("{task.fields[share]:>4}"),  # (the percent sign as the language puts it)
        TimeElapsedColumn(),
        TextColumn("{task.fields[line]}"),
        console=out,
    ) as progress:
        task = progress.add_task("tune", total=1.0, line="", share=percent(0.0, 0))

        def update(status: Status) -> None:
            used = min(1.0, status.used)
            progress.update(task, completed=used, line=status.line, share=percent(used, 0))

        yield update


def _say_result(tuned: Tuned) -> None:
    from gamenight.sim.tune import estimate, paired_change, shown_figures

    changed = tuned.changed
    if changed:
        said = ", ".join(f"{name} {old} -> {new}" for name, (old, new) in changed.items())
        if tuned.proposed.met:
            proposal = _("proposed: {changes} (it meets every goal on the final deals)")
        else:
            proposal = _(
                "proposed: {changes} (no setting raced met every goal; this one came closest)"
            )
        say(proposal.format(changes=said))
    elif tuned.default.met:
        say(_("no change proposed: the default meets every goal"))
    else:
        say(_("no change proposed: the default is as close as any setting raced"))
    n = tuned.final_games
    if changed:
        title = ngettext(
            "{game}: {n} game each on the final deals",
            "{game}: {n} games each on the final deals",
            n,
        )
    else:
        title = ngettext(
            "{game}: {n} game on the final deals", "{game}: {n} games on the final deals", n
        )
    columns = [_("figure"), _("default (95% interval)")]
    if changed:
        columns += [_("proposed (95% interval)"), _("change"), "p"]
    table = Table(*columns, title=title.format(game=tuned.game_name, n=whole(n)))
    base, after = tuned.default.played.sample, tuned.proposed.played.sample
    for figure in shown_figures(tuned):
        cells = [figure.name, _with_interval(figure, estimate(figure, base))]
        if changed:
            change = paired_change(figure, base, after)
            cells += [
                _with_interval(figure, estimate(figure, after)),
                _points(figure, change.diff),
                significant(change.p) if change.p > 0 else "< 1e-300",
            ]
        table.add_row(*cells)
    show(table)


def _with_interval(figure: Figure, found: Estimate) -> str:
    return (
        f"{_shown(figure, found.value)} "
        f"({_shown(figure, found.low)} - {_shown(figure, found.high)})"
    )


def _shown(figure: Figure, value: float) -> str:
    """A figure's value as the page shows it (sim/tune.show), in the terminal's numbers."""
    if figure.signed:
        return _points(figure, value)
    return percent(value) if figure.rate else fixed(value, 2)


def _points(figure: Figure, value: float) -> str:
    """A difference: percentage points for rates (sim/tune.show_points)."""
    if figure.rate:
        return _("{value} points").format(value=fixed(100 * value, 1, sign=True))
    return fixed(value, 2, sign=True)
