"""What a seat sees (spec section 6): one view function for every interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamenight.games.arne.rules import FINAL, PHASE_NAMES, WINDOW, WINDOW_NAMES

if TYPE_CHECKING:
    from gamenight.games.arne.rules import ArneState


def seat_view(state: ArneState, seat: int | None) -> dict[str, Any]:
    """Section 6: exactly what `seat` may see (None: a spectator), with the live score
    preview (5.1) and the window with its priority order (A15)."""
    g = state.game
    n = g.n
    names = g.k_name
    ck = g.card_kind
    colours = g.colours
    dscores = state.display_scores()
    displays = []
    for j, disp in enumerate(state.displays):
        ci = state.disp_colour[j]
        displays.append(
            {
                "display": j,
                "colour": colours[ci] if ci >= 0 else None,
                "owner_seat": j if j < n else None,
                "controller_seat": (state.dummy_ctrl if state.dummy_ctrl >= 0 else None)
                if j == n
                else j,
                "score": dscores[j],
                "stacks": [
                    {
                        "base": names[ck[b]],
                        "chameleon": ch >= 0,
                        "x3": x3 >= 0,
                        "crush": cr >= 0,
                        "lock": lk >= 0,
                    }
                    for b, ch, x3, cr, lk in disp
                ],
            }
        )
    scores = state.scores()
    seats = []
    for s in range(n):
        p = state.player_at[s]
        ci = state.seat_colour[s]
        seats.append(
            {
                "seat": s,
                "player": p,
                "colour": colours[ci] if ci >= 0 else None,
                "team": s % g.teams if g.team else s,
                "hand_size": len(state.hands[p]),
                "score": scores[p],
            }
        )
    window = None
    if state.phase == WINDOW:
        order = [state.player_at[(state.holder + state.d * i) % n] for i in range(n)]
        window = {
            "kind": WINDOW_NAMES[state.wkind],
            "holder_seat": state.holder,
            "holder": state.player_at[state.holder],
            "order": order,
            "quiet": state.quiet,
        }
    decl = state.decl
    in_play = None
    if state.in_play >= 0 and decl is not None:
        in_play = {"card": names[ck[state.in_play]], "action": decl.to_json()}
    give = None
    if state.give is not None:
        t, a, mode, ci, left = state.give
        give = {
            "target": t,
            "to": a,
            "left": left,
            "cards": "black" if mode == "B" else colours[ci],
        }
    out: dict[str, Any] = {
        "game": "arne",
        "player": seat,
        "players": n,
        "mode": g.options.mode,
        "variant": g.options.variant,
        "game_no": state.game_no,
        "phase": PHASE_NAMES[state.phase],
        "seat_of": list(state.seat_of),
        "seats": seats,
        "displays": displays,
        "dummy_seat": (state.dummy_ctrl if state.dummy_ctrl >= 0 else None) if g.dummy else None,
        "hand": [names[ck[c]] for c in state.hands[seat]] if seat is not None else None,
        "discard": [names[ck[c]] for c in state.discard],
        "draw_pile": len(state.deck),
        "turn_seat": state.turn_seat,
        "active": state.active,
        "direction": state.d,
        "pending": {"kind": state.pending[0], "player": state.pending[1]}
        if state.pending
        else None,
        "window": window,
        "in_play": in_play,
        "give": give,
        "final_round": [state.player_at[s] for s in state.final_order[state.final_pos :]]
        if state.phase == FINAL
        else None,
        "to_act": state._actors[0] if state._actors else None,
        "scores": scores,
        "totals": list(state.totals),
        "over": not state._actors,
    }
    if seat is not None:
        mates = state._open_hands(seat)
        if mates:
            out["team_hands"] = {str(q): [names[ck[c]] for c in state.hands[q]] for q in mates}
    return out
