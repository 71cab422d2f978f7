"""The numba meld kernel (cardtable.vector.threethirteen_melds) against a brute force over
every split of small hands, and against the scalar solver on hands of play (RULES 3.5-3.8)."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

import numpy as np  # noqa: E402

from cardtable.cards import CARD_NAMES, parse_card  # noqa: E402
from cardtable.threethirteen.melds import arrange, deadwood_values  # noqa: E402
from cardtable.vector.threethirteen_melds import (  # noqa: E402
    VALUES,
    melds_fully,
    penalties,
    scratch,
)

OPTION_SETS = [(aces, faces, all_wild) for aces in ("low", "both")
               for faces in ("ten", "counting") for all_wild in (True, False)]


def is_meld(group: tuple[int, ...], wild: int, ace_high: bool, all_wild: bool) -> bool:
    """3.5 / 3.8 read directly: three or more cards, a set of one rank or a run of one
    suit (wild cards standing for any card), or wild cards alone if allowed."""
    if len(group) < 3:
        return False
    naturals = [c for c in group if c % 13 != wild]
    if not naturals:
        return all_wild
    if len({c % 13 for c in naturals}) == 1:
        return True
    if len({c // 13 for c in naturals}) != 1 or len(group) > 13:
        return False
    for high in (False, True) if ace_high else (False,):
        places = [13 if high and c % 13 == 0 else c % 13 for c in naturals]
        if len(set(places)) == len(places) and max(places) - min(places) + 1 <= len(group):
            return True
    return False


def brute_penalty(cards: list[int], round_: int, aces: str, faces: str,
                  all_wild: bool) -> int:
    """The least deadwood over every way to put the cards into melds (3.7)."""
    wild = round_ + 1
    values = deadwood_values(aces, faces)

    @cache
    def least(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = values[first % 13] + least(others)
        for size in range(2, len(others) + 1):
            for picked in itertools.combinations(range(len(others)), size):
                group = (first, *(others[k] for k in picked))
                if is_meld(group, wild, aces == "both", all_wild):
                    left = tuple(c for k, c in enumerate(others) if k not in picked)
                    best = min(best, least(left))
        return best

    return least(tuple(sorted(cards)))


def counts(cards: list[int]) -> np.ndarray:
    return np.bincount(np.asarray(cards, np.int64), minlength=52)[None]


def random_hands(rng: random.Random, k: int, low: int, high: int, decks: int
                 ) -> list[tuple[list[int], int]]:
    """k hands of low..high cards from ``decks`` decks, each with a random round; the
    cards are drawn near each other often, so that melds are common."""
    out = []
    for _ in range(k):
        round_ = rng.randint(1, 11)
        size = rng.randint(low, high)
        centre = rng.randrange(52)
        pool = [c for c in range(52) for _ in range(decks)
                if rng.random() < 0.5 or abs(c % 13 - centre % 13) <= 2]
        out.append((rng.sample(pool, size), round_))
    return out


@pytest.mark.parametrize("aces,faces,all_wild", OPTION_SETS)
def test_the_kernel_is_the_brute_force_on_small_hands(aces: str, faces: str,
                                                      all_wild: bool) -> None:
    rng = random.Random(OPTION_SETS.index((aces, faces, all_wild)))
    values = VALUES[aces, faces]
    work = scratch()
    for cards, round_ in random_hands(rng, 400, 3, 8, 2):
        want = brute_penalty(cards, round_, aces, faces, all_wild)
        got = int(penalties(counts(cards), round_, aces, faces, all_wild)[0])
        assert got == want, ([CARD_NAMES[c] for c in cards], round_)
        full = melds_fully(counts(cards)[0], round_ + 1, values, aces == "both", all_wild,
                           work)
        assert full == (want == 0)


@pytest.mark.parametrize("aces,faces,all_wild", OPTION_SETS)
def test_the_kernel_is_the_scalar_solver_on_hands_of_play(aces: str, faces: str,
                                                          all_wild: bool) -> None:
    rng = random.Random(7 + len(aces) + len(faces) + all_wild)
    hands = random_hands(rng, 300, 3, 14, rng.choice([1, 2, 4]))
    for round_ in range(1, 12):
        batch = [cards for cards, r in hands if r == round_]
        if not batch:
            continue
        got = penalties(np.concatenate([counts(c) for c in batch]), round_, aces, faces,
                        all_wild)
        for cards, penalty in zip(batch, got.tolist(), strict=True):
            names = [CARD_NAMES[c] for c in cards]
            assert penalty == arrange(names, round_, aces=aces, all_wild_melds=all_wild,
                                      face_values=faces)[2], (names, round_)


@pytest.mark.parametrize("cards,round_,options,penalty", [
    # the scalar solver's own examples (kings wild in round 11)
    ("5H 6H KS 9C 9D", 11, {}, 11),
    ("5H 6H KS 9C 4D", 11, {}, 13),
    # 3.8: Q K A is a run only when aces may be high; an unmelded ace then costs 15
    ("QS KS AS", 1, {"aces": "both"}, 0),
    ("QS KS AS", 1, {}, 21),
    ("AS 5H 9D", 1, {"aces": "both"}, 29),
    # 3.5: wild cards alone (threes wild in round 1) meld only under all_wild_melds
    ("3S 3H 3D", 1, {}, 0),
    ("3S 3H 3D", 1, {"all_wild_melds": False}, 9),
    # counting face values: J Q K cost 11 12 13
    ("JS QH KD", 1, {"face_values": "counting"}, 36),
    # two decks: the same card twice in a set
    ("7S 7S 7H", 1, {}, 0),
])
def test_examples(cards: str, round_: int, options: dict[str, object], penalty: int) -> None:
    hand = [parse_card(c) for c in cards.split()]
    aces = str(options.get("aces", "low"))
    faces = str(options.get("face_values", "ten"))
    all_wild = bool(options.get("all_wild_melds", True))
    assert int(penalties(counts(hand), round_, aces, faces, all_wild)[0]) == penalty
    assert brute_penalty(hand, round_, aces, faces, all_wild) == penalty
