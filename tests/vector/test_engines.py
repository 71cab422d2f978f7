"""What every batched engine does alike, run over each of them: the base's methods, its
argument checks, the registry, the Gymnasium VectorEnv and the pgx-shaped self-play.

Each game's own behaviour (its rules, its results, its layouts) is in
``test_<game>_batch.py``; the rules against the scalar engine in
``test_<game>_differential.py``.
"""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")
gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
import cardtable.envs  # noqa: E402  (registers the Gymnasium ids)
import cardtable.vector  # noqa: E402
from cardtable.core import IllegalMoveError, InvalidActionError, OptionsError  # noqa: E402
from cardtable.vector import SelfPlay, VectorEngine, make_engine  # noqa: E402
from cardtable.vector.gym import GameVectorEnv  # noqa: E402

#: each game's options for quick whole episodes
QUICK: dict[str, dict[str, Any]] = {
    "sequence": {"players": 3, "max_turns": 40},
    "drawbridge": {"target": 20, "undertricks": True},
    "threethirteen": {"players": 3}}
#: the most players each takes here
MANY: dict[str, dict[str, Any]] = {
    "sequence": {"players": 4}, "drawbridge": {}, "threethirteen": {"players": 4}}
#: another option set, whose states and batches do not fit the defaults' engine
OTHER: dict[str, dict[str, Any]] = {
    "sequence": {"players": 3}, "drawbridge": {"target": 5}, "threethirteen": {"players": 3}}
#: self-play's: Three Thirteen's random matches run long, so they are cut
SELF = {**QUICK, "threethirteen": {"players": 3, "max_moves": 400}}
GAMES = sorted(QUICK)


def copy(batch: Any) -> list[Any]:
    return [a.copy() for a in batch]


def same(a: list[Any], b: Any) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def random_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


# ---------------------------------------------------------------- the registry


def test_every_game_has_an_engine_found_by_name() -> None:
    assert cardtable.vector.game_names() == cardtable.game_names() == GAMES
    for name in GAMES:
        engine = make_engine(name, max_moves=9)
        module = importlib.import_module(f"cardtable.vector.{name}")
        assert isinstance(engine, module.ENGINE) and isinstance(engine, VectorEngine)
        assert engine.game.name == name and engine.max_moves == 9
        assert cardtable.vector.engine_class(name) is module.ENGINE
        # the results are named alike, and report the same things first and last
        assert engine.results_type.__name__ == engine.batch_type.__name__.replace("Batch",
                                                                                  "Results")
        fields = engine.results_type._fields
        assert fields[:4] == ("rewards", "terminated", "truncated", "winner")
        assert fields[-1] == "moves"
    with pytest.raises(OptionsError, match="unknown game 'chess'"):
        make_engine("chess")
    with pytest.raises(OptionsError, match="unknown game"):
        SelfPlay(game="chess")


# ---------------------------------------------------------------- the engine


@pytest.mark.parametrize("name", GAMES)
def test_deals_come_from_the_seed_and_the_episode_count_alone(name: str) -> None:
    engine = make_engine(name)
    first, second = engine.init([5, 6, 7]), engine.init([5, 6, 7])
    assert same(copy(first), second)
    # episode 2 of every row is the same whatever was played in episode 1
    for _ in range(30):
        engine.step(first, engine.random_actions(first))
    engine.reset_rows(first, [0, 1, 2])
    engine.reset_rows(second, np.ones(3, bool))
    for i in range(3):
        assert engine.hidden_cards(first, i) == engine.hidden_cards(second, i)
    for seat in range(engine.num_players):
        assert np.array_equal(engine.observe(first, seats=seat),
                              engine.observe(second, seats=seat))
    assert engine.hidden_cards(engine.init([8]), 0) != engine.hidden_cards(engine.init([9]), 0)


