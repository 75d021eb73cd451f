"""Every named setting of spec section 11, as validated game options."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gamenight.engine.core import BadInput, said_in
from gamenight.engine.options import seat_refused, setting
from gamenight.games.arne.components import (
    DEFAULT_COLOUR_NAMES,
    DEFAULT_COLOURS,
    DEFAULT_STAR_COLOURS,
    deck,
)
from gamenight.i18n import N_

# A1, A49, A53: players per variant.
PLAYER_RANGE = {"standard": (2, 6), "dummy": (2, 5), "team": (4, 12)}


# A colour id or name becomes card names and page text: a short word from a safe alphabet.
SAFE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,19}")


def refused(template: str, **words: object) -> BadInput:
    """A refusal of these options: `template` (marked N_) is a sentence of Arne's catalogue,
    said in the reader's language where it is shown; its words (option names, values,
    numbers) as they are."""
    return BadInput(said_in(__package__ or "", template, **words))


# The players a variant needs (A1, A49, A53), by variant: each sentence names its game.
NEEDS_PLAYERS = {
    "standard": N_("arne standard game needs {low}-{high} players, got {players}"),
    "dummy": N_("arne dummy game needs {low}-{high} players, got {players}"),
    "team": N_("arne team game needs {low}-{high} players, got {players}"),
}


def _safe(name: str, what: str) -> str:
    if not SAFE_NAME.fullmatch(name):
        raise refused(
            N_(
                "arne option '{option}': {name} is not a colour name "
                "(1-20 letters, digits, '-' or '_', starting with a letter)"
            ),
            option=what,
            name=repr(name[:40]),
        )
    return name


def _names(value: Any, what: str) -> tuple[str, ...]:
    """A tuple of names from a tuple, a list or a comma-separated string."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise refused(
            N_("arne option '{option}' must be a list of names, got {value}"),
            option=what,
            value=repr(value),
        )
    return tuple(_safe(v, what) for v in value)


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """colour_names from {"c5": "purple"}, "c5=purple,c6=orange" or [["c5", "purple"]]."""
    if isinstance(value, str):
        items = []
        for part in value.split(","):
            if part.strip():
                if "=" not in part:
                    raise refused(
                        N_("arne option 'colour_names': write id=name pairs, got {part}"),
                        part=repr(part),
                    )
                key, name = part.split("=", 1)
                items.append((key.strip(), name.strip()))
        value = items
    elif isinstance(value, dict):
        value = list(value.items())
    try:
        pairs = tuple((str(k), str(v)) for k, v in value)
    except (TypeError, ValueError) as err:
        raise refused(
            N_("arne option 'colour_names' must map colour ids to names: {problem}"), problem=err
        ) from err
    for key, name in pairs:
        _safe(key, "colour_names")
        _safe(name, "colour_names")
    return tuple(sorted(pairs))


