"""The engine contract itself: outcomes, options, the codec, the driver and the checker."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

import gamenight
from gamenight.engine import (
    Action,
    BadInput,
    ContractError,
    Outcome,
    RandomBot,
    TooLong,
    check,
    load_game,
    play,
    save_game,
    snapshot,
)
from gamenight.engine.codec import action_from_json
from gamenight.engine.options import describe_options
from gamenight.engine.seeds import derive_seed
from gamenight.games.drop_or_stop import DropOrStop, DropOrStopState


def test_games_lists_drop_or_stop():
    assert "drop-or-stop" in gamenight.games()
    assert gamenight.games() == sorted(gamenight.games())


def test_unknown_game_is_a_clear_error():
    with pytest.raises(BadInput, match="no game 'chess'; games: "):
        gamenight.load("chess")


def test_design_example_works_as_written():
    game = gamenight.load("drop-or-stop", players=3)
    state = game.start(seed=7)
    seat = state.actors[0]
    assert state.actions(seat)
    events = state.act(seat, state.actions(seat)[0])
    assert events and all(e.to is None for e in events if e.kind == "dropped")
    assert isinstance(state.view(seat), dict) and state.view(None)["hand"] is None
    assert state.info_key(seat) == state.copy().info_key(seat)
    assert game.action_from_json(state.history[0][1].to_json()) == state.history[0][1]
    assert game.encode(state.view(seat)).shape == (game.encoding_size,)
    assert game.replay(7, state.history).view(seat) == state.view(seat)


@pytest.mark.parametrize(
    ("scores", "ranks", "payoff"),
    [
        ((3, 1, 0), (1, 2, 3), (1.0, 0.5, 0.0)),
        ((3, 3, 0), (1, 1, 3), (0.75, 0.75, 0.0)),
        ((2, 2, 2), (1, 1, 1), (0.5, 0.5, 0.5)),
        ((5, 1), (1, 2), (1.0, 0.0)),
    ],
)
def test_outcome_ranks_and_shared_payoff(scores, ranks, payoff):
    out = Outcome.from_scores(scores)
    assert out.ranks == ranks
    assert out.payoff == pytest.approx(payoff)
    assert out.winners == tuple(s for s, r in enumerate(ranks) if r == 1)


def test_outcome_lower_is_better():
    assert Outcome.from_scores([10, 3], higher_is_better=False).winners == (1,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"player": 2}, "has no option 'player'; options: players"),
        ({"players": "two"}, "must be a whole number"),
        ({"allow_drop_when_overflowed": "maybe"}, "true or false"),
        ({"target": 0}, "not allowed: 1 or more"),
    ],
)
def test_bad_options_are_explained(options, message):
    with pytest.raises(BadInput, match=message):
        gamenight.load("drop-or-stop", **options)


def test_options_from_text_are_parsed():
    game = gamenight.load("drop-or-stop", players="4", allow_drop_when_overflowed="false")
    assert game.players == 4 and game.options.allow_drop_when_overflowed is False
    assert gamenight.load("drop-or-stop", max_rounds="none").options.max_rounds is None


def test_describe_options_lists_every_setting():
    names = [r["name"] for r in describe_options(DropOrStop.Options)]
    assert {"players", "deck", "target", "hand_size", "wins_to_win", "max_rounds"} <= set(names)


@dataclass(frozen=True, slots=True)
class Move(Action):
    kind: ClassVar[str] = "move"
    x: float
    piece: str
    cards: tuple[int, ...]


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ("move", "JSON object"),
        ({"type": "jump"}, "unknown action type 'jump'; known: move"),
        ({"type": "move", "x": 1}, r"needs field\(s\) \['piece', 'cards'\]"),
        ({"type": "move", "x": "1", "piece": "a", "cards": []}, "field 'x' must be float"),
        ({"type": "move", "x": 1, "piece": "a", "cards": [1], "y": 2}, "has no field"),
        ({"type": "move", "x": 1, "piece": "a", "cards": 3}, "must be a list"),
    ],
)
def test_codec_refuses_malformed_actions(obj, message):
    with pytest.raises(BadInput, match=message):
        action_from_json(obj, [Move])


@dataclass(frozen=True, slots=True)
class Aim(Action):
    kind: ClassVar[str] = "aim"
    x: float
    depth: float = 0.0


def test_codec_fills_fields_with_defaults():
    assert action_from_json({"type": "aim", "x": 2}, [Aim]) == Aim(2.0, 0.0)
    with pytest.raises(BadInput, match=r"needs field\(s\) \['x'\]"):
        action_from_json({"type": "aim", "depth": 1}, [Aim])


def test_codec_round_trip():
    move = Move(1.5, "red", (1, 2))
    assert move.to_json() == {"type": "move", "x": 1.5, "piece": "red", "cards": [1, 2]}
    assert action_from_json(json.loads(json.dumps(move.to_json())), [Move]) == move


def test_codec_resolves_an_action_class_once(monkeypatch):
    """Resolving type hints on every decoded action was 7% of the server's time (issue 17)."""
    import typing

    calls = []
    real = typing.get_type_hints
    monkeypatch.setattr(typing, "get_type_hints", lambda cls: calls.append(cls) or real(cls))

    @dataclass(frozen=True, slots=True)
    class Nudge(Action):
        kind: ClassVar[str] = "nudge"
        dx: int

    for dx in range(5):
        assert action_from_json({"type": "nudge", "dx": dx}, [Nudge]) == Nudge(dx)
    assert calls == [Nudge]


