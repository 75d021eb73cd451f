"""`play` and `replay`: one game at the terminal, through the game's own terminal module.

A game's `terminal` module draws a view (`render`), lists and reads moves
(`describe_actions`, `parse`), and words events and actions (`describe_event`,
`describe`); it may also draw a picture after a move (`picture`, `picture_after`).

Players are numbered from 1 on screen and in what a person types (`replay --seat 1` is the
first player), as the web pages number seats; the engine's seats count from 0.
"""

from __future__ import annotations

import random
import tempfile
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.cells import cell_len
from rich.console import RenderableType
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from gamenight import bots as bot_registry
from gamenight.cli.helptext import filled
from gamenight.cli.output import BAD_INPUT, STOPPED, err, fail, interrupted, out, say, show
from gamenight.cli.root import app
from gamenight.engine.codec import load_game, save_game
from gamenight.engine.core import Action, BadInput, Game, IllegalAction, State
from gamenight.engine.driver import Bot
from gamenight.engine.options import player_seat, seat_options
from gamenight.engine.registry import games, load, options_class, spec
from gamenight.games.terminal_text import echo, player
from gamenight.i18n import N_, _, ngettext
from gamenight.i18n.refusals import translate

PEOPLE = ("you", "human", "me", "person")

GameName = Annotated[
    str,
    typer.Argument(
        metavar=N_("GAME"), help=filled(N_("one of: {games}"), games=", ".join(games()))
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar=N_("OPTION=VALUE"),
        help=N_("a game option (repeatable); see `gamenight options GAME`"),
    ),
]


def terminal_of(game_name: str) -> ModuleType:
    """The game's terminal module, as its GameSpec names it."""
    return spec(game_name).module("terminal")


def parse_sets(sets: list[str] | None, game: str) -> dict[str, Any]:
    """`--set option=value` as the game's options take them. A seat option (declared
    `seat=True`) is typed as a player number from 1 and becomes the engine's index."""
    options: dict[str, Any] = {}
    seats = seat_options(options_class(game)) if sets else ()
    for item in sets or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadInput(_("--set takes option=value, got {item}").format(item=echo(item)))
        name = key.strip().replace("-", "_")
        options[name] = player_seat(name, value) if name in seats else value.strip()
    return options


def player_name(seat: int, people: list[int]) -> str:
    """ "player 1" for seat 0; "(you)" when one person plays against bots."""
    return player(seat, people[0] if len(people) == 1 else None)


def _describe(ui: ModuleType, action: Action) -> str:
    words = getattr(ui, "describe", None)
    return str(words(action)) if words is not None else str(action)


# --- play ------------------------------------------------------------------------------


@dataclass
class Pictures:
    """Numbered pictures of the table after each move that asks for one (one file per
    drop, so a bot's drop does not overwrite yours); a folder that cannot be written falls
    back to a temporary one, once."""

    folder: Path
    stem: str
    open_them: bool
    count: int = 0
    given_up: bool = False

    def draw(self, ui: ModuleType, state: State) -> None:
        if self.given_up:
            return
        self.count += 1
        for attempt in range(2):
            path = self.folder / f"{self.stem}-{self.count:03d}.png"
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                written = Path(ui.picture(state, path))
            except OSError as error:
                if attempt == 0:
                    fallback = Path(tempfile.gettempdir()) / "gamenight-pictures"
                    note = _("note: cannot write pictures in {folder} ({error}); using {fallback}")
                    err.print(
                        Text(
                            note.format(
                                folder=self.folder,
                                error=error.strerror or error,
                                fallback=fallback,
                            )
                        ),
                        soft_wrap=True,
                    )
                    self.folder = fallback
                    continue
                err.print(Text(_("note: cannot write pictures; going on without them")))
                self.given_up = True
                return
            say(_("picture: {path}").format(path=written), "dim")
            if self.open_them:
                webbrowser.open(written.resolve().as_uri())
            return


