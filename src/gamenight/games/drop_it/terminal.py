"""Drop It in the terminal: a Rich table of the view, and what a person types to drop.

A drop is typed as `<piece> <x> <angle> [depth]`: the piece by colour and kind in any order
with an optional number joined by "-" ("red-circle", "circle-red-1", "red circle"; "rc" also
works because every colour and kind starts with its own letter), x in mm from the left wall,
the angle in degrees counter-clockwise (add "rad" for radians), and an optional depth in mm
below the rim (D11). After a broken rule in the joker variant: "spend" or "keep" (V3).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, BadInput, Event, State
from gamenight.games.drop_it import KEEP, SPEND, Drop, DropItState
from gamenight.games.drop_it.board import COLOURS, KINDS
from gamenight.games.drop_it.render import describe_result, png

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


_ICON = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}


def _supply_summary(ids: list[str]) -> str:
    """Pieces left per colour, e.g. "red ●3 ■2 ▲1"."""
    counts: dict[str, dict[str, int]] = {}
    for pid in ids:
        colour, kind, _ = pid.split("-")
        counts.setdefault(colour, {}).setdefault(kind, 0)
        counts[colour][kind] += 1
    return (
        "\n".join(
            colour + " " + " ".join(f"{_ICON[k]}{n}" for k, n in kinds.items())
            for colour, kinds in counts.items()
        )
        or "-"
    )


def render(view: dict[str, Any]) -> RenderableType:
    """Scores, tokens, jokers and remaining pieces per side, and the last drop's result."""
    me = view["side"]
    table = Table(
        title=f"Drop It - turn {min(view['turn'] + 1, view['turns'])}/{view['turns']}"
        f" ({view['edge_mode']} edges)"
    )
    for column in ("side", "seats", "colours", "score", "tokens", "jokers", "pieces left"):
        table.add_column(column)
    for s in view["sides"]:
        name = str(s["side"])
        if s["side"] == me:
            name += " (you)"
        if s["side"] == view["active_side"]:
            name = "▶ " + name
        table.add_row(
            name,
            ",".join(map(str, s["seats"])),
            "+".join(s["colours"]),
            str(s["total"]),
            " ".join(s["tokens"]) or "-",
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
        if w.isdigit():
            n = int(w)
        elif len(w) == 2 and _word(w[0], COLOURS) and _word(w[1], KINDS):  # "rc"
            colour, kind = _word(w[0], COLOURS), _word(w[1], KINDS)
        elif _word(w, COLOURS):
            colour = _word(w, COLOURS)
        elif _word(w, KINDS):
            kind = _word(w, KINDS)
        else:
            raise BadInput(
                f"{w!r} is neither a colour ({', '.join(COLOURS)}) nor a kind ({', '.join(KINDS)})"
            )
    if colour is None or kind is None:
        raise BadInput("name the piece by colour and kind, e.g. 'red-circle' or 'circle-red-1'")
    return colour, kind, n


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError as err:
        raise BadInput(f"{what} must be a number, got {text!r}") from err
    if not math.isfinite(value):
        raise BadInput(f"{what} must be a finite number, got {text!r}")
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
        raise BadInput("a rule was broken: type 'spend' to use a joker or 'keep' to keep it")
    numbers: list[str] = []
    while words and _NUMBER.fullmatch(words[-1]) and len(numbers) < 4:
        numbers.insert(0, words.pop())
    if len(numbers) == 4:  # "red circle 1 120 30 0": the first number names the piece
        words.append(numbers.pop(0))
    if len(numbers) < 2:
        raise BadInput("give x (mm) and angle (degrees) after the piece, e.g. 'red-circle 120 30'")
    tokens = [t for w in words for t in re.split(r"[-_/]", w) if t]
    colour, kind, n = _piece_words(tokens)
    x = _number(numbers[0], "x")
    angle_text = numbers[1]
    if angle_text.endswith("rad"):
        angle = _number(angle_text[:-3], "angle")
    else:
        angle = math.radians(_number(angle_text.removesuffix("deg").removesuffix("°"), "angle"))
    depth = _number(numbers[2], "depth") if len(numbers) > 2 else 0.0
    piece = f"{colour}-{kind}" + (f"-{n}" if n is not None else "")
    return Drop(piece, x, angle, depth)


def describe_actions(state: State, seat: int) -> list[str]:
    """A short help of what to type now (not the whole grid)."""
    assert isinstance(state, DropItState)
    if state.pending is not None:
        raw = state.pending["raw_points"]
        return [
            f"spend  - use a joker and score {raw} anyway (V3)",
            "keep   - score 0 now, the joker is worth 3 points at the end",
        ]
    game = state.game
    lines = []
    kinds = sorted(
        {p.rsplit("-", 1)[0] for p in state.supplies[state.active_side]},
        key=lambda ck: (COLOURS.index(ck.split("-")[0]), KINDS.index(ck.split("-")[1])),
    )
    for ck in kinds:
        outline = game.shapes[ck.split("-")[1]]
        lo, hi = game.feasible_x_range(outline, 0.0)
        lines.append(f"{ck}: x {lo:.1f}..{hi:.1f} mm at angle 0")
    clamp = "refused" if game.options.strict else "clamped"
    lines.append(
        f"type '<piece> <x mm> <angle degrees> [depth mm]', e.g. '{kinds[0]} 120 30'; "
        f"x limits change with the angle, an x outside them is {clamp}"
    )
    return lines


def describe_event(event: Event) -> str | None:
    data = event.data
    if event.kind == "started":
        sides = "; ".join(
            f"side {s['side']} (seats {s['seats']}): {'+'.join(s['colours'])}"
            for s in data["sides"]
        )
        return f"Drop It on {data['board']}, {data['edge_mode']} edges. {sides}"
    if event.kind == "dropped":
        rel = data["release"]
        return (
            f"side {data['side']} (seat {data['seat']}) dropped {data['piece']} at x "
            f"{rel['x']:.1f}, {math.degrees(rel['angle']):.0f}°: level {data['level']}"
            + (f", bonus {', '.join(data['bonus'])}" if data["bonus"] else "")
            + (
                "; broke " + ", ".join(v["rule"] for v in data["violations"])
                if data["violations"]
                else ""
            )
            + ("" if data["settled"] else f" (still moving after {data['time']:g} s, D14)")
        )
    if event.kind == "scored":
        joker = " (joker spent)" if data["joker_used"] else ""
        return f"side {data['side']} scores {data['awarded']}{joker}; total {data['total']}"
    if event.kind == "game_over":
        return f"game over: totals {data['totals']}, winners {data['winners']}"
    return None


def picture(state: State, path: Path) -> Path:
    """The PNG of the current table (written after each drop)."""
    return png(state, path)
