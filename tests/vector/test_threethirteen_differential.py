"""The batched Three Thirteen engine against the scalar one, move for move (issue 28).

Both engines start from the same position (a scalar deal loaded into the batch, crafted
positions for the rare rulings, or the batch's own deal set up in the scalar engine) and
play the same actions, random and the heuristic bot's; at every step the legal masks, the
observation of every seat, the rewards and the end of the match must agree. The engines
shuffle differently (a round's deal, the round's one reshuffle): there the test checks
that both hold the same cards and the same public state (round, dealer, totals, pile
sizes), then gives the batch the scalar engine's order.
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
from cardtable.threethirteen.game import DRAW, TAKE, ThreeThirteenState  # noqa: E402
from cardtable.vector.threethirteen import (  # noqa: E402
    M_CURRENT,
    M_DEALER,
    M_DISCARD_LEN,
    M_RESHUFFLED,
    M_ROUND,
    M_STOCK_LEN,
    VectorThreeThirteen,
)
from tests.configs import CONFIGS, Config  # noqa: E402

THREETHIRTEEN = [c for c in CONFIGS if c.game == "threethirteen"]


def ids(configs: list[Config]) -> list[Any]:
    return [pytest.param(c.options, id=c.id) for c in configs]


def kind(action: int) -> str:
    return "draw" if action == DRAW else "take" if action == TAKE else "discard"


def same_public(engine: VectorThreeThirteen, batch: Any, i: int,
                state: ThreeThirteenState) -> None:
    """Row i and ``state`` agree on everything but the order of the shuffled cards."""
    meta = batch.meta[i]
    assert meta[M_ROUND] == state.round and meta[M_DEALER] == state.dealer
    assert meta[M_STOCK_LEN] == len(state.stock) and meta[M_DISCARD_LEN] == len(state.discard)
    assert bool(meta[M_RESHUFFLED]) == state.reshuffled
    assert batch.totals[i].tolist() == list(state.totals)
    hands, stock = engine.hidden_cards(batch, i)
    assert [len(h) for h in hands] == [len(h) for h in state.hands]
    if state.reshuffled:  # the pile but its top, remade into the stock
        assert Counter(stock) == Counter(card_name(c) for c in state.stock)
    else:  # a fresh deal: every card is in the hands, stock or pile
        pile = [card_name(int(c)) for c in batch.discard[i, :meta[M_DISCARD_LEN]]]
        assert Counter(c for h in hands for c in h) + Counter(stock) + Counter(pile) == \
            Counter({name: engine.decks for name in CARD_NAMES})


def play_both(engine: VectorThreeThirteen, states: list[ThreeThirteenState],
              bots: list[Bot | None], max_steps: int, seed: int = 0) -> Counter[str]:
    """Play ``states`` in both engines, a bot's moves (None: random), checking every step;
    returns what happened (move kinds, going out, reshuffles, how rounds ended)."""
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
                assert not mask[i].any(), "a finished match has no legal action"
                continue
            legal = [a.id for a in state.legal_actions()]
            assert np.flatnonzero(mask[i]).tolist() == sorted(legal), f"row {i}: legal ids"
            assert batch.meta[i, M_CURRENT] == state.current_player
            for seat in range(players):
                assert np.array_equal(seen[seat][i], enc.encode(state, seat)), \
                    f"row {i}, seat {seat}: observation"
            bot = bots[i]
            actions[i] = bot.choose(state).id if bot is not None else rng.choice(legal)
        before = [(s.round, s.reshuffled, s.went_out) for s in states]
        results = engine.step(batch, actions, active=active, autoreset=False)
        for i, state in enumerate(states):
            if not active[i]:
                continue
            state.apply(int(actions[i]))
            events[kind(int(actions[i]))] += 1
            round_, reshuffled, went_out = before[i]
            if went_out is None and state.went_out is not None:
                events["went out"] += 1
            if state.round != round_ or state.is_terminal:
                events["round over, someone out" if went_out is not None
                       else "round over, stock spent twice"] += 1
            elif state.reshuffled and not reshuffled:
                events["reshuffled"] += 1
            assert bool(results.terminated[i]) == state.is_terminal
            assert not results.truncated[i]
            assert results.rewards[i].tolist() == state.returns()
            if state.is_terminal:
                events["match over"] += 1
                assert batch.totals[i].tolist() == list(state.totals)
                assert results.winner[i] == state.winners[0]
                assert not engine.legal_mask(batch, rows=[i]).any()
                for seat in range(players):  # the final observation too
                    assert np.array_equal(engine.observe(batch, seats=seat, rows=[i])[0],
                                          enc.encode(state, seat))
            elif state.round != round_ or (state.reshuffled and not reshuffled):
                # each engine shuffled in its own order: the same cards, then the scalar's
                same_public(engine, batch, i, state)
                engine.load(batch, i, state)
    return events


def deals(config: Config, seeds: range) -> list[ThreeThirteenState]:
    game = config.new_game()
    return [game.deal(seed) for seed in seeds]  # type: ignore[misc]


def policies(n: int, heuristic_every: int, seed: int) -> list[Bot | None]:
    """Random moves, and the heuristic bot in every ``heuristic_every``-th row."""
    return [make("heuristic", seed=seed + i) if i % heuristic_every == 0 else None
            for i in range(n)]


def late(config: Config, seeds: range, round_: int) -> list[ThreeThirteenState]:
    """Matches set up at the start of ``round_`` (so that a quick test reaches the end)."""
    game = config.new_game()
    return [game.setup(round=round_, seed=seed,  # type: ignore[misc]
                       scores=[seed % 7 + s for s in range(game.num_players)])
            for seed in seeds]


@pytest.mark.parametrize("options", ids(THREETHIRTEEN))
def test_every_option_set_quick(options: dict[str, Any]) -> None:
    config = Config("threethirteen", options)
    states = deals(config, range(4)) + late(config, range(4), 11)
    events = play_both(VectorThreeThirteen(**options), states, policies(8, 2, 0),
                       max_steps=150)
    assert events["discard"] and events["draw"]


@pytest.mark.slow
@pytest.mark.parametrize("options", ids(THREETHIRTEEN))
def test_every_option_set_whole_matches(options: dict[str, Any]) -> None:
    """Two matches from the deal to the end, and four more from the eighth round on."""
    config = Config("threethirteen", options)
    states = deals(config, range(100, 102)) + late(config, range(100, 104), 8)
    events = play_both(VectorThreeThirteen(**options), states, policies(6, 2, 100),
                       max_steps=20000)
    assert events["match over"] == 6 and events["went out"]


def test_whole_matches_reach_the_rare_rules() -> None:
    """Two-player matches to the end: going out, the last turns after it, the reshuffle
    and a round ended by a second empty stock all happen, and both engines agree."""
    config = Config("threethirteen", {})
    states = deals(config, range(6)) + late(config, range(6), 9)
    events = play_both(VectorThreeThirteen(), states, policies(12, 2, 7), max_steps=6000)
    for what in ("take", "went out", "round over, someone out", "reshuffled",
                 "round over, stock spent twice", "match over"):
        assert events[what], (what, events)
    assert events["match over"] == 12


def crafted(options: dict[str, Any], **position: Any) -> ThreeThirteenState:
    state = cardtable.new_game("threethirteen", **options).setup(**position)
    assert isinstance(state, ThreeThirteenState)
    return state


CRAFTED = {
    # round 1 (threes wild): a pair and a wild card: any discard but a pair card goes out
    "going out": lambda: crafted({}, round=1, dealer=1, hands=[["5S", "5H", "3C"],
                                                               ["KS", "QD", "9H"]],
                                 stock=["3D", "8C", "4H"], discard=["5D"]),
    # a stock of two: the reshuffle, then the round ends on the second empty stock
    "small stock": lambda: crafted({"players": 3}, round=2, dealer=2, stock=["AS", "KD"],
                                   discard=["QH", "JH", "TH", "9H", "8H"]),
    # only wild cards (round 2, fours): they meld alone only under all_wild_melds
    "all wild": lambda: crafted({"all_wild_melds": True}, round=2, dealer=1,
                                hands=[["4S", "4H", "4D", "4C"], ["AS", "AH", "AD", "AC"]],
                                stock=["7S", "8S"], discard=["9S"]),
    "all wild, not allowed": lambda: crafted({"all_wild_melds": False}, round=2, dealer=1,
                                             hands=[["4S", "4H", "4D", "4C"],
                                                    ["AS", "AH", "AD", "AC"]],
                                             stock=["7S", "8S"], discard=["9S"]),
    # aces high: Q K A of spades with kings wild in round 11 is a run
    "high ace": lambda: crafted({"aces": "both", "face_values": "counting"}, round=11,
                                dealer=1),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_positions(name: str) -> None:
    state = CRAFTED[name]()
    copies = [state.clone() for _ in range(6)]
    engine = VectorThreeThirteen(**state.game.options)
    events = play_both(engine, copies, [None] * 6, max_steps=400, seed=len(name))
    if name == "going out":
        assert events["went out"]
    if name == "small stock":
        assert events["reshuffled"] and events["round over, stock spent twice"]


@pytest.mark.parametrize("options", ids([c for c in THREETHIRTEEN if c.few]))
def test_the_batchs_own_deals_play_as_scalar_setups(options: dict[str, Any]) -> None:
    """``init``'s fast deals are positions of the rules (3.2, 3.3): set up in the scalar
    engine, they play the same."""
    engine = VectorThreeThirteen(**options)
    batch = engine.init(np.arange(5) + 11)
    game = cardtable.new_game("threethirteen", **options)
    states = []
    for i in range(5):
        hands, stock = engine.hidden_cards(batch, i)
        dealer = int(batch.meta[i, M_DEALER])
        assert batch.meta[i, M_CURRENT] == (dealer + 1) % engine.num_players
        assert batch.meta[i, M_ROUND] == 1 and all(len(h) == 3 for h in hands)
        top = card_name(int(batch.discard[i, 0]))
        assert Counter(c for h in hands for c in h) + Counter(stock) + Counter([top]) == \
            Counter({name: engine.decks for name in CARD_NAMES})
        state = game.setup(hands=hands, stock=stock, discard=[top], dealer=dealer)
        assert isinstance(state, ThreeThirteenState)
        states.append(state)
    rebuilt = engine.from_states(states)
    for name in ("hands", "sizes", "taken", "shown", "totals", "meta"):
        assert np.array_equal(getattr(rebuilt, name), getattr(batch, name)), name
    for i in range(5):
        top = batch.meta[i, M_STOCK_LEN]
        assert np.array_equal(rebuilt.stock[i, :top], batch.stock[i, :top])
    play_both(engine, states, policies(5, 2, 1), max_steps=120)
