"""The batched Draw Bridge engine against the scalar one, move for move (issue 28).

Both engines start from the same position (a scalar deal loaded into the batch, a match
near its target, or the batch's own deal set up in the scalar engine) and play the same
actions, random and the heuristic bot's; at every step the legal masks, the observation
of both seats, the rewards and the end of the match must agree. The one thing the engines
draw differently is the next deal of a match: there the test checks that both scored the
deal alike and dealt deal n + 1 from the other dealer, then gives the batch the scalar
engine's deal.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

import cardtable  # noqa: E402
from cardtable.bots import Bot, make  # noqa: E402
from cardtable.cards import CARD_NAMES  # noqa: E402
from cardtable.drawbridge.game import BID, DOUBLE, PASS, REDOUBLE, DrawBridgeState  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from cardtable.vector.drawbridge import (  # noqa: E402
    M_CURRENT,
    M_DEAL,
    M_DEALER,
    M_PHASE,
    M_SCORE0,
    M_SCORE1,
    VectorDrawBridge,
)
from tests.configs import CONFIGS, Config  # noqa: E402

DRAWBRIDGE = [c for c in CONFIGS if c.game == "drawbridge"]


def ids(configs: list[Config]) -> list[Any]:
    return [pytest.param(c.options, id=c.id) for c in configs]


def kind(action: int) -> str:
    return ("card" if action < BID else "pass" if action == PASS else "double"
            if action == DOUBLE else "redouble" if action == REDOUBLE else "bid")


def play_both(engine: VectorDrawBridge, states: list[DrawBridgeState], bots: list[Any],
              max_steps: int, seed: int = 0) -> Counter[str]:
    """Play ``states`` in both engines, a bot's moves (None: random), checking every step;
    returns what happened (call kinds, how deals and matches ended)."""
    batch = engine.from_states(states)
    enc = encoder_for(engine.game)
    n = len(states)
    rng = random.Random(seed)
    events: Counter[str] = Counter()
    for _ in range(max_steps):
        active = np.array([not s.is_terminal for s in states])
        if not active.any():
            break
        mask = engine.legal_mask(batch)
        seen = [engine.observe(batch, seats=seat) for seat in range(2)]
        actions = np.zeros(n, np.int64)
        for i, state in enumerate(states):
            for seat in range(2):
                assert np.array_equal(seen[seat][i], enc.encode(state, seat)), \
                    f"row {i}, seat {seat}: observation\n" + enc.describe(
                        seen[seat][i] - enc.encode(state, seat))
            if state.is_terminal:
                assert not mask[i].any(), "a finished match has no legal action"
                continue
            legal = [a.id for a in state.legal_actions()]
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal), f"row {i}: legal ids"
            assert batch.meta[i, M_CURRENT] == state.current_player
            bot = bots[i]
            actions[i] = bot.choose(state).id if bot is not None else rng.choice(legal)
        numbers = [s.deal_number for s in states]
        results = engine.step(batch, actions, active=active, autoreset=False)
        for i, state in enumerate(states):
            if not active[i]:
                continue
            state.apply(int(actions[i]))
            events[kind(int(actions[i]))] += 1
            meta = batch.meta[i]
            assert [meta[M_SCORE0], meta[M_SCORE1]] == state.scores, f"row {i}: scores"
            if state.deal_number != numbers[i] or state.is_terminal and state.records and \
                    state.records[-1].number == numbers[i]:
                last = state.records[-1]
                if last.contract is None:
                    events["passed out"] += 1
                else:
                    events[("", "doubled ", "redoubled ")[last.contract.doubled]
                           + ("made" if last.points[last.contract.declarer] else "failed")] += 1
                    if last.points[1 - last.contract.declarer]:
                        events["undertricks scored"] += 1
            if state.deal_number != numbers[i] and not state.is_terminal:
                # a new deal: the same number and dealer in both, each its own cards
                assert meta[M_DEAL] == state.deal_number and meta[M_PHASE] == 0
                assert meta[M_DEALER] == state.observation(0).dealer
                events["next deal"] += 1
                engine.load(batch, i, state)
            assert bool(results.terminated[i]) == state.is_terminal
            assert not results.truncated[i]
            assert results.rewards[i].tolist() == state.returns()
            if state.is_terminal:
                events["match won"] += 1
                assert results.winner[i] == state.winners[0]
                assert results.scores[i].tolist() == state.scores
                assert results.deals[i] == state.deal_number
                assert results.moves[i] == len(state.history)
    return events


def deals(config: Config, seeds: range) -> list[DrawBridgeState]:
    game = config.new_game()
    return [game.deal(seed) for seed in seeds]  # type: ignore[misc]


def near_the_end(config: Config, seeds: range) -> list[DrawBridgeState]:
    """Matches one point short of the target for both seats: the first contract made (or,
    under undertricks, the first failed) ends them."""
    game = config.new_game()
    target = game.options["target"]
    return [game.setup(scores=[target - 1, target - 1], seed=seed)  # type: ignore[misc]
            for seed in seeds]


def policies(n: int, heuristic_every: int, seed: int) -> list[Bot | None]:
    """Random moves, and the heuristic bot in every ``heuristic_every``-th row."""
    return [make("heuristic", seed=seed + i) if i % heuristic_every == 0 else None
            for i in range(n)]


@pytest.mark.parametrize("options", ids(DRAWBRIDGE))
def test_every_option_set_quick(options: dict[str, Any]) -> None:
    """Whole deals of every option set, and the end of a match in each."""
    config = Config("drawbridge", options)
    engine = VectorDrawBridge(**options)
    events = play_both(engine, deals(config, range(6)), policies(6, 2, 0), max_steps=260)
    assert events["next deal"], events
    events = play_both(engine, near_the_end(config, range(6)), policies(6, 2, 5),
                       max_steps=400)
    assert events["match won"], events


@pytest.mark.slow
@pytest.mark.parametrize("options", ids(DRAWBRIDGE))
def test_every_option_set_long(options: dict[str, Any]) -> None:
    config = Config("drawbridge", options)
    events = play_both(VectorDrawBridge(**options), deals(config, range(100, 124)),
                       policies(24, 2, 100), max_steps=1600)
    assert events["passed out"] and events["doubled made"] + events["doubled failed"]


def test_the_rare_rules_are_reached() -> None:
    """Passed-out deals, doubles, redoubles, made and failed contracts, undertricks and
    match ends, both engines agreeing throughout."""
    config = Config("drawbridge", {"undertricks": True, "target": 150})
    events = play_both(VectorDrawBridge(undertricks=True, target=150),
                       deals(config, range(16)), policies(16, 2, 3), max_steps=1500)
    for what in ("passed out", "redouble", "double", "made", "failed", "undertricks scored",
                 "match won"):
        assert events[what], (what, events)


class Doubler:
    """Low contracts, often doubled and redoubled (each scoring factor of 1.6 made and
    failed), and random cards."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: DrawBridgeState) -> Any:
        legal = state.legal_actions()
        ids = {a.id: a for a in legal}
        if state.phase != "auction":
            return self.rng.choice(legal)
        rng = self.rng
        if state.last_bid is None and rng.random() < 0.9:
            return ids[rng.choice([a for a in ids if BID <= a < BID + 5])]  # 1C .. 1NT
        for call, p in ((DOUBLE, 0.7), (REDOUBLE, 0.5)):
            if call in ids and rng.random() < p:
                return ids[call]
        return ids[PASS]


