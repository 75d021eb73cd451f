"""The `gamenight` command: play, simulate and replay any game in the terminal."""

from __future__ import annotations

import importlib
import json
import os
import random
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.prompt import Prompt
from rich.table import Table

from gamenight import bots as bot_registry
from gamenight.engine.codec import load_game, save_game
from gamenight.engine.core import BadInput, Game, IllegalAction, State
from gamenight.engine.driver import Bot
from gamenight.engine.options import describe_options
from gamenight.engine.registry import game_class, games, load
from gamenight.sim.runner import Job, Summary, run

app = typer.Typer(help="gamenight: Drop or Stop, Arne and Drop It.", no_args_is_help=True)
console = Console()

HUMAN = ("you", "human", "me")


def _terminal(game_name: str) -> ModuleType:
    package = game_name.replace("-", "_")
    return importlib.import_module(f"gamenight.games.{package}.terminal")


def _parse_sets(sets: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in sets or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise BadInput(f"--set takes option=value, got {item!r}")
        options[key.strip().replace("-", "_")] = value.strip()
    return options


def _load(game_name: str, options: dict[str, Any], players: int | None) -> Game:
    if players is not None and "players" not in options:
        options["players"] = players
    return load(game_name, **options)


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {message}")
    return typer.Exit(2)


SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="a game option as option=value (repeatable); see `gamenight options`"
    ),
]


Backend = Annotated[
    str,
    typer.Option(
        help="processes (local worker processes) or ray (a local Ray runtime, or the cluster "
        "at --address); results are the same for one seed whatever the backend and workers"
    ),
]
Address = Annotated[
    str | None,
    typer.Option(help="join this Ray cluster (e.g. auto or ray://host:10001); needs --backend ray"),
]


def _check_backend(backend: str, address: str | None) -> None:
    from gamenight.sim.backends import check_backend

    check_backend(backend)
    if address and backend != "ray":
        raise BadInput("--address joins a Ray cluster: use it with --backend ray")


@app.command("games")
def list_games() -> None:
    """List the games."""
    table = Table("game", "players", "options")
    for name in games():
        try:
            cls = game_class(name)
        except ImportError as err:
            table.add_row(name, "-", f"[red]not available: {err}[/red]")
            continue
        rows = describe_options(cls.Options)
        table.add_row(name, "", ", ".join(r["name"] for r in rows))
    console.print(table)


@app.command("options")
def show_options(game: str) -> None:
    """Show every option of a game with its default and allowed values."""
    try:
        rows = describe_options(game_class(game).Options)
    except BadInput as err:
        raise _fail(str(err)) from err
    table = Table("option", "default", "allowed", "meaning", title=f"{game} options")
    for r in rows:
        allowed = (
            ", ".join(map(str, r["choices"]))
            if r["choices"]
            else (
                f"{r['min']}..{r['max'] if r['max'] is not None else ''}"
                if r["min"] is not None
                else r["type"]
            )
        )
        table.add_row(r["name"], repr(r["default"]), allowed, r["help"])
    console.print(table)


@app.command("bots")
def list_bots(game: Annotated[str | None, typer.Argument()] = None) -> None:
    """List every bot per game with its parameters."""
    table = Table("game", "bot", "parameters")
    for name in [game] if game else games():
        try:
            found = bot_registry.available(name)
            default = bot_registry.default_bot(name)
        except (BadInput, ImportError) as err:
            table.add_row(name, "-", f"not available: {err}")
            continue
        players = load(name).players
        for bot in sorted(found):
            params = bot_registry.defaults(name, bot, players)
            shown = ", ".join(f"{k}={v!r}" for k, v in params.items() if k != "game")
            if bot == "ismcts":
                shown += f"  ({players} players)"
            table.add_row(name, bot + (" (bot)" if bot == default else ""), shown)
        for level, seat in bot_registry.levels(name, players).items():
            table.add_row(name, f"{level} (level)", f"{seat}  ({players} players)")
    console.print(table)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database URL (default: SQLite file under data/)")
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL: run as one of several processes (needs a PostgreSQL --db)"),
    ] = None,
) -> None:
    """Start the web app: lobby, live tables, bots, persistence."""
    from gamenight.server.app import serve as run_server
    from gamenight.server.cluster import check_urls

    try:
        check_urls(db, redis)
    except BadInput as err:
        console.print(f"[red]{err}[/red]")
        raise typer.Exit(2) from err
    run_server(host=host, port=port, db=db, redis=redis)


