"""The training command (python -m cardtable.train, deep Monte-Carlo) end to end on a tiny
budget, its checkpoints, and the NumPy network the trained bot plays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed")
torch = pytest.importorskip("torch", reason="the train extra is not installed: pip install "
                            "-e '.[train]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.bots import make  # noqa: E402
from cardtable.bots.trained import QNet, TrainedBot, shipped  # noqa: E402
from cardtable.core import OptionsError  # noqa: E402
from cardtable.train import dmc  # noqa: E402

TINY = ["--envs", "16", "--chunk", "8", "--hidden", "16,16", "--eval-deals", "1", "--quiet"]


def weights(path: Path) -> list[np.ndarray]:
    with np.load(path) as data:
        return [data[k] for k in sorted(data.files) if k != "meta"]


@pytest.mark.slow
def test_a_tiny_run_trains_checkpoints_resumes_and_plays_as_a_bot(tmp_path: Path) -> None:
    whole, halves = tmp_path / "whole", tmp_path / "halves"
    dmc.main(["threethirteen", "--out", str(whole), "--samples", "3000",
              "--eval-every", "1500", *TINY])
    curve = json.loads((whole / "curve.json").read_text(encoding="utf-8"))
    assert [p["samples"] for p in curve] == [0, 1500, 3000]
    for point in curve:
        r = point["heuristic"]
        assert 0 <= r["low"] <= r["score"] <= r["high"] <= 1 and r["deals"] == 1
    assert (whole / "checkpoint.pt").exists() and (whole / "curve.png").exists()

    # stopped half way, then resumed: the same weights as the run not interrupted
    dmc.main(["threethirteen", "--out", str(halves), "--samples", "1500",
              "--eval-every", "1500", *TINY])
    dmc.main(["threethirteen", "--out", str(halves), "--samples", "3000",
              "--eval-every", "1500", "--resume", *TINY])
    for a, b in zip(weights(whole / "latest.npz"), weights(halves / "latest.npz"),
                    strict=True):
        assert np.array_equal(a, b)

    net = QNet.load(whole / "latest.npz")
    assert net.meta["game"] == "threethirteen" and net.meta["samples"] == 3000
    state = cardtable.new_game("threethirteen").deal(seed=5)
    bot = TrainedBot(1, whole / "latest.npz")
    while not state.is_terminal:
        state.apply(bot.choose(state))
    assert state.is_terminal


def test_the_command_refuses_what_it_cannot_do(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in ((["chess"], "invalid choice"),
                       (["threethirteen", "--samples", "-1"], "--samples must be"),
                       (["threethirteen", "--hidden", "a,b"], "--hidden takes"),
                       (["threethirteen", "--epsilon", "2"], "--epsilon is a share"),
                       (["threethirteen", "--resume"], "no checkpoint")):
        with pytest.raises(SystemExit) as exc:
            dmc.main([*args, "--out", str(tmp_path / "run")])
        assert exc.value.code == 2
        assert said in capsys.readouterr().err


def test_pytorch_and_numpy_give_the_same_values() -> None:
    net = dmc.build_net(30, 7, (20, 10))
    scale = np.random.default_rng(1).random(30).astype(np.float32) + 0.5
    q = dmc.to_numpy(net, scale, {"game": "threethirteen"})
    x = np.random.default_rng(2).random((50, 30)).astype(np.float32) * 4
    with torch.no_grad():
        expected = net(torch.from_numpy(x * scale)).numpy()
    assert np.allclose(q.values(x), expected, atol=1e-5)


def test_saved_weights_load_and_bad_files_are_refused(tmp_path: Path) -> None:
    net = dmc.to_numpy(dmc.build_net(12, 5, (8,)), np.ones(12, np.float32),
                       {"game": "threethirteen", "options": {}})
    net.save(tmp_path / "w.npz")
    back = QNet.load(tmp_path / "w.npz")
    x = np.random.default_rng(3).random((20, 12)).astype(np.float32)
    assert np.allclose(back.values(x), net.values(x), atol=2e-2)   # float16 on disk
    (tmp_path / "bad.npz").write_bytes(b"not weights")
    with pytest.raises(OptionsError, match="not a trained network"):
        QNet.load(tmp_path / "bad.npz")


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"aces": "both"}])
def test_the_shipped_bot_plays_only_legal_moves(options: dict[str, object]) -> None:
    """Against random play, with the shipped weights (two players, the default rules) or
    the heuristic where the weights do not fit the options."""
    game = cardtable.new_game("threethirteen", **options)
    for seed in range(2):
        state = game.deal(seed=seed)
        bots = [make("trained", seed=seed)] + [make("random", seed=seed + s)
                                               for s in range(1, game.num_players)]
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_the_trained_bot_reads_only_what_its_seat_may_know() -> None:
    """The same move from two states that differ only in cards hidden from the seat."""
    assert shipped("threethirteen") is not None
    rng = random.Random(7)
    game = cardtable.new_game("threethirteen")
    bot = make("trained", seed=1)
    checked = 0
    for seed in range(3):
        state = game.deal(seed=seed)
        while not state.is_terminal and checked < 120:
            seat = state.current_player
            assert seat is not None
            other = state.resample(seat, rng)
            assert bot.choose(other) == bot.choose(state)
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked == 120


def test_the_batched_and_the_bot_s_penalties_after_each_move_agree() -> None:
    """The feature the network's values are offset by: the batched engine's (training)
    and the bot's own, from its seat's observation (play), on positions of random games."""
    from cardtable.bots.trained import penalties_after
    from cardtable.vector.threethirteen import VectorThreeThirteen

    engine = VectorThreeThirteen(players=2)
    rng = random.Random(3)
    compared = 0
    for seed in range(3):
        state = cardtable.new_game("threethirteen").deal(seed=seed)
        while not state.is_terminal:
            if rng.random() < 0.15:
                batched = engine.penalties_after(engine.from_states([state]))[0]
                assert np.array_equal(batched, penalties_after(state))
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 100


def test_an_untrained_network_plays_the_least_penalty_move() -> None:
    """A network trained with the penalties starts at zero: its moves are then the ones
    that leave the least penalty (the lowest id among equals)."""
    from cardtable.bots.trained import penalties_after

    run = dmc.Run("threethirteen", Path("unused"), 1, 4, 16, 1e-3, 0.0, (8,), "cpu")
    bot = TrainedBot(1, run.numpy_net())
    state = cardtable.new_game("threethirteen").deal(seed=2)
    for _ in range(40):
        legal = state.legal_actions()
        pen = penalties_after(state)
        least = min(pen[a.id] for a in legal)
        assert bot.choose(state) == next(a for a in legal if pen[a.id] == least)
        state.apply(random.Random(len(state.history)).choice(legal))


def test_a_tiny_sequence_run_writes_weights_the_bot_plays(tmp_path: Path) -> None:
    dmc.main(["sequence", "--out", str(tmp_path), "--samples", "1000", "--eval-every",
              "1000", *TINY])
    bot = TrainedBot(2, tmp_path / "latest.npz")
    state = cardtable.new_game("sequence").deal(seed=3)
    for _ in range(30):
        action = bot.choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_a_move_bootstraps_from_the_same_seat_s_next_move_in_its_segment() -> None:
    serial = np.array([5, 5, 5, 5, 6, 5])
    seat = np.array([0, 1, 0, 1, 0, 0])
    assert dmc._next_of_seat(serial, seat).tolist() == [2, 3, 5, -1, -1, -1]


def test_a_tiny_bootstrapped_run(tmp_path: Path) -> None:
    dmc.main(["threethirteen", "--out", str(tmp_path), "--samples", "1500", "--eval-every",
              "1500", "--target", "td", *TINY])
    assert QNet.load(tmp_path / "latest.npz").meta["target"] == "td"
    with pytest.raises(SystemExit, match="another game, network or target"):
        dmc.main(["threethirteen", "--out", str(tmp_path), "--samples", "3000",
                  "--eval-every", "1500", "--resume", *TINY])


def test_two_trained_bots_end_their_matches() -> None:
    """3.4 lets a player take the top discard and throw it back; two bots doing so in turn
    would never end a round. The trained bot takes only to lower its penalty."""
    game = cardtable.new_game("threethirteen")
    for seed in range(3):
        state = game.deal(seed=seed)
        bots = [make("trained", seed=1), make("trained", seed=2)]
        while not state.is_terminal:
            assert len(state.history) < 3000, "a round that does not end"
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state))
