"""``api_test(env)``: what every env in pgx's shape must do, checked by playing it (as
``pgx.api_test``; docs/envs.md).

::

    from cardtable.vector import api_test, make
    api_test(make("sequence", players=4, max_moves=300), num=16)

It raises ``AssertionError`` naming what is wrong, and returns a summary of what it
played (steps, rows ended by the rules, cut, ended by an illegal action).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.core import IllegalMoveError
from cardtable.vector.selfplay import SelfPlay, SelfPlayState, available_envs

#: the steps a second state from the same seeds follows the first, compared at each
DETERMINISM_STEPS = 40
#: the step at which an illegal action is tried
ILLEGAL_STEP = 3


def api_test(env: Any, num: int = 8, seed: int = 0,
             max_steps: int = 20_000) -> dict[str, int]:
    """Check ``env`` (a ``SelfPlay``, ``cardtable.vector.make``'s or built directly, any
    ``autoreset`` and ``illegal_reward``; or a JAX env, ``make(..., backend="jax")``, its
    states read as NumPy arrays and checked against the numba engine of its options) on
    ``num`` rows dealt from seeds ``seed .. seed + num - 1``, playing random legal moves (a
    ``numpy`` generator from ``seed``):

    - the attributes (``id``, ``version``, ``num_players``, ``num_actions``,
      ``observation_shape``) and every array of the state: shape and dtype;
    - after ``init`` and every step, the mask and observation of every live row are the
      engine's (``engine.legal_mask``, ``engine.observe`` for ``current_player``, and
      ``env.observe``), with at least one legal action; rewards are 0 but in a row that
      ended in this step, +1, 0 or -1 there; they sum to 0 in each row where two teams
      of equal size play (``env.zero_sum``);
    - an illegal action: with ``illegal_reward``, it ends that row only with the
      penalty; without, it refuses the whole step and leaves the state as it was;
    - without autoreset, a finished row stays finished: ``terminated``/``truncated``
      stay, its rewards are 0, its mask all True, its observation and seat unchanged,
      whatever action it is given; with autoreset, every row holds a live deal;
    - play goes to the end: every row finishes (without autoreset) or ends at least once
      (with it) within ``max_steps`` (give the env a ``max_moves`` where games are long);
    - the same seeds and actions give the same states (the first steps, side by side),
      and other seeds other deals.

    Returns ``{"steps", "terminated", "truncated", "illegal"}``: the steps played, and
    the episodes that ended by the rules, were cut at ``max_moves``, ended by an
    illegal action.
    """
    if getattr(env, "backend", None) == "jax":
        env = env.numpy_view()  # NumPy states, with the numba engine's batch of each
    if not isinstance(env, SelfPlay) and type(env).__name__ != "NumpyView":
        raise TypeError(f"env must be a SelfPlay or a JAX env (cardtable.vector.make), not "
                        f"{type(env).__name__}")
    if isinstance(num, bool) or not isinstance(num, int) or num < 1:
        raise ValueError(f"num must be a positive int, not {num!r}")
    _check_attributes(env)
    seeds = np.arange(seed, seed + num, dtype=np.uint64)
    rng = np.random.default_rng(seed)
    state = env.init(seeds)
    twin: SelfPlayState | None = env.init(seeds)
    _check_state(env, state, num)
    assert not state.rewards.any(), "rewards must be 0 after init"
    assert not (state.terminated | state.truncated).any(), "init must give live rows"
    assert twin is not None and _same(state, twin), "init is not deterministic from seeds"
    other = env.init(seeds + np.uint64(num))
    assert _cards(env, state) != _cards(env, other), "other seeds must deal other games"
    summary = {"steps": 0, "terminated": 0, "truncated": 0, "illegal": 0}
    ended_once = np.zeros(num, np.bool_)
    for step in range(max_steps):
        if env.autoreset:
            if ended_once.all():
                break
        elif (state.terminated | state.truncated).all():
            break
        actions = _random_legal(state.legal_action_mask, rng)
        if step == ILLEGAL_STEP:
            _try_illegal(env, state, actions, rng)  # the twin takes the same actions
        before = _snapshot(env, state)
        state = env.step(state, actions)
        summary["steps"] += 1
        illegal = _check_step(env, state, before, actions)
        ended = (state.terminated | state.truncated) & ~before["finished"]
        ended_once |= ended
        summary["illegal"] += int(illegal.sum())
        summary["terminated"] += int((state.terminated & ended & ~illegal).sum())
        summary["truncated"] += int((state.truncated & ended).sum())
        if twin is not None:
            twin = env.step(twin, actions)
            assert _same(state, twin), f"step {step}: the same seeds and actions gave " \
                "other states"
            if step >= DETERMINISM_STEPS:
                twin = None
    else:
        raise AssertionError(f"{env.id}: not every row ended within {max_steps} steps; "
                             "give the env a max_moves")
    if not env.autoreset:
        # one more step of any action ids: nothing moves
        before = _snapshot(env, state)
        state = env.step(state, rng.integers(env.num_actions, size=num))
        _check_step(env, state, before, None)
    return summary


def _check_attributes(env: SelfPlay) -> None:
    engine = env.engine
    assert env.id in available_envs() and env.id == engine.game.name, env.id
    assert isinstance(env.version, str) and env.version, env.version
    assert env.num_players == engine.num_players >= 1
    assert env.num_actions == engine.num_actions >= 1
    assert env.format.flat_size == engine.obs_size
    assert env.observation_shape == env.format.shape
    assert env.observation_size == int(np.prod(env.observation_shape))
    if not (env.format.planes or env.format.normalize):
        assert env.observation_shape == (engine.obs_size,)
    assert env.teams.shape == (env.num_players,)


def _check_state(env: SelfPlay, state: SelfPlayState, n: int) -> None:
    """Shapes and dtypes, and each live row's mask, observation and seat."""
    expect = {"current_player": ((n,), "iu"), "observation": ((n, *env.observation_shape), "f"),
              "legal_action_mask": ((n, env.num_actions), "b"),
              "rewards": ((n, env.num_players), "f"), "terminated": ((n,), "b"),
              "truncated": ((n,), "b")}
    for name, (shape, kinds) in expect.items():
        arr = getattr(state, name)
        assert isinstance(arr, np.ndarray), f"state.{name} must be an array"
        assert arr.shape == shape, f"state.{name} has shape {arr.shape}, not {shape}"
        assert arr.dtype.kind in kinds, f"state.{name} has dtype {arr.dtype}"
    assert state.observation.dtype == np.float32 and state.rewards.dtype == np.float32
    assert not (state.terminated & state.truncated).any(), \
        "a row is both terminated and truncated"
    engine = env.engine
    # with autoreset a row that ended in this step already holds its next deal
    live = np.arange(n) if env.autoreset else np.flatnonzero(~(state.terminated
                                                               | state.truncated))
    seats = state.current_player[live]
    assert ((seats >= 0) & (seats < env.num_players)).all(), "a live row has no seat to act"
    mask = state.legal_action_mask[live]
    assert mask.any(axis=1).all(), "a live row has no legal action"
    assert np.array_equal(mask, engine.legal_mask(state.batch, rows=live)), \
        "legal_action_mask is not the engine's"
    assert np.array_equal(state.observation[live], env.format.convert(
        engine.observe(state.batch, seats=seats, rows=live))), \
        "observation is not what the seat to act sees"
    assert np.array_equal(env.observe(state), state.observation), \
        "env.observe(state) is not state.observation"
    assert np.isfinite(state.observation).all()
    if env.format.normalize:
        assert ((state.observation >= 0) & (state.observation <= 1)).all(), \
            "a normalised observation outside [0, 1]"
    every = env.observe_all(state)
    assert every.shape == (n, env.num_players, *env.observation_shape)
    assert np.array_equal(every[live, seats], state.observation[live]), \
        "observe_all(state)[:, seat] is not what the seat sees"


