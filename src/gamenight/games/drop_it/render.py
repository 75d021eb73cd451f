"""Pictures of a Drop It table: SVG text, and PNG through cairosvg (libcairo).

Draws the board (drop zone, slanted level lines with their numbers, bonus circles, edge
cells with their crossed-out symbols and assembly letters), every piece in its colour, and
the last drop highlighted: its outline says whether it scored (green) or broke a rule (red),
the pieces and edge cells it touched are marked, and a caption says why. Works from a state
or from any seat's view (the view holds everything drawn).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from gamenight.games.drop_it.board import Board, load_board
from gamenight.games.drop_it.components import outlines, piece_of
from gamenight.games.drop_it.scoring import Placed, place

FILL = {"red": "#d62828", "yellow": "#f2c12e", "blue": "#1f6feb", "green": "#2a9d3a"}
BONUS_FILL = {1: "#9ecae1", 2: "#6baed6", 3: "#3182bd"}
MARGIN = 40.0  # mm around the drop zone, for edge cells, labels and the caption
CAPTION = 70.0  # mm below the board for the caption


def _source(obj: Any, board: Board | None) -> tuple[dict[str, Any], Board]:
    """A view and its board from a state (its spectator view) or a view dict."""
    if isinstance(obj, dict):
        return obj, board or load_board("")
    return obj.view(None), obj.game.board


def svg(obj: Any, board: Board | None = None, scale: float = 2.5) -> str:
    """The SVG picture (a string) of a state or a view."""
    view, board = _source(obj, board)
    shapes = outlines(board)
    w, h = board.width, board.height
    top_space = 40.0  # room above the rim for pieces that stick out
    width = w + 2 * MARGIN
    height = h + top_space + MARGIN + CAPTION

    def X(x: float) -> float:
        return (x + MARGIN) * scale

    def Y(y: float) -> float:
        return (h + top_space - y) * scale

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * scale:.0f}" '
        f'height="{height * scale:.0f}" viewBox="0 0 {width * scale:.1f} {height * scale:.1f}">',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<rect x="{X(0):.1f}" y="{Y(h):.1f}" width="{w * scale:.1f}" height="{h * scale:.1f}" '
        f'fill="#f4f8fb" stroke="#555" stroke-width="{0.6 * scale:.1f}"/>',
    ]
    # Level lines (N6) and level numbers on both sides.
    for line in board.boundaries:
        pts = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in line)
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="#8a8a8a" '
            f'stroke-width="{0.5 * scale:.1f}" stroke-dasharray="{3 * scale:.1f},{2 * scale:.1f}"/>'
        )
    for level in range(1, board.levels + 1):
        for x_wall, dx in ((0.0, -22.0), (w, 14.0)):
            mid = (board.boundary_y(level - 1, x_wall) + board.boundary_y(level, x_wall)) / 2
            out.append(_text(X(x_wall + dx), Y(mid) + 3 * scale, str(level), 7 * scale, "#333"))
    # Edge cells (§3.6) on the face in use, with crossed-out symbols.
    last = view.get("last") or {}
    touched_cells = set(last.get("cells", []))
    edge_mode = view.get("edge_mode", "color")
    for cell in board.cells:
        out.extend(_cell(cell, edge_mode, touched_cells, X, Y, scale))
    # Pieces; the last one drawn last, on top.
    touched = set(last.get("touching", []))
    violated = bool(last.get("violations"))
    mine = last.get("piece")
    ordered = sorted(view["pieces"], key=lambda p: p["id"] == mine)  # the last drop on top
    for p in ordered:
        placed = place(shapes[piece_of(p["id"]).kind], (p["x"], p["y"], p["angle"]))
        stroke, width_ = "#222", 0.4
        if p["id"] == last.get("piece"):
            stroke, width_ = ("#c00000" if violated else "#00a000"), 1.6
        elif p["id"] in touched:
            stroke, width_ = "#ff7f00", 1.2
        out.append(_piece(placed, FILL[piece_of(p["id"]).colour], stroke, width_ * scale, X, Y))
    # Bonus circles (§3.5): printed marks, printed on the front pane, so drawn over the pieces.
    for c in board.bonus:
        out.append(
            f'<circle cx="{X(c.center[0]):.1f}" cy="{Y(c.center[1]):.1f}" '
            f'r="{c.radius * scale:.1f}" fill="{BONUS_FILL.get(c.points, "#9ecae1")}" '
            f'fill-opacity="0.3" stroke="#3182bd" stroke-width="{0.3 * scale:.1f}"/>'
        )
        out.append(
            _text(X(c.center[0]), Y(c.center[1]) + 2 * scale, f"+{c.points}", 5 * scale, "#08306b")
        )
    out.extend(_caption(view, board, X, Y, scale))
    out.append("</svg>")
    return "\n".join(out)


def _text(x: float, y: float, text: str, size: float, fill: str, anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="{size:.1f}" fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def _piece(shape: Placed, fill: str, stroke: str, width: float, X: Any, Y: Any) -> str:
    style = f'fill="{fill}" fill-opacity="0.9" stroke="{stroke}" stroke-width="{width:.1f}"'
    if shape.is_circle:
        scale = X(1.0) - X(0.0)
        r = shape.r * scale
        return f'<circle cx="{X(shape.cx):.1f}" cy="{Y(shape.cy):.1f}" r="{r:.1f}" {style}/>'
    pts = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in shape.verts)
    return f'<polygon points="{pts}" {style}/>'


def _cell(cell: Any, edge_mode: str, touched: set[str], X: Any, Y: Any, scale: float) -> list[str]:
    """One edge cell as a strip outside the wall, with its symbol crossed out (§2.1)."""
    (x0, y0), (x1, y1) = cell.a, cell.b
    side = cell.id.split("-")[0]
    thick = 8.0
    if side == "left":
        rect = (x0 - thick, y0, thick, y1 - y0)
    elif side == "right":
        rect = (x0, y0, thick, y1 - y0)
    else:
        rect = (x0, -thick, x1 - x0, thick)
    rx, ry, rw, rh = rect
    symbol = cell.symbol(edge_mode)
    fill = FILL.get(symbol or "", "#dddddd") if edge_mode == "color" else "#eeeeee"
    stroke = "#ff7f00" if cell.id in touched else "#666"
    sw = (1.2 if cell.id in touched else 0.3) * scale
    out = [
        f'<rect x="{X(rx):.1f}" y="{Y(ry + rh):.1f}" width="{rw * scale:.1f}" '
        f'height="{rh * scale:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="{sw:.1f}"/>'
    ]
    cx, cy = rx + rw / 2, ry + rh / 2
    if edge_mode == "shape" and symbol:
        icon = outlines(load_board(""))[symbol]
        small = (
            Placed(cx, cy, 3.0, ())
            if icon.is_circle
            else Placed(
                cx, cy, 0.0, tuple((cx + vx * 0.16, cy + vy * 0.16) for vx, vy in icon.vertices)
            )
        )
        out.append(_piece(small, "#444", "#444", 0.2 * scale, X, Y))
    if symbol:  # crossed out: the symbol is forbidden
        d = 3.0
        out.append(
            f'<path d="M{X(cx - d):.1f},{Y(cy - d):.1f} L{X(cx + d):.1f},{Y(cy + d):.1f} '
            f'M{X(cx - d):.1f},{Y(cy + d):.1f} L{X(cx + d):.1f},{Y(cy - d):.1f}" '
            f'stroke="#000" stroke-width="{0.5 * scale:.1f}"/>'
        )
    if cell.id in ("left-0", "right-0", "bottom-0", "bottom-4"):  # assembly letters (§3.7)
        lx = {"left": cx - 8, "right": cx + 8}.get(side, cx + 12)
        ly = cy if side != "bottom" else cy - 8
        out.append(_text(X(lx), Y(ly), cell.letters, 4.5 * scale, "#777"))
    return out


def _caption(view: dict[str, Any], board: Board, X: Any, Y: Any, scale: float) -> list[str]:
    """Scores and the last drop's result, under the board."""
    lines = []
    scores = " | ".join(
        f"side {s['side']} ({'+'.join(s['colours'])}): {s['total']}"
        + (f" [{' '.join(s['tokens'])}]" if s["tokens"] else "")
        + (f", jokers {s['jokers']}" if view.get("jokers_variant") else "")
        for s in view["sides"]
    )
    lines.append(f"turn {view['turn']}/{view['turns']}   {scores}")
    last = view.get("last")
    if last:
        lines.append(describe_result(last))
        if last.get("touching") or last.get("cells"):
            lines.append(
                "touching: " + ", ".join([*last.get("touching", []), *last.get("cells", [])])
            )
    y = -24.0
    out = []
    wrapped = [part for line in lines for part in textwrap.wrap(line, 95)]
    for i, text in enumerate(wrapped):
        out.append(_text(X(0.0), Y(y - 9.0 * i), text, 4.6 * scale, "#111", anchor="start"))
    return out


