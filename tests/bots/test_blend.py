"""The blend of Sequence's value network and the learned scores (cardtable.bots.blend)."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.bots import make
from cardtable.bots.blend import BlendBot
from cardtable.bots.blend import make as make_spec
from cardtable.core import OptionsError
from cardtable.sequence.game import SequenceState


@pytest.mark.parametrize(("game", "options"), [
    ("sequence", {}), ("sequence", {"players": 3}), ("threethirteen", {}),
    ("drawbridge", {"target": 20})])
def test_it_plays_only_legal_moves(game: str, options: dict[str, int]) -> None:
    state = cardtable.new_game(game, **options).deal(seed=1)
    bots = [BlendBot(1)] + [make("random", seed=s) for s in range(state.game.num_players - 1)]
    while not state.is_terminal and len(state.history) < 150:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_it_reads_only_what_its_seat_may_know() -> None:
    """The same move from two states that differ only in cards hidden from the seat."""
    rng = random.Random(7)
    state = cardtable.new_game("sequence").deal(seed=3)
    assert isinstance(state, SequenceState)
    bot = BlendBot(1)
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        other = state.resample(seat, rng)
        assert other.hands[1 - seat] != state.hands[1 - seat]
        bot.reset()
        mine = bot.choose(state)
        bot.reset()
        assert bot.choose(other) == mine
        state.apply(rng.choice(state.legal_actions()))


def test_no_weight_is_the_network_alone_and_bad_weights_are_refused() -> None:
    state = cardtable.new_game("sequence").deal(seed=5)
    for _ in range(6):
        assert BlendBot(1, w=0).choose(state) == make("trained", seed=1).choose(state)
        state.apply(random.Random(len(state.history)).choice(state.legal_actions()))
    for bad in ("-1", "many", "nan"):
        with pytest.raises(OptionsError):
            make_spec(1, w=bad)
