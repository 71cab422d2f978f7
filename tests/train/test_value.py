"""Sequence's afterstate value network: the afterstates shared by training and play, the
NumPy network against PyTorch's, the training command's value method end to end on a tiny
budget, and the trained bot (legal, reads only what its seat may know)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="the vector extra is not installed")

import cardtable  # noqa: E402
from cardtable.bots import make  # noqa: E402
from cardtable.bots.sequence_value import (  # noqa: E402
    HAND,
    HAND_SIZES,
    STOCK,
    ValueNet,
    afterstates,
    inputs,
    shipped,
    won,
)
from cardtable.bots.trained import TrainedBot, load  # noqa: E402
from cardtable.core import OptionsError  # noqa: E402
from cardtable.sequence.game import PASS  # noqa: E402


def random_net(seed: int = 1) -> ValueNet:
    rng = np.random.default_rng(seed)

    def layer(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        return (rng.normal(0, 0.3, (a, b)).astype(np.float32),
                rng.normal(0, 0.1, b).astype(np.float32))

    return ValueNet([layer(35, 16), layer(16, 12)], [layer(12 + 8, 10), layer(10, 1)],
                    {"game": "sequence", "options": {"players": 2, "teams": 2,
                                                     "max_turns": None}})


def test_the_afterstate_is_the_engine_s_observation_after_the_move_hidden_draw_aside() -> None:
    """From the mover's observation and its move alone, the mover's observation after the
    move as the batched engine gives it, less the card then drawn (the hand one card short,
    the stock one card more): every kind of move, sequences and wins among them."""
    from cardtable.vector.sequence import VectorSequence
    from cardtable.vector.sequence_heuristic import heuristic_actions

    engine = VectorSequence(players=2)
    batch = engine.init(np.arange(96))
    rng = np.random.default_rng(0)
    checked = wins = claims = 0
    for _ in range(160):
        seats = batch.current_player.copy()
        before = engine.observe(batch, seats)
        actions = heuristic_actions(engine, batch)
        explore = rng.random(batch.size) < 0.3
        actions[explore] = engine.random_actions(batch)[explore]
        mine = afterstates(before, actions)
        res = engine.step(batch, actions, autoreset=False)
        after = engine.observe(batch, seats)
        for i in np.flatnonzero(before[:, STOCK] > 0):   # no reshuffle of the discards
            diff = after[i] - mine[i]
            if won(mine[i:i + 1])[0]:
                assert res.terminated[i]
                wins += 1
            elif actions[i] != PASS:
                drawn = diff[HAND:HAND + 52]
                assert drawn.min() == 0 and drawn.sum() == 1
                assert diff[HAND_SIZES] == 1 and diff[STOCK] == -1
                diff[HAND:HAND + 52] = 0
                diff[HAND_SIZES] = diff[STOCK] = 0
            claims += int(mine[i, 516] > before[i, 516])
            assert not diff.any(), (i, int(actions[i]), np.flatnonzero(diff))
            checked += 1
        ended = np.flatnonzero(np.asarray(res.terminated) | np.asarray(res.truncated))
        engine.reset_rows(batch, ended)
    assert checked > 10_000 and wins > 20 and claims > 40


def test_pytorch_and_numpy_give_the_same_values() -> None:
    torch = pytest.importorskip("torch", reason="the train extra is not installed")
    from cardtable.train import value

    torch.manual_seed(3)
    net = value.build((16, 12), (10,))
    for p in net.parameters():   # away from the initial values: a fair comparison
        p.data += 0.1 * torch.randn_like(p)
    numpy_net = value.to_numpy(net, {"game": "sequence"})
    rng = np.random.default_rng(4)
    obs = np.zeros((40, 523), np.float32)
    board = rng.integers(0, 3, (40, 100))
    obs[:, :100], obs[:, 100:200] = board == 1, board == 2
    obs[:, 300:400] = rng.random((40, 100)) < 0.05
    obs[:, 400:504] = rng.integers(0, 3, (40, 104))
    obs[:, 516:518] = rng.integers(0, 2, (40, 2))
    obs[:, 519] = rng.integers(0, 100, 40)
    windows, scalars = inputs(obs)
    with torch.no_grad():
        expected = net(torch.from_numpy(windows), torch.from_numpy(scalars)).numpy()
    assert np.allclose(numpy_net.logits(obs), expected, atol=1e-4)


def test_the_bot_s_incremental_values_are_the_whole_network_s() -> None:
    """The bot computes only the windows a move changes: the same values as the network
    over every window of every afterstate."""
    net = random_net()
    state = cardtable.new_game("sequence").deal(seed=5)
    from cardtable.encoders import encoder_for

    encoder = encoder_for(state.game)
    rng = random.Random(5)
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        obs = encoder.encode(state, seat)
        ids = np.array([a.id for a in state.legal_actions()])
        full = net.values(afterstates(np.broadcast_to(obs, (len(ids), len(obs))), ids))
        assert np.allclose(net.afterstate_values(obs, ids), full, atol=1e-5)
        state.apply(rng.choice(state.legal_actions()))


def test_a_tiny_value_run_trains_checkpoints_resumes_and_plays_as_a_bot(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra is not installed")
    from cardtable.train import dmc

    tiny = ["--method", "value", "--positions", "3000", "--holdout", "600", "--batch", "128",
            "--hidden", "8,8,8", "--eval-every", "1024", "--quiet"]
    whole, halves = tmp_path / "whole", tmp_path / "halves"
    dmc.main(["sequence", "--out", str(whole), "--samples", "2048", "--eval-deals", "1",
              *tiny])
    curve = json.loads((whole / "curve.json").read_text(encoding="utf-8"))
    assert [p["samples"] for p in curve] == [0, 1024, 2048]
    held = curve[-1]["held_out"]
    assert held["positions"] == 600 and held["log_loss"] > 0 and held["calibration"]
    assert 0 <= curve[-1]["heuristic"]["score"] <= 1
    assert (whole / "curve.png").exists()
    dmc.main(["sequence", "--out", str(halves), "--samples", "1024", "--eval-deals", "0",
              *tiny])
    dmc.main(["sequence", "--out", str(halves), "--samples", "2048", "--eval-deals", "0",
              "--resume", *tiny])
    with np.load(whole / "latest.npz") as a, np.load(halves / "latest.npz") as b:
        for key in a.files:
            if key != "meta":
                assert np.array_equal(a[key], b[key]), key
    net = load(whole / "latest.npz")
    assert isinstance(net, ValueNet) and net.meta["samples"] == 2048
    bot = TrainedBot(1, whole / "latest.npz")
    state = cardtable.new_game("sequence").deal(seed=3)
    for _ in range(40):
        action = bot.choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    with pytest.raises(SystemExit):
        dmc.main(["threethirteen", "--out", str(tmp_path / "tt"), "--samples", "10", *tiny])
    (tmp_path / "bad.npz").write_bytes(b"not weights")
    with pytest.raises(OptionsError):
        load(tmp_path / "bad.npz")


def test_bot_games_are_labelled_afterstates_the_same_from_the_same_seed() -> None:
    from cardtable.train import value

    kinds = ("blend", "heuristic-v1")
    obs, labels, numbers = value.bot_games(4, seed=3, kinds=kinds, net=random_net())
    assert obs.shape == (len(labels), 523) and obs.dtype == np.uint8
    assert sorted(set(numbers.tolist())) == [0, 1, 2, 3]
    for number in range(4):   # one seat won: 1 for its moves, 0 for the other's
        assert set(labels[numbers == number].tolist()) in ({0.0, 1.0}, {0.5})
    # each game's positions are together, in order
    firsts = np.flatnonzero(np.diff(numbers, prepend=-1))
    assert len(firsts) == 4
    # the same data again from the same seed; the network given is the one played
    again = value.bot_games(4, seed=3, kinds=kinds, net=random_net())
    assert all(np.array_equal(a, b) for a, b in zip((obs, labels, numbers), again,
                                                    strict=True))
    other = value.bot_games(4, seed=3, kinds=kinds, net=random_net(2))
    assert not np.array_equal(obs[:len(other[0])], other[0][:len(obs)])


@pytest.mark.slow
def test_a_value_run_can_start_from_weights_and_learn_from_bot_games(tmp_path: Path) -> None:
    """--init shipped --bot-games: the run starts from the shipped weights (its first
    point is theirs), adds the bots' games to the set, says so in the weights' meta, and
    refuses what it cannot do."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    from cardtable.train import dmc

    args = ["sequence", "--method", "value", "--positions", "600", "--holdout", "300",
            "--batch", "64", "--eval-every", "128", "--eval-deals", "0", "--quiet",
            "--init", "shipped", "--bot-games", "4", "--bots", "blend,learned",
            "--workers", "2"]
    dmc.main([*args, "--out", str(tmp_path / "zero"), "--samples", "0"])
    start = load(tmp_path / "zero" / "latest.npz")
    assert isinstance(start, ValueNet) and start.meta["init"] == "shipped"
    assert start.meta["bot_games"] == 4 and start.meta["bots"] == ["blend", "learned"]
    assert start.meta["positions"] > 600   # the bots' positions too
    net = shipped()
    assert net is not None
    rows = np.random.default_rng(1).integers(0, 3, (20, 523)).astype(np.float32)
    assert np.allclose(start.logits(rows), net.logits(rows), atol=2e-2)   # float16 twice
    dmc.main([*args, "--out", str(tmp_path / "run"), "--samples", "128"])
    assert load(tmp_path / "run" / "latest.npz").meta["samples"] == 128
    (tmp_path / "bad.npz").write_bytes(b"not weights")
    for bad, said in ((["--bots", "clever"], "unknown bot 'clever'"),
                      (["--bot-games", "-1"], "--bot-games must be"),
                      (["--method", "dmc"], "are --method value's"),
                      (["--hidden", "8,8,8"], "leave --hidden out")):
        with pytest.raises(SystemExit) as exc:
            dmc.main([*args, *bad, "--out", str(tmp_path / "bad")])
        assert exc.value.code == 2, said
    with pytest.raises(SystemExit, match="not a Sequence value network"):
        dmc.main([*args, "--init", str(tmp_path / "bad.npz"), "--out", str(tmp_path / "b")])


