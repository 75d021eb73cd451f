"""Arne in the terminal: draw a seat's view with Rich, read what a person types.

`describe_actions` lists the legal actions (numbered from 1 by the CLI); a person types the
number, or words of one line that fit no other: `pass`, `red` (for "choose colour red"),
`crush 2 1` (display 2, stack 1), `play red 100 1` (card, display) or `discard red 100`.
Players, displays and stacks are numbered from 1, as on the web pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, Event, State
from gamenight.games.arne import actions as A
from gamenight.games.terminal_text import Flow, pick_or_why, player, players

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


def colour_word(colour: str | None) -> str:
    return "-" if colour is None else _COLOUR_NAMES.get(colour, colour)


def card_words(name: str) -> str:
    """A card as a player says it: "red P100" -> "red 100", "TAKE_RANDOM" -> "take random"."""
    colour, _, rest = name.partition(" ")
    if rest:
        value = rest.removeprefix("P").replace("MINUS", "-").replace("X2", "x2")
        return f"{colour_word(colour)} {value}"
    return name.replace("_", " ").lower()


def card_text(name: str) -> Text:
    """A card in its colour (black cards in reverse)."""
    words = card_words(name)
    colour = words.split(" ")[0]
    return Text(words, style=_STYLES.get(colour, "reverse" if " " not in name else ""))


def _cards(names: list[str]) -> RenderableType:
    """Cards side by side, a line broken between cards, never inside a card's name."""
    if not names:
        return Text("(none)")
    return Flow([card_text(n) for n in names])


