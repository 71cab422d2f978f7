"""The batched heuristics as the vector environment's opponents, and their registry
(``cardtable.vector.heuristics``; issue 36): every game takes ``opponents="heuristic"`` and
``"heuristic-v1"``, and a random learner fares far worse against them than against random
moves."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

from cardtable.core import OptionsError  # noqa: E402
from cardtable.vector import heuristics as registry  # noqa: E402
from cardtable.vector import make_engine  # noqa: E402
from cardtable.vector.gym import GameVectorEnv  # noqa: E402


def learner_score(game: str, opponents: str, matches: int, **options: Any) -> float:
    """A random learner's share of the points (win 1, draw 1/2) against ``opponents``."""
    env = GameVectorEnv(num_envs=20, game=game, opponents=opponents, **options)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(2)
    points = 0.0
    ended = 0
    while ended < matches:
        mask = info["action_mask"]
        _, rewards, terminated, truncated, info = env.step(
            (rng.random(mask.shape) * mask).argmax(axis=1))
        done = terminated | truncated
        ended += int(done.sum())
        points += float(((rewards[done] + 1) / 2).sum())
    return points / ended


@pytest.mark.parametrize(("game", "kind", "options"), [
    # random matches of Three Thirteen are long (about 6 s on a quiet machine)
    pytest.param("threethirteen", "heuristic-v1", {"players": 2}, marks=pytest.mark.slow),
    ("drawbridge", "heuristic-v1", {"target": 30, "undertricks": True}),
    ("drawbridge", "heuristic", {"target": 30, "undertricks": True}),
])
def test_a_random_learner_loses_to_the_batched_heuristic(game: str, kind: str,
                                                         options: dict[str, Any]) -> None:
    against_random = learner_score(game, "random", 20, **options)
    against_heuristic = learner_score(game, kind, 20, **options)
    assert against_random > 0.3 and against_heuristic < 0.15, (against_random,
                                                               against_heuristic)


def test_every_game_offers_both_heuristics_and_plays_them() -> None:
    """Every game's kernel plays ``heuristic-v1`` and ``heuristic`` (Draw Bridge's calls by
    expected points now: its kernel module plays each kind itself)."""
    for game in ("sequence", "threethirteen", "drawbridge"):
        kinds = registry.batched_kinds(game)
        assert kinds == ("heuristic", "heuristic-v1")
        engine = make_engine(game)
        batch = engine.init(np.arange(8))
        for kind in kinds:
            actions = registry.heuristic_actions(engine, batch, kind)
            assert engine.legal_mask(batch)[np.arange(8), actions].all()
            scores = registry.heuristic_scores(engine, batch, kind)
            assert (scores[np.arange(8), actions] == scores.max(axis=1)).all()
        with pytest.raises(OptionsError, match="no batched 'ismcts'"):
            registry.heuristic_actions(engine, batch, "ismcts")
    assert registry.batched_kinds("chess") == ()


def test_heuristic_is_still_the_yardstick_in_every_game_offered_as_both() -> None:
    """The kernels of ``SAME_AS_V1`` play ``heuristic-v1`` and are offered as ``heuristic``
    too while the game's heuristic is still that bot. A failure here: the game's heuristic
    moved on from its yardstick; take the game out of ``SAME_AS_V1`` (or write its new
    heuristic's kernel, and put the game in ``OWN_KINDS``); Draw Bridge's has moved on."""
    from cardtable.bots.base import heuristic_for

    for game in registry.SAME_AS_V1:
        assert heuristic_for(game, "heuristic") is heuristic_for(game, "heuristic-v1"), game
    for game in registry.OWN_KINDS:
        assert heuristic_for(game, "heuristic") is not heuristic_for(game, "heuristic-v1")


def test_a_heuristic_that_moved_on_from_its_yardstick_is_not_offered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a game is out of ``SAME_AS_V1`` (and not in ``OWN_KINDS``), its kernel, which
    plays the yardstick, answers to ``heuristic-v1`` only."""
    monkeypatch.setattr(registry, "SAME_AS_V1", frozenset({"sequence"}))
    assert registry.batched_kinds("threethirteen") == ("heuristic-v1",)
    with pytest.raises(OptionsError, match="opponents must be 'random' or 'heuristic-v1'"):
        GameVectorEnv(num_envs=2, game="threethirteen", opponents="heuristic")
    GameVectorEnv(num_envs=2, game="threethirteen", opponents="heuristic-v1").reset(seed=1)


def test_the_example_in_the_docs_runs_as_written() -> None:
    import contextlib
    import io
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
    section = docs.read_text(encoding="utf-8").split(
        "### Batched opponents: the heuristics as kernels", 1)[1].split("\n### ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    printed = re.search(r"prints\n\n```\n(.*?)```", section, re.S)
    assert code is not None and printed is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(docs), "exec"), {})
    assert out.getvalue() == printed.group(1)
