"""The `gamenight train` command (registered in cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from gamenight.engine.core import BadInput


def train_command(
    game: str,
    players: Annotated[int, typer.Option(help="seats at the table")] = 2,
    opponents: Annotated[
        str, typer.Option(help="comma list of opponent bots, seated in turn")
    ] = "bot",
    steps: Annotated[int, typer.Option(min=1, help="learner decisions to train on")] = 200_000,
    seed: Annotated[int, typer.Option(help="seed of the training run")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            help="policy file to write (default: ./learned-GAME.npz); "
            "play it with the seat bot:learned?path=FILE"
        ),
    ] = None,
) -> None:
    """Train a policy for the `learned` bot with MaskablePPO (needs the [learn] extra), saved
    as numpy in ./learned-GAME.npz unless --out says otherwise; the shipped policy is left
    alone. Play it with the seat `bot:learned?path=learned-GAME.npz`."""
    from gamenight.engine.registry import load
    from gamenight.learn.train import default_out, train

    console = Console()
    texts = [t.strip() for t in opponents.split(",") if t.strip()]
    try:
        from gamenight.bots import make_seat

        table = load(game, players=players)
        for text in texts:
            make_seat(text if text.startswith("bot") else f"bot:{text}", table, 0)
        texts = [t if t.startswith("bot") else f"bot:{t}" for t in texts]
        with Progress(
            "[bold]training[/bold]", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
        ) as bar:
            task = bar.add_task("steps", total=steps)
            path = train(
                game,
                players,
                texts,
                steps,
                seed=seed,
                out=out if out is not None else default_out(game),
                on_progress=lambda n: bar.advance(task, n),
            )
    except BadInput as err:
        console.print(f"error: {err}", style="red", markup=False)
        raise typer.Exit(2) from err
    console.print(f"policy for {players} players written to {path}", markup=False)
    console.print(f"play it with the seat 'bot:learned?path={path}'", markup=False)
