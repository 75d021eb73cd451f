"""What a seat sees (spec section 6) and what it cannot know (A58), together.

`seat_view(state, seat)` is the one view function for every interface (its shape is the
`ArneView` TypedDict); `encode(game, view)` turns a view into the fixed-length vector for
learning; `seat_frame(game, view)` turns that view so that its seat sits first (for
learning: one policy for every seat); `resample(state, seat, rng)` draws everything
`seat` cannot know, for `ArneState.determinize`.

Resampling: a seat knows its own hand, everything public, and the cards `known[seat][p]` it
tracked into other hands. The rest of the other hands and the draw pile form one pool,
sorted before it is shuffled, so that two states the seat cannot tell apart give the same
result. A map `sigma` from the old unknown cards to the new ones (slot by slot: in card
order within each hand, by position in the draw pile) lets the state rewrite other seats'
private events, knowledge and hidden choices to match the new cards.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from gamenight.engine.core import Action, SeatFrame
from gamenight.engine.features import Feature, layout
from gamenight.games.arne.actions import ACTION_TYPES
from gamenight.games.arne.components import POINT_TYPES
from gamenight.games.arne.phases import FINAL, GIVE, WHITE, WINDOW, Phase, Window

if TYPE_CHECKING:
    from gamenight.games.arne.game import Arne
    from gamenight.games.arne.state import ArneState

BASE_TYPES = (*POINT_TYPES, "MINUS200")
PHASES = tuple(phase.name.lower() for phase in Phase)  # the view's names, in machine order
WINDOWS = tuple(window.name.lower() for window in Window)
ACTION_KINDS = tuple(action.kind for action in ACTION_TYPES)


# ==========================================================================================
# the view (section 6)
# ==========================================================================================
class StackView(TypedDict):
    base: str  # the base card's name, e.g. "red P100"
    chameleon: bool
    x3: bool
    crush: bool
    lock: bool


class DisplayView(TypedDict):
    display: int
    colour: str | None
    owner_seat: int | None  # None: the dummy display
    controller_seat: int | None
    score: int  # 5.1, live
    stacks: list[StackView]


class SeatView(TypedDict):
    seat: int
    player: int
    colour: str | None
    team: int
    hand_size: int
    score: int


class WindowView(TypedDict):
    kind: str  # "main", "pre" or "end"
    holder_seat: int
    holder: int
    order: list[int]  # players in priority order from the holder (A15)
    quiet: int  # A16


class InPlayView(TypedDict):
    card: str
    action: dict[str, Any]


class DemandView(TypedDict):
    target: int
    to: int
    left: int
    cards: str  # "black" or a colour


class PendingView(TypedDict):
    kind: str  # "STOP" or "REVERSE"
    player: int


class ArneView(TypedDict, total=False):
    """What one seat sees; every key is always there except `team_hands` (A47) and, for
    a spectator, `known` (A58)."""

    game: str
    player: int | None  # None: a spectator
    players: int
    mode: str
    variant: str
    game_no: int
    phase: str
    seat_of: list[int]
    seats: list[SeatView]
    displays: list[DisplayView]
    dummy_seat: int | None
    hand: list[str] | None
    discard: list[str]
    draw_pile: int
    turn_seat: int
    active: int
    direction: int
    pending: PendingView | None
    window: WindowView | None
    in_play: InPlayView | None
    give: DemandView | None
    final_round: list[int] | None
    to_act: int | None
    scores: list[int]
    totals: list[int]
    over: bool
    team_hands: dict[str, list[str]]
    known: dict[str, list[str]]  # A58: cards the seat knows in other players' hands


def stack_view(stack: Any, names: Any, card_kind: Any) -> StackView:
    """One stack of a display as every seat sees it (also the rollout bots' table view)."""
    return {
        "base": names[card_kind[stack.base]],
        "chameleon": stack.chameleon >= 0,
        "x3": stack.x3 >= 0,
        "crush": stack.crush >= 0,
        "lock": stack.lock >= 0,
    }


def seat_view(state: ArneState, seat: int | None) -> ArneView:
    """Section 6: exactly what `seat` may see (None: a spectator), with the live score
    preview (5.1) and the window with its priority order (A15)."""
    game = state.game
    players = game.n
    names, card_kind, colours = game.kind_name, game.card_kind, game.colours
    display_scores = state.display_scores()
    dummy_seat = state.dummy_controller if state.dummy_controller >= 0 else None
    displays: list[DisplayView] = []
    for j, stacks in enumerate(state.displays):
        colour = state.display_colour[j]
        displays.append(
            {
                "display": j,
                "colour": colours[colour] if colour >= 0 else None,
                "owner_seat": j if j < players else None,
                "controller_seat": dummy_seat if j == players else j,
                "score": display_scores[j],
                "stacks": [stack_view(stack, names, card_kind) for stack in stacks],
            }
        )
    scores = state.scores()
    seats: list[SeatView] = []
    for seat_no in range(players):
        player = state.player_at[seat_no]
        colour = state.seat_colour[seat_no]
        seats.append(
            {
                "seat": seat_no,
                "player": player,
                "colour": colours[colour] if colour >= 0 else None,
                "team": seat_no % game.teams if game.team else seat_no,
                "hand_size": len(state.hands[player]),
                "score": scores[player],
            }
        )
    window: WindowView | None = None
    if state.phase == WINDOW:
        order = [
            state.player_at[(state.holder + state.direction * i) % players] for i in range(players)
        ]
        window = {
            "kind": WINDOWS[state.window],
            "holder_seat": state.holder,
            "holder": state.player_at[state.holder],
            "order": order,
            "quiet": state.quiet,
        }
    in_play: InPlayView | None = None
    if state.in_play >= 0 and state.declared is not None:
        in_play = {"card": names[card_kind[state.in_play]], "action": state.declared.to_json()}
    give: DemandView | None = None
    if state.demand is not None:
        demand = state.demand
        give = {
            "target": demand.target,
            "to": demand.demander,
            "left": demand.left,
            "cards": "black" if demand.cards == "B" else colours[demand.colour],
        }
    pending = state.pending
    actors = state.actors
    out: ArneView = {
        "game": "arne",
        "player": seat,
        "players": players,
        "mode": game.options.mode,
        "variant": game.options.variant,
        "game_no": state.game_no,
        "phase": PHASES[state.phase],
        "seat_of": list(state.seat_of),
        "seats": seats,
        "displays": displays,
        "dummy_seat": dummy_seat if game.dummy else None,
        "hand": [names[card_kind[c]] for c in state.hands[seat]] if seat is not None else None,
        "discard": [names[card_kind[c]] for c in state.discard],
        "draw_pile": len(state.deck),
        "turn_seat": state.turn_seat,
        "active": state.active,
        "direction": state.direction,
        "pending": {"kind": pending.kind, "player": pending.player} if pending else None,
        "window": window,
        "in_play": in_play,
        "give": give,
        "final_round": [state.player_at[s] for s in state.final_order[state.final_pos :]]
        if state.phase == FINAL
        else None,
        "to_act": actors[0] if actors else None,
        "scores": scores,
        "totals": list(state.totals),
        "over": not actors,
    }
    if seat is not None:
        out["known"] = {
            str(player): [names[card_kind[c]] for c in sorted(cards)]
            for player, cards in enumerate(state.known[seat])
            if cards and player != seat
        }
        mates = state.open_hands(seat)
        if mates:
            out["team_hands"] = {
                str(mate): [names[card_kind[c]] for c in state.hands[mate]] for mate in mates
            }
    return out


# ==========================================================================================
# the encoding (for learning): the tensors' blocks, declared once
# ==========================================================================================


def _display_slots() -> str:
    types = ", ".join(f"{t} /3" for t in BASE_TYPES)
    return (
        "[mine, the dummy's, score/2000, stacks/10, stacks counted by base type ("
        f"{types}), x3 /3, chameleon /3, crushed /3, locked /3, controlled by me]"
    )


def base_features(game: Arne) -> list[Feature]:
    """The first features, the encoding the shipped policy was trained on (kept in front so
    that `learn/policy.py` can read the prefix it knows)."""
    kinds = len(game.kinds)
    out = [
        Feature(
            "hand", kinds, "own hand: cards of each kind / 3 (kinds in `game.kind_name` order)"
        ),
        Feature("discard", kinds, "discard pile: cards of each kind / 4"),
        Feature("discard.top", kinds, "the discard pile's top card, one-hot"),
        Feature("discard.empty", 1, "1 when the discard pile is empty"),
    ]
    out += [
        Feature(f"display{d}", 16, f"display {d}: {_display_slots()}")
        for d in range(game.n_displays)
    ]
    out += [
        Feature(
            f"seat{s}",
            6,
            f"seat {s}: [hand size/8, is me, its turn, holds the window, my team, score/2000]",
        )
        for s in range(game.n)
    ]
    return [
        *out,
        Feature("phase", len(PHASES), f"phase one-hot ({', '.join(PHASES)})"),
        Feature("window", len(WINDOWS), f"open window one-hot ({', '.join(WINDOWS)}; A15)"),
        Feature(
            "turn",
            8,
            "[draw pile / cards, direction, STOP pending, REVERSE pending, I am active, "
            "I am to act, a card in play, game number / games]",
        ),
    ]


def _seat_block(game: Arne) -> int:
    # per seat: known cards by kind, colour, pending for, to act, active, in the final round
    # still to play, series total
    return len(game.kinds) + len(game.colours) + 5


def _action_size(game: Arne) -> int:
    # type, target, colour, display (-1 too), stack
    return len(ACTION_KINDS) + game.n + len(game.colours) + game.n_displays + 1 + 1


def _stack_size(game: Arne) -> int:
    # base type, base colour, x3, chameleon, crush, lock (stacks in place: actions name them)
    return len(BASE_TYPES) + len(game.colours) + 4


def observation_features(game: Arne) -> list[Feature]:
    """The observation tensor (`encode`): the base features, then what else the seat knows."""
    kinds, colours, n = len(game.kinds), len(game.colours), game.n
    out = base_features(game)
    out += [
        Feature(
            f"seat{s}.known",
            _seat_block(game),
            f"seat {s}: [cards I know in its hand by kind /3 (A58, A47), colour one-hot, a "
            "pending STOP/REVERSE is for it, to act, active, still to play in the final "
            "round, series total / (2000 x games)]",
            8.0,
        )
        for s in range(n)
    ]
    for d in range(game.n_displays):
        out += [
            Feature(f"display{d}.owner", colours + n, f"display {d}: colour, controlling seat"),
            Feature(
                f"display{d}.stacks",
                game.max_stacks * _stack_size(game),
                f"display {d}, each of {game.max_stacks} stack places: [base type one-hot "
                f"({', '.join(BASE_TYPES)}), base colour one-hot, x3, chameleon, crush, lock]",
            ),
        ]
    return [
        *out,
        Feature(
            "in_play",
            1 + kinds + _action_size(game),
            "the white card in play (A57): [in play, its kind one-hot, its declared action: "
            f"type one-hot ({', '.join(ACTION_KINDS)}), target seat, colour, display "
            "(discard first), stack/stacks]",
        ),
        Feature(
            "demand",
            3 + 2 * n + colours,
            "a demand (A24/A25): [open, target seat one-hot, demander seat one-hot, cards "
            "left / 2, black cards asked, colour asked one-hot]",
        ),
        Feature("quiet", 1, "the window's quiet count / players (A16)"),
    ]


def information_features(game: Arne) -> list[Feature]:
    """The information state tensor: the observation, then what the seat has seen each
    player do this game (public tallies, by player: seats move under A56)."""
    return [
        *observation_features(game),
        *(
            Feature(
                f"player{p}.history",
                len(HISTORY),
                f"player {p} this game: [{', '.join(f'{k} / {v}' for k, v in HISTORY.items())}]",
            )
            for p in range(game.n)
        ),
    ]


# Event kinds tallied per player in the information state tensor, with their scale.
HISTORY = {
    "declared": 20,  # white cards played (A9)
    "black": 20,  # black cards played (A15)
    "drew": 20,  # draws (A7)
    "pass": 100,  # passes in windows (A16)
    "demand": 5,  # demands made (A24/A25)
}


def base_size(game: Arne) -> int:
    return sum(f.size for f in base_features(game))


def encoding_size(game: Arne) -> int:
    return layout(game, observation_features)[0]


def information_size(game: Arne) -> int:
    return layout(game, information_features)[0]


def encode(game: Arne, view: Mapping[str, Any]) -> np.ndarray:
    """The observation tensor of one seat's view, block by block as
    `observation_features` declares: first the base features (`_encode_base`), then what
    else the seat knows: per seat the cards it knows in that hand (A58, and team-mates'
    open hands, A47), its colour, whom a pending STOP/REVERSE is for, who acts, who is
    active, who is still to play in the final round, series totals; per display its
    colour, controller and each stack in place (base card, attachments); the white card
    in play with its declared action (A57); a demand's target, demander, cards left and
    what is asked for (A24/A25); the window's quiet count (A16)."""
    size, at = layout(game, observation_features)
    out = np.zeros(size, dtype=np.float32)
    _encode_base(game, view, out, at)
    kinds, colours, n = len(game.kinds), game.colours, game.n
    kind = game.name_kind
    seat_of = view["seat_of"]
    known: dict[int, list[str]] = {int(p): cards for p, cards in view.get("known", {}).items()}
    for p, cards in view.get("team_hands", {}).items():
        known[int(p)] = cards  # an open hand: every card is known
    pending = view["pending"]
    final = view["final_round"] or []
    series = max(1, game.options.series_games)
    for seat in view["seats"]:
        f = out[at[f"seat{seat['seat']}.known"]]
        for name in known.get(seat["player"], ()):
            f[kind[name]] += 1 / 3
        if seat["colour"] is not None:
            f[kinds + colours.index(seat["colour"])] = 1
        g = kinds + len(colours)
        f[g] = pending is not None and pending["player"] == seat["player"]
        f[g + 1] = view["to_act"] == seat["player"]
        f[g + 2] = view["active"] == seat["player"]
        f[g + 3] = seat["player"] in final
        f[g + 4] = view["totals"][seat["player"]] / (2000 * series)
    stack_size = _stack_size(game)
    for display in view["displays"]:
        f = out[at[f"display{display['display']}.owner"]]
        if display["colour"] is not None:
            f[colours.index(display["colour"])] = 1
        if display["controller_seat"] is not None:
            f[len(colours) + display["controller_seat"]] = 1
        base = at[f"display{display['display']}.stacks"].start
        for i, stack in enumerate(display["stacks"]):
            f = out[base + i * stack_size : base + (i + 1) * stack_size]
            *colour, card = stack["base"].split()
            f[BASE_TYPES.index(card)] = 1
            if colour:
                f[len(BASE_TYPES) + colours.index(colour[0])] = 1
            g = len(BASE_TYPES) + len(colours)
            f[g : g + 4] = (stack["x3"], stack["chameleon"], stack["crush"], stack["lock"])
    in_play = view["in_play"]
    if in_play is not None:
        f = out[at["in_play"]]
        f[0] = 1
        f[1 + kind[in_play["card"]]] = 1
        _encode_action(game, in_play["action"], f[1 + kinds :])
    demand = view["give"]
    if demand is not None:
        f = out[at["demand"]]
        f[0] = 1
        f[1 + seat_of[demand["target"]]] = 1
        f[1 + n + seat_of[demand["to"]]] = 1
        f[1 + 2 * n] = demand["left"] / 2
        if demand["cards"] == "black":
            f[2 + 2 * n] = 1
        else:
            f[3 + 2 * n + colours.index(demand["cards"])] = 1
    window = view["window"]
    out[at["quiet"]] = window["quiet"] / n if window is not None else 0
    return out


def encode_information(game: Arne, view: Mapping[str, Any], events: Sequence[Any]) -> np.ndarray:
    """The information state tensor: `encode(view)`, then per player the tallies of
    `HISTORY` over the seat's event stream (`state.events(seat)`) of this game."""
    out = np.zeros(information_size(game), dtype=np.float32)
    size = encoding_size(game)
    out[:size] = encode(game, view)
    start = max((i for i, e in enumerate(events) if e.kind == "game"), default=0)
    kinds = list(HISTORY)
    for event in events[start:]:
        if event.kind in HISTORY and "player" in event.data:
            at = size + event.data["player"] * len(HISTORY) + kinds.index(event.kind)
            out[at] += 1 / HISTORY[event.kind]
    return out


def _encode_action(game: Arne, action: Mapping[str, Any], f: np.ndarray) -> None:
    """A declared white card's action: its type and its fields (target player, named
    colour, display with -1 the discard pile, stack)."""
    colours, n = game.colours, game.n
    f[ACTION_KINDS.index(action["type"])] = 1
    at = len(ACTION_KINDS)
    if "target" in action:
        f[at + action["target"]] = 1
    at += n
    if action.get("colour"):
        f[at + colours.index(action["colour"])] = 1
    at += len(colours)
    if "display" in action:
        f[at + action["display"] + 1] = 1
    at += game.n_displays + 1
    if "stack" in action:
        f[at] = (action["stack"] + 1) / max(1, game.max_stacks)


def _encode_base(
    game: Arne, view: Mapping[str, Any], out: np.ndarray, at: Mapping[str, slice]
) -> None:
    """Own hand, discard pile and its top, every display (stacks by base and attachments,
    score), every seat (hand size, marks), and the turn state."""
    kind = game.name_kind
    me = view.get("player")
    hand, discard, top = at["hand"].start, at["discard"].start, at["discard.top"].start
    for name in view.get("hand") or ():
        out[hand + kind[name]] += 1 / 3
    for name in view["discard"]:
        out[discard + kind[name]] += 1 / 4
    if not view["discard"]:
        out[at["discard.empty"]] = 1
    else:
        out[top + kind[view["discard"][-1]]] = 1
    my_seat = view["seat_of"][me] if me is not None else -1
    for display in view["displays"]:
        f = out[at[f"display{display['display']}"]]
        f[0] = display["owner_seat"] == my_seat
        f[1] = display["owner_seat"] is None
        f[2] = display["score"] / 2000
        f[3] = len(display["stacks"]) / 10
        for stack in display["stacks"]:
            card = stack["base"].split()[-1]
            if card == "MINUS200":
                counted = not stack["lock"]
            else:
                counted = not stack["crush"] or stack["lock"]
            f[4 + BASE_TYPES.index(card)] += counted / 3
            f[11] += stack["x3"] / 3
            f[12] += stack["chameleon"] / 3
            f[13] += (stack["crush"] and not stack["lock"]) / 3
            f[14] += stack["lock"] / 3
        f[15] = display.get("controller_seat") == my_seat and my_seat >= 0
    for seat in view["seats"]:
        f = out[at[f"seat{seat['seat']}"]]
        f[0] = seat["hand_size"] / 8
        f[1] = seat["player"] == me
        f[2] = seat["seat"] == view["turn_seat"]
        f[3] = view["window"] is not None and seat["seat"] == view["window"]["holder_seat"]
        f[4] = seat["team"] == (view["seats"][my_seat]["team"] if my_seat >= 0 else -1)
        f[5] = seat["score"] / 2000
    out[at["phase"].start + PHASES.index(view["phase"])] = 1
    if view["window"] is not None:
        out[at["window"].start + WINDOWS.index(view["window"]["kind"])] = 1
    f = out[at["turn"]]
    f[0] = view["draw_pile"] / max(1, game.num_cards)
    f[1] = view["direction"]
    pending = view["pending"]
    f[2] = pending is not None and pending["kind"] == "STOP"
    f[3] = pending is not None and pending["kind"] == "REVERSE"
    f[4] = view["active"] == me
    f[5] = view["to_act"] == me
    f[6] = view["in_play"] is not None
    f[7] = view["game_no"] / game.options.series_games


# ==========================================================================================
# the seat frame (for learning): the table as seen from seat 0
# ==========================================================================================
def seat_frame(game: Arne, view: Mapping[str, Any]) -> SeatFrame:
    """`view` as its viewer would see the same table from seat 0, in the first colour:
    seat s becomes s - k (k: the viewer's seat, so the order of play is kept), display
    d < players goes with its seat (the dummy display keeps its number), every player
    becomes the seat it sits in (A56 identities are not needed to choose a move: hands,
    scores and knowledge travel with the player), and the deck's colours are renamed in
    the order the frame meets them (`_paint`). Arne's seats and colours are alike, so one
    policy in frames plays every seat in every colour; in table numbers it would learn
    each seat and colour apart. The frame's tensor is the table's with its values moved
    (`_gather`), the same numbers as encoding the frame's view, at a fraction of the cost."""
    me = view.get("player")
    if me is None:  # a spectator sits nowhere
        return SeatFrame(lambda: view, _same, _same, lambda: encode(game, view))
    n = game.n
    k = view["seat_of"][me]
    at_seat = tuple(s["player"] for s in view["seats"])
    paint = _paint(game, view, k)
    key = (k, at_seat, tuple(sorted(paint.items())))
    turn = _turn(n, *key)
    return SeatFrame(
        lambda: _turned(game, view, k, turn, paint),
        turn.to_frame,
        turn.from_frame,
        lambda: encode(game, view)[_gather(game, *key)],
    )


def _turned(
    game: Arne, view: Mapping[str, Any], k: int, turn: _Turn, paint: Mapping[str, str]
) -> dict[str, Any]:
    """The frame's view (see `seat_frame`)."""
    n = game.n
    seat_of = view["seat_of"]

    def seat(s: int) -> int:
        return (s - k) % n

    def player(p: int) -> int:
        return seat(seat_of[p])

    out: dict[str, Any] = dict(view)
    out["player"] = 0
    out["seat_of"] = list(range(n))
    out["seats"] = [{**view["seats"][(r + k) % n], "seat": r, "player": r} for r in range(n)]
    displays = view["displays"]
    out["displays"] = [
        {
            **d,
            "display": d["display"] if d["owner_seat"] is None else seat(d["display"]),
            "owner_seat": None if d["owner_seat"] is None else seat(d["owner_seat"]),
            "controller_seat": None if d["controller_seat"] is None else seat(d["controller_seat"]),
        }
        for d in [*(displays[(r + k) % n] for r in range(n)), *displays[n:]]
    ]
    if view["dummy_seat"] is not None:
        out["dummy_seat"] = seat(view["dummy_seat"])
    out["turn_seat"] = seat(view["turn_seat"])
    out["active"] = player(view["active"])
    if view["pending"] is not None:
        out["pending"] = {**view["pending"], "player": player(view["pending"]["player"])}
    if view["window"] is not None:
        window = view["window"]
        out["window"] = {
            **window,
            "holder_seat": seat(window["holder_seat"]),
            "holder": player(window["holder"]),
            "order": [player(p) for p in window["order"]],
        }
    if view["give"] is not None:
        give = view["give"]
        out["give"] = {**give, "target": player(give["target"]), "to": player(give["to"])}
    if view["final_round"] is not None:
        out["final_round"] = [player(p) for p in view["final_round"]]
    if view["to_act"] is not None:
        out["to_act"] = player(view["to_act"])
    at_seat = turn.at_seat
    for key in ("scores", "totals"):
        values = view[key]
        out[key] = [values[at_seat[(r + k) % n]] for r in range(n)]
    for key in ("known", "team_hands"):
        if key in view:
            out[key] = {str(player(int(p))): cards for p, cards in view[key].items()}
    if view["in_play"] is not None:
        in_play = view["in_play"]
        action = game.action_from_json(in_play["action"])
        out["in_play"] = {"card": in_play["card"], "action": turn.to_frame(action).to_json()}
    if paint:
        _repaint(out, paint)
    return out


def _paint(game: Arne, view: Mapping[str, Any], k: int) -> dict[str, str]:
    """The frame's colours: the deck's colours renamed in the order the frame meets them
    (its displays from seat 0's on, the dummy's last; then the seats'), the others after;
    only the renamed ones. So "my colour" is always the deck's first, the next seat's the
    second: the same situation in other colours is one situation."""
    n, deck = game.n, game.deck_colours
    displays, seats = view["displays"], view["seats"]
    order: list[str] = []
    for colour in [
        *(displays[(r + k) % n]["colour"] for r in range(n)),
        *(d["colour"] for d in displays[n:]),
        *(seats[(r + k) % n]["colour"] for r in range(n)),
    ]:
        if colour is not None and colour not in order:
            order.append(colour)
    order += [c for c in deck if c not in order]
    return {real: frame for real, frame in zip(order, deck, strict=True) if real != frame}


@functools.lru_cache(maxsize=4096)
def _gather(
    game: Arne, k: int, at_seat: tuple[int, ...], paint: tuple[tuple[str, str], ...]
) -> np.ndarray:
    """For each value of the frame's tensor, where it lies in the table's tensor: blocks
    of seats and displays move with their seat, kinds and colours with their new names,
    and the seat, player and display one-hots inside a block are renumbered (the tests
    check it against encoding the frame's view)."""
    size, at = layout(game, observation_features)
    n, colours = game.n, game.colours
    real = {frame: table for table, frame in paint}
    colour = np.asarray([colours.index(real.get(c, c)) for c in colours])  # frame -> table
    kind_of = {k_: i for i, k_ in enumerate(game.kinds)}
    kind = np.asarray(
        [kind_of[(t, c if c < 0 else int(colour[c]))] for t, c in game.kinds], dtype=np.int64
    )
    seat = np.asarray([(r + k) % n for r in range(n)])  # frame seat -> table seat
    player = np.asarray([at_seat[(r + k) % n] for r in range(n)])  # frame player -> table's
    out = np.arange(size)

    def move(frame: str, table: str, inside: np.ndarray | None = None) -> None:
        """Block `frame` of the frame's tensor is block `table` of the table's; `inside`,
        where given, says for each place of the block which place of the table's it is."""
        start = at[table].start
        places = np.arange(at[table].stop - start) if inside is None else inside
        out[at[frame]] = start + places

    def parts(*pieces: np.ndarray) -> np.ndarray:
        """One block's places from its parts in order, each numbered from its own start."""
        placed, offset = [], 0
        for piece in pieces:
            placed.append(piece + offset)
            offset += len(piece)
        return np.concatenate(placed)

    def same(size: int) -> np.ndarray:
        return np.arange(size)

    for name in ("hand", "discard", "discard.top"):
        move(name, name, kind)
    kinds, ncol = len(game.kinds), len(colours)
    for r in range(n):
        move(f"seat{r}", f"seat{seat[r]}")
        move(f"seat{r}.known", f"seat{seat[r]}.known", parts(kind, colour, same(5)))
    stack = parts(same(len(BASE_TYPES)), colour, same(4))
    stacks = np.concatenate([stack + i * len(stack) for i in range(game.max_stacks)])
    for d in range(game.n_displays):
        table = int(seat[d]) if d < n else d
        move(f"display{d}", f"display{table}")
        move(f"display{d}.owner", f"display{table}.owner", parts(colour, seat))
        move(f"display{d}.stacks", f"display{table}.stacks", stacks)
    displays = np.asarray([0, *(seat + 1), *range(n + 1, game.n_displays + 1)])
    action = parts(same(len(ACTION_KINDS)), player, colour, displays, same(1))
    move("in_play", "in_play", parts(same(1), kind, action))
    move("demand", "demand", parts(same(1), seat, seat, same(2), colour))
    assert kinds + ncol + 5 == _seat_block(game)
    return out


def _repaint(out: dict[str, Any], paint: Mapping[str, str]) -> None:
    """Every colour of the frame's view renamed by `paint` (in place, on fresh copies; the
    card in play's action is already the frame's)."""

    def card(name: str) -> str:
        colour, _, rest = name.partition(" ")
        return f"{paint[colour]} {rest}" if rest and colour in paint else name

    def cards(names: list[str]) -> list[str]:
        return [card(name) for name in names]

    if out["hand"] is not None:
        out["hand"] = cards(out["hand"])
    out["discard"] = cards(out["discard"])
    for key in ("known", "team_hands"):
        if key in out:
            out[key] = {p: cards(names) for p, names in out[key].items()}
    out["seats"] = [{**s, "colour": paint.get(s["colour"], s["colour"])} for s in out["seats"]]
    out["displays"] = [
        {
            **d,
            "colour": paint.get(d["colour"], d["colour"]),
            "stacks": [{**stack, "base": card(stack["base"])} for stack in d["stacks"]],
        }
        for d in out["displays"]
    ]
    if out["in_play"] is not None:
        out["in_play"] = {**out["in_play"], "card": card(out["in_play"]["card"])}
    if out["give"] is not None:
        asked = out["give"]["cards"]
        out["give"] = {**out["give"], "cards": paint.get(asked, asked)}


class _Turn:
    """The actions' maps of one frame (the viewer's seat, who sits where, the colours'
    names), remembered: the same frame's moves are asked for at every decision."""

    def __init__(self, n: int, k: int, at_seat: tuple[int, ...], paint: dict[str, str]) -> None:
        self.n, self.k, self.at_seat = n, k, at_seat
        self.into = {p: (s - k) % n for s, p in enumerate(at_seat)}  # player -> frame seat
        self.out_of = [at_seat[(r + k) % n] for r in range(n)]  # frame seat -> player
        self.paint = paint
        self.unpaint = {frame: real for real, frame in paint.items()}
        self.to: dict[Action, Action] = {}
        self.back: dict[Action, Action] = {}

    def to_frame(self, action: Action) -> Action:
        return self._map(action, self.into, -self.k, self.paint, self.to, self.back)

    def from_frame(self, action: Action) -> Action:
        return self._map(action, self.out_of, self.k, self.unpaint, self.back, self.to)

    def _map(
        self,
        action: Action,
        players: Mapping[int, int] | Sequence[int],
        shift: int,
        paint: Mapping[str, str],
        ahead: dict[Action, Action],
        behind: dict[Action, Action],
    ) -> Action:
        """`action` moved one way (both maps remember it: the other way is its inverse)."""
        out = ahead.get(action)
        if out is None:
            n = self.n
            out = _moved(
                action,
                players.__getitem__,
                lambda d: (d + shift) % n if 0 <= d < n else d,  # -1 the discard, n the dummy's
                paint,
            )
            ahead[action], behind[out] = out, action
        return out


@functools.lru_cache(maxsize=4096)
def _turn(n: int, k: int, at_seat: tuple[int, ...], paint: tuple[tuple[str, str], ...]) -> _Turn:
    return _Turn(n, k, at_seat, dict(paint))


def _same(action: Action) -> Action:
    return action


def _moved(
    action: Action,
    player: Callable[[int], int],
    display: Callable[[int], int],
    paint: Mapping[str, str],
) -> Action:
    """`action` with its target player, its display and its colour renamed."""
    changes: dict[str, Any] = {}
    target = getattr(action, "target", None)
    if target is not None:
        changes["target"] = player(target)
    where = getattr(action, "display", None)
    if where is not None:
        changes["display"] = display(where)
    colour = getattr(action, "colour", None)
    if colour and colour in paint:
        changes["colour"] = paint[colour]
    return dataclasses.replace(action, **changes) if changes else action


# ==========================================================================================
# what a seat cannot know (A58)
# ==========================================================================================
def resample(
    state: ArneState, seat: int, rng: random.Random
) -> tuple[dict[int, list[int]], list[int], dict[int, int]]:
    """A58: new hands for the players whose cards `seat` cannot see, a new draw pile, and
    `sigma`, the old unknown card -> the new one in its place."""
    players = state.game.n
    mine = state.known[seat]
    open_to = set(state.open_hands(seat))
    slots: list[tuple[int, list[int]]] = []  # (player, the cards of its hand seat cannot know)
    pool: list[int] = []
    for player in range(players):
        if player == seat or player in open_to:
            continue
        known = mine[player]
        unknown = [c for c in state.hands[player] if c not in known]
        slots.append((player, unknown))
        pool.extend(unknown)
    pool.extend(state.deck)
    pool.sort()
    rng.shuffle(pool)
    _keep_possible(state, seat, slots, pool)
    sigma: dict[int, int] = {}
    hands: dict[int, list[int]] = {}
    i = 0
    for player, unknown in slots:
        fresh = sorted(pool[i : i + len(unknown)])
        i += len(unknown)
        sigma.update(zip(unknown, fresh, strict=True))
        hands[player] = sorted([*mine[player], *fresh]) if mine[player] else fresh
    deck = pool[i:]
    sigma.update(zip(state.deck, deck, strict=True))
    return hands, deck, sigma


def _keep_possible(
    state: ArneState, seat: int, slots: list[tuple[int, list[int]]], pool: list[int]
) -> None:
    """Public facts about a hand that the next decision relies on stay true in the sample:
    while a demand is answered, its target holds at least `left` fitting cards (A24/A25:
    the count is public); in the white step the active player holds a playable white card
    (A9: the step is only entered then). Fitting cards of the shuffled pool are swapped into
    that player's part if needed (a function of the pool order and public facts only)."""
    game = state.game
    card_kind = game.card_kind
    fits: Callable[[int], bool]
    if state.phase == GIVE and state.demand is not None:
        demand = state.demand
        player, need = demand.target, demand.left

        def fits(card: int) -> bool:
            return demand.fits(game, card_kind[card])
    elif state.phase == WHITE:
        player, need = state.active, 1
        x3_target = any(stack.x3 < 0 for stacks in state.displays for stack in stacks)

        def fits(card: int) -> bool:
            kind = card_kind[card]
            return not game.is_black[kind] and (game.kind_type[kind] != "X3" or x3_target)
    else:
        return
    start = 0
    for other, unknown in slots:
        if other == player:
            break
        start += len(unknown)
    else:
        return  # that hand is not resampled
    end = start + len(unknown)
    need -= sum(1 for card in state.known[seat][player] if fits(card))
    have = sum(1 for card in pool[start:end] if fits(card))
    if have >= need:
        return
    donors = [i for i in range(len(pool)) if not start <= i < end and fits(pool[i])]
    for i in range(start, end):
        if have >= need:
            break
        if not fits(pool[i]):
            j = donors.pop(0)
            pool[i], pool[j] = pool[j], pool[i]
            have += 1
