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

from gamenight.cli.output import BAD_INPUT, STOPPED, fail, out
from gamenight.engine.core import BadInput

if TYPE_CHECKING:
    from sqlalchemy import Engine


def _check_out(path: Path) -> None:
    """The file can be written: its folder exists and takes a new file."""
    if path.is_dir():
        raise BadInput(f"--out {path} is a folder; give a file name such as games.parquet")
    folder = path.parent
    if not folder.is_dir():
        raise BadInput(f"cannot write {path}: the folder {folder} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInput(f"cannot write {path}: permission denied")
    try:  # the file is written beside its place, then moved there
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise BadInput(f"cannot write in {folder}: {err.strerror or err}") from None


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
        where = "" if url else " (start `gamenight serve` once, or give --db URL)"
        raise BadInput(f"there is no database at {file}{where}")
    if url is None and file is not None:
        url = f"sqlite:///{file.resolve()}"
    try:
        return connect(url, lock=False)
    except Exception as err:  # SQLAlchemy, the driver or Alembic: each says it differently
        text = str(err).strip()
        first = text.splitlines()[0] if text else type(err).__name__
        raise BadInput(f"cannot use the database {shown}: {first}") from err


def export_command(
    path: Annotated[
        Path, typer.Option("--out", metavar="FILE", help="the Parquet file to write")
    ] = Path("games.parquet"),
    since: Annotated[
        str | None,
        typer.Option(
            metavar="DATE",
            help="only games finished on or after DATE: 2026-12-01, or 2026-12-01T18:00 "
            "(UTC unless a zone is given)",
        ),
    ] = None,
    game: Annotated[
        str | None, typer.Option(metavar="GAME", help="only this game's tables")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(metavar="URL", help="database URL (default: the SQLite file under data/)"),
    ] = None,
) -> None:
    """Write the open archive: every finished game at a table with people, anonymised
    (accounts as stable pseudonyms, no chat, no names; tables of people who opted out left
    out), with options, seed, every move, outcome and ratings at the time, as Parquet
    (schema: docs/archive.md)."""
    from gamenight.engine.registry import games
    from gamenight.server.archive import export, parse_since

    try:
        start = None if since is None else parse_since(since)
        if game is not None and game not in games():
            raise BadInput(f"--game {game}: no such game; games: {', '.join(games())}")
        _check_out(path)
        engine = _open(db)
    except BadInput as err:
        raise fail(str(err), BAD_INPUT) from None
    from gamenight.server.db import disconnect

    try:
        done = export(engine, path, start, game)
    except OSError as err:
        raise fail(f"cannot write {path}: {err.strerror or err}", STOPPED) from None
    except Exception as err:  # the database went away meanwhile, ...
        text = str(err).strip()
        first = text.splitlines()[0] if text else type(err).__name__
        raise fail(f"the export stopped: {first}; {path} was not written", STOPPED) from None
    finally:
        disconnect(engine)
    lines = [f"wrote {done.games} game{'' if done.games == 1 else 's'} to {path}"]
    if done.left_out:
        reasons = ", ".join(f"{n} ({why})" for why, n in sorted(done.left_out.items()))
        lines.append(f"left out: {reasons}")
    for line in lines:  # whole lines: a long path is not wrapped
        out.print(Text(line), soft_wrap=True)