@dataclass
class Sitting:
    """One game at one keyboard: who is a person, what each viewer has been shown."""

    state: State
    bots: list[Bot | None]
    ui: ModuleType
    pictures: Pictures | None
    people: list[int] = field(init=False)
    shown: dict[int | None, int] = field(default_factory=dict)
    at_keyboard: int | None = None

    def __post_init__(self) -> None:
        self.people = [s for s, bot in enumerate(self.bots) if bot is None]

    @property
    def shared(self) -> bool:
        """Several people at one keyboard: hands are shown only to the one looking."""
        return len(self.people) > 1

    def narrate(self, viewer: int | None) -> None:
        """Print the events `viewer` may see that were not shown to them yet."""
        events = self.state.events(viewer)
        for event in events[self.shown.get(viewer, 0) :]:
            line = self.ui.describe_event(event)
            if line:
                say(line)
        self.shown[viewer] = len(events)

    def hand_over(self, seat: int) -> None:
        """Clear the screen and wait until only `seat`'s person is looking."""
        if self.at_keyboard == seat:
            return
        out.clear()
        hand_over = _("Pass the keyboard to {player}; press Enter when only they are looking.")
        out.input(Text(hand_over.format(player=player(seat)) + " ", style="bold"))
        out.clear()
        self.at_keyboard = seat
        say(_("{player}: since your last move").format(player=player(seat)), "dim")

    def ask(self, seat: int) -> None:
        """Ask a person until they give a legal action; explain every bad input. The table
        and the question (the moves, the hint, the prompt) fit one screen: the moves go
        in columns, and in pages when even those do not fit (Enter shows the next)."""
        name = player_name(seat, self.people)
        table = self.ui.render(self.state.view(seat))
        hint = getattr(self.ui, "hint", None)
        words = hint(self.state, seat) if hint is not None else None
        below = (_height(Text(words)) if words else 0) + 1  # the hint, the prompt
        pages = menu_pages(
            self.ui.describe_actions(self.state, seat),
            out.width,
            out.height - _height(table) - below,
        )
        page = 0
        while True:
            show(table)
            for row in pages[page]:
                say(row)
            if words:
                say(words, "dim")
            while True:
                text = Prompt.ask(
                    Text(_("{player}, your move").format(player=name), style="bold"), console=out
                )
                if len(pages) > 1 and text.strip().lower() in ("", "more"):
                    page = (page + 1) % len(pages)
                    break
                try:
                    self.state.act(seat, self.ui.parse(text, self.state, seat))
                    return
                except (BadInput, IllegalAction) as error:
                    # a refusal in the terminal's language (LANG), said by the game's catalogue
                    why = error.reason if isinstance(error, IllegalAction) else str(error)
                    say(translate(why), "yellow")

    def move(self) -> None:
        seat = self.state.actors[0]
        bot = self.bots[seat]
        legal = self.state.actions(seat)
        if bot is not None:
            self.state.act(seat, bot.choose(self.state, seat))
        elif len(legal) == 1 and not self.shared:
            # Alone at the keyboard nobody can read the timing: a forced move (most often
            # a pass in a reaction window) is made at once, in one short line.
            self.narrate(seat)
            self.state.act(seat, legal[0])
            words = _describe(self.ui, legal[0])
            forced = _("{player}: {move} (no other choice)")
            say(forced.format(player=player_name(seat, self.people), move=words), "dim")
        else:
            if self.shared:
                self.hand_over(seat)
            self.narrate(seat)
            self.ask(seat)
        action = self.state.history[-1][1]
        after = getattr(self.ui, "picture_after", None)
        if self.pictures is not None and after is not None and after(action):
            if not self.shared:
                self.narrate(self.people[0] if self.people else None)  # the caption first
            self.pictures.draw(self.ui, self.state)

    def play(self) -> None:
        solo = self.people[0] if len(self.people) == 1 else None
        while not self.state.over:
            if not self.shared:
                self.narrate(solo)
            self.move()
        if self.shared:
            out.clear()
            self.at_keyboard = None
        self.narrate(solo)
        show(self.ui.render(self.state.view(solo)))


def seat_bot(spec: str, game: Game, seed: int = 0) -> Bot:
    """The bot of a seat (`bot`, `bot:NAME?param=value`, a level). A bot refuses a value
    outside the range it declares with a ValueError (ismcts: iterations >= 1 or seconds >
    0), which was an "unexpected ValueError" with a crash file: here it is BadInput; a
    parameter without a declared range (threshold's stop_at) is taken as given."""
    try:
        return bot_registry.make_seat(spec, game, seed)
    except BadInput:
        raise
    except ValueError as error:
        said = _("bot {bot}: {error}").format(bot=spec.removeprefix("bot:"), error=error)
        raise BadInput(said) from error


def check_seat(spec: str, game: Game) -> None:
    """Make the seat's bot once, so its parameters are refused before the first game."""
    seat_bot(spec, game)


def _height(renderable: RenderableType) -> int:
    """The lines `renderable` takes on the terminal."""
    return len(out.render_lines(renderable, out.options, pad=False))


