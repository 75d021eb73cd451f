"""Arne's rules in player words (spec rules/arne.md), written once: the rules panel beside a
table (GET /api/games/arne/rules), the cards' own rule text on the page, and
`gamenight rules arne [CARD]` all show this. ENTRIES has one entry per card type of the deck
table (components.TYPE_IDS), keyed by that id. Clause ids are data, shown small; a test
checks each exists in the spec."""

from __future__ import annotations

from gamenight.engine.spec import RulesEntry, RulesSection

ENTRIES_TITLE = "Cards"

_POINT = "Point card: lay it in a display of its colour as your white card, or discard it."

SECTIONS = (
    RulesSection(
        "goal",
        "The goal",
        (
            "Each player owns one colour and builds a display of it: a row of stacks in front "
            "of them. When the draw pile runs out the displays are counted; the highest score "
            "wins (in the losing game, the lowest). Equal best scores share the win.",
        ),
        ("A1", "A43"),
    ),
    RulesSection(
        "colours",
        "Colours and displays",
        (
            "Every colour has its symbol, drawn on its cards and next to its name. You lay point "
            "cards of your own colour in your display, each as a new stack. Every stack in a "
            "display counts for that display, whatever colour is printed on it.",
            "Each player starts with 8 secret cards; the rest is the draw pile.",
        ),
        ("A3", "A4", "A21", "A46"),
    ),
    RulesSection(
        "turn",
        "Your turn",
        (
            "Draw the top card of the draw pile. Then play one white card: a point card into "
            "a display (or onto the discard pile), a tripler on a stack, or an action against "
            "a player. Only the player whose turn it is plays a white card, one per turn.",
            "You may play it at once, or let the others answer first: that does not skip your "
            "turn. If you hold no white card you can use, you play none this turn.",
        ),
        ("A6", "A7", "A8", "A9", "A20"),
    ),
    RulesSection(
        "white",
        "Point cards and action cards",
        (
            "Point cards (50, 100, 200, 500, 1000 and the doubler) go into a display of their "
            "colour as a new stack, or onto the discard pile. Action cards must be used: take a "
            "card from a player, demand cards, draw three, pass hands or swap places.",
            "The white card's choices (which player, which stack, which colour) are fixed when "
            "you play it; it works as far as it still can when it resolves.",
        ),
        ("A10", "A12", "A21", "A23", "A24", "A25", "A26", "A27", "A28"),
    ),
    RulesSection(
        "black",
        "Black cards and answering",
        (
            "Black cards are played out of turn, by anyone, whenever they may answer: after "
            "your draw, after a white card is declared (some actions), and after it resolves. "
            "Answering goes round the table; each player may play black cards or pass.",
            "After every black card each other player gets a fresh chance to answer; the "
            "answering ends when everyone in turn has passed. A black card works at once and "
            "completely; the last card played is on top of the discard pile.",
        ),
        ("A11", "A15", "A16", "A17", "A18", "A19"),
    ),
    RulesSection(
        "x3",
        "The tripler (x3)",
        (
            "A tripler is a white card laid on a stack in any display: a point card or a -200. "
            "That stack then counts three times. One tripler per stack; it may go on a "
            "crushed stack too. A tripler on the doubler makes it x6.",
        ),
        ("A22", "A45"),
    ),
    RulesSection(
        "crush-lock",
        "Crush and lock",
        (
            "Crush a point-card stack and it no longer counts. A stack is crushed once in a "
            "game; a tripler or a chameleon does not protect it.",
            "Lock a crushed stack and it counts again; lock a -200 and it no longer counts. "
            "One lock per stack. Everything laid on a stack stays with it to the end, also "
            "when a thief steals the stack.",
        ),
        ("A32", "A33", "A36"),
    ),
    RulesSection(
        "order",
        "Stop! and Reverse!",
        (
            "Stop! gives you the next turn. Reverse! turns the direction of play round and "
            "gives you the next turn. If several are played in one turn, only the last one "
            "counts. Played in the last turn of the game, they have no effect on who plays.",
        ),
        ("A14", "A34", "A35", "A37", "A38", "A40"),
    ),
    RulesSection(
        "final",
        "The final round",
        (
            "The turn that takes the last card of the draw pile is played out. Then, starting "
            "with the next player and ending with the one whose turn it was, everybody may play "
            "one black card, or pass: no answers, no white cards, no Stop! or Reverse!. A "
            "chameleon may carry only a -200 then.",
            "Then every card left in a hand is shown and discarded, and the displays are "
            "counted. The discard pile is never shuffled back.",
        ),
        ("A13", "A41", "A42", "A44"),
    ),
    RulesSection(
        "count",
        "The count",
        (
            "Add the point cards of the stacks that count (tripled stacks three times). "
            "Multiply the sum by 2 for each doubler that counts. Then subtract 200 for each "
            "-200 that counts (tripled: 600); -200s are never doubled. A score can be "
            "negative.",
            "Example: 1000, 500 with a tripler, a doubler and a -200: (1000 + 1500) x 2 - 200 "
            "= 4800. The score beside each player is what they would have if the game ended "
            "now.",
        ),
        ("A43", "A45", "A46"),
    ),
    RulesSection(
        "variants",
        "Other ways to play",
        (
            "Losing game: the lowest score wins; you lay point cards in other players' "
            "displays, never your own. Dummy game: one colour belongs to nobody; Reverse! "
            "takes control of it, and its display counts for whoever holds it at the end. Team "
            "game: partners share a colour and add their two displays.",
        ),
        ("A1", "A21", "A49", "A51", "A52", "A53", "A54"),
    ),
)

