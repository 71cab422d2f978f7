"""Draw Bridge's batched heuristic against the scalar bot, move for move (issue 36): in
every row of a batch and at every step, the kernel's move is the one move
``HeuristicBot("heuristic-v1")`` scores 1 (the scalar heuristic names exactly one), and the
score of every legal move is the bot's; the match then goes on with that move in both
engines (the yardstick against itself; Draw Bridge's ``heuristic`` has moved on since,
and the kernel plays ``heuristic-v1`` only: contracts bid, doubled and redoubled, played out).
Where the engines deal in their own order (the next deal of a match) the batch is given
the scalar engine's deal."""

from __future__ import annotations

import random
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
from cardtable.drawbridge.game import BID, DOUBLE, PASS, REDOUBLE, DrawBridgeState  # noqa: E402
from cardtable.vector import VectorDrawBridge, make_engine  # noqa: E402
from cardtable.vector import drawbridge_heuristic as batched  # noqa: E402
from cardtable.vector.drawbridge_heuristic import (  # noqa: E402
    heuristic_actions,
    heuristic_scores,
)
from tests.configs import CONFIGS, params  # noqa: E402

DRAWBRIDGE = [c for c in CONFIGS if c.game == "drawbridge"]


def kind(state: DrawBridgeState, a: int) -> str:
    if a < BID:
        return f"{state.phase} card"
    return {PASS: "pass", DOUBLE: "double", REDOUBLE: "redouble"}.get(a, "bid")


def play_both(options: dict[str, Any], states: list[DrawBridgeState], steps: int,
              seed: int, version: str = "heuristic-v1", random_every: int = 0) -> Counter[str]:
    """Rows of the batched engine holding ``states``, each step the kernel's move played
    in both (in every ``random_every``-th row, seat 1's move is random but a double
    whenever it may, so that overbids, doubles and redoubles come up; the kernel's
    choice is checked there too); returns what came up."""
    engine = VectorDrawBridge(**options)
    batch = engine.from_states(states)
    bot = HeuristicBot(seed, version)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(steps):
        scores = heuristic_scores(engine, batch, version)
        actions = heuristic_actions(engine, batch, version)
        for r, state in enumerate(states):
            if state.is_terminal:
                assert actions[r] == -1 and np.isneginf(scores[r]).all()
                continue
            seat = state.current_player
            assert seat is not None
            expected = {a.id: s for s, a in bot.scores(state, seat)}
            legal = np.flatnonzero(~np.isneginf(scores[r]))
            assert sorted(expected) == legal.tolist(), (r, "the legal actions differ")
            chosen = [a for a, s in expected.items() if s == 1.0]
            assert len(chosen) == 1
            assert int(actions[r]) == chosen[0], (r, state.phase, int(actions[r]), chosen)
            for a, s in expected.items():
                assert scores[r, a] == s
            seen["positions"] += 1
            seen[kind(state, chosen[0])] += 1
            if random_every and r % random_every == 0 and seat == 1:
                actions[r] = DOUBLE if DOUBLE in expected else rng.choice(sorted(expected))
        live = np.array([not s.is_terminal for s in states])
        if not live.any():
            break
        numbers = [s.deal_number for s in states]
        engine.step(batch, np.where(live, actions, 0), active=live, autoreset=False)
        for r, state in enumerate(states):
            if not live[r]:
                continue
            state.apply(int(actions[r]))
            seen["ended"] += state.is_terminal
            if not state.is_terminal and state.deal_number != numbers[r]:
                seen["deals"] += 1
                engine.load(batch, r, state)  # each engine dealt in its own order
        mask = engine.legal_mask(batch)
        for r, state in enumerate(states):
            assert np.flatnonzero(mask[r]).tolist() == (
                [] if state.is_terminal else sorted(a.id for a in state.legal_actions()))
    return seen


def deals(options: dict[str, Any], seeds: range) -> list[DrawBridgeState]:
    game = cardtable.new_game("drawbridge", **options)
    return [game.deal(seed=s) for s in seeds]  # type: ignore[misc]


@pytest.mark.parametrize(("name", "options"), params(DRAWBRIDGE))
def test_the_kernel_plays_every_move_as_the_scalar_bot(name: str,
                                                       options: dict[str, Any]) -> None:
    seen = play_both(options, deals(options, range(6)), steps=200, seed=11, random_every=2)
    assert seen["draw card"] and seen["bid"] and seen["play card"], seen


@pytest.mark.parametrize(("name", "options"), params(DRAWBRIDGE))
def test_todays_heuristic_plays_every_move_as_the_scalar_bot(name: str,
                                                             options: dict[str, Any]) -> None:
    """``heuristic``, which calls by expected points at the table's rules (``undertricks``
    among them), against ``HeuristicBot("heuristic")``: the draw and the play are the
    yardstick's, the auction its own."""
    seen = play_both(options, deals(options, range(6)), steps=200, seed=11,
                     version="heuristic", random_every=2)
    assert seen["draw card"] and seen["bid"] and seen["play card"], seen


