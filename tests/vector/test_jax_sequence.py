"""The JAX port of batched Sequence (issue 36) against the numba engine, move for move, on
CPU JAX: the same deals from the same seeds (the numba engines' splitmix64 in 32-bit
words), the same remade draw piles, and at every step the same legal masks,
observations, rewards, ends and game arrays; crafted positions loaded into both; the
batched ``api_test``; ``jax.jit`` and ``jax.vmap`` of ``init`` and ``step``.

JAX compiles per option set and batch shape (seconds on a CPU): the tests use three
option sets (module-scoped fixtures: the envs of one option set share their compiled
functions) and one batch shape, so that each compiled function is compiled once in this
module; the tests that compile are marked slow.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
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
from cardtable.cards import parse_card  # noqa: E402
from cardtable.core import InvalidActionError, OptionsError  # noqa: E402
from cardtable.sequence.board import parse_cell  # noqa: E402
from cardtable.sequence.game import SequenceState  # noqa: E402
from cardtable.vector import SelfPlay, api_test, available_envs, make  # noqa: E402
from cardtable.vector import _jax as rng64  # noqa: E402
from cardtable.vector._kernel import R_DEAL, mix, shuffle  # noqa: E402
from cardtable.vector.jax_sequence import JaxSequence, JaxSequenceState  # noqa: E402
from cardtable.vector.sequence import (  # noqa: E402
    ACT_CARD,
    ACT_CELL,
    M_DECK_LEN,
    M_NSEQ,
    SequenceBatch,
)
from tests.sequence.test_rules import all_dead_position, position  # noqa: E402
from tests.vector.jax_helpers import env_pairs  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
#: the rows of every batch here (the docs' example's too): one shape, one compilation per
#: option set
N = 16
#: 2 players as ``make`` (and the docs' example), 3 teams cut at max_moves, 4 players
#: with autoreset
OPTIONS: dict[str, dict[str, Any]] = {
    "2p": {"players": 2}, "3p-teams3-cut": {"players": 3, "max_moves": 70},
    "4p-max-turns-autoreset": {"players": 4, "max_turns": 40, "autoreset": True}}


@pytest.fixture(scope="module")
def envs() -> dict[str, tuple[SelfPlay, JaxSequence]]:
    """The numba env and the JAX env of each option set, pgx's rules at the end."""
    return env_pairs("sequence", JaxSequence, OPTIONS)


def test_the_registry_and_its_refusals() -> None:
    assert available_envs("jax") == ("drawbridge", "sequence", "threethirteen")
    env = make("sequence", backend="jax", players=4)
    assert isinstance(env, JaxSequence) and env.backend == "jax"
    assert (env.id, env.num_players, env.num_actions, env.observation_shape) == (
        "sequence", 4, 529, (523,))
    assert env.version == make("sequence").version
    assert env.autoreset is False and env.illegal_reward == -1.0
    with pytest.raises(OptionsError, match="backend must be one of numba, jax"):
        make("sequence", backend="torch")
    with pytest.raises(OptionsError, match="cannot refuse a step"):
        make("sequence", backend="jax", illegal_reward=None)
    with pytest.raises(OptionsError, match="flat observation only"):
        make("sequence", backend="jax", planes=True)
    with pytest.raises(OptionsError, match="not allowed with 5 players|players"):
        make("sequence", backend="jax", players=5)


