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
from gamenight.cli.output import (
    STOPPED,
    fail,
    fixed,
    interrupted,
    out,
    percent,
    say,
    show,
    warn,
    whole,
)
from gamenight.cli.root import app, gamenight_version
from gamenight.cli.table import GameName, SetOpt, check_seat, parse_sets
from gamenight.engine.core import BadInput, Game
from gamenight.engine.options import as_people_read
from gamenight.engine.registry import load, options_class
from gamenight.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from gamenight.sim.runner import ResultsFile, Summary

Backend = Annotated[
    str,
    typer.Option(
        metavar=N_("NAME"),
        help=N_(
            "processes (local worker processes) or ray (a local Ray runtime, or the cluster "
            "at --address); results are the same for one seed whatever the backend and workers"
        ),
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        metavar=N_("ADDRESS"),
        help=N_("join this Ray cluster (e.g. auto or ray://host:10001); needs --backend ray"),
    ),
]
Workers = Annotated[int, typer.Option(metavar=N_("NUMBER"), min=1, help=N_("worker processes"))]
CPUS = os.cpu_count() or 1
Seed = Annotated[
    int, typer.Option(metavar=N_("NUMBER"), help=N_("master seed; every seed derives from it"))
]
Players = Annotated[
    int | None,
    typer.Option(metavar=N_("NUMBER"), help=N_("seats per game (default: one per bot)")),
]
Bots = Annotated[
    str | None,
    typer.Option(metavar=N_("BOTS"), help=N_("comma list of bots, one per seat")),
]


def _check_backend(backend: str, address: str | None) -> None:
    from gamenight.sim.backends import check_address, check_backend

    check_backend(backend)
    if address and backend != "ray":
        raise BadInput(_("--address joins a Ray cluster: use it with --backend ray"))
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
        said = _(
            "--address must be auto, HOST:PORT (a cluster's head, e.g. 10.0.0.5:6379) or "
            "ray://HOST:PORT (the Ray Client), with a port from 1 to 65535; got {address}"
        )
        raise BadInput(said.format(address=repr(address)))
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
        reason = _("no answer within {seconds} s").format(seconds=f"{CONNECT_SECONDS:g}")
    except OSError as error:
        reason = error.strerror or str(error)
    else:
        return
    said = _("cannot reach the Ray cluster at {address}: {reason}")
    raise fail(said.format(address=address, reason=reason), STOPPED)


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
                words = ngettext(
                    "Ray wrote {n} line of its own while the games ran: see {path}",
                    "Ray wrote {n} lines of its own while the games ran: see {path}",
                    said,
                )
                warn(words.format(n=whole(said), path=log.name))


def _check_plot(path: Path | None) -> None:
    """A plot's format is its file's ending (matplotlib's): refused before playing."""
    if path is None:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    if path.suffix.lower().removeprefix(".") not in formats:
        said = _(
            "--plot {path}: the file's ending names the picture's format, one of {formats} "
            "(e.g. ratings.png)"
        )
        raise BadInput(said.format(path=path, formats=", ".join("." + f for f in formats)))


