"""The guided first games (issue 46, item 1): every game's tutorial script plays on the real
engine through the shared runner, each step reads as one instruction with its explanation,
and a move other than the step's is refused with a reason (the rules' own when illegal)."""

from __future__ import annotations

import json

import pytest

import gamenight
from gamenight.engine.registry import spec
from gamenight.engine.tutorial import Lesson, Move, Step, check, refusal

ALL = gamenight.games()


def lesson(name: str) -> Lesson:
    return Lesson(name, spec(name).tutorial().TUTORIAL)


@pytest.mark.parametrize("name", ALL)
def test_every_game_has_a_tutorial_that_plays_to_its_end(name: str) -> None:
    runner = lesson(name)
    check(runner)  # every bot move and every step's move is legal where the script puts it
    tutorial = runner.tutorial
    assert 3 <= tutorial.minutes <= 5
    assert len(tutorial.names) == runner.game.players
    assert tutorial.intro and tutorial.outro
    assert any(isinstance(item, Move) for item in tutorial.script)  # the bots' moves fixed
    for step in runner.steps:
        assert step.say.endswith((".", "!", "?")) and step.say.count(". ") == 0, step.say
        assert step.point and step.why
    json.dumps([runner.to_json(k) for k in range(len(runner.steps) + 1)])  # JSON-ready


@pytest.mark.parametrize("name", ALL)
def test_the_state_before_a_step_depends_on_the_step_alone(name: str) -> None:
    first, second = lesson(name), lesson(name)
    last = len(first.steps)
    assert first.to_json(last) == second.to_json(last)
    assert second.to_json(0) == first.to_json(0)


@pytest.mark.parametrize("name", ALL)
def test_a_move_other_than_the_steps_is_refused_with_a_reason(name: str) -> None:
    runner = lesson(name)
    seat = runner.tutorial.seat
    refused = 0
    for k, step in enumerate(runner.steps):
        state = runner.before(k)
        if step.look:
            answer = runner.answer(k, {"type": "anything"})
            assert not answer.accepted and "look" in answer.reason.lower()
            assert runner.answer(k, None).accepted
            continue
        assert not runner.answer(k, None).accepted
        assert runner.answer(k, dict(step.move or {})).accepted
        for action in state.actions(seat):
            if not step.accepts(action.to_json()):
                answer = runner.answer(k, action.to_json())
                assert not answer.accepted and answer.reason, (k, action)
                refused += 1
    assert refused >= 1, "no step offers a wrong move to refuse"


def test_an_illegal_move_gets_the_rules_reason() -> None:
    runner = lesson("drop-or-stop")
    last = len(runner.steps) - 1  # the game is over: no move is legal
    state = runner.before(last)
    action = runner.game.action_from_json({"type": "drop"})
    assert refusal(state, runner.tutorial.seat, action) == "the game is over"
    answer = runner.answer(1, {"type": "no such move"})
    assert not answer.accepted and "unknown action type" in answer.reason
    assert not runner.answer(len(runner.steps), None).accepted


def test_drop_or_stop_tutorial_tells_what_happens() -> None:
    """The explanations are true of the fixed deal: your FLEX counts 5 (10), Bot's FLEX
    counts 1 and it goes over 11, you win the round and the short game."""
    runner = lesson("drop-or-stop")
    steps = runner.steps
    assert [s.expect for s in steps if not s.look] == [{"type": "drop"}, {"type": "stop"}]
    assert runner.before(0).view(0)["hand"] == ["D1", "D4"]
    after_drop = runner.before(2).view(0)
    assert after_drop["seats"][0]["tableau"] == ["FLEX"] and after_drop["own_total"] == 10
    assert after_drop["seats"][1]["tableau"] == ["FLEX"]
    end = runner.before(len(steps))
    reveal = end.view(0)["rounds"][-1]
    assert reveal["totals"] == [10, "OVERFLOW"] and reveal["winners"] == [0]
    assert reveal["flex"][0] == [5]
    assert end.over and end.outcome().winners == (0,)
    assert "10" in steps[1].why and "14" in steps[3].why
    assert isinstance(runner.tutorial.script[2], Move) and isinstance(steps[0], Step)


def test_arne_tutorial_tells_what_happens() -> None:
    """The arranged deal: your 1000 (1000), tripled (3000), crushed by Bot (0), locked by you
    (3000); Draw three empties the pile, the -200 is laid in the final round; 3000 to 500."""
    runner = lesson("arne")
    steps = runner.steps
    scores = [runner.before(k).view(0)["scores"] for k in range(len(steps) + 1)]
    assert scores[2] == [1000, 500] and scores[3] == [0, 500] and scores[4] == [3000, 700]
    final = runner.before(5).view(0)
    assert final["final_round"] and final["draw_pile"] == 0
    assert runner.before(3).view(0)["window"]["kind"] == "end"  # an answer, out of turn
    end = runner.before(len(steps))
    assert end.over and end.outcome().winners == (0,)
    assert end.view(0)["scores"] == [3000, 500]
    assert "3000" in steps[2].why and "500 + 200 - 200 = 500" in steps[6].why


def test_drop_it_tutorial_tells_what_happens() -> None:
    """Drops fall without noise: your circle on the floor covers the medium bonus circle
    (level 1 + 2 = 3), Bot's circle touches its blue floor mark (0), your turned triangle
    glances off your circle and lies flat on yellow and blue marks (1)."""
    runner = lesson("drop-it")
    steps = runner.steps
    first = runner.before(2).view(0)["sides"]
    assert [side["total"] for side in first] == [3, 0]
    last = runner.before(2).view(0)["last"]
    assert last["piece"] == "blue-circle-0" and last["violations"][0]["rule"] == "EDGE"
    assert last["cells"] == ["bottom-2"]  # the blue floor mark
    end = runner.before(len(steps)).view(0)
    assert end["last"]["piece"] == "red-triangle-0" and end["last"]["awarded"] == 1
    assert end["last"]["violations"] == [] and end["last"]["cells"] == ["bottom-6", "bottom-7"]
    assert [side["total"] for side in end["sides"]] == [4, 0]
    where = {p["id"]: round(p["x"]) for p in end["pieces"]}  # the circles knocked left
    assert where == {"yellow-circle-0": 70, "blue-circle-0": 27, "red-triangle-0": 209}
    assert "so it scores 3" in steps[1].why and "1 point" in steps[4].why
    moved = runner.answer(4, {"type": "drop", "piece": "red-triangle", "x": 175, "angle": 0.8})
    assert moved.accepted  # anywhere in the step's range: made at the step's own spot