def test_codec_refuses_a_type_that_is_not_text():
    with pytest.raises(BadInput, match="unknown action type"):
        action_from_json({"type": ["move"]}, [Move])


def test_save_and_load_game_round_trip(tmp_path):
    game = gamenight.load("drop-or-stop", players=2, deck="descending")
    state = play(game, [RandomBot(1), RandomBot(2)], 99)
    path = tmp_path / "g.json"
    save_game(path, game, 99, state.history)
    loaded, seed, history = load_game(path)
    assert loaded.options == game.options and seed == 99
    assert snapshot(loaded.replay(seed, history)) == snapshot(state)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("nope", "is not JSON"),
        ('{"format": "other"}', "not a gamenight replay"),
        ('{"format": "gamenight-replay/1", "game": "drop-or-stop"}', "'options' must be"),
        (
            '{"format": "gamenight-replay/1", "game": "drop-or-stop", "options": {},'
            ' "seed": 1, "history": [{"seat": 0, "action": {"type": "fly"}}]}',
            r"history\[0\]: unknown action type 'fly'",
        ),
    ],
)
def test_bad_replay_files_are_explained(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(BadInput, match=message):
        load_game(path)


def test_driver_needs_one_bot_per_seat_and_stops_runaway_games():
    game = gamenight.load("drop-or-stop", players=2)
    with pytest.raises(ValueError, match="2 seats but 1 bots"):
        play(game, [RandomBot()], 1)

    class AlwaysDrop:
        def choose(self, state, seat):
            return state.actions(seat)[0]

    with pytest.raises(TooLong):
        play(game, [AlwaysDrop(), AlwaysDrop()], 1, limit=300)


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert len({derive_seed(0, i) for i in range(1000)}) == 1000
    assert 0 <= derive_seed(5, "x", 3) < 2**63


# -- the checker must catch broken games --------------------------------------------------
class LeakyState(DropOrStopState):
    def view(self, seat):
        view = super().view(seat)
        view["all_hands"] = [[self.game.card_id[c] for c in h] for h in self.hands]
        return view


class LeakyGame(DropOrStop):
    def start(self, seed):
        state = LeakyState.__new__(LeakyState)
        state.__init__(self, seed)
        return state


class PeekingState(DropOrStopState):
    def determinize(self, seat, rng):
        # Shuffles the unseen cards in their true order: two indistinguishable states
        # determinize differently (the leak of notes/adapters.md).
        new = self.copy()
        pool = [c for s, h in enumerate(new.hands) if s != seat for c in h] + new.draw
        rng.shuffle(pool)
        for s in range(len(new.hands)):
            if s != seat:
                new.hands[s], pool = pool[:2], pool[2:]
        new.draw = pool
        new.rng = random.Random(rng.getrandbits(64))
        ids = self.game.card_id
        for s in range(self.game.players):
            if s != seat:
                old = new._log[new.hand_event[s]]
                data = {"seat": s, "cards": [ids[c] for c in new.hands[s]]}
                new._log[new.hand_event[s]] = type(old)(old.kind, data, old.to)
        return new


class PeekingGame(DropOrStop):
    def start(self, seed):
        state = PeekingState.__new__(PeekingState)
        state.__init__(self, seed)
        return state


def test_checker_catches_a_view_that_shows_other_hands():
    game = LeakyGame(gamenight.load("drop-or-stop").options)
    with pytest.raises(ContractError, match="changed view"):
        check(game, games=2)


def test_checker_catches_determinize_in_true_order():
    game = PeekingGame(gamenight.load("drop-or-stop").options)
    with pytest.raises(ContractError, match="depends on hidden facts"):
        check(game, games=3)


def test_an_option_with_only_a_lower_bound_says_so_in_words() -> None:
    """A range open above read "from 1 to inf"."""
    with pytest.raises(BadInput, match=r"'max_rounds' = 0 is not allowed: 1 or more$"):
        gamenight.load("drop-or-stop", max_rounds=0)
