"""The batched Three Thirteen engine's own behaviour and its interfaces: deals, autoreset,
results, refusals, the Gymnasium VectorEnv and the pgx-shaped self-play."""

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
from cardtable.envs.encoders import encoder_for  # noqa: E402
from cardtable.threethirteen.game import DRAW, TAKE  # noqa: E402
from cardtable.vector import SelfPlay, VectorThreeThirteen  # noqa: E402
from cardtable.vector.gym import SequenceVectorEnv, ThreeThirteenVectorEnv  # noqa: E402
from cardtable.vector.threethirteen import (  # noqa: E402
    M_CURRENT,
    M_DEALER,
    M_MOVES,
    M_ROUND,
    M_TURNS,
)


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def random_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_deals_come_from_the_seed_and_the_match_count_alone() -> None:
    engine = VectorThreeThirteen(players=3)
    first, second = engine.init([5, 6, 7]), engine.init([5, 6, 7])
    assert same(copy(first), second)
    # match 2 of every row is the same whatever was played in match 1
    for _ in range(30):
        engine.step(first, engine.random_actions(first))
    engine.reset_rows(first, [0, 1, 2])
    engine.reset_rows(second, [0, 1, 2])
    for name in ("hands", "stock", "meta"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name
    assert not np.array_equal(engine.init([8]).hands, engine.init([9]).hands)


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


def test_max_moves_cuts_a_match() -> None:
    engine = VectorThreeThirteen(max_moves=5)
    batch = engine.init(np.arange(3))
    for _ in range(4):
        res = engine.step(batch, engine.random_actions(batch))
        assert not (res.truncated | res.terminated).any()
    res = engine.step(batch, engine.random_actions(batch))
    assert res.truncated.all() and not res.terminated.any()
    assert (res.moves == 5).all() and (res.rewards == 0).all()


def test_an_illegal_action_refuses_the_whole_call() -> None:
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
    with pytest.raises(ValueError, match="shape"):
        engine.step(batch, actions[:3])


def test_bad_options_and_inputs_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="players"):
        VectorThreeThirteen(players=13)
    with pytest.raises(OptionsError, match="decks"):
        VectorThreeThirteen(players=12, decks=2)
    with pytest.raises(OptionsError, match="max_moves"):
        VectorThreeThirteen(max_moves=0)
    engine = VectorThreeThirteen()
    with pytest.raises(ValueError, match="seeds"):
        engine.init([-1])
    with pytest.raises(ValueError, match="seats"):
        engine.observe(engine.init([1]), seats=2)
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(engine.init([1]), 0,
                    cardtable.new_game("threethirteen", players=3).deal(1))


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorThreeThirteen(players=3, aces="both")
    batch = engine.init([3])
    parts = encoder_for(engine.game).split(engine.observe(batch)[0])
    assert parts["hand"].sum() == 3 and parts["hand_sizes"][:3].tolist() == [3, 3, 3]
    assert parts["stock_size"][0] == 104 - 10 and parts["top_discard"].sum() == 1
    assert parts["round"][0] == 1 and parts["wild_rank"][2] == 1 and parts["to_act"][0] == 1
    assert parts["rules"].tolist() == [1, 0, 1] and parts["phase"].tolist() == [1, 0, 0]


# ---------------------------------------------------------------- Gymnasium


def test_make_vec_gives_the_batched_engine() -> None:
    envs = gymnasium.make_vec("cardtable/ThreeThirteen-v0", num_envs=16,
                              vectorization_mode="vector_entry_point", players=3)
    env = envs.unwrapped
    assert isinstance(env, ThreeThirteenVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (924,)
    assert envs.single_action_space.n == 54
    obs, info = envs.reset(seed=3)
    again, _ = envs.reset(seed=3)
    assert np.array_equal(obs, again)
    assert obs.shape == (16, 924) and info["action_mask"].dtype == np.int8
    assert envs.single_observation_space.contains(obs[0])
    with pytest.raises(OptionsError, match="plays threethirteen"):
        ThreeThirteenVectorEnv(game="sequence")
    with pytest.raises(OptionsError, match="plays sequence"):
        SequenceVectorEnv(game="threethirteen")


@pytest.mark.parametrize("seat", [0, 1])
def test_the_vector_env_plays_whole_matches_for_the_learner(seat: int) -> None:
    env = ThreeThirteenVectorEnv(num_envs=16, seat=seat, players=2)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(1500):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all(), "the learner is to act in every match"
        assert (env.batch.meta[:, M_CURRENT] == seat).all()
        _, rewards, terminated, truncated, info = env.step(random_choice(mask, rng))
        ended = terminated | truncated
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~ended] == 0).all()
        if ended.any():
            assert (info["_final_obs"] == ended).all()
            for i in np.flatnonzero(ended):
                final = info["final_obs"][i]
                assert final.shape == (924,) and final[2] == 1, "the phase is over"
        finished += int(ended.sum())
        if finished >= 16:
            break
    assert finished >= 16


def test_a_batched_policy_plays_the_other_seats() -> None:
    calls: list[int] = []

    def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape == (len(masks), 924)
        calls.append(len(masks))
        return masks.argmax(axis=1)

    env = ThreeThirteenVectorEnv(num_envs=8, players=4, opponents=first_legal)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(20):
        _, _, _, _, info = env.step(random_choice(info["action_mask"], rng))
        assert (env.batch.meta[:, M_CURRENT] == 0).all()
    assert calls and max(calls) <= 8


def test_an_illegal_action_ends_that_match_only() -> None:
    env = ThreeThirteenVectorEnv(num_envs=4, illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = 10  # a discard before drawing
    _, rewards, terminated, _, info = env.step(actions)
    assert rewards[1] == -5.0 and terminated[1]
    assert info["_final_obs"].tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="action ids"):
        env.step(np.full(4, 54))


# ---------------------------------------------------------------- self-play


def test_self_play_in_pgx_shape() -> None:
    env = SelfPlay(game="threethirteen", players=3, max_moves=400)
    state = env.init(np.arange(20))
    assert env.num_actions == 54 and env.observation_size == 924
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(450):
        assert state.legal_action_mask.any(axis=1).all()
        current = state.current_player.copy()
        seen = env.engine.observe(state.batch, seats=current)
        assert np.array_equal(seen, state.observation)
        state = env.step(state, random_choice(state.legal_action_mask, rng))
        done = state.terminated | state.truncated
        ended += int(done.sum())
        assert (state.rewards[~done] == 0).all()
        assert (state.rewards[state.truncated] == 0).all()
    assert ended >= 20


def test_the_docstring_examples_run() -> None:
    import cardtable.vector.threethirteen

    assert doctest.testmod(cardtable.vector.threethirteen).failed == 0