@pytest.mark.parametrize("undertricks", [False, True])
def test_todays_heuristic_whole_matches_move_for_move(undertricks: bool) -> None:
    """Whole matches of ``heuristic`` against itself and, in half the rows, against a seat
    that doubles whenever it may (so that it redoubles, and passes or bids over a double);
    with ``undertricks`` it doubles and sacrifices too."""
    options = {"target": 150, "undertricks": undertricks}
    seen = play_both(options, deals(options, range(4)), steps=3000, seed=3,
                     version="heuristic", random_every=2)
    assert seen["ended"] and seen["deals"] and seen["pass"] and seen["bid"], seen
    if undertricks:
        assert seen["double"] or seen["redouble"], seen


def test_the_expected_points_are_the_heuristics() -> None:
    """The trick odds, the chance to make and the expected points of today's heuristic, the
    same floats as the scalar bot's (they break its ties: ``choose_call`` rounds to six
    decimals), at the estimates it can reach and at random ones; its constants too."""
    from cardtable.bots import drawbridge as scalar
    from cardtable.drawbridge.scoring import STRAINS

    assert (batched.TRICK_SPREAD, batched.MIN_MAKE) == (scalar.TRICK_SPREAD, scalar.MIN_MAKE)
    rng = np.random.default_rng(7)
    # the estimates: whole tricks, halves (length) and 0.7 a ruff, at most 13
    estimates = sorted({min(13.0, w + 0.5 * h + 0.7 * r) for w in range(14)
                        for h in range(8) for r in range(8)})
    estimates += rng.uniform(0, 13, 100).tolist()
    for est in estimates:
        level = int(rng.integers(1, 8))
        odds = batched._odds(est)
        assert odds.tolist() == [p for _, p in scalar.trick_odds(est, 1.2, 0, 13)]
        assert batched._contract_odds(odds, level) == scalar.contract_odds(est, level)
        strain = int(rng.integers(0, 5))
        doubled = int(rng.integers(0, 3))
        for undertricks in (False, True):
            assert batched._expected_points(odds, level, strain, doubled, undertricks) == \
                scalar.expected_points(est, level, STRAINS[strain], doubled, undertricks)


def test_values_round_as_pythons_round() -> None:
    """``_round6`` is ``round(x, 6)``, at the halves of a millionth where rounding
    ``x * 1e6`` would part from it (0.0000025 is a little over its decimal, and 1e6
    times it rounds to 2.5 exactly), beside them and at random values."""
    halves = [(k + 0.5) / 1e6 for k in range(-3000, 3000)]
    halves += [float(f"{k}.{f:06d}5") for k in range(-40, 40) for f in range(0, 10**6, 4999)]
    values = [float(np.nextafter(h, d)) for h in halves for d in (-np.inf, np.inf)] + halves
    values += np.random.default_rng(3).uniform(-3000, 3000, 2000).tolist()
    values += [1 / 128, -1 / 128, 0.0, -0.0, 1e-9, -1e-9]
    assert any(round(v * 1e6) / 1e6 != round(v, 6) for v in values)  # numba's way parts
    assert [batched._round6(v) for v in values] == [round(v, 6) for v in values]


def test_the_estimates_are_the_heuristics() -> None:
    """The trick estimates of the yardstick's module (bots/drawbridge.py, or its frozen copy
    once there is one) for random splits of the cards, every strain."""
    scalar = sys.modules[type(heuristic_for("drawbridge", "heuristic-v1")).__module__]
    from cardtable.cards import CARD_NAMES
    from cardtable.drawbridge.game import TRUMP_SUIT
    from cardtable.drawbridge.scoring import STRAINS

    rng = np.random.default_rng(5)
    for _ in range(300):
        deck = rng.permutation(52)
        k = int(rng.integers(0, 14))
        ours, theirs = deck[:k], deck[13:13 + int(rng.integers(0, 14))]
        mask = [sum(1 << int(c) for c in cards) for cards in (ours, theirs)]
        suits = [scalar.by_suit(CARD_NAMES[c] for c in cards) for cards in (ours, theirs)]
        for st, strain in enumerate(STRAINS):
            assert batched._estimate(np.int64(mask[0]), np.int64(mask[1]), TRUMP_SUIT[st]) == \
                scalar.estimate_tricks(suits[0], suits[1], strain)


def test_whole_matches_move_for_move() -> None:
    """Matches to their end, heuristic against itself (it never doubles itself: both
    sides' estimates agree), and against a random seat in half the rows that doubles
    whenever it may (the heuristic doubles its overbids and redoubles its doubles)."""
    options = {"target": 150, "undertricks": True}
    seen = play_both(options, deals(options, range(4)), steps=3000, seed=3)
    assert seen["ended"] == 4 and seen["deals"], seen
    for what in ("bid", "pass", "draw card", "play card"):
        assert seen[what], (what, seen)
    seen = play_both(options, deals(options, range(4, 12)), steps=1500, seed=4,
                     random_every=2)
    for what in ("double", "redouble", "deals"):
        assert seen[what], (what, seen)


def test_the_kernel_refuses_other_engines() -> None:
    engine = VectorDrawBridge()
    batch = engine.init(np.arange(64))
    actions = heuristic_actions(engine, batch, "heuristic-v1")
    assert actions.shape == (64,) and actions.dtype == np.int64
    assert engine.legal_mask(batch)[np.arange(64), actions].all()
    engine.step(batch, actions)  # legal in every row
    with pytest.raises(ValueError, match="VectorDrawBridge"):
        heuristic_actions(make_engine("sequence"), batch)  # type: ignore[arg-type]
