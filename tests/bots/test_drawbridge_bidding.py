"""The Draw Bridge heuristic bids and doubles by expected points at the table's rules
(issue 37, defect 3): at the source's rules (``undertricks`` off) a failed contract costs
nothing, so a double only adds to what a made contract scores, and a bot that doubled
whatever it thought would fail, and never bid against a newcomer's contracts, played
deal after deal at 0-0."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable import new_game
from cardtable.bots import Bot, make
from cardtable.bots.drawbridge import HEURISTIC, call_values, contract_odds
from cardtable.bots.perfect import PerfectBot
from cardtable.core import Action, State
from cardtable.drawbridge import DrawBridgeState
from tests.drawbridge.positions import auction_position

# the opener's hand of tests/bots/test_drawbridge_hints.py (1S makes ten tricks) and
# the other hand, which makes nothing of its own
SPADES = ["AS", "KS", "QS", "TS", "9S", "8S", "7S", "AH", "QH", "AD", "9D", "KC", "QC"]
OTHER = ["5S", "JS", "7H", "8H", "KH", "6D", "8D", "JD", "QD", "KD", "AC", "5C", "TC"]


def call(state: State, seat: int) -> str:
    return str(max(HEURISTIC.scores(state, seat), key=lambda scored: scored[0])[1])


@pytest.mark.parametrize("undertricks", [False, True])
def test_a_doomed_contract_is_doubled_only_where_going_down_costs(undertricks: bool) -> None:
    # seat 0 (OTHER) deals and opens 3D; the opener cannot make it against SPADES
    state = auction_position([OTHER, SPADES], dealer=0, undertricks=undertricks)
    state.apply("3D")
    answer = call(state, 1)
    # SPADES makes ten tricks in spades: without undertricks it bids them (a double
    # gains nothing); with them, 3D doubled going down by several is worth more
    assert answer == ("double" if undertricks else "3S")
    values = call_values({"C": 5, "D": 5, "H": 5, "S": 5, "NT": 5},
                         {"C": 5, "D": 6.5, "H": 5, "S": 5, "NT": 5}, (3, "D"), 0, 1,
                         ["pass", "double", "3H", "3S", "3NT", "4C"], 0, undertricks)
    best = max(values, key=lambda c: values[c])
    if undertricks:
        assert best == "double" and values["double"] > values["pass"] > 0
    else:
        # nothing to gain: a failed 3D scores nothing doubled or not, a made one twice
        # as much doubled; and no bid of ours is likely to make
        assert best == "pass" and values["double"] <= values["pass"]
        assert "3H" not in values  # a free sacrifice is not made


def test_the_heuristic_never_doubles_without_undertricks() -> None:
    doubles = {False: 0, True: 0}
    for undertricks in (False, True):
        game = new_game("drawbridge", undertricks=undertricks)
        for seed in range(30):
            rng = random.Random(seed)
            state = game.deal(seed)
            assert isinstance(state, DrawBridgeState)
            while state.phase == "draw":
                state.apply(rng.choice(state.legal_actions()))
            while state.phase == "auction":
                seat = state.current_player
                assert seat is not None
                chosen = call(state, seat) if seat == 0 else str(rng.choice(state.legal_actions()))
                doubles[undertricks] += seat == 0 and chosen == "double"
                state.apply(chosen)
    assert doubles[False] == 0
    assert doubles[True] > 0  # the same auctions with undertricks: doubles that pay


def test_contract_odds_fall_with_the_level() -> None:
    odds = [contract_odds(9.0, level) for level in range(1, 8)]
    assert odds == sorted(odds, reverse=True)
    # nine tricks expected: 3 (nine tricks) is likelier made than not, 4 (ten) not
    assert odds[0] > 0.97 and odds[2] > 0.5 > odds[3] and odds[6] < 0.01


class Newcomer:
    """A newcomer at the page: calls as the hint says (the perfect bot's call) and plays
    its cards at random, so that its contracts mostly fail."""

    def __init__(self, seed: int) -> None:
        self.hint = PerfectBot(seed)
        self.rng = random.Random(seed)

    def reset(self) -> None:
        self.hint.reset()

    def choose(self, state: State) -> Action:
        if state.phase == "auction":  # type: ignore[attr-defined]
            return self.hint.choose(state)
        return self.rng.choice(state.legal_actions())


def deals_to_the_end(opponent: str, target: int, seed: int, most: int = 60,
                     **options: Any) -> int:
    """The deals a match of the newcomer (seat 0) against ``opponent`` takes, at most
    ``most`` (then it is cut)."""
    state = new_game("drawbridge", target=target, **options).deal(seed)
    players: list[Bot] = [Newcomer(seed), make(opponent, seed=seed + 1)]
    while not state.is_terminal and state.deal_number < most:  # type: ignore[attr-defined]
        player = players[state.current_player]  # type: ignore[index]
        state.apply(player.choose(state))
    return int(state.deal_number)  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("target", [30, 100])
def test_a_match_against_a_newcomer_ends_at_the_source_rules(target: int) -> None:
    """At the default rules (undertricks off) and target 30 or 100 every one of six
    matches ends within 15 deals (measured: 3.6 deals a match at target 30, 4.5 at
    100, over ten matches each). The heuristic of 1 December 2026 (heuristic-v1),
    which doubled the newcomer's every contract and seldom bid, took 20.6 and 29.5
    deals, up to 70, on the same deals."""
    now = [deals_to_the_end("heuristic", target, seed) for seed in range(6)]
    assert max(now) <= 15, now
    before = [deals_to_the_end("heuristic-v1", target, seed, most=16) for seed in range(6)]
    assert max(before) > 15, before  # the yardstick is the old bot: it stalled here


@pytest.mark.parametrize("undertricks", [False, True])
def test_two_heuristics_end_a_match_to_100_in_a_few_deals(undertricks: bool) -> None:
    for seed in range(10):
        state = new_game("drawbridge", undertricks=undertricks).deal(seed)
        players = [make("heuristic", seed=seed), make("heuristic", seed=seed + 1)]
        while not state.is_terminal and state.deal_number < 30:  # type: ignore[attr-defined]
            state.apply(players[state.current_player].choose(state))  # type: ignore[index]
        assert state.is_terminal, seed