@pytest.mark.slow
def test_splitmix64_in_32_bit_words() -> None:
    """The numba engines' generator, bit for bit: the mix, and a shuffle of any length with
    the stream after it."""
    zs = np.array([0, 1, 12345678901234567, 2**64 - 1, 2**63 + 12345], np.uint64)
    hi, lo = rng64.split_host(zs)
    mixed = rng64.mix((jnp.asarray(hi), jnp.asarray(lo)))
    assert np.array_equal(rng64.join_host(*mixed), np.array([mix(z) for z in zs], np.uint64))
    for n, start in ((104, 987654321987), (37, 2**64 - 5), (2, 7), (1, 3)):
        rngs = np.zeros((1, 4), np.uint64)
        rngs[0, R_DEAL] = start
        pile = (np.arange(104, dtype=np.int8) // 2)[None].copy()
        s_hi, s_lo = rng64.split_host(np.array([start], np.uint64))
        got, after = jax.jit(rng64.shuffle)(jnp.asarray(pile[0]), n,
                                   (jnp.asarray(s_hi[0]), jnp.asarray(s_lo[0])))
        shuffle(pile, 0, n, rngs)
        assert np.array_equal(np.asarray(got), pile[0]), n
        assert rng64.join_host(*after) == rngs[0, R_DEAL], n


def _same_games(env: JaxSequence, state: JaxSequenceState, batch: SequenceBatch) -> None:
    """The JAX state holds the numba batch's games (the arrays a game reads)."""
    got = env.to_batch(state)
    for name in ("board", "locked", "hands", "discards", "seq_count", "meta"):
        assert np.array_equal(getattr(got, name), getattr(batch, name)), name
    for i in range(batch.size):
        top, k = batch.meta[i, M_DECK_LEN], batch.meta[i, M_NSEQ]
        assert np.array_equal(got.deck[i, :top], batch.deck[i, :top]), f"row {i}: draw pile"
        assert np.array_equal(got.sequences[i, :k], batch.sequences[i, :k]), f"row {i}"
    assert np.array_equal(got.rngs[:, :3], batch.rngs[:, :3]), "generators"


def play_side_by_side(ref: SelfPlay, env: JaxSequence, steps: int,
                      seed: int = 0) -> dict[str, int]:
    """The numba ``SelfPlay`` and the JAX env of the same options and rules at the end of a
    game, from the same seeds, given the same actions (random legal ones, and now and then
    an illegal one or an id outside the action space); everything compared at every step."""
    autoreset = ref.autoreset
    seeds = np.arange(N, dtype=np.uint64) + 2**40
    r, s = ref.init(seeds), env.init(seeds)
    rng = np.random.default_rng(seed)
    n = len(seeds)
    seen = {"steps": 0, "ended": 0, "remade piles": 0, "illegal": 0, "deals": 0}
    for step in range(steps):
        assert np.array_equal(np.asarray(s.legal_action_mask), r.legal_action_mask), step
        assert np.array_equal(np.asarray(s.observation), r.observation), step
        assert np.array_equal(np.asarray(s.current_player), r.current_player), step
        _same_games(env, s, r.batch)
        done = r.terminated | r.truncated
        if not autoreset and done.all():
            break
        mask = r.legal_action_mask
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if step % 53 == 7:
            row = step % n
            actions[row] = 529 if step % 2 else np.flatnonzero(~mask[row])[0] \
                if not mask[row].all() else 529
            seen["illegal"] += not done[row] or autoreset
        before = r.batch.meta[:, M_DECK_LEN].copy()
        episodes = r.batch.rngs[:, 1].copy()
        if (actions >= 529).any():
            # the numba env refuses an id outside the action space; the JAX env ends the
            # row as for any illegal action: give the numba env an illegal id instead
            ref_actions = actions.copy()
            for i in np.flatnonzero(actions >= 529):
                ref_actions[i] = np.flatnonzero(~mask[i])[0] if not mask[i].all() else 0
        else:
            ref_actions = actions
        r, s = ref.step(r, ref_actions), env.step(s, actions)
        seen["steps"] += 1
        for name in ("rewards", "terminated", "truncated"):
            assert np.array_equal(np.asarray(getattr(s, name)), getattr(r, name)), (step, name)
        new_deal = r.batch.rngs[:, 1] > episodes
        seen["deals"] += int(new_deal.sum())
        seen["remade piles"] += int((~new_deal & (r.batch.meta[:, M_DECK_LEN] > before)).sum())
        seen["ended"] += int(((r.terminated | r.truncated) & ~done).sum())
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTIONS))
def test_move_for_move_against_the_numba_engine(
        envs: dict[str, tuple[SelfPlay, JaxSequence]], name: str) -> None:
    seen = play_side_by_side(*envs[name], 300)
    assert seen["ended"] and seen["illegal"], seen
    if OPTIONS[name].get("autoreset"):
        assert seen["deals"], seen
    if OPTIONS[name]["players"] == 2:
        assert seen["remade piles"], seen


ACE_OF_HEARTS_ON_F2 = int(np.flatnonzero(np.equal(ACT_CARD, parse_card("AH"))
                                         & np.equal(ACT_CELL, parse_cell("f2")))[0])


def _crafted() -> dict[str, SequenceState]:
    line = ["b2", "c2", "d2", "e2"]
    states = {
        # ruling 2.4: exchange, then pass
        "exchange then pass": all_dead_position(),
        # the card played goes into the remade pile
        "empty pile": position(hands=[["7H"], ["5D"]], deck=[], discards=[["AS", "2S"], ["3S"]]),
        # f2 (the ace of hearts) completes b2-f2 and f2-j2 at once: two sequences, a win
        "two at once": position(hands=[["AH"]], chips=dict.fromkeys(
            line + ["g2", "h2", "i2", "j2"], 0)),
        # f2 completes b2-f2 and c2-g2, which share four cells: only the first is claimed
        "six in a row": position(hands=[["AH"]], chips=dict.fromkeys(line + ["g2"], 0)),
    }
    for state in states.values():
        assert isinstance(state, SequenceState)
    return states