@pytest.mark.parametrize("name", GAMES)
def test_max_moves_cuts_an_episode(name: str) -> None:
    engine = make_engine(name, max_moves=5)
    batch = engine.init(np.arange(3))
    for _ in range(4):
        res = engine.step(batch, engine.random_actions(batch))
        assert not (res.truncated | res.terminated).any()
    res = engine.step(batch, engine.random_actions(batch))
    assert res.truncated.all() and not res.terminated.any()
    assert (res.moves == 5).all() and (res.rewards == 0).all()


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_refuses_the_whole_call(name: str) -> None:
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    mask = engine.legal_mask(batch)
    before = copy(batch)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalMoveError, match="row 2: action .* not legal now"):
        engine.step(batch, actions)
    assert same(before, batch), "nothing was played"
    # an action in a row that is not active is not read
    engine.step(batch, actions, active=np.arange(4) != 2)
    assert not same(before, batch)


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_episode_refuses_more_moves_without_autoreset(name: str) -> None:
    engine = make_engine(name, **QUICK[name])
    batch = engine.init(np.arange(2))
    while not batch.over[0]:
        engine.step(batch, engine.random_actions(batch), active=batch.over == 0,
                    autoreset=False)
    assert engine.random_actions(batch)[0] == -1 and not engine.legal_mask(batch)[0].any()
    actions = np.zeros(2, np.int64)
    with pytest.raises(IllegalMoveError, match=f"row 0: .* the {engine.episode} is over"):
        engine.step(batch, actions)


@pytest.mark.parametrize("name", GAMES)
def test_bad_options_get_clear_errors(name: str) -> None:
    with pytest.raises(OptionsError, match="max_moves"):
        make_engine(name, max_moves=0)
    with pytest.raises(OptionsError, match="max_moves"):
        make_engine(name, max_moves=True)
    with pytest.raises(OptionsError, match="option"):
        make_engine(name, no_such_option=1)


# ---------------------------------------------------------------- the argument checks


@pytest.mark.parametrize("name", GAMES)
def test_rows_out_of_the_batch_are_refused(name: str) -> None:
    """#36: a row past the batch read memory outside it, and 10**8 crashed."""
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    rows: Any
    for rows in ([10], [10**8], [-1], np.array([4]), np.array([2**63], np.uint64)):
        with pytest.raises(IndexError, match="rows must be 0..3"):
            engine.legal_mask(batch, rows=rows)
        with pytest.raises(IndexError, match="rows must be 0..3"):
            engine.observe(batch, rows=rows)
        with pytest.raises(IndexError, match="rows must be 0..3"):
            engine.reset_rows(batch, rows)
    for rows, what in (([1.0], "integers or booleans"), (np.ones(3, bool), r"shape \(4,\)"),
                       (np.zeros((2, 2), int), "1-d"), ("0", "integers")):
        with pytest.raises(IndexError, match=what):
            engine.legal_mask(batch, rows=rows)
    with pytest.raises(IndexError, match="None"):
        engine.reset_rows(batch, None)
    # what is in range is answered, as numpy would select the rows
    full = engine.legal_mask(batch)
    assert np.array_equal(engine.legal_mask(batch, rows=[3, 0, 3]), full[[3, 0, 3]])
    mask = np.array([True, False, True, False])
    assert np.array_equal(engine.legal_mask(batch, rows=mask), full[mask])
    assert np.array_equal(engine.legal_mask(batch, rows=2), full[[2]])
    assert engine.legal_mask(batch, rows=[]).shape == (0, engine.num_actions)
    assert np.array_equal(engine.observe(batch, rows=np.array([1], np.uint8)),
                          engine.observe(batch)[[1]])


