"""Issue 46 item 3 in the terminal: a typed move the rules refuse now is answered with the
rules' reason in player words, in one line (not "is not a legal action now")."""

from __future__ import annotations

import pytest

from gamenight.cli.table import terminal_of
from gamenight.engine.core import BadInput
from gamenight.games.arne import actions as A
from tests.arne.conftest import make_table
from tests.terminal.helpers import gamenight


def _why(text: str, state: object, seat: int) -> str:
    with pytest.raises(BadInput) as caught:
        terminal_of("arne").parse(text, state, seat)  # type: ignore[arg-type]
    return str(caught.value)


def test_A33_typed_lock_on_a_locked_stack_says_it_is_locked() -> None:
    state = make_table(hands={1: ["LOCK"]}, displays={0: ["red P500+CRUSH", "red P50+CRUSH+LOCK"]})
    state.act(0, A.PASS)
    assert _why("lock 1 2", state, 1) == "you can't lock this stack: it is already locked"
    assert _why("lock display 1 stack 2", state, 1).endswith("it is already locked")
    assert _why("crush 1 1", state, 1) == "you can't play a crush: you do not hold one"


def test_A41_typed_stop_in_the_final_round() -> None:
    from tests.arne.helpers import to_final

    state = make_table(hands={1: ["STOP", "CRUSH"]}, displays={0: ["red P50"]}, deck_size=0)
    to_final(state)
    while state.actors[0] != 1:
        state.act(state.actors[0], A.PASS)
    assert _why("stop", state, 1) == "you can't play a stop in the final round: no turn follows it"


def test_words_that_fit_a_legal_move_keep_their_own_answer() -> None:
    state = make_table(hands={1: ["CRUSH"]}, displays={0: ["red P500", "red P100"]})
    state.act(0, A.PASS)
    assert "fits 2 actions" in _why("crush", state, 1)


def test_a_typed_unavailable_choice_prints_the_reason_in_one_line() -> None:
    run = gamenight(
        "play", "drop-it", "--seats", "you,bot:random", "--seed", "2",
        keys="blue circle 100 0\nspend\n",
    )  # fmt: skip
    said = [line for line in run.out.splitlines() if "you can't" in line]
    assert "you can't drop a blue circle: it is not one of your pieces (yours:" in said[0]
    assert any("you can't use a joker now: only right after a drop that broke a rule" in line
               for line in said)  # fmt: skip
    run = gamenight("play", "arne", "--seats", "you,bot:random", "--seed", "3", keys="lock 1 1\n")
    assert "you can't play cards yet: first everybody chooses a colour" in run.out
