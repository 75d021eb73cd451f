"""Words every game's terminal module shares: how a player is named, how typed input is
echoed in a refusal, and how typed words pick one of the listed actions.

Players are numbered from 1 on screen, as the web pages number seats ("player 1" is seat
0); anything a person types that names a player follows the same numbering.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from gamenight.engine.core import Action, BadInput, State
from gamenight.i18n import DEFAULT, N_, _, current, use
from gamenight.i18n.refusals import translate

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions
    from rich.measure import Measurement
    from rich.text import Text

ECHO_LIMIT = 40  # characters of a person's input repeated in a refusal

# What each symbol the terminal may show becomes where it cannot be shown (an ASCII-only
# locale such as LANG=C): the tables pick these themselves (`symbol`), so columns still
# line up; `gamenight` also writes any other such character this way, never as "?".
ASCII = {
    "●": "o",
    "■": "#",
    "▲": "^",
    "◆": "<>",
    "▶": ">",
    "…": "...",
    "°": " deg",
    "§": "section ",
    "²": "^2",
    "θ": "theta",
    "ω": "omega",
    "±": "+-",
    "×": "x",
    "·": "*",
    "—": "-",
    "–": "-",
    "→": "->",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
}


def shown_as(text: str) -> str:
    """`text` as the terminal (stdout) can show it: as it is, or with the ASCII of each
    symbol it cannot encode ("?" for a character without one)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return "".join(ch if _encodes(ch, encoding) else ASCII.get(ch, "?") for ch in text)
    except LookupError:  # an encoding Python does not know: ASCII is safe
        return "".join(ch if ch.isascii() else ASCII.get(ch, "?") for ch in text)
    return text


def _encodes(ch: str, encoding: str) -> bool:
    try:
        ch.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted for a one-line refusal: spaces collapsed, at most `limit` characters
    (then "…"), control characters escaped."""
    words = " ".join(str(text).split())
    if len(words) > limit:
        words = words[:limit].rstrip() + shown_as("…")
    return repr(words)


def player(seat: int, me: int | None = None) -> str:
    """Seat 0 is "player 1" (and "player 1 (you)" to the person in it), in LANG's words."""
    if me is not None and seat == me:
        return _("player {number} (you)").format(number=seat + 1)
    return _("player {number}").format(number=seat + 1)


def players(seats: Sequence[int], me: int | None = None) -> str:
    """ "player 1", "player 1 and player 3", "player 1, player 2 and player 3"."""
    names = [player(s, me) for s in seats]
    if len(names) < 2:
        return "".join(names)
    # "player 1 and player 3"; "player 1, player 2 and player 3"
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


# The answers to a yes/no question: the words that say each (separated by spaces; the
# first is the short one the question shows), English's and the terminal language's.
_YES = N_("y yes")
_NO = N_("n no")
# The question's answers as it shows them; the default (Enter) in capitals.
_ASKED = {None: N_("[y/n]"), True: N_("[Y/n]"), False: N_("[y/N]")}


def yes_or_no(text: str, default: bool | None = None) -> bool | None:
    """A typed answer to a yes/no question: True, False, or None when it says neither.
    The English words ("y", "yes", "n", "no") and LANG's ("j"/"ja" and "n"/"nein", "j"/"ja"
    and "n"/"nee", "д"/"да" and "н"/"нет") are each accepted in every language, in any
    case; an empty answer (Enter) is `default`."""
    typed = " ".join(text.split()).casefold()
    if not typed:
        return default
    for answers, meaning in ((_YES, True), (_NO, False)):
        if typed in answers.split() + _(answers).casefold().split():
            return meaning
    return None


def yes_no(default: bool | None = None) -> str:
    """The answers a yes/no question shows, in LANG's letters: "[y/n]", "[j/N]", "[д/н]"."""
    return _(_ASKED[default])


