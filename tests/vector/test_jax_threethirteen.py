"""The JAX port of batched Three Thirteen (issue 36) against the numba engine, move for
move, on CPU JAX: its meld solver equal to the numba solver on seeded random hands; the
same deals from the same seeds (round r of match m from (seed, m, r)), the same remade
stocks, and at every step the same legal masks, observations (every seat's), rewards,
ends and match arrays; scalar positions loaded into both; the batched ``api_test``;
``jax.jit`` of ``jax.vmap``.

JAX compiles per option set and batch shape (a step about 10 s on a CPU): the quick
tests use one option set and one batch shape; the whole matches of the other option
sets, every solver option and ``jax.vmap`` are marked slow.
"""

from __future__ import annotations

import contextlib
import io
import re
from functools import lru_cache
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

from cardtable.cards import parse_card  # noqa: E402
from cardtable.core import OptionsError  # noqa: E402
from cardtable.threethirteen.game import DISCARD, DRAW, TAKE  # noqa: E402
from cardtable.vector import SelfPlay, SelfPlayState, api_test, available_envs, make  # noqa: E402
from cardtable.vector import jax_threethirteen_melds as jax_melds  # noqa: E402
from cardtable.vector import threethirteen_melds as numba_melds  # noqa: E402
from cardtable.vector.jax_threethirteen import (  # noqa: E402
    JaxThreeThirteen,
    JaxThreeThirteenState,
)
from cardtable.vector.threethirteen import (  # noqa: E402
    M_RESHUFFLED,
    M_ROUND,
    M_WENT_OUT,
    NUM_ACTIONS,
    ThreeThirteenBatch,
)
from tests.vector.jax_helpers import env_pairs, selfplay_state  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
#: the rows of every batch here: one shape, one compilation per option set
N = 8
#: the quick tests' option set (3 players, two decks; matches cut at 400 moves); the slow
#: ones: two players with every rule option the other way, autoreset and a cut; five
#: players and three decks
OPTIONS: dict[str, dict[str, Any]] = {
    "3p-cut": {"players": 3, "max_moves": 400},
    "2p-rules-autoreset": {"aces": "both", "face_values": "counting",
                           "all_wild_melds": False, "autoreset": True, "max_moves": 2600},
    "5p-3-decks": {"players": 5, "decks": 3},
}


@pytest.fixture(scope="module")
def envs() -> dict[str, tuple[SelfPlay, JaxThreeThirteen]]:
    return env_pairs("threethirteen", JaxThreeThirteen, OPTIONS)


def test_the_registry() -> None:
    assert available_envs("jax") == ("drawbridge", "sequence", "threethirteen")
    env = make("threethirteen", backend="jax", players=4, aces="both")
    assert isinstance(env, JaxThreeThirteen) and env.backend == "jax"
    assert (env.id, env.num_players, env.num_actions, env.observation_shape) == (
        "threethirteen", 4, 54, (924,))
    assert env.version == make("threethirteen").version and not env.zero_sum
    assert env.engine.decks == 2 and env.engine.ace_high
    assert make("threethirteen", backend="jax").zero_sum
    with pytest.raises(OptionsError, match="decks"):
        make("threethirteen", backend="jax", players=12, decks=2)
    with pytest.raises(OptionsError, match="flat observation only"):
        make("threethirteen", backend="jax", planes=True)


# ------------------------------------------------------------------ the meld solver


@lru_cache(maxsize=16)
def _solver(aces: str, face_values: str, all_wild_melds: bool, decks: int) -> Any:
    """The JAX solver's penalty and "melds fully" of each hand (one compilation)."""
    vals = jnp.asarray(numba_melds.VALUES[aces, face_values].astype(np.int32))
    high = aces == "both"

    def one(hand: jax.Array, wild: jax.Array) -> tuple[jax.Array, jax.Array]:
        return (jax_melds.hand_penalty(hand, wild, vals, high, all_wild_melds, decks),
                jax_melds.melds_fully(hand, wild, vals, high, all_wild_melds, decks))
    return jax.jit(jax.vmap(one, in_axes=(0, None)))


