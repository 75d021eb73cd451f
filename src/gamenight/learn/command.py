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
    self_play: Annotated[
        bool,
        typer.Option(
            "--self-play",
            help="train against a league of its own past policies (and --opponents as "
            "anchors, default random); see docs/self-play.md",
        ),
    ] = False,
    generations: Annotated[
        int, typer.Option(min=1, help="self-play: snapshots added to the league (--steps each)")
    ] = 8,
    judge: Annotated[
        str, typer.Option(help="self-play: the bot each generation is measured against")
    ] = "random",
    judge_games: Annotated[int, typer.Option(min=1, help="self-play: deals per measure")] = 100,
    imitate: Annotated[
        str | None,
        typer.Option(help="self-play: first learn this bot's moves (behaviour cloning)"),
    ] = None,
    imitate_decisions: Annotated[
        int, typer.Option(min=1, help="self-play: decisions of --imitate to learn from")
    ] = 20_000,
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
    if self_play and opponents == "bot":
        opponents = "random"  # the league's anchor when none is named
    texts = [t.strip() for t in opponents.split(",") if t.strip()]
    try:
        from gamenight.bots import make_seat

        table = load(game, players=players)
        teacher = [imitate] if imitate else []
        texts = [t if t.startswith("bot") else f"bot:{t}" for t in [*texts, *teacher, judge]]
        for text in texts:
            make_seat(text, table, 0)
        judge_text = texts.pop()
        teacher_text = texts.pop() if teacher else None
        target = out if out is not None else default_out(game)
        if self_play:
            self_play_command(
                console,
                game,
                players,
                texts,
                steps,
                generations,
                seed,
                judge_text,
                judge_games,
                target,
                teacher_text,
                imitate_decisions,
            )
            return
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
                out=target,
                on_progress=lambda n: bar.advance(task, n),
            )
    except BadInput as err:
        console.print(f"error: {err}", style="red", markup=False)
        raise typer.Exit(2) from err
    _written(console, players, path)


def _written(console: Console, players: int, path: Path) -> None:
    console.print(f"policy for {players} players written to {path}", markup=False)
    console.print(f"play it with the seat 'bot:learned?path={path}'", markup=False)


def self_play_command(
    console: Console,
    game: str,
    players: int,
    anchors: list[str],
    steps: int,
    generations: int,
    seed: int,
    judge: str,
    judge_games: int,
    out: Path,
    imitate: str | None = None,
    imitate_decisions: int = 20_000,
) -> None:
    """`--self-play`: the league (learn/selfplay.py), a line per generation as it ends."""
    from rich.table import Table

    from gamenight.learn.selfplay import Generation, self_play

    def said(point: Generation) -> None:
        console.print(
            f"generation {point.generation}: {point.decisions} decisions, mean payoff "
            f"{point.mean_payoff:.3f} ± {point.interval:.3f} against {point.judge} "
            f"({point.games} deals), won {point.win_share:.0%}",
            markup=False,
        )

    with Progress(
        "[bold]self-play[/bold]", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    ) as bar:
        task = bar.add_task("steps", total=steps * generations)
        curve = self_play(
            game,
            players,
            generations,
            steps,
            seed=seed,
            anchors=anchors,
            judge_bot=judge,
            judge_games=judge_games,
            imitate=imitate,
            imitate_decisions=imitate_decisions,
            out=out,
            on_progress=lambda n: bar.advance(task, n),
            on_generation=said,
        )
    table = Table("generation", "decisions", f"mean payoff vs {judge}", "won")
    for p in curve:
        table.add_row(
            str(p.generation),
            str(p.decisions),
            f"{p.mean_payoff:.3f} ± {p.interval:.3f}",
            f"{p.win_share:.0%}",
        )
    console.print(table)
    league = out.parent / f"{out.stem}-league"
    console.print(f"the league's snapshots and its curve (curve.png) are in {league}", markup=False)
    _written(console, players, out)
