"""The Draw Bridge solver (cardtable.drawbridge.solver) against a brute-force minimax, and
par against what perfect players must get."""

from __future__ import annotations

import random
from functools import cache
from importlib.util import find_spec

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.bots import make
from cardtable.cards import cards_of, mask_of, parse_card
from cardtable.core import OptionsError, PositionError
from cardtable.drawbridge import DrawBridgeState
from cardtable.drawbridge.game import PASS
from cardtable.drawbridge.scoring import STRAINS
from cardtable.drawbridge.solver import (
    Auction,
    PlayPosition,
    auction_of,
    card_values,
    match_value,
    solve,
    trick_table,
)

ENGINES = ["python", pytest.param("numba", marks=pytest.mark.skipif(
    find_spec("numba") is None, reason="numba is not installed (cardtable[fast])"))]
#: 1.5: the trump suit of each strain (card suits S H D C are 0..3), None in no trump
TRUMPS = (3, 2, 1, 0, None)
#: rank order: 2 lowest .. ace highest (ranks indexed A=0 .. K=12 in card ids)
ORDER = "23456789TJQKA"


def power(card: int) -> int:
    return ORDER.index("A23456789TJQK"[card % 13])


def brute(hands: list[list[int]], to_move: int, lead: int | None, trump: int | None) -> int:
    """Seat 0's tricks from here by plain minimax over every legal card (RULES 1.5),
    remembered per position (the same tree, each position's value worked out once)."""
    return _brute(tuple(sorted(hands[0])), tuple(sorted(hands[1])), to_move, lead, trump)


