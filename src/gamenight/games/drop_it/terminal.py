"""Drop It in the terminal: a Rich table of the view, and what a person types to drop.

A drop is typed as `<piece> <x> <angle> [depth]`: the piece by colour and kind in any order
with an optional number joined by "-" ("red-circle", "circle-red-1", "red circle"; "rc" also
works because every colour and kind starts with its own letter), x in mm from the left wall,
the angle in degrees counter-clockwise (add "rad" for radians), and an optional depth in mm
below the rim (D11). After a broken rule in the joker variant: "spend" or "keep" (V3).
Players and sides are numbered from 1, as on the web pages.

The table's words come from this game's catalogue (games/drop_it/locale; a piece's and a
colour's name from the platform's, as the pages say them) in the terminal's language
(LANG). A piece is typed by its English words or by its name in LANG's words, as the table
shows it ("roter Kreis", "Kreis rot", "красный-круг"), or by its line number; after a broken
rule "spend"/"keep" or yes/no in either language ("j"/"n" in German).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, BadInput, Event, State
from gamenight.games.drop_it import KEEP, SPEND, Drop, DropItState
from gamenight.games.drop_it.board import COLOURS, KINDS
from gamenight.games.drop_it.render import png
from gamenight.games.terminal_text import echo, pick, player, shown_as, yes_no, yes_or_no
from gamenight.i18n import N_, current, game_gettext, translations
from gamenight.i18n.refusals import translate

# The table's words from this game's catalogue (games/drop_it/locale), in LANG's language.
_, ngettext = game_gettext(__name__.rpartition(".")[0])

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?(deg|rad|°)?")
_JOKER_WORDS = {
    "spend": SPEND,
    "s": SPEND,
    "yes": SPEND,
    "y": SPEND,
    "joker": SPEND,
    "keep": KEEP,
    "k": KEEP,
    "no": KEEP,
    "n": KEEP,
}


# Each piece in its colour with its shape's symbol (a colour-blind player reads the symbol
# and the colour word); where the terminal cannot show a symbol, its ASCII (o # ^ <>).
_ICON = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}


def _icon(kind: str) -> str:
    return shown_as(_ICON.get(kind, ""))


_STYLE = {"red": "bold red", "green": "bold green", "yellow": "bold yellow", "blue": "bold blue"}


def _platform(message: str) -> str:
    """A word of the platform's catalogue (a colour's, a piece's name, as the pages say it)."""
    return translations(current()).gettext(message)


def piece_words(colour: str, kind: str) -> str:
    """ "red", "circle" -> "red circle", in LANG's words ("roter Kreis")."""
    return _platform(f"{colour} {kind}")


def piece_text(piece: str) -> Text:
    """ "red-circle-2" -> "● red circle" in red."""
    colour, kind = _colour_kind(piece)
    return Text(f"{_icon(kind)} {piece_words(colour, kind)}".strip(), style=_STYLE.get(colour, ""))


def _colour_kind(piece: str) -> tuple[str, str]:
    """ "red-circle-2" -> ("red", "circle")."""
    colour, _, rest = piece.partition("-")
    return colour, rest.partition("-")[0]


def describe_result(last: Mapping[str, Any], with_score: bool = True) -> str:
    """One line on where the last drop settled (the level of its highest point, as N6
    counts it) and what it scored."""
    colour, kind = _colour_kind(str(last["piece"]))
    reaches = _("{piece} reaches level {level}")
    parts = [reaches.format(piece=piece_words(colour, kind), level=last["level"])]
    if last.get("bonus"):
        n = len(last["bonus"])
        parts.append(ngettext("covers {n} bonus circle", "covers {n} bonus circles", n).format(n=n))
    broken = [
        _(_RULES[v["rule"]]) if v["rule"] in _RULES else v["rule"] for v in last["violations"]
    ]
    if broken:
        parts.append(_("broke a rule: {rules}").format(rules="; ".join(broken)))
    if not with_score:
        pass
    elif "awarded" in last:
        if last.get("joker_used"):
            parts.append(_("scores {points} with a joker").format(points=last["awarded"]))
        else:
            parts.append(_("scores {points}").format(points=last["awarded"]))
    else:
        pending = _("would score {points}: joker decision pending")
        parts.append(pending.format(points=last["raw_points"]))
    if not last.get("settled", True):
        parts.append(_("still moving when time ran out"))
    return "; ".join(parts)


# The landing rules by the words a player knows them by (spec D18-D22).
_RULES = {
    "SHAPE": N_("touches a piece of the same shape"),
    "COLOUR": N_("touches a piece of the same colour"),
    "EDGE": N_("touches the edge"),
    "HEIGHT": N_("sticks out over the top"),
}
# The edge marks of the game (D7, V1, V2), in the table's title.
_EDGES = {"color": N_("color edges"), "shape": N_("shape edges"), "none": N_("none edges")}


