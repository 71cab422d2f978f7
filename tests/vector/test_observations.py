"""Observations a network takes as they come (issue 36): ``normalize``, Sequence's board
``planes``, every seat at once (``observe_all``) and the perfect-information tensor for a
centralised critic, each against the scalar engine's observation in random positions."""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
import cardtable.vector  # noqa: E402
from cardtable.cards import NUM_CARDS, parse_card  # noqa: E402
from cardtable.core import OptionsError, State  # noqa: E402
from cardtable.sequence.board import BOARD  # noqa: E402
from cardtable.vector import SelfPlay, SelfPlayState, api_test, make  # noqa: E402
from cardtable.vector.observations import SEQUENCE_PLANES  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
#: a few option sets of each game (random positions are dealt in each)
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("sequence", {}), ("sequence", {"players": 3}), ("sequence", {"players": 6}),
    ("drawbridge", {}), ("drawbridge", {"show_stock_top": True, "target": 50}),
    ("threethirteen", {}), ("threethirteen", {"players": 4}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in OPTIONS]


def positions(game: str, options: dict[str, Any], count: int, seed: int) -> list[State]:
    """``count`` positions of random play, from a few moves to a few hundred in."""
    rng = random.Random(seed)
    g = cardtable.new_game(game, **options)
    out: list[State] = []
    while len(out) < count:
        state = g.deal(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(1, 250)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state)
    return out


def loaded(env: SelfPlay, states: list[State]) -> SelfPlayState:
    """A SelfPlay state whose rows are ``states``."""
    state = env.init(np.arange(len(states)))
    for i, s in enumerate(states):
        env.engine.load(state.batch, i, s)
    env._refresh(state)  # the state's observation and mask, of the rows loaded
    return state


def stock_of(state: State) -> list[int]:
    """The draw pile of a scalar state (its private field: this is a test)."""
    pile = state._deck if state.game.name == "sequence" else state._stock  # type: ignore
    return list(pile)


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=IDS)
def test_every_seat_and_perfect_information_are_the_scalar_observations(
        game: str, options: dict[str, Any]) -> None:
    env = make(game, **options)
    states = positions(game, options, 6, seed=len(options))
    state = loaded(env, states)
    encoder = env.engine.encoder
    n, players, size = len(states), env.num_players, encoder.size
    every = env.observe_all(state)
    assert every.shape == (n, players, size) and every.dtype == np.float32
    perfect = env.perfect_information(state)
    assert perfect.shape == (n, env.perfect_information_size) == (
        n, players + players * size + NUM_CARDS)
    assert perfect.dtype == np.float32
    for i, s in enumerate(states):
        expected = np.stack([encoder.encode(s, seat) for seat in range(players)])
        assert np.array_equal(every[i], expected), (game, i)
        for seat in range(players):
            assert np.array_equal(env.observe(state, seat)[i], expected[seat])
        one_hot = np.zeros(players, np.float32)
        one_hot[s.current_player] = 1
        assert np.array_equal(perfect[i, :players], one_hot)
        assert np.array_equal(perfect[i, players:-NUM_CARDS], expected.reshape(-1))
        stock = np.zeros(NUM_CARDS, np.float32)
        for card, copies in Counter(stock_of(s)).items():
            stock[card] = copies
        assert np.array_equal(perfect[i, -NUM_CARDS:], stock), (game, i)
    # what a seat sees is not the perfect information: the state's own arrays are untouched
    assert state.observation.shape == (n, size)
    assert np.array_equal(state.observation, env.observe(state))


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=IDS)
def test_normalised_observations_are_the_counts_over_their_maxima(
        game: str, options: dict[str, Any]) -> None:
    raw, env = make(game, **options), make(game, normalize=True, **options)
    states = positions(game, options, 6, seed=7)
    high = env.engine.encoder.high
    plain, scaled = loaded(raw, states), loaded(env, states)
    assert env.observation_shape == raw.observation_shape
    for seat in range(env.num_players):
        a, b = raw.observe(plain, seat), env.observe(scaled, seat)
        assert b.dtype == np.float32
        assert np.array_equal(b, np.divide(a, high, dtype=np.float32))
        assert ((b >= 0) & (b <= 1)).all()
    every = env.observe_all(scaled)
    assert ((every >= 0) & (every <= 1)).all()
    perfect = env.perfect_information(scaled)
    assert ((perfect >= 0) & (perfect <= 1)).all()
    assert np.allclose(perfect[:, -NUM_CARDS:] * env.engine.card_copies,
                       raw.perfect_information(plain)[:, -NUM_CARDS:])
    # state.observation after a step is normalised too (and stays in [0, 1] in play)
    st = env.init(np.arange(16))
    rng = np.random.default_rng(0)
    for _ in range(60):
        mask = st.legal_action_mask
        st = env.step(st, (rng.random(mask.shape) * mask).argmax(axis=1))
        assert ((st.observation >= 0) & (st.observation <= 1)).all()