@cache
def _brute(hand0: tuple[int, ...], hand1: tuple[int, ...], to_move: int, lead: int | None,
           trump: int | None) -> int:
    hands = [hand0, hand1]
    hand = hands[to_move]
    if lead is None and not hand:
        return 0
    suited = [c for c in hand if lead is not None and c // 13 == lead // 13]
    values = []
    for card in suited or hand:  # 1.5: follow suit if you can
        rest = [list(h) for h in hands]
        rest[to_move].remove(card)
        if lead is None:
            values.append(brute(rest, 1 - to_move, card, trump))
            continue
        if card // 13 == lead // 13:
            follower_wins = power(card) > power(lead)
        else:
            follower_wins = card // 13 == trump
        winner = to_move if follower_wins else 1 - to_move
        values.append((winner == 0) + brute(rest, winner, None, trump))
    return max(values) if to_move == 0 else min(values)


def random_position(rng: random.Random, most: int = 5) -> PlayPosition:
    """Up to ``most`` tricks left, any strain, either seat to play, mid-trick half the
    time."""
    tricks = rng.randint(1, most)
    deck = list(range(52))
    rng.shuffle(deck)
    to_move = rng.randrange(2)
    hands = [deck[:tricks], deck[tricks:2 * tricks]]
    lead = None
    if rng.random() < 0.5:
        lead = deck[2 * tricks]
        hands[to_move].append(deck[2 * tricks + 1])
    return PlayPosition((mask_of(hands[0]), mask_of(hands[1])), rng.randrange(5), to_move,
                        lead)


def check_against_brute_force(position: PlayPosition, engine: str) -> None:
    hands = [cards_of(position.hands[0]), cards_of(position.hands[1])]
    trump = TRUMPS[position.strain]
    left = max(len(hands[0]), len(hands[1]))
    expected = brute(hands, position.to_move, position.lead, trump)
    assert solve(position, engine) == (expected, left - expected), position
    mover = position.to_move
    for card, value in card_values(position, engine).items():
        rest = [list(h) for h in hands]
        rest[mover].remove(card)
        if position.lead is None:
            zero = brute(rest, 1 - mover, card, trump)
        else:
            if card // 13 == position.lead // 13:
                wins = power(card) > power(position.lead)
            else:
                wins = card // 13 == trump
            winner = mover if wins else 1 - mover
            zero = (winner == 0) + brute(rest, winner, None, trump)
        assert value == (zero if mover == 0 else left - zero), (position, card)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_solver_agrees_with_brute_force(engine: str) -> None:
    rng = random.Random(26)
    for _ in range(300):
        check_against_brute_force(random_position(rng), engine)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_the_solver_agrees_with_brute_force_on_10000_positions(engine: str) -> None:
    rng = random.Random(2026)
    seen = set()
    for _ in range(10_000):
        position = random_position(rng)
        seen.add((position.strain, position.to_move, position.lead is None))
        check_against_brute_force(position, engine)
        _brute.cache_clear()    # each position's tree from nothing (and memory stays flat)
    assert len(seen) == 5 * 2 * 2  # every strain, both to play, at a trick's start and mid-trick


@st.composite
def positions(draw: st.DrawFn) -> PlayPosition:
    deck = draw(st.permutations(range(52)))
    tricks = draw(st.integers(1, 4))
    to_move = draw(st.integers(0, 1))
    hands = [list(deck[:tricks]), list(deck[tricks:2 * tricks])]
    lead = None
    if draw(st.booleans()):
        lead = deck[2 * tricks]
        hands[to_move].append(deck[2 * tricks + 1])
    return PlayPosition((mask_of(hands[0]), mask_of(hands[1])), draw(st.integers(0, 4)),
                        to_move, lead)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_any_position_agrees_with_brute_force(position: PlayPosition) -> None:
    check_against_brute_force(position, "python")


def play_positions(seed: int) -> list[tuple[DrawBridgeState, PlayPosition]]:
    """Every play position of the first deal of a match between heuristic bots, from its
    first lead to its last card (a deal passed out gives none)."""
    state = cardtable.new_game("drawbridge").deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    bots = [make("heuristic", seed=seed), make("heuristic", seed=seed + 1)]
    out = []
    while state.deal_number == 1 and not state.is_terminal:
        if state.phase == "play":
            out.append((state.clone(), PlayPosition.of(state)))
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_a_position_is_worth_its_best_card_along_real_games(engine: str) -> None:
    checked = 0
    for seed in range(6):
        for state, position in play_positions(seed):
            mover = position.to_move
            values = card_values(position, engine)
            assert set(values) == {a.id for a in state.legal_actions()}
            assert solve(position, engine)[mover] == max(values.values())
            for card, value in values.items():
                after = state.clone()
                after.apply(card)
                if after.deal_number != state.deal_number or after.is_terminal:
                    # the last card of the deal: the deal's record says who took the trick
                    record = after.records[-1]
                    assert record.contract is not None
                    declarer = record.contract.declarer
                    won = record.declarer_tricks - state.tricks_won[declarer]
                    assert value == (won if mover == declarer else 1 - won)
                    continue
                won = after.tricks_won[mover] - state.tricks_won[mover]
                assert value == won + solve(PlayPosition.of(after), engine)[mover]
            checked += 1
    assert checked > 50


@pytest.mark.slow
@pytest.mark.skipif(find_spec("numba") is None, reason="numba is not installed")
def test_both_engines_give_the_same_trick_tables() -> None:
    rng = random.Random(7)
    for _ in range(8):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = (mask_of(deck[:13]), mask_of(deck[13:26]))
        assert trick_table(hands, "python") == trick_table(hands, "numba")


def test_a_trick_table_is_the_tricks_of_each_declarer() -> None:
    spades = [parse_card(c) for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S",
                                      "5S", "4S", "3S", "2S")]
    hearts = [parse_card(r + "H") for r in "AKQJT98765432"]
    table = trick_table((mask_of(spades), mask_of(hearts)))
    # each side wins every trick in its own suit; in NT and the minors the leader runs its
    # suit, and the other seat leads (1.5)
    assert table[STRAINS.index("S")] == (13, 0)
    assert table[STRAINS.index("H")] == (0, 13)
    assert table[STRAINS.index("NT")] == (0, 0)
    assert table[STRAINS.index("C")] == (0, 0)


