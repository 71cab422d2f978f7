"""The batched Sequence engine's own behaviour: autoreset, the teams' results, its options,
its layouts (what every engine does alike: test_engines.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

from cardtable.core import IllegalMoveError, OptionsError  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from cardtable.sequence.game import PASS  # noqa: E402
from cardtable.vector import VectorSequence  # noqa: E402
from cardtable.vector.sequence import M_MOVES, M_TURNS  # noqa: E402


def test_autoreset_reports_each_finished_game() -> None:
    engine = VectorSequence(players=4, max_turns=12)
    batch = engine.init(np.arange(64))
    total = 0
    for _ in range(40):
        res = engine.step(batch, engine.random_actions(batch))
        ended = res.terminated | res.truncated
        total += int(ended.sum())
        assert (res.turns[res.terminated] <= 12).all()
        # the rows hold the next deal at once: nobody has moved in it yet
        assert (batch.meta[ended, M_TURNS] == 0).all()
        assert (batch.meta[ended, M_MOVES] == 0).all()
        assert not batch.over.any()
        assert (res.rewards[~ended] == 0).all()
    assert total >= 64, "every game of 12 turns ended within 40 moves"


def test_wins_pay_the_winning_team() -> None:
    engine = VectorSequence(players=4)
    batch = engine.init(np.arange(200))
    wins = 0
    for _ in range(400):
        res = engine.step(batch, engine.random_actions(batch))
        for i in np.flatnonzero(res.terminated & (res.winner >= 0)):
            team = res.winner[i]
            assert res.rewards[i].tolist() == [1.0 if s % 2 == team else -1.0
                                               for s in range(4)]
            wins += 1
    assert wins > 20


def test_bad_options_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="players"):
        VectorSequence(players=5)
    with pytest.raises(OptionsError, match="teams"):
        VectorSequence(players=4, teams=3)


def test_a_pass_is_refused_while_a_card_plays() -> None:
    engine = VectorSequence()
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    actions[2] = PASS
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorSequence(players=3)
    batch = engine.init([3])
    obs = engine.observe(batch)
    parts = encoder_for(engine.game).split(obs[0])
    assert parts["hand"].sum() == 6 and parts["hand_sizes"][:3].tolist() == [6, 6, 6]
    assert parts["stock_size"][0] == 104 - 18 and parts["sequences_needed"][0] == 1
    assert parts["chips"].sum() == 0


def test_the_kernel_tables_match_the_scalar_notation() -> None:
    from cardtable.cards import NUM_CARDS, card_name
    from cardtable.sequence.board import CARD_CELLS, cell_name
    from cardtable.sequence.game import parse_action_id
    from cardtable.vector import sequence as vs

    for card in range(NUM_CARDS):
        name = card_name(card)
        if vs.JACK_KIND[card]:
            assert vs.CARD_BASE[card] == parse_action_id(f"{name} b1")  # the first card cell
            assert vs.CARD_DEAD[card] == -1
        else:
            first, second = (cell_name(c) for c in CARD_CELLS[card])
            assert vs.CARD_BASE[card] == parse_action_id(f"{name} {first}")
            assert vs.CARD_BASE[card] + 1 == parse_action_id(f"{name} {second}")
            assert vs.CARD_DEAD[card] == parse_action_id(f"dead {name}")