def _supply_summary(ids: list[str]) -> Text:
    """Pieces left per colour, in that colour, e.g. "red ●3 ■2 ▲1"."""
    counts: dict[str, dict[str, int]] = {}
    for pid in ids:
        colour, kind = _colour_kind(pid)
        counts.setdefault(colour, {}).setdefault(kind, 0)
        counts[colour][kind] += 1
    if not counts:
        return Text("-")
    return Text("\n").join(
        Text(
            _platform(colour) + " " + " ".join(f"{_icon(k)}{n}" for k, n in kinds.items()),
            _STYLE.get(colour, ""),
        )
        for colour, kinds in counts.items()
    )


def render(view: dict[str, Any]) -> RenderableType:
    """Scores, jokers and remaining pieces per side, and the last drop's result. (The
    rulebook's +25/+50 tokens only extend its score track, D28: the total says it all.)"""
    me = view["side"]
    mode = view["edge_mode"]
    edges = _(_EDGES[mode]) if mode in _EDGES else f"{mode} edges"
    title = _("Drop It - turn {turn}/{turns} ({edges})")
    table = Table(
        title=title.format(
            turn=min(view["turn"] + 1, view["turns"]), turns=view["turns"], edges=edges
        )
    )
    for column in (_("side"), _("players"), _("colours"), _("score"), _("jokers")):
        table.add_column(column)
    table.add_column(_("pieces left"))
    for s in view["sides"]:
        name = str(s["side"] + 1)
        if s["side"] == me:
            name = _("{side} (you)").format(side=name)
        if s["side"] == view["active_side"]:
            name = shown_as("▶") + " " + name
        table.add_row(
            name,
            ", ".join(str(seat + 1) for seat in s["seats"]),
            Text(" + ").join(Text(_platform(c), style=_STYLE.get(c, "")) for c in s["colours"]),
            str(s["total"]),
            str(s["jokers"]) if view["jokers_variant"] else "-",
            _supply_summary(s["supply"]),
        )
    parts: list[RenderableType] = [table]
    last = view.get("last")
    if last:
        parts.append(Text(_("last drop: {result}").format(result=describe_result(last))))
    if view["phase"] == "joker":
        parts.append(
            Text(
                _(
                    "A rule was broken: spend a joker to score the raw points, or keep "
                    "it (3 points at the end)."
                ),
                style="yellow",
            )
        )
    return Group(*parts)


def _word(token: str, names: tuple[str, ...]) -> str | None:
    """The one name that `token` starts (a plural "circles" also counts), or None."""
    for t in (token, token[:-1] if len(token) > 3 and token.endswith("s") else token):
        found = [n for n in names if n.startswith(t)]
        if len(found) == 1:
            return found[0]
    return None


def _folded(word: str) -> str:
    """A typed or shown word as it is compared: any case, "ё" as "е" (as Russian types)."""
    return word.casefold().replace("ё", "е")


def _local_words() -> dict[str, tuple[str, str]]:
    """Each word of a colour's or a kind's name in LANG's words -> ("colour", "red") or
    ("kind", "circle"): the colours' and kinds' own names ("rot", "Kreis") and the words of
    every piece's name ("roter Kreis", "rotes Quadrat": a colour's word agrees with the
    kind). English: none (the English words are `COLOURS` and `KINDS`)."""
    if current() == "en":
        return {}
    found: dict[str, tuple[str, str]] = {}
    for colour in COLOURS:
        found[_folded(_platform(colour))] = ("colour", colour)
        for kind in KINDS:
            *said, last = piece_words(colour, kind).split()
            found[_folded(last)] = ("kind", kind)
            for word in said:
                found[_folded(word)] = ("colour", colour)
    for kind in KINDS:
        found[_folded(_platform(kind))] = ("kind", kind)
    return found


def _local_word(token: str, local: Mapping[str, tuple[str, str]]) -> tuple[str, str] | None:
    """What a word in LANG's words names: a whole word, or the start of only one (two
    letters or more: "Kre" for "Kreis")."""
    typed = _folded(token)
    if typed in local:
        return local[typed]
    meant = {named for word, named in local.items() if word.startswith(typed)}
    return meant.pop() if len(typed) >= 2 and len(meant) == 1 else None


