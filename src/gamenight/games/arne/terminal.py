"""Arne in the terminal: draw a seat's view with Rich, read what a person types.

`describe_actions` lists the legal actions (numbered from 1 by the CLI); a person types the
number, or words of one line that fit no other: `pass`, `red` (for "choose colour red"),
`crush 2 1` (display 2, stack 1), `play red 100 1` (card, display) or `discard red 100`.
Players, displays and stacks are numbered from 1, as on the web pages.

Every word on the table comes from this game's catalogue (games/arne/locale; the colours'
names from the platform's, as the pages say them) in the terminal's language (LANG); a
person may type words of a line as it is shown, or as it reads in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, Event, State
from gamenight.games.arne import actions as A
from gamenight.games.arne.refusals import CARD_NAMES
from gamenight.games.terminal_text import Flow, pick_or_why, player, players
from gamenight.i18n import DEFAULT, N_, current, game_gettext, translations

# The table's words from this game's catalogue (games/arne/locale), in LANG's language.
_, ngettext = game_gettext(__name__.rpartition(".")[0])

# Colour words as the terminal shows them; the word itself is the symbol, so a player who
# cannot tell the colours apart still reads them.
_COLOUR_NAMES = {"c5": "purple", "c6": "orange"}
_STYLES = {
    "red": "bold red",
    "green": "bold green",
    "yellow": "bold yellow",
    "blue": "bold blue",
    "purple": "bold magenta",
    "orange": "bold dark_orange",
}
# The terminal's marks of a stack (the black cards on it), by the cards' names.
_MARKS = {"chameleon": "CHAMELEON", "x3": "X3", "crush": "CRUSH", "lock": "LOCK"}
# When black cards may answer (A9, A11, A12): at the start of a turn, before a white card
# works, after it.
_WINDOWS = {
    # TRANSLATORS: black cards may answer now (main): at the start of a turn, after the draw
    "main": N_("main"),
    # TRANSLATORS: black cards may answer now (pre): a white card is declared, not yet done
    "pre": N_("pre"),
    # TRANSLATORS: black cards may answer now (end): after a white card was done
    "end": N_("end"),
}
_VARIANTS = {"dummy": N_("dummy variant"), "team": N_("team variant")}


def _english(colour: str | None) -> str:
    """A colour's English name, which also picks its style ("c5" is "purple")."""
    return "-" if colour is None else _COLOUR_NAMES.get(colour, colour)


def colour_word(colour: str | None) -> str:
    """A colour's name as the pages say it (the platform's catalogue), in LANG's words."""
    name = _english(colour)
    return translations(current()).gettext(name) if colour is not None else name


def _card_name(name: str) -> str:
    """A black or white card by its name: "TAKE_RANDOM" -> "take random" (in English, as
    typed), else the card's name from the catalogue (the pages' and the rules' word)."""
    if current() != DEFAULT and name in CARD_NAMES and not name.startswith("X"):
        return _(CARD_NAMES[name])
    return name.replace("_", " ").lower()


def card_words(name: str) -> str:
    """A card as a player says it: "red P100" -> "red 100", "TAKE_RANDOM" -> "take random"."""
    colour, _sep, rest = name.partition(" ")
    if rest:
        value = rest.removeprefix("P").replace("MINUS", "-").replace("X2", "x2")
        return f"{colour_word(colour)} {value}"
    return _card_name(name)


def _style(name: str) -> str:
    """A card's style: its colour's, a black card in reverse."""
    colour, _sep, rest = name.partition(" ")
    return _STYLES.get(_english(colour), "") if rest else "reverse"


def card_text(name: str) -> Text:
    """A card in its colour (black cards in reverse)."""
    return Text(card_words(name), style=_style(name))


def _cards(names: list[str]) -> RenderableType:
    """Cards side by side, a line broken between cards, never inside a card's name."""
    if not names:
        return Text(_("(none)"))
    return Flow([card_text(n) for n in names])


