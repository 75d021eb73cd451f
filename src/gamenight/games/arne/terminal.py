"""Arne in the terminal: draw a seat's view with Rich, read what a person types.

`describe_actions` lists the legal actions (numbered from 1 by the CLI); a person types the
number, or a short command such as `pass`, `crush 2 1` (display 2, stack 1) or
`play red P100 0` (card, display; `discard red P100` for the pile).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, BadInput, Event, State
from gamenight.games.arne import actions as A


def _stack(s: dict[str, Any]) -> str:
    marks = [m for m in ("chameleon", "x3", "crush", "lock") if s[m]]
    return s["base"] + ("+" + "+".join(m.upper() for m in marks) if marks else "")


def render(view: dict[str, Any]) -> RenderableType:
    """Hand, displays with their stacks, discard top, draw pile, turn and direction, the
    window and who holds priority, and the live score preview (section 6)."""
    me = view["player"]
    seats = view["seats"]
    table = Table(title=f"Arne - game {view['game_no']} ({view['mode']}, {view['variant']})")
    for column in ("display", "colour", "player", "hand", "stacks (index: card)", "score"):
        table.add_column(column)
    for d in view["displays"]:
        j = d["display"]
        if d["owner_seat"] is None:
            who = "dummy" + (
                f" (seat {view['dummy_seat']})" if view["dummy_seat"] is not None else ""
            )
            hand = ""
        else:
            seat = seats[j]
            who = f"P{seat['player']}" + (" (you)" if seat["player"] == me else "")
            if j == view["turn_seat"]:
                who += " *turn*"
            hand = str(seat["hand_size"])
        stacks = "  ".join(f"{i}:{_stack(s)}" for i, s in enumerate(d["stacks"])) or "-"
        table.add_row(str(j), str(d["colour"]), who, hand, stacks, str(d["score"]))
    parts: list[RenderableType] = [table]
    arrow = "clockwise" if view["direction"] > 0 else "counter-clockwise"
    top = view["discard"][-1] if view["discard"] else "-"
    line = (
        f"draw pile {view['draw_pile']}   discard top {top} ({len(view['discard'])})   "
        f"turn: seat {view['turn_seat']} (P{view['active']}), {arrow}"
    )
    if view["pending"]:
        line += f"   pending {view['pending']['kind']} by P{view['pending']['player']}"
    parts.append(Text(line))
    if view["in_play"]:
        parts.append(Text(f"in play: {view['in_play']['card']}", style="bold"))
    w = view["window"]
    if w:
        parts.append(
            Text(
                f"{w['kind']} window: priority P{w['holder']} "
                f"(order {w['order']}, quiet {w['quiet']})"
            )
        )
    elif view["phase"] != "window":
        parts.append(Text(f"phase: {view['phase']}"))
    if view["give"]:
        g = view["give"]
        parts.append(Text(f"P{g['target']} hands {g['left']} {g['cards']} card(s) to P{g['to']}"))
    parts.append(
        Text(
            "scores: "
            + ", ".join(f"P{p}: {s}" for p, s in enumerate(view["scores"]))
            + ("   totals: " + str(view["totals"]) if view["game_no"] > 1 else "")
        )
    )
    if view["hand"] is not None:
        parts.append(Text("your hand: " + (", ".join(view["hand"]) or "(empty)"), style="bold"))
    for mate, cards in (view.get("team_hands") or {}).items():
        parts.append(Text(f"team-mate P{mate}: " + ", ".join(cards)))
    return Panel(Group(*parts))


def _where(j: int, s: int) -> str:
    return f"display {j} stack {s}"


def describe(a: Action) -> str:
    """One human line for an action."""
    if isinstance(a, A.Pass):
        return "pass"
    if isinstance(a, A.ChooseColour):
        return f"choose colour {a.colour}"
    if isinstance(a, A.PlayPoint):
        card = f"{a.colour} {a.card}"
        return f"discard {card}" if a.display < 0 else f"play {card} to display {a.display}"
    if isinstance(a, A.Triple):
        return f"X3 on {_where(a.display, a.stack)}"
    if isinstance(a, A.TakeRandom):
        return f"take a random card from P{a.target}"
    if isinstance(a, A.DemandPoints):
        return f"demand 2 {a.colour} point cards from P{a.target} into display {a.display}"
    if isinstance(a, A.DemandBlack):
        return f"demand 2 black cards from P{a.target}"
    if isinstance(a, A.DrawThree):
        return "draw three cards"
    if isinstance(a, A.PassHands):
        return "everybody passes their hand on"
    if isinstance(a, A.SwapPlaces):
        return f"swap places with P{a.target} (in a team game you join their team)"
    if isinstance(a, A.Give):
        return f"hand over {(a.colour + ' ') if a.colour else ''}{a.card}"
    if isinstance(a, A.MinusTwoHundred):
        return f"-200 ({a.colour}) into display {a.display}"
    if isinstance(a, A.Chameleon):
        return f"chameleon with {a.colour} {a.card} into display {a.display}"
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
    return str(a)


def describe_actions(state: State, seat: int) -> list[str]:
    """One line per legal action, in the order of `state.actions(seat)`."""
    return [describe(a) for a in state.actions(seat)]


def parse(text: str, state: State, seat: int) -> Action:
    """A number from `describe_actions`, or the words of one of its lines (a unique prefix
    such as `pass`, `stop`, `crush display 2 stack 1` is enough)."""
    legal = state.actions(seat)
    if not legal:
        raise BadInput("you owe no decision now; wait for your turn")
    word = " ".join(text.strip().lower().split())
    if not word:
        raise BadInput(f"type the number of an action (1..{len(legal)}) or its words")
    if word.isdigit():
        i = int(word)
        if 1 <= i <= len(legal):
            return legal[i - 1]
        raise BadInput(f"no action number {i}; choose 1..{len(legal)}")
    lines = [describe(a).lower() for a in legal]
    exact = [a for a, line in zip(legal, lines, strict=True) if line == word]
    if exact:
        return exact[0]
    found = [a for a, line in zip(legal, lines, strict=True) if line.startswith(word)]
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(f"'{describe(a)}'" for a in found[:6])
        raise BadInput(f"'{text}' fits {len(found)} actions ({shown}...); type more or a number")
    raise BadInput(
        f"'{text}' is not a legal action now; type a number 1..{len(legal)} "
        f"(e.g. 1 = {describe(legal[0])})"
    )


def describe_event(event: Event) -> str | None:
    """One line for the log, or None for bookkeeping events."""
    d = event.data
    k = event.kind
    if k == "turn":
        return f"--- turn of seat {d['seat']} (P{d['player']})"
    if k == "drew":
        return f"P{d['player']} draws {d['count']} card(s); {d['draw_pile']} left"
    if k in ("drew_cards", "hand", "card_taken", "gave_card", "hand_received", "team_hand"):
        return f"  ({k.replace('_', ' ')}: {', '.join(d['cards'])})"
    if k == "declared":
        return f"P{d['player']} plays {d['card']}: {describe_json(d['action'])}"
    if k == "black":
        extra = f" ({d['card']})" if "card" in d else ""
        return f"P{d['player']} black: {describe_json(d['action'])}{extra}"
    if k == "pass":
        return None
    if k == "pass_in_advance":
        return f"P{d['player']} will pass"
    if k == "no_white":
        return f"P{d['player']} plays no white card"
    if k == "took_random":
        return f"P{d['player']} takes a random card from P{d['target']}" + (
            "" if d["moved"] else " (empty hand)"
        )
    if k == "demand":
        return f"P{d['target']} must hand over {d['count']} {d['cards']} card(s)"
    if k == "gave_point":
        return f"P{d['target']} hands over {d['card']}"
    if k == "gave_black":
        return f"P{d['target']} hands over a black card"
    if k == "swapped":
        return f"P{d['player']} and P{d['target']} swap places"
    if k == "hands_passed":
        return "everybody passes their hand on"
    if k == "final_round":
        return f"final round: {d['order']}"
    if k == "cleanup":
        return "hands go to the discard pile"
    if k == "scored":
        return f"game {d['game_no']} scores: {d['scores']}"
    if k == "over":
        return f"game over; winners: {d['winners']}"
    if k == "game":
        return f"=== game {d['game_no']}, first seat {d['first_seat']}"
    if k == "colour":
        return f"seat(s) {d['seats']} take {d['colour']}"
    if k == "dummy":
        return f"the dummy plays {d['colour']}"
    return None


def describe_json(obj: dict[str, Any]) -> str:
    from gamenight.engine.codec import action_from_json
    from gamenight.games.arne.actions import ACTION_TYPES

    return describe(action_from_json(obj, ACTION_TYPES))