def _piece_words(words: list[str]) -> tuple[str, str, int | None]:
    """Colour, kind and optional number from words like red, circle, 1 (any order), in
    English or in LANG's words (rot, Kreis)."""
    colour = kind = None
    n: int | None = None
    local = _local_words()
    for w in words:
        if w.isdecimal():
            n = int(w)
        elif len(w) == 2 and _word(w[0], COLOURS) and _word(w[1], KINDS):  # "rc"
            colour, kind = _word(w[0], COLOURS), _word(w[1], KINDS)
        elif _word(w, COLOURS):
            colour = _word(w, COLOURS)
        elif _word(w, KINDS):
            kind = _word(w, KINDS)
        elif _local_word(w, local) is not None:
            what, named = _local_word(w, local) or ("", "")
            if what == "colour":
                colour = named
            else:
                kind = named
        else:
            raise BadInput(
                _("{typed} is neither a colour ({colours}) nor a kind ({kinds})").format(
                    typed=echo(w),
                    colours=", ".join(_platform(c) for c in COLOURS),
                    kinds=", ".join(_platform(k) for k in KINDS),
                )
            )
    if colour is None or kind is None:
        raise BadInput(_("name the piece by colour and kind, e.g. 'red-circle' or 'circle-red-1'"))
    return colour, kind, n


# What a typed number gives, in the refusals of `_number`.
_NUMBER_WORDS = {"x": "x", "angle": N_("angle"), "depth": N_("depth")}


def _number(text: str, what: str) -> float:
    name = _(_NUMBER_WORDS[what]) if what in _NUMBER_WORDS and what != "x" else what
    try:
        value = float(text)
    except ValueError as err:
        line = _("{what} must be a number, got {typed}")
        raise BadInput(line.format(what=name, typed=echo(text))) from err
    if not math.isfinite(value):
        line = _("{what} must be a finite number, got {typed}")
        raise BadInput(line.format(what=name, typed=echo(text)))
    return value


def parse(text: str, state: State, seat: int) -> Action:
    """A person's typed move: `<piece> <x> <angle°> [depth]`, or spend/keep (see the top)."""
    assert isinstance(state, DropItState)
    words = text.strip().lower().split()
    if not words:
        raise BadInput(_("type a piece, x and angle, e.g. 'red-circle 120 30'"))
    if state.pending is not None:
        if words[0] in _JOKER_WORDS:
            return _JOKER_WORDS[words[0]]
        answer = yes_or_no(text)  # "spend the joker?" in LANG's words: ja, nee, да
        if answer is not None:
            return SPEND if answer else KEEP
        try:  # words of a listed line: "use a joker", "score 0"
            return pick(text, [SPEND, KEEP], describe_actions(state, seat))
        except BadInput:
            raise BadInput(
                _("a rule was broken: type 'spend' to use a joker or 'keep' to keep it")
            ) from None
    if words[0] in ("spend", "joker", "keep"):
        return _JOKER_WORDS[words[0]]  # the rules say why not now (V3)
    numbers: list[str] = []
    while words and _NUMBER.fullmatch(words[-1]) and len(numbers) < 4:
        numbers.insert(0, words.pop())
    if len(numbers) == 4:  # "red circle 1 120 30 0": the first number names the piece
        words.append(numbers.pop(0))
    if len(numbers) < 2:
        raise BadInput(
            _(
                "{typed}: give x (mm) and angle (degrees) after the piece, e.g. 'red-circle 120 30'"
            ).format(typed=echo(text))
        )
    if not words and len(numbers) >= 3:  # "1 120 30": the piece of line 1
        words.append(numbers.pop(0))
    tokens = [t for w in words for t in re.split(r"[-_/]", w) if t]
    if len(tokens) == 1 and tokens[0].isdecimal():
        lines = _piece_lines(state)
        if not 1 <= int(tokens[0]) <= len(lines):
            line = _("no piece line {number}; choose 1 to {last}")
            raise BadInput(line.format(number=tokens[0], last=len(lines)))
        tokens = lines[int(tokens[0]) - 1].split("-")
    colour, kind, n = _piece_words(tokens)
    x = _number(numbers[0], "x")
    angle_text = numbers[1]
    if angle_text.endswith("rad"):
        angle = _number(angle_text[:-3], "angle")
    else:
        angle = math.radians(_number(angle_text.removesuffix("deg").removesuffix("°"), "angle"))
    depth = _number(numbers[2], "depth") if len(numbers) > 2 else 0.0
    piece = f"{colour}-{kind}" + (f"-{n}" if n is not None else "")
    drop = Drop(piece, x, angle, depth)
    why = state._refusal(seat, drop)  # the rules' own reason ("why not?"), e.g. D10
    if why is not None:
        raise BadInput(translate(why))  # in LANG's words
    return drop


def _piece_lines(state: DropItState) -> list[str]:
    """Colour-kind of each piece the side to drop may choose, in a fixed order."""
    return sorted(
        {p.rsplit("-", 1)[0] for p in state.supplies[state.active_side]},
        key=lambda ck: (COLOURS.index(ck.split("-")[0]), KINDS.index(ck.split("-")[1])),
    )


