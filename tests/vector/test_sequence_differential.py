"""The batched Sequence engine against the scalar one, move for move (issue 28).

Both engines start from the same position (a scalar deal loaded into the batch, crafted
positions for the rare rulings, or the batch's own deal set up in the scalar engine) and
play the same actions, random and the heuristic bot's; at every step the legal masks, the
observation of every seat, the rewards and the end of the game must agree. The one thing
the engines draw differently is the order of a remade draw pile: there the test checks
that both remade the same cards, then gives the batch the scalar engine's order.
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
from cardtable.cards import CARD_NAMES, card_name  # noqa: E402
from cardtable.encoders import encoder_for  # noqa: E402
from cardtable.sequence.game import (  # noqa: E402
    DEAD,
    ONE_EYED_JACK,
    PASS,
    TWO_EYED_JACK,
    SequenceState,
)
from cardtable.vector.sequence import M_CURRENT, M_DEALER, M_DECK_LEN, VectorSequence  # noqa: E402
from tests.configs import CONFIGS, Config  # noqa: E402
from tests.sequence.test_rules import all_dead_position, one_eyed_jacks_only, position  # noqa: E402

SEQUENCE = [c for c in CONFIGS if c.game == "sequence"]


def ids(configs: list[Config]) -> list[Any]:
    return [pytest.param(c.options, id=c.id) for c in configs]


def kind(action: int) -> str:
    return ("pass" if action == PASS else "dead" if action >= DEAD else "one-eyed"
            if action >= ONE_EYED_JACK else "two-eyed" if action >= TWO_EYED_JACK else "play")


def play_both(engine: VectorSequence, states: list[SequenceState], bots: list[Bot | None],
              max_steps: int, seed: int = 0) -> Counter[str]:
    """Play ``states`` in both engines, a bot's moves (None: random), checking every step;
    returns what happened (move kinds, remade piles, how the games ended)."""
    batch = engine.from_states(states)
    enc = encoder_for(engine.game)
    n, players = len(states), engine.num_players
    rng = random.Random(seed)
    events: Counter[str] = Counter()
    for _ in range(max_steps):
        active = np.array([not s.is_terminal for s in states])
        if not active.any():
            break
        mask = engine.legal_mask(batch)
        seen = [engine.observe(batch, seats=seat) for seat in range(players)]
        actions = np.zeros(n, np.int64)
        for i, state in enumerate(states):
            if state.is_terminal:
                assert not mask[i].any(), "a finished game has no legal action"
                continue
            legal = [a.id for a in state.legal_actions()]
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal), f"row {i}: legal ids"
            assert batch.meta[i, M_CURRENT] == state.current_player
            for seat in range(players):
                assert np.array_equal(seen[seat][i], enc.encode(state, seat)), \
                    f"row {i}, seat {seat}: observation"
            bot = bots[i]
            actions[i] = bot.choose(state).id if bot is not None else rng.choice(legal)
        decks = [len(s.deck) for s in states]
        results = engine.step(batch, actions, active=active, autoreset=False)
        for i, state in enumerate(states):
            if not active[i]:
                continue
            seat = state.current  # the seat to act (current_player, typed as an int)
            state.apply(int(actions[i]))
            events[kind(int(actions[i]))] += 1
            if decks[i] == 0 and not any(state.discards):
                # the pile was remade: the same cards, each engine in its own order
                events["remade pile"] += 1
                hands, deck = engine.hidden_cards(batch, i)
                scalar_hand = [card_name(c) for c in state.hands[seat]]
                scalar_deck = [card_name(c) for c in state.deck]
                assert Counter(hands[seat] + deck) == Counter(scalar_hand + scalar_deck)
                engine.load(batch, i, state)
            assert bool(results.terminated[i]) == state.is_terminal
            assert not results.truncated[i]
            assert results.rewards[i].tolist() == state.returns()
            if state.is_terminal:
                sequences = max(state.seq_count)
                events["draw" if not state.winners else f"won with {sequences} sequences"] += 1
                assert results.winner[i] == (-1 if state.winning_team is None
                                             else state.winning_team)
                assert results.turns[i] == state.turns
    return events


def deals(config: Config, seeds: range) -> list[SequenceState]:
    game = config.new_game()
    return [game.deal(seed) for seed in seeds]  # type: ignore[misc]


def policies(n: int, heuristic_every: int, seed: int) -> list[Bot | None]:
    """Random moves, and the heuristic bot in every ``heuristic_every``-th row."""
    return [make("heuristic", seed=seed + i) if i % heuristic_every == 0 else None
            for i in range(n)]


@pytest.mark.parametrize("options", ids(SEQUENCE))
def test_every_option_set_quick(options: dict[str, Any]) -> None:
    config = Config("sequence", options)
    states = deals(config, range(6))
    play_both(VectorSequence(**options), states, policies(6, 2, 0), max_steps=120)


@pytest.mark.slow
@pytest.mark.parametrize("options", ids(SEQUENCE))
def test_every_option_set_whole_games(options: dict[str, Any]) -> None:
    config = Config("sequence", options)
    states = deals(config, range(100, 140))
    events = play_both(VectorSequence(**options), states, policies(40, 3, 100),
                       max_steps=5000)
    assert events["play"] and events["two-eyed"] and events["one-eyed"]


def test_whole_games_reach_the_rare_rules() -> None:
    """Two-player games to the end: dead cards, one-eyed jacks, the second sequence and a
    remade draw pile all happen, and both engines agree throughout."""
    config = Config("sequence", {})
    states = deals(config, range(12))
    events = play_both(VectorSequence(), states, policies(12, 2, 7), max_steps=3000)
    for what in ("play", "two-eyed", "one-eyed", "dead", "remade pile", "won with 2 sequences"):
        assert events[what], (what, events)


def test_max_turns_draws_agree() -> None:
    config = Config("sequence", {"max_turns": 30})
    events = play_both(VectorSequence(max_turns=30), deals(config, range(8)),
                       policies(8, 4, 3), max_steps=200)
    assert events["draw"] == 8


SEQ = ["b2", "c2", "d2", "e2", "f2"]
CRAFTED = {
    # ruling 2.4: exchange, then pass: the run of passes starts again
    "exchange then pass": lambda: all_dead_position(),
    # the nine players before seat 0 passed; seat 0's plain pass ends the game in a draw
    "passed-out deal": lambda: cardtable.state_from_dict(
        {**one_eyed_jacks_only().to_dict(), "passes": 9}),
    # a plain pass counts toward the draw, then play goes on
    "a plain pass": lambda: one_eyed_jacks_only(),
    # the card played goes into the remade pile
    "empty pile": lambda: position(hands=[["7H"], ["5D"]], deck=[],
                                   discards=[["AS", "2S"], ["3S"]]),
    # the winning chip draws no card
    "winning chip": lambda: position(
        hands=[["TH"]], chips=dict.fromkeys(SEQ + ["b3", "c4", "d5", "e6"], 0),
        sequences=[[0, SEQ]]),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_positions(name: str) -> None:
    state = CRAFTED[name]()
    assert isinstance(state, SequenceState)
    copies = [state.clone() for _ in range(6)]
    engine = VectorSequence(**state.game.options)
    events = play_both(engine, copies, [None] * 6, max_steps=60, seed=len(name))
    if name == "passed-out deal":
        assert events["draw"] == 6 and events["pass"] == 6
    if name in ("exchange then pass", "a plain pass"):
        assert events["pass"] and not events["draw"]
    if name == "empty pile":
        assert events["remade pile"]


@pytest.mark.parametrize("options", ids([c for c in SEQUENCE if c.few]))
def test_the_batchs_own_deals_play_as_scalar_setups(options: dict[str, Any]) -> None:
    """``init``'s fast deals are positions of the rules (2.3): set up in the scalar engine,
    they play the same."""
    engine = VectorSequence(**options)
    batch = engine.init(np.arange(5) + 11)
    game = cardtable.new_game("sequence", **options)
    states = []
    for i in range(5):
        hands, deck = engine.hidden_cards(batch, i)
        dealer = int(batch.meta[i, M_DEALER])
        assert batch.meta[i, M_CURRENT] == (dealer + 1) % engine.num_players
        assert Counter(c for h in hands for c in h) + Counter(deck) == Counter(
            {name: 2 for name in CARD_NAMES})
        state = game.setup(hands=hands, deck=deck, dealer=dealer)
        assert isinstance(state, SequenceState)
        states.append(state)
    rebuilt = engine.from_states(states)
    for name in ("board", "locked", "hands", "discards", "sequences", "seq_count", "meta"):
        assert np.array_equal(getattr(rebuilt, name), getattr(batch, name)), name
    for i in range(5):
        top = batch.meta[i, M_DECK_LEN]
        assert np.array_equal(rebuilt.deck[i, :top], batch.deck[i, :top])
    play_both(engine, states, policies(5, 2, 1), max_steps=80)