def _stack(s: dict[str, Any], colour: str | None) -> Text:
    """A stack by its base card; the display's own colour goes without saying ("-200"
    on the green display), a chameleon's other colour is said ("yellow 50")."""
    marks = [word for word in ("chameleon", "x3", "crush", "lock") if s[word]]
    text = card_text(s["base"])
    base_colour, _, value = card_words(s["base"]).partition(" ")
    if value and base_colour == colour_word(colour):
        text = Text(value, style=_STYLES.get(base_colour, ""))
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
    table.add_column("display")
    table.add_column("player")
    table.add_column("hand", justify="right")
    table.add_column("score", justify="right")
    compact = _compact(view)
    if compact:
        table.add_column("stacks", ratio=1, no_wrap=True, overflow="ellipsis")
    else:
        table.add_column("stacks", ratio=1)
    for d in view["displays"]:
        owner = d["owner_seat"]
        if owner is None:  # the dummy display (7.3), played by the controller's player
            ctrl = view["dummy_seat"]
            mine = ctrl is not None and seats[ctrl]["player"] == me
            who = "dummy" + (f" ({player(seats[ctrl]['player'])})" if ctrl is not None else "")
            hand = ""
        else:
            participant = seats[owner]["player"]
            mine = participant == me
            who = _player(participant, me) + (" *" if participant == view["active"] else "")
            hand = str(seats[owner]["hand_size"])
        colour = colour_word(d["colour"])
        stacks = [Text(f"{i + 1}: ") + _stack(s, d["colour"]) for i, s in enumerate(d["stacks"])]
        table.add_row(
            Text(f"{d['display'] + 1:>2} ") + Text(colour, style=_STYLES.get(colour, "")),
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


def render(view: dict[str, Any]) -> RenderableType:
    """Whose turn and which way, the displays with their stacks, the draw and discard
    piles, the window and who holds priority, what is pending, the live scores (section
    6) and the hand. A participant is always "player N" (A56, numbered from 1); the
    displays stay with the places at the table."""
    me = view["player"]
    mode = ", losing game" if view["mode"] == "losing" else ""
    variant = "" if view["variant"] == "standard" else f", {view['variant']} variant"
    arrow = "clockwise" if view["direction"] > 0 else "counter-clockwise"
    head = Text(f"Arne - game {view['game_no']}{mode}{variant}", style="bold")
    head += Text(f" - turn: {_player(view['active'], me)}, {arrow}")
    parts: list[RenderableType] = [head, _displays(view)]
    line = Text(f"draw pile {view['draw_pile']}   discard {len(view['discard'])}")
    if view["discard"]:
        line += Text(" (top ") + card_text(view["discard"][-1]) + Text(")")
    w = view["window"]
    window = (
        Text(f"black cards may answer now ({w['kind']}); first: {_player(w['holder'], me)}")
        if w
        else None
    )
    if window is not None and _compact(view):  # one line for both (many displays)
        line += Text(f" - answers ({w['kind']}): {_player(w['holder'], me)} first")
        window = None
    parts.append(line)
    if view["pending"]:
        kind = card_words(str(view["pending"]["kind"]))
        parts.append(Text(f"pending: {kind} by {_player(view['pending']['player'], me)}"))
    if view["in_play"]:
        parts.append(Text("in play: ") + card_text(view["in_play"]["card"]))
    if window is not None:
        parts.append(window)
    if view["give"]:
        g = view["give"]
        cards = "black" if g["cards"] == "black" else colour_word(g["cards"])
        parts.append(
            Text(
                f"{_player(g['target'], me)} hands {g['left']} {cards} card(s) "
                f"to {_player(g['to'], me)}"
            )
        )
    if not _own_scores(view) or view["game_no"] > 1:
        scores = ", ".join(f"{_player(p, me)}: {sc}" for p, sc in enumerate(view["scores"]))
        if view["variant"] == "team":  # team-mates share a score: one per team colour
            teams: dict[str, int] = {}
            for seat in view["seats"]:
                teams.setdefault(colour_word(seat["colour"]), view["scores"][seat["player"]])
            scores = ", ".join(f"{colour}: {sc}" for colour, sc in teams.items())
        if view["game_no"] > 1:
            scores += "   totals: " + ", ".join(map(str, view["totals"]))
        parts.append(Text("scores: " + scores))
    if view["hand"] is not None:
        parts.append(_labelled(Text("your hand:", style="bold"), _cards(view["hand"])))
    for mate, cards in (view.get("team_hands") or {}).items():
        parts.append(_labelled(Text(f"team-mate {player(int(mate))}:"), _cards(cards)))
    return Group(*parts)


def _where(j: int, s: int) -> str:
    return f"display {j + 1} stack {s + 1}"


def describe(a: Action) -> str:
    """One human line for an action."""
    if isinstance(a, A.Pass):
        return "pass"
    if isinstance(a, A.ChooseColour):
        return f"choose colour {colour_word(a.colour)}"
    if isinstance(a, A.PlayPoint):
        card = card_words(f"{a.colour} {a.card}")
        return f"discard {card}" if a.display < 0 else f"play {card} to display {a.display + 1}"
    if isinstance(a, A.Triple):
        return f"X3 on {_where(a.display, a.stack)}"
    if isinstance(a, A.TakeRandom):
        return f"take a random card from {player(a.target)}"
    if isinstance(a, A.DemandPoints):
        return (
            f"demand 2 {colour_word(a.colour)} point cards from {player(a.target)} "
            f"into display {a.display + 1}"
        )
    if isinstance(a, A.DemandBlack):
        return f"demand 2 black cards from {player(a.target)}"
    if isinstance(a, A.DrawThree):
        return "draw three cards"
    if isinstance(a, A.PassHands):
        return "everybody passes their hand on"
    if isinstance(a, A.SwapPlaces):
        return f"swap places with {player(a.target)}"
    if isinstance(a, A.Give):
        return "hand over " + card_words(f"{a.colour} {a.card}" if a.colour else a.card)
    if isinstance(a, A.MinusTwoHundred):
        return f"-200 ({colour_word(a.colour)}) into display {a.display + 1}"
    if isinstance(a, A.Chameleon):
        return f"chameleon with {card_words(f'{a.colour} {a.card}')} into display {a.display + 1}"
    if isinstance(a, A.ThiefDiscard):
        return "thief: take the top of the discard pile"
    if isinstance(a, A.ThiefStack):
        return f"thief: steal the chameleon stack at {_where(a.display, a.stack)}"
    if isinstance(a, A.Crush):
        return f"crush {_where(a.display, a.stack)}"
    if isinstance(a, A.Lock):
        return f"lock {_where(a.display, a.stack)}"
    if isinstance(a, A.Stop):
        return "STOP!"
    if isinstance(a, A.Reverse):
        return "REVERSE!"
    return a.kind.replace("_", " ")


# Passing at the start of your own turn skips nothing: the black cards answer, then you play.
OWN_TURN_PASS = "pass: let the others answer first, then play your card"


def describe_actions(state: State, seat: int) -> list[str]:
    """One line per legal action, in the order of `state.actions(seat)`."""
    lines = [describe(a) for a in state.actions(seat)]
    view = state.view(seat)
    window = view.get("window") or {}
    if window.get("kind") == "main" and view.get("active") == seat:
        lines = [OWN_TURN_PASS if line == "pass" else line for line in lines]
    return lines


def parse(text: str, state: State, seat: int) -> Action:
    """A number from `describe_actions`, or words of one of its lines that fit no other
    line (`pass`, `red` for "choose colour red", `crush 2 1`); see `terminal_text.pick`.
    Words of a move the rules refuse now get the rules' reason ("why not?")."""
    every = state.game.all_actions  # type: ignore[attr-defined]
    return pick_or_why(text, state, seat, every, describe)


# Events with cards only some seats see, in words: who got or gave which cards.
_PRIVATE_CARDS = {
    "hand": "{player} is dealt",
    "drew_cards": "{player} draws",
    "card_taken": "{player} takes from {target}",
    "gave_card": "{target} hands {player}",
    "hand_received": "{player} receives the hand of {giver}",
    "team_hand": "the hand of team-mate {player}",
}


def _names(data: Mapping[str, Any]) -> dict[str, str]:
    """The event's players as words ("player 2"), by the names the sentences use."""
    return {key: player(data[key]) for key in ("player", "target", "giver") if key in data}


def describe_event(event: Event) -> str | None:
    """One line for the log, or None for bookkeeping events (and passes)."""
    d = event.data
    k = event.kind
    if k == "turn":
        return f"--- turn of {player(d['player'])} (at display {d['seat'] + 1})"
    if k == "drew":
        return f"{player(d['player'])} draws {d['count']} card(s); {d['draw_pile']} left"
    if k in _PRIVATE_CARDS:  # cards only some seats see: said with whose they are
        cards = ", ".join(card_words(c) for c in d["cards"]) or "no cards"
        return "  (" + _PRIVATE_CARDS[k].format(**_names(d)) + f": {cards})"
    if k == "declared":
        return f"{player(d['player'])} plays {card_words(d['card'])}: {describe_json(d['action'])}"
    if k == "black":
        extra = f" ({card_words(d['card'])})" if "card" in d else ""
        return f"{player(d['player'])} answers: {describe_json(d['action'])}{extra}"
    if k == "pass":
        return None
    if k == "pass_in_advance":
        return f"{player(d['player'])} will pass"
    if k == "no_white":
        return f"{player(d['player'])} plays no white card"
    if k == "took_random":
        return f"{player(d['player'])} takes a random card from {player(d['target'])}" + (
            "" if d["moved"] else " (empty hand)"
        )
    if k == "demand":
        cards = "black" if d["cards"] == "black" else colour_word(str(d["cards"]))
        return f"{player(d['target'])} must hand over {d['count']} {cards} card(s)"
    if k == "gave_point":
        return f"{player(d['target'])} hands over {card_words(d['card'])}"
    if k == "gave_black":
        return f"{player(d['target'])} hands over a black card"
    if k == "swapped":
        return f"{player(d['player'])} and {player(d['target'])} swap places"
    if k == "hands_passed":
        return "everybody passes their hand on"
    if k == "final_round":
        return f"final round: {players(list(d['order']))} play once more"
    if k == "cleanup":
        return "hands go to the discard pile"
    if k == "scored":
        scores = ", ".join(f"{player(p)}: {sc}" for p, sc in enumerate(d["scores"]))
        return f"game {d['game_no']} scores: {scores}"
    if k == "over":
        return f"game over; {players(list(d['winners']))} win" + (
            "s" if len(d["winners"]) == 1 else ""
        )
    if k == "game":
        return f"=== game {d['game_no']}, display {d['first_seat'] + 1} begins"
    if k == "colour":
        verb = "takes" if len(d["seats"]) == 1 else "take"
        return f"{players(list(d['seats']))} {verb} {colour_word(d['colour'])}"
    if k == "dummy":
        return f"the dummy plays {colour_word(d['colour'])}"
    return None


def describe_json(obj: dict[str, Any]) -> str:
    from gamenight.engine.codec import action_from_json
    from gamenight.games.arne.actions import ACTION_TYPES

    return describe(action_from_json(obj, ACTION_TYPES))