@pytest.mark.slow
def test_a_fresh_larger_network_can_learn_from_the_games_of_given_weights(
        tmp_path: Path) -> None:
    """--games-by shipped --hidden: the bots play the shipped weights, a fresh network of
    other widths learns from their games (its meta says whose), the learning rate falls
    along a cosine to 0 at --samples, and --init with --games-by is refused."""
    torch = pytest.importorskip("torch", reason="the train extra is not installed")
    from cardtable.train import dmc, value

    args = ["sequence", "--method", "value", "--positions", "600", "--holdout", "300",
            "--batch", "64", "--eval-every", "128", "--eval-deals", "0", "--quiet",
            "--games-by", "shipped", "--bot-games", "2", "--bots", "trained",
            "--hidden", "8,8,8", "--lr-decay", "cosine"]
    dmc.main([*args, "--out", str(tmp_path / "run"), "--samples", "256"])
    net = load(tmp_path / "run" / "latest.npz")
    assert isinstance(net, ValueNet)
    assert value.widths(net) == ((8, 8), (8,))
    assert net.meta["games_by"] == "shipped" and "init" not in net.meta
    assert net.meta["lr_decay"] == "cosine" and net.meta["bot_games"] == 2
    assert net.meta["positions"] > 600
    state = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=False)
    assert state["optimiser"]["param_groups"][0]["lr"] < 1e-4   # near the cosine's end
    with pytest.raises(SystemExit) as exc:
        dmc.main([*args, "--init", "shipped", "--out", str(tmp_path / "bad")])
    assert exc.value.code == 2


def test_the_shipped_bot_plays_only_legal_moves_in_long_random_playouts() -> None:
    assert shipped() is not None
    game = cardtable.new_game("sequence")
    for seed in range(6):   # against random play, and against itself (longer games)
        state = game.deal(seed=seed)
        bots = [make("trained", seed=seed),
                make("random" if seed < 3 else "trained", seed=seed + 1)]
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_the_shipped_bot_reads_only_what_its_seat_may_know() -> None:
    """The same move from two states that differ only in cards hidden from the seat."""
    rng = random.Random(7)
    game = cardtable.new_game("sequence")
    bot = make("trained", seed=1)
    checked = 0
    for seed in range(3):
        state = game.deal(seed=seed)
        while not state.is_terminal and checked < 90:
            seat = state.current_player
            assert seat is not None
            other = state.resample(seat, rng)
            assert bot.choose(other) == bot.choose(state)
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked == 90


def test_other_options_are_played_by_the_heuristic() -> None:
    state = cardtable.new_game("sequence", players=3).deal(seed=1)
    bot = make("trained", seed=1)
    assert bot.choose(state) in state.legal_actions()
