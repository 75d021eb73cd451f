"""Drop or Stop's guided first game (issue 46, item 1): one short round against one bot,
the deal fixed by the seed, teaching drop and stop, FLEX, the reveal and scoring. Played by
the shared runner (engine/tutorial.py) on the tutorial page (/learn/drop-or-stop) and by
`gamenight learn drop-or-stop`. The sentences follow the rules panel's (rules.py).

The deal of seed 244 (2 players, you start): your hidden 1 and 4; you draw a FLEX (10 with
it as 5); Bot, hidden 5 and 3, draws a FLEX (as 1: 9) and then a 5 (14, over 11).
"""

from __future__ import annotations

from gamenight.engine.tutorial import Move, Step, Tutorial

DROP = {"type": "drop"}
STOP = {"type": "stop"}
YOU, BOT = 0, 1

TUTORIAL = Tutorial(
    title="Learn Drop or Stop",
    minutes=3,
    options={"players": 2, "first_start_seat": YOU, "wins_to_win": 1},
    seed=244,
    seat=YOU,
    names=("Player 1", "Bot"),
    intro=(
        "One short round against a bot. Each round, get the highest total without going over 11."
    ),
    outro=(
        "That is the whole game: drop or stop, the reveal, FLEX and scoring. A real game "
        "goes on round after round until someone has turned over all 3 scoring cards."
    ),
    script=(
        Step(
            say="Press Peek to look at your two hidden cards.",
            point="#peek",
            keys="Your hand is printed under the table; press Enter.",
            why=(
                "Your hidden cards are a 1 and a 4: 5 so far. Only you may look at them, at "
                "any time; they count in your total, and nobody else sees them until the "
                "reveal."
            ),
        ),
        Step(
            say="Press DROP to draw one card face up.",
            point="#drop",
            keys="Type d (drop).",
            expect=DROP,
            refuse="Not yet: 5 is far from 11, so draw a card first. Press DROP.",
            why=(
                "DROP draws one card face up in front of you and ends your turn. You drew a "
                "FLEX card: it counts 1 or 5, whichever gives you the highest total not over "
                "11. You never choose: 1 + 4 + FLEX make 10 for you."
            ),
        ),
        Move(BOT, DROP),
        Step(
            say="You have 10 and Bot drew a FLEX too: press STOP to keep your 10.",
            point="#stop",
            keys="Type s (stop).",
            expect=STOP,
            refuse=(
                "Not this time: with 10, almost any card takes you over 11. Press STOP to "
                "keep your 10."
            ),
            why=(
                "STOP takes you out of the round, and your cards still count. A stop is "
                "final. Players who stopped are skipped, so Bot keeps taking turns until it "
                "stops too."
            ),
        ),
        Move(BOT, DROP),
        Move(BOT, STOP),
        Step(
            say="Everyone has stopped: look at the reveal.",
            point="#reveal",
            keys="The reveal is printed above; press Enter.",
            why=(
                "When everyone has stopped, all hands are shown at once. Bot had a 5 and a 3 "
                "hidden, then drew a FLEX and a 5: even with its FLEX as 1 that is 14. A total "
                "over 11 is OVERFLOW: it cannot win the round, and nobody is told before the "
                "reveal."
            ),
        ),
        Step(
            say="Look at your scoring card: it is turned over.",
            point="[data-seat='0'] .scoring",
            keys="Your round wins are in the table's wins column; press Enter.",
            why=(
                "Your 10 is the best total not over 11, so you win the round and turn over a "
                "scoring card (ties all win; exactly 11 gives nothing extra). A real game "
                "needs 3 round wins; this short one needs 1, so you win the game."
            ),
        ),
    ),
)
