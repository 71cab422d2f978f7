"""The blend of Sequence's value network and the learned scores (cardtable.bots.blend):
what it adds to every bot's checks (legal, seeded, blind to hidden cards:
tests/bots/test_bots.py)."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.bots import make, sequence_learned
from cardtable.bots.blend import BlendBot
from cardtable.bots.blend import make as make_spec
from cardtable.core import OptionsError


def test_sequence_with_other_options_is_the_learned_bot_s() -> None:
    """No network for three players: the learned bot's scores alone, legal moves. (Every
    game at its default options: tests/bots/test_bots.py, as every bot.)"""
    state = cardtable.new_game("sequence", players=3).deal(seed=1)
    while not state.is_terminal and len(state.history) < 30:
        seat = state.current_player
        assert seat is not None
        scored = BlendBot(1).scores(state, seat)
        assert scored == sequence_learned.move_scores(state, seat,
                                                      sequence_learned.load_weights())
        state.apply(max(scored, key=lambda pair: pair[0])[1])


def test_no_weight_is_the_network_alone_and_bad_weights_are_refused() -> None:
    state = cardtable.new_game("sequence").deal(seed=5)
    for _ in range(6):
        assert BlendBot(1, w=0).choose(state) == make("trained", seed=1).choose(state)
        state.apply(random.Random(len(state.history)).choice(state.legal_actions()))
    for bad in ("-1", "many", "nan"):
        with pytest.raises(OptionsError):
            make_spec(1, w=bad)
