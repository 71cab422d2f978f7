"""The lookahead bot: two plies on Sequence's value network (cardtable.bots.lookahead)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import cardtable
from cardtable.bots import make
from cardtable.bots.lookahead import LookaheadBot
from cardtable.bots.lookahead import make as make_spec
from cardtable.core import OptionsError
from cardtable.sequence.game import SequenceState


def test_it_plays_only_legal_moves_in_short_playouts() -> None:
    game = cardtable.new_game("sequence")
    for seed in range(2):   # against random play, then against the learned bot
        state = game.deal(seed=seed)
        assert isinstance(state, SequenceState)
        bots = [LookaheadBot(seed, top=3, samples=2),
                make("random" if seed == 0 else "learned", seed=seed + 1)]
        while not state.is_terminal and state.turns < 40:
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
    bot = LookaheadBot(1, top=3, samples=2)
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        other = state.resample(seat, rng)
        assert isinstance(other, SequenceState)
        assert other.hands[1 - seat] != state.hands[1 - seat]
        bot.reset()
        mine = bot.choose(state)
        bot.reset()
        assert bot.choose(other) == mine
        state.apply(rng.choice(state.legal_actions()))


def test_its_budget_counts_deals_and_stops_when_the_time_is_spent() -> None:
    state = cardtable.new_game("sequence").deal(seed=2)
    bot = LookaheadBot(1, top=2, samples=5)
    bot.choose(state)
    assert bot.last_samples == 5
    ticks = itertools.count()
    timed = LookaheadBot(1, top=2, samples=50, seconds=2.5)
    timed.clock = lambda: float(next(ticks))   # one second a reading
    timed.choose(state)
    assert timed.last_samples == 3   # the first at once, then at readings 1 and 2 (before
    # the stop at 0 + 2.5), none at 3


def test_other_games_and_bad_settings() -> None:
    state = cardtable.new_game("sequence", players=3).deal(seed=1)
    assert make("lookahead", seed=1).choose(state) in state.legal_actions()
    for bad in ({"top": "0"}, {"samples": "many"}, {"seconds": "-1"}, {"going_out": "-1"},
                {"going_out": "lots"}):
        with pytest.raises(OptionsError):
            make_spec(1, **bad)


def test_the_reply_is_the_network_s_or_a_bot_s() -> None:
    state = cardtable.new_game("sequence").deal(seed=4)
    for reply in ("value", "learned"):
        assert LookaheadBot(1, top=2, samples=1, reply=reply).choose(state) \
            in state.legal_actions()
    with pytest.raises(OptionsError):
        make_spec(1, reply="nobody")


def test_many_positions_in_one_pass_are_valued_as_each_alone() -> None:
    from cardtable.bots.sequence_value import shipped
    from cardtable.encoders import encoder_for

    net = shipped()
    assert net is not None
    game = cardtable.new_game("sequence")
    encoder = encoder_for(game)
    positions = []
    for seed in (1, 2):
        state = game.deal(seed=seed)
        for _ in range(seed * 5):
            state.apply(make("heuristic", seed=seed).choose(state))
        seat = state.current_player
        assert seat is not None
        positions.append((encoder.encode(state, seat),
                          np.array([a.id for a in state.legal_actions()])))
    together = net.afterstate_values_of(positions)
    for (obs, actions), values in zip(positions, together, strict=True):
        assert np.allclose(values, net.afterstate_values(obs, actions), atol=1e-6)