def _check_step(env: SelfPlay, state: SelfPlayState, before: dict[str, Any],
                actions: np.ndarray | None) -> np.ndarray:
    """The state after one step; returns the rows ended by an illegal action."""
    n = len(state.terminated)
    _check_state(env, state, n)
    done = state.terminated | state.truncated
    finished = before["finished"]
    ended = done & ~finished
    rewards = state.rewards
    assert not rewards[~ended].any(), "a row that did not end now has rewards"
    if env.zero_sum:
        assert np.allclose(rewards.sum(axis=1), 0.0, atol=1e-5), "rewards are not zero-sum"
    assert not rewards[state.truncated & ended].any(), "a cut game has rewards"
    illegal = np.zeros(n, np.bool_)
    if actions is not None and env.illegal_reward is not None:
        illegal = ~finished & ~before["mask"][np.arange(n), actions]
        assert (state.terminated[illegal]).all(), "an illegal action did not end its row"
        if illegal.any():
            offender = env.teams[before["seat"][illegal]]
            ours = env.teams[None, :] == offender[:, None]
            assert (rewards[illegal][ours] == np.float32(env.illegal_reward)).all(), \
                "the offender's team did not get illegal_reward"
            theirs = rewards[illegal][~ours]
            other = -np.float32(env.illegal_reward) if env.zero_sum else np.float32(0.0)
            assert (theirs == other).all(), "the other seats' rewards after an illegal action"
    assert np.isin(rewards[ended & ~illegal], (-1.0, 0.0, 1.0)).all(), \
        "a game's rewards must be +1, 0 or -1"
    if env.autoreset:
        assert not finished.any()
        assert state.legal_action_mask.any(axis=1).all(), "autoreset left a finished row"
    else:
        assert (done >= finished).all(), "a finished row came back to life"
        assert (state.terminated[finished] == before["terminated"][finished]).all()
        assert (state.truncated[finished] == before["truncated"][finished]).all()
        assert state.legal_action_mask[done].all(), "a finished row's mask is not all True"
        assert np.array_equal(state.observation[finished], before["observation"][finished]), \
            "a finished row's observation changed"
        assert np.array_equal(state.current_player[finished], before["seat"][finished])
    return illegal


