"""Drop or Stop in the terminal: draw a seat's view with Rich, read what a person types.

Players are numbered from 1 (seat 0 is "player 1"), as on the web pages. A card shows its
value ("[3]" is the card D3 of the deck); FLEX counts either of the deck's two flex values
(1 or 5 in the presets), whichever is best.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gamenight.engine.core import Action, BadInput, Event, State
from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.terminal_text import echo, pick, player, players

_WORDS: dict[str, Action] = {"d": DROP, "drop": DROP, "s": STOP, "stop": STOP}


def card(name: str) -> str:
    """A card by its value: "D3" -> "[3]", "FLEX" -> "[FLEX]" (a card of a custom deck
    with another name is shown by that name)."""
    value = name[1:] if len(name) > 1 and name[0] == "D" and name[1:].isdecimal() else name
    return f"[{value}]"


def _cards(cards: list[str]) -> str:
    return " ".join(card(c) for c in cards) or "-"


# Said once, under the first deal (the table's footer repeats only the FLEX rule).
LEGEND = "(A card shows its value: [3] is worth 3; [FLEX] counts as either value under the table.)"


def _wins(won: int, need: int) -> str:
    """Round wins so far out of those needed: "1 of 3"."""
    return f"{won} of {need}"


def render(view: dict[str, Any]) -> RenderableType:
    """The table as `view["seat"]` sees it: tableaux, wins, own hand and total (R31, R32)."""
    me = view["seat"]
    table = Table(
        title=f"Drop or Stop - round {view['round']} (first to {view['wins_to_win']} round wins)",
        expand=False,
    )
    table.add_column("player", no_wrap=True)
    for column in ("wins", "face up", "visible", "status"):
        table.add_column(column)
    for s, info in enumerate(view["seats"]):
        status = "to act" if s == view["to_act"] else "active" if info["active"] else "stopped"
        if info["certainly_over"]:
            status += ", certainly over"
        visible = f"{info['tableau_value']} (+{info['hand_size']} hidden)"
        name = player(s, me) + (" start" if s == view["start_seat"] else "")
        wins = _wins(info["wins"], view["wins_to_win"])
        style = "bold" if s == me else ""
        table.add_row(
            Text(name, style=style), wins, Text(_cards(info["tableau"]), style="cyan"), visible,
            Text(status, style="green" if info["active"] else "dim"),
        )  # fmt: skip
    parts: list[RenderableType] = [table]
    if me is not None:
        parts.append(
            Text(
                f"Your hand: {_cards(view['hand'])}   your total: {view['own_total']}", style="bold"
            )
        )
    low, high = view["flex_values"]
    parts.append(
        Text(
            f"draw pile {view['draw_pile_size']}  discard pile {view['discard_pile_size']}  "
            f"target {view['target']}  (FLEX counts {low} or {high}, whichever is best)"
        )
    )
    return Panel(Group(*parts), expand=False)


def describe(action: Action) -> str:
    """One human word for an action."""
    return "drop" if action == DROP else "stop"


def describe_actions(state: State, seat: int) -> list[str]:
    legal = state.actions(seat)
    words = {DROP: "drop  (d): draw one card face up", STOP: "stop  (s): keep what you have"}
    return [words[a] for a in legal]


def parse(text: str, state: State, seat: int) -> Action:
    """'d'/'drop', 's'/'stop', the number of a listed action or words of its line that fit
    no other line ("draw", "keep")."""
    legal = state.actions(seat)
    word = text.strip().lower()
    if word.isdecimal() and 1 <= int(word) <= len(legal):
        return legal[int(word) - 1]
    if word not in _WORDS:
        try:
            return pick(text, legal, describe_actions(state, seat))
        except BadInput:
            raise BadInput(f"type d (drop) or s (stop), not {echo(text)}") from None
    action = _WORDS[word]
    if action not in legal:
        if state.over:
            raise BadInput("the game is over")
        raise BadInput(
            "you cannot drop now: both piles are empty, or you are over the target and may "
            "not draw; type s"
        )
    return action


def describe_event(event: Event) -> str | None:
    d = event.data
    match event.kind:
        case "dealt":
            start = player(d["start_seat"])
            line = f"Round {d['round']}: {start} has the start card; 2 cards each."
            return line + ("\n" + LEGEND if d["round"] == 1 else "")
        case "hand":
            return f"Your hand: {_cards(d['cards'])}"
        case "dropped":
            return f"{player(d['seat']).capitalize()} drops: {card(d['card'])}"
        case "stopped":
            return f"{player(d['seat']).capitalize()} stops."
        case "reshuffled":
            n = sum(d["cards"].values())
            return f"The discard pile ({n} cards) is shuffled into a new draw pile."
        case "revealed":
            lines = [f"Round {d['round']} reveal:"]
            for s, (hand, tableau, total) in enumerate(
                zip(d["hands"], d["tableaux"], d["totals"], strict=True)
            ):
                flex = f"  FLEX as {' and '.join(map(str, d['flex'][s]))}" if d["flex"][s] else ""
                won = "  wins the round" if s in d["winners"] else ""
                lines.append(
                    f"  {player(s)}: {_cards(hand)} + {_cards(tableau)} = {total}{flex}{won}"
                )
            if not d["winners"]:
                lines.append("  everyone went over: nobody wins this round")
            return "\n".join(lines)
        case "game_over":
            won = d["winners"]
            return f"Game over: {players(won)} {'wins' if len(won) == 1 else 'share the win'}."
        case "truncated":
            return f"The game stopped after {d['rounds']} rounds (the round limit): no result."
    return None
