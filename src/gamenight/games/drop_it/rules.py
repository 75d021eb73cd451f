"""Drop It's rules in player words (spec rules/drop-it.md), written once: the rules panel
beside a table (GET /api/games/drop-it/rules) and `gamenight rules drop-it [PIECE]` both show
this. ENTRIES has one entry per piece kind (board.KINDS), keyed by that kind, and the board's
marks. Clause ids are data, shown small; a test checks each exists in the spec."""

from __future__ import annotations

from gamenight.engine.spec import RulesEntry, RulesSection

ENTRIES_TITLE = "Pieces and board"

_PIECE = (
    "It may not land touching another {kind} of any colour, nor another piece of its own colour."
)

SECTIONS = (
    RulesSection(
        "goal",
        "The goal",
        (
            "Players take turns dropping wooden shapes into the upright board. A drop scores "
            "the highest level it reaches plus every bonus circle it covers, if it breaks no "
            "rule. All 36 pieces are dropped; the highest total wins, and equal totals share "
            "the win.",
        ),
        ("D2", "D29", "D32"),
    ),
    RulesSection(
        "choosing",
        "Choosing a piece",
        (
            "On your turn you must drop exactly one piece of your own supply; you cannot pass. "
            "With 4 players each has one colour, with 3 the fourth colour is shared out, with 2 "
            "(or in teams) each side has two colours.",
        ),
        ("D3", "D4", "D5", "D10"),
    ),
    RulesSection(
        "aiming",
        "Aiming and rotating",
        (
            "Move the piece along the top of the board and turn it to any angle, then let go. "
            "From then on you cannot touch it: it falls and settles by real physics, and may "
            "push the pieces already in.",
        ),
        ("D11", "D12", "D13"),
    ),
    RulesSection(
        "landing",
        "Landing rules",
        (
            "Only the piece you just dropped is judged, where it comes to rest. It breaks a "
            "rule if it touches a piece of the same shape, a piece of the same colour, or an "
            "edge mark of its own colour (the crossed-out strips along the floor and walls), "
            "or if any part of it sticks out above the top.",
            "A drop that breaks a rule scores 0; breaking several costs nothing more.",
        ),
        ("D18", "D19", "D20", "D21", "D22", "D23"),
    ),
    RulesSection(
        "levels",
        "Levels",
        (
            "Lines divide the board into 8 levels. A drop scores the highest level any part "
            "of it reaches: 1 to 8 points.",
        ),
        ("D24",),
    ),
    RulesSection(
        "bonus",
        "Bonus circles",
        (
            "Each bonus circle the piece overlaps adds its points: large 1, medium 2, small 3; "
            "several circles add up. Level 5 and a medium circle make 7.",
        ),
        ("D25", "D26"),
    ),
    RulesSection(
        "points",
        "Points stay",
        (
            "Points are given at once and never taken back, even if later drops move the "
            "piece. Pieces stay in the board to the end.",
        ),
        ("D27", "D30"),
    ),
    RulesSection(
        "variants",
        "Other ways to play",
        (
            "Shape edges: the edge marks show shapes instead of colours. Easy: no edge marks. "
            "Jokers: after a drop that broke a rule you may spend a joker to score it anyway; "
            "each unused joker is worth 3 at the end. Teams: two teams take turns and share "
            "a score.",
        ),
        ("V1", "V2", "V3", "V4", "D31"),
    ),
)

ENTRIES = (
    RulesEntry(
        "circle",
        "Circle",
        "3 in each colour. " + _PIECE.format(kind="circle"),
        ("D1", "D19", "D20"),
    ),
    RulesEntry(
        "square",
        "Square",
        "2 in each colour. " + _PIECE.format(kind="square"),
        ("D1", "D19", "D20"),
    ),
    RulesEntry(
        "triangle",
        "Triangle",
        "2 in each colour. " + _PIECE.format(kind="triangle"),
        ("D1", "D19", "D20"),
    ),
    RulesEntry(
        "diamond",
        "Diamond",
        "2 in each colour, taller than wide. " + _PIECE.format(kind="diamond"),
        ("D1", "D19", "D20"),
    ),
    RulesEntry(
        "edge",
        "Edge mark",
        "A crossed-out coloured strip along the floor or a wall: a piece of that colour may "
        "not touch it. Lying beside it without touching is fine.",
        ("D7", "D21"),
    ),
    RulesEntry(
        "top",
        "The top",
        "No part of the dropped piece may stick out above the top of the board.",
        ("D22",),
    ),
    RulesEntry(
        "level",
        "Level",
        "One of the 8 bands of the board; the highest one the piece reaches is its points.",
        ("D24",),
    ),
    RulesEntry(
        "bonus",
        "Bonus circle",
        "A printed circle: large 1, medium 2, small 3 points for a piece that overlaps it.",
        ("D25",),
    ),
    RulesEntry(
        "joker",
        "Joker",
        "Only with jokers: spent after a drop that broke a rule, it scores the drop anyway; "
        "unused, it is worth 3 at the end.",
        ("V3", "D31"),
    ),
)
