"""Sequence's batched heuristic against the scalar bot, move for move (issue 36): in every
row of a batch and at every step, each legal action's score equals the score
``HeuristicBot("heuristic-v1")`` gives it, so the kernel's move is one of the bot's best;
the game then goes on with that move in both engines (heuristic against heuristic, so that
sequences, jacks and dead cards come up)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.bots.base import HeuristicBot, heuristic_for  # noqa: E402
from cardtable.sequence.game import DEAD, ONE_EYED_JACK, PASS, TWO_EYED_JACK  # noqa: E402
from cardtable.vector import VectorSequence, make_engine  # noqa: E402
from cardtable.vector import sequence_heuristic as batched  # noqa: E402
from cardtable.vector.sequence_heuristic import heuristic_actions, heuristic_scores  # noqa: E402
from tests.configs import CONFIGS, params  # noqa: E402

SEQUENCE = [c for c in CONFIGS if c.game == "sequence"]


def play_both(options: dict[str, Any], rows: int, steps: int, seed: int) -> dict[str, int]:
    """Rows of the batched engine and the same games as scalar states, each step the
    kernel's move played in both; returns what came up."""
    engine = VectorSequence(**options)
    game = cardtable.new_game("sequence", **options)
    states = [game.deal(seed=seed + r) for r in range(rows)]
    batch = engine.from_states(states)
    bot = HeuristicBot(seed, "heuristic-v1")  # cardtable.bots.make("heuristic-v1")
    seen = {"positions": 0, "one_eyed": 0, "two_eyed": 0, "dead": 0, "ties": 0, "ended": 0}
    for _ in range(steps):
        scores = heuristic_scores(engine, batch)
        actions = heuristic_actions(engine, batch)
        for r, state in enumerate(states):
            if state.is_terminal:
                assert actions[r] == -1 and np.isneginf(scores[r]).all()
                continue
            seat = state.current_player
            assert seat is not None
            expected = {a.id: s for s, a in bot.scores(state, seat)}
            legal = np.flatnonzero(~np.isneginf(scores[r]))
            assert sorted(expected) == legal.tolist(), (r, "the legal actions differ")
            for a, s in expected.items():
                assert scores[r, a] == pytest.approx(s, abs=1e-9), (r, a, s, scores[r, a])
            best = max(expected.values())
            top = {a for a, s in expected.items() if s >= best - 1e-9}
            assert int(actions[r]) in top, (r, int(actions[r]), top)
            # the scalar bot's own choice is one of the same best moves
            assert bot.choose(state).id in top
            seen["positions"] += 1
            seen["ties"] += len(top) > 1
            a = int(actions[r])
            seen["two_eyed"] += TWO_EYED_JACK <= a < ONE_EYED_JACK
            seen["one_eyed"] += ONE_EYED_JACK <= a < DEAD
            seen["dead"] += DEAD <= a < PASS
        live = np.array([not s.is_terminal for s in states])
        if not live.any():
            break
        engine.step(batch, np.where(live, actions, 0), active=live, autoreset=False)
        for r, state in enumerate(states):
            if live[r]:
                state.apply(int(actions[r]))
                seen["ended"] += state.is_terminal
        # the two engines hold the same games
        for r, state in enumerate(states):
            assert np.array_equal(engine.legal_mask(batch, rows=[r])[0].nonzero()[0],
                                  np.array(sorted(a.id for a in state.legal_actions()))
                                  if not state.is_terminal else np.array([], np.int64))
    return seen


@pytest.mark.parametrize(("name", "options"), params(SEQUENCE))
def test_the_kernel_scores_every_move_as_the_scalar_bot(name: str,
                                                         options: dict[str, Any]) -> None:
    seen = play_both(options, rows=4, steps=60, seed=11)
    assert seen["positions"] > 100


def test_the_numbers_are_heuristic_v1s() -> None:
    """The yardstick's module (bots/sequence.py, or its frozen copy once there is one)."""
    scalar = sys.modules[type(heuristic_for("sequence", "heuristic-v1")).__module__]
    for name in ("BUILD", "BLOCK", "TWO_EYED_COST", "ONE_EYED_COST"):
        assert getattr(batched, name) == getattr(scalar, name), name


def test_whole_games_move_for_move() -> None:
    seen = play_both({"players": 2}, rows=16, steps=400, seed=3)
    assert seen["ended"] >= 8 and seen["one_eyed"] and seen["two_eyed"] and seen["ties"]


def test_the_kernel_is_fast_and_refuses_other_engines() -> None:
    engine = VectorSequence(players=2)
    batch = engine.init(np.arange(64))
    actions = heuristic_actions(engine, batch)
    assert actions.shape == (64,) and actions.dtype == np.int64
    assert engine.legal_mask(batch)[np.arange(64), actions].all()
    engine.step(batch, actions)  # legal in every row
    with pytest.raises(ValueError, match="VectorSequence"):
        heuristic_actions(make_engine("drawbridge"), batch)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        heuristic_actions(VectorSequence(players=4), batch)


def learner_score(opponents: str, games: int = 128) -> float:
    """A random learner's share of wins against ``opponents`` in the vector environment."""
    from cardtable.vector.gym import GameVectorEnv

    env = GameVectorEnv(num_envs=64, opponents=opponents, players=2)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(2)
    wins = ended = 0
    while ended < games:
        mask = info["action_mask"]
        _, rewards, terminated, truncated, info = env.step(
            (rng.random(mask.shape) * mask).argmax(axis=1))
        done = terminated | truncated
        ended += int(done.sum())
        wins += int((rewards[done] > 0).sum())
    return wins / ended


def test_the_vector_environment_plays_heuristic_v1_as_opponent() -> None:
    against_random, against_heuristic = learner_score("random"), learner_score("heuristic-v1")
    assert against_random > 0.3 and against_heuristic < 0.1, (against_random,
                                                              against_heuristic)
    from cardtable.core import OptionsError
    from cardtable.vector.gym import GameVectorEnv

    with pytest.raises(OptionsError, match="opponents must be 'random' or 'heuristic' or "
                       "'heuristic-v1' or a batched"):
        GameVectorEnv(num_envs=2, game="sequence", opponents="ismcts")


def test_the_example_in_the_docs_runs_as_written() -> None:
    import contextlib
    import io
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
    section = docs.read_text(encoding="utf-8").split(
        "### A batched opponent: Sequence's `heuristic-v1`", 1)[1].split("\n### ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(docs), "exec"), {})
    assert out.getvalue().splitlines() == ["(1024, 529) (1024,) True"]
