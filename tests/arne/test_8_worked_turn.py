"""Spec 8, the worked turn, as an integration test."""

from __future__ import annotations

from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Window
from tests.arne.helpers import act, stack_names


def test_worked_turn_of_section_8(table):
    # Seats 0 Red (Ann), 1 Green (Ben), 2 Blue (Cy); Ann's turn.
    state = table(
        colours=("red", "green", "blue"),
        hands={
            0: ["CHAMELEON", "blue P500", "DEMAND_POINTS"],
            1: ["CRUSH", "red P100"],
            2: ["THIEF", "STOP"],
        },
    )
    act(state, A.Chameleon("P500", "blue", 0))  # 1. black action, Ann keeps priority
    assert state.actors[0] == 0
    act(state, A.DemandPoints(1, "red", 0))
    assert state.window == Window.PRE and state.actors[0] == 1  # 2. PRE window starts with Ben
    act(state, A.Crush(0, 0))
    act(state, A.PASS)
    act(state, A.PASS)  # Cy
    act(state, A.PASS)  # Ann -> closed
    # 3. RESOLVE: Ben's only red card goes face up into Ann's display
    assert stack_names(state, 0) == ["blue P500", "red P100"]
    assert state.view(None)["discard"][-1] == "DEMAND_POINTS"
    assert state.window == Window.END and state.actors[0] == 1  # 4. END window starts with Ben
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))  # Cy takes the chameleon stack with its crush
    blue = state.view(None)["displays"][2]["stacks"]
    assert blue == [
        {"base": "blue P500", "chameleon": False, "x3": False, "crush": True, "lock": False}
    ]
    assert state.view(None)["discard"][-2:] == ["CHAMELEON", "THIEF"]
    act(state, A.Stop())
    act(state, A.PASS)
    assert state.quiet == 1
    act(state, A.PASS)  # Ann
    act(state, A.PASS)  # Ben -> closed (counter 3)
    # 5. END_OF_TURN: STOP(Cy) -> Cy's turn
    assert state.turn_seat == 2 and state.active == 2
