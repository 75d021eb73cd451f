"""`gamenight learn GAME`: the game's guided first game at the terminal (issue 46, item 1),
the same script as the tutorial page (/learn/GAME) through the same runner
(engine/tutorial.py). Each step shows the table, says what to do in one sentence, lists the
moves with the one it asks for marked, refuses any other move with the reason, then says
what happened and why, in the terminal's language (LANG: the script's words from the game's
catalogue, i18n.tutorial_in). Rich `Text` only (never markup)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.prompt import Prompt
from rich.text import Text

from gamenight.cli.helptext import filled
from gamenight.cli.output import fail, out, say, show
from gamenight.cli.root import app
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.engine.registry import games, spec
from gamenight.engine.tutorial import Lesson, Step
from gamenight.i18n import N_, _, tutorial_in
from gamenight.i18n.refusals import message_of, translate


@app.command("learn", help=N_("Learn a game by playing a short guided game against bots."))
def learn(
    game: Annotated[
        str,
        typer.Argument(
            metavar=N_("GAME"), help=filled(N_("one of: {games}"), games=", ".join(games()))
        ),
    ],
) -> None:
    """`gamenight learn GAME`."""
    try:
        found = spec(game)
    except BadInput as err:
        raise fail(
            _("no game {game}; games: {games}").format(game=repr(game), games=", ".join(games()))
        ) from err
    try:
        tutorial = found.tutorial().TUTORIAL
    except ModuleNotFoundError as err:
        raise fail(_("{game} has no guided game yet").format(game=found.title)) from err
    tutorial = tutorial_in(tutorial, found.package)  # in the terminal's language
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
        about = _("About {minutes} minutes, {steps} steps.")
        say(f"{tutorial.intro} {about.format(minutes=tutorial.minutes, steps=len(steps))}")
        others = [
            _("{name} is player {number}").format(name=name, number=seat + 1)
            for seat, name in enumerate(tutorial.names)
        ]
        say(
            _("You are player {number}; {others}.").format(
                number=tutorial.seat + 1,
                others=", ".join(line for seat, line in enumerate(others) if seat != tutorial.seat),
            ),
            "dim",
        )
        for k, step in enumerate(steps):
            self.narrate(k)
            show(self.ui.render(self.lesson.before(k).view(tutorial.seat)))  # type: ignore[attr-defined]
            words = step.keys if step.look and step.keys else step.say  # (no Peek button here)
            heading = _("Step {number} of {steps}:").format(number=k + 1, steps=len(steps))
            out.print(Text(f"{heading} {words}", style="bold"))
            self.ask(k, step)
            out.print(Text.assemble((_("Done.") + " ", "bold green"), step.why))
        self.narrate(len(steps))
        say(tutorial.outro, "bold")
        command = f"gamenight play {self.lesson.game_name} --seats you,easy"
        say(_("Play a real game: {command}").format(command=command), "dim")

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
                Text(_("Enter to go on"), style="bold"), console=out, default="", show_default=False
            )
            return
        self.moves(k, step)
        say(step.keys or _("Type the number of the line marked ->."), "dim")
        while True:
            text = Prompt.ask(Text(_("your move"), style="bold"), console=out)
            try:
                action = self.ui.parse(text, self.lesson.before(k), seat)  # type: ignore[attr-defined]
            except (BadInput, IllegalAction) as error:  # in the terminal's language
                say(translate(message_of(error)), "yellow")
                continue
            answer = self.lesson.answer(k, action.to_json())
            if answer.accepted:
                return
            say(translate(answer.reason), "yellow")  # (a rules' refusal is a game's Reason)
