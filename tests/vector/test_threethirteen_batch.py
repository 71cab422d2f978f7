"""The batched Three Thirteen engine's own behaviour: rounds, autoreset, match results, its
refusals, its options, its layouts (what every engine does alike: test_engines.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

from cardtable.core import IllegalMoveError, OptionsError  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from cardtable.threethirteen.game import DRAW, TAKE  # noqa: E402
from cardtable.vector import VectorThreeThirteen  # noqa: E402
from cardtable.vector.threethirteen import (  # noqa: E402
    M_DEALER,
    M_MOVES,
    M_ROUND,
    M_TURNS,
)


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_rounds_deal_more_cards_and_pass_the_deal_left() -> None:
    engine = VectorThreeThirteen(players=4)
    batch = engine.init(np.arange(16))
    dealer = batch.meta[:, M_DEALER].copy()
    seen = set()
    for _ in range(20000):
        engine.step(batch, engine.random_actions(batch), active=batch.over == 0,
                    autoreset=False)
        rounds = batch.meta[:, M_ROUND]
        for i in range(16):
            if not batch.over[i]:
                assert (batch.sizes[i] >= rounds[i] + 2).all()
                assert batch.sizes[i].sum() <= 4 * (rounds[i] + 2) + 1
                assert batch.meta[i, M_DEALER] == (dealer[i] + rounds[i] - 1) % 4
        seen.update(rounds.tolist())
        if batch.over.all():
            break
    assert seen == set(range(1, 12)) and batch.over.all()


def test_autoreset_reports_each_finished_match() -> None:
    engine = VectorThreeThirteen()
    batch = engine.init(np.arange(32))
    ended_total = 0
    for _ in range(20000):
        res = engine.step(batch, engine.random_actions(batch))
        ended = res.terminated | res.truncated
        ended_total += int(ended.sum())
        assert (batch.meta[ended, M_TURNS] == 0).all()
        assert (batch.meta[ended, M_MOVES] == 0).all()
        assert (batch.meta[ended, M_ROUND] == 1).all()
        assert not batch.over.any()
        assert (res.rewards[~ended] == 0).all()
        for i in np.flatnonzero(ended):
            # +1 for the lowest total (every seat tied with it), -1 for the other
            assert res.rewards[i].max() == 1.0 and res.rewards[i, res.winner[i]] == 1.0
        if ended_total >= 32:
            break
    assert ended_total >= 32


def test_a_draw_or_discard_out_of_turn_is_refused() -> None:
    engine = VectorThreeThirteen()
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    before = copy(batch)
    actions[2] = 5  # a discard while drawing
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    assert same(before, batch), "nothing was played"
    engine.step(batch, np.full(4, TAKE))
    mask = engine.legal_mask(batch)
    actions = mask.argmax(axis=1)
    actions[1] = DRAW  # drawn already
    with pytest.raises(IllegalMoveError, match="row 1"):
        engine.step(batch, actions)
    actions[1] = int(np.flatnonzero(~mask[1])[-1])  # a card not held
    with pytest.raises(IllegalMoveError, match="row 1"):
        engine.step(batch, actions)


def test_bad_options_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="players"):
        VectorThreeThirteen(players=13)
    with pytest.raises(OptionsError, match="decks"):
        VectorThreeThirteen(players=12, decks=2)


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorThreeThirteen(players=3, aces="both")
    batch = engine.init([3])
    parts = encoder_for(engine.game).split(engine.observe(batch)[0])
    assert parts["hand"].sum() == 3 and parts["hand_sizes"][:3].tolist() == [3, 3, 3]
    assert parts["stock_size"][0] == 104 - 10 and parts["top_discard"].sum() == 1
    assert parts["round"][0] == 1 and parts["wild_rank"][2] == 1 and parts["to_act"][0] == 1
    assert parts["rules"].tolist() == [1, 0, 1] and parts["phase"].tolist() == [1, 0, 0]
