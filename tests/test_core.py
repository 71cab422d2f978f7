"""The shared API surface: game registry, errors, action input forms, saved states."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable import CardtableError, IllegalActionError, OptionsError, PositionError


def test_error_family() -> None:
    for err in (IllegalActionError, OptionsError, PositionError):
        assert issubclass(err, CardtableError) and issubclass(err, ValueError)


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(OptionsError) as err:
        cardtable.new_game("chess")
    for name in cardtable.game_names():
        assert name in str(err.value)


def test_game_names_sorted() -> None:
    assert cardtable.game_names() == sorted(cardtable.game_names())


@pytest.mark.parametrize("name", cardtable.game_names())
def test_game_surface(name: str) -> None:
    game = cardtable.new_game(name)
    assert game.name == name and game.num_players == 2
    assert game.options["players"] == 2
    assert game == cardtable.new_game(name, **game.options)
    assert [a.id for a in game.actions] == list(range(game.num_distinct_actions))
    state = game.deal(seed=11)
    assert state.game is game
    assert state.history == [] and not state.is_terminal
    action = state.legal_actions()[0]
    assert hash(action) == hash(game.actions[action.id])
    seat = state.current_player
    # the three input forms name the same action
    for form in (action, str(action), action.id):
        child = state.after(form)
        assert child.history == [(seat, action)]
    assert state.history == []


@pytest.mark.parametrize("name", cardtable.game_names())
def test_seed_must_be_an_integer(name: str) -> None:
    with pytest.raises(OptionsError, match="seed"):
        cardtable.new_game(name).deal(seed="7")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", cardtable.game_names())
def test_unseeded_deals_differ(name: str) -> None:
    game = cardtable.new_game(name)
    views = {json.dumps(game.deal().view(0)) for _ in range(5)}
    assert len(views) > 1


@pytest.mark.parametrize("bad", [
    [], {"options": {}}, {"game": "chess", "options": {}},
    {"game": "sequence", "options": {"players": 5}},
    {"game": "sequence", "options": {}},
])
def test_state_from_dict_refuses_bad_input(bad: object) -> None:
    with pytest.raises(PositionError):
        cardtable.state_from_dict(bad)  # type: ignore[arg-type]


def test_state_from_dict_refuses_a_tampered_state() -> None:
    data = cardtable.new_game("sequence").deal(seed=1).to_dict()
    data["hands"][0][0] = data["hands"][1][0] = data["deck"][0] = "AS"
    data["deck"][1] = "AS"
    with pytest.raises(PositionError, match="AS appears"):
        cardtable.state_from_dict(data)
    data = cardtable.new_game("sequence").deal(seed=1).to_dict()
    data["rng"] = "not a generator"
    with pytest.raises(PositionError, match="rng"):
        cardtable.state_from_dict(data)


def test_illegal_action_message_names_the_move() -> None:
    state = cardtable.new_game("sequence").deal(seed=3)
    with pytest.raises(IllegalActionError, match="is not a Sequence move"):
        state.apply("hello")
    with pytest.raises(IllegalActionError, match="out of range"):
        state.apply(10_000)


@pytest.mark.parametrize(("name", "move", "kind"), [
    ("sequence", "ZZ a1", cardtable.InvalidActionError),
    ("sequence", "JS c4", cardtable.IllegalMoveError),       # no chip on c4 to remove
    ("sequence", 10**6, cardtable.InvalidActionError),
    ("sequence", 1.5, cardtable.InvalidActionError),
    ("drawbridge", "8NT", cardtable.InvalidActionError),
    ("drawbridge", "1C", cardtable.IllegalMoveError),        # no auction in the draw phase
    ("threethirteen", "discard", cardtable.InvalidActionError),
    ("threethirteen", "discard 5C", cardtable.IllegalMoveError),  # draw first
])
def test_invalid_and_illegal_moves_are_told_apart(name: str, move: object,
                                                  kind: type[Exception]) -> None:
    """python-chess tells a move that does not parse from one that is not legal now; so do
    we, and both stay IllegalActionError for code that catches that."""
    state = cardtable.new_game(name).deal(seed=1)
    before = state.to_dict()
    with pytest.raises(kind) as raised:
        state.apply(move)  # type: ignore[arg-type]
    assert isinstance(raised.value, IllegalActionError)
    other = ({cardtable.InvalidActionError, cardtable.IllegalMoveError} - {kind}).pop()
    assert not isinstance(raised.value, other)
    assert state.to_dict() == before


def test_a_finished_game_refuses_as_illegal() -> None:
    state = cardtable.new_game("sequence").deal(seed=3)
    import random
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(cardtable.IllegalMoveError, match="the game is over"):
        state.apply(0)
    other = cardtable.new_game("drawbridge").deal(seed=1).legal_actions()[0]
    with pytest.raises(cardtable.InvalidActionError):
        cardtable.new_game("sequence").deal(seed=1).apply(
            cardtable.Action(other.id, "not-a-sequence-move"))
