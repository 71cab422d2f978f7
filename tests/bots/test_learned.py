"""The learned Sequence bot: its weights load, it plays whole games, it is deterministic,
and the training command runs."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

import cardtable
from cardtable.bots import make, sequence_learned
from cardtable.bots.sequence import HEURISTIC
from cardtable.bots.sequence_learned import (
    FEATURES,
    HEURISTIC_WEIGHTS,
    LearnedSequenceBot,
    load_weights,
    move_scores,
)
from cardtable.core import OptionsError
from cardtable.train import evolve as train_sequence


def test_the_shipped_weights_load() -> None:
    weights = load_weights()
    assert len(weights) == len(FEATURES)
    assert all(isinstance(w, float) for w in weights)
    # they are not the heuristic's: something was learned
    assert weights != tuple(HEURISTIC_WEIGHTS)


def test_learned_plays_whole_games_with_legal_moves() -> None:
    game = cardtable.new_game("sequence")
    for seed in range(3):
        state = game.deal(seed=seed)
        players = [make("learned", seed=1), make("heuristic-v1", seed=2)]
        for _ in range(3000):
            if state.is_terminal:
                break
            action = players[state.current_player].choose(state)  # type: ignore[index]
            assert action in state.legal_actions()
            state.apply(action)
        assert state.is_terminal


def test_same_seed_same_moves() -> None:
    def moves(seed: int) -> list[str]:
        state = cardtable.new_game("sequence").deal(seed=5)
        players = [make("learned", seed=seed), make("learned", seed=seed + 1)]
        out: list[str] = []
        while not state.is_terminal and len(out) < 400:
            action = players[state.current_player].choose(state)  # type: ignore[index]
            out.append(action.notation)
            state.apply(action)
        return out

    assert moves(3) == moves(3)


def test_heuristic_weights_score_as_the_heuristic() -> None:
    # with the heuristic's weights, the features reproduce its scores (up to the cost of a
    # two-eyed jack, which the heuristic waives for any score over 800)
    state = cardtable.new_game("sequence").deal(seed=9)
    bots = [make("heuristic", seed=1), make("heuristic", seed=2)]
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        ours = move_scores(state, seat, HEURISTIC_WEIGHTS)
        theirs = HEURISTIC.scores(state, seat)
        for (a, x), (b, y) in zip(ours, theirs, strict=True):
            assert x == y
            assert a == pytest.approx(min(b, 1e9), abs=1e-6) or b >= 800
        state.apply(bots[seat].choose(state))
        if state.is_terminal:
            break


def test_learned_falls_back_to_the_heuristic_elsewhere() -> None:
    state = cardtable.new_game("threethirteen").deal(seed=2)
    assert make("learned", seed=4).choose(state) == make("heuristic", seed=4).choose(state)


def test_learned_sequence_bot_refuses_another_game() -> None:
    state = cardtable.new_game("drawbridge").deal(seed=2)
    with pytest.raises(OptionsError, match="Sequence only"):
        LearnedSequenceBot(1).choose(state)


def test_training_runs_on_a_tiny_budget(tmp_path: Path) -> None:
    out = tmp_path / "weights.json"
    assert train_sequence.main(["--seed", "3", "--generations", "1", "--deals", "1",
                                "--pairs", "1", "--workers", "1", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert list(data["weights"]) == list(FEATURES)


@pytest.mark.slow
def test_training_is_reproducible(tmp_path: Path) -> None:
    runs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}.json"
        train_sequence.main(["--seed", "4", "--generations", "2", "--deals", "4", "--pairs",
                             "2", "--workers", str(workers), "--out", str(out)])
        runs.append(json.loads(out.read_text())["weights"])
    assert runs[0] == runs[1]


def test_weights_can_be_tried_by_arena_spec() -> None:
    bot = sequence_learned.make(seed=1, fork=50)
    assert bot.weights[FEATURES.index("fork")] == 50.0
    assert bot.weights[0] == load_weights()[0]
    with pytest.raises(OptionsError, match="unknown feature"):
        sequence_learned.make(seed=1, speed=3)


@pytest.mark.parametrize("sign", [1, -1], ids=["shipped", "negated"])
def test_evaluate_prints_the_win_rate_of_the_weights_given(
        sign: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the shipped weights, and the same negated (a bot that picks what it values least)
    shipped = json.loads(resources.files("cardtable.bots").joinpath(
        "data", "sequence_weights.json").read_text())["weights"]
    named = {name: sign * float(shipped[name]) for name in FEATURES}
    path = tmp_path / "weights.json"
    path.write_text(json.dumps({"weights": named}))
    assert train_sequence.main(["--evaluate", str(path), "--seed", "1", "--deals", "2",
                                "--workers", "1"]) == 0
    # the same 2 deals (4 games) of seed 1, played here against heuristic-v1
    rng = random.Random(1)
    deals = [(rng.getrandbits(62), rng.getrandbits(62)) for _ in range(2)]
    rate = train_sequence.win_rate(None, [named[name] for name in FEATURES], deals)
    assert capsys.readouterr().out == f"{rate:.4f} of 4 games\n"
    # the negated weights lose every game; the shipped ones win some
    assert (rate == 0.0) == (sign == -1), rate
