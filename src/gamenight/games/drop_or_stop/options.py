"""Drop or Stop options: every named setting of the spec (§2.3, R1, R12a, R34), validated."""

from __future__ import annotations

from dataclasses import dataclass

from gamenight.engine.core import BadInput, said_in
from gamenight.engine.options import seat_refused, setting
from gamenight.games.drop_or_stop.components import DECK_SIZE, PRESETS
from gamenight.i18n import N_


def refused(template: str, **words: object) -> BadInput:
    """A refusal of these options: `template` (marked N_) is a sentence of Drop or Stop's
    catalogue, said in the reader's language where it is shown; its words (option names,
    numbers) as they are."""
    return BadInput(said_in(__package__ or "", template, **words))


@dataclass(frozen=True)
class Options:
    """Every named setting of the spec (§2.3, R12a, R34)."""

    players: int = setting(3, "number of players (R1)", min=1, max=12)
    # (a help text is a literal, so each catalogue has it; tests/server/test_option_texts.py checks
    # that it names every preset)
    deck: str = setting(
        "standard",
        "deck preset (standard, descending, 1to6) or the path of a JSON deck file (§2.2)",
        served=tuple(PRESETS),
    )
    target: int = setting(
        11, "the highest total that does not overflow (TARGET)", min=1, ceiling=100
    )
    hand_size: int = setting(
        2, "hidden cards dealt to each player per round (HAND_SIZE)", min=0, ceiling=10
    )
    wins_to_win: int = setting(
        3, "round wins needed to win the game (WINS_TO_WIN)", min=1, ceiling=10
    )
    min_players: int = setting(2, "MIN_PLAYERS (R1)", min=1, ceiling=12)
    max_players: int = setting(
        4, "MAX_PLAYERS (R1); one colour set of scoring cards each", min=1, ceiling=12
    )
    allow_drop_when_overflowed: bool = setting(
        True, "a player already over the target may still DROP (R12a)"
    )
    first_start_seat: int | str = setting(
        "random",
        "the player who gets the start card first, or 'random' (seeded, R6/R27)",
        ceiling=11,
        seat=True,
    )
    max_rounds: int | None = setting(
        None,
        "engine cap on rounds; a capped game ends truncated, without winners (R34)",
        min=1,
        ceiling=500,
    )

    def __post_init__(self) -> None:
        if not self.min_players <= self.players <= self.max_players:
            raise refused(
                N_(
                    "drop-or-stop needs {low}-{high} players (R1), got {players}; "
                    "change min_players/max_players to allow it"
                ),
                low=self.min_players,
                high=self.max_players,
                players=self.players,
            )
        seat_refused("drop-or-stop", "first_start_seat", self.first_start_seat, self.players)
        if self.players * self.hand_size > DECK_SIZE:
            raise refused(
                N_("{players} hands of {hand_size} need more than {cards} cards"),
                players=self.players,
                hand_size=self.hand_size,
                cards=DECK_SIZE,
            )

    def kept_in_json(self) -> tuple[str, ...]:
        """With a deck file, its settings are saved even at the engine's default: left out,
        the file's own value would replace them when the options are read back."""
        return tuple(FILE_SETTINGS.values()) if self.deck.endswith(".json") else ()


DropOrStopOptions = Options  # the name before every game's options were called Options

# Keys of the spec's machine-readable block (§2.2) that a deck file may also set.
FILE_SETTINGS = {
    "target": "target",
    "handSize": "hand_size",
    "winsToWin": "wins_to_win",
    "minPlayers": "min_players",
    "maxPlayers": "max_players",
    "allowDropWhenOverflowed": "allow_drop_when_overflowed",
    "firstStartSeat": "first_start_seat",
}
