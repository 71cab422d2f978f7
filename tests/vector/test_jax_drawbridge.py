"""The JAX port of batched Draw Bridge (issue 36) against the numba engine, move for move,
on CPU JAX: the same deals from the same seeds (deal d of match m from (seed, m, d), the
numba engines' splitmix64 in 32-bit words), and at every step the same legal masks,
observations (both seats'), rewards, ends and match arrays; positions loaded from the
scalar engine into both; the batched ``api_test``; ``jax.jit`` of ``jax.vmap``.

JAX compiles per option set and batch shape (seconds on a CPU): the tests use two option
sets (module-scoped fixtures) and one batch shape, so that each compiled function is
compiled once in this module.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")
pytest.importorskip("jax", reason="JAX is not installed (the jax backend): pip install "
                    "'cardtable[jax]'")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.core import OptionsError  # noqa: E402
from cardtable.drawbridge.game import BID, DOUBLE, PASS, REDOUBLE  # noqa: E402
from cardtable.vector import SelfPlay, api_test, available_envs, make  # noqa: E402
from cardtable.vector.drawbridge import (  # noqa: E402
    M_DEAL,
    M_PHASE,
    NUM_ACTIONS,
    DrawBridgeBatch,
)
from cardtable.vector.jax_drawbridge import JaxDrawBridge, JaxDrawBridgeState  # noqa: E402
from tests.vector.jax_helpers import env_pairs  # noqa: E402

#: the rows of every batch here: one shape, one compilation per option set
N = 12
#: the default rules with autoreset and a cut; every rule option the other way, no autoreset
OPTIONS: dict[str, dict[str, Any]] = {
    "highest-autoreset-cut": {"target": 40, "autoreset": True, "max_moves": 150},
    "suit-led-undertricks": {"target": 1000, "show_stock_top": True,
                             "follow_suit_in_draw": True, "draw_trick_winner": "suit-led",
                             "undertricks": True},
}


@pytest.fixture(scope="module")
def envs() -> dict[str, tuple[SelfPlay, JaxDrawBridge]]:
    """The numba env and the JAX env of each option set, pgx's rules at the end."""
    return env_pairs("drawbridge", JaxDrawBridge, OPTIONS)


def test_the_registry() -> None:
    assert available_envs("jax") == ("drawbridge", "sequence", "threethirteen")
    env = make("drawbridge", backend="jax", target=50)
    assert isinstance(env, JaxDrawBridge) and env.backend == "jax"
    assert (env.id, env.num_players, env.num_actions, env.observation_shape) == (
        "drawbridge", 2, 90, (551,))
    assert env.version == make("drawbridge").version and env.zero_sum
    assert env.autoreset is False and env.illegal_reward == -1.0
    assert cardtable.new_game("drawbridge").num_players == env.num_players
    with pytest.raises(OptionsError, match="flat observation only"):
        make("drawbridge", backend="jax", normalize=True)
    with pytest.raises(OptionsError, match="target"):
        make("drawbridge", backend="jax", target=0)


def _same_matches(env: JaxDrawBridge, state: JaxDrawBridgeState,
                  batch: DrawBridgeBatch) -> None:
    """The JAX state holds the numba batch's matches (every array but the random policy's
    generator, which the JAX env does not keep)."""
    got = env.to_batch(state)
    for name in ("masks", "stock", "meta"):
        assert np.array_equal(getattr(got, name), getattr(batch, name)), name
    assert np.array_equal(got.rngs[:, :3], batch.rngs[:, :3]), "generators"


def _kind(action: int) -> str:
    return ("card" if action < BID else "pass" if action == PASS else "double"
            if action == DOUBLE else "redouble" if action == REDOUBLE else "bid")


def play_side_by_side(ref: SelfPlay, env: JaxDrawBridge, steps: int,
                      seed: int = 0) -> dict[str, int]:
    """Both envs from the same seeds, given the same actions (random legal ones, now and
    then an illegal one or an id outside the action space); everything compared at every
    step, both seats' observations too."""
    seeds = np.arange(N, dtype=np.uint64) + 2**40
    r, s = ref.init(seeds), env.init(seeds)
    rng = np.random.default_rng(seed)
    seen = {"steps": 0, "ended": 0, "cut": 0, "illegal": 0, "deals": 0, "played": 0,
            "pass": 0, "double": 0, "redouble": 0}
    for step in range(steps):
        assert np.array_equal(np.asarray(s.legal_action_mask), r.legal_action_mask), step
        assert np.array_equal(np.asarray(s.observation), r.observation), step
        assert np.array_equal(np.asarray(s.current_player), r.current_player), step
        _same_matches(env, s, r.batch)
        if step % 10 == 0:
            assert np.array_equal(np.asarray(env.observe_all(s)), ref.observe_all(r)), step
        done = r.terminated | r.truncated
        if not ref.autoreset and done.all():
            break
        mask = r.legal_action_mask
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        ref_actions = actions.copy()
        if step % 41 == 7:
            row = step % N
            seen["illegal"] += not done[row] or ref.autoreset
            if step % 2:  # an id outside the action space: the numba env refuses the
                actions[row] = NUM_ACTIONS  # step, so it gets an illegal id instead
                ref_actions[row] = np.flatnonzero(~mask[row])[0] if not mask[row].all() \
                    else 0
            elif not mask[row].all():
                actions[row] = ref_actions[row] = np.flatnonzero(~mask[row])[0]
        deal = r.batch.meta[:, M_DEAL].copy()
        live = ~done | ref.autoreset
        for a in ref_actions[live & mask[np.arange(N), ref_actions]]:
            seen[_kind(int(a))] = seen.get(_kind(int(a)), 0) + 1
        r, s = ref.step(r, ref_actions), env.step(s, actions)
        seen["steps"] += 1
        for name in ("rewards", "terminated", "truncated"):
            assert np.array_equal(np.asarray(getattr(s, name)), getattr(r, name)), (step, name)
        seen["deals"] += int((r.batch.meta[:, M_DEAL] > deal).sum())
        seen["played"] += int((r.batch.meta[:, M_PHASE] == 2).sum())
        ended = (r.terminated | r.truncated) & ~(done & ~ref.autoreset)
        seen["ended"] += int((r.terminated & ended).sum())
        seen["cut"] += int((r.truncated & ended).sum())
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTIONS))
def test_move_for_move_against_the_numba_engine(
        envs: dict[str, tuple[SelfPlay, JaxDrawBridge]], name: str) -> None:
    ref, env = envs[name]
    seen = play_side_by_side(ref, env, 400)
    assert seen["ended"] and seen["illegal"] and seen["deals"] and seen["played"], seen
    assert seen["pass"] and seen["double"] and seen["redouble"], seen
    if "max_moves" in OPTIONS[name]:
        assert seen["cut"], seen