ENTRIES = (
    RulesEntry("P50", "50 points", _POINT, ("A21",)),
    RulesEntry("P100", "100 points", _POINT, ("A21",)),
    RulesEntry("P200", "200 points", _POINT, ("A21",)),
    RulesEntry("P500", "500 points", _POINT, ("A21",)),
    RulesEntry("P1000", "1000 points", _POINT, ("A21",)),
    RulesEntry(
        "X2",
        "Doubler",
        "A point card that doubles the sum of the number cards in its display (never the -200s).",
        ("A21", "A45"),
    ),
    RulesEntry(
        "X3",
        "Tripler",
        "White: put it on a stack (a point card or a -200); that stack counts three times.",
        ("A22", "A45"),
    ),
    RulesEntry(
        "TAKE_RANDOM",
        "Take a card",
        "White action: take one card at random from a player's hand.",
        ("A23",),
    ),
    RulesEntry(
        "DEMAND_POINTS",
        "Demand 2 points",
        "White action: a player hands you 2 point cards of a colour you name (in the normal "
        "game, your own); they go straight into a display.",
        ("A24",),
    ),
    RulesEntry(
        "DEMAND_BLACK",
        "Demand 2 black",
        "White action: a player hands you 2 black cards of their choice.",
        ("A25",),
    ),
    RulesEntry(
        "DRAW_THREE",
        "Draw three",
        "White action: take three cards from the draw pile.",
        ("A26",),
    ),
    RulesEntry(
        "PASS_HANDS",
        "Pass hands",
        "White action: everybody passes their whole hand to the next player, at once.",
        ("A28",),
    ),
    RulesEntry(
        "SWAP_PLACES",
        "Swap places",
        "White action: swap seats with a player; the displays and colours stay with the seats, "
        "the hands go with the players.",
        ("A27",),
    ),
    RulesEntry(
        "MINUS200",
        "Minus 200",
        "Black, whenever you may answer: a new stack worth -200 in a display of its colour.",
        ("A30",),
    ),
    RulesEntry(
        "CHAMELEON",
        "Chameleon",
        "Black, whenever you may answer: lay it with a point card (or a -200) from your hand "
        "in a display of another colour; the card counts there.",
        ("A31",),
    ),
    RulesEntry(
        "THIEF",
        "Thief",
        "Black, whenever you may answer: take the top card of the discard pile, or steal a "
        "chameleon stack into your display.",
        ("A29",),
    ),
    RulesEntry(
        "CRUSH",
        "Crush",
        "Black, whenever you may answer: put it on a point-card stack; that stack no longer "
        "counts (unless locked).",
        ("A32",),
    ),
    RulesEntry(
        "LOCK",
        "Lock",
        "Black, whenever you may answer: put it on a crushed stack (it counts again) or on a "
        "-200 (it no longer counts).",
        ("A33",),
    ),
    RulesEntry(
        "STOP",
        "Stop!",
        "Black, whenever you may answer: you take the next turn.",
        ("A34", "A37"),
    ),
    RulesEntry(
        "REVERSE",
        "Reverse!",
        "Black, whenever you may answer: the direction of play turns round, starting with you "
        "(dummy game: you take the dummy).",
        ("A35", "A37", "A51"),
    ),
)
