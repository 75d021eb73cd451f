"""Why an Arne choice is not available now, in player words (issue 46 item 3, "why not?").

`why(state, player, action)` answers an action the rules refuse: the page shows it on a
click on an unavailable card or target, the terminal on a typed one. Every sentence people
read is in `REASONS`, one place for a later translation catalogue; clause ids stay in the
comments. A reason speaks only of what the asking player may know: their own hand, the
table, the phase (never another player's hidden cards).

The checks run only after the fast legality test (`ArneState._refusal`) said no, so they
may be plain; an action parsed from a hostile message (any field, any number) gets a
sentence too, never an exception.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.engine.core import Action, Reason
from gamenight.games.arne import actions as A
from gamenight.games.arne.black_cards import black_actions
from gamenight.games.arne.components import Stack
from gamenight.games.arne.phases import COLOUR, FINAL, GIVE, MAIN, WHITE, WINDOW
from gamenight.games.arne.white_cards import WHITE_CARD, white_actions
from gamenight.i18n import N_

if TYPE_CHECKING:
    from gamenight.games.arne.state import ArneState

# Every sentence a person reads; {card}, {colour}, {what} are filled in player words.
REASONS: dict[str, str] = {
    # who may act now (A3, A8, A9, A15, A19, A41)
    "choose_first": N_("you can't play cards yet: first everybody chooses a colour"),
    "colour_unknown": N_("you can't choose {colour}: it is not a colour of this game"),
    "colour_taken": N_("you can't choose {colour}: it is already taken"),
    "colour_done": N_("you can't choose a colour now: colours are chosen at the start"),
    "give_first": N_("you can't do that now: first hand over the cards you were asked for"),
    "give_none": N_("you can't hand over a card now: nobody asked you for one"),
    "give_missing": N_("you can't hand over {card}: you do not hold one"),
    "give_wrong_points": N_("you can't hand over {card}: you were asked for {colour} point cards"),
    "give_wrong_black": N_("you can't hand over {card}: you were asked for black cards"),
    "not_your_turn_white": N_("you can't play a white card now: it is not your turn"),
    "white_played": N_("you can't play another white card: one white card per turn"),
    "white_wait": N_("you can't play your white card yet: the others are still answering"),
    "white_final": N_("you can't play a white card in the final round: only black cards now"),
    "black_wait": N_("you can't play a black card yet: wait until it is your chance to answer"),
    "black_white_step": N_(
        "you can't play a black card now: play your white card first, then everybody may answer"
    ),
    "must_play_white": N_("you can't pass now: you have a white card you can play, so play one"),
    "pass_give": N_("you can't pass now: hand over the cards you were asked for"),
    "pass_colour": N_("you can't pass now: choose a colour"),
    "not_held": N_("you can't play {card}: you do not hold one"),
    "no_such_card": N_("you can't play that: there is no such card in this game"),
    "no_such_stack": N_("you can't do that: there is no such stack"),
    "no_such_display": N_("you can't do that: there is no such display"),
    "no_such_player": N_("you can't do that: there is no such player"),
    "yourself": N_("you can't choose yourself: choose another player"),
    # white cards (A21-A28)
    "point_not_point": N_("you can't lay {card} like a point card"),
    "point_other_colour": N_(
        "you can't lay {card} there: a point card goes only into a display of its own colour"
    ),
    "point_not_own": N_(
        "you can't lay {card} there: your point cards go into your own display "
        "(or the dummy's), or onto the discard pile"
    ),
    "point_losing_own": N_(
        "you can't lay {card} into a display: in the losing game your own colour "
        "goes only onto the discard pile"
    ),
    "x3_taken": N_("you can't put a tripler on this stack: it already has one"),
    "x3_none": N_("you can't play your tripler now: no stack on the table is without one"),
    "demand_own_colour": N_("you can't demand {colour} cards: you may demand only your own colour"),
    "demand_own_display": N_("you can't do that: the demanded cards go into your own display"),
    "demand_losing_own": N_("you can't demand your own colour in the losing game"),
    "demand_display_colour": N_(
        "you can't do that: the demanded cards go into a display of their colour"
    ),
    "demand_none": N_("you can't play your demand now: no other colour has a display"),
    # black cards (A29-A35, A41)
    "minus_colour": N_(
        "you can't lay a {colour} -200 there: it goes only into a {colour} display "
        "(elsewhere only with a chameleon)"
    ),
    "minus_none": N_(
        "you can't play a {colour} -200 alone: no display is {colour}; play it with a chameleon"
    ),
    "chameleon_alone": N_("you can't play a chameleon alone: it carries a point card or a -200"),
    "chameleon_no_card": N_("you can't play a chameleon now: you hold no card it could carry"),
    "chameleon_missing": N_("you can't let the chameleon carry {card}: you do not hold one"),
    "chameleon_not_base": N_("a chameleon carries only a point card or a -200, not {card}"),
    "chameleon_same_colour": N_(
        "you can't play a chameleon with {card} there: a chameleon goes only into "
        "a display of another colour than the card it carries"
    ),
    "chameleon_final_none": N_("you can't play a chameleon in the final round"),
    "chameleon_final_minus": N_("in the final round a chameleon may carry only a -200"),
    "crush_taken": N_("you can't crush this stack: it is already crushed"),
    "crush_minus": N_("you can't crush a -200: only point cards can be crushed"),
    "crush_none": N_("you can't play your crush now: no stack on the table can be crushed"),
    "lock_taken": N_("you can't lock this stack: it is already locked"),
    "lock_uncrushed": N_(
        "you can't lock this stack: a lock goes only on a crushed stack or on a -200"
    ),
    "lock_none": N_("you can't play your lock now: no crushed stack or -200 is waiting for a lock"),
    "thief_again": N_(
        "you can't play a thief you took from the discard pile again until the next answers"
    ),
    "thief_empty": N_("you can't take from the discard pile: it is empty"),
    "thief_thief": N_(
        "you can't take the top card of the discard pile: a thief can't take a thief"
    ),
    "thief_own": N_("you can't steal from your own display"),
    "thief_dummy": N_("you can't steal from the dummy's display in this game"),
    "thief_no_chameleon": N_(
        "you can't steal this stack: a thief takes only a stack with a chameleon"
    ),
    "thief_none": N_(
        "you can't play your thief now: the discard pile has nothing it may take "
        "and no other display has a stack with a chameleon"
    ),
    "turn_card_final": N_("you can't play {card} in the final round: no turn follows it"),
    "other": N_("you can't do that now"),
}

_COLOURED_BLACK = ("MINUS200",)
_BLACK_CARD: dict[type[Action], str] = {
    A.Crush: "CRUSH",
    A.Lock: "LOCK",
    A.ThiefDiscard: "THIEF",
    A.ThiefStack: "THIEF",
    A.Stop: "STOP",
    A.Reverse: "REVERSE",
    A.Chameleon: "CHAMELEON",
}
# Card names as the page's cards say them (arne-cards.js), also for the catalogue.
CARD_NAMES: dict[str, str] = {
    "P50": "50",
    "P100": "100",
    "P200": "200",
    "P500": "500",
    "P1000": "1000",
    "X2": N_("doubler"),
    "X3": N_("tripler"),
    "MINUS200": "-200",
    "TAKE_RANDOM": N_("take a card"),
    "DEMAND_POINTS": N_("demand 2 points"),
    "DEMAND_BLACK": N_("demand 2 black"),
    "DRAW_THREE": N_("draw three"),
    "PASS_HANDS": N_("pass hands"),
    "SWAP_PLACES": N_("swap places"),
    "CHAMELEON": N_("chameleon"),
    "THIEF": N_("thief"),
    "CRUSH": N_("crush"),
    "LOCK": N_("lock"),
    "STOP": N_("stop"),
    "REVERSE": N_("reverse"),
}


def say(key: str, **words: str) -> Reason:
    """The sentence `key` with its words filled in (English; translated where it is shown:
    the template is a message of this game's catalogue)."""
    return Reason(REASONS[key], words, __package__ or "", key)


def colour_words(state: ArneState, colour: str) -> Reason:
    """A colour's name (the option's, else its id), a message of the platform's catalogue
    (the page's colour names, arne-cards.js)."""
    names = dict(state.game.options.colour_names)
    return Reason(names.get(colour, colour), package="gamenight")


def card_words(state: ArneState, card: str, colour: str = "") -> Reason:
    """A card as a player says it: "a red 100", "a blue -200", "a crush"."""
    name = CARD_NAMES.get(card, card.replace("_", " ").lower())
    word: str = Reason(name, package=__package__ or "") if card in CARD_NAMES else name
    if colour:
        paint = colour_words(state, colour)
        first = paint[:1]
        template = N_("an {colour} {name}") if first in "aeiou" else N_("a {colour} {name}")
        return Reason(template, {"colour": paint, "name": word}, __package__ or "")
    template = N_("an {name}") if name[:1] in "aeiox" else N_("a {name}")
    return Reason(template, {"name": word}, __package__ or "")


def _holds(state: ArneState, player: int, card: str, colour: str = "") -> bool:
    kind = state.game.kind_of.get((card, colour))
    if kind is None:
        return False
    card_kind = state.game.card_kind
    return any(card_kind[c] == kind for c in state.hands[player])


def _stack(state: ArneState, display: int, stack: int) -> Stack | None:
    if not 0 <= display < len(state.displays):
        return None
    stacks = state.displays[display]
    return stacks[stack] if 0 <= stack < len(stacks) else None


def _same_type(legal: list[Action], action: Action) -> bool:
    return any(type(a) is type(action) for a in legal)


def why(state: ArneState, player: int, action: Action) -> str:
    """Why `player` may not take `action` now (the action is known to be refused)."""
    phase = state.phase
    if isinstance(action, A.ChooseColour):
        return _why_colour(state, action)
    if phase == COLOUR:
        return say("pass_colour" if isinstance(action, A.Pass) else "choose_first")
    if isinstance(action, A.Give):
        return _why_give(state, player, action)
    if phase == GIVE:
        return say("pass_give" if isinstance(action, A.Pass) else "give_first")
    if isinstance(action, A.Pass):
        return say("must_play_white" if phase == WHITE else "other")
    if isinstance(action, A.WHITE_ACTIONS):
        return _why_white_now(state, player) or _why_white(state, player, action)
    # a black action (A29-A35)
    if phase == WHITE:
        return say("black_white_step")  # A9: the main window is closed, A11/A12 come later
    if phase == WINDOW and player != state.player_at[state.holder]:
        return say("black_wait")  # A15: priority goes round
    return _why_black(state, player, action, phase == FINAL)


def _why_colour(state: ArneState, action: A.ChooseColour) -> str:
    """A3: a free colour of this deck, while colours are chosen."""
    game = state.game
    if state.phase != COLOUR:
        return say("colour_done")
    word = colour_words(state, action.colour)
    if action.colour not in game.colours or game.colours.index(action.colour) not in set(
        game.deck_colour_idx
    ):
        return say("colour_unknown", colour=word)
    return say("colour_taken", colour=word)


def _why_give(state: ArneState, player: int, action: A.Give) -> str:
    """A24/A25: the demand's target hands over a fitting card of its own hand."""
    demand = state.demand
    if state.phase != GIVE or demand is None or demand.target != player:
        return say("give_none")
    game = state.game
    card = card_words(state, action.card, action.colour)
    kind = game.kind_of.get((action.card, action.colour))
    if kind is None or not _holds(state, player, action.card, action.colour):
        return say("give_missing", card=card)
    if demand.cards == "P":
        colour = colour_words(state, game.colours[demand.colour])
        return say("give_wrong_points", card=card, colour=colour)
    return say("give_wrong_black", card=card)


def _why_white_now(state: ArneState, player: int) -> str | None:
    """A8, A9, A41: a white card only by the active player, once, in the main window or the
    white step."""
    phase = state.phase
    if phase == FINAL:
        return say("white_final")
    if player != state.active:
        return say("not_your_turn_white")
    if phase == WINDOW and state.window != MAIN:
        return say("white_played")
    if phase == WINDOW and player != state.player_at[state.holder]:
        return say("white_wait")
    return None


def _white_card(action: Action) -> tuple[str, str]:
    if isinstance(action, A.PlayPoint):
        return action.card, action.colour
    return WHITE_CARD[type(action)], ""


def _why_white(state: ArneState, player: int, action: Action) -> str:
    """A20-A28 for the active player who may declare now."""
    game = state.game
    card, colour = _white_card(action)
    if (card, colour) not in game.kind_of:
        return say("no_such_card")
    words = card_words(state, card, colour)
    if not _holds(state, player, card, colour):
        return say("not_held", card=words)
    if isinstance(action, A.PlayPoint):
        return _why_point(state, player, action, words)
    if isinstance(action, A.Triple):  # A22
        spot = _stack(state, action.display, action.stack)
        if not _same_type(white_actions(state, player), action):
            return say("x3_none")
        return say("no_such_stack") if spot is None else say("x3_taken")
    if isinstance(action, A.DemandPoints) and not _same_type(white_actions(state, player), action):
        return say("demand_none")  # A24, losing game: no other colour has a display
    if isinstance(action, (A.TakeRandom, A.DemandBlack, A.SwapPlaces, A.DemandPoints)):
        if not 0 <= action.target < game.n:
            return say("no_such_player")
        if action.target == player:
            return say("yourself")
    if isinstance(action, A.DemandPoints):
        return _why_demand(state, player, action)
    return say("other")


def _why_point(state: ArneState, player: int, action: A.PlayPoint, words: str) -> str:
    """A21: a point card into a display of its colour (whose, by mode), or the pile."""
    game = state.game
    kind = game.kind_of[(action.card, action.colour)]
    if not game.is_point[kind]:
        return say("point_not_point", card=words)
    if not 0 <= action.display < game.n_displays:
        return say("no_such_display")
    colour = game.kind_colour[kind]
    if state.display_colour[action.display] != colour:
        return say("point_other_colour", card=words)
    if game.losing:
        return say("point_losing_own", card=words)
    return say("point_not_own", card=words)


def _why_demand(state: ArneState, player: int, action: A.DemandPoints) -> str:
    """A24: the named colour and the display the cards go into."""
    game = state.game
    own = state.own_colour(player)
    if action.colour not in game.colours:
        return say("no_such_card")
    colour = game.colours.index(action.colour)
    word = colour_words(state, action.colour)
    if not _same_type(white_actions(state, player), action):
        return say("demand_none")
    if not 0 <= action.display < game.n_displays:
        return say("no_such_display")
    if game.losing:
        if colour == own:
            return say("demand_losing_own")
        return say("demand_display_colour")
    if colour != own:
        return say("demand_own_colour", colour=word)
    return say("demand_own_display")


def _why_black(state: ArneState, player: int, action: Action, final: bool) -> str:
    """A29-A35 (A41 in the final round) for a player who may play black cards now."""
    game = state.game
    if isinstance(action, A.MinusTwoHundred):
        return _why_minus(state, player, action)
    card = _BLACK_CARD.get(type(action))
    if card is None:
        return say("other")
    words = card_words(state, card)
    if not _holds(state, player, card):
        return say("not_held", card=words)
    if isinstance(action, A.Chameleon):
        return _why_chameleon(state, player, action, final)
    if isinstance(action, (A.Stop, A.Reverse)):  # A41: no turn follows the final round
        return say("turn_card_final", card=words) if final else say("other")
    legal = black_actions(state, player, final)
    if isinstance(action, (A.ThiefDiscard, A.ThiefStack)):
        return _why_thief(state, player, action, legal)
    assert isinstance(action, (A.Crush, A.Lock))
    spot = _stack(state, action.display, action.stack)
    crush = isinstance(action, A.Crush)
    if not _same_type(legal, action):
        return say("crush_none" if crush else "lock_none")
    if spot is None:
        return say("no_such_stack")
    minus = game.is_minus[game.card_kind[spot.base]]
    if crush:  # A32
        return say("crush_minus") if minus else say("crush_taken")
    if spot.lock >= 0:  # A33
        return say("lock_taken")
    return say("lock_uncrushed") if spot.crush < 0 else say("other")


def _why_minus(state: ArneState, player: int, action: A.MinusTwoHundred) -> str:
    """A30: a -200 into a display of its own colour."""
    game = state.game
    kind = game.kind_of.get(("MINUS200", action.colour))
    if kind is None:
        return say("no_such_card")
    if not _holds(state, player, "MINUS200", action.colour):
        return say("not_held", card=card_words(state, "MINUS200", action.colour))
    if not state.displays_of.get(game.kind_colour[kind]):
        return say("minus_none", colour=colour_words(state, action.colour))
    if not 0 <= action.display < game.n_displays:
        return say("no_such_display")
    return say("minus_colour", colour=colour_words(state, action.colour))


def _why_chameleon(state: ArneState, player: int, action: A.Chameleon, final: bool) -> str:
    """A31, A41: a chameleon with a base card of the same hand into another colour."""
    game = state.game
    options = game.options
    rule = options.chameleon_in_final_round if final else "all"
    if rule == "none":
        return say("chameleon_final_none")
    hand_kinds = {game.card_kind[c] for c in state.hands[player]}
    if not any(game.is_base[k] for k in hand_kinds):
        return say("chameleon_no_card")
    if rule == "minus200_only" and not any(game.is_minus[k] for k in hand_kinds):
        return say("chameleon_final_minus")
    kind = game.kind_of.get((action.card, action.colour))
    carried = card_words(state, action.card, action.colour)
    if kind is None or not game.is_base[kind]:
        return say("chameleon_not_base", card=carried)
    if not _holds(state, player, action.card, action.colour):
        return say("chameleon_missing", card=carried)
    if rule == "minus200_only" and not game.is_minus[kind]:
        return say("chameleon_final_minus")
    if not 0 <= action.display < game.n_displays:
        return say("no_such_display")
    return say("chameleon_same_colour", card=carried)


def _why_thief(state: ArneState, player: int, action: Action, legal: list[Action]) -> str:
    """A29: the top of the discard pile, or a chameleon stack of another display."""
    game = state.game
    options = game.options
    if not any(isinstance(a, (A.ThiefDiscard, A.ThiefStack)) for a in legal):
        if options.thief_may_take_thief and state.fetched[player] > 0:
            return say("thief_again")
        if isinstance(action, A.ThiefDiscard) or _stack_index_bad(state, action):
            return say("thief_none")
    if isinstance(action, A.ThiefDiscard):
        return say("thief_empty") if not state.discard else say("thief_thief")
    assert isinstance(action, A.ThiefStack)
    spot = _stack(state, action.display, action.stack)
    if spot is None:
        return say("no_such_stack")
    if action.display == state.seat_of[player]:
        return say("thief_own")
    if action.display == game.n and not options.dummy_thief_allowed:
        return say("thief_dummy")
    return say("thief_no_chameleon")


def _stack_index_bad(state: ArneState, action: Action) -> bool:
    assert isinstance(action, A.ThiefStack)
    return _stack(state, action.display, action.stack) is None
