"""Cards and their notation, shared by every game.

A card is a plain int ``0..51``: ``suit * 13 + rank`` with ranks ``A 2 .. T J Q K``
(index 0..12) and suits ``S H D C`` (index 0..3). Games with several decks count
copies; games with one deck may keep a hand as a 52-bit mask.

Examples:
    >>> card_name(parse_card("10d"))
    'TD'
    >>> [card_name(c) for c in parse_cards("AS 7h ♣K")]
    ['AS', '7H', 'KC']
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
NUM_CARDS = 52

RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_SUIT_SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}

#: notation of every card, indexed by card int
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def make_card(rank: int, suit: int) -> int:
    """The card of rank index ``rank`` (0 = ace .. 12 = king) and suit index ``suit``."""
    return suit * 13 + rank


def rank_of(card: int) -> int:
    """Rank index, 0 (ace) .. 12 (king)."""
    return card % 13


def suit_of(card: int) -> int:
    """Suit index, 0..3 for S H D C."""
    return card // 13


def card_name(card: int) -> str:
    """Notation of a card: rank letter then suit letter, e.g. ``TD``."""
    return CARD_NAMES[card]


def card_names(cards: Iterable[int]) -> list[str]:
    """Notation of several cards, in the order given."""
    return [CARD_NAMES[c] for c in cards]


def parse_card(text: str) -> int:
    """Read card notation: ``AS``, ``td``, ``10D``, ``7♥`` or ``♥7``; raises ValueError."""
    t = text.strip().upper()
    if t and t[0] in _SUIT_SYMBOLS:
        t = t[1:] + t[0]
    if t and t[-1] in _SUIT_SYMBOLS:
        t = t[:-1] + _SUIT_SYMBOLS[t[-1]]
    if t.startswith("10"):
        t = "T" + t[2:]
    card = _BY_NAME.get(t)
    if card is None:
        raise ValueError(
            f"{text!r} is not a card: write the rank ({' '.join(RANKS)}, or 10) "
            f"then the suit ({' '.join(SUITS)}), e.g. AS, TD, 7H"
        )
    return card


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read several cards, from a list of notations or a space/comma separated string."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if isinstance(text, str):
        return [parse_card(t) for t in items]
    out = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"{item!r} is not a card: cards are notation strings such as 'AS'")
        out.append(parse_card(item))
    return out


def deck(decks: int = 1) -> list[int]:
    """Every card ``decks`` times, in order."""
    return [c for _ in range(decks) for c in range(NUM_CARDS)]


def mask_of(cards: Iterable[int]) -> int:
    """A 52-bit mask with one bit per card (one-deck games)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a 52-bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by suit S H D C, then rank A..K."""
    return (card // 13, card % 13)
