"""Commands that describe what there is (games, options, bots) and `serve`."""

from __future__ import annotations

import itertools
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from gamenight import bots as bot_registry
from gamenight.cli.helptext import filled
from gamenight.cli.output import STOPPED, fail, interrupted, show
from gamenight.cli.root import app
from gamenight.engine.core import BadInput
from gamenight.engine.options import build_options, describe_options
from gamenight.engine.registry import game_class, games, load, options_class, spec
from gamenight.games.terminal_text import shown_as
from gamenight.i18n import N_, _, game_text, ngettext, options_in

GameName = Annotated[
    str,
    typer.Argument(
        metavar=N_("GAME"), help=filled(N_("one of: {games}"), games=", ".join(games()))
    ),
]
MOST_PLAYERS = 12  # the counts of players asked about: 1 to this


def _counts(name: str, **options: Any) -> list[int]:
    """The numbers of players (1 to 12) the game accepts with these options (its Options
    refuse a wrong count; no game is built)."""
    cls = options_class(name)
    found = []
    for n in range(1, MOST_PLAYERS + 1):
        try:
            build_options(cls, {**options, "players": n}, name)
        except (BadInput, ValueError):
            continue
        found.append(n)
    return found


def _ranges(counts: list[int]) -> str:
    """[2, 3, 4] -> "2-4"; [4, 6, 8] -> "4-8, even"; [1, 3, 4] -> "1, 3-4"."""
    if len(counts) > 2 and all(b - a == 2 for a, b in itertools.pairwise(counts)):
        parity = _("even") if counts[0] % 2 == 0 else _("odd")
        return f"{counts[0]}-{counts[-1]}, {parity}"
    ranges: list[list[int]] = []
    for n in counts:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges) or "-"


@dataclass
class Variant:
    """The game with its defaults (`label` ""), or with one option value that changes who
    can play ("dummy variant", "with teams")."""

    label: str
    options: dict[str, Any] = field(default_factory=dict)
    counts: list[int] = field(default_factory=list)


def variants(name: str, rows: list[dict[str, Any]] | None = None) -> list[Variant]:
    """The game's variants as `gamenight games` lists them, found by asking it: its
    defaults, then each option value that changes the numbers of players, so the list
    agrees with the lobby card on the web (which counts every variant)."""
    rows = describe_options(options_class(name)) if rows is None else rows
    found = [Variant("", {}, _counts(name))]
    for row in rows:
        if row["name"] == "players":
            continue
        values = row["choices"] or ([True] if row["type"] == "bool" else [])
        for value in values:
            if value == row["default"] or value is False:
                continue
            counts = _counts(name, **{row["name"]: value})
            if counts and counts != found[0].counts:
                what = f"with {row['name']}" if value is True else f"{value} {row['name']}"
                found.append(Variant(what, {row["name"]: value}, counts))
    return found


def _variant_words(name: str, variant: Variant) -> str:
    """A variant's label in the terminal's language: "with teams" in the platform's words,
    "dummy variant" as the game's own catalogue says it (its terminal table names it)."""
    ((option, value),) = variant.options.items()
    if value is True:
        return _("with {option}").format(option=option)
    return game_text(spec(name).package, variant.label)


def _player_counts(name: str, rows: list[dict[str, Any]]) -> str:
    """ "2-6 (dummy variant: 2-5; team variant: 4-12, even)"."""
    base, *others = variants(name, rows)
    shown = "; ".join(f"{_variant_words(name, v)}: {_ranges(v.counts)}" for v in others)
    return _ranges(base.counts) + (f" ({shown})" if shown else "")


@app.command("games", help=N_("List the games, how many can play and their options."))
def list_games() -> None:
    """`gamenight games`."""
    table = Table(_("game"), _("players"), _("options"))
    for name in games():
        try:
            rows = describe_options(options_class(name))
        except ImportError as err:
            said = _("not available: {reason}").format(reason=err)
            table.add_row(name, "-", Text(said, style="red"))
            continue
        names = ", ".join(r["name"] for r in rows if r["name"] != "players")
        table.add_row(name, _player_counts(name, rows), names)
    show(table)


def _allowed(row: dict[str, Any]) -> str:
    if row.get("seat"):  # the engine's seat index, typed and read as a player number
        return _("a player number (1: the first player), or random")
    if row["choices"]:
        return ", ".join(map(str, row["choices"]))
    if row["min"] is not None:
        top = "" if row["max"] is None else row["max"]
        if top == "":
            return _("{low} or more").format(low=row["min"])
        return _("{low} to {high}").format(low=row["min"], high=top)
    words = {"bool": _("yes or no"), "int": _("a whole number"), "float": _("a number")}
    return words.get(row["type"], _("text"))