@pytest.mark.parametrize("name", GAMES)
def test_an_out_array_of_the_wrong_shape_or_dtype_is_refused(name: str) -> None:
    """#36: a too small or mistyped ``out=`` was written past its end."""
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    k, obs = engine.num_actions, engine.obs_size
    out: Any
    for out in (np.zeros((1, k), bool), np.zeros((4, k - 1), bool), np.zeros((4, k), np.int16),
                np.zeros((4, k), np.float32), np.zeros((8, k), bool)[::2], [[0] * k] * 4):
        with pytest.raises(ValueError, match="out must be"):
            engine.legal_mask(batch, out=out)
    with pytest.raises(ValueError, match=r"out must be .* shape \(2, "):
        engine.legal_mask(batch, out=np.zeros((4, k), bool), rows=[0, 1])
    for out in (np.zeros((3, obs), np.float32), np.zeros((4, obs), np.float64)):
        with pytest.raises(ValueError, match="out must be"):
            engine.observe(batch, out=out)
    readonly = np.zeros((4, obs), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        engine.observe(batch, out=readonly)
    for out in (np.zeros(3, np.int64), np.zeros(4, np.int32), np.zeros(4, np.float64)):
        with pytest.raises(ValueError, match="out must be"):
            engine.random_actions(batch, out=out)
    for dtype in (np.bool_, np.int8, np.uint8):
        out = np.zeros((4, k), dtype)
        assert engine.legal_mask(batch, out=out) is out
        assert np.array_equal(out.astype(bool), engine.legal_mask(batch))


@pytest.mark.parametrize("name", GAMES)
def test_actions_must_be_integer_ids(name: str) -> None:
    """#36: float actions were truncated, and ids past the action space called illegal."""
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    actions = engine.random_actions(batch)
    before = copy(batch)
    with pytest.raises(ValueError, match="integer action ids, not float64"):
        engine.step(batch, actions + 0.0)
    with pytest.raises(ValueError, match="integer action ids"):
        engine.step(batch, actions.astype(bool))
    for bad in (10**6, -1, 2**63):
        wrong = actions.astype(np.uint64 if bad > 2**62 else np.int64)
        wrong[1] = bad
        with pytest.raises(ValueError, match=r"actions\[1\] is .*, not an action id"):
            engine.step(batch, wrong)
    with pytest.raises(ValueError, match="shape"):
        engine.step(batch, actions[:3])
    with pytest.raises(ValueError, match="active"):
        engine.step(batch, actions, active=np.ones(5, bool))
    with pytest.raises(ValueError, match="active"):
        engine.play_random(batch, 0, active=np.ones(3, bool))
    assert same(before, batch), "nothing was played"
    engine.step(batch, actions.astype(np.int16).tolist())


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_action_id_gets_one_error_everywhere(name: str) -> None:
    """#36: the engine's step said "actions[2] is 529, not an action id" and the vector
    environment "action ids are 0..528"; now the engine, SelfPlay and the vector
    environment refuse an id past the action space, or a float, with one error and one
    message."""
    engine = make_engine(name, **SELF[name])
    n = engine.num_actions
    batch = engine.init(np.arange(4))
    play = SelfPlay(game=name, **SELF[name])
    state = play.init(np.arange(4))
    env = GameVectorEnv(num_envs=4, game=name, **QUICK[name])
    _, info = env.reset(seed=1)
    steps = {"engine": lambda a: engine.step(batch, a),
             "selfplay": lambda a: play.step(state, a),
             "env": lambda a: env.step(a)}
    for actions, message in ((np.array([0, 0, n, 0]), f"actions[2] is {n}, not an action id "
                              f"(0..{n - 1}); nothing was played"),
                             (np.zeros(4), "actions must be integer action ids, not float64")):
        for where, step in steps.items():
            with pytest.raises(InvalidActionError) as refused:
                step(actions)
            assert str(refused.value) == message, where
    # an id that is an action but not legal now stays an IllegalMoveError in the engine
    # and SelfPlay (SelfPlay plays no row then) and ends that game in the environment
    before = copy(state.batch)
    illegal = np.where(state.legal_action_mask, n, np.arange(n)).min(axis=1)
    with pytest.raises(IllegalMoveError, match="row 0: action .* not legal now"):
        play.step(state, illegal)
    assert same(before, state.batch)


@pytest.mark.parametrize("name", GAMES)
def test_the_opponents_policy_actions_are_checked(name: str) -> None:
    """#36: a batched opponent's float actions were truncated to ids, and a wrong shape
    gave NumPy's broadcasting error."""
    for policy, error, message in (
            (lambda o, m: m.argmax(axis=1) + 0.5, InvalidActionError,
             "the opponents' actions must be integer action ids, not float64"),
            (lambda o, m: np.zeros(len(m) + 1, np.int64), ValueError,
             r"the opponents' actions must have shape \(\d+,\), not \(\d+,\)"),
            (lambda o, m: np.full(len(m), 10**6), InvalidActionError,
             r"the opponents' actions\[0\] is 1000000, not an action id \(0\.\.\d+\)$")):
        env = GameVectorEnv(num_envs=4, game=name, seat=1, opponents=policy, **QUICK[name])
        with pytest.raises(error, match=message):
            env.reset(seed=3)


@pytest.mark.parametrize("name", GAMES)
def test_seats_and_row_indices_are_checked(name: str) -> None:
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    players = engine.num_players
    with pytest.raises(ValueError, match=f"seats must be 0..{players - 1}"):
        engine.observe(batch, seats=players)
    with pytest.raises(ValueError, match="seats must be one seat or one per row"):
        engine.observe(batch, seats=np.array([0, 1]))
    with pytest.raises(ValueError, match="seats must be integer"):
        engine.observe(batch, seats=0.5)
    assert np.array_equal(engine.observe(batch, seats=np.zeros(4, np.uint8)),
                          engine.observe(batch, seats=0))
    for seat in (-1, players, 1.0, True):
        with pytest.raises(ValueError, match="until_seat"):
            engine.play_random(batch, seat)  # type: ignore[arg-type]
    state = engine.game.deal(seed=1)
    for i in (4, -1, 10**8):
        with pytest.raises(IndexError, match="out of range"):
            engine.load(batch, i, state)
        with pytest.raises(IndexError, match="out of range"):
            engine.hidden_cards(batch, i)
    with pytest.raises(IndexError, match="row index"):
        engine.load(batch, 1.0, state)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(batch, 0, make_engine(name, **OTHER[name]).game.deal(seed=1))
    with pytest.raises(OptionsError, match="does not fit"):
        engine.load(batch, 0, cardtable.new_game("sequence" if name != "sequence"
                                                 else "drawbridge").deal(1))
    with pytest.raises(ValueError, match="seeds"):
        engine.init([-1])
    with pytest.raises(ValueError, match="seeds"):
        engine.init([1.5])
    with pytest.raises(ValueError, match="non-negative int"):
        engine.empty(-1)


@pytest.mark.parametrize("name", GAMES)
def test_a_batch_of_another_layout_is_refused(name: str) -> None:
    engine = make_engine(name)
    batch = engine.init(np.arange(4))
    others = [tuple(batch), type(batch)(*(x[::2] for x in batch)),
              type(batch)(*(x if k else x[:3] for k, x in enumerate(batch)))]
    if name != "drawbridge":  # another player count, another shape of hands
        others.append(make_engine(name, players=4).init(np.arange(4)))
    for other in others:
        with pytest.raises(ValueError, match="batch"):
            engine.legal_mask(other)
        with pytest.raises(ValueError, match="batch"):
            engine.step(other, np.zeros(4, np.int64))
    engine.legal_mask(batch)


@pytest.mark.parametrize("name", GAMES)
def test_the_checks_cost_a_few_microseconds(name: str) -> None:
    import time

    engine = make_engine(name)
    batch = engine.init(np.arange(4096))
    out = np.empty((4096, engine.num_actions), np.bool_)
    rows = np.arange(0, 4096, 2)
    calls = 200
    start = time.perf_counter()
    for _ in range(calls):
        n = engine._check_batch(batch)
        engine._check_batch(batch)
        cardtable.vector.base._rows(rows, n)
        cardtable.vector.base.check_actions(rows, 2048)
        cardtable.vector.base._check_out(out, (4096, engine.num_actions), (out.dtype,))
    per_call = (time.perf_counter() - start) / calls
    assert per_call < 200e-6, f"{per_call * 1e6:.0f} us for the checks of a call"


@pytest.mark.slow
def test_every_entry_point_answers_or_refuses_random_arguments() -> None:
    """Hypothesis throws shapes, dtypes and values at every entry point of every engine,
    ``SelfPlay`` and the vector envs (tests/vector/fuzz_arguments.py), in a subprocess: a
    crash fails this test, not the suite."""
    script = Path(__file__).with_name("fuzz_arguments.py")
    root = Path(__file__).parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(root / "src"), str(root), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, str(script), "--examples", "120"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-4000:], proc.stderr[-8000:])
    assert proc.stdout.count("calls answered or refused") == len(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"cardtable.vector.{name}")
    assert doctest.testmod(module).failed == 0