@pytest.mark.slow
def test_crafted_positions_loaded_into_both(
        envs: dict[str, tuple[SelfPlay, JaxSequence]]) -> None:
    """Positions of the rare rulings, loaded into the numba engine (``from_states``) and
    from there into the JAX env (``from_batch``), played side by side to the end."""
    crafted = _crafted()
    states = [s.clone() for s in crafted.values() for _ in range(N // 4)]
    env = envs["2p"][1]
    engine = env.engine
    batch = engine.from_states(states)
    s = env.from_batch(batch)
    assert env.to_batch(s).meta.tolist() == batch.meta.tolist()
    rng = np.random.default_rng(1)
    wins = 0
    for step in range(200):
        live = np.asarray(~(s.terminated | s.truncated))
        if not live.any():
            break
        mask = engine.legal_mask(batch)
        assert np.array_equal(np.asarray(s.legal_action_mask)[live], mask[live])
        assert np.array_equal(np.asarray(s.observation)[live],
                              engine.observe(batch)[live])
        _same_games(env, s, batch)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if step == 0:
            actions[8:] = ACE_OF_HEARTS_ON_F2  # the crafted lines' chip first
        res = engine.step(batch, actions, active=live, autoreset=False)
        s = env.step(s, actions)
        assert np.array_equal(np.asarray(s.rewards)[live], res.rewards[live])
        assert np.array_equal(np.asarray(s.terminated)[live], res.terminated[live])
        wins += int((res.winner >= 0).sum())
    seqs = env.to_batch(s).seq_count
    assert seqs[8:12, 0].tolist() == [2] * 4, "two sequences at once win"
    assert (seqs[12:, 0] >= 1).all() and wins >= 4


@pytest.mark.slow
def test_api_test_passes(envs: dict[str, tuple[SelfPlay, JaxSequence]]) -> None:
    summary = api_test(envs["3p-teams3-cut"][1], num=N)
    assert summary["terminated"] and summary["truncated"] and summary["illegal"] == 1


@pytest.mark.slow
def test_jit_and_vmap(envs: dict[str, tuple[SelfPlay, JaxSequence]]) -> None:
    """``init`` and ``step`` are pure functions of pytrees: ``jax.jit`` of ``jax.vmap`` of
    either maps them over a further axis (groups of batches) and gives the same states,
    new deals (autoreset, at the 40th turn) included; ``init`` takes JAX seeds and
    ``random_actions`` draws legal moves."""
    env = envs["4p-max-turns-autoreset"][1]
    state = env.init(np.arange(N))
    from_jax = env.init(jnp.arange(N))
    assert all(np.array_equal(a, b) for a, b in zip(state, from_jax, strict=True))
    groups = jax.jit(jax.vmap(env.init))(jnp.arange(N).reshape(2, N // 2))
    assert np.array_equal(groups.hands.reshape(N, 4, 6), state.hands)
    vstep = jax.jit(jax.vmap(env.step))
    key = jax.random.key(3)
    for _ in range(60):
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
    assert (np.asarray(state.episode) == 2).all(), "every row was dealt again"


@pytest.mark.slow
def test_bad_arguments_are_refused_or_end_their_row() -> None:
    env = make("sequence", backend="jax")  # the "2p" option set's compiled functions
    state = env.init(np.arange(N) + 1)
    with pytest.raises(InvalidActionError, match="integer action ids"):
        env.step(state, np.full(N, 0.5))
    with pytest.raises(InvalidActionError, match="integer action ids"):
        env.step(state, jnp.full(N, 0.5))
    with pytest.raises(ValueError, match=rf"shape \({N},\)"):
        env.step(state, [1, 2])
    with pytest.raises(ValueError, match="JaxSequenceState"):
        env.step(state._asdict(), np.zeros(N, np.int64))
    with pytest.raises(ValueError, match="seeds"):
        env.init([-1])
    with pytest.raises(ValueError, match="seats must be 0..1"):
        env.observe(state, 2)
    legal = np.asarray(state.legal_action_mask).argmax(axis=1)
    after = env.step(state, [legal[0], 10**12, -5, *legal[3:]])
    assert np.asarray(after.terminated).tolist() == [False, True, True] + [False] * (N - 3)
    seats = np.asarray(state.current_player)
    assert np.asarray(after.rewards)[1, seats[1]] == -1.0
    assert np.asarray(after.legal_action_mask)[1:3].all()
    assert np.array_equal(env.observe(state, 0)[1], np.asarray(env.observe_all(state))[1, 0])
    assert cardtable.new_game("sequence").num_players == env.num_players


@pytest.mark.slow
def test_the_example_in_the_docs_runs_as_written() -> None:
    """docs/envs.md's example of the JAX port, run as it is written there."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### A JAX port\n", 1)[1].split("\n### ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOCS), "exec"), {})
    assert out.getvalue().splitlines() == ["sequence v0 jax 2 529 (523,)", f"({N}, 10)", "True"]
