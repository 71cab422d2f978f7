"""The registry in pgx's shape (issue 36): ``cardtable.vector.env``, ``available_envs``,
pgx's rules at the end of a game beside autoreset, and ``api_test`` over every game and
option set of tests/configs.py."""

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

import numpy as np  # noqa: E402

import cardtable.vector  # noqa: E402
from cardtable.core import IllegalMoveError, OptionsError  # noqa: E402
from cardtable.vector import SelfPlay, SelfPlayState, api_test, available_envs, env  # noqa: E402
from tests.configs import CONFIGS, FEW, params  # noqa: E402

#: the modes: pgx's (env's defaults), today's SelfPlay, and the two mixed
MODES: dict[str, dict[str, Any]] = {
    "pgx": {}, "selfplay": {"autoreset": True, "illegal_reward": None},
    "autoreset-penalty": {"autoreset": True}, "no-autoreset-refuse": {"illegal_reward": None}}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
#: random games cut here, so that every row finishes soon (Draw Bridge's matches to 100
#: and Three Thirteen's run thousands of moves)
CUT = 150


def illegal_action(state: SelfPlayState, row: int) -> int:
    return int(np.flatnonzero(~state.legal_action_mask[row])[0])


def legal_actions(state: SelfPlayState, rng: np.random.Generator) -> np.ndarray:
    mask = state.legal_action_mask
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), np.int64)


def test_the_ids_are_the_games_and_env_is_pgx_shaped() -> None:
    assert available_envs() == tuple(cardtable.vector.game_names()) == (
        "drawbridge", "sequence", "threethirteen")
    for game_id in available_envs():
        e = env(game_id)
        engine = e.engine
        assert isinstance(e, SelfPlay) and e.id == game_id and e.version == "v0"
        assert (e.num_players, e.num_actions, e.observation_shape) == (
            engine.num_players, engine.num_actions, (engine.obs_size,))
        assert e.autoreset is False and e.illegal_reward == -1.0
        assert engine.max_moves == 100_000
    assert env("sequence", players=4, max_moves=9, illegal_reward=-2).engine.max_moves == 9
    # SelfPlay keeps its own defaults: autoreset, an illegal action refuses the step
    plain = SelfPlay()
    assert plain.autoreset is True and plain.illegal_reward is None
    with pytest.raises(OptionsError, match="unknown env id 'chess'"):
        env("chess")
    for bad in ({"autoreset": 1}, {"illegal_reward": "x"}, {"illegal_reward": float("nan")},
                {"illegal_reward": True}):
        with pytest.raises(OptionsError):
            env("sequence", **bad)


def test_the_zero_sum_games_are_those_of_two_equal_teams() -> None:
    assert env("drawbridge").zero_sum and env("sequence").zero_sum
    assert env("sequence", players=4).zero_sum and env("sequence", players=6).zero_sum
    assert not env("sequence", players=3).zero_sum
    assert not env("sequence", players=6, teams=3).zero_sum
    assert env("threethirteen").zero_sum and not env("threethirteen", players=4).zero_sum


@pytest.mark.parametrize(("name", "options"), params(CONFIGS))
def test_api_test_passes_on_every_option_set(name: str, options: dict[str, Any]) -> None:
    summary = api_test(env(name, max_moves=CUT, **options), num=4)
    assert summary["illegal"] == 1 and summary["steps"] <= CUT + 1


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(("name", "options"), params(FEW))
def test_api_test_passes_in_every_mode(name: str, options: dict[str, Any], mode: str) -> None:
    summary = api_test(env(name, max_moves=CUT, **options, **MODES[mode]), num=6, seed=3)
    assert summary["illegal"] == (0 if MODES[mode].get("illegal_reward", -1) is None else 1)


@pytest.mark.parametrize(("name", "options"), [
    ("sequence", {"players": 3, "max_turns": 40}), ("drawbridge", {"target": 20}),
    ("threethirteen", {"players": 2})])
def test_games_end_by_the_rules_under_api_test(name: str, options: dict[str, Any]) -> None:
    """Not only cut at max_moves: some rows of each game end by its rules."""
    summary = api_test(env(name, max_moves=3000, **options), num=4)
    assert summary["terminated"] >= 1