def random_hands(rng: np.random.Generator, count: int, decks: int) -> np.ndarray:
    """(count, 52) card counts of 1 to 14 cards; every other hand drawn from few ranks
    of two suits, where melds crowd."""
    deck = np.repeat(np.arange(52), decks)
    crowded = deck[(deck % 13 < 8) & (deck // 13 < 2)]
    hands = np.zeros((count, 52), np.int64)
    for i in range(count):
        pool = crowded if i % 2 else deck
        np.add.at(hands[i], rng.choice(pool, rng.integers(1, 15), replace=False), 1)
    return hands


def check_solver(aces: str, face_values: str, all_wild_melds: bool, decks: int,
                 count: int, seed: int) -> None:
    """The JAX solver equals the numba solver on ``count`` random hands in rounds 1, 6
    and 11 (threes, eights, kings wild): the same penalty, the same "melds fully"."""
    hands = random_hands(np.random.default_rng(seed), count, decks)
    vals = numba_melds.VALUES[aces, face_values]
    work = numba_melds.scratch()
    solve = _solver(aces, face_values, all_wild_melds, decks)
    for round_ in (1, 6, 11):
        want = numba_melds.penalties(hands, round_, aces, face_values, all_wild_melds)
        fully = [numba_melds.melds_fully(h, round_ + 1, vals, aces == "both", all_wild_melds,
                                         work) for h in hands]
        got, got_fully = solve(jnp.asarray(hands, jnp.int32), jnp.int32(round_ + 1))
        assert np.array_equal(np.asarray(got), want), round_
        assert np.array_equal(np.asarray(got_fully), fully), round_
        assert (want == 0).any() and (want > 0).any()


@pytest.mark.slow
def test_the_meld_solver_equals_numbas() -> None:
    check_solver("both", "ten", True, 2, 300, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 2, 4])
def test_the_meld_solver_equals_numbas_under_every_option(decks: int) -> None:
    """With one deck, four option sets that hold every pair of two options' values (each
    set is a compilation of its own; the scalar engines' tests cover every set); with
    two and four (more copies of a card), the two sets farthest apart."""
    options = [("low", "ten", True), ("low", "counting", False), ("both", "ten", False),
               ("both", "counting", True)]
    for aces, face_values, all_wild_melds in (options if decks == 1 else
                                              [options[0], options[-1]]):
        check_solver(aces, face_values, all_wild_melds, decks, 400, seed=decks)
    hands = random_hands(np.random.default_rng(0), 50, decks)
    assert np.array_equal(jax_melds.penalties(hands, 4, decks=decks),
                          numba_melds.penalties(hands, 4))


# ------------------------------------------------------------------ the engine


def _same_matches(env: JaxThreeThirteen, state: JaxThreeThirteenState,
                  batch: ThreeThirteenBatch) -> None:
    """The JAX state holds the numba batch's matches (every array but the random policy's
    generator, which the JAX env does not keep)."""
    got = env.to_batch(state)
    for name in ("hands", "sizes", "stock", "discard", "taken", "shown", "totals", "meta"):
        assert np.array_equal(getattr(got, name), getattr(batch, name)), name
    assert np.array_equal(got.rngs[:, :3], batch.rngs[:, :3]), "generators"


def play_side_by_side(ref: SelfPlay, env: JaxThreeThirteen, r: SelfPlayState,
                      s: JaxThreeThirteenState, steps: int, illegal_every: int = 97
                      ) -> dict[str, int]:
    """Both envs from the same matches given the same actions (random legal ones, and
    every ``illegal_every`` steps an illegal one or an id outside the action space);
    everything compared at every step, every seat's observation too; returns what
    happened how often."""
    rng = np.random.default_rng(0)
    seen = {"steps": 0, "over": 0, "cut": 0, "illegal": 0, "draw": 0, "take": 0,
            "discard": 0, "went out": 0, "reshuffled": 0, "rounds": 0}
    for step in range(steps):
        assert np.array_equal(np.asarray(s.legal_action_mask), r.legal_action_mask), step
        assert np.array_equal(np.asarray(s.observation), r.observation), step
        assert np.array_equal(np.asarray(s.current_player), r.current_player), step
        _same_matches(env, s, r.batch)
        if step % 25 == 0:
            assert np.array_equal(np.asarray(env.observe_all(s)), ref.observe_all(r)), step
        done = r.terminated | r.truncated
        if not ref.autoreset and done.all():
            break
        mask = r.legal_action_mask
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        ref_actions = actions.copy()
        offended = np.zeros(N, bool)
        if step % illegal_every == 50:
            row = step % N
            offended[row] = not done[row] or ref.autoreset
            seen["illegal"] += int(offended[row])
            wrong = np.flatnonzero(~mask[row])[0] if not mask[row].all() else 0
            ref_actions[row] = wrong
            # an id outside the action space: the numba env refuses the whole step, so it
            # gets an illegal id instead
            actions[row] = NUM_ACTIONS if step % 2 else wrong
        live = ~done | ref.autoreset
        for a in ref_actions[live & mask[np.arange(N), ref_actions]]:
            seen["draw" if a == DRAW else "take" if a == TAKE else "discard"] += 1
        meta = r.batch.meta.copy()
        r, s = ref.step(r, ref_actions), env.step(s, actions)
        seen["steps"] += 1
        for name in ("rewards", "terminated", "truncated"):
            assert np.array_equal(np.asarray(getattr(s, name)), getattr(r, name)), (step, name)
        after = r.batch.meta
        seen["went out"] += int(((meta[:, M_WENT_OUT] < 0) & (after[:, M_WENT_OUT] >= 0)).sum())
        seen["reshuffled"] += int(((meta[:, M_RESHUFFLED] == 0)
                                   & (after[:, M_RESHUFFLED] == 1)).sum())
        seen["rounds"] += int((after[:, M_ROUND] > meta[:, M_ROUND]).sum())
        ended = (r.terminated | r.truncated) & ~(done & ~ref.autoreset)
        seen["over"] += int((r.terminated & ended & ~offended).sum())
        seen["cut"] += int((r.truncated & ended).sum())
    return seen


def _positions(env: JaxThreeThirteen, seed: int) -> list[Any]:
    """Scalar matches: in round 1 (three cards, going out is frequent; the next rounds
    dealt in the step), and in round 11 (totals a point apart), half of these with a
    stock of six cards (remade, then spent again)."""
    game = env.engine.game
    states = []
    for i in range(N):
        stock = {"stock": ["AS", "KD", "5C", "9H", "2D", "JS"]} if i % 2 else {}
        states.append(game.setup(round=1 if i % 4 == 0 else 11, seed=seed + i, **stock,
                                 scores=[(s + i) % 2 for s in range(game.num_players)]))
    return states


@pytest.mark.slow
def test_positions_move_for_move(envs: dict[str, tuple[SelfPlay, JaxThreeThirteen]]) -> None:
    """Scalar positions loaded into the numba env (``from_states``) and from there into
    the JAX env (``from_batch``), played side by side to the end of their matches; and
    ``init``'s deals are the numba engine's from the same seeds."""
    ref, env = envs["3p-cut"]
    seeds = np.arange(N, dtype=np.uint64) + 2**40
    _same_matches(env, env.init(seeds), ref.init(seeds).batch)
    batch = ref.engine.from_states(_positions(env, 5))
    seen = play_side_by_side(ref, env, selfplay_state(ref, batch), env.from_batch(batch), 500)
    assert seen["over"] >= 4 and seen["cut"] and seen["went out"] and seen["rounds"], seen
    assert seen["reshuffled"] >= 2 and seen["illegal"] and seen["take"], seen


def test_a_shared_win(envs: dict[str, tuple[SelfPlay, JaxThreeThirteen]]) -> None:
    """3.9: equal lowest totals share the win. Round 11 (kings wild), two seats holding
    13-card runs; seat 0 draws the stock's last card and discards it (going out), the
    stock is remade from the pile, seat 1 does the same and the second empty stock ends
    the round: every hand melds, the totals stay 3, 3, 7."""
    ref, env = envs["3p-cut"]
    runs = [[rank + suit for rank in "A23456789TJQK"] for suit in "SHD"]
    state = env.engine.game.setup(round=11, dealer=2, hands=runs, stock=["5C"],
                                  discard=["6C"], scores=[3, 3, 7])
    batch = ref.engine.from_states([state] * N)
    r, s = selfplay_state(ref, batch), env.from_batch(batch)
    for action in (DRAW, DISCARD + parse_card("5C"), DRAW, DISCARD + parse_card("6C")):
        r, s = ref.step(r, np.full(N, action)), env.step(s, np.full(N, action))
        for name in ("rewards", "terminated", "observation", "legal_action_mask"):
            assert np.array_equal(np.asarray(getattr(s, name)), getattr(r, name)), name
    assert np.asarray(s.rewards).tolist() == [[1.0, 1.0, -1.0]] * N
    _same_matches(env, s, r.batch)


def test_api_test_passes(envs: dict[str, tuple[SelfPlay, JaxThreeThirteen]]) -> None:
    summary = api_test(envs["3p-cut"][1], num=N)
    assert summary["truncated"] and summary["illegal"] == 1, summary


@pytest.mark.slow
@pytest.mark.parametrize(("name", "steps", "over", "rounds"), [
    ("2p-rules-autoreset", 3000, 4, 8 * N), ("5p-3-decks", 4500, 1, 6 * N)])
def test_whole_matches_move_for_move(envs: dict[str, tuple[SelfPlay, JaxThreeThirteen]],
                                     name: str, steps: int, over: int, rounds: int) -> None:
    """Matches from ``init``'s deals to their end (with random moves some 2,000 to 3,000
    moves with 2 players, 3,500 to 7,000 with 5: 4,500 steps end the shortest; with
    autoreset cut at 2,600 moves and the next match dealt: 3,000 steps end 5 of 8 rows'
    matches), one illegal action."""
    ref, env = envs[name]
    seeds = np.arange(N, dtype=np.uint64) + 2**40
    seen = play_side_by_side(ref, env, ref.init(seeds), env.init(seeds), steps,
                             illegal_every=steps)
    assert seen["over"] >= over and seen["went out"] and seen["reshuffled"], seen
    assert seen["illegal"] and seen["rounds"] >= rounds, seen


@pytest.mark.slow
def test_jit_and_vmap(envs: dict[str, tuple[SelfPlay, JaxThreeThirteen]]) -> None:
    """``jax.jit`` of ``jax.vmap`` of ``init`` and ``step`` (groups of batches) give the
    plain functions' states, through the first round's end and ``random_actions``' legal
    moves; ``init`` takes JAX seeds."""
    env = envs["3p-cut"][1]
    state = env.init(np.arange(N))
    assert all(np.array_equal(a, b) for a, b in zip(state, env.init(jnp.arange(N)),
                                                       strict=True))
    groups = jax.jit(jax.vmap(env.init))(jnp.arange(N).reshape(2, N // 2))
    assert np.array_equal(groups.hands.reshape(N, 3, 52), state.hands)
    vstep = jax.jit(jax.vmap(env.step))
    key = jax.random.key(1)
    for _ in range(150):
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
    assert (np.asarray(state.round) >= 2).any(), "a first round ended"


@pytest.mark.slow
def test_the_example_in_the_docs_runs_as_written() -> None:
    """docs/envs.md's example of Three Thirteen's port, run as it is written there."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### A JAX port\n", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    code = next(b for b in blocks if '"threethirteen"' in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOCS), "exec"), {})
    assert out.getvalue().splitlines()[0] == "threethirteen v0 jax 3 54 (924,)"