def test_normalised_scores_in_a_match_near_its_end_stay_within_one() -> None:
    """Draw Bridge's scores and Three Thirteen's totals are the largest counts: their bound
    is the most a match can reach."""
    for game in ("drawbridge", "threethirteen"):
        env = make(game, normalize=True, max_moves=3000)
        st = env.init(np.arange(32))
        rng = np.random.default_rng(1)
        seen = 0.0
        while not (st.terminated | st.truncated).all():
            mask = st.legal_action_mask
            st = env.step(st, (rng.random(mask.shape) * mask).argmax(axis=1))
            seen = max(seen, float(st.observation.max()))
            assert st.observation.max() <= 1 and st.observation.min() >= 0
        assert seen > 0


def test_sequence_planes_are_the_flat_observation_laid_on_the_board() -> None:
    flat_env, env = make("sequence", players=3), make("sequence", players=3, planes=True)
    assert env.observation_shape == (33, 10, 10) == (
        sum(k for _, k, _ in SEQUENCE_PLANES), 10, 10)
    states = positions("sequence", {"players": 3}, 8, seed=3)
    flat_state, state = loaded(flat_env, states), loaded(env, states)
    encoder = env.engine.encoder
    cards = [[parse_card(c) if c != "XX" else -1 for c in row] for row in BOARD]
    jacks = [parse_card(j) for j in ("JS", "JH", "JD", "JC")]
    every = env.observe_all(state)
    assert every.shape == (8, 3, 33, 10, 10) and every.dtype == np.float32
    for seat in range(3):
        planes, flat = env.observe(state, seat), flat_env.observe(flat_state, seat)
        assert planes.shape == (8, 33, 10, 10)
        assert np.array_equal(every[:, seat], planes)
        for i in range(8):
            p, parts = planes[i], encoder.split(flat[i])
            assert np.array_equal(p[0:3], parts["chips"])
            assert np.array_equal(p[3], parts["locked"])
            for r in range(10):
                for c in range(10):
                    card = cards[r][c]
                    assert p[4, r, c] == (parts["hand"][card] if card >= 0 else 0)
                    assert p[5, r, c] == (parts["discards"][card] if card >= 0 else 0)
            constants = np.concatenate([parts["hand"][jacks], parts["discards"][jacks],
                                        parts["hand_sizes"], parts["sequences"],
                                        parts["stock_size"], parts["exchanged_dead_card"],
                                        parts["sequences_needed"], parts["turns_left"]])
            assert np.array_equal(p[6:, 0, 0], constants)
            assert (p[6:] == p[6:, :1, :1]).all()  # constant planes
    # nothing is lost: every flat entry is in some plane
    index = env.format.plane_index
    assert index is not None and set(range(encoder.size)) <= set(index.ravel().tolist())
    assert np.array_equal(state.observation, env.observe(state))
    # with normalize, the planes of the normalised tensor, all in [0, 1]
    both = make("sequence", players=3, planes=True, normalize=True)
    scaled = both.observe(loaded(both, states))
    assert np.array_equal(scaled, env.format.convert(
        np.divide(flat_env.observe(flat_state), encoder.high, dtype=np.float32)))
    assert ((scaled >= 0) & (scaled <= 1)).all()