def _stack(s: dict[str, Any], colour: str | None) -> Text:
    """A stack by its base card; the display's own colour goes without saying ("-200"
    on the green display), a chameleon's other colour is said ("yellow 50")."""
    marks = [_card_name(card) for word, card in _MARKS.items() if s[word]]
    text = card_text(s["base"])
    base_colour, _sep, value = str(s["base"]).partition(" ")
    if value and base_colour == colour:
        text = Text(card_words(s["base"]).rpartition(" ")[2], style=_style(s["base"]))
    if marks:
        text.append(" (" + " ".join(marks) + ")", style="italic")
    return text


def _player(p: int, me: int | None) -> str:
    return player(p, me)


# More displays than this (6 players, the team game of 6 and more): one line per display, the stacks
# cut short with "...", so the table and the question still fit 24 lines (issue 45 item 6).
COMPACT_DISPLAYS = 5


def _compact(view: dict[str, Any]) -> bool:
    return len(view["displays"]) > COMPACT_DISPLAYS


def _cut(text: Text, width: int = 36) -> Text:
    """A compact row's stacks on one line, cut short with an ellipsis."""
    text.truncate(width, overflow="ellipsis")
    return text


def _displays(view: dict[str, Any]) -> Table:
    """A row per display: its number and colour, who plays it, their hand, its score and
    its stacks (numbered from 1, as crush, lock and X3 name them). No box: the table and
    the question fit one 80x24 screen."""
    me = view["player"]
    seats = view["seats"]
    table = Table(box=None, header_style="bold underline", pad_edge=False, padding=(0, 1))
    table.add_column(_("display"))
    table.add_column(_("player"))
    table.add_column(_("hand"), justify="right")
    table.add_column(_("score"), justify="right")
    compact = _compact(view)
    if compact:
        table.add_column(_("stacks"), ratio=1, no_wrap=True, overflow="ellipsis")
    else:
        table.add_column(_("stacks"), ratio=1)
    for d in view["displays"]:
        owner = d["owner_seat"]
        if owner is None:  # the dummy display (7.3), played by the controller's player
            ctrl = view["dummy_seat"]
            mine = ctrl is not None and seats[ctrl]["player"] == me
            who = _("dummy")
            if ctrl is not None:
                who = _("dummy ({player})").format(player=player(seats[ctrl]["player"]))
            hand = ""
        else:
            participant = seats[owner]["player"]
            mine = participant == me
            who = _player(participant, me) + (" *" if participant == view["active"] else "")
            hand = str(seats[owner]["hand_size"])
        colour = colour_word(d["colour"])
        stacks = [Text(f"{i + 1}: ") + _stack(s, d["colour"]) for i, s in enumerate(d["stacks"])]
        table.add_row(
            Text(f"{d['display'] + 1:>2} ")
            + Text(colour, style=_STYLES.get(_english(d["colour"]), "")),
            Text(who, style="bold" if mine else ""),
            hand,
            str(d["score"]),
            (_cut(Text(", ").join(stacks)) if compact else Flow(stacks, ", "))
            if stacks
            else Text("-"),
        )
    return table


def _own_scores(view: dict[str, Any]) -> bool:
    """Whether each player's score is their display's (then the table says it all)."""
    by_player = {
        view["seats"][d["owner_seat"]]["player"]: d["score"]
        for d in view["displays"]
        if d["owner_seat"] is not None
    }
    return all(by_player.get(p) == score for p, score in enumerate(view["scores"]))


