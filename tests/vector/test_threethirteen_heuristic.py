"""Three Thirteen's batched heuristic against the scalar bot, move for move (issue 36): in
every row of a batch and at every step, each legal action's score equals the score
``HeuristicBot("heuristic")`` gives it, so the kernel's move is one of the bot's best;
the match then goes on with that move in both engines (heuristic against heuristic, so
that taking, going out and the reshuffle come up). Where the engines shuffle in their own
order (a round's deal, its reshuffle) the batch is given the scalar engine's cards."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.bots.base import HeuristicBot, heuristic_for  # noqa: E402
from cardtable.threethirteen.game import DRAW, TAKE, ThreeThirteenState  # noqa: E402
from cardtable.vector import VectorThreeThirteen, make_engine  # noqa: E402
from cardtable.vector import threethirteen_heuristic as batched  # noqa: E402
from cardtable.vector.threethirteen_heuristic import (  # noqa: E402
    heuristic_actions,
    heuristic_scores,
)
from tests.configs import CONFIGS, params  # noqa: E402

THREETHIRTEEN = [c for c in CONFIGS if c.game == "threethirteen"]


def play_both(options: dict[str, Any], states: list[ThreeThirteenState], steps: int,
              seed: int, version: str = "heuristic") -> Counter[str]:
    """Rows of the batched engine holding ``states``, each step the kernel's move played
    in both; returns what came up."""
    engine = VectorThreeThirteen(**options)
    batch = engine.from_states(states)
    bot = HeuristicBot(seed, version)
    seen: Counter[str] = Counter()
    for _ in range(steps):
        scores = heuristic_scores(engine, batch)
        actions = heuristic_actions(engine, batch)
        for r, state in enumerate(states):
            if state.is_terminal:
                assert actions[r] == -1 and np.isneginf(scores[r]).all()
                continue
            seat = state.current_player
            assert seat is not None
            expected = {a.id: s for s, a in bot.scores(state, seat)}
            legal = np.flatnonzero(~np.isneginf(scores[r]))
            assert sorted(expected) == legal.tolist(), (r, "the legal actions differ")
            for a, s in expected.items():
                assert scores[r, a] == s, (r, a, s, scores[r, a])
            best = max(expected.values())
            top = {a for a, s in expected.items() if s >= best - 1e-9}
            assert int(actions[r]) in top, (r, int(actions[r]), top)
            assert bot.choose(state).id in top  # the scalar bot's own choice is one of them
            seen["positions"] += 1
            seen["ties"] += len(top) > 1
            a = int(actions[r])
            seen["draw" if a == DRAW else "take" if a == TAKE else "discard"] += 1
        live = np.array([not s.is_terminal for s in states])
        if not live.any():
            break
        before = [(s.round, s.reshuffled, s.went_out) for s in states]
        engine.step(batch, np.where(live, actions, 0), active=live, autoreset=False)
        for r, state in enumerate(states):
            if not live[r]:
                continue
            state.apply(int(actions[r]))
            round_, reshuffled, went_out = before[r]
            seen["went out"] += went_out is None and state.went_out is not None
            seen["reshuffled"] += state.reshuffled and not reshuffled
            seen["ended"] += state.is_terminal
            if not state.is_terminal and (state.round != round_
                                          or (state.reshuffled and not reshuffled)):
                engine.load(batch, r, state)  # each engine shuffled in its own order
        # the two engines hold the same matches
        mask = engine.legal_mask(batch)
        for r, state in enumerate(states):
            assert np.flatnonzero(mask[r]).tolist() == (
                [] if state.is_terminal else sorted(a.id for a in state.legal_actions()))
    return seen


def deals(options: dict[str, Any], seeds: range) -> list[ThreeThirteenState]:
    game = cardtable.new_game("threethirteen", **options)
    return [game.deal(seed=s) for s in seeds]  # type: ignore[misc]


def late(options: dict[str, Any], seeds: range, round_: int) -> list[ThreeThirteenState]:
    """Matches set up at the start of ``round_`` (big hands, a quick end)."""
    game = cardtable.new_game("threethirteen", **options)
    return [game.setup(round=round_, seed=s,  # type: ignore[misc]
                       scores=[s % 7 + k for k in range(game.num_players)]) for s in seeds]


@pytest.mark.parametrize(("name", "options"), params(THREETHIRTEEN))
def test_the_kernel_scores_every_move_as_the_scalar_bot(name: str,
                                                         options: dict[str, Any]) -> None:
    states = deals(options, range(3)) + late(options, range(3), 10)
    seen = play_both(options, states, steps=40, seed=11)
    assert seen["positions"] > 150 and seen["discard"] and seen["draw"]


def test_the_numbers_are_the_heuristics() -> None:
    """The heuristic's module (bots/threethirteen.py, or its frozen copy once there is one):
    the scores of a hand made up to tell the weights apart."""
    scalar = sys.modules[type(heuristic_for("threethirteen", "heuristic-v1")).__module__]
    assert scalar.__name__ == "cardtable.bots.threethirteen"
    for faces in ("ten", "counting"):
        assert batched.tie_values(faces).tolist() == [
            scalar._value(r + "S", faces) for r in "A23456789TJQK"]
    assert (batched.PENALTY_WEIGHT, batched.KEEP_WEIGHT, batched.WILD_KEEP) == (1000.0, 10.0,
                                                                             50.0)


@pytest.mark.parametrize("version", ["heuristic", "heuristic-v1"])
def test_whole_matches_move_for_move(version: str) -> None:
    """Two-player matches to their end, and late rounds (the biggest hands) of four."""
    seen = play_both({}, deals({}, range(4)), steps=3000, seed=3, version=version)
    assert seen["ended"] == 4, seen
    for what in ("take", "went out", "ties"):
        assert seen[what], (what, seen)
    seen = play_both({"players": 4, "decks": 2}, late({"players": 4, "decks": 2}, range(4), 11),
                     steps=400, seed=5, version=version)
    assert seen["ended"] == 4, seen


def test_the_kernel_refuses_other_engines() -> None:
    engine = VectorThreeThirteen(players=3)
    batch = engine.init(np.arange(64))
    actions = heuristic_actions(engine, batch)
    assert actions.shape == (64,) and actions.dtype == np.int64
    assert engine.legal_mask(batch)[np.arange(64), actions].all()
    engine.step(batch, actions)  # legal in every row
    with pytest.raises(ValueError, match="VectorThreeThirteen"):
        heuristic_actions(make_engine("sequence"), batch)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        heuristic_actions(VectorThreeThirteen(players=4), batch)
