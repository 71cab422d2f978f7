"""Training Draw Bridge's draw phase (python -m cardtable.train drawbridge) end to end on a
tiny budget: the curve, the checkpoint, the resume, the weights the bots play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed")

from cardtable.bots.drawbridge_draw import DrawWeights, draw_card  # noqa: E402
from cardtable.drawbridge.game import DrawBridgeGame, DrawBridgeState  # noqa: E402
from cardtable.train import dmc, draw  # noqa: E402

TINY = ["--deals", "3", "--pairs", "1", "--eval-every", "1", "--eval-deals", "2", "--quiet"]


def test_a_tiny_run_trains_checkpoints_resumes_and_plays(tmp_path: Path) -> None:
    whole, halves = tmp_path / "whole", tmp_path / "halves"
    dmc.main(["drawbridge", "--out", str(whole), "--generations", "2", *TINY])
    curve = json.loads((whole / "curve.json").read_text(encoding="utf-8"))
    assert [p["generation"] for p in curve] == [0, 1, 2]
    for point in curve:
        r = point["heuristic"]
        assert 0 <= r["low"] <= r["score"] <= r["high"] <= 1 and r["deals"] == 2
    assert curve[0]["fitness"] is None and 0 <= curve[1]["fitness"] <= 1
    assert (whole / "checkpoint.json").exists()

    # stopped half way, then resumed: the same weights as the run not interrupted
    dmc.main(["drawbridge", "--out", str(halves), "--generations", "1", *TINY])
    dmc.main(["drawbridge", "--out", str(halves), "--generations", "2", "--resume", *TINY])
    made = json.loads((whole / "weights.json").read_text(encoding="utf-8"))
    assert made == json.loads((halves / "weights.json").read_text(encoding="utf-8"))
    assert made["generations"] == 2 and made["trained_with"]["seed"] == 1
    assert DrawWeights.load(whole / "weights.json").vector() != DrawWeights.start().vector()

    weights = DrawWeights.load(whole / "weights.json")
    state = DrawBridgeGame().deal(seed=5)
    assert isinstance(state, DrawBridgeState)
    while state.phase == "draw":
        state.apply(draw_card(state, weights))
    assert state.phase == "auction"


def test_the_fitness_is_both_seatings_of_one_deal() -> None:
    start = DrawWeights.start().vector()
    first, second, points0, points1 = draw.play_deal((start, 7))
    assert 0 <= first <= 1 and 0 <= second <= 1
    assert draw.play_deal((start, 7)) == (first, second, points0, points1)  # no chance left


def test_the_command_refuses_what_it_cannot_do(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "done").mkdir()
    (tmp_path / "done" / "checkpoint.json").write_text("{}", encoding="utf-8")
    for args, said in ((["--generations", "0"], "--generations must be"),
                       (["--eval-deals", "-1"], "--eval-deals must be"),
                       (["--sigma", "0"], "--sigma and --step"),
                       (["--resume"], "no checkpoint"),
                       (["--out", str(tmp_path / "done")], "holds a run already")):
        with pytest.raises(SystemExit) as exc:
            dmc.main(["drawbridge", "--out", str(tmp_path / "run"), *args])
        assert exc.value.code == 2
        assert said in capsys.readouterr().err
