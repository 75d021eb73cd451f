"""The `gamenight train` command (registered by cli/root.py), in the terminal's language."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from gamenight.cli.helptext import filled
from gamenight.cli.output import fixed, one_line, percent, whole
from gamenight.engine.core import BadInput
from gamenight.engine.registry import games
from gamenight.i18n import N_, _, ngettext

GameName = Annotated[
    str,
    typer.Argument(
        metavar=N_("GAME"), help=filled(N_("one of: {games}"), games=", ".join(games()))
    ),
]

# The help of `gamenight train` (root.register_commands).
HELP = N_(
    "Train a policy for the `learned` bot with MaskablePPO (needs the [learn] extra), saved as "
    "numpy in ./learned-GAME.npz unless --out says otherwise; the shipped policy is left "
    "alone. Play it with the seat `bot:learned?path=learned-GAME.npz`."
)


def train_command(
    game: GameName,
    players: Annotated[int, typer.Option(metavar=N_("NUMBER"), help=N_("seats at the table"))] = 2,
    opponents: Annotated[
        str,
        typer.Option(metavar=N_("BOTS"), help=N_("comma list of opponent bots, seated in turn")),
    ] = "bot",
    steps: Annotated[
        int,
        typer.Option(metavar=N_("NUMBER"), min=1, help=N_("learner decisions to train on")),
    ] = 200_000,
    seed: Annotated[
        int, typer.Option(metavar=N_("NUMBER"), help=N_("seed of the training run"))
    ] = 0,
    self_play: Annotated[
        bool,
        typer.Option(
            "--self-play",
            help=N_(
                "train against a league of its own past policies (and --opponents as "
                "anchors, default random); see docs/self-play.md"
            ),
        ),
    ] = False,
    generations: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"),
            min=0,
            help=N_(
                "self-play: snapshots added to the league (--steps each); 0 with --imitate: "
                "the imitation alone"
            ),
        ),
    ] = 8,
    judge: Annotated[
        str,
        typer.Option(
            metavar=N_("BOT"), help=N_("self-play: the bot each generation is measured against")
        ),
    ] = "random",
    judge_games: Annotated[
        int, typer.Option(metavar=N_("NUMBER"), min=1, help=N_("self-play: deals per measure"))
    ] = 100,
    imitate: Annotated[
        str | None,
        typer.Option(
            metavar=N_("BOT"),
            help=N_("self-play: first learn this bot's moves (behaviour cloning)"),
        ),
    ] = None,
    imitate_decisions: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"),
            min=1,
            help=N_("self-play: decisions of --imitate to learn from"),
        ),
    ] = 20_000,
    imitate_rounds: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"),
            min=0,
            help=N_(
                "self-play: DAgger rounds after imitating: the network plays "
                "--imitate-decisions more, the bot says its move at each, and it learns again"
            ),
        ),
    ] = 0,
    imitate_epochs: Annotated[
        int,
        typer.Option(
            metavar=N_("NUMBER"), min=1, help=N_("self-play: passes over the imitated moves")
        ),
    ] = 6,
    keep_best: Annotated[
        bool,
        typer.Option(
            "--keep-best",
            help=N_(
                "self-play: write the generation that measured best against --judge "
                "(default: the last)"
            ),
        ),
    ] = False,
    snapshots: Annotated[
        bool,
        typer.Option(
            "--snapshots/--no-snapshots",
            show_default=False,  # (the help says it; Typer would print "snapshots" bare)
            help=N_(
                "self-play: play the league's own snapshots too (default); "
                "--no-snapshots trains against --opponents alone, a best response to them"
            ),
        ),
    ] = True,
    hidden: Annotated[
        str,
        typer.Option(
            metavar=N_("UNITS"),
            help=N_("units of each hidden layer of the network, comma-separated"),
        ),
    ] = "64,64",
    out: Annotated[
        Path | None,
        typer.Option(
            metavar=N_("FILE"),
            help=N_(
                "policy file to write (default: ./learned-GAME.npz); "
                "play it with the seat bot:learned?path=FILE"
            ),
        ),
    ] = None,
) -> None:
    """`gamenight train` (its help: HELP)."""
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
        target = policy_file(out if out is not None else default_out(game))
        layers = hidden_layers(hidden)
        if self_play:
            self_play_command(
                console,
                game,
                players,
                steps,
                generations,
                target,
                seed=seed,
                anchors=texts,
                judge_bot=judge_text,
                judge_games=judge_games,
                imitate=teacher_text,
                imitate_decisions=imitate_decisions,
                imitate_rounds=imitate_rounds,
                imitate_epochs=imitate_epochs,
                hidden=layers,
                keep_best=keep_best,
                snapshots=snapshots,
            )
            return
        with Progress(
            TextColumn(_("training"), style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
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
        said = one_line(err.args[0] if err.args else str(err))
        console.print(Text.assemble((_("error") + ": ", "red"), (said, "red")), soft_wrap=True)
        raise typer.Exit(2) from err
    _written(console, players, path)


def policy_file(path: Path) -> Path:
    """The file a run writes: numpy adds ".npz" to a name without it, so the name said and
    the seat printed are that one; a folder that is not there is refused, as every other
    command's output (a typo would make folders from the root)."""
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    if not path.parent.is_dir():
        raise BadInput(
            _("cannot write {path}: the folder {folder} does not exist").format(
                path=path, folder=path.parent
            )
        )
    return path