def test_bad_positions_are_refused() -> None:
    two = mask_of([0, 1])
    with pytest.raises(PositionError, match="disjoint"):
        PlayPosition((two, two), 0, 0)
    with pytest.raises(PositionError, match="as many cards"):
        PlayPosition((two, mask_of([5])), 0, 0)
    with pytest.raises(PositionError, match="strain"):
        PlayPosition((mask_of([0]), mask_of([5])), 5, 0)
    with pytest.raises(PositionError, match="lead"):
        PlayPosition((mask_of([0]), mask_of([5])), 0, 0, lead=5)
    with pytest.raises(OptionsError, match="engine"):
        solve(PlayPosition((mask_of([0]), mask_of([5])), 0, 0), engine="fortran")
    state = cardtable.new_game("drawbridge").deal(seed=1)
    assert isinstance(state, DrawBridgeState)
    with pytest.raises(PositionError, match="draw phase"):
        PlayPosition.of(state)
    with pytest.raises(PositionError, match="draw phase"):
        auction_of(state)


# -- par ----------------------------------------------------------------------------


def random_table(rng: random.Random) -> tuple[tuple[int, int], ...]:
    deck = list(range(52))
    rng.shuffle(deck)
    return trick_table((mask_of(deck[:13]), mask_of(deck[13:26])))


def test_par_is_an_equilibrium_of_the_auction() -> None:
    """No call of the par auction can be bettered by the seat that made it."""
    rng = random.Random(11)
    for i in range(12):
        auction = Auction(random_table(rng), (rng.randrange(100), rng.randrange(100)), 100,
                          undertricks=bool(i % 2), dealer=i % 3 % 2)
        par = auction.par()
        assert par.value == pytest.approx(match_value(
            (auction.scores[0] + par.points[0], auction.scores[1] + par.points[1]), 100))
        for k, call in enumerate(par.calls):
            seat = (auction.dealer + k) % 2
            values = auction.call_values(par.calls[:k])
            best = max(values.values()) if seat == 0 else min(values.values())
            assert values[call] == best


def test_without_undertricks_a_failed_bid_is_a_free_sacrifice() -> None:
    """RULES 1.6: a failed contract scores nothing, so a perfect player outbids any
    contract the opponent would make: nobody scores unless someone makes 7NT."""
    rng = random.Random(12)
    for _ in range(12):
        table = random_table(rng)
        auction = Auction(table, (30, 60), 100, undertricks=False, dealer=0)
        if max(table[4]) == 13:
            continue
        assert auction.par().value == pytest.approx(match_value((30, 60), 100))


def test_with_undertricks_a_seat_one_point_from_the_target() -> None:
    """At 99 of 100 any score wins the match, so the opponent's failed contracts pay
    seat 0 too: seat 0 wins when the opponent can make nothing (then seat 0 makes seven
    tricks somewhere), and cannot win when it can make nothing itself."""
    rng = random.Random(13)
    seen = set()
    for _ in range(40):
        table = random_table(rng)
        value = Auction(table, (99, 0), 100, undertricks=True, dealer=1).par().value
        if max(row[1] for row in table) <= 6:
            assert value == 1.0
            seen.add("wins")
        if max(row[0] for row in table) <= 6:
            assert value < 1.0
            seen.add("cannot")
    assert seen == {"wins", "cannot"}


def test_auction_of_a_state_keeps_the_hands_of_the_auction() -> None:
    state = cardtable.new_game("drawbridge", undertricks=True).deal(seed=4)
    assert isinstance(state, DrawBridgeState)
    rng = random.Random(4)
    while state.phase == "draw":
        state.apply(rng.choice(state.legal_actions()))
    at_auction = auction_of(state)
    assert at_auction.table == trick_table(state.hand_masks)
    par = at_auction.par()
    assert par.calls[-1] == PASS and par.to_json()["auction"][-1] == "pass"
    for call in par.calls:
        state.apply(call)
    assert par.contract is not None and state.phase == "play"
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert auction_of(state).table == at_auction.table
