"""`gamenight rules GAME [CARD]`: a game's rules in player words, by section, or the rule of
one card, piece or term; the same text as the rules panel beside a table (the game's
`rules` module). Rich `Text` only (never markup), wrapped to the terminal (80 columns when
not one), and each symbol in its ASCII where the terminal cannot show it (LANG=C)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Group
from rich.text import Text

from gamenight.cli.helptext import filled
from gamenight.cli.output import fail, out, show
from gamenight.cli.root import app
from gamenight.engine.core import BadInput
from gamenight.engine.registry import games, spec
from gamenight.games.terminal_text import shown_as
from gamenight.i18n import N_, _, rules_in

CLAUSE_STYLE = "dim"
WIDTH = 80  # the widest the rules are set, on a wider terminal too
INDENT = "  "


def _clauses(clauses: tuple[str, ...]) -> Text:
    return Text(shown_as(f"({', '.join(clauses)})"), style=CLAUSE_STYLE)


def _normal(words: str) -> str:
    """ "Stop!", "stop", "take_random", "Take a card" compared alike."""
    return "".join(ch for ch in words.casefold() if ch.isalnum())


def find_entry(entries: tuple[Any, ...], asked: str) -> Any | None:
    """The entry whose key or name is `asked` (case, spaces, "_" and "!" do not matter)."""
    wanted = _normal(asked)
    for entry in entries:
        if wanted in (_normal(entry.key), _normal(entry.name)):
            return entry
    return None


def entry_text(entry: Any) -> Text:
    return Text.assemble(
        (shown_as(entry.name), "bold"), ": ", shown_as(entry.rule), " ", _clauses(entry.clauses)
    )


def indented(text: Text) -> Text:
    """`text` wrapped to the terminal (at most WIDTH), every line indented, no trailing
    spaces (a piped or copied text stays clean)."""
    lines = text.wrap(out, min(out.width, WIDTH) - len(INDENT))
    for line in lines:
        line.rstrip()
    return Text("\n").join(Text(INDENT) + line for line in lines)


def whole_rules(title: str, rules: Any) -> Group:
    """Every section (title, clauses, paragraphs), then every entry, one a paragraph."""
    top = _("{title}: the rules").format(title=title)
    parts: list[Text] = [Text(shown_as(top), style="bold underline")]
    for section in rules.SECTIONS:
        heading = Text.assemble((shown_as(section.title), "bold"), " ", _clauses(section.clauses))
        parts += [Text(), heading, *(indented(Text(shown_as(p))) for p in section.paragraphs)]
    parts += [Text(), Text(shown_as(rules.ENTRIES_TITLE), style="bold")]
    parts += [indented(entry_text(entry)) for entry in rules.ENTRIES]
    return Group(*parts)


@app.command(
    "rules", help=N_("Show a game's rules in player words, or the rule of one card or piece.")
)
def show_rules(
    game: Annotated[
        str,
        typer.Argument(
            metavar=N_("GAME"), help=filled(N_("one of: {games}"), games=", ".join(games()))
        ),
    ],
    card: Annotated[
        str | None,
        typer.Argument(metavar=N_("[CARD]"), help=N_("only this card's, piece's or term's rule")),
    ] = None,
) -> None:
    """`gamenight rules GAME [CARD]`."""
    try:
        found = spec(game)
    except BadInput as err:
        said = _("no game {game}; games: {games}").format(game=repr(game), games=", ".join(games()))
        raise fail(said) from err
    rules = rules_in(found.player_rules(), found.package)  # in the terminal's language
    if card is None:
        show(whole_rules(found.title, rules))
        return
    entry = find_entry(rules.ENTRIES, card)
    if entry is None:
        known = ", ".join(entry.key for entry in rules.ENTRIES)
        said = _("no card or piece {card} in {game}; known: {known}")
        raise fail(said.format(card=repr(card), game=found.title, known=known))
    show(entry_text(entry))
