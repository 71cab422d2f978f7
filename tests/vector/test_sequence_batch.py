"""The batched Sequence engine's own behaviour and its interfaces: deals, autoreset, results,
refusals, the Gymnasium VectorEnv and the pgx-shaped self-play."""

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
from cardtable.sequence.game import PASS  # noqa: E402
from cardtable.vector import SelfPlay, VectorSequence  # noqa: E402
from cardtable.vector.gym import SequenceVectorEnv  # noqa: E402
from cardtable.vector.sequence import M_CURRENT, M_MOVES, M_TURNS  # noqa: E402


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_deals_come_from_the_seed_and_the_deal_count_alone() -> None:
    engine = VectorSequence()
    first, second = engine.init([5, 6, 7]), engine.init([5, 6, 7])
    assert same(copy(first), second)
    # deal 2 of every row is the same whatever was played in deal 1
    for _ in range(30):
        engine.step(first, engine.random_actions(first))
    engine.reset_rows(first, [0, 1, 2])
    engine.reset_rows(second, [0, 1, 2])
    assert np.array_equal(first.hands, second.hands)
    assert np.array_equal(first.deck, second.deck)
    assert not np.array_equal(engine.init([8]).hands, engine.init([9]).hands)


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


def test_max_moves_cuts_a_game() -> None:
    engine = VectorSequence(max_moves=5)
    batch = engine.init(np.arange(3))
    for _ in range(4):
        res = engine.step(batch, engine.random_actions(batch))
        assert not (res.truncated | res.terminated).any()
    res = engine.step(batch, engine.random_actions(batch))
    assert res.truncated.all() and not res.terminated.any()
    assert (res.moves == 5).all() and (res.rewards == 0).all()


def test_an_illegal_action_refuses_the_whole_call() -> None:
    engine = VectorSequence()
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    mask = engine.legal_mask(batch)
    before = copy(batch)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    assert same(before, batch), "nothing was played"
    actions[2] = PASS if not mask[2, PASS] else actions[2]
    with pytest.raises(IllegalMoveError, match="row 2"):
        engine.step(batch, actions)
    with pytest.raises(ValueError, match="shape"):
        engine.step(batch, actions[:3])


def test_bad_options_and_inputs_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="players"):
        VectorSequence(players=5)
    with pytest.raises(OptionsError, match="max_moves"):
        VectorSequence(max_moves=0)
    engine = VectorSequence()
    with pytest.raises(ValueError, match="seeds"):
        engine.init([-1])
    with pytest.raises(ValueError, match="seats"):
        engine.observe(engine.init([1]), seats=2)
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(engine.init([1]), 0, cardtable.new_game("sequence", players=3).deal(1))


def test_observations_of_the_own_deal_match_the_encoder_layout() -> None:
    engine = VectorSequence(players=3)
    batch = engine.init([3])
    obs = engine.observe(batch)
    parts = encoder_for(engine.game).split(obs[0])
    assert parts["hand"].sum() == 6 and parts["hand_sizes"][:3].tolist() == [6, 6, 6]
    assert parts["stock_size"][0] == 104 - 18 and parts["sequences_needed"][0] == 1
    assert parts["chips"].sum() == 0


# ---------------------------------------------------------------- Gymnasium


def test_make_vec_gives_the_batched_engine() -> None:
    envs = gymnasium.make_vec("cardtable/Sequence-v0", num_envs=16,
                              vectorization_mode="vector_entry_point", players=2)
    env = envs.unwrapped
    assert isinstance(env, SequenceVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (523,)
    assert envs.observation_space.shape == (16, 523)
    obs, info = envs.reset(seed=3)
    again, _ = envs.reset(seed=3)
    assert np.array_equal(obs, again)
    assert obs.shape == (16, 523) and info["action_mask"].dtype == np.int8
    assert envs.single_observation_space.contains(obs[0])


def random_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_vector_env_plays_whole_games_for_the_learner(seat: int) -> None:
    env = SequenceVectorEnv(num_envs=32, seat=seat, players=2)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all(), "the learner is to act in every game"
        assert (env.batch.meta[:, M_CURRENT] == seat).all()
        obs, rewards, terminated, truncated, info = env.step(random_choice(mask, rng))
        ended = terminated | truncated
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~ended] == 0).all()
        if ended.any():
            assert (info["_final_obs"] == ended).all()
            assert all(info["final_obs"][i].shape == (523,) for i in np.flatnonzero(ended))
        finished += int(ended.sum())
    assert finished > 32


def test_an_illegal_action_ends_that_game_only() -> None:
    env = SequenceVectorEnv(num_envs=4, illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, info = env.step(actions)
    assert rewards[1] == -5.0 and terminated[1]
    assert info["_final_obs"].tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="action ids"):
        env.step(np.full(4, 529))


def test_a_batched_policy_plays_the_other_seats() -> None:
    calls: list[int] = []

    def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape[0] == masks.shape[0]
        calls.append(len(masks))
        return masks.argmax(axis=1)

    env = SequenceVectorEnv(num_envs=8, players=4, opponents=first_legal)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(20):
        _, _, _, _, info = env.step(random_choice(info["action_mask"], rng))
        assert (env.batch.meta[:, M_CURRENT] == 0).all()
    assert calls and max(calls) <= 8
    with pytest.raises(OptionsError, match="opponents"):
        SequenceVectorEnv(opponents="heuristic")


# ---------------------------------------------------------------- self-play


def test_self_play_in_pgx_shape() -> None:
    env = SelfPlay(players=3, max_turns=40)
    state = env.init(np.arange(50))
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(200):
        assert state.legal_action_mask.any(axis=1).all()
        current = state.current_player.copy()
        seen = env.engine.observe(state.batch, seats=current)
        assert np.array_equal(seen, state.observation)
        state = env.step(state, random_choice(state.legal_action_mask, rng))
        done = state.terminated | state.truncated
        ended += int(done.sum())
        won = state.results.winner >= 0
        assert (state.rewards[won].sum(axis=1) == -1).all(), "one winner, two losers"
        assert (state.rewards[~done] == 0).all()
    assert ended >= 50
    with pytest.raises(ValueError, match="no batched engine"):
        SelfPlay(game="chess")


def test_the_docstring_example_runs() -> None:
    import cardtable.vector.sequence

    assert doctest.testmod(cardtable.vector.sequence).failed == 0


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


@pytest.mark.parametrize("opponents", ["random", "policy"])
def test_the_vector_env_truncates_at_max_moves(opponents: str) -> None:
    def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return masks.argmax(axis=1)

    env = SequenceVectorEnv(num_envs=6, max_moves=7,
                            opponents="random" if opponents == "random" else first_legal)
    _, info = env.reset(seed=5)
    cut = 0
    for _ in range(8):
        _, rewards, terminated, truncated, info = env.step(info["action_mask"].argmax(axis=1))
        cut += int(truncated.sum())
        assert (rewards[truncated] == 0).all() and not (terminated & truncated).any()
        assert (env.batch.meta[:, M_MOVES] < 7).all()
    assert cut >= 6
