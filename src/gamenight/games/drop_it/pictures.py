"""Pictures of Drop It for other layers: the web page's empty board (drawn once by the
game's own renderer) and the board as an RGB array for learning environments."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np


def page_data(options: dict[str, Any]) -> dict[str, Any]:
    """The board without pieces (SVG, caption cropped off), the numbers needed to draw pieces
    over it (scale, margins, the y axis) and each kind's outline about its centroid."""
    from gamenight.games.drop_it import DropIt, render
    from gamenight.games.drop_it.components import outlines

    game = DropIt.from_options(**options)
    state = game.start(0)
    view = {**state.view(None), "pieces": [], "last": None}
    # Without the assembly letters (A/D, B/C, §3.7): they say where a real board's edge
    # pieces slot in, nothing a player at the page needs.
    board = replace(game.board, cells=tuple(replace(c, letters="") for c in game.board.cells))
    scale = 2.5
    top_space = 40.0
    picture = render.svg(view, board, scale)
    width = (board.width + 2 * render.MARGIN) * scale
    height = (board.height + top_space + 16.0) * scale  # down to below the floor cells
    head, _, rest = picture.partition(">")
    head = head.split(" width=")[0]
    picture = (
        f'{head} viewBox="0 0 {width:.1f} {height:.1f}" preserveAspectRatio="xMidYMid meet">' + rest
    )
    return {
        "svg": picture,
        "width": width,
        "height": height,
        "scale": scale,
        "margin": render.MARGIN,
        "top_space": top_space,
        "board": {
            "id": board.id,
            "width": board.width,
            "height": board.height,
            "levels": board.levels,
            "bonus": [
                {
                    "id": c.id,
                    "center": list(c.center),
                    "radius": c.radius,
                    "points": c.points,
                    "level": c.level,  # the page names a circle as the rulebook does:
                    "size": c.size,  # "the small bonus circle on level 6"
                }
                for c in board.bonus
            ],
        },
        # The edge marks on the face in use (D21), so the page can warn before a drop.
        "cells": [
            {"id": c.id, "a": list(c.a), "b": list(c.b), "symbol": c.symbol(game.options.edge_mode)}
            for c in board.cells
        ],
        "fill": render.FILL,
        "dt": game.options.dt,
        "outlines": {
            kind: {"radius": o.radius, "vertices": [list(v) for v in o.vertices]}
            for kind, o in outlines(board).items()
        },
    }


def rgb(state: Any) -> np.ndarray:
    """The board as an RGB array (height x width x 3, uint8)."""
    import io

    import cairosvg
    from PIL import Image

    from gamenight.games.drop_it.render import svg

    data = cairosvg.svg2png(bytestring=svg(state).encode())
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