def _positions(seed: int) -> list[Any]:
    """Scalar matches: deals a point short of the target for both seats, and deals played
    into their draw, auction and play by random moves."""
    game = cardtable.new_game("drawbridge", **{k: v for k, v in OPTIONS[
        "suit-led-undertricks"].items() if k != "autoreset"})
    rng = random.Random(seed)
    states = []
    for i in range(N):
        if i % 3 == 0:
            states.append(game.setup(scores=[999, 999], seed=seed + i))
            continue
        state = game.deal(seed + i)
        for _ in range(rng.randrange(100)):
            state = state.after(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.slow
def test_positions_loaded_into_both(envs: dict[str, tuple[SelfPlay, JaxDrawBridge]]) -> None:
    """Scalar positions loaded into the numba engine (``from_states``) and from there into
    the JAX env (``from_batch``), played side by side to the end of their matches; a
    state survives ``to_batch`` and ``from_batch``."""
    env = envs["suit-led-undertricks"][1]
    engine = env.engine
    batch = engine.from_states(_positions(5))
    s = env.from_batch(batch)
    rng = np.random.default_rng(2)
    wins = 0
    for step in range(300):
        live = np.asarray(~(s.terminated | s.truncated))
        if not live.any():
            break
        mask = engine.legal_mask(batch)
        assert np.array_equal(np.asarray(s.legal_action_mask)[live], mask[live])
        assert np.array_equal(np.asarray(s.observation)[live], engine.observe(batch)[live])
        _same_matches(env, s, batch)
        if step % 20 == 0:
            again = env.from_batch(env.to_batch(s))
            assert np.array_equal(np.asarray(again.observation), np.asarray(s.observation))
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        res = engine.step(batch, actions, active=live, autoreset=False)
        s = env.step(s, actions)
        assert np.array_equal(np.asarray(s.rewards)[live], res.rewards[live])
        assert np.array_equal(np.asarray(s.terminated)[live], res.terminated[live])
        wins += int((res.winner >= 0).sum())
    assert wins >= 4, "the matches a point short end with their first contract"


@pytest.mark.slow
def test_api_test_passes(envs: dict[str, tuple[SelfPlay, JaxDrawBridge]]) -> None:
    summary = api_test(envs["suit-led-undertricks"][1], num=N)
    assert summary["terminated"] and summary["illegal"] == 1, summary


@pytest.mark.slow
def test_jit_and_vmap(envs: dict[str, tuple[SelfPlay, JaxDrawBridge]]) -> None:
    """``jax.jit`` of ``jax.vmap`` of ``init`` and ``step`` (groups of batches) give the
    plain functions' states, through the end of the first deals (the next deal dealt in
    the step) and ``random_actions``' legal moves; ``init`` takes JAX seeds."""
    env = envs["highest-autoreset-cut"][1]
    state = env.init(np.arange(N))
    assert all(np.array_equal(a, b) for a, b in zip(state, env.init(jnp.arange(N)),
                                                       strict=True))
    groups = jax.jit(jax.vmap(env.init))(jnp.arange(N).reshape(2, N // 2))
    assert np.array_equal(groups.hands.reshape(N, 2, 52), state.hands)
    vstep = jax.jit(jax.vmap(env.step))
    key = jax.random.key(1)
    for _ in range(75):
        key, sub = jax.random.split(key)
        actions = env.random_actions(sub, state)
        assert np.asarray(jnp.take_along_axis(state.legal_action_mask, actions[:, None],
                                              axis=1)).all()
        plain = env.step(state, actions)
        paired = vstep(jax.tree.map(lambda x: x.reshape(2, N // 2, *x.shape[1:]), state),
                       actions.reshape(2, N // 2))
        assert all(np.array_equal(np.asarray(a).reshape(np.shape(b)), b)
                   for a, b in zip(paired, plain, strict=True))
        state = plain
    assert (np.asarray(state.deal) >= 2).all(), "every row's first deal ended"
