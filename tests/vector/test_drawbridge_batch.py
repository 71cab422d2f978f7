"""The batched Draw Bridge engine's own behaviour and its interfaces: deals, autoreset,
match results, refusals, the Gymnasium VectorEnv and the pgx-shaped self-play."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")
gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
import cardtable.envs  # noqa: E402,F401  (registers the Gymnasium ids)
from cardtable.core import IllegalMoveError, OptionsError  # noqa: E402
from cardtable.drawbridge.game import BID, DOUBLE, PASS  # noqa: E402
from cardtable.envs.encoders import encoder_for  # noqa: E402
from cardtable.vector import SelfPlay, VectorDrawBridge  # noqa: E402
from cardtable.vector.drawbridge import M_CURRENT, M_DEAL, M_MOVES, M_PHASE  # noqa: E402
from cardtable.vector.gym import DrawBridgeVectorEnv  # noqa: E402


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def random_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_deals_come_from_the_seed_the_match_and_the_deal_number_alone() -> None:
    engine = VectorDrawBridge()
    first, second = engine.init([5, 6, 7]), engine.init([5, 6, 7])
    assert same(copy(first), second)
    assert not np.array_equal(engine.init([8]).masks, engine.init([9]).masks)


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


def test_max_moves_cuts_a_match() -> None:
    engine = VectorDrawBridge(max_moves=5)
    batch = engine.init(np.arange(3))
    for _ in range(4):
        res = engine.step(batch, engine.random_actions(batch))
        assert not (res.truncated | res.terminated).any()
    res = engine.step(batch, engine.random_actions(batch))
    assert res.truncated.all() and not res.terminated.any()
    assert (res.moves == 5).all() and (res.rewards == 0).all()


def test_an_illegal_action_refuses_the_whole_call() -> None:
    engine = VectorDrawBridge()
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    mask = engine.legal_mask(batch)
    before = copy(batch)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    assert same(before, batch), "nothing was played"
    actions[2] = PASS  # a call in the draw phase
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    with pytest.raises(ValueError, match="shape"):
        engine.step(batch, actions[:3])


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


def test_bad_options_and_inputs_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="target"):
        VectorDrawBridge(target=0)
    with pytest.raises(OptionsError, match="max_moves"):
        VectorDrawBridge(max_moves=0)
    engine = VectorDrawBridge()
    with pytest.raises(ValueError, match="seeds"):
        engine.init([-1])
    with pytest.raises(ValueError, match="seats"):
        engine.observe(engine.init([1]), seats=2)
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(engine.init([1]), 0, cardtable.new_game("drawbridge", target=5).deal(1))
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(engine.init([1]), 0, cardtable.new_game("sequence").deal(1))


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorDrawBridge(show_stock_top=True, target=70)
    batch = engine.init([3])
    obs = engine.observe(batch)
    parts = encoder_for(engine.game).split(obs[0])
    assert parts["hand"].sum() == 13 and parts["phase"].tolist() == [1, 0, 0, 0]
    assert parts["stock_size"][0] == 26 and parts["target"][0] == 70
    assert parts["stock_top"].sum() == 1 and parts["to_act"][0] == 1
    assert parts["rules"].tolist() == [1, 0, 0, 0]


# ---------------------------------------------------------------- Gymnasium


def test_make_vec_gives_the_batched_engine() -> None:
    envs = gymnasium.make_vec("cardtable/DrawBridge-v0", num_envs=16,
                              vectorization_mode="vector_entry_point", target=50)
    env = envs.unwrapped
    assert isinstance(env, DrawBridgeVectorEnv)
    assert env.engine.target == 50
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (551,)
    assert envs.observation_space.shape == (16, 551)
    obs, info = envs.reset(seed=3)
    again, _ = envs.reset(seed=3)
    assert np.array_equal(obs, again)
    assert obs.shape == (16, 551) and info["action_mask"].shape == (16, 90)
    assert info["action_mask"].dtype == np.int8
    assert envs.single_observation_space.contains(obs[0])


@pytest.mark.parametrize("seat", [0, 1])
def test_the_vector_env_plays_whole_matches_for_the_learner(seat: int) -> None:
    env = DrawBridgeVectorEnv(num_envs=16, seat=seat, target=20, undertricks=True)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all(), "the learner is to act in every match"
        assert (env.batch.meta[:, M_CURRENT] == seat).all()
        obs, rewards, terminated, truncated, info = env.step(random_choice(mask, rng))
        ended = terminated | truncated
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~ended] == 0).all()
        if ended.any():
            assert (info["_final_obs"] == ended).all()
            assert all(info["final_obs"][i].shape == (551,) for i in np.flatnonzero(ended))
        finished += int(ended.sum())
    assert finished > 16


def test_an_illegal_action_ends_that_match_only() -> None:
    env = DrawBridgeVectorEnv(num_envs=4, illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, info = env.step(actions)
    assert rewards[1] == -5.0 and terminated[1]
    assert info["_final_obs"].tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="action ids"):
        env.step(np.full(4, 90))


@pytest.mark.parametrize("opponents", ["random", "policy"])
def test_the_vector_env_truncates_at_max_moves(opponents: str) -> None:
    calls: list[int] = []

    def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape == (len(masks), 551)
        calls.append(len(masks))
        return masks.argmax(axis=1)

    env = DrawBridgeVectorEnv(num_envs=6, max_moves=7,
                              opponents="random" if opponents == "random" else first_legal)
    _, info = env.reset(seed=5)
    cut = 0
    for _ in range(8):
        _, rewards, terminated, truncated, info = env.step(info["action_mask"].argmax(axis=1))
        cut += int(truncated.sum())
        assert (rewards[truncated] == 0).all() and not (terminated & truncated).any()
        assert (env.batch.meta[:, M_MOVES] < 7).all()
        assert (env.batch.meta[:, M_CURRENT] == 0).all()
    assert cut >= 6
    assert opponents == "random" or calls
    with pytest.raises(OptionsError, match="opponents"):
        DrawBridgeVectorEnv(opponents="heuristic")


# ---------------------------------------------------------------- self-play


def test_self_play_in_pgx_shape() -> None:
    env = SelfPlay(game="drawbridge", target=20, undertricks=True)
    assert (env.num_players, env.num_actions, env.observation_size) == (2, 90, 551)
    state = env.init(np.arange(40))
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(600):
        assert state.legal_action_mask.any(axis=1).all()
        current = state.current_player.copy()
        seen = env.engine.observe(state.batch, seats=current)
        assert np.array_equal(seen, state.observation)
        state = env.step(state, random_choice(state.legal_action_mask, rng))
        done = state.terminated | state.truncated
        ended += int(done.sum())
        assert (state.rewards[state.terminated].sum(axis=1) == 0).all(), "a winner, a loser"
        assert (state.rewards[~done] == 0).all()
    assert ended >= 40


def test_the_docstring_example_runs() -> None:
    import cardtable.vector.drawbridge

    assert doctest.testmod(cardtable.vector.drawbridge).failed == 0


def test_the_benchmark_measures_draw_bridge_on_a_tiny_budget() -> None:
    from tests.test_bench import run_bench, vector

    report = run_bench("vector.py", "--game", "drawbridge", "--sizes", "1", "16", "--seconds",
                       "0.05", "--runs", "1", "--gym-envs", "8", json_lines=False)
    vector(report)
    assert report["game"] == "drawbridge" and report["players"] == 2