# ---------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("name", GAMES)
def test_make_vec_gives_the_batched_engine(name: str) -> None:
    envs = gymnasium.make_vec(cardtable.envs.GYM_IDS[name], num_envs=16,
                              vectorization_mode="vector_entry_point", **OTHER[name])
    env = envs.unwrapped
    assert isinstance(env, GameVectorEnv) and env.engine.game.name == name
    assert env.engine.game == make_engine(name, **OTHER[name]).game
    engine = env.engine
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (engine.obs_size,)
    assert envs.observation_space.shape == (16, engine.obs_size)
    assert envs.single_action_space.n == engine.num_actions
    obs, info = envs.reset(seed=3)
    again, _ = envs.reset(seed=3)
    assert np.array_equal(obs, again)
    assert info["action_mask"].shape == (16, engine.num_actions)
    assert info["action_mask"].dtype == np.int8
    assert envs.single_observation_space.contains(obs[0])
    with pytest.raises(OptionsError, match="unknown game"):
        GameVectorEnv(game="chess")


def test_the_old_vector_env_names_play_their_game() -> None:
    from cardtable.vector.gym import DrawBridgeVectorEnv, SequenceVectorEnv, ThreeThirteenVectorEnv

    for cls, name in ((SequenceVectorEnv, "sequence"), (DrawBridgeVectorEnv, "drawbridge"),
                      (ThreeThirteenVectorEnv, "threethirteen")):
        env = cls(num_envs=2)
        assert isinstance(env, GameVectorEnv) and env.engine.game.name == name
        with pytest.raises(OptionsError, match=f"plays {name}"):
            cls(game="chess")
    assert GameVectorEnv(num_envs=2).engine.game.name == "sequence"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_the_vector_env_plays_whole_episodes_for_the_learner(name: str, seat: int) -> None:
    env = GameVectorEnv(num_envs=16, game=name, seat=seat, **QUICK[name])
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all(), "the learner is to act in every row"
        assert (env.batch.current_player == seat).all()
        obs, rewards, terminated, truncated, info = env.step(random_choice(mask, rng))
        ended = terminated | truncated
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~ended] == 0).all()
        if ended.any():
            assert (info["_final_obs"] == ended).all()
            assert all(info["final_obs"][i].shape == (env.engine.obs_size,)
                       for i in np.flatnonzero(ended))
        finished += int(ended.sum())
        if finished >= 16:
            break
    assert finished >= 16


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_ends_that_episode_only(name: str) -> None:
    env = GameVectorEnv(num_envs=4, game=name, illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, info = env.step(actions)
    assert rewards[1] == -5.0 and terminated[1]
    assert info["_final_obs"].tolist() == [False, True, False, False]
    with pytest.raises(InvalidActionError, match=r"actions\[0\] is .*, not an action id"):
        env.step(np.full(4, env.engine.num_actions))
    with pytest.raises(ValueError, match="integer action ids"):
        env.step(actions + 0.5)
    with pytest.raises(ValueError, match="shape"):
        env.step(actions[:3])


@pytest.mark.parametrize("name", GAMES)
def test_a_batched_policy_plays_the_other_seats(name: str) -> None:
    calls: list[int] = []
    env = GameVectorEnv(num_envs=8, game=name, opponents=lambda o, m: first_legal(o, m, calls),
                        **MANY[name])
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(20):
        _, _, _, _, info = env.step(random_choice(info["action_mask"], rng))
        assert (env.batch.current_player == 0).all()
    assert calls and max(calls) <= 8
    with pytest.raises(OptionsError, match="opponents"):
        GameVectorEnv(game=name, opponents="ismcts")  # (the heuristic is a kernel: #36)


def first_legal(observations: np.ndarray, masks: np.ndarray,
                calls: list[int] | None = None) -> np.ndarray:
    assert observations.shape[0] == masks.shape[0]
    if calls is not None:
        calls.append(len(masks))
    return masks.argmax(axis=1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("opponents", ["random", "policy"])
def test_the_vector_env_truncates_at_max_moves(name: str, opponents: str) -> None:
    env = GameVectorEnv(num_envs=6, game=name, max_moves=7,
                        opponents="random" if opponents == "random" else first_legal)
    _, info = env.reset(seed=5)
    cut = 0
    for _ in range(8):
        _, rewards, terminated, truncated, info = env.step(info["action_mask"].argmax(axis=1))
        cut += int(truncated.sum())
        assert (rewards[truncated] == 0).all() and not (terminated & truncated).any()
        assert (env.batch.moves < 7).all()
        assert (env.batch.current_player == 0).all()
    assert cut >= 6


# ---------------------------------------------------------------- self-play


@pytest.mark.parametrize("name", GAMES)
def test_self_play_in_pgx_shape(name: str) -> None:
    env = SelfPlay(game=name, **SELF[name])
    engine = env.engine
    assert (env.num_players, env.num_actions, env.observation_size) == (
        engine.num_players, engine.num_actions, engine.obs_size)
    state = env.init(np.arange(20))
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(3000):
        assert state.legal_action_mask.any(axis=1).all()
        current = state.current_player.copy()
        seen = engine.observe(state.batch, seats=current)
        assert np.array_equal(seen, state.observation)
        state = env.step(state, random_choice(state.legal_action_mask, rng))
        done = state.terminated | state.truncated
        ended += int(done.sum())
        assert (state.rewards[~done] == 0).all()
        assert (state.rewards[state.truncated] == 0).all()
        won = state.terminated & (state.results.winner >= 0)
        assert (state.rewards[won].max(axis=1) == 1).all()
        assert (state.rewards[won].min(axis=1) == -1).all()
        if ended >= 20:
            break
    assert ended >= 20
    with pytest.raises(ValueError, match="integer action ids"):
        env.step(state, state.legal_action_mask.argmax(axis=1) + 0.0)
    with pytest.raises(ValueError, match="SelfPlayState"):
        env.step(state.batch, np.zeros(20, np.int64))
