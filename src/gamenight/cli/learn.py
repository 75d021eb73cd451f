"""`gamenight learn GAME`: the game's guided first game at the terminal (issue 46, item 1),
the same script as the tutorial page (/learn/GAME) through the same runner
(engine/tutorial.py). Each step shows the table, says what to do in one sentence, lists the
moves with the one it asks for marked, refuses any other move with the reason, then says
what happened and why. Rich `Text` only (never markup)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.prompt import Prompt
from rich.text import Text

from gamenight.cli.output import fail, out, say, show
from gamenight.cli.root import app
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.engine.registry import games, spec
from gamenight.engine.tutorial import Lesson, Step


@app.command("learn")
def learn(
    game: Annotated[str, typer.Argument(metavar="GAME", help=f"one of: {', '.join(games())}")],
) -> None:
    """Learn a game by playing a short guided game against bots."""
    try:
        found = spec(game)
    except BadInput as err:
        raise fail(f"no game {game!r}; games: {', '.join(games())}") from err
    try:
        tutorial = found.tutorial().TUTORIAL
    except ModuleNotFoundError as err:
        raise fail(f"{found.title} has no guided game yet") from err
    Guide(Lesson(found.name, tutorial), found.module("terminal")).run()


class Guide:
    """One person through one tutorial at the keyboard."""

    def __init__(self, lesson: Lesson, ui: object) -> None:
        self.lesson = lesson
        self.ui = ui
        self.shown = 0  # events of the person's seat printed so far

    def narrate(self, k: int) -> None:
        events = self.lesson.events(k)
        for event in events[self.shown :]:
            line = self.ui.describe_event(event)  # type: ignore[attr-defined]
            if line:
                say(line)
        self.shown = len(events)

    def run(self) -> None:
        tutorial = self.lesson.tutorial
        steps = self.lesson.steps
        out.print(Text(tutorial.title, style="bold underline"))
        say(f"{tutorial.intro} About {tutorial.minutes} minutes, {len(steps)} steps.")
        others = [f"{name} is player {seat + 1}" for seat, name in enumerate(tutorial.names)]
        say(
            f"You are player {tutorial.seat + 1}; "
            + ", ".join(line for seat, line in enumerate(others) if seat != tutorial.seat)
            + ".",
            "dim",
        )
        for k, step in enumerate(steps):
            self.narrate(k)
            show(self.ui.render(self.lesson.before(k).view(tutorial.seat)))  # type: ignore[attr-defined]
            words = step.keys if step.look and step.keys else step.say  # (no Peek button here)
            out.print(Text(f"Step {k + 1} of {len(steps)}: {words}", style="bold"))
            self.ask(k, step)
            out.print(Text.assemble(("Done. ", "bold green"), step.why))
        self.narrate(len(steps))
        say(tutorial.outro, "bold")
        say(f"Play a real game: gamenight play {self.lesson.game_name} --seats you,easy", "dim")

    def moves(self, k: int, step: Step) -> None:
        """The moves of this step, the one asked for marked with an arrow."""
        state = self.lesson.before(k)
        seat = self.lesson.tutorial.seat
        lines = self.ui.describe_actions(state, seat)  # type: ignore[attr-defined]
        legal = state.actions(seat)
        if len(lines) != len(legal):  # a summary (Drop It's pieces), not one line a move
            for line in lines:
                say(line, "dim")
            return
        for action, line in zip(legal, lines, strict=True):
            asked = step.accepts(action.to_json())
            out.print(Text(f"{'->' if asked else '  '} {line}", style="bold" if asked else "dim"))

    def ask(self, k: int, step: Step) -> None:
        """Until the person does what the step asks; every other input gets its reason."""
        seat = self.lesson.tutorial.seat
        if step.look:
            Prompt.ask(
                Text("Enter to go on", style="bold"), console=out, default="", show_default=False
            )
            return
        self.moves(k, step)
        say(step.keys or "Type the number of the line marked ->.", "dim")
        while True:
            text = Prompt.ask(Text("your move", style="bold"), console=out)
            try:
                action = self.ui.parse(text, self.lesson.before(k), seat)  # type: ignore[attr-defined]
            except (BadInput, IllegalAction) as error:
                say(str(error), "yellow")
                continue
            answer = self.lesson.answer(k, action.to_json())
            if answer.accepted:
                return
            say(answer.reason, "yellow")
