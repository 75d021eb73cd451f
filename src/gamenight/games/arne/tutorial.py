"""Arne's guided first game (issue 46, item 1): a short game of two against one bot, the
deal arranged (`arrange`) so that in five turns it teaches colours and displays, a point
card, the tripler, a black card answered out of turn (Bot's crush, your lock), an action
card, the final round and the count. Played by the shared runner (engine/tutorial.py) on
the tutorial page (/learn/arne) and by `gamenight learn arne`. The sentences follow the
rules panel's (rules.py).

The arranged deck (3 cards each, 14 cards in all): you hold the 1000, a tripler and a lock;
Bot the 500, a crush and the 200. Your draws: Draw three, a 50, a 100; Bot's: a 50, a 100.
Draw three takes the last three cards (a -200 of Bot's colour among them), so the final
round follows at once.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine.tutorial import Move, Step, Tutorial

YOU, BOT = 0, 1
MINE, BOTS = "c5", "c6"  # the colours of a two-player deck (purple and orange)

# The cards in the order they leave the deck: your hand, Bot's hand, then each turn's draw
# (yours, Bot's, yours, Bot's, yours), then the three of Draw three.
DEAL = (
    f"{MINE} P1000", "X3", "LOCK",
    f"{BOTS} P500", "CRUSH", f"{BOTS} P200",
    "DRAW_THREE", f"{BOTS} P50", f"{MINE} P50", f"{BOTS} P100", f"{MINE} P100",
    f"{BOTS} MINUS200", f"{MINE} P200", "STOP",
)  # fmt: skip


def arrange(state: Any) -> None:
    """The arranged deck: DEAL from the top (the end of the list), the other cards left in
    the box, so the draw pile runs out on your third turn."""
    game = state.game
    pile = list(state.deck)
    order = []
    for name in DEAL:
        card = next(c for c in pile if game.kind_name[game.card_kind[c]] == name)
        pile.remove(card)
        order.append(card)
    state.deck = order[::-1]


PASS = {"type": "pass"}

TUTORIAL = Tutorial(
    title="Learn Arne",
    minutes=5,
    options={"players": 2, "hand_size": 3, "first_seat": YOU},
    seed=1,
    seat=YOU,
    names=("Player 1", "Bot"),
    intro=(
        "A short game against a bot, with a small deck: five turns and the final round. "
        "You build a display of your colour; when the draw pile runs out the displays are "
        "counted and the highest score wins."
    ),
    outro=(
        "That is Arne: white cards on your turn, black cards whenever you may answer, the "
        "final round and the count. A real game deals 8 cards each from a much bigger deck."
    ),
    idle=PASS,
    arrange=arrange,
    script=(
        Step(
            say="Take ◆ purple as your colour.",
            point="#choices > [data-action='choose_colour']:first-child",  # purple comes first
            expect={"type": "choose_colour", "colour": MINE},
            refuse="Choose purple this time: the cards of this short game are dealt for it.",
            why=(
                "Each player owns one colour and builds a display of it: a row of stacks. "
                "Every colour has its symbol, drawn on its cards and next to its name. Bot "
                "takes orange; then each of you gets 3 secret cards (8 in a real game)."
            ),
        ),
        Move(BOT, {"type": "choose_colour", "colour": BOTS}),
        Step(
            say="Play your purple 1000 into your display.",
            point=(
                f"#hand [data-card='{MINE} P1000'] [role=button]",
                "#displays [data-display='0']",
            ),
            expect={"type": "play_point", "card": "P1000", "colour": MINE, "display": 0},
            refuse="Not this time: lay your purple 1000 in your own display first.",
            why=(
                "Your turn began with drawing a card (Draw three). Then you play one white "
                "card: a point card goes into a display of its colour as a new stack. Your "
                "display now counts 1000."
            ),
        ),
        Move(BOT, {"type": "play_point", "card": "P500", "colour": BOTS, "display": 1}),
        Step(
            say="Put your tripler on your 1000.",
            point=("#hand [data-card='X3'] [role=button]", "[data-display='0'] [data-stack='0']"),
            expect={"type": "x3", "display": 0, "stack": 0},
            refuse="Not this time: put the tripler on your 1000, so it counts three times.",
            why=(
                "A tripler goes on a stack in any display: that stack counts three times, "
                "so your 1000 counts 3000. Then Bot answered out of turn with a black card: "
                "a crush on your 1000, which no longer counts."
            ),
        ),
        Move(BOT, {"type": "crush", "display": 0, "stack": 0}),
        Step(
            say="Answer with your lock on the crushed 1000.",
            point=("#hand [data-card='LOCK'] [role=button]", "[data-display='0'] [data-stack='0']"),
            expect={"type": "lock", "display": 0, "stack": 0},
            refuse="Not this time: lock your crushed 1000 so that it counts again.",
            why=(
                "Black cards are played out of turn, by anyone, whenever they may answer; "
                "after each one the others get a fresh chance. Your lock makes the crushed "
                "stack count again: 3000. A stack is crushed once and locked once."
            ),
        ),
        Move(BOT, {"type": "play_point", "card": "P200", "colour": BOTS, "display": 1}),
        Step(
            say="Play Draw three to take the last cards of the draw pile.",
            point="#hand [data-card='DRAW_THREE'] [role=button]",
            expect={"type": "draw_three"},
            refuse="Not this time: play the action card Draw three.",
            why=(
                "Action cards must be used: Draw three takes three cards from the draw pile, "
                "here the last ones. The turn that takes the last card is played out, then "
                "comes the final round: everybody may play one black card, or pass."
            ),
        ),
        Step(
            say="Final round: lay the orange -200 in Bot's display.",
            point=(f"#hand [data-card='{BOTS} MINUS200'] [role=button]", "[data-display='1']"),
            expect={"type": "minus200", "colour": BOTS, "display": 1},
            wait="final_round",
            refuse="Not this time: lay the -200 in Bot's orange display.",
            why=(
                "A -200 is a black card: a new stack worth -200 in a display of its colour. "
                "In the final round there are no answers and no white cards; then every "
                "card left in a hand is discarded and the displays are counted."
            ),
        ),
        Step(
            say="Look at the count.",
            point="#displays",
            keys="The scores are in the table; press Enter.",
            why=(
                "Add the point cards of the stacks that count, tripled stacks three times, "
                "then subtract 200 for each -200: you have 3000, Bot 500 + 200 - 200 = 500. "
                "The highest score wins: you."
            ),
        ),
    ),
)