def describe_actions(state: State, seat: int) -> list[str]:
    """A short help of what to type now (not the whole grid)."""
    assert isinstance(state, DropItState)
    if state.pending is not None:
        raw = state.pending["raw_points"]
        return [
            _("spend  - use a joker and score {points} anyway").format(points=raw),
            _("keep   - score 0 now, the joker is worth 3 points at the end"),
        ]
    game = state.game
    lines = []
    kinds = _piece_lines(state)
    for ck in kinds:
        outline = game.shapes[ck.split("-")[1]]
        lo, hi = game.feasible_x_range(outline, 0.0)
        colour, kind = ck.split("-")
        line = _("{piece}: x from {lo} to {hi} mm at angle 0").format(
            piece=piece_words(colour, kind), lo=f"{lo:.1f}", hi=f"{hi:.1f}"
        )
        lines.append(f"{_icon(kind)} {line}")
    return lines


def hint(state: State, seat: int) -> str | None:
    """How to type a drop, shown under the numbered lines (the piece's name in LANG's
    words); after a broken rule, the yes/no question of the joker."""
    assert isinstance(state, DropItState)
    if state.pending is not None:
        return _("Use a joker? {answers}").format(answers=yes_no())
    if state.game.options.strict:
        line = _(
            "Type the line number or the piece, then x (mm) and angle (degrees) [depth mm]: "
            "e.g. '1 120 30' or '{piece} 120 30'. The x limits change with the angle; an x "
            "outside them is refused."
        )
    else:
        line = _(
            "Type the line number or the piece, then x (mm) and angle (degrees) [depth mm]: "
            "e.g. '1 120 30' or '{piece} 120 30'. The x limits change with the angle; an x "
            "outside them is moved inside them."
        )
    first = _piece_lines(state)[0]
    if current() != "en":  # the name as the table says it ("roter Kreis")
        first = piece_words(*_colour_kind(first))
    return line.format(piece=first)


def describe(action: Action) -> str:
    """One line for a move."""
    if isinstance(action, Drop):
        colour, kind = _colour_kind(action.piece)
        words = {
            "piece": piece_words(colour, kind),
            "x": f"{action.x:.0f}",
            "angle": f"{math.degrees(action.angle):.0f}",
            "depth": f"{action.depth:.0f}",
        }
        if action.depth:
            line = _("drop the {piece} at x {x} mm, {angle} degrees, {depth} mm deep")
        else:
            line = _("drop the {piece} at x {x} mm, {angle} degrees")
        return line.format(**words)
    return _("spend a joker") if action == SPEND else _("keep the joker")


def picture_after(action: Action) -> bool:
    """A picture after every drop (not after a joker decision)."""
    return isinstance(action, Drop)


def describe_event(event: Event) -> str | None:
    data = event.data
    if event.kind == "started":
        sides = "; ".join(
            _("{side} (players {players}): {colours}").format(
                side=_side(s["side"]),
                players=", ".join(str(seat + 1) for seat in s["seats"]),
                colours=" + ".join(_platform(c) for c in s["colours"]),
            )
            for s in data["sides"]
        )
        mode = data["edge_mode"]
        edges = _(_EDGES[mode]) if mode in _EDGES else f"{mode} edges"
        line = _("Drop It on {board}, {edges}. {sides}")
        return line.format(board=data["board"], edges=edges, sides=sides)
    if event.kind == "dropped":
        rel = data["release"]
        colour, kind = _colour_kind(str(data["piece"]))
        line = _("{player} ({side}) drops the {piece} at x {x} mm, {angle} degrees: {result}")
        return line.format(
            player=player(data["seat"]),
            side=_side(data["side"]),
            piece=piece_words(colour, kind),
            x=f"{rel['x']:.0f}",
            angle=f"{math.degrees(rel['angle']):.0f}",
            result=describe_result(data, with_score=False),
        )
    if event.kind == "scored":
        if data["joker_used"]:
            line = _("{side} scores {points} (joker spent); total {total}")
        else:
            line = _("{side} scores {points}; total {total}")
        return line.format(side=_side(data["side"]), points=data["awarded"], total=data["total"])
    if event.kind == "game_over":
        totals = ", ".join(f"{_side(s)}: {t}" for s, t in enumerate(data["totals"]))
        won = [_side(s) for s in data["winners"]]
        winners = (
            won[0]
            if len(won) == 1
            else _("{names} and {last}").format(names=", ".join(won[:-1]), last=won[-1])
        )
        line = ngettext(
            "game over: {totals}; {winners} wins", "game over: {totals}; {winners} win", len(won)
        )
        return line.format(totals=totals, winners=winners)
    return None


def _side(side: int) -> str:
    """Side 0 is "side 1", as players are numbered from 1."""
    return _("side {number}").format(number=side + 1)


def picture(state: State, path: Path) -> Path:
    """The PNG of the current table (written after each drop)."""
    return png(state, path)
