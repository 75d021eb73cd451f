"""Drop or Stop's rules in player words (spec rules/drop-or-stop.md), written once: the rules
panel beside a table (GET /api/games/drop-or-stop/rules) and `gamenight rules drop-or-stop`
both show this. Clause ids are data, shown small; a test checks each exists in the spec."""

from __future__ import annotations

from gamenight.engine.spec import RulesEntry, RulesSection

ENTRIES_TITLE = "Cards and terms"

SECTIONS = (
    RulesSection(
        "goal",
        "The goal",
        (
            "Each round, get the highest total without going over 11. Every player with the "
            "best total wins the round and turns over one of their 3 scoring cards. The first "
            "to turn over all 3 wins the game; players who finish in the same round share "
            "the win.",
        ),
        ("R1", "R3", "R21"),
    ),
    RulesSection(
        "deal",
        "Hidden cards",
        (
            "At the start of every round each player gets 2 cards face down. Only you may "
            "look at yours, at any time, also after you stopped; nobody else sees them until "
            "the reveal. Nobody is told when a player goes over 11.",
        ),
        ("R7", "R8", "R25", "R31", "R12a"),
    ),
    RulesSection(
        "turn",
        "Drop or stop",
        (
            "The start player goes first, then play goes round clockwise. On your turn choose "
            "one: DROP draws one card face up in front of you and ends your turn; STOP takes "
            "you out of the round, and your cards still count. You may stop on your very "
            "first turn.",
            "Players who stopped are skipped; the last player still in keeps taking turns "
            "until they stop. When the draw pile is empty the discard pile is shuffled to "
            "form a new one (everyone is told). A stop is final.",
        ),
        ("R9", "R10", "R11", "R12", "R13", "R14", "R30", "R33"),
    ),
    RulesSection(
        "reveal",
        "The reveal",
        (
            "When everyone has stopped, all hands are shown at once. Your total is your 2 "
            "hidden cards plus every card you dropped. Everybody sees every total, and the "
            "record stays for the rest of the game.",
        ),
        ("R15", "R16", "R29"),
    ),
    RulesSection(
        "flex",
        "FLEX cards",
        (
            "A FLEX card counts 1 or 5. You never choose: each counts whichever way gives you "
            "the highest total that is not over 11. Two FLEX cards and a 1 make 11.",
        ),
        ("R2", "R17"),
    ),
    RulesSection(
        "scoring",
        "Scoring a round",
        (
            "A total over 11 (even with every FLEX counted as 1) is OVERFLOW: that player "
            "cannot win the round. Everyone else with the highest total wins it; ties all win. "
            "If everyone overflows, nobody wins. Exactly 11 is best but gives nothing extra.",
        ),
        ("R17", "R18", "R19", "R20"),
    ),
    RulesSection(
        "rounds",
        "Round wins and the next round",
        (
            "Each round winner turns over one scoring card. Unless someone now has all 3, "
            "every card played this round goes to the discard pile, the start card moves one "
            "player to the left, and a new round is dealt.",
        ),
        ("R20", "R21", "R22", "R23", "R24"),
    ),
)

ENTRIES = (
    RulesEntry(
        "number",
        "Number card",
        "Worth the number of drops printed on it.",
        ("R2",),
    ),
    RulesEntry(
        "flex",
        "FLEX card",
        "Counts 1 or 5, whichever gives its owner the best total not over 11; chosen for you "
        "at the reveal.",
        ("R2", "R17"),
    ),
    RulesEntry(
        "hidden",
        "Hidden cards",
        "Your 2 face-down cards: they count in your total, only you see them before the reveal.",
        ("R7", "R25"),
    ),
    RulesEntry(
        "drop",
        "DROP",
        "Draw one card face up in front of you; your turn ends.",
        ("R10", "R11"),
    ),
    RulesEntry(
        "stop",
        "STOP",
        "You are out of this round; your hidden and face-up cards still count.",
        ("R10", "R12"),
    ),
    RulesEntry(
        "overflow",
        "OVERFLOW",
        "A total over 11 even with every FLEX as 1: it cannot win the round. Never announced "
        "before the reveal.",
        ("R12a", "R18"),
    ),
    RulesEntry(
        "scoring-card",
        "Scoring card",
        "Each player has 3; a round win turns one over. All 3 turned over wins the game.",
        ("R3", "R20", "R21"),
    ),
    RulesEntry(
        "start-card",
        "Start card",
        "Marks who plays first this round; it moves one player to the left after each round.",
        ("R6", "R23"),
    ),
)
