"""States travel cheaply and safely: small pickles, no hidden card in str/repr, one error
family for every refusal, integer-like action ids."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import cardtable
from cardtable import CardtableError, IllegalActionError, OptionsError, State
from cardtable.bots import hint, make
from cardtable.drawbridge import score_deal
from cardtable.threethirteen import arrange
from tests.configs import FEW

# the few configurations of tests/configs.py checked at length
CONFIGS = [(c.game, c.options) for c in FEW]
IDS = [f"{name}{options.get('players', '')}" for name, options in CONFIGS]


def played(name: str, options: dict[str, Any], moves: int, seed: int = 5) -> State:
    """A seeded random line of ``moves`` moves (fewer if the game ends first)."""
    state = cardtable.new_game(name, **options).deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def finished(name: str, options: dict[str, Any]) -> State:
    return played(name, options, 10**6)


# ---------------------------------------------------------------- pickles


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_a_game_pickles_as_its_name_and_options(name: str, options: dict[str, Any]) -> None:
    finished(name, options)  # warm every cache a game might drag along (the meld solver's)
    game = cardtable.new_game(name, **options)
    data = pickle.dumps(game)
    assert len(data) < 256, f"a {name} game pickles to {len(data)} bytes"
    again = pickle.loads(data)
    assert again == game and again.options == game.options


# bytes a pickled state may take after 200 moves: its cards, its generator (2.5 KB of
# Mersenne Twister state) and two bytes per seat and per action of its history
STATE_PICKLE_LIMIT = 8_000


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_a_state_pickles_small_and_plays_on_identically(name: str,
                                                        options: dict[str, Any]) -> None:
    finished(name, options)
    state = played(name, options, 200)
    data = pickle.dumps(state)
    assert len(data) < STATE_PICKLE_LIMIT, f"a {name} state pickles to {len(data)} bytes"
    copy = pickle.loads(data)
    assert copy.to_dict() == state.to_dict()
    assert copy.game == state.game
    rng = random.Random(1)
    while not state.is_terminal:
        assert copy.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action)
    assert copy.to_dict() == state.to_dict()


# ---------------------------------------------------------------- nothing hidden in text


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("moves", [0, 7, 60, 400])
def test_str_and_repr_show_no_hidden_card(name: str, options: dict[str, Any],
                                          moves: int) -> None:
    """A state's text is the same for every state that differs only in hidden cards."""
    state = played(name, options, moves)
    rng = random.Random(moves)
    for seat in range(state.game.num_players):
        for _ in range(3):
            other = state.resample(seat, rng)
            assert str(other) == str(state), f"str() of a {name} state shows hidden cards"
            assert repr(other) == repr(state)


# ---------------------------------------------------------------- one error family


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("seat", [-1, 99, True, "0", 1.0])
def test_a_bad_seat_is_an_options_error(name: str, options: dict[str, Any], seat: Any) -> None:
    state = played(name, options, 3)
    n = state.game.num_players
    seat = n if seat == 99 else seat
    with pytest.raises(OptionsError, match="seat must be"):
        state.view(seat)
    with pytest.raises(OptionsError, match="seat must be"):
        state.resample(seat, random.Random(0))


@pytest.mark.parametrize(("name", "options"), [(n, {}) for n in cardtable.game_names()],
                         ids=cardtable.game_names())
@pytest.mark.parametrize("kind", ["random", "heuristic", "ismcts"])
def test_a_bot_refuses_a_finished_game_as_an_illegal_action(name: str, options: dict[str, Any],
                                                            kind: str) -> None:
    state = finished(name, options)
    assert state.is_terminal
    budget = {"iterations": 10} if kind == "ismcts" else {}
    with pytest.raises(IllegalActionError, match="the game is over"):
        make(kind, seed=1, **budget).choose(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        hint(state, budget={"iterations": 10})


# ---------------------------------------------------------------- integer-like action ids


class Index:
    """Anything with ``__index__`` is an integer to ``operator.index``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def integer_likes() -> list[Any]:
    forms: list[Any] = [Index]
    numpy = pytest.importorskip("numpy")
    forms += [numpy.int64, numpy.int32, numpy.uint16, numpy.intp]
    return forms


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_integer_like_action_ids_are_accepted(name: str, options: dict[str, Any]) -> None:
    state = played(name, options, 5)
    action = state.legal_actions()[-1]
    for form in integer_likes():
        child = state.after(form(action.id))
        assert child.history[-1][1] == action, form


NOT_ACTIONS: list[Any] = [True, False, 1.0, 2.5, float("nan"), None, [3], (3,), b"3", 3j]


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_bools_and_floats_are_not_action_ids(name: str, options: dict[str, Any]) -> None:
    state = played(name, options, 5)
    before = state.to_dict()
    legal = state.legal_actions()[0].id
    refused: list[Any] = [*NOT_ACTIONS, float(legal), Index(-1), Index(10**6)]
    try:
        import numpy
    except ImportError:
        pass
    else:
        refused += [numpy.float64(legal), numpy.float32(legal), numpy.bool_(True),
                    numpy.int64(-1), numpy.int64(state.game.num_distinct_actions),
                    numpy.array([legal])]
    for value in refused:
        with pytest.raises(IllegalActionError):
            state.apply(value)
    assert state.to_dict() == before


def test_the_error_family() -> None:
    for err in (IllegalActionError, OptionsError):
        assert issubclass(err, CardtableError) and issubclass(err, ValueError)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: score_deal(0, "S", 0, 7), "level"),
    (lambda: score_deal(1, "Z", 0, 7), "strain"),
    (lambda: score_deal(1, "S", 0, 7, "no"), "undertricks"),  # type: ignore[arg-type]
    (lambda: arrange("AS 2S 3S", 1), "cards must be a list"),
    (lambda: arrange(5, 1), "cards must be a list"),  # type: ignore[arg-type]
    (lambda: arrange(["ZZ"], 1), "ZZ"),
    (lambda: arrange([1], 1), "is not a card"),  # type: ignore[list-item]
    (lambda: arrange(["AS"], 12), "round"),
])
def test_helpers_refuse_bad_arguments_with_an_options_error(call: Any, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        call()