@pytest.mark.parametrize("options", [{"planes": True}, {"normalize": True},
                                     {"planes": True, "normalize": True, "players": 4}])
def test_api_test_passes_with_every_observation_option(options: dict[str, Any]) -> None:
    api_test(make("sequence", max_moves=150, **options), num=6)
    if "planes" not in options:
        for game in ("drawbridge", "threethirteen"):
            api_test(make(game, max_moves=150, **options), num=4)


def test_a_finished_row_has_no_seat_to_act_in_the_perfect_information() -> None:
    env = make("sequence", players=2, max_moves=30)
    state = env.init(np.arange(4))
    rng = np.random.default_rng(0)
    while not (state.terminated | state.truncated).all():
        mask = state.legal_action_mask
        state = env.step(state, (rng.random(mask.shape) * mask).argmax(axis=1))
    assert not env.perfect_information(state)[:, :2].any()
    live = make("sequence", players=2).init(np.arange(4))
    assert (make("sequence", players=2).perfect_information(live)[:, :2].sum(axis=1) == 1).all()


def test_bad_observation_options_are_refused() -> None:
    with pytest.raises(OptionsError, match="planes=True is Sequence's"):
        make("drawbridge", planes=True)
    with pytest.raises(OptionsError, match="normalize must be True or False"):
        SelfPlay("sequence", normalize=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="state must be the SelfPlayState"):
        make("sequence").perfect_information(None)  # type: ignore[arg-type]


def test_make_and_env_are_the_registry_and_make_engine_the_engine() -> None:
    assert cardtable.vector.make is cardtable.vector.env
    e = cardtable.vector.make("sequence")
    assert isinstance(e, SelfPlay) and e.autoreset is False and e.illegal_reward == -1.0
    assert isinstance(cardtable.vector.make_engine("sequence"), cardtable.vector.VectorSequence)


def test_the_example_in_the_docs_runs_as_written() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Observations for networks", 1)[1].split("\n### ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOCS), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines == ["(256, 33, 10, 10) 0.0 1.0", "(256, 2, 33, 10, 10)", "(256, 1100)"]


def test_the_gymnasium_vector_env_shapes_its_observations_alike() -> None:
    """``GameVectorEnv(normalize=..., planes=...)``: the learner's observations, their space,
    ``final_obs`` and a batched opponent's input are ``SelfPlay``'s format of the engine's
    flat observation."""
    pytest.importorskip("gymnasium")
    from gymnasium.spaces import Box

    from cardtable.vector.gym import GameVectorEnv

    seen: list[tuple[int, ...]] = []

    def opponent(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen.append(observations.shape[1:])
        return (np.random.default_rng(len(seen)).random(masks.shape) * masks).argmax(axis=1)

    env = GameVectorEnv(4, opponents=opponent, normalize=True, planes=True, max_moves=40)
    fmt = SelfPlay("sequence", normalize=True, planes=True).format
    assert env.single_observation_space.shape == (33, 10, 10) == fmt.shape
    space = env.single_observation_space
    assert isinstance(space, Box) and space.high.max() == 1.0
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(30):
        assert obs.shape == (4, 33, 10, 10) and env.observation_space.contains(obs)
        flat = env.engine.observe(env.batch, seats=env.seat)
        assert np.array_equal(obs, fmt.convert(flat))
        mask = info["action_mask"]
        obs, _, terminated, truncated, info = env.step((rng.random(mask.shape) * mask)
                                                       .argmax(axis=1))
        for i in np.flatnonzero(terminated | truncated):
            assert info["final_obs"][i].shape == (33, 10, 10)
            ended += 1
    assert ended and set(seen) == {(33, 10, 10)}
    bridge = GameVectorEnv(3, game="drawbridge", normalize=True)
    obs, _ = bridge.reset(seed=1)
    assert obs.shape == (3, 551) and obs.min() >= 0.0 and obs.max() <= 1.0
    assert bridge.observation_space.contains(obs)
    with pytest.raises(OptionsError, match="planes=True is Sequence's"):
        GameVectorEnv(2, game="drawbridge", planes=True)
