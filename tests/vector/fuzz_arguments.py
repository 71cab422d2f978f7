"""Random shapes, dtypes and values thrown at every public entry point of every batched
engine, of ``SelfPlay`` and of the vector environments: each call must give a correct
answer or refuse with a ``ValueError`` / ``IndexError``, never crash.

Run by tests/vector/test_engines.py in a subprocess, so that a segfault fails that test
and not the whole suite: ``python tests/vector/fuzz_arguments.py [--examples N]``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.vector import SelfPlay, game_names, make_engine
from cardtable.vector.gym import GameVectorEnv

ROWS = 4
ENGINES = {name: make_engine(name, max_moves=200) for name in game_names()}
#: an engine of the same game with other options: its batches have another layout
OTHERS = {"sequence": make_engine("sequence", players=4),
          "threethirteen": make_engine("threethirteen", players=5),
          "drawbridge": make_engine("sequence")}
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float32,
          np.float64]
REFUSALS = (ValueError, IndexError)


@st.composite
def arrays(draw: Any, n: int, width: int | None = None) -> Any:
    """Something near what an argument of n rows (and ``width`` columns) wants."""
    kind = draw(st.sampled_from(["none", "int", "float", "list", "array", "array",
                                 "array", "object"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-2**70, 2**70) | st.integers(-3, 12))
    if kind == "float":
        return draw(st.floats(-5, 12) | st.just(float("nan")))
    if kind == "object":
        return draw(st.sampled_from(["rows", object(), [[1, 2], [3]], {"a": 1}]))
    k = draw(st.sampled_from([n, n, n, 0, 1, n + 1, max(n - 1, 0), 3]))
    shape: tuple[int, ...] = (k,)
    if width is not None and draw(st.booleans()):
        shape = (k, draw(st.sampled_from([width, width, width - 1, width + 1, 1])))
    elif draw(st.integers(0, 9)) == 0:
        shape = draw(st.sampled_from([(), (k, 2), (1, k)]))
    dtype = draw(st.sampled_from(DTYPES))
    values = draw(st.sampled_from(["small", "small", "wide", "huge"]))
    size = int(np.prod(shape))
    if values == "small":
        raw = draw(st.lists(st.integers(-2, 12), min_size=size, max_size=size))
    elif values == "wide":
        raw = draw(st.lists(st.integers(-600, 600), min_size=size, max_size=size))
    else:
        raw = draw(st.lists(st.sampled_from([10**8, -10**8, 2**31, 2**63 - 1, -2**62]),
                            min_size=size, max_size=size))
    with np.errstate(all="ignore"):
        arr = np.array(raw, np.int64).astype(dtype).reshape(shape)
    if kind == "list":
        return arr.tolist()
    if draw(st.integers(0, 9)) == 0:
        arr = arr[::-1] if arr.ndim else arr
        arr.flags.writeable = draw(st.booleans())
    return arr


def check_mask(engine: Any, batch: Any, out: Any, rows: Any) -> None:
    try:
        got = engine.legal_mask(batch, out=out, rows=rows)
    except REFUSALS:
        return
    full = engine.legal_mask(batch)
    idx = np.arange(batch.size) if rows is None else np.asarray(rows)
    idx = np.flatnonzero(idx) if idx.dtype == np.bool_ else idx.reshape(-1)
    assert got.shape == (len(idx), engine.num_actions)
    assert (got.astype(np.bool_) == full[idx]).all()


def check_observe(engine: Any, batch: Any, seats: Any, out: Any, rows: Any) -> None:
    try:
        got = engine.observe(batch, seats=seats, out=out, rows=rows)
    except REFUSALS:
        return
    idx = np.arange(batch.size) if rows is None else np.asarray(rows)
    idx = np.flatnonzero(idx) if idx.dtype == np.bool_ else idx.reshape(-1)
    assert got.shape == (len(idx), engine.obs_size) and got.dtype == np.float32
    seat_arr = (np.maximum(batch.current_player[idx], 0) if seats is None
                else np.broadcast_to(np.asarray(seats), idx.shape))
    for r, (i, seat) in enumerate(zip(idx.tolist(), seat_arr.tolist(), strict=True)):
        assert (got[r] == engine.observe(batch, seats=seat, rows=[i])[0]).all()


def one_call(data: Any, name: str) -> None:
    engine = ENGINES[name]
    batch = engine.init(np.arange(ROWS))
    for _ in range(data.draw(st.integers(0, 6))):
        engine.step(batch, engine.random_actions(batch))
    n = batch.size
    target = data.draw(st.sampled_from(["own"] * 8 + ["other", "tuple", "sliced", "none"]))
    if target == "other":
        arg: Any = OTHERS[name].init(np.arange(ROWS))
    elif target == "tuple":
        arg = tuple(batch)
    elif target == "sliced":
        arg = type(batch)(*(x[::2] for x in batch))
    elif target == "none":
        arg = None
    else:
        arg = batch
    point = data.draw(st.sampled_from(["step", "mask", "observe", "random", "play_random",
                                       "reset_rows", "load", "hidden_cards", "empty", "init",
                                       "selfplay", "env", "stock_counts", "to_svg",
                                       "heuristic"]))
    try:
        if point == "step":
            engine.step(arg, data.draw(arrays(n)), active=data.draw(arrays(n)),
                        autoreset=data.draw(st.booleans()))
        elif point == "mask":
            if arg is batch:
                check_mask(engine, batch, data.draw(arrays(n, engine.num_actions)),
                           data.draw(arrays(n)))
            else:
                engine.legal_mask(arg, out=data.draw(arrays(n, engine.num_actions)))
        elif point == "observe":
            if arg is batch:
                check_observe(engine, batch, data.draw(arrays(n)),
                              data.draw(arrays(n, engine.obs_size)), data.draw(arrays(n)))
            else:
                engine.observe(arg, seats=data.draw(arrays(n)))
        elif point == "random":
            engine.random_actions(arg, out=data.draw(arrays(n)))
        elif point == "play_random":
            engine.play_random(arg, data.draw(arrays(n)), active=data.draw(arrays(n)))
        elif point == "reset_rows":
            engine.reset_rows(arg, data.draw(arrays(n)))
        elif point == "load":
            state = data.draw(st.sampled_from([
                engine.game.deal(seed=1), OTHERS[name].game.deal(seed=1), None]))
            engine.load(arg, data.draw(arrays(n)), state)
        elif point == "hidden_cards":
            engine.hidden_cards(arg, data.draw(arrays(n)))
        elif point == "empty":
            size = data.draw(arrays(n))
            if not isinstance(size, int) or size < 1000:  # (a huge batch is no refusal)
                engine.empty(size)
        elif point == "init":
            engine.init(data.draw(arrays(n)))
        elif point == "stock_counts":
            counts = engine.stock_counts(arg)
            assert counts.shape == (n, 52) and counts.max() <= engine.card_copies
        elif point == "to_svg":
            engine.to_svg(arg, data.draw(arrays(n)), data.draw(arrays(n)))
        elif point == "heuristic":
            from cardtable.vector.heuristics import heuristic_actions

            # each game's kernel, on what the fuzz gives it for a batch
            heuristic_actions(engine, arg, data.draw(st.sampled_from(["heuristic",
                                                                      "heuristic-v1"])))
        elif point == "selfplay":
            # today's self-play, and pgx's rules (cardtable.vector.env's)
            rules = data.draw(st.sampled_from([{}, {"autoreset": False,
                                                    "illegal_reward": -1.0}]))
            shape = data.draw(st.sampled_from([{}, {"normalize": True}]))
            play = SelfPlay(game=name, max_moves=200, **rules, **shape)
            state = play.init(np.arange(ROWS))
            play.step(state, data.draw(arrays(ROWS)))
            assert play.observe_all(state).shape == (ROWS, play.num_players, play.engine.obs_size)
            assert play.perfect_information(state).shape == (ROWS,
                                                             play.perfect_information_size)
        else:
            env = GameVectorEnv(num_envs=ROWS, game=name, max_moves=200)
            env.reset(seed=1)
            env.step(data.draw(arrays(ROWS)))
    except REFUSALS:
        pass
    # a refused call leaves the batch as good as before: it still plays
    engine.step(batch, engine.random_actions(batch), active=batch.over == 0)


def calls_of(name: str) -> Any:
    def run(data: Any) -> None:
        one_call(data, name)
    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=150, help="per engine")
    args = parser.parse_args(argv)
    for name in ENGINES:
        settings(max_examples=args.examples, deadline=None, database=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))(given(st.data())(calls_of(name)))()
        print(f"{name}: {args.examples} calls answered or refused", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
