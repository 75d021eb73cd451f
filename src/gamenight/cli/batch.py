"""Many games at once: `simulate`, `tournament` and `report`.

Everything a person can get wrong (a bot name, a player count, an output path, a backend)
is checked before the first game is played.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Column, Table

from gamenight import bots as bot_registry
from gamenight.cli.output import STOPPED, fail, interrupted, out, say, show, warn
from gamenight.cli.root import app, gamenight_version
from gamenight.cli.table import GameName, SetOpt, check_seat, parse_sets
from gamenight.engine.core import BadInput, Game
from gamenight.engine.options import as_people_read
from gamenight.engine.registry import load, options_class

if TYPE_CHECKING:
    from gamenight.sim.runner import ResultsFile, Summary

Backend = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="processes (local worker processes) or ray (a local Ray runtime, or the cluster "
        "at --address); results are the same for one seed whatever the backend and workers",
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="join this Ray cluster (e.g. auto or ray://host:10001); needs --backend ray",
    ),
]
Workers = Annotated[int, typer.Option(metavar="NUMBER", min=1, help="worker processes")]
CPUS = os.cpu_count() or 1
Seed = Annotated[
    int, typer.Option(metavar="NUMBER", help="master seed; every seed derives from it")
]
Players = Annotated[
    int | None, typer.Option(metavar="NUMBER", help="seats per game (default: one per bot)")
]


def _check_backend(backend: str, address: str | None) -> None:
    from gamenight.sim.backends import check_address, check_backend

    check_backend(backend)
    if address and backend != "ray":
        raise BadInput("--address joins a Ray cluster: use it with --backend ray")
    _head(address)  # its form
    check_address(address)


# What --address may be: auto (the cluster this machine belongs to), local (a new local
# runtime), HOST:PORT (a cluster's head) or ray://HOST[:PORT] (the Ray Client, port 10001).
_HOST = r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
_ADDRESS = re.compile(rf"(?:ray://)?(?P<host>{_HOST})(?::(?P<port>\d{{1,5}}))?")
RAY_CLIENT_PORT = 10001
CONNECT_SECONDS = 5.0  # to reach a cluster's head before any game is played


def _head(address: str | None) -> tuple[str, int] | None:
    """The host and port `address` names (None: auto, local or no address, where Ray
    finds or starts the runtime itself); BadInput if it is none of the forms above."""
    if address in (None, "", "auto", "local"):
        return None
    found = _ADDRESS.fullmatch(address)
    port = found and (found["port"] or (RAY_CLIENT_PORT if address.startswith("ray://") else ""))
    if not found or not port or not 1 <= int(port) <= 65535:
        raise BadInput(
            f"--address must be auto, HOST:PORT (a cluster's head, e.g. 10.0.0.5:6379) or "
            f"ray://HOST:PORT (the Ray Client), with a port from 1 to 65535; got {address!r}"
        )
    return found["host"].strip("[]"), int(port)


def _reach(address: str | None) -> None:
    """Refuse, within CONNECT_SECONDS, a cluster nobody answers at: Ray itself waits for
    its head for minutes, printing warnings over the progress bar."""
    head = _head(address)
    if head is None:
        return
    try:
        socket.create_connection(head, timeout=CONNECT_SECONDS).close()
    except TimeoutError:
        reason = f"no answer within {CONNECT_SECONDS:g} s"
    except OSError as error:
        reason = error.strerror or str(error)
    else:
        return
    raise fail(f"cannot reach the Ray cluster at {address}: {reason}", STOPPED)


def _workers(workers: int, games: int, backend: str, address: str | None) -> int:
    """The workers worth starting: one per game at most, and on this machine one per core
    (64 workers for 5 games started 64 processes on 2 cores, for 98 s)."""
    most = games if backend == "ray" and address else min(games, CPUS)
    return max(1, min(workers, most))


# Ray's log of a run that failed, named in the error line (`_run_failed`).
_ray_log: list[str] = []


# Ray's own setting: how many times (about 40 s each) it tries a head that answers but
# does not speak Ray. Its default, 20, is a quarter of an hour; kept if set.
RAY_HEAD_TRIES = ("RAY_gcs_server_port_wait_time_s", "1")


@contextmanager
def _quiet_ray(backend: str, address: str | None) -> Iterator[None]:
    """Ray's own messages (its C++ core writes straight to stderr) go to a log file while
    the progress bar is shown, not over it; afterwards one note says where they are (or
    the error line, if the run failed). A head that is not Ray is tried once."""
    if backend != "ray":
        yield
        return
    name, tries = RAY_HEAD_TRIES
    ours = bool(address) and name not in os.environ
    if ours:
        os.environ[name] = tries
    sys.stderr.flush()
    with tempfile.NamedTemporaryFile(prefix="gamenight-ray-", suffix=".log", delete=False) as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        failed = True
        try:
            yield
            failed = False
        finally:
            if ours:
                del os.environ[name]
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            said = Path(log.name).read_text(errors="replace").count("\n")
            if not said:
                os.unlink(log.name)
            elif failed:
                _ray_log.append(log.name)
            else:
                warn(f"Ray wrote {said} line(s) of its own while the games ran: see {log.name}")


def _check_plot(path: Path | None) -> None:
    """A plot's format is its file's ending (matplotlib's): refused before playing."""
    if path is None:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    if path.suffix.lower().removeprefix(".") not in formats:
        raise BadInput(
            f"--plot {path}: the file's ending names the picture's format, one of "
            f"{', '.join('.' + f for f in formats)} (e.g. ratings.png)"
        )


def _check_new_file(path: Path | None) -> None:
    """An output file must be writable: refuse it before playing, not after."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(f"{path} is a folder; give a file name")
    if not path.parent.is_dir():
        raise BadInput(f"cannot write {path}: the folder {path.parent} does not exist")
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        raise BadInput(f"cannot write in {path.parent}: {error.strerror or error}") from error


def _check_new_folder(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise BadInput(f"{path} exists and is not a folder; --out names a folder for the report")
    parent = path if path.exists() else path.parent
    if not parent.is_dir():
        raise BadInput(f"cannot make {path}: the folder {parent} does not exist")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as error:
        raise BadInput(f"cannot write in {parent}: {error.strerror or error}") from error


def _seat_spec(name: str) -> str:
    return name if name.startswith("bot") else f"bot:{name}"


def _names(text: str | None) -> list[str]:
    return [b.strip() for b in (text or "").split(",") if b.strip()]


def _check_bots(game_name: str, names: list[str]) -> None:
    """Refuse an unknown bot by its name before any count of players is worked out."""
    known = set(bot_registry.available(game_name)) | set(bot_registry.LEVELS) | {"bot"}
    for name in names:
        bare = name.removeprefix("bot:").partition("?")[0]
        if bare and bare not in known:
            raise BadInput(
                f"{game_name} has no bot {bare!r}; bots: {', '.join(sorted(known - {'bot'}))}"
            )


def _game(game_name: str, options: dict[str, Any], players: int | None) -> Game:
    if players is not None:
        options["players"] = players
    return load(game_name, **options)


def game_options(game: Game) -> dict[str, Any]:
    from gamenight.engine.options import options_to_json

    return options_to_json(game.options) | {"players": game.players}


def _run_failed(error: Exception, backend: str, address: str | None) -> typer.Exit:
    where = f"the Ray cluster at {address}" if address else f"the {backend} backend"
    log = f" (Ray's own messages: {_ray_log.pop()})" if _ray_log else ""
    return fail(f"could not run the games on {where}: {error}{log}", STOPPED)


class _Counted:
    """A progress callback that also counts the games finished (for an interrupted run)."""

    def __init__(self) -> None:
        self.done = 0
        self.advance: Callable[[int], None] = lambda k: None

    def __call__(self, k: int) -> None:
        self.done += k
        self.advance(k)


@contextmanager
def _progress(
    game: str, total: int | None = None, backend: str = "processes", address: str | None = None
) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar with games per second; yields the callback that advances it.
    With Ray, whatever is written to stderr meanwhile goes to Ray's log (`_quiet_ray`)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with (
        _quiet_ray(backend, address),
        Progress(
            TextColumn(game, style="bold"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=out,
            redirect_stderr=backend != "ray",
        ) as progress,
    ):
        task = progress.add_task("games", total=total, rate="")

        def advance(k: int) -> None:
            progress.advance(task, k)
            elapsed = progress.tasks[task].elapsed or 1e-9
            progress.update(task, rate=f"{progress.tasks[task].completed / elapsed:,.0f} games/s")

        yield advance


@app.command()
def simulate(
    game: GameName,
    games_: Annotated[int, typer.Option("--games", metavar="NUMBER", min=1)] = 1000,
    bots: Annotated[
        str | None, typer.Option(metavar="BOTS", help="comma list of bots, one per seat")
    ] = None,
    players: Players = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    out_: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="write the run as JSON: its settings (game, players, options as given and "
            "as played, bots, seed, games, gamenight version, the command), then every "
            "game's result under 'results'; 'complete' is false if the run was interrupted",
        ),
    ] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
    batched: Annotated[
        bool | None,
        typer.Option(
            "--batched/--no-batched",
            help="lockstep batches: --batched also for random bots (same odds, other games); "
            "--no-batched never (every game through the engine). "
            "Default: where a batch makes the same games",
        ),
    ] = None,
) -> None:
    """Play many bot games and print win rates per seat, game lengths and the game's stats."""
    try:
        _check_backend(backend, address)
        _check_new_file(out_)
        given: dict[str, Any] = parse_sets(set_, game)
        options = dict(given)
        bot_list = _names(bots)
        _check_bots(game, bot_list)
        count = players if players is not None else (len(bot_list) if len(bot_list) > 1 else None)
        the_game = _game(game, options, count)
        n = the_game.players
        bot_list = bot_list or [bot_registry.simulation_bot(game)]
        seats = tuple(_seat_spec(bot_list[s % len(bot_list)]) for s in range(n))
        for spec in seats:
            check_seat(spec, the_game)  # refuse bad parameters before starting
    except BadInput as error:
        raise fail(str(error)) from error
    _reach(address)
    from gamenight.sim.runner import Job, ResultsFile, Tally, batchable, stream, summarize

    workers = _workers(workers, games_, backend, address)
    job = Job(game, tuple(sorted(game_options(the_game).items())), seats, seed, batched)
    header = {
        "format": "gamenight-simulate/1",
        "gamenight": gamenight_version(),
        "command": _command(game, games_, bot_list, n, seed, given, batched),
        "game": game,
        "players": n,
        "options": given,
        "options_played": game_options(the_game),
        "bots": list(seats),
        "seed": seed,
        "games": games_,
        "batched": batchable(job),
    }
    counted = _Counted()
    file: ResultsFile | None = None
    try:
        with _progress(game, games_, backend, address) as advance:
            counted.advance = advance
            if out_ is None:  # summed in the workers: no game's result comes back
                summary = summarize(
                    job, games_, workers=workers, on_progress=counted, backend=backend,
                    address=address,
                )  # fmt: skip
            else:
                tally = Tally.empty(n)
                with ResultsFile(out_, header) as file:
                    for result in stream(
                        job, games_, workers=workers, on_progress=counted, backend=backend,
                        address=address,
                    ):  # fmt: skip
                        file.add(result)
                        tally.add(result)
                summary = tally.summary()
    except KeyboardInterrupt:
        raise interrupted(_kept(counted.done, games_, out_, file)) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    except OSError as error:
        if out_ is None:  # nothing is written: the machine (or Ray on it) failed
            raise _run_failed(error, backend, address) from error
        raise fail(f"cannot write {out_}: {error.strerror or error}") from error
    shown = as_people_read(options_class(game), given)
    table = Table(
        "player", _name("bot"), "win rate", "95% interval", "mean score", "mean payoff",
        title=f"{game}: {games_} games, {n} players, {shown}, seed {seed}",
    )  # fmt: skip
    for s in range(n):
        rate, lo, hi = summary.win_rate(s)
        table.add_row(
            str(s + 1),  # players count from 1, as everywhere a person reads them
            seats[s],
            f"{rate:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            f"{summary.score[s]:.2f}",
            f"{summary.payoff[s]:.3f}",
        )
    show(table)
    for line in stat_lines(summary):
        say(line)
    if header["batched"]:
        say("played in lockstep batches (the same games and stats as through the engine)")
    if out_ is not None:
        say(f"results written to {out_}")


def _command(
    game: str,
    games: int,
    bots: list[str],
    players: int,
    seed: int,
    given: dict[str, Any],
    batched: bool | None,
) -> str:
    """The command that plays the same games again."""
    words = ["gamenight", "simulate", game, "--games", str(games), "--bots", ",".join(bots)]
    words += ["--players", str(players), "--seed", str(seed)]
    for key, value in given.items():
        words += ["--set", f"{key}={value}"]
    if batched is not None:
        words.append("--batched" if batched else "--no-batched")
    return shlex.join(words)


def _kept(done: int, total: int, path: Path | None, file: ResultsFile | None) -> str:
    """What an interrupted run kept, in words: "after 4 of 30 games; those 4 are in r.json"."""
    said = f"after {done:,} of {total:,} games"
    if path is None:
        return f"{said}; nothing was kept (--out FILE keeps each game as it ends)"
    if file is None or not file.replaced:
        return f"{said}; {path} was not written (no game was finished in order)"
    kept = "those" if file.played == done else "the first"
    return f'{said}; {kept} {file.played:,} are in {path} (marked "complete": false)'


# What a stat of `State.stats()` is, for a reader: a mean per game, or a yes/no shown as
# the share of games where it held. A stat not named here is shown as "NAME per game".
STAT_WORDS = {
    "lead_changes": "lead changes per game",
    "comeback": "comebacks (the winner trailed at some point) in {:.1%} of games",
    "games": "games per series",
}
# Stats that only repeat an option when they are the same in every game (Arne's games per
# series: 1.00 in every run of single games): left out then.
SET_BY_OPTIONS = ("games",)


def stat_lines(summary: Summary) -> list[str]:
    """The game's stats in words: the means per game; each per-round stat
    (`NAME.r<round>`) as the share over the games that reached that round; ties and
    truncated games."""
    from gamenight.sim.story import PER_ROUND

    means = []
    rounds: dict[str, list[str]] = {}
    for key, value in summary.stats.items():
        match = PER_ROUND.match(key)
        if match:
            games = summary.stat_games[key]
            rounds.setdefault(match["name"], []).append(
                f"r{match['round']} {value:.1%} of {games:,}"
            )
        elif key in SET_BY_OPTIONS and summary.stat_values[key] == 1:
            continue
        elif "{" in STAT_WORDS.get(key, ""):
            means.append(STAT_WORDS[key].format(value))
        else:
            means.append(f"{STAT_WORDS.get(key, f'{key} per game')} {value:.2f}")
    shared = f"shared wins {summary.shared / max(1, summary.games):.1%}"
    first = [", ".join(means)] if means else []
    lines = ["; ".join([*first, shared, f"truncated {summary.truncated}"])]
    for name, cells in rounds.items():
        lines.append(f"{name}.rN, over the games that reached round N: {', '.join(cells)}")
    return lines


@app.command()
def tournament(
    game: GameName,
    bots: Annotated[
        str,
        typer.Option(metavar="BOTS", help="two or more entrants, e.g. random,greedy,ismcts"),
    ],
    games_: Annotated[
        int, typer.Option("--games", metavar="NUMBER", min=1, help="games per group of bots")
    ] = 100,
    players: Annotated[
        int | None, typer.Option(metavar="NUMBER", help="seats per game (default 2)")
    ] = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    out_: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="write the raw results as JSON")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="draw ratings with error bars; the file's ending is the format (.png, .svg, ...)",
        ),
    ] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
) -> None:
    """Round robin with rotated seats: openskill ratings, win rates with 95% intervals.

    --out writes the game, bots, players, options (as given and as played), seed, games per
    group, gamenight version, standings, head-to-head and every game."""
    from gamenight.sim.runner import replacing
    from gamenight.sim.tournament import play_tournament, plot_ratings, schedule

    entrants = _names(bots)
    try:
        _check_backend(backend, address)
        _check_new_file(out_)
        _check_new_file(plot)
        _check_plot(plot)
        if len(set(entrants)) < 2:
            raise BadInput(f"a tournament needs two or more different bots, got {bots!r}")
        if len(set(entrants)) != len(entrants):
            raise BadInput(f"each bot enters once, got {bots!r}")
        _check_bots(game, entrants)
        given: dict[str, Any] = parse_sets(set_, game)
        options: dict[str, Any] = dict(given)
        the_game = _game(game, options, players if players is not None else 2)
        for entrant in entrants:
            check_seat(_seat_spec(entrant), the_game)
    except BadInput as error:
        raise fail(str(error)) from error
    _reach(address)
    options = game_options(the_game)
    plan = schedule(game, options, entrants, the_game.players, games_, seed)
    total = sum(n for _, _, n in plan)
    per_group: dict[int, int] = {}
    for group, _, n in plan:
        per_group[group] = per_group.get(group, 0) + n
    played = max(per_group.values())
    if played != games_:
        rotations = played // next(n for _, _, n in plan)
        warn(
            f"--games {games_} plays {played} games per group of bots: every deal is played "
            f"once in each of the {rotations} seat rotations, so the games round up to a "
            f"multiple of {rotations}"
        )
    counted = _Counted()
    workers = _workers(workers, total, backend, address)
    try:
        with _progress(game, total, backend, address) as advance:
            counted.advance = advance
            tour = play_tournament(
                game, options, entrants, the_game.players, games_, seed,
                workers=workers, on_progress=counted, backend=backend, address=address,
            )  # fmt: skip
    except KeyboardInterrupt:
        lost = " and ".join(str(p) for p in (out_, plot) if p is not None)
        kept = f"{lost} not written" if lost else "nothing was kept"
        raise interrupted(
            f"after {counted.done:,} of {total:,} games; {kept} (ratings need every game)"
        ) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    table = Table(
        _name("bot"), "rating (mu +- sigma)", "won alone", "95% interval", "shared wins",
        "mean score", "mean payoff", "games",
        title=f"{game} tournament, {the_game.players} players",
    )  # fmt: skip
    for st in sorted(tour.standings.values(), key=lambda s: -s.ordinal):
        rate, lo, hi = st.win_rate
        table.add_row(
            st.bot,
            f"{st.mu:.1f} +- {st.sigma:.1f}",
            f"{rate:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            f"{st.shared_rate:.1%}",
            f"{st.score:.2f}",
            f"{st.payoff:.3f}",
            str(st.games),
        )
    show(table)
    pairs = Table(
        _name("bot"), _name("against"), "finishes ahead (ties half)", "95% interval", "games",
        title="head to head",
    )  # fmt: skip
    for a in tour.bots:  # the tournament's names: "bot:greedy" is listed as "greedy"
        for b in tour.bots:
            if a != b and (a, b) in tour.head_to_head:
                rate, lo, hi, n = tour.pair_rate(a, b)
                pairs.add_row(a, b, f"{rate:.1%}", f"{lo:.1%} - {hi:.1%}", str(n))
    show(pairs)
    try:
        if out_ is not None:
            with replacing(out_) as part:
                written = {
                    "format": "gamenight-tournament/1",
                    "gamenight": gamenight_version(),
                    "options_given": given,
                    **tour.to_json(),
                }
                part.write_text(json.dumps(written))
            say(f"results written to {out_}")
        if plot is not None:
            with replacing(plot) as part:
                plot_ratings(tour, str(part))
            say(f"ratings plot written to {plot}")
    except KeyboardInterrupt:
        raise interrupted("while writing the results; a file not said written was not") from None
    except OSError as error:
        raise fail(f"cannot write {error.filename or out_}: {error.strerror}") from error


