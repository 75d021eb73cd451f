"""Rig Drop or Stop states card by card, for rule tests."""

from __future__ import annotations

from gamenight.games.drop_or_stop import DropOrStop, DropOrStopState


def cards_of(game: DropOrStop, ids: list[str], taken: set[int]) -> list[int]:
    """Physical card numbers for the given kind ids, not already taken."""
    out = []
    for cid in ids:
        card = next(c for c in range(39) if game.card_id[c] == cid and c not in taken)
        taken.add(card)
        out.append(card)
    return out


def arrange(
    game: DropOrStop,
    hands: list[list[str]],
    *,
    tableaux: list[list[str]] | None = None,
    draw_next: list[str] = (),  # type: ignore[assignment]
    discard: list[str] = (),  # type: ignore[assignment]
    rest: str = "draw",
    start: int = 0,
    seed: int = 0,
) -> DropOrStopState:
    """A state at the start seat's turn with exactly these cards; the unnamed cards go to
    the bottom of the draw pile (rest="draw") or onto the discard pile (rest="discard")."""
    state = game.start(seed)
    taken: set[int] = set()
    state.hands = [cards_of(game, h, taken) for h in hands]
    state.tableaux = [cards_of(game, t, taken) for t in (tableaux or [[] for _ in hands])]
    top = cards_of(game, list(draw_next), taken)
    state.discard = cards_of(game, list(discard), taken)
    leftover = [c for c in range(39) if c not in taken]
    if rest == "draw":
        state.draw = leftover + top[::-1]
    else:
        state.discard += leftover
        state.draw = top[::-1]
    state.start_seat = state.current = start
    state._actors = (start,)
    state.active = [True] * game.players
    state.recount()
    return state


def all_cards(state: DropOrStopState) -> list[int]:
    cards = list(state.draw) + list(state.discard)
    for h in state.hands:
        cards += h
    for t in state.tableaux:
        cards += t
    return sorted(cards)


def kinds(cards: str) -> list[tuple[bool, int]]:
    """Cards for the valuation tests: "F" is a flex card, a digit a fixed value."""
    return [(True, 1) if c == "F" else (False, int(c)) for c in cards.split(",")]