def _labelled(label: Text, what: RenderableType) -> Table:
    """ "your hand: red 100  blue 50 ..." with the cards wrapped beside the label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_row(label, what)
    return grid


def _with_card(template: str, card: str) -> Text:
    """A sentence with a card in its colour where the template says {card}."""
    before, _sep, after = template.partition("{card}")
    return Text(before) + card_text(card) + Text(after)


def render(view: dict[str, Any]) -> RenderableType:
    """Whose turn and which way, the displays with their stacks, the draw and discard
    piles, the window and who holds priority, what is pending, the live scores (section
    6) and the hand. A participant is always "player N" (A56, numbered from 1); the
    displays stay with the places at the table."""
    me = view["player"]
    title = _("Arne - game {number}").format(number=view["game_no"])
    if view["mode"] == "losing":
        title = _("{title}, losing game").format(title=title)
    if view["variant"] != "standard":
        variant = _VARIANTS.get(view["variant"])
        words = _(variant) if variant else f"{view['variant']} variant"
        title = f"{title}, {words}"
    turn = (
        _(" - turn: {player}, clockwise")
        if view["direction"] > 0
        else _(" - turn: {player}, counter-clockwise")
    )
    head = Text(title, style="bold") + Text(turn.format(player=_player(view["active"], me)))
    parts: list[RenderableType] = [head, _displays(view)]
    piles = _("draw pile {draw}   discard {discard}")
    line = Text(piles.format(draw=view["draw_pile"], discard=len(view["discard"])))
    if view["discard"]:
        line += _with_card(" " + _("(top {card})"), view["discard"][-1])
    w = view["window"]
    kind = _(_WINDOWS[w["kind"]]) if w and w["kind"] in _WINDOWS else (w or {}).get("kind")
    window = (
        Text(
            _("black cards may answer now ({kind}); first: {player}").format(
                kind=kind, player=_player(w["holder"], me)
            )
        )
        if w
        else None
    )
    if window is not None and _compact(view):  # one line for both (many displays)
        answers = _(" - answers ({kind}): {player} first")
        line += Text(answers.format(kind=kind, player=_player(w["holder"], me)))
        window = None
    parts.append(line)
    if view["pending"]:
        pending = _("pending: {card} by {player}")
        parts.append(
            Text(
                pending.format(
                    card=card_words(str(view["pending"]["kind"])),
                    player=_player(view["pending"]["player"], me),
                )
            )
        )
    if view["in_play"]:
        parts.append(_with_card(_("in play: {card}"), view["in_play"]["card"]))
    if window is not None:
        parts.append(window)
    if view["give"]:
        g = view["give"]
        give = (
            ngettext(
                "{player} hands {n} black card to {to}",
                "{player} hands {n} black cards to {to}",
                g["left"],
            )
            if g["cards"] == "black"
            else ngettext(
                "{player} hands {n} {colour} card to {to}",
                "{player} hands {n} {colour} cards to {to}",
                g["left"],
            )
        )
        words = give.format(
            player=_player(g["target"], me),
            n=g["left"],
            colour=colour_word(g["cards"]) if g["cards"] != "black" else "",
            to=_player(g["to"], me),
        )
        parts.append(Text(words))
    if not _own_scores(view) or view["game_no"] > 1:
        scores = ", ".join(f"{_player(p, me)}: {sc}" for p, sc in enumerate(view["scores"]))
        if view["variant"] == "team":  # team-mates share a score: one per team colour
            teams: dict[str, int] = {}
            for seat in view["seats"]:
                teams.setdefault(colour_word(seat["colour"]), view["scores"][seat["player"]])
            scores = ", ".join(f"{colour}: {sc}" for colour, sc in teams.items())
        scores = _("scores: {scores}").format(scores=scores)
        if view["game_no"] > 1:
            totals = _("totals: {totals}").format(totals=", ".join(map(str, view["totals"])))
            scores += "   " + totals
        parts.append(Text(scores))
    if view["hand"] is not None:
        parts.append(_labelled(Text(_("your hand:"), style="bold"), _cards(view["hand"])))
    for mate, cards in (view.get("team_hands") or {}).items():
        mate_label = _("team-mate {player}:").format(player=player(int(mate)))
        parts.append(_labelled(Text(mate_label), _cards(cards)))
    return Group(*parts)


def _where(j: int, s: int) -> str:
    return _("display {display} stack {stack}").format(display=j + 1, stack=s + 1)


def describe(a: Action) -> str:
    """One human line for an action."""
    if isinstance(a, A.Pass):
        return _("pass")
    if isinstance(a, A.ChooseColour):
        return _("choose colour {colour}").format(colour=colour_word(a.colour))
    if isinstance(a, A.PlayPoint):
        card = card_words(f"{a.colour} {a.card}")
        if a.display < 0:
            return _("discard {card}").format(card=card)
        return _("play {card} to display {display}").format(card=card, display=a.display + 1)
    if isinstance(a, A.Triple):
        return _("X3 on {where}").format(where=_where(a.display, a.stack))
    if isinstance(a, A.TakeRandom):
        return _("take a random card from {player}").format(player=player(a.target))
    if isinstance(a, A.DemandPoints):
        return _("demand 2 {colour} point cards from {player} into display {display}").format(
            colour=colour_word(a.colour), player=player(a.target), display=a.display + 1
        )
    if isinstance(a, A.DemandBlack):
        return _("demand 2 black cards from {player}").format(player=player(a.target))
    if isinstance(a, A.DrawThree):
        return _("draw three cards")
    if isinstance(a, A.PassHands):
        return _("everybody passes their hand on")
    if isinstance(a, A.SwapPlaces):
        return _("swap places with {player}").format(player=player(a.target))
    if isinstance(a, A.Give):
        card = card_words(f"{a.colour} {a.card}" if a.colour else a.card)
        return _("hand over {card}").format(card=card)
    if isinstance(a, A.MinusTwoHundred):
        return _("-200 ({colour}) into display {display}").format(
            colour=colour_word(a.colour), display=a.display + 1
        )
    if isinstance(a, A.Chameleon):
        return _("chameleon with {card} into display {display}").format(
            card=card_words(f"{a.colour} {a.card}"), display=a.display + 1
        )
    if isinstance(a, A.ThiefDiscard):
        return _("thief: take the top of the discard pile")
    if isinstance(a, A.ThiefStack):
        return _("thief: steal the chameleon stack at {where}").format(
            where=_where(a.display, a.stack)
        )
    if isinstance(a, A.Crush):
        return _("crush {where}").format(where=_where(a.display, a.stack))
    if isinstance(a, A.Lock):
        return _("lock {where}").format(where=_where(a.display, a.stack))
    if isinstance(a, A.Stop):
        return _("STOP!")
    if isinstance(a, A.Reverse):
        return _("REVERSE!")
    return a.kind.replace("_", " ")


# Passing at the start of your own turn skips nothing: the black cards answer, then you play.
OWN_TURN_PASS = N_("pass: let the others answer first, then play your card")


def describe_actions(state: State, seat: int) -> list[str]:
    """One line per legal action, in the order of `state.actions(seat)`."""
    legal = state.actions(seat)
    lines = [describe(a) for a in legal]
    view = state.view(seat)
    window = view.get("window") or {}
    if window.get("kind") == "main" and view.get("active") == seat:
        lines = [
            _(OWN_TURN_PASS) if isinstance(a, A.Pass) else line
            for a, line in zip(legal, lines, strict=True)
        ]
    return lines


def parse(text: str, state: State, seat: int) -> Action:
    """A number from `describe_actions`, or words of one of its lines that fit no other
    line (`pass`, `red` for "choose colour red", `crush 2 1`), as shown or in English; see
    `terminal_text.pick`. Words of a move the rules refuse now get the rules' reason
    ("why not?")."""
    every = state.game.all_actions  # type: ignore[attr-defined]
    return pick_or_why(text, state, seat, every, describe)


# Events with cards only some seats see, in words: who got or gave which cards.
_PRIVATE_CARDS = {
    "hand": N_("{player} is dealt: {cards}"),
    "drew_cards": N_("{player} draws: {cards}"),
    "card_taken": N_("{player} takes from {target}: {cards}"),
    "gave_card": N_("{target} hands {player}: {cards}"),
    "hand_received": N_("{player} receives the hand of {giver}: {cards}"),
    "team_hand": N_("the hand of team-mate {player}: {cards}"),
}


def _names(data: Mapping[str, Any]) -> dict[str, str]:
    """The event's players as words ("player 2"), by the names the sentences use."""
    return {key: player(data[key]) for key in ("player", "target", "giver") if key in data}