def _shown(value: Any) -> str:
    """A value as a person types it: yes/no, none, "red, green", "c5=purple, c6=orange"
    (never a Python repr such as "('c5', 'purple')")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(
            "=".join(map(_shown, item)) if isinstance(item, (list, tuple)) else _shown(item)
            for item in value
        )
    return str(value)


@app.command("options", help=N_("Show every option of a game with its default and allowed values."))
def show_options(game: GameName) -> None:
    """`gamenight options GAME`."""
    try:
        rows = describe_options(options_class(game))
    except BadInput as err:
        raise fail(str(err)) from err
    said = options_in(rows, spec(game).package)  # the help texts in the terminal's language
    title = _("{game} options").format(game=game)
    table = Table(_("option"), _("default"), _("allowed"), _("meaning"), title=title)
    for r, words in zip(rows, said, strict=True):
        # players: the counts the game accepts (asked, as `games` does), not the option's
        # outer bounds (Drop or Stop's players said "1 to 12" where the game takes 2-4)
        allowed = _player_counts(game, rows) if r["name"] == "players" else _allowed(r)
        default = r["default"]
        if r.get("seat") and isinstance(default, int):
            default += 1  # player 1 is seat 0
        table.add_row(r["name"], _shown(default), allowed, shown_as(words["help"]))
    show(table)


@app.command("bots", help=N_("List every bot per game with its parameters."))
def list_bots(
    game: Annotated[
        str | None, typer.Argument(metavar=N_("[GAME]"), help=N_("only this game's bots"))
    ] = None,
) -> None:
    """`gamenight bots [GAME]`."""
    if game is not None and game not in games():
        raise fail(
            _("no game {game}; games: {games}").format(game=repr(game), games=", ".join(games()))
        )
    table = Table(_("game"), _("bot"), _("parameters"))
    said_default, said_level = _("default"), _("level")  # (no `_` inside an f-string: unseen)
    for name in [game] if game else games():
        try:
            found = bot_registry.available(name)
            default = bot_registry.default_bot(name)
        except (BadInput, ImportError) as err:
            table.add_row(name, "-", _("not available: {reason}").format(reason=err))
            continue
        players = load(name).players
        for_players = ngettext("({n} player)", "({n} players)", players).format(n=players)
        for bot in sorted(found):
            params = bot_registry.defaults(name, bot, players)
            shown = ", ".join(f"{k}={_shown(v)}" for k, v in params.items() if k != "game")
            if bot == "ismcts":
                shown += f"  {for_players}"
            marked = f"{bot} ({said_default})" if bot == default else bot
            table.add_row(name, marked, shown)
        for level, seat in bot_registry.levels(name, players).items():
            table.add_row(name, f"{level} ({said_level})", f"{seat}  {for_players}")
    show(table)


def _check_port(host: str, port: int) -> None:
    """Refuse a port that is taken before saying "serving at"."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as err:
        said = _("cannot listen on {host}:{port}: {error}")
        raise fail(said.format(host=host, port=port, error=err.strerror or err)) from err


def _check_sqlite_folder(url: str) -> None:
    """A SQLite file goes into a folder that exists: opening the database would make every
    missing folder on the way (sqlite:////nonexistent/dir/x.db made /nonexistent)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return  # connect says what is wrong with it
    name = parsed.database
    if not parsed.drivername.startswith("sqlite") or not name or name == ":memory:":
        return
    if name.startswith("file:"):  # a SQLite URI filename (?uri=true)
        name = name.removeprefix("file:").partition("?")[0]
    folder = Path(name).expanduser().absolute().parent
    if not folder.is_dir():
        said = _("cannot use the database {url}: the folder {folder} does not exist")
        raise fail(said.format(url=url, folder=folder))


def _check_database(url: str | None) -> None:
    """Open (and migrate) the database once, so a bad URL is one line, not a traceback."""
    from gamenight.server.db import connect, disconnect

    if url is not None:
        _check_sqlite_folder(url)
    try:
        disconnect(connect(url))  # releases the SQLite lock for the server itself
    except Exception as err:  # SQLAlchemy, the driver or Alembic: each says it differently
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise fail(
            _("cannot use the database {url}: {error}").format(url=url, error=first)
        ) from err


@app.command(help=N_("Start the web app: lobby, live tables, bots, persistence."))
def serve(
    host: Annotated[
        str, typer.Option(metavar=N_("ADDRESS"), help=N_("address to listen on"))
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(metavar=N_("PORT"), min=1, max=65535, help=N_("port to listen on (1-65535)")),
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(metavar=N_("URL"), help=N_("database URL (default: SQLite file under data/)")),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            metavar=N_("URL"),
            help=N_("Redis URL: one of several processes (needs a PostgreSQL --db)"),
        ),
    ] = None,
) -> None:
    """`gamenight serve`: the web app."""
    from gamenight.server.cluster import check_urls

    try:
        check_urls(db, redis)
    except BadInput as error:
        raise fail(str(error)) from error
    _check_port(host, port)
    _check_database(db)
    from gamenight.server import gc_tuning
    from gamenight.server.app import serve as run_server

    for name in games():
        game_class(name)  # imported now, to be frozen with the rest of the code
    gc_tuning.tune(["uvicorn", "gamenight.bots", "gamenight.server.workers"])

    try:
        run_server(host=host, port=port, db=db, redis=redis)
    except KeyboardInterrupt:
        pass
    except SystemExit as stop:  # uvicorn exits 1 when it cannot start
        if stop.code:
            said = _("the server on {host}:{port} stopped (exit {code})")
            raise fail(said.format(host=host, port=port, code=stop.code), STOPPED) from None
    # uvicorn returns only after a signal (Ctrl+C or a kill): a person stopped it, which is
    # said as such (not as an error), with exit code 130
    raise interrupted(_("by a signal: the server stopped; its tables are saved"))