def _seats(game: Game, seats: list[str], seed: int) -> list[Bot | None]:
    """None for a person; a seeded bot otherwise."""
    out: list[Bot | None] = []
    for i, spec in enumerate(seats):
        if spec.lower() in HUMAN:
            out.append(None)
        else:
            out.append(bot_registry.make_seat(spec, game, seed * 100 + i))
    return out


def _ask(state: State, seat: int, ui: ModuleType) -> None:
    """Ask a person until they give a legal action; explain every bad input."""
    while True:
        console.print(ui.render(state.view(seat)))
        for i, line in enumerate(ui.describe_actions(state, seat), 1):
            console.print(f"  {i}. {line}")
        text = Prompt.ask(f"[bold]seat {seat}[/bold], your move", console=console)
        try:
            state.act(seat, ui.parse(text, state, seat))
            return
        except (BadInput, IllegalAction) as err:
            console.print(f"[yellow]{err}[/yellow]")


@app.command()
def play(
    game: str,
    seats: Annotated[
        str, typer.Option(help="comma list: you, bot, bot:NAME?param=value")
    ] = "you,bot,bot",
    seed: Annotated[int | None, typer.Option(help="seed of the game (random if not given)")] = None,
    save: Annotated[Path | None, typer.Option(help="write seed + history to this file")] = None,
    mode: Annotated[
        str | None, typer.Option(help="game mode option (Arne: normal or losing)")
    ] = None,
    variant: Annotated[
        str | None, typer.Option(help="variant option (Arne: team, dummy, ...)")
    ] = None,
    open_pictures: Annotated[bool, typer.Option("--open", help="open pictures (Drop It)")] = False,
    set_: SetOpt = None,
) -> None:
    """Play a game in the terminal against bots (or friends on the same keyboard)."""
    seat_list = [s.strip() for s in seats.split(",") if s.strip()]
    seed = seed if seed is not None else random.randrange(1 << 31)
    try:
        options: dict[str, Any] = _parse_sets(set_)
        if mode is not None:
            options["mode"] = mode
        if variant is not None:
            options["variant"] = variant
        the_game = _load(game, options, len(seat_list))
        if the_game.players != len(seat_list):
            raise BadInput(
                f"{game} with these options has {the_game.players} seats, not {len(seat_list)}"
            )
        players = _seats(the_game, seat_list, seed)
        ui = _terminal(game)
    except BadInput as err:
        raise _fail(str(err)) from err
    humans = [i for i, p in enumerate(players) if p is None]
    narrator = humans[0] if humans else None
    state = the_game.start(seed)
    console.print(f"[bold]{game}[/bold], seed {seed}, seats: {', '.join(seat_list)}")
    shown = 0
    try:
        while not state.over:
            shown = _narrate(state, narrator, ui, shown)
            seat = state.actors[0]
            bot = players[seat]
            if bot is None:
                _ask(state, seat, ui)
            else:
                state.act(seat, bot.choose(state, seat))
            if game == "drop-it" and state.history and state.history[-1][0] == seat:
                _picture(state, ui, open_pictures)
    except (EOFError, KeyboardInterrupt):
        console.print("\n[yellow]game left unfinished[/yellow]")
    finally:
        if save is not None:
            save_game(save, the_game, seed, state.history)
            console.print(f"saved to {save}")
    if state.over:
        _narrate(state, narrator, ui, shown)
        console.print(ui.render(state.view(narrator)))
        _print_outcome(state)


def _narrate(state: State, seat: int | None, ui: ModuleType, shown: int) -> int:
    """Print the events `seat` may see that were not printed yet; returns the new count."""
    events = state.events(seat)
    for event in events[shown:]:
        line = ui.describe_event(event)
        if line:
            console.print(line)
    return len(events)


def _picture(state: State, ui: ModuleType, open_it: bool) -> None:
    path = ui.picture(state, Path("drop-it-latest.png"))
    console.print(f"picture: {path}")
    if open_it:
        webbrowser.open(Path(path).resolve().as_uri())


def _print_outcome(state: State) -> None:
    out = state.outcome()
    if out.truncated:
        console.print("[yellow]truncated: no result[/yellow]")
        return
    table = Table("seat", "score", "rank", "payoff", title="result")
    for s, score in enumerate(out.scores):
        table.add_row(
            str(s) + (" *" if s in out.winners else ""),
            f"{score:g}",
            str(out.ranks[s]),
            f"{out.payoff[s]:.2f}",
        )
    console.print(table)


