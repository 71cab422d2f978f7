"""Positions for the Draw Bridge tests: deals built with ``setup`` and lines of play."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.cards import CARD_NAMES, parse_card
from cardtable.drawbridge import DrawBridgeGame, DrawBridgeState
from cardtable.drawbridge.game import POWER

# spare cards a test leaves unnamed, low first: they fill hands and the stock
SPARES = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]


def game(**options: Any) -> DrawBridgeGame:
    g = cardtable.new_game("drawbridge", **options)
    assert isinstance(g, DrawBridgeGame)
    return g


def deal(seed: int, **options: Any) -> DrawBridgeState:
    state = game(**options).deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    return state


def deal_position(hands: list[list[str]], stock: list[str] | None = None, dealer: int = 0,
                  scores: list[int] | None = None, **options: Any) -> DrawBridgeState:
    """The start of a deal; hands shorter than 13 (and a short stock) filled from SPARES."""
    named = {c for h in hands for c in h} | set(stock or [])
    spares = [c for c in SPARES if c not in named]
    hands = [h + [spares.pop(0) for _ in range(13 - len(h))] for h in hands]
    if stock is not None:
        stock = stock + [spares.pop(0) for _ in range(26 - len(stock))]
    return game(**options).setup(hands=hands, stock=stock, dealer=dealer,
                                 scores=scores or [0, 0], seed=3)


def auction_position(hands: list[list[str]], dealer: int = 0, scores: list[int] | None = None,
                     **options: Any) -> DrawBridgeState:
    """A deal played through its draw phase so that the auction starts with these ``hands``.

    The 26 other cards are dealt so that the non-dealer holds the higher half: it leads
    its cards high to low, the dealer answers low cards, the leader wins every draw trick
    (ties go to the card led) and draws the even stock cards, the dealer the odd ones.
    """
    assert all(len(h) == 13 for h in hands)
    leader = 1 - dealer
    named = {c for h in hands for c in h}
    rest = sorted((c for c in CARD_NAMES if c not in named),
                  key=lambda c: -POWER[parse_card(c)])
    dealt = [[], []]  # type: list[list[str]]
    dealt[leader], dealt[dealer] = rest[:13], rest[13:]
    stock = [card for k in range(13) for card in (hands[leader][k], hands[dealer][k])]
    state = game(**options).setup(hands=dealt, stock=stock, dealer=dealer,
                                  scores=scores or [0, 0], seed=3)
    for k in range(13):
        state.apply(dealt[leader][k])
        state.apply(dealt[dealer][k])
    assert state.phase == "auction"
    return state


def play(state: cardtable.State, actions: str) -> None:
    """Apply space-separated actions in order."""
    for text in actions.split():
        state.apply(text)


def legal(state: cardtable.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def hand(state: cardtable.State, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])
