"""Drop It's guided first game (issue 46, item 1): the first drops of a two-player game
against one bot, teaching choosing a piece, aiming, rotating, the landing rules, levels and
bonus circles. Played by the shared runner (engine/tutorial.py) on the tutorial page
(/learn/drop-it) and by `gamenight learn drop-it`. The sentences follow the rules panel's
(rules.py).

Drops fall without hand noise (the default), so every drop lands the same way: a drop aimed
anywhere in a step's range is made at the step's own spot (`play`), which is where the
explanation says it lands (tests check it). Your colours are red and yellow, Bot's blue and
green.
"""

from __future__ import annotations

import math

from gamenight.engine.tutorial import Move, Step, Tutorial

YOU, BOT = 0, 1
TURNED = round(math.radians(45), 4)  # three presses of "turn right" (15 degrees each)

TUTORIAL = Tutorial(
    title="Learn Drop It",
    minutes=3,
    options={"players": 2, "start_seat": YOU},
    seed=1,
    seat=YOU,
    names=("Player 1", "Bot"),
    intro=(
        "The first drops of a game against a bot. Players take turns dropping wooden shapes "
        "into the upright board; a drop scores the highest level it reaches plus every "
        "bonus circle it covers, if it breaks no rule."
    ),
    outro=(
        "That is Drop It: choose, aim, turn, let go, and mind the landing rules. A real game "
        "goes on until all 36 pieces are in; the highest total wins."
    ),
    script=(
        Step(
            say="Choose your yellow circle.",
            point="#supply [data-piece='yellow-circle']",
            keys="Your pieces are listed under the board; press Enter.",
            why=(
                "On your turn you must drop exactly one piece of your own supply; you cannot "
                "pass. With two players each side has two colours: yours are red and yellow."
            ),
        ),
        Step(
            say="Click the dashed bonus circle at the bottom right to drop your circle there.",
            point="#board [data-bonus='B1']",
            keys="Type: yellow circle 170 0 (the piece, x in mm, the angle in degrees).",
            expect={"type": "drop", "piece": "yellow-circle", "x": [155, 185]},
            play={"type": "drop", "piece": "yellow-circle", "x": 170.0, "angle": 0.0},
            refuse=(
                "Not this time: drop your yellow circle on the bonus circle at the bottom right."
            ),
            why=(
                "Once you let go it falls and settles by real physics. Lines divide the board "
                "into 8 levels: your circle reaches level 1 (1 point) and covers the medium "
                "bonus circle (2 points), so it scores 3."
            ),
        ),
        Move(BOT, {"type": "drop", "piece": "blue-circle", "x": 75.0, "angle": 0.0}),
        Step(
            say="Look at Bot's drop: it scored 0.",
            point="#result",
            keys="Bot's drop is described above; press Enter.",
            why=(
                "Bot's blue circle touched the blue mark on the floor. A dropped piece may not "
                "touch an edge mark of its own colour, a piece of the same shape or a piece of "
                "its own colour, nor stick out above the top: such a drop scores 0."
            ),
        ),
        Step(
            say="Choose your red triangle, then press ⟳ (turn right) three times.",
            point=(
                "#supply [data-piece='red-triangle']",
                "[data-turn='right']",
                "[data-turn='right']",
                "[data-turn='right']",
            ),
            keys="At the terminal you give the angle with the drop; press Enter.",
            why=(
                "Before you let go you may move the piece along the top and turn it to any "
                "angle: 15 degrees a press here (or the arrow keys). It is now turned 45 "
                "degrees."
            ),
        ),
        Step(
            say="Click the bonus circle under your yellow circle to drop the triangle there.",
            point="#board [data-bonus='B1']",
            keys="Type: red triangle 170 45 (at 170 mm, turned 45 degrees).",
            expect={"type": "drop", "piece": "red-triangle", "x": [160, 180], "angle": [0.7, 0.87]},
            play={"type": "drop", "piece": "red-triangle", "x": 170.0, "angle": TURNED},
            refuse=(
                "Not this time: turn your red triangle 45 degrees (three presses of turn "
                "right) and drop it on your yellow circle."
            ),
            why=(
                "It struck your circle and knocked it away to the left (Bot's circle too), "
                "then slid down to the right: it rests flat on the floor, level 1, 1 point. "
                "Your circle keeps its 3: points are never taken back when a piece is moved."
            ),
        ),
    ),
)