@app.command()
def replay(
    file: Path,
    seat: Annotated[int | None, typer.Option(help="show the game as this seat saw it")] = None,
    reveal: Annotated[bool, typer.Option(help="show every event (all hidden cards)")] = False,
) -> None:
    """Show a saved game move by move; the replay reaches the same final state."""
    try:
        game, seed, history = load_game(file)
        ui = _terminal(game.name)
    except BadInput as err:
        raise _fail(str(err)) from err
    state = game.start(seed)
    shown = 0
    for number, (who, action) in enumerate(history, 1):
        try:
            state.act(who, action)
        except IllegalAction as err:
            raise _fail(
                f"{file}: move {number} ({action} by seat {who}) is illegal: {err}"
            ) from err
        console.print(f"[dim]{number:4d}. seat {who}: {action}[/dim]")
        if reveal:
            for event in state._log[shown:]:
                line = ui.describe_event(event)
                if line:
                    console.print(line)
            shown = len(state._log)
        else:
            shown = _narrate(state, seat, ui, shown)
    console.print(ui.render(state.view(seat)))
    if state.over:
        _print_outcome(state)
    else:
        console.print(
            f"[yellow]the saved game stops before the end ({len(history)} moves)[/yellow]"
        )


@app.command()
def simulate(
    game: str,
    games_: Annotated[int, typer.Option("--games", min=1, help="how many games")] = 1000,
    bots: Annotated[str | None, typer.Option(help="comma list of bots, one per seat")] = None,
    players: Annotated[int | None, typer.Option(help="seats (default: one per bot)")] = None,
    seed: Annotated[int, typer.Option(help="master seed; each game's seed is derived")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes")] = os.cpu_count() or 1,
    out: Annotated[Path | None, typer.Option(help="write the per-game results as JSON")] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
) -> None:
    """Play many bot games and print win rates per seat and game lengths."""
    try:
        _check_backend(backend, address)
        options: dict[str, Any] = _parse_sets(set_)
        bot_list = [b.strip() for b in (bots or "").split(",") if b.strip()]
        count = players or len(bot_list) or None
        the_game = _load(game, options, count)
        n = the_game.players
        bot_list = bot_list or [bot_registry.simulation_bot(game)]
        seats = tuple(_seat_spec(bot_list[s % len(bot_list)]) for s in range(n))
        for spec in seats:
            bot_registry.make_seat(spec, the_game, 0)  # refuse bad names before starting
    except BadInput as err:
        raise _fail(str(err)) from err
    job = Job(game, tuple(sorted(the_game_options(the_game).items())), seats, seed)
    with _progress(game, games_) as advance:
        results = run(
            job,
            games_,
            workers=workers,
            on_progress=advance,
            backend=backend,
            address=address,
        )
    summary = Summary.of(results, n)
    table = Table(
        "seat",
        "bot",
        "win rate",
        "95% interval",
        "mean score",
        "mean payoff",
        title=f"{game}: {games_} games",
    )
    for s in range(n):
        rate, lo, hi = summary.win_rate(s)
        table.add_row(
            str(s),
            seats[s],
            f"{rate:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            f"{summary.score[s]:.2f}",
            f"{summary.payoff[s]:.3f}",
        )
    console.print(table)
    extras = ", ".join(f"{k} per game {v:.2f}" for k, v in summary.stats.items())
    console.print(
        f"{extras}; shared wins {summary.shared / games_:.1%}; truncated {summary.truncated}"
    )
    if out is not None:
        out.write_text(json.dumps([r.__dict__ for r in results]))
        console.print(f"results written to {out}")


@app.command()
def tournament(
    game: str,
    bots: Annotated[str, typer.Option(help="comma list of entrants, e.g. random,greedy,ismcts")],
    games_: Annotated[int, typer.Option("--games", min=1, help="games per group of bots")] = 100,
    players: Annotated[int | None, typer.Option(help="seats per game (default 2)")] = None,
    seed: Annotated[int, typer.Option(help="master seed; every seed is derived from it")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes")] = os.cpu_count() or 1,
    out: Annotated[Path | None, typer.Option(help="write the raw results as JSON")] = None,
    plot: Annotated[Path | None, typer.Option(help="draw ratings with error bars (PNG)")] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
) -> None:
    """Round robin with rotated seats: openskill ratings, win rates with 95% intervals."""
    from gamenight.sim.tournament import play_tournament, plot_ratings, schedule

    entrants = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        _check_backend(backend, address)
        options: dict[str, Any] = _parse_sets(set_)
        the_game = _load(game, options, players or 2)
        for entrant in entrants:
            bot_registry.make_seat(_seat_spec(entrant), the_game, 0)
    except BadInput as err:
        raise _fail(str(err)) from err
    options = the_game_options(the_game)
    total = sum(n for _, _, n in schedule(game, options, entrants, the_game.players, games_, seed))
    with _progress(game, total) as advance:
        tour = play_tournament(
            game,
            options,
            entrants,
            the_game.players,
            games_,
            seed,
            workers=workers,
            on_progress=advance,
            backend=backend,
            address=address,
        )
    table = Table(
        "bot",
        "rating (mu +- sigma)",
        "win rate",
        "95% interval",
        "mean score",
        "mean payoff",
        "games",
        title=f"{game} tournament, {the_game.players} players",
    )
    for st in sorted(tour.standings.values(), key=lambda s: -s.ordinal):
        rate, lo, hi = st.win_rate
        table.add_row(
            st.bot,
            f"{st.mu:.1f} +- {st.sigma:.1f}",
            f"{rate:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            f"{st.score:.2f}",
            f"{st.payoff:.3f}",
            str(st.games),
        )
    console.print(table)
    pairs = Table(
        "bot",
        "against",
        "finishes ahead (ties half)",
        "95% interval",
        "games",
        title="head to head",
    )
    for a in entrants:
        for b in entrants:
            if a != b and (a, b) in tour.head_to_head:
                rate, lo, hi, n = tour.pair_rate(a, b)
                pairs.add_row(a, b, f"{rate:.1%}", f"{lo:.1%} - {hi:.1%}", str(n))
    console.print(pairs)
    if out is not None:
        out.write_text(json.dumps(tour.to_json()))
        console.print(f"results written to {out}")
    if plot is not None:
        plot_ratings(tour, str(plot))
        console.print(f"ratings plot written to {plot}")


@app.command()
def report(
    game: str,
    games_: Annotated[int, typer.Option("--games", min=1, help="games per setting")] = 1000,
    out: Annotated[Path, typer.Option(help="directory for index.html and its plots")] = Path(
        "report"
    ),
    sweep: Annotated[
        str | None,
        typer.Option(help="option=v1,v2,...: one column of figures per value, side by side"),
    ] = None,
    bots: Annotated[str | None, typer.Option(help="comma list of bots, one per seat")] = None,
    players: Annotated[int | None, typer.Option(help="seats (default: one per bot)")] = None,
    seed: Annotated[int, typer.Option(help="master seed; each game's seed is derived")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="worker processes")] = os.cpu_count() or 1,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
) -> None:
    """Balance report: win rates per seat and turn position, scores, lengths, ties (HTML)."""
    from gamenight.sim.report import parse_sweep, run_report, settings

    try:
        _check_backend(backend, address)
        options: dict[str, Any] = _parse_sets(set_)
        swept = parse_sweep(sweep)
        bot_list = [b.strip() for b in (bots or "").split(",") if b.strip()]
        count = players or (len(bot_list) if len(bot_list) > 1 else None)
        columns = settings(game, options, swept, count)  # refuse bad options before playing
    except BadInput as err:
        raise _fail(str(err)) from err
    try:
        with _progress(game, games_ * len(columns)) as advance:
            index = run_report(
                game,
                games_,
                out,
                options=options,
                sweep=swept,
                bots=bot_list,
                players=count,
                seed=seed,
                workers=workers,
                backend=backend,
                address=address,
                on_progress=advance,
            )
    except BadInput as err:
        raise _fail(str(err)) from err
    console.print(f"report written to {index}")


@contextmanager
def _progress(game: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar with games per second; yields the callback that advances it."""
    with Progress(
        TextColumn(f"[bold]{game}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("games", total=total, rate="")

        def advance(k: int) -> None:
            progress.advance(task, k)
            elapsed = progress.tasks[task].elapsed or 1e-9
            progress.update(task, rate=f"{progress.tasks[task].completed / elapsed:,.0f} games/s")

        yield advance


def _seat_spec(name: str) -> str:
    return name if name.startswith("bot") else f"bot:{name}"


def the_game_options(game: Game) -> dict[str, Any]:
    from gamenight.engine.options import options_to_json

    return options_to_json(game.options) | {"players": game.players}


def main() -> None:
    app()


if __name__ == "__main__":
    main()
