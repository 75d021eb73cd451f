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
from gamenight.i18n import N_, game_gettext, use

# The table's words from this game's catalogue (games/drop_or_stop/locale); what a person
# types (d, s, drop, stop) stays as it is in every language.
_, ngettext = game_gettext(__name__.rpartition(".")[0])

_WORDS: dict[str, Action] = {"d": DROP, "drop": DROP, "s": STOP, "stop": STOP}


def card(name: str) -> str:
    """A card by its value: "D3" -> "[3]", "FLEX" -> "[FLEX]" (a card of a custom deck
    with another name is shown by that name)."""
    value = name[1:] if len(name) > 1 and name[0] == "D" and name[1:].isdecimal() else name
    return f"[{value}]"


def _cards(cards: list[str]) -> str:
    return " ".join(card(c) for c in cards) or "-"


# Said once, under the first deal (the table's footer repeats only the FLEX rule).
LEGEND = N_(
    "(A card shows its value: [3] is worth 3; [FLEX] counts as either value under the table.)"
)


def _wins(won: int, need: int) -> str:
    """Round wins so far out of those needed: "1 of 3"."""
    return _("{won} of {need}").format(won=won, need=need)


def render(view: dict[str, Any]) -> RenderableType:
    """The table as `view["seat"]` sees it: tableaux, wins, own hand and total (R31, R32)."""
    me = view["seat"]
    title = _("Drop or Stop - round {round} (first to {wins} round wins)")
    table = Table(title=title.format(round=view["round"], wins=view["wins_to_win"]), expand=False)
    table.add_column(_("player"), no_wrap=True)
    for column in (_("wins"), _("face up"), _("visible"), _("status")):
        table.add_column(column)
    for s, info in enumerate(view["seats"]):
        if s == view["to_act"]:
            status = _("to act")
        else:
            status = _("active") if info["active"] else _("stopped")
        if info["certainly_over"]:
            status = _("{status}, certainly over").format(status=status)
        visible = _("{value} (+{hidden} hidden)").format(
            value=info["tableau_value"], hidden=info["hand_size"]
        )
        name = player(s, me)
        if s == view["start_seat"]:
            name = _("{player} start").format(player=name)
        wins = _wins(info["wins"], view["wins_to_win"])
        style = "bold" if s == me else ""
        table.add_row(
            Text(name, style=style), wins, Text(_cards(info["tableau"]), style="cyan"), visible,
            Text(status, style="green" if info["active"] else "dim"),
        )  # fmt: skip
    parts: list[RenderableType] = [table]
    if me is not None:
        hand = _("Your hand: {cards}   your total: {total}")
        parts.append(Text(hand.format(cards=_cards(view["hand"]), total=view["own_total"]), "bold"))
    low, high = view["flex_values"]
    footer = _(
        "draw pile {draw}  discard pile {discard}  target {target}  "
        "(FLEX counts {low} or {high}, whichever is best)"
    )
    parts.append(
        Text(
            footer.format(
                draw=view["draw_pile_size"],
                discard=view["discard_pile_size"],
                target=view["target"],
                low=low,
                high=high,
            )
        )
    )
    return Panel(Group(*parts), expand=False)


def describe(action: Action) -> str:
    """One human word for an action (the word a person types: never translated)."""
    return "drop" if action == DROP else "stop"


def describe_actions(state: State, seat: int) -> list[str]:
    legal = state.actions(seat)
    words = {
        DROP: _("drop  (d): draw one card face up"),
        STOP: _("stop  (s): keep what you have"),
    }
    return [words[a] for a in legal]


def parse(text: str, state: State, seat: int) -> Action:
    """'d'/'drop', 's'/'stop', the number of a listed action or words of its line that fit
    no other line ("draw", "keep": the English lines, in every language)."""
    legal = state.actions(seat)
    word = text.strip().lower()
    if word.isdecimal() and 1 <= int(word) <= len(legal):
        return legal[int(word) - 1]
    if word not in _WORDS:
        try:
            with use("en"):
                lines = describe_actions(state, seat)
            return pick(text, legal, lines)
        except BadInput:
            raise BadInput(
                _("type d (drop) or s (stop), not {typed}").format(typed=echo(text))
            ) from None
    action = _WORDS[word]
    if action not in legal:
        if state.over:
            raise BadInput(_("the game is over"))
        raise BadInput(
            _(
                "you cannot drop now: both piles are empty, or you are over the target and "
                "may not draw; type s"
            )
        )
    return action


def describe_event(event: Event) -> str | None:
    d = event.data
    match event.kind:
        case "dealt":
            start = player(d["start_seat"])
            line = _("Round {round}: {player} has the start card; 2 cards each.")
            line = line.format(round=d["round"], player=start)
            return line + ("\n" + _(LEGEND) if d["round"] == 1 else "")
        case "hand":
            return _("Your hand: {cards}").format(cards=_cards(d["cards"]))
        case "dropped":
            line = _("{player} drops: {card}").format(
                player=player(d["seat"]), card=card(d["card"])
            )
            return _sentence(line)
        case "stopped":
            return _sentence(_("{player} stops.").format(player=player(d["seat"])))
        case "reshuffled":
            n = sum(d["cards"].values())
            return ngettext(
                "The discard pile ({n} card) is shuffled into a new draw pile.",
                "The discard pile ({n} cards) is shuffled into a new draw pile.",
                n,
            ).format(n=n)
        case "revealed":
            lines = [_("Round {round} reveal:").format(round=d["round"])]
            for s, (hand, tableau, total) in enumerate(
                zip(d["hands"], d["tableaux"], d["totals"], strict=True)
            ):
                flex = ""
                if d["flex"][s]:
                    values = _("{names} and {last}") if len(d["flex"][s]) > 1 else "{last}"
                    flex = "  " + _("FLEX as {values}").format(
                        values=values.format(
                            names=", ".join(map(str, d["flex"][s][:-1])), last=d["flex"][s][-1]
                        )
                    )
                won = "  " + _("wins the round") if s in d["winners"] else ""
                lines.append(
                    f"  {player(s)}: {_cards(hand)} + {_cards(tableau)} = {total}{flex}{won}"
                )
            if not d["winners"]:
                lines.append("  " + _("everyone went over: nobody wins this round"))
            return "\n".join(lines)
        case "game_over":
            won = d["winners"]
            line = ngettext(
                "Game over: {players} wins.", "Game over: {players} share the win.", len(won)
            )
            return line.format(players=players(won))
        case "truncated":
            line = _("The game stopped after {rounds} rounds (the round limit): no result.")
            return line.format(rounds=d["rounds"])
    return None


def _sentence(text: str) -> str:
    """A line that starts with a player's name starts with a capital ("Player 1 stops.")."""
    return text[:1].upper() + text[1:]