@pytest.mark.parametrize("options", ids(DRAWBRIDGE))
def test_doubled_and_redoubled_contracts_score_alike(options: dict[str, Any]) -> None:
    """Each option set with a target high enough for several deals a match."""
    options = {**options, "target": max(options.get("target", 100), 3000)}
    config = Config("drawbridge", options)
    engine = VectorDrawBridge(**options)
    events = play_both(engine, deals(config, range(10)), [Doubler(i) for i in range(10)],
                       max_steps=400)
    for what in ("made", "failed", "doubled made", "doubled failed", "redoubled made",
                 "redoubled failed"):
        assert events[what], (what, events)


def test_two_heuristic_seats_play_whole_matches() -> None:
    config = Config("drawbridge", {"target": 60})
    states = deals(config, range(4))
    events = play_both(VectorDrawBridge(target=60), states, policies(4, 1, 9), max_steps=2000)
    assert events["match won"] == 4, events


@pytest.mark.parametrize("options", ids([c for c in DRAWBRIDGE if c.few or c.short]))
def test_the_batchs_own_deals_play_as_scalar_setups(options: dict[str, Any]) -> None:
    """``init``'s fast deals are positions of the rules (1.2): set up in the scalar engine,
    they play the same."""
    engine = VectorDrawBridge(**options)
    batch = engine.init(np.arange(5) + 11)
    game = cardtable.new_game("drawbridge", **options)
    states = []
    for i in range(5):
        hands, stock = engine.hidden_cards(batch, i)
        dealer = int(batch.meta[i, M_DEALER])
        assert batch.meta[i, M_CURRENT] == 1 - dealer and batch.meta[i, M_DEAL] == 1
        assert sorted(hands[0] + hands[1] + stock) == sorted(CARD_NAMES)
        assert len(hands[0]) == len(hands[1]) == 13
        state = game.setup(hands=hands, stock=stock, dealer=dealer)
        assert isinstance(state, DrawBridgeState)
        states.append(state)
    rebuilt = engine.from_states(states)
    for name in ("masks", "stock", "meta"):
        assert np.array_equal(getattr(rebuilt, name), getattr(batch, name)), name
    play_both(engine, states, policies(5, 2, 1), max_steps=120)