def _try_illegal(env: SelfPlay, state: SelfPlayState, actions: np.ndarray,
                 rng: np.random.Generator) -> None:
    """An illegal action in one live row: with ``illegal_reward`` written into
    ``actions`` for the step to come; without, refused at once, the state left as it
    was."""
    live = ~_snapshot(env, state)["finished"]
    rows = np.flatnonzero(live & ~state.legal_action_mask.all(axis=1))
    if not rows.size:
        return
    row = int(rows[0])
    bad = np.flatnonzero(~state.legal_action_mask[row])
    wrong = actions.copy()
    wrong[row] = int(rng.choice(bad))
    if env.illegal_reward is not None:
        actions[:] = wrong
        return
    before = _snapshot(env, state)
    batch = [a.copy() for a in state.batch]
    try:
        env.step(state, wrong)
    except IllegalMoveError as exc:
        assert f"row {row}" in str(exc), str(exc)
    else:
        raise AssertionError("an illegal action without illegal_reward must refuse the step")
    assert all(np.array_equal(a, b) for a, b in zip(batch, state.batch, strict=True)), \
        "a refused step changed the batch"
    assert np.array_equal(state.observation, before["observation"])
    assert np.array_equal(state.legal_action_mask, before["mask"])


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True id of each row."""
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), np.int64)


def _snapshot(env: SelfPlay, state: SelfPlayState) -> dict[str, Any]:
    """What a step must keep; ``finished``: the rows that stay finished (none with
    autoreset, where ``terminated`` and ``truncated`` are this step's only)."""
    done = state.terminated | state.truncated
    return {"finished": np.zeros_like(done) if env.autoreset else done,
            "terminated": state.terminated.copy(), "truncated": state.truncated.copy(),
            "observation": state.observation.copy(), "mask": state.legal_action_mask.copy(),
            "seat": state.current_player.copy()}


def _same(a: SelfPlayState, b: SelfPlayState) -> bool:
    names = ("current_player", "observation", "legal_action_mask", "rewards", "terminated",
             "truncated")
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in names) and all(
        np.array_equal(x, y) for x, y in zip(a.batch, b.batch, strict=True))


def _cards(env: SelfPlay, state: SelfPlayState) -> list[Any]:
    return [env.engine.hidden_cards(state.batch, i) for i in range(len(state.terminated))]