def test_an_illegal_action_ends_only_its_row() -> None:
    e = env("sequence")
    state = e.init(np.arange(4))
    rng = np.random.default_rng(0)
    actions = legal_actions(state, rng)
    seat = int(state.current_player[1])
    actions[1] = illegal_action(state, 1)
    state = e.step(state, actions)
    assert state.terminated.tolist() == [False, True, False, False]
    assert not state.truncated.any()
    expected = np.ones(2, np.float32)
    expected[seat] = -1
    assert np.array_equal(state.rewards[1], expected) and not state.rewards[[0, 2, 3]].any()
    assert not state.results.terminated[1] and not state.results.rewards[1].any()
    assert state.legal_action_mask[1].all()
    frozen = state.observation[1].copy()
    for _ in range(5):
        state = e.step(state, legal_actions(state, rng))
        assert state.terminated[1] and not state.rewards[1].any()
        assert state.legal_action_mask[1].all()
        assert np.array_equal(state.observation[1], frozen)
    # the penalty is an option; with three teams the others get nothing
    three = env("sequence", players=3, illegal_reward=-0.5)
    state = three.init(np.arange(2))
    seat = int(state.current_player[0])
    actions = legal_actions(state, rng)
    actions[0] = illegal_action(state, 0)
    state = three.step(state, actions)
    expected = np.zeros(3, np.float32)
    expected[seat] = -0.5
    assert np.array_equal(state.rewards[0], expected) and state.terminated.tolist() == [
        True, False]
    # with two teams, the offender's whole team loses
    four = env("sequence", players=4)
    state = four.init(np.arange(1))
    seat = int(state.current_player[0])
    state = four.step(state, [illegal_action(state, 0)])
    assert state.rewards[0].tolist() == [-1.0 if s % 2 == seat % 2 else 1.0 for s in range(4)]


def test_autoreset_with_a_penalty_plays_as_self_play_while_actions_are_legal() -> None:
    """Today's SelfPlay and the same with ``illegal_reward`` (which steps the rows one by
    one) play the same games, deal for deal, while no action is illegal."""
    plain = SelfPlay("sequence", players=3, max_turns=30)
    penalty = SelfPlay("sequence", players=3, max_turns=30, illegal_reward=-1)
    a, b = plain.init(np.arange(6)), penalty.init(np.arange(6))
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        actions = legal_actions(a, rng)
        a, b = plain.step(a, actions), penalty.step(b, actions)
        ended += int(a.terminated.sum())
        for name in ("current_player", "observation", "legal_action_mask", "rewards",
                     "terminated", "truncated"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert all(np.array_equal(x, y) for x, y in zip(a.batch, b.batch, strict=True))
    assert ended >= 6
    # and without a penalty, an illegal action still refuses the whole step
    actions = legal_actions(a, rng)
    actions[2] = illegal_action(a, 2)
    with pytest.raises(IllegalMoveError, match="row 2"):
        plain.step(a, actions)


def test_api_test_finds_a_broken_env() -> None:
    class Autoresets(SelfPlay):
        """Claims pgx's rules, but leaves a finished row's mask as the engine's."""

        def _refresh(self, state: SelfPlayState) -> None:
            self.engine.observe(state.batch, out=state.observation)
            self.engine.legal_mask(state.batch, out=state.legal_action_mask)

    broken = Autoresets("sequence", players=3, max_turns=40, autoreset=False,
                        illegal_reward=-1)
    with pytest.raises(AssertionError, match="mask is not all True"):
        api_test(broken, num=4)
    with pytest.raises(TypeError, match="SelfPlay"):
        api_test(cardtable.vector.make_engine("sequence"))


def test_the_example_in_the_docs_runs_as_written() -> None:
    """docs/envs.md's example of the registry, run as it is written there."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### The registry in pgx's shape", 1)[1].split("\n### ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOCS), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "('drawbridge', 'sequence', 'threethirteen')"
    assert lines[1] == "sequence v0 2 529 (523,)"
    assert "'terminated'" in lines[2]