def _name(header: str) -> Column:
    """A column of bot names: a long one (`ismcts?seconds=1`) folds onto the next line
    rather than being cut to `ismcts…`, which two entrants can share."""
    return Column(header, overflow="fold", min_width=min(len(header), 12))


@app.command()
def report(
    game: GameName,
    games_: Annotated[
        int, typer.Option("--games", metavar="NUMBER", min=1, help="games per setting")
    ] = 1000,
    out_: Annotated[
        Path,
        typer.Option("--out", metavar="FOLDER", help="folder for index.html and its plots"),
    ] = Path("report"),
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            metavar="OPTION=V1,V2",
            help="a column of figures per value of an option; several --sweep make a grid",
        ),
    ] = None,
    bots: Annotated[
        str | None, typer.Option(metavar="BOTS", help="comma list of bots, one per seat")
    ] = None,
    players: Players = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
    skill_games: Annotated[
        int,
        typer.Option(
            metavar="NUMBER", min=0, help="games per level for the skill curves (0: none)"
        ),
    ] = 0,
) -> None:
    """Balance report: win rates per seat and turn position, scores, lengths, ties (HTML)."""
    from gamenight.sim.report import parse_sweeps, run_report, settings

    try:
        _check_backend(backend, address)
        _check_new_folder(out_)
        options: dict[str, Any] = parse_sets(set_, game)
        swept = parse_sweeps(sweep)
        bot_list = _names(bots)
        _check_bots(game, bot_list)
        count = players if players is not None else (len(bot_list) if len(bot_list) > 1 else None)
        columns = settings(game, options, swept, count)  # refuse bad options before playing
    except BadInput as error:
        raise fail(str(error)) from error
    _reach(address)
    counted = _Counted()
    total = (games_ + 3 * skill_games) * len(columns)  # about: skill runs round up per seat
    workers = _workers(workers, total, backend, address)
    try:
        with _progress(game, total, backend, address) as advance:
            counted.advance = advance
            index = run_report(
                game, games_, out_, options=options, sweep=swept, bots=bot_list,
                players=count, seed=seed, workers=workers, backend=backend,
                address=address, on_progress=counted, skill_games=skill_games,
            )  # fmt: skip
    except KeyboardInterrupt:
        raise interrupted(
            f"after {counted.done:,} of about {total:,} games; the report in {out_} was not "
            "written (a file already there is as it was)"
        ) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    say(f"report written to {index}")