def menu_pages(lines: list[str], width: int, rows: int) -> list[list[str]]:
    """The numbered moves in at most `rows` lines of `width`: one a line when they fit,
    else several a line (in reading order), else in pages of those, each ending with a
    line saying how to see the next (Enter at the prompt)."""
    rows = max(rows, 2)
    digits = len(str(len(lines)))
    entries = [f"{i:>{digits}}. {line}" for i, line in enumerate(lines, 1)]
    whole = _layout(entries, width, rows)
    if whole is not None:
        return [whole]
    pages: list[list[str]] = []
    page: list[str] = []
    for entry in entries:  # as many moves on each page as fit above its last line
        if page and _layout([*page, entry], width, rows - 1) is None:
            pages.append(page)
            page = []
        page.append(entry)
    pages.append(page)
    shown = 0
    laid_out = []
    for page in pages:
        shown += len(page)
        if shown < len(entries):
            more = _("... {n} more: press Enter").format(n=len(entries) - shown)
        else:
            more = _("... back to the first: press Enter")
        laid_out.append([*(_layout(page, width, rows - 1) or []), f"  {more}"])
    return laid_out


def _layout(entries: list[str], width: int, rows: int) -> list[str] | None:
    """`entries` in reading order in the fewest columns that fit `rows` lines (a move too
    long for a column takes a line of its own), or None if even four columns do not."""
    for across in (1, 2, 3, 4):
        column = (width - 2) // across
        lines: list[str] = []
        row: list[str] = []
        for entry in entries:
            if across > 1 and cell_len(entry) <= column - 2:
                row.append(entry.ljust(column))
            else:
                lines += ["  " + "".join(row).rstrip()] if row else []
                lines.append(f"  {entry}")
                row = []
            if len(row) == across:
                lines.append("  " + "".join(row).rstrip())
                row = []
        lines += ["  " + "".join(row).rstrip()] if row else []
        if sum(1 + (cell_len(line) - 1) // width for line in lines) <= rows:
            return lines
    return None


def _bots(game: Game, seats: list[str], seed: int) -> list[Bot | None]:
    """None for a person; a seeded bot otherwise."""
    return [
        None if text.lower() in PEOPLE else seat_bot(text, game, seed * 100 + i)
        for i, text in enumerate(seats)
    ]


def _seat_list(seats: str) -> list[str]:
    found = [s.strip() for s in seats.split(",")]
    if not any(found) or not all(found):
        said = _(
            "--seats needs one entry per seat, separated by commas (you, bot, bot:NAME), "
            "got {seats}"
        )
        raise BadInput(said.format(seats=echo(seats)))
    return found


@app.command(help=N_("Play a game in the terminal against bots, or with friends at one keyboard."))
def play(
    game: GameName,
    seats: Annotated[
        str,
        typer.Option(
            metavar=N_("SEATS"),
            help=N_(
                "one entry per seat, comma-separated: you, bot, bot:NAME?param=value, or a "
                "level (easy, medium, hard); several 'you' share the keyboard"
            ),
        ),
    ] = "you,bot,bot",
    seed: Annotated[
        int | None,
        typer.Option(metavar=N_("NUMBER"), help=N_("seed of the game (random if not given)")),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(metavar=N_("FILE"), help=N_("write seed + moves to this file")),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(metavar=N_("MODE"), help=N_("the game's mode option, if it has one")),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(metavar=N_("VARIANT"), help=N_("the game's variant option, if it has one")),
    ] = None,
    pictures: Annotated[
        Path,
        typer.Option(metavar=N_("FOLDER"), help=N_("where games with pictures write one per move")),
    ] = Path("."),
    open_pictures: Annotated[
        bool, typer.Option("--open", help=N_("open each picture in the browser"))
    ] = False,
    set_: SetOpt = None,
) -> None:
    """`gamenight play`: one game at this keyboard."""
    seed = seed if seed is not None else random.randrange(1 << 31)
    try:
        seat_list = _seat_list(seats)
        options: dict[str, Any] = parse_sets(set_, game)
        if mode is not None:
            options["mode"] = mode
        if variant is not None:
            options["variant"] = variant
        options.setdefault("players", len(seat_list))
        the_game = load(game, **options)
        if the_game.players != len(seat_list):
            said = ngettext(
                "{game} with these options has {n} seat, not {given}",
                "{game} with these options has {n} seats, not {given}",
                the_game.players,
            )
            raise BadInput(said.format(game=game, n=the_game.players, given=len(seat_list)))
        bots = _bots(the_game, seat_list, seed)
        ui = terminal_of(game)
    except BadInput as error:
        raise fail(str(error)) from error
    if save is not None:
        _check_writable(save)
    picturing = Pictures(pictures, f"{game}-{seed}", open_pictures)
    sitting = Sitting(the_game.start(seed), bots, ui, picturing)
    heading = _("{game}, seed {seed}, seats: {seats}")
    say(heading.format(game=game, seed=seed, seats=", ".join(seat_list)), "bold")
    by_ctrl_c = input_ended = False
    try:
        sitting.play()
    except KeyboardInterrupt:
        by_ctrl_c = True
    except EOFError:
        input_ended = True
    finally:
        if save is not None:
            _save(save, the_game, seed, sitting.state)
    if save:
        left = _("game left unfinished; saved to {path}").format(path=save)
    else:
        left = _("game left unfinished")
    if by_ctrl_c:  # a person stopped it: said as such, not as an error
        out.print()
        moves = len(sitting.state.history)
        raise interrupted(_("after {n} moves: {left}").format(n=moves, left=left))
    if input_ended:
        out.print()
        raise fail(left, STOPPED)
    print_outcome(sitting.state, sitting.people)


def _check_writable(path: Path) -> None:
    """Refuse an output path that cannot be written before any work is done."""
    if path.is_dir():
        raise fail(_("{path} is a folder; give a file name").format(path=path))
    folder = path.parent
    if not folder.is_dir():
        said = _("cannot write {path}: the folder {folder} does not exist")
        raise fail(said.format(path=path, folder=folder))
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        said = _("cannot write in {folder}: {error}")
        raise fail(said.format(folder=folder, error=error.strerror or error)) from error


def _save(path: Path, game: Game, seed: int, state: State) -> None:
    try:
        save_game(path, game, seed, state.history)
    except OSError as error:
        note = _("note: could not save to {path}: {error}")
        err.print(Text(note.format(path=path, error=error.strerror or error)))
        return
    say(_("saved to {path}").format(path=path))


def winners_sentence(winners: list[int], people: list[int] | None = None) -> str:
    """ "You win.", "Player 2 wins.", "You and player 3 share the win." (players from 1;
    "you" only when one person played)."""
    me = people[0] if people is not None and len(people) == 1 else None
    if not winners:
        return _("Nobody wins.")
    if winners == [me]:
        return _("You win.")
    ordered = sorted(winners, key=lambda s: (s != me, s))  # "you" first
    names = [_("you") if s == me else player(s) for s in ordered]
    if len(names) == 1:
        line = _("{player} wins.").format(player=names[0])
    else:
        who = _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
        line = _("{players} share the win.").format(players=who)
    return line[:1].upper() + line[1:]


def print_outcome(state: State, people: list[int] | None = None) -> None:
    """The result table (a row per player, from 1) and one plain sentence on who won."""
    result = state.outcome()
    if result.truncated:
        say(_("the game stopped at its length limit: no result"), "yellow")
        return
    table = Table(_("player"), _("score"), _("place"), title=_("result"))
    for s, score in enumerate(result.scores):
        won = s in result.winners
        table.add_row(
            Text(player_name(s, people or []), style="bold green" if won else ""),
            f"{score:g}",
            str(result.ranks[s]),
        )
    show(table)
    say(winners_sentence(list(result.winners), people), "bold green")


# --- replay ----------------------------------------------------------------------------


@app.command(help=N_("Show a saved game move by move; the replay reaches the same final state."))
def replay(
    file: Annotated[
        Path, typer.Argument(metavar=N_("FILE"), help=N_("a file written by play --save"))
    ],
    seat: Annotated[
        int | None,
        typer.Option(
            metavar=N_("PLAYER"),
            help=N_("show the game as this player saw it (players count from 1)"),
        ),
    ] = None,
    reveal: Annotated[bool, typer.Option(help=N_("show every event (all hidden cards)"))] = False,
) -> None:
    """`gamenight replay`: a saved game, move by move."""
    try:
        game, seed, history = load_game(file)
        ui = terminal_of(game.name)
    except BadInput as error:
        raise fail(str(error)) from error
    except (UnicodeDecodeError, ValueError) as error:
        said = _("{file} is not a gamenight replay (not readable as text JSON)")
        raise fail(said.format(file=file)) from error
    if seat is not None and not 1 <= seat <= game.players:
        said = _("--seat must be a player of this game: 1 to {n}, got {seat}")
        raise fail(said.format(n=game.players, seat=seat))
    viewer = None if seat is None else seat - 1
    state = game.start(seed)
    shown = 0
    for number, (who, action) in enumerate(history, 1):
        try:
            state.act(who, action)
        except (IllegalAction, IndexError, ValueError) as error:
            said = _("{file}: move {number} ({player}) is illegal: {error}")
            raise fail(
                said.format(file=file, number=number, player=player(who), error=error), BAD_INPUT
            ) from error
        say(f"{number:4d}. {player(who)}: {_describe(ui, action)}", "dim")
        events = state.log if reveal else state.events(viewer)
        for event in events[shown:]:
            line = ui.describe_event(event)
            if line:
                say(line)
        shown = len(events)
    show(ui.render(state.view(viewer)))
    if state.over:
        print_outcome(state, None if viewer is None else [viewer])
    else:
        stops = _("the saved game stops before the end ({n} moves)")
        say(stops.format(n=len(history)), "yellow")
