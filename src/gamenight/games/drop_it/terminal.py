"""Drop It in the terminal: a Rich table of the view, and what a person types to drop.

A drop is typed as `<piece> <x> <angle> [depth]`: the piece by colour and kind in any order
with an optional number joined by "-" ("red-circle", "circle-red-1", "red circle"; "rc" also
works because every colour and kind starts with its own letter), x in mm from the left wall,
the angle in degrees counter-clockwise (add "rad" for radians), and an optional depth in mm
below the rim (D11). After a broken rule in the joker variant: "spend" or "keep" (V3).
Players and sides are numbered from 1, as on the web pages.
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
from gamenight.games.terminal_text import echo, pick, player, shown_as
from gamenight.i18n.refusals import translate

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


def piece_text(piece: str) -> Text:
    """ "red-circle-2" -> "● red circle" in red."""
    colour, kind = _colour_kind(piece)
    return Text(f"{_icon(kind)} {colour} {kind}".strip(), style=_STYLE.get(colour, ""))


def _colour_kind(piece: str) -> tuple[str, str]:
    """ "red-circle-2" -> ("red", "circle")."""
    colour, _, rest = piece.partition("-")
    return colour, rest.partition("-")[0]


def describe_result(last: Mapping[str, Any], with_score: bool = True) -> str:
    """One line on where the last drop settled (the level of its highest point, as N6
    counts it) and what it scored."""
    colour, kind = _colour_kind(str(last["piece"]))
    parts = [f"{colour} {kind} reaches level {last['level']}"]
    if last.get("bonus"):
        parts.append(f"covers {len(last['bonus'])} bonus circle(s)")
    broken = [_RULES.get(v["rule"], v["rule"]) for v in last["violations"]]
    if broken:
        parts.append("broke a rule: " + "; ".join(broken))
    if not with_score:
        pass
    elif "awarded" in last:
        joker = " with a joker" if last.get("joker_used") else ""
        parts.append(f"scores {last['awarded']}{joker}")
    else:
        parts.append(f"would score {last['raw_points']}: joker decision pending")
    if not last.get("settled", True):
        parts.append("still moving when time ran out")
    return "; ".join(parts)


# The landing rules by the words a player knows them by (spec D18-D22).
_RULES = {
    "SHAPE": "touches a piece of the same shape",
    "COLOUR": "touches a piece of the same colour",
    "EDGE": "touches the edge",
    "HEIGHT": "sticks out over the top",
}


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
            colour + " " + " ".join(f"{_icon(k)}{n}" for k, n in kinds.items()),
            _STYLE.get(colour, ""),
        )
        for colour, kinds in counts.items()
    )


def render(view: dict[str, Any]) -> RenderableType:
    """Scores, jokers and remaining pieces per side, and the last drop's result. (The
    rulebook's +25/+50 tokens only extend its score track, D28: the total says it all.)"""
    me = view["side"]
    table = Table(
        title=f"Drop It - turn {min(view['turn'] + 1, view['turns'])}/{view['turns']}"
        f" ({view['edge_mode']} edges)"
    )
    for column in ("side", "players", "colours", "score", "jokers", "pieces left"):
        table.add_column(column)
    for s in view["sides"]:
        name = str(s["side"] + 1)
        if s["side"] == me:
            name += " (you)"
        if s["side"] == view["active_side"]:
            name = shown_as("▶") + " " + name
        table.add_row(
            name,
            ", ".join(str(seat + 1) for seat in s["seats"]),
            Text(" + ").join(Text(c, style=_STYLE.get(c, "")) for c in s["colours"]),
            str(s["total"]),
            str(s["jokers"]) if view["jokers_variant"] else "-",
            _supply_summary(s["supply"]),
        )
    parts: list[RenderableType] = [table]
    last = view.get("last")
    if last:
        parts.append(Text("last drop: " + describe_result(last)))
    if view["phase"] == "joker":
        parts.append(
            Text(
                "A rule was broken: spend a joker to score the raw points, or keep "
                "it (3 points at the end).",
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


def _piece_words(words: list[str]) -> tuple[str, str, int | None]:
    """Colour, kind and optional number from words like red, circle, 1 (any order)."""
    colour = kind = None
    n: int | None = None
    for w in words:
        if w.isdecimal():
            n = int(w)
        elif len(w) == 2 and _word(w[0], COLOURS) and _word(w[1], KINDS):  # "rc"
            colour, kind = _word(w[0], COLOURS), _word(w[1], KINDS)
        elif _word(w, COLOURS):
            colour = _word(w, COLOURS)
        elif _word(w, KINDS):
            kind = _word(w, KINDS)
        else:
            raise BadInput(
                f"{echo(w)} is neither a colour ({', '.join(COLOURS)}) "
                f"nor a kind ({', '.join(KINDS)})"
            )
    if colour is None or kind is None:
        raise BadInput("name the piece by colour and kind, e.g. 'red-circle' or 'circle-red-1'")
    return colour, kind, n


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError as err:
        raise BadInput(f"{what} must be a number, got {echo(text)}") from err
    if not math.isfinite(value):
        raise BadInput(f"{what} must be a finite number, got {echo(text)}")
    return value


def parse(text: str, state: State, seat: int) -> Action:
    """A person's typed move: `<piece> <x> <angle°> [depth]`, or spend/keep (see the top)."""
    assert isinstance(state, DropItState)
    words = text.strip().lower().split()
    if not words:
        raise BadInput("type a piece, x and angle, e.g. 'red-circle 120 30'")
    if state.pending is not None:
        if words[0] in _JOKER_WORDS:
            return _JOKER_WORDS[words[0]]
        try:  # words of a listed line: "use a joker", "score 0"
            return pick(text, [SPEND, KEEP], describe_actions(state, seat))
        except BadInput:
            raise BadInput(
                "a rule was broken: type 'spend' to use a joker or 'keep' to keep it"
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
            f"{echo(text)}: give x (mm) and angle (degrees) after the piece, "
            "e.g. 'red-circle 120 30'"
        )
    if not words and len(numbers) >= 3:  # "1 120 30": the piece of line 1
        words.append(numbers.pop(0))
    tokens = [t for w in words for t in re.split(r"[-_/]", w) if t]
    if len(tokens) == 1 and tokens[0].isdecimal():
        lines = _piece_lines(state)
        if not 1 <= int(tokens[0]) <= len(lines):
            raise BadInput(f"no piece line {tokens[0]}; choose 1 to {len(lines)}")
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
            f"spend  - use a joker and score {raw} anyway",
            "keep   - score 0 now, the joker is worth 3 points at the end",
        ]
    game = state.game
    lines = []
    kinds = _piece_lines(state)
    for ck in kinds:
        outline = game.shapes[ck.split("-")[1]]
        lo, hi = game.feasible_x_range(outline, 0.0)
        colour, kind = ck.split("-")
        lines.append(f"{_icon(kind)} {colour} {kind}: x from {lo:.1f} to {hi:.1f} mm at angle 0")
    return lines


def hint(state: State, seat: int) -> str | None:
    """How to type a drop, shown under the numbered lines."""
    assert isinstance(state, DropItState)
    if state.pending is not None:
        return None
    clamp = "refused" if state.game.options.strict else "moved inside them"
    return (
        f"Type the line number or the piece, then x (mm) and angle (degrees) [depth mm]: "
        f"e.g. '1 120 30' or '{_piece_lines(state)[0]} 120 30'. The x limits change with "
        f"the angle; an x outside them is {clamp}."
    )


def describe(action: Action) -> str:
    """One line for a move."""
    if isinstance(action, Drop):
        colour, kind = _colour_kind(action.piece)
        depth = f", {action.depth:.0f} mm deep" if action.depth else ""
        return (
            f"drop the {colour} {kind} at x {action.x:.0f} mm, "
            f"{math.degrees(action.angle):.0f} degrees{depth}"
        )
    return "spend a joker" if action == SPEND else "keep the joker"


def picture_after(action: Action) -> bool:
    """A picture after every drop (not after a joker decision)."""
    return isinstance(action, Drop)


def describe_event(event: Event) -> str | None:
    data = event.data
    if event.kind == "started":
        sides = "; ".join(
            f"{_side(s['side'])} (players {', '.join(str(seat + 1) for seat in s['seats'])}): "
            f"{' + '.join(s['colours'])}"
            for s in data["sides"]
        )
        return f"Drop It on {data['board']}, {data['edge_mode']} edges. {sides}"
    if event.kind == "dropped":
        rel = data["release"]
        colour, kind = _colour_kind(str(data["piece"]))
        return (
            f"{player(data['seat'])} ({_side(data['side'])}) drops the {colour} {kind} at x "
            f"{rel['x']:.0f} mm, {math.degrees(rel['angle']):.0f} degrees: "
            + describe_result(data, with_score=False)
        )
    if event.kind == "scored":
        joker = " (joker spent)" if data["joker_used"] else ""
        return f"{_side(data['side'])} scores {data['awarded']}{joker}; total {data['total']}"
    if event.kind == "game_over":
        totals = ", ".join(f"{_side(s)}: {t}" for s, t in enumerate(data["totals"]))
        winners = " and ".join(_side(s) for s in data["winners"])
        return f"game over: {totals}; {winners} win" + ("s" if len(data["winners"]) == 1 else "")
    return None


def _side(side: int) -> str:
    """Side 0 is "side 1", as players are numbered from 1."""
    return f"side {side + 1}"


def picture(state: State, path: Path) -> Path:
    """The PNG of the current table (written after each drop)."""
    return png(state, path)
