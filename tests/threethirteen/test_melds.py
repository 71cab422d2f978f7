"""The meld solver (RULES.md 3.5, 3.7, 3.8) against a brute-force oracle, and arrange's API.

The oracle tries every way to split a hand into groups and keeps the groups that are
melds by the rule book's words; it is exponential but exact, and shares no code with
the solver.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import OptionsError
from cardtable.cards import CARD_NAMES, RANKS, card_name, parse_card
from cardtable.threethirteen import arrange
from cardtable.threethirteen.melds import pack, solver

# ---------------------------------------------------------------- the oracle


def penalty_of(card: str, aces: str, face_values: str) -> int:
    """3.7 / 3.8: the penalty of one unmelded card."""
    rank = RANKS.index(card[0])
    if rank == 0:
        return 15 if aces == "both" else 1
    if rank >= 10:
        return rank + 1 if face_values == "counting" else 10
    return rank + 1


def is_meld(group: list[str], wild: str, aces: str, all_wild_melds: bool) -> bool:
    """3.5 / 3.8: a set or a run of three or more cards; wild cards stand in for any card."""
    if len(group) < 3:
        return False
    naturals = [c for c in group if c[0] != wild]
    if not naturals:
        return all_wild_melds
    if len({c[0] for c in naturals}) == 1:
        return True  # a set: one rank (identical cards allowed)
    if len({c[1] for c in naturals}) != 1 or len(group) > 13:
        return False
    ranks = [RANKS.index(c[0]) for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False  # no rank twice in a run
    placings = [ranks]
    if aces == "both" and 0 in ranks:
        placings.append([13 if r == 0 else r for r in ranks])  # the ace high, Q-K-A
    # the run is len(group) places long; its natural cards must fit in such a stretch
    return any(max(p) - min(p) + 1 <= len(group) for p in placings)


def oracle(cards: list[str], round_: int, aces: str = "low", all_wild_melds: bool = True,
           face_values: str = "ten") -> int:
    """The least penalty over every split of ``cards`` into melds and deadwood."""
    wild = RANKS[round_ + 1]
    n = len(cards)
    # cards that could share a meld with card i: same rank, same suit, or a wild card
    partners = [sum(1 << j for j in range(n) if j != i and (
        cards[i][0] == cards[j][0] or cards[i][1] == cards[j][1]
        or wild in (cards[i][0], cards[j][0]))) for i in range(n)]

    @cache
    def best(left: int) -> int:
        if not left:
            return 0
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        value = penalty_of(cards[first], aces, face_values) + best(rest)
        options = rest & partners[first]
        subset = options
        while subset:
            group = [cards[first]] + [cards[j] for j in range(n) if subset >> j & 1]
            if is_meld(group, wild, aces, all_wild_melds):
                value = min(value, best(rest & ~subset))
            subset = (subset - 1) & options
        return value

    return best((1 << n) - 1)


def check_split(cards: list[str], round_: int, aces: str, all_wild_melds: bool,
                face_values: str) -> None:
    melds, deadwood, penalty = arrange(cards, round_, aces=aces, all_wild_melds=all_wild_melds,
                                       face_values=face_values)
    assert penalty == oracle(cards, round_, aces, all_wild_melds, face_values)
    wild = RANKS[round_ + 1]
    for meld in melds:
        assert is_meld(meld, wild, aces, all_wild_melds), f"{meld} is not a meld"
    assert Counter(c for m in melds for c in m) + Counter(deadwood) == Counter(cards)
    assert sum(penalty_of(c, aces, face_values) for c in deadwood) == penalty


# ---------------------------------------------------------------- hypothesis hands

OPTIONS = st.fixed_dictionaries({
    "aces": st.sampled_from(["low", "both"]),
    "all_wild_melds": st.booleans(),
    "face_values": st.sampled_from(["ten", "counting"]),
})


@st.composite
def hands(draw: st.DrawFn, max_size: int, dense: bool) -> tuple[list[str], int]:
    """A hand from one to three decks; ``dense`` keeps it to a few suits and many wild cards."""
    round_ = draw(st.integers(1, 11))
    decks = draw(st.integers(1, 3))
    wild = round_ + 1
    pool = [c for c in range(52) for _ in range(decks)]
    if dense:
        suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=2))
        low = draw(st.integers(0, 8))
        pool = [c for c in pool if c % 13 == wild or (c // 13 in suits and low <= c % 13 < low + 6)]
        pool += [s * 13 + wild for s in range(4) for _ in range(decks)]  # more wild cards
    size = draw(st.integers(0, max_size))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size))
    return [card_name(pool[i]) for i in dict.fromkeys(picks)], round_


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(max_size=10, dense=False), OPTIONS)
def test_arrange_matches_the_oracle(hand: tuple[list[str], int], options: dict) -> None:
    cards, round_ = hand
    check_split(cards, round_, **options)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(max_size=10, dense=True), OPTIONS)
def test_arrange_matches_the_oracle_on_dense_hands_with_many_wild_cards(
        hand: tuple[list[str], int], options: dict) -> None:
    cards, round_ = hand
    check_split(cards, round_, **options)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(max_size=14, dense=False), OPTIONS)
def test_arrange_matches_the_oracle_on_full_hands(hand: tuple[list[str], int],
                                                  options: dict) -> None:
    cards, round_ = hand
    check_split(cards, round_, **options)


@pytest.mark.parametrize("seed", range(40))
def test_round_eleven_two_deck_hands_of_fourteen(seed: int) -> None:
    import random
    rng = random.Random(seed)
    cards = rng.sample([c for c in CARD_NAMES for _ in range(2)], 14)
    check_split(cards, 11, "low", True, "ten")


# ---------------------------------------------------------------- long runs and many wild cards


@pytest.mark.parametrize(("cards", "round_", "options"), [
    # a full run A..Q with a king standing in, and one wild card over: it still melds
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH KD", 11, {}),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH KD", 11, {"all_wild_melds": False}),
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH KD KC", 11, {"aces": "both"}),
    # two natural cards and a dozen wild cards
    ("2S 3S " + "KH " * 12, 11, {"all_wild_melds": False}),
    ("QS KS " + "3H " * 12, 1, {"all_wild_melds": False, "aces": "both"}),
    ("QS " + "3H " * 30, 1, {"all_wild_melds": False}),
])
def test_every_wild_card_melds_once_a_natural_card_does(cards: str, round_: int,
                                                         options: dict) -> None:
    melds, deadwood, penalty = arrange(cards.split(), round_, **options)
    wild = RANKS[round_ + 1]
    assert (penalty, deadwood) == (0, [])
    assert all(is_meld(m, wild, options.get("aces", "low"), options.get("all_wild_melds", True))
               for m in melds)
    assert Counter(c for m in melds for c in m) == Counter(cards.split())


# ---------------------------------------------------------------- examples by rule


@pytest.mark.parametrize(("cards", "round_", "options", "penalty"), [
    ("7C 7H 7S", 11, {}, 0),  # 3.5: a set
    ("7C 7H 7S 7D", 11, {}, 0),
    ("7C 7C 7C", 11, {}, 0),  # 3.1: identical cards from several decks in one set
    ("4D 5D 6D", 11, {}, 0),  # 3.5: a run
    ("AD 2D 3D", 11, {}, 0),  # ace low
    ("QD KD AD", 1, {}, 21),  # Q-K-A is not a run, aces low
    ("KD AD 2D", 1, {}, 13),  # runs never wrap
    ("5H 5H 6H", 11, {}, 16),  # no rank twice in a run
    ("4D 5D 6C", 11, {}, 15),  # one suit
    ("4D 6D 8D", 11, {}, 18),  # consecutive ranks
    ("5H 6H 7H 7S 7D", 11, {}, 11),  # a card belongs to one meld: the sevens, 5H 6H left
    ("5H KS 7H", 11, {}, 0),  # 3.5: a wild card stands in for a run's card
    ("KS KH 5C", 11, {}, 0),  # any number of wild cards
    ("KS KH KD", 11, {}, 0),  # all_wild_melds: wild cards alone meld
    ("KS KH KD", 11, {"all_wild_melds": False}, 30),
    ("KS KH KD 5C", 11, {"all_wild_melds": False}, 0),
    ("KS 9C", 11, {}, 19),  # 3.7: an unmelded wild card counts its value
    ("JC QC 2H", 1, {}, 22),  # 3.7: J Q K count 10
    ("JC QC 2H", 1, {"face_values": "counting"}, 25),  # counting: J 11, Q 12, K 13
    ("KC 4H", 1, {"face_values": "counting"}, 17),
    ("AC 4H", 1, {}, 5),  # ace 1
    ("AC 4H", 1, {"aces": "both"}, 19),  # 3.8: an unmelded ace costs 15
    ("QD KD AD", 1, {"aces": "both"}, 0),  # 3.8: ace high
    ("AD 2D 3D", 1, {"aces": "both"}, 0),  # ace low
    ("KD AD 2D", 1, {"aces": "both"}, 15 + 2 + 10),  # never wrapping
    ("AD 2D 4D QD KD", 1, {"aces": "both"}, 6),  # never low and high at once
    ("AD 2D 4D QD KD", 2, {"aces": "both"}, 2),  # 4s wild: A-2-(4) and Q-K-A need two aces
    ("3C 3C AD 2D QD KD AD", 1, {"aces": "both"}, 0),  # two aces: one low, one high
])
def test_examples(cards: str, round_: int, options: dict, penalty: int) -> None:
    assert arrange(cards.split(), round_, **options)[2] == penalty
    check_split(cards.split(), round_, options.get("aces", "low"),
                options.get("all_wild_melds", True), options.get("face_values", "ten"))


def test_runs_list_their_cards_in_order_with_the_wild_card_where_it_stands() -> None:
    assert arrange(["7H", "KS", "5H"], 11) == ([["5H", "KS", "7H"]], [], 0)
    assert arrange(["QD", "AD", "3H"], 1, aces="both") == ([["QD", "3H", "AD"]], [], 0)


def test_arrange_reads_any_card_notation_and_returns_canonical_notation() -> None:
    assert arrange(["10h", "9h", "jh"], 11) == ([["9H", "TH", "JH"]], [], 0)
    assert arrange([], 5) == ([], [], 0)


@pytest.mark.parametrize(("args", "kwargs"), [
    ((["AS"], 0), {}), ((["AS"], 12), {}), ((["AS"], True), {}), ((["AS"], "3"), {}),
    ((["AS"], 3), {"aces": "high"}), ((["AS"], 3), {"face_values": "eleven"}),
    ((["AS"], 3), {"all_wild_melds": 1}),
])
def test_bad_rounds_and_options_are_options_errors(args: tuple, kwargs: dict) -> None:
    with pytest.raises(OptionsError):
        arrange(*args, **kwargs)


@pytest.mark.parametrize("cards", [["ZZ"], ["AS", 7], "AS 2S 3S", ["1S"]])
def test_bad_cards_are_value_errors(cards: object) -> None:
    with pytest.raises(ValueError):
        arrange(cards, 3)  # type: ignore[arg-type]


def test_arrange_returns_fresh_lists() -> None:
    melds, deadwood, _ = arrange(["5H", "6H", "7H", "9C"], 11)
    melds[0].append("XX")
    deadwood.clear()
    assert arrange(["5H", "6H", "7H", "9C"], 11) == ([["5H", "6H", "7H"]], ["9C"], 9)


def test_parse_card_round_trip_for_every_card() -> None:
    assert all(card_name(parse_card(name)) == name for name in CARD_NAMES)


# ---------------------------------------------------------------- going out: melds fully


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(hands(max_size=10, dense=False), hands(max_size=10, dense=True)), OPTIONS)
def test_the_engines_penalty_and_going_out_test_agree_with_the_oracle(
        hand: tuple[list[str], int], options: dict) -> None:
    """3.6 / 3.7: the solver's penalty alone, and its "melds fully" test used to go out."""
    cards, round_ = hand
    melder = solver(options["aces"], options["face_values"])
    ints = [parse_card(c) for c in cards]
    wild = round_ + 1
    packed = pack([c for c in ints if c % 13 != wild])
    wilds = sum(c % 13 == wild for c in ints)
    least = oracle(cards, round_, **options)
    wild_value = penalty_of(RANKS[wild] + "S", options["aces"], options["face_values"])
    assert melder.penalty(packed, wilds, wild_value, options["all_wild_melds"]) == least
    assert melder.melds_fully(packed, wilds, options["all_wild_melds"]) == (least == 0)
