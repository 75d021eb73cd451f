"""`gamenight export`: the open archive of played games as one Parquet file.

Every finished game at a table with people, anonymised (server/archive.py says how), with
what replays it bit for bit; the schema is docs/archive.md. It reads the server's database
(the SQLite file under the data folder, or `--db`) while the server runs, and writes the
file whole or not at all.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from gamenight.cli.output import BAD_INPUT, STOPPED, fail, out, whole
from gamenight.engine.core import BadInput
from gamenight.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from sqlalchemy import Engine


# Why a finished table stays out of the archive, as server/archive.py says it (BOTS_ONLY,
# OPTED_OUT, NAME_IN_OPTIONS, NO_REPLAY): listed here so that `export` says it in the
# terminal's language (tests/terminal/test_cli_languages.py keeps the two the same).
LEFT_OUT = (
    N_("only bots sat there"),
    N_("someone there keeps their games out"),
    N_("a player's name is in its options"),
    N_("its log does not replay to a finished game"),
)


def _check_out(path: Path) -> None:
    """The file can be written: its folder exists and takes a new file."""
    if path.is_dir():
        said = _("--out {path} is a folder; give a file name such as games.parquet")
        raise BadInput(said.format(path=path))
    folder = path.parent
    if not folder.is_dir():
        said = _("cannot write {path}: the folder {folder} does not exist")
        raise BadInput(said.format(path=path, folder=folder))
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInput(_("cannot write {path}: permission denied").format(path=path))
    try:  # the file is written beside its place, then moved there
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        said = _("cannot write in {folder}: {error}")
        raise BadInput(said.format(folder=folder, error=err.strerror or err)) from None


def _sqlite_file(url: str | None) -> Path | None:
    """The file a SQLite URL names (None: not SQLite, or in memory); the default database
    is the one `gamenight serve` keeps under the data folder."""
    if url is None:
        return Path(os.environ.get("GAMENIGHT_DATA") or "data") / "gamenight.sqlite3"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None  # connecting says what is wrong with it
    name = parsed.database
    if not parsed.drivername.startswith("sqlite") or not name or name == ":memory:":
        return None
    if name.startswith("file:"):  # a SQLite URI filename (?uri=true)
        name = name.removeprefix("file:").partition("?")[0]
    return Path(name).expanduser()


def _without_password(url: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _open(url: str | None) -> Engine:
    """The database, migrated; one line when there is none (exporting never makes one)."""
    from gamenight.server.db import connect

    file = _sqlite_file(url)
    shown = _without_password(url) if url else str(file)
    if file is not None and not file.is_file():
        if url:
            said = _("there is no database at {path}")
        else:
            said = _(
                "there is no database at {path} (start `gamenight serve` once, or give --db URL)"
            )
        raise BadInput(said.format(path=file))
    if url is None and file is not None:
        url = f"sqlite:///{file.resolve()}"
    try:
        return connect(url, lock=False)
    except Exception as err:  # SQLAlchemy, the driver or Alembic: each says it differently
        text = str(err).strip()
        first = text.splitlines()[0] if text else type(err).__name__
        said = _("cannot use the database {url}: {error}")
        raise BadInput(said.format(url=shown, error=first)) from err


# The help of `gamenight export` (root.register_commands).
HELP = N_(
    "Write the open archive: every finished game at a table with people, anonymised (accounts "
    "as stable pseudonyms, no chat, no names; tables of people who opted out left out), with "
    "options, seed, every move, outcome and ratings at the time, as Parquet (schema: "
    "docs/archive.md)."
)


def export_command(
    path: Annotated[
        Path,
        typer.Option("--out", metavar=N_("FILE"), help=N_("the Parquet file to write")),
    ] = Path("games.parquet"),
    since: Annotated[
        str | None,
        typer.Option(
            metavar=N_("DATE"),
            help=N_(
                "only games finished on or after DATE: 2026-12-01, or 2026-12-01T18:00 "
                "(UTC unless a zone is given)"
            ),
        ),
    ] = None,
    game: Annotated[
        str | None, typer.Option(metavar=N_("GAME"), help=N_("only this game's tables"))
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            metavar=N_("URL"), help=N_("database URL (default: the SQLite file under data/)")
        ),
    ] = None,
) -> None:
    """`gamenight export`: the open archive (its help: HELP)."""
    from gamenight.engine.registry import games
    from gamenight.server.archive import export, parse_since

    try:
        start = None if since is None else parse_since(since)
        if game is not None and game not in games():
            said = _("--game {game}: no such game; games: {games}")
            raise BadInput(said.format(game=game, games=", ".join(games())))
        _check_out(path)
        engine = _open(db)
    except BadInput as err:
        raise fail(str(err), BAD_INPUT) from None
    from gamenight.server.db import disconnect

    try:
        done = export(engine, path, start, game)
    except OSError as err:
        said = _("cannot write {path}: {error}")
        raise fail(said.format(path=path, error=err.strerror or err), STOPPED) from None
    except Exception as err:  # the database went away meanwhile, ...
        text = str(err).strip()
        first = text.splitlines()[0] if text else type(err).__name__
        said = _("the export stopped: {error}; {path} was not written")
        raise fail(said.format(error=first, path=path), STOPPED) from None
    finally:
        disconnect(engine)
    wrote = ngettext("wrote {n} game to {path}", "wrote {n} games to {path}", done.games)
    lines = [wrote.format(n=whole(done.games), path=path)]
    if done.left_out:
        reasons = ", ".join(f"{whole(n)} ({_(why)})" for why, n in sorted(done.left_out.items()))
        lines.append(_("left out: {reasons}").format(reasons=reasons))
    for line in lines:  # whole lines: a long path is not wrapped
        out.print(Text(line), soft_wrap=True)