# A word is anything between spaces and punctuation; "-200", "x3" and "d3" stay one word.
_WORD = re.compile(r"[^\s,;:()!?'\"\[\]]+")
_NUMBER = re.compile(r"[-+]?\d+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _fits(typed: list[str], line: list[str], prefix: bool) -> bool:
    """Every typed word is one of the line's words, in the line's order (a word may be
    the start of the line's word when `prefix`; a number must be whole)."""
    at = 0
    for t in typed:
        while at < len(line) and not (
            line[at] == t or (prefix and not _NUMBER.fullmatch(t) and line[at].startswith(t))
        ):
            at += 1
        if at == len(line):
            return False
        at += 1
    return True


def _shared_start(lines: list[list[str]]) -> int:
    """How many first words all `lines` share ("choose colour" of "choose colour red")."""
    n = 0
    while all(len(line) > n and line[n] == lines[0][n] for line in lines):
        n += 1
    return n


def _hint_word(lines: list[list[str]], i: int) -> str | None:
    """A word of line `i` that no other line has (the shortest), to show as an example."""
    others = {w for j, line in enumerate(lines) if j != i for w in line}
    own = [w for w in lines[i] if w not in others]
    return min(own, key=len) if own else None


def pick(
    text: str,
    legal: Sequence[Action],
    lines: Sequence[str],
    *,
    shown: int = 4,
) -> Action:
    """The one action in `legal` (listed on screen as `lines`, numbered from 1) that
    `text` names: its number, its whole line, or some of its words in order ("red" for
    "choose colour red", "crush 2 1" for "crush display 2 stack 1"; a word may be cut
    short, a number may not). Case and punctuation do not matter. Input that fits several
    actions, or none, is refused in one line that says what to type."""
    assert len(legal) == len(lines)
    if not legal:
        raise BadInput(_("you owe no decision now; wait for your turn"))
    typed = words(text)
    n = len(legal)
    if not typed:
        raise BadInput(_("type the number of an action (1..{n}) or its words").format(n=n))
    if len(typed) == 1 and typed[0].isdecimal():
        i = int(typed[0])
        if 1 <= i <= n:
            return legal[i - 1]
        raise BadInput(_("no action number {i}; choose 1..{n}").format(i=i, n=n))
    tokens = [words(line) for line in lines]
    found = _fitting(typed, lines)
    if len({lines[i] for i in found}) == 1:  # one action (or copies of one card)
        return legal[found[0]]
    if found:
        cut = _shared_start([tokens[i] for i in found])
        listed = ", ".join(
            f"{i + 1} = {' '.join(tokens[i][cut:]) or lines[i]}" for i in found[:shown]
        )
        if len(found) > shown:
            listed = _("{listed} and {more} more").format(listed=listed, more=len(found) - shown)
        raise BadInput(
            _("{typed} fits {n} actions ({listed}); type more words or a number").format(
                typed=echo(text), n=len(found), listed=listed
            )
        )
    word = _hint_word(tokens, 0)
    if word and [word] != tokens[0]:
        example = _("'{word}' for 1").format(word=word)
    else:
        example = f"'{lines[0]}'"
    raise BadInput(
        _(
            "{typed} is not a legal action now; type 1..{n} or words of one action, e.g. {example}"
        ).format(typed=echo(text), n=n, example=example)
    )


def pick_by(text: str, legal: Sequence[Action], describe: Callable[[Action], str]) -> Action:
    """`pick` with each action's line given by `describe`."""
    return pick(text, legal, [describe(a) for a in legal])


def _fitting(typed: list[str], lines: Sequence[str]) -> list[int]:
    """The lines `typed` fits, by the first test any line passes (the whole line, its
    words in order, the starts of its words in order); none: []."""
    tokens = [words(line) for line in lines]
    for test in (
        lambda line: line == typed,
        lambda line: _fits(typed, line, prefix=False),
        lambda line: _fits(typed, line, prefix=True),
    ):
        found = [i for i, line in enumerate(tokens) if test(line)]
        if found:
            return found
    return []


def pick_or_why(
    text: str,
    state: State,
    seat: int,
    every: Sequence[Action],
    describe: Callable[[Action], str],
) -> Action:
    """`pick_by` over the legal actions; typed words that name only actions the rules
    refuse now (among `every`, the game's whole action space) are answered with the rules'
    reason in player words ("you can't lock this stack: it is already locked"). In another
    language than English, words that fit no line as shown are tried on the English lines
    (`describe` under `use("en")`): "red" still chooses the colour "rot"."""
    legal = state.actions(seat)
    try:
        return pick_by(text, legal, describe)
    except BadInput:
        typed = words(text)
        if not legal or not typed or (len(typed) == 1 and typed[0].isdecimal()):
            raise
        describers: list[Callable[[Action], str]] = [describe]
        if current() != DEFAULT and not _fitting(typed, [describe(a) for a in legal]):
            english = _in_english(describe)
            lines = [english(a) for a in legal]
            found = _fitting(typed, lines)
            if len({lines[i] for i in found}) == 1:  # one action, by its English words
                return legal[found[0]]
            if not found:
                describers.append(english)
        for said in describers:
            every_line = [said(a) for a in every]
            found_at = _fitting(typed, every_line)
            if found_at:
                named = [every[i] for i in found_at]
                if any(a in legal for a in named):  # the legal pick's own message says it
                    raise
                reasons = {state._refusal(seat, a) for a in named} - {None}
                if len(reasons) == 1:
                    reason = reasons.pop() or ""
                    raise BadInput(translate(reason)) from None  # in LANG's words
                raise
        raise


def _in_english(describe: Callable[[Action], str]) -> Callable[[Action], str]:
    """`describe` saying its lines in English."""

    def english(action: Action) -> str:
        with use(DEFAULT):
            return describe(action)

    return english


class Flow:
    """Short pieces (cards, stacks) on as few lines as the width allows, a line broken
    only between two pieces, never inside one ("yellow" at the end of a line and "200" on
    the next). A Rich renderable, also inside a table cell."""

    def __init__(self, pieces: Sequence[Text], separator: str = "  ") -> None:
        self.pieces = list(pieces)
        self.separator = separator

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        widths = [p.cell_len for p in self.pieces] or [0]
        gaps = len(self.separator) * (len(widths) - 1)
        return Measurement(max(widths), sum(widths) + gaps).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        from rich.text import Text

        line = Text()
        for piece in self.pieces:
            gap = self.separator if line else ""
            if line and line.cell_len + len(gap) + piece.cell_len > options.max_width:
                yield line
                line, gap = Text(), ""
            line += Text(gap) + piece
        yield line