@dataclass(frozen=True)
class Options:
    """Spec section 11; clause ids in the help texts."""

    players: int = setting(4, "number of players (A1; dummy 2-5, team 4-12 even)", min=2, max=12)
    mode: str = setting(
        "normal",
        "normal: highest wins; losing: lowest wins (A43, 7.2)",
        choices=("normal", "losing"),
        labels={"normal": "normal game", "losing": "losing game"},
    )
    variant: str = setting(
        "standard",
        "standard, dummy (7.3) or team (7.4) game",
        choices=("standard", "dummy", "team"),
        labels={"standard": "standard game", "dummy": "dummy game", "team": "team game"},
    )
    learning: bool = setting(False, "learning game: only the cards marked 1 (7.5, 2.6)")
    hand_size: int = setting(8, "cards dealt to each player (A4)", min=1)
    colours: tuple[str, ...] = setting(DEFAULT_COLOURS, "the six colour ids (2.1)")
    colour_names: tuple[tuple[str, str], ...] = setting(
        DEFAULT_COLOUR_NAMES, "display names of colour ids, e.g. 'c5=purple,c6=orange' (Q1)"
    )
    star_colours: tuple[str, ...] = setting(
        DEFAULT_STAR_COLOURS, "the two colours whose cards carry the star (2.6, Q2)"
    )
    colour_assignment: str = setting(
        "choose_in_seat_order",
        "players choose colours in seat order, or they are dealt (A3)",
        choices=("choose_in_seat_order", "random"),
        labels={"choose_in_seat_order": "chosen in seat order", "random": "dealt at random"},
    )
    first_seat: int | str = setting(
        0, "the player who begins the first game, or 'random' (A5, A55)", seat=True
    )
    reverse_mode: str = setting(
        "flip_and_take",
        "REVERSE: turn direction and move next, or only turn (A14, Q4)",
        choices=("flip_and_take", "flip"),
        labels={"flip_and_take": "turn and play next", "flip": "only turn"},
    )
    two_player_reverse_as_stop: bool = setting(
        True, "with 2 players and reverse_mode=flip, REVERSE works like STOP (A14)"
    )
    pre_resolution_windows: bool = setting(True, "black cards may answer a declared card (A11)")
    thief_may_take_thief: bool = setting(False, "a THIEF may take a THIEF off the pile (A29)")
    demand_selection: str = setting(
        "target_choice",
        "who picks the demanded cards (A24, A25, Q8)",
        choices=("target_choice", "random"),
        labels={"target_choice": "the player asked picks", "random": "at random"},
    )
    chameleon_same_colour_allowed: bool = setting(
        False, "a chameleon may carry a card into a display of its own colour (A31, Q10)"
    )
    chameleon_in_final_round: str = setting(
        "minus200_only",
        "chameleon pairs allowed in the final round (A41, Q11)",
        choices=("minus200_only", "all", "none"),
        labels={"minus200_only": "only with a -200", "all": "all", "none": "none"},
    )
    dummy_deck_player_count: str = setting(
        "players_plus_one",
        "deck of the dummy game: for players + 1 or for players (A49)",
        choices=("players_plus_one", "players"),
        labels={"players_plus_one": "for players + 1", "players": "for the players"},
    )
    dummy_thief_allowed: bool = setting(True, "a THIEF may take from the dummy display (A29)")
    dummy_reverse_in_final_round: bool = setting(
        False, "REVERSE may take the dummy in the final round (A52, Q16)"
    )
    team_open_hands: bool = setting(False, "team-mates see each other's hands (A47)")
    tie_rule: str = setting(
        "shared",
        "equal best scores share the win (A43)",
        choices=("shared",),
        labels={"shared": "a shared win"},
    )
    series_games: int = setting(
        1, "games in a series, first seat rotating (A55)", min=1, max=50, ceiling=10
    )
    series_target_score: int | None = setting(
        None, "end the series after the game in which a total reaches this (A55)", ceiling=100_000
    )

    def __post_init__(self) -> None:
        lo, hi = PLAYER_RANGE[self.variant]
        if not lo <= self.players <= hi:
            raise refused(NEEDS_PLAYERS[self.variant], low=lo, high=hi, players=self.players)
        if self.variant == "team" and self.players % 2:
            raise refused(
                N_("arne team game needs an even number of players, got {players}"),
                players=self.players,
            )
        colours = _names(self.colours, "colours")
        stars = _names(self.star_colours, "star_colours")
        object.__setattr__(self, "colours", colours)
        object.__setattr__(self, "star_colours", stars)
        object.__setattr__(self, "colour_names", _pairs(self.colour_names))
        if len(colours) != 6 or len(set(colours)) != 6:
            raise refused(
                N_("arne option 'colours' needs 6 different colour ids, got {colours}"),
                colours=colours,
            )
        if len(stars) != 2 or len(set(stars)) != 2 or not set(stars) <= set(colours):
            raise refused(
                N_("arne option 'star_colours' needs 2 of the colours {colours}, got {stars}"),
                colours=colours,
                stars=stars,
            )
        seat_refused("arne", "first_seat", self.first_seat, self.players)
        if (
            self.variant == "dummy"
            and self.dummy_deck_player_count == "players"
            and self.players in (2, 4)
        ):
            raise refused(
                N_(
                    "arne dummy game with dummy_deck_player_count='players' has no colour left "
                    "for the dummy with {players} players; use 'players_plus_one'"
                ),
                players=self.players,
            )
        cards = sum(deck(self.owners, self.learning, 2 if self.variant == "team" else 1).values())
        if self.hand_size * self.players >= cards:
            raise refused(
                N_(
                    "arne: {players} hands of {hand_size} cards leave no draw pile from "
                    "{cards} cards (A4); hand_size must be at most {most}"
                ),
                players=self.players,
                hand_size=self.hand_size,
                cards=cards,
                most=(cards - 1) // self.players,
            )
        if self.series_target_score is not None and self.series_games < 2:
            raise refused(N_("arne option 'series_target_score' needs series_games of 2 or more"))

    @property
    def owners(self) -> int:
        """Who owns a colour (2.6): players, players + 1 with a dummy, or teams."""
        if self.variant == "team":
            return self.players // 2
        if self.variant == "dummy" and self.dummy_deck_player_count == "players_plus_one":
            return self.players + 1
        return self.players

    def colour_name(self, colour: str) -> str:
        return dict(self.colour_names).get(colour, colour)