def describe_result(last: dict[str, Any]) -> str:
    """One line on why the last drop scored or not (D23..D26, V3)."""
    parts = [f"{last['piece']}: level {last['level']}"]
    if last.get("bonus"):
        parts.append("bonus " + ", ".join(last["bonus"]))
    broken = [f"{v['rule']} ({', '.join(map(str, v['with']))})" for v in last["violations"]]
    if broken:
        parts.append("broke " + "; ".join(broken))
    if "awarded" in last:
        joker = " with a joker" if last.get("joker_used") else ""
        parts.append(f"scored {last['awarded']}{joker} (raw {last['raw_points']})")
    else:
        parts.append(f"raw {last['raw_points']}, joker decision pending")
    if not last.get("settled", True):
        parts.append("did not settle in time")
    return "; ".join(parts)


def png(obj: Any, path: str | Path, board: Board | None = None, scale: float = 2.5) -> Path:
    """Write the PNG picture of a state or view; returns the path."""
    import cairosvg

    path = Path(path)
    cairosvg.svg2png(bytestring=svg(obj, board, scale).encode(), write_to=str(path))
    return path


def frames(state: Any) -> list[dict[str, Any]]:
    """The last drop's trajectory, one pose list per sampled step (for animation)."""
    data = state.view(None).get("frames")
    if not data:
        return []
    return [
        {
            "step": step,
            "pieces": [
                {"id": pid, "x": x, "y": y, "angle": a}
                for pid, (x, y, a) in zip(data["pieces"], poses, strict=True)
            ],
        }
        for step, poses in zip(data["steps"], data["poses"], strict=True)
    ]


def frame_svgs(state: Any, every: int = 1) -> list[str]:
    """SVG pictures of the last drop's trajectory (every `every`-th sample)."""
    view = state.view(None)
    pictures = []
    for frame in frames(state)[::every]:
        pictures.append(svg({**view, "pieces": frame["pieces"], "last": None}, state.game.board))
    return pictures