def _check_new_file(path: Path | None) -> None:
    """An output file must be writable: refuse it before playing, not after."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(_("{path} is a folder; give a file name").format(path=path))
    if not path.parent.is_dir():
        said = _("cannot write {path}: the folder {folder} does not exist")
        raise BadInput(said.format(path=path, folder=path.parent))
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        said = _("cannot write in {folder}: {error}")
        raise BadInput(said.format(folder=path.parent, error=error.strerror or error)) from error


def _check_new_folder(path: Path) -> None:
    if path.exists() and not path.is_dir():
        said = _("{path} exists and is not a folder; --out names a folder for the report")
        raise BadInput(said.format(path=path))
    parent = path if path.exists() else path.parent
    if not parent.is_dir():
        said = _("cannot make {path}: the folder {folder} does not exist")
        raise BadInput(said.format(path=path, folder=parent))
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as error:
        said = _("cannot write in {folder}: {error}")
        raise BadInput(said.format(folder=parent, error=error.strerror or error)) from error


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
            said = _("{game} has no bot {bot}; bots: {bots}")
            bots = ", ".join(sorted(known - {"bot"}))
            raise BadInput(said.format(game=game_name, bot=repr(bare), bots=bots))


def _game(game_name: str, options: dict[str, Any], players: int | None) -> Game:
    if players is not None:
        options["players"] = players
    return load(game_name, **options)


def game_options(game: Game) -> dict[str, Any]:
    from gamenight.engine.options import options_to_json

    return options_to_json(game.options) | {"players": game.players}


def _run_failed(error: Exception, backend: str, address: str | None) -> typer.Exit:
    if address:
        said = _("could not run the games on the Ray cluster at {address}: {error}")
    else:
        said = _("could not run the games on the {backend} backend: {error}")
    log = _("Ray's own messages: {path}").format(path=_ray_log.pop()) if _ray_log else ""
    said = said.format(address=address, backend=backend, error=error)
    return fail(f"{said} ({log})" if log else said, STOPPED)


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
            rate = fixed(progress.tasks[task].completed / elapsed, 0)
            progress.update(task, rate=_("{rate} games/s").format(rate=rate))

        yield advance


@app.command(
    help=N_("Play many bot games and print win rates per seat, game lengths and the game's stats.")
)
def simulate(
    game: GameName,
    games_: Annotated[
        int, typer.Option("--games", metavar=N_("NUMBER"), min=1, help=N_("games to play"))
    ] = 1000,
    bots: Bots = None,
    players: Players = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    out_: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar=N_("FILE"),
            help=N_(
                "write the run as JSON: its settings (game, players, options as given and "
                "as played, bots, seed, games, gamenight version, the command), then every "
                "game's result under 'results'; 'complete' is false if the run was interrupted"
            ),
        ),
    ] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
    batched: Annotated[
        bool | None,
        typer.Option(
            "--batched/--no-batched",
            help=N_(
                "lockstep batches: --batched also for random bots (same odds, other games); "
                "--no-batched never (every game through the engine). "
                "Default: where a batch makes the same games"
            ),
        ),
    ] = None,
) -> None:
    """`gamenight simulate`: many bot games, their win rates and stats."""
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
        said = _("cannot write {path}: {error}")
        raise fail(said.format(path=out_, error=error.strerror or error)) from error
    shown = as_people_read(options_class(game), given) if given else _("default options")
    title = _("{game}: {games}, {players}, {options}, seed {seed}").format(
        game=game,
        games=ngettext("{n} game", "{n} games", games_).format(n=whole(games_)),
        players=ngettext("{n} player", "{n} players", n).format(n=n),
        options=shown,
        seed=seed,
    )
    table = Table(
        _("player"), _name(_("bot")), _("win rate"), _("95% interval"), _("mean score"),
        _("mean payoff"), title=title,
    )  # fmt: skip
    for s in range(n):
        rate, lo, hi = summary.win_rate(s)
        table.add_row(
            str(s + 1),  # players count from 1, as everywhere a person reads them
            seats[s],
            percent(rate),
            f"{percent(lo)} - {percent(hi)}",
            fixed(summary.score[s], 2),
            fixed(summary.payoff[s], 3),
        )
    show(table)
    for line in stat_lines(summary):
        say(line)
    if header["batched"]:
        say(_("played in lockstep batches (the same games and stats as through the engine)"))
    if out_ is not None:
        say(_("results written to {path}").format(path=out_))


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
    said = ngettext("after {done} of {total} game", "after {done} of {total} games", total)
    said = said.format(done=whole(done), total=whole(total))
    if path is None:
        return _("{after}; nothing was kept (--out FILE keeps each game as it ends)").format(
            after=said
        )
    if file is None or not file.replaced:
        kept = _("{after}; {path} was not written (no game was finished in order)")
        return kept.format(after=said, path=path)
    if file.played == done:
        kept = ngettext(
            '{after}; that one is in {path} (marked "complete": false)',
            '{after}; those {n} are in {path} (marked "complete": false)',
            file.played,
        )
    else:
        kept = ngettext(
            '{after}; the first {n} is in {path} (marked "complete": false)',
            '{after}; the first {n} are in {path} (marked "complete": false)',
            file.played,
        )
    return kept.format(after=said, n=whole(file.played), path=path)


# What a stat of `State.stats()` is, for a reader: a mean per game ({value}), or a yes/no
# shown as the share of games where it held ({share}). A stat not named here is shown as
# "NAME per game" (its key, as in the results file).
STAT_WORDS = {
    "decisions": N_("decisions per game {value}"),
    "rounds": N_("rounds per game {value}"),
    "turns": N_("turns per game {value}"),
    "lead_changes": N_("lead changes per game {value}"),
    "comeback": N_("comebacks (the winner trailed at some point) in {share} of games"),
    "games": N_("games per series {value}"),
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
            cell = _("r{round} {share} of {games}")
            rounds.setdefault(match["name"], []).append(
                cell.format(round=match["round"], share=percent(value), games=whole(games))
            )
        elif key in SET_BY_OPTIONS and summary.stat_values[key] == 1:
            continue
        else:
            words = _(STAT_WORDS[key]) if key in STAT_WORDS else _("{stat} per game {value}")
            means.append(words.format(stat=key, value=fixed(value, 2), share=percent(value)))
    shared = _("shared wins {share}").format(share=percent(summary.shared / max(1, summary.games)))
    first = [", ".join(means)] if means else []
    truncated = _("truncated {n}").format(n=whole(summary.truncated))
    lines = ["; ".join([*first, shared, truncated])]
    for name, cells in rounds.items():
        said = _("{stat}.rN, over the games that reached round N: {cells}")
        lines.append(said.format(stat=name, cells=", ".join(cells)))
    return lines


@app.command(
    help=N_(
        "Round robin with rotated seats: openskill ratings, win rates with 95% intervals.\n\n"
        "--out writes the game, bots, players, options (as given and as played), seed, games "
        "per group, gamenight version, standings, head-to-head and every game."
    )
)
def tournament(
    game: GameName,
    bots: Annotated[
        str,
        typer.Option(
            metavar=N_("BOTS"), help=N_("two or more entrants, e.g. random,greedy,ismcts")
        ),
    ],
    games_: Annotated[
        int,
        typer.Option("--games", metavar=N_("NUMBER"), min=1, help=N_("games per group of bots")),
    ] = 100,
    players: Annotated[
        int | None, typer.Option(metavar=N_("NUMBER"), help=N_("seats per game (default 2)"))
    ] = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    out_: Annotated[
        Path | None,
        typer.Option("--out", metavar=N_("FILE"), help=N_("write the raw results as JSON")),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar=N_("FILE"),
            help=N_(
                "draw ratings with error bars; the file's ending is the format (.png, .svg, ...)"
            ),
        ),
    ] = None,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
) -> None:
    """`gamenight tournament`: a round robin of bots, with ratings."""
    from gamenight.sim.runner import replacing
    from gamenight.sim.tournament import play_tournament, plot_ratings, schedule

    entrants = _names(bots)
    try:
        _check_backend(backend, address)
        _check_new_file(out_)
        _check_new_file(plot)
        _check_plot(plot)
        if len(set(entrants)) < 2:
            said = _("a tournament needs two or more different bots, got {bots}")
            raise BadInput(said.format(bots=repr(bots)))
        if len(set(entrants)) != len(entrants):
            raise BadInput(_("each bot enters once, got {bots}").format(bots=repr(bots)))
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
    for group, _entrants, n in plan:
        per_group[group] = per_group.get(group, 0) + n
    played = max(per_group.values())
    if played != games_:
        rotations = played // next(n for _, _, n in plan)
        said = ngettext(
            "--games {games} plays {played} game per group of bots: every deal is played "
            "once in each of the {rotations} seat rotations, so the games round up to a "
            "multiple of {rotations}",
            "--games {games} plays {played} games per group of bots: every deal is played "
            "once in each of the {rotations} seat rotations, so the games round up to a "
            "multiple of {rotations}",
            played,
        )
        warn(said.format(games=games_, played=whole(played), rotations=rotations))
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
        after = ngettext("after {done} of {total} game", "after {done} of {total} games", total)
        after = after.format(done=whole(counted.done), total=whole(total))
        lost = [str(p) for p in (out_, plot) if p is not None]
        if len(lost) == 2:
            said = _("{after}; {file} and {other} not written (ratings need every game)")
        elif lost:
            said = _("{after}; {file} not written (ratings need every game)")
        else:
            said = _("{after}; nothing was kept (ratings need every game)")
        raise interrupted(
            said.format(after=after, file=lost[0] if lost else "", other=lost[-1] if lost else "")
        ) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    players_ = the_game.players
    title = ngettext("{game} tournament, {n} player", "{game} tournament, {n} players", players_)
    table = Table(
        _name(_("bot")), _("rating (mu +- sigma)"), _("won alone"), _("95% interval"),
        _("shared wins"), _("mean score"), _("mean payoff"), _("games"),
        title=title.format(game=game, n=players_),
    )  # fmt: skip
    for st in sorted(tour.standings.values(), key=lambda s: -s.ordinal):
        rate, lo, hi = st.win_rate
        table.add_row(
            st.bot,
            f"{fixed(st.mu, 1)} +- {fixed(st.sigma, 1)}",
            percent(rate),
            f"{percent(lo)} - {percent(hi)}",
            percent(st.shared_rate),
            fixed(st.score, 2),
            fixed(st.payoff, 3),
            whole(st.games),
        )
    show(table)
    pairs = Table(
        _name(_("bot")), _name(_("against")), _("finishes ahead (ties half)"), _("95% interval"),
        _("games"), title=_("head to head"),
    )  # fmt: skip
    for a in tour.bots:  # the tournament's names: "bot:greedy" is listed as "greedy"
        for b in tour.bots:
            if a != b and (a, b) in tour.head_to_head:
                rate, lo, hi, n = tour.pair_rate(a, b)
                pairs.add_row(a, b, percent(rate), f"{percent(lo)} - {percent(hi)}", whole(n))
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
            say(_("results written to {path}").format(path=out_))
        if plot is not None:
            with replacing(plot) as part:
                plot_ratings(tour, str(part))
            say(_("ratings plot written to {path}").format(path=plot))
    except KeyboardInterrupt:
        said = _("while writing the results; a file not said written was not")
        raise interrupted(said) from None
    except OSError as error:
        said = _("cannot write {path}: {error}")
        raise fail(said.format(path=error.filename or out_, error=error.strerror)) from error


def _name(header: str) -> Column:
    """A column of bot names: a long one (`ismcts?seconds=1`) folds onto the next line
    rather than being cut to `ismcts…`, which two entrants can share."""
    return Column(header, overflow="fold", min_width=min(len(header), 12))


@app.command(
    help=N_("Balance report: win rates per seat and turn position, scores, lengths, ties (HTML).")
)
def report(
    game: GameName,
    games_: Annotated[
        int, typer.Option("--games", metavar=N_("NUMBER"), min=1, help=N_("games per setting"))
    ] = 1000,
    out_: Annotated[
        Path,
        typer.Option("--out", metavar=N_("FOLDER"), help=N_("folder for index.html and its plots")),
    ] = Path("report"),
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            metavar=N_("OPTION=V1,V2"),
            help=N_("a column of figures per value of an option; several --sweep make a grid"),
        ),
    ] = None,
    bots: Bots = None,
    players: Players = None,
    seed: Seed = 0,
    workers: Workers = CPUS,
    set_: SetOpt = None,
    backend: Backend = "processes",
    address: Address = None,
    skill_games: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"),
            min=0,
            help=N_("games per level for the skill curves (0: none)"),
        ),
    ] = 0,
) -> None:
    """`gamenight report`: the balance report (HTML)."""
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
        after = ngettext(
            "after {done} of about {total} game", "after {done} of about {total} games", total
        )
        said = _(
            "{after}; the report in {path} was not written (a file already there is as it was)"
        )
        after = after.format(done=whole(counted.done), total=whole(total))
        raise interrupted(said.format(after=after, path=out_)) from None
    except BadInput as error:
        raise fail(str(error)) from error
    except (ConnectionError, RuntimeError) as error:
        raise _run_failed(error, backend, address) from error
    say(_("report written to {path}").format(path=index))