def describe_event(event: Event) -> str | None:
    """One line for the log, or None for bookkeeping events (and passes)."""
    d = event.data
    k = event.kind
    who = _names(d)
    if k == "turn":
        line = _("--- turn of {player} (at display {display})")
        return line.format(player=who["player"], display=d["seat"] + 1)
    if k == "drew":
        line = ngettext(
            "{player} draws {n} card; {left} left",
            "{player} draws {n} cards; {left} left",
            d["count"],
        )
        return line.format(player=who["player"], n=d["count"], left=d["draw_pile"])
    if k in _PRIVATE_CARDS:  # cards only some seats see: said with whose they are
        cards = ", ".join(card_words(c) for c in d["cards"]) or _("no cards")
        return "  (" + _(_PRIVATE_CARDS[k]).format(**who, cards=cards) + ")"
    if k == "declared":
        return _("{player} plays {card}: {action}").format(
            player=who["player"], card=card_words(d["card"]), action=describe_json(d["action"])
        )
    if k == "black":
        action = describe_json(d["action"])
        if "card" in d:
            line = _("{player} answers: {action} ({card})")
            return line.format(player=who["player"], action=action, card=card_words(d["card"]))
        return _("{player} answers: {action}").format(player=who["player"], action=action)
    if k == "pass":
        return None
    if k == "pass_in_advance":
        return _("{player} will pass").format(player=who["player"])
    if k == "no_white":
        return _("{player} plays no white card").format(player=who["player"])
    if k == "took_random":
        if d["moved"]:
            line = _("{player} takes a random card from {target}")
        else:
            line = _("{player} takes a random card from {target} (empty hand)")
        return line.format(player=who["player"], target=who["target"])
    if k == "demand":
        if d["cards"] == "black":
            line = ngettext(
                "{target} must hand over {n} black card",
                "{target} must hand over {n} black cards",
                d["count"],
            )
        else:
            line = ngettext(
                "{target} must hand over {n} {colour} card",
                "{target} must hand over {n} {colour} cards",
                d["count"],
            )
        colour = colour_word(str(d["cards"])) if d["cards"] != "black" else ""
        return line.format(target=who["target"], n=d["count"], colour=colour)
    if k == "gave_point":
        line = _("{target} hands over {card}")
        return line.format(target=who["target"], card=card_words(d["card"]))
    if k == "gave_black":
        return _("{target} hands over a black card").format(target=who["target"])
    if k == "swapped":
        line = _("{player} and {target} swap places")
        return line.format(player=who["player"], target=who["target"])
    if k == "hands_passed":
        return _("everybody passes their hand on")
    if k == "final_round":
        line = _("final round: {players} play once more")
        return line.format(players=players(list(d["order"])))
    if k == "cleanup":
        return _("hands go to the discard pile")
    if k == "scored":
        scores = ", ".join(f"{player(p)}: {sc}" for p, sc in enumerate(d["scores"]))
        return _("game {number} scores: {scores}").format(number=d["game_no"], scores=scores)
    if k == "over":
        winners = list(d["winners"])
        line = ngettext("game over; {players} wins", "game over; {players} win", len(winners))
        return line.format(players=players(winners))
    if k == "game":
        line = _("=== game {number}, display {display} begins")
        return line.format(number=d["game_no"], display=d["first_seat"] + 1)
    if k == "colour":
        seats = list(d["seats"])
        line = ngettext("{players} takes {colour}", "{players} take {colour}", len(seats))
        return line.format(players=players(seats), colour=colour_word(d["colour"]))
    if k == "dummy":
        return _("the dummy plays {colour}").format(colour=colour_word(d["colour"]))
    return None


def describe_json(obj: dict[str, Any]) -> str:
    from gamenight.engine.codec import action_from_json
    from gamenight.games.arne.actions import ACTION_TYPES

    return describe(action_from_json(obj, ACTION_TYPES))
