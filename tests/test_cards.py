"""Card notation: every spelling a player may type reads back to the same card."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import (
    CARD_NAMES,
    RANKS,
    SUITS,
    card_name,
    cards_of,
    deck,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)

cards = st.integers(min_value=0, max_value=51)
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@given(cards)
def test_notation_round_trips(card: int) -> None:
    assert parse_card(card_name(card)) == card
    assert make_card(rank_of(card), suit_of(card)) == card


@given(cards, st.booleans(), st.booleans(), st.sampled_from(["plain", "symbol", "symbol-first"]))
def test_every_spelling_reads_the_same(card: int, lower: bool, ten: bool, suit_form: str) -> None:
    name = card_name(card)
    rank, suit = name[0], name[1]
    if ten and rank == "T":
        rank = "10"
    text = {"plain": rank + suit, "symbol": rank + SYMBOLS[suit],
            "symbol-first": SYMBOLS[suit] + rank}[suit_form]
    assert parse_card(text.lower() if lower else text) == card


@pytest.mark.parametrize("bad", ["", "1S", "11H", "AX", "ZZ", "A", "AS2", "TT", "J♦♦"])
def test_bad_notation_says_how_to_write_a_card(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


@given(st.lists(cards, max_size=20, unique=True))
def test_masks_round_trip(hand: list[int]) -> None:
    assert cards_of(mask_of(hand)) == sorted(hand)


def test_deck_and_names() -> None:
    assert len(CARD_NAMES) == 52 == len(set(CARD_NAMES))
    assert sorted(deck(2)) == sorted(list(range(52)) * 2)
    assert {n[0] for n in CARD_NAMES} == set(RANKS) and {n[1] for n in CARD_NAMES} == set(SUITS)
    assert parse_cards("AS, 10d ♣K") == [parse_card("AS"), parse_card("TD"), parse_card("KC")]