def hidden_layers(text: str) -> tuple[int, ...]:
    """`--hidden` ("256,256"): each hidden layer's units, or BadInput in one line."""
    try:
        units = tuple(int(part) for part in text.split(","))
    except ValueError:
        units = ()
    if not units or not all(1 <= u <= 4096 for u in units):
        raise BadInput(
            _("--hidden takes whole numbers from 1 to 4096, comma-separated; not {text!r}").format(
                text=text
            )
        )
    return units


def _written(console: Console, players: int, path: Path) -> None:
    said = ngettext(
        "policy for {n} player written to {path}",
        "policy for {n} players written to {path}",
        players,
    )
    console.print(said.format(n=players, path=path), markup=False)
    seat = f"'bot:learned?path={path}'"
    console.print(_("play it with the seat {seat}").format(seat=seat), markup=False)


def self_play_command(
    console: Console,
    game: str,
    players: int,
    steps: int,
    generations: int,
    out: Path,
    **league: Any,
) -> None:
    """`--self-play`: the league (learn/selfplay.py; `league`: its keyword arguments), a
    line per generation as it ends."""
    from rich.table import Table

    from gamenight.learn.selfplay import Generation, best_generation, self_play

    def said(point: Generation) -> None:
        decisions = ngettext("{n} decision", "{n} decisions", point.decisions)
        deals = ngettext("{n} deal", "{n} deals", point.games)
        line = _(
            "generation {generation}: {decisions}, mean payoff {payoff} against {judge} "
            "({deals}), won {share}"
        )
        console.print(
            line.format(
                generation=point.generation,
                decisions=decisions.format(n=whole(point.decisions)),
                payoff=f"{fixed(point.mean_payoff, 3)} ± {fixed(point.interval, 3)}",
                judge=point.judge,
                deals=deals.format(n=whole(point.games)),
                share=percent(point.win_share, 0),
            ),
            markup=False,
        )

    def imitated(round_: int, agreement: float) -> None:
        line = _(
            "imitation, round {round} of {rounds}: agrees with {teacher} on {share} "
            "of held-out moves"
        )
        said_line = line.format(
            round=round_,
            rounds=league.get("imitate_rounds", 0),
            teacher=league.get("imitate"),
            share=percent(agreement, 1),
        )
        console.print(said_line, markup=False)

    with Progress(
        TextColumn(_("self-play"), style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ) as bar:
        task = bar.add_task("steps", total=max(1, steps * generations))
        curve = self_play(
            game,
            players,
            generations,
            steps,
            out=out,
            on_progress=lambda n: bar.advance(task, n),
            on_generation=said,
            on_imitation=imitated,
            **league,
        )
    table = Table(
        _("generation"),
        _("decisions"),
        _("mean payoff vs {judge}").format(judge=league["judge_bot"]),
        _("won"),
    )
    for p in curve:
        table.add_row(
            str(p.generation),
            whole(p.decisions),
            f"{fixed(p.mean_payoff, 3)} ± {fixed(p.interval, 3)}",
            percent(p.win_share, 0),
        )
    console.print(table)
    folder = out.parent / f"{out.stem}-league"
    where = _("the league's snapshots and its curve (curve.png) are in {path}")
    console.print(where.format(path=folder), markup=False)
    if league.get("keep_best") and curve:
        kept = best_generation(curve)
        console.print(_("written: generation {generation}, the best against the judge").format(
            generation=kept), markup=False)  # fmt: skip
    _written(console, players, out)
