"""The batched Draw Bridge engine's own behaviour: deals within a match, autoreset, match
results, the auction's refusals, its options, its layouts, its benchmark (what every engine
does alike: test_engines.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

from cardtable.core import IllegalMoveError, OptionsError  # noqa: E402
from cardtable.drawbridge.game import BID, DOUBLE, PASS  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from cardtable.vector import VectorDrawBridge  # noqa: E402
from cardtable.vector.drawbridge import M_CURRENT, M_DEAL, M_MOVES, M_PHASE  # noqa: E402


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_passed_out_deal_deals_the_next_one_from_the_other_dealer() -> None:
    engine = VectorDrawBridge()
    batch = engine.init(np.arange(8))
    other = engine.init(np.arange(8))
    dealers = batch.meta[:, 1].copy()
    for _ in range(26):
        engine.step(batch, engine.random_actions(batch))
    assert (batch.meta[:, M_PHASE] == 1).all() and (batch.meta[:, M_CURRENT] == dealers).all()
    engine.step(batch, np.full(8, PASS))
    assert (batch.meta[:, M_DEAL] == 1).all(), "the dealer's opening pass goes on"
    res = engine.step(batch, np.full(8, PASS))
    assert not res.terminated.any()
    assert (batch.meta[:, M_DEAL] == 2).all() and (batch.meta[:, 1] == 1 - dealers).all()
    assert (batch.meta[:, M_MOVES] == 28).all()
    # deal 2 of the same match is the same in a batch that plays its deal 1 out at random
    while (other.meta[:, M_DEAL] == 1).any():
        engine.step(other, engine.random_actions(other), active=other.meta[:, M_DEAL] == 1)
    assert np.array_equal(batch.masks[:, :2], other.masks[:, :2])
    assert np.array_equal(batch.stock, other.stock)


def test_autoreset_reports_each_finished_match() -> None:
    engine = VectorDrawBridge(target=20, undertricks=True)
    batch = engine.init(np.arange(64))
    total = 0
    for _ in range(600):
        res = engine.step(batch, engine.random_actions(batch))
        ended = res.terminated | res.truncated
        total += int(ended.sum())
        # the rows hold a new match at once: nobody has moved in it yet
        assert (batch.meta[ended, M_MOVES] == 0).all() and (batch.meta[ended, M_DEAL] == 1).all()
        assert not batch.over.any()
        assert (res.rewards[~ended] == 0).all()
        won = res.terminated
        assert (res.rewards[won].sum(axis=1) == 0).all()
        assert (res.rewards[won, res.winner[won]] == 1).all()
        assert (res.scores[won].max(axis=1) >= 20).all()
    assert total >= 64, "every match to 20 with undertricks ended within 600 moves"


def test_a_call_is_refused_in_the_draw_phase() -> None:
    engine = VectorDrawBridge()
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    before = copy(batch)
    actions[2] = PASS
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    assert same(before, batch), "nothing was played"


def test_the_auction_refuses_what_rule_1_4_refuses() -> None:
    engine = VectorDrawBridge()
    batch = engine.init([1])
    for _ in range(26):
        engine.step(batch, engine.random_actions(batch))
    mask = engine.legal_mask(batch)[0]
    assert mask[BID:PASS + 1].all() and not mask[:BID].any() and not mask[DOUBLE:].any()
    engine.step(batch, [BID + 7])  # 2H
    mask = engine.legal_mask(batch)[0]
    assert not mask[BID:BID + 8].any() and mask[BID + 8] and mask[DOUBLE] and not mask[DOUBLE + 1]
    engine.step(batch, [DOUBLE])
    mask = engine.legal_mask(batch)[0]
    assert mask[DOUBLE + 1] and not mask[DOUBLE]
    for bad in (BID + 7, DOUBLE, 3):
        with pytest.raises(IllegalMoveError):
            engine.step(batch, [bad])


def test_bad_options_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="target"):
        VectorDrawBridge(target=0)
    with pytest.raises(OptionsError, match="players"):
        VectorDrawBridge(players=3)


def test_the_scoring_tables_are_the_scalar_engines() -> None:
    from cardtable.drawbridge.scoring import STRAINS, score_deal
    from cardtable.vector import drawbridge as vd

    for strain, name in enumerate(STRAINS):
        for level in range(1, 8):
            for tricks in range(6 + level, 14):
                points = vd.TRICK_POINTS[strain, tricks - 6]
                assert score_deal(level, name, 0, tricks)[0] == points


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorDrawBridge(show_stock_top=True, target=70)
    batch = engine.init([3])
    obs = engine.observe(batch)
    parts = encoder_for(engine.game).split(obs[0])
    assert parts["hand"].sum() == 13 and parts["phase"].tolist() == [1, 0, 0, 0]
    assert parts["stock_size"][0] == 26 and parts["target"][0] == 70
    assert parts["stock_top"].sum() == 1 and parts["to_act"][0] == 1
    assert parts["rules"].tolist() == [1, 0, 0, 0]


@pytest.mark.slow
def test_the_benchmark_measures_draw_bridge_on_a_tiny_budget() -> None:
    from tests.test_bench import run_bench, vector

    report = run_bench("vector.py", "--game", "drawbridge", "--sizes", "1", "16", "--seconds",
                       "0.05", "--runs", "1", "--gym-envs", "8", json_lines=False)
    vector(report)
    assert report["game"] == "drawbridge" and report["players"] == 2
