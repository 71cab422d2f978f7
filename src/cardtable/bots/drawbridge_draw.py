"""Draw Bridge's draw phase by trained weights: which card to give up (RULES 1.3).

Without ``show_stock_top`` a draw trick decides only who draws the stock's top card
and who the next one, both unseen: the same chance either way. What a seat's card
changes is its own hand: the card played leaves the game. So the draw phase is a
choice of which 13 of the 26 cards a seat sees it keeps, and the deal is won in the
auction and play by the better hand. The heuristic gives up its lowest card; this
policy gives up the card it values least, by trained weights (``DrawWeights``):

    keep(card) = rank[card's rank] + length[cards held in its suit]
                 + suit_points * (high-card points held in its suit) + major * (a major)

(high-card points: ace 4, king 3, queen 2, jack 1; majors: hearts and spades, which
score 30 a trick to the minors' 20). A long suit with honours is a trump suit in the
making; a low card of a short, empty suit is the cheapest card to lose.

The weights are made by ``python -m cardtable.train drawbridge`` (``cardtable.train.
draw``: an evolution strategy whose fitness is the deal's worth at par against the
heuristic's draw, docs/training.md) and shipped as ``data/drawbridge_draw.json``.
Under ``show_stock_top`` a trick's winner takes a card both players see, so which card
wins the trick matters, and the weights were not trained for it. There the heuristic
decides whether to play for the card shown (it does for a jack or better, with its
cheapest winner); when it does not, a seat answering a lead gives up the card worth
least kept among those that lose the trick (it would rather draw an unseen card than a
poor one both see), and a leader plays the heuristic's lowest card. (Keep values alone
lost 40.8% of 400 matches of the perfect bot against perfect-v1 there: they won tricks
whose shown card was worse than an unseen one.)

Examples:
    >>> import cardtable
    >>> from cardtable.bots.drawbridge_draw import shipped
    >>> state = cardtable.new_game("drawbridge").deal(seed=1)
    >>> card = shipped().shed(state.hand_masks[state.current_player],
    ...                       state.legal_actions())
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from cardtable.cards import NUM_CARDS
from cardtable.core import Action
from cardtable.drawbridge.game import BEATS_DRAW, POWER, DrawBridgeState

__all__ = ["HIGH_CARD_POINTS", "DrawWeights", "draw_card", "shipped"]

#: high-card points by power (0 = a two ... 12 = an ace): jack 1, queen 2, king 3, ace 4
HIGH_CARD_POINTS = (0,) * 9 + (1, 2, 3, 4)
#: suits 0 and 1 are spades and hearts (``cardtable.drawbridge.game.SUIT_NAMES``)
MAJORS = (True, True, False, False)


@dataclass(frozen=True)
class DrawWeights:
    """What a card is worth keeping (module docstring): ``rank`` by power (13 values,
    two to ace), ``length`` by the cards held in the card's suit (14 values, 0 to 13),
    ``suit_points`` per high-card point held in the suit, ``major`` for a major."""

    rank: tuple[float, ...]
    length: tuple[float, ...]
    suit_points: float
    major: float

    def __post_init__(self) -> None:
        if len(self.rank) != 13 or len(self.length) != 14:
            raise ValueError("DrawWeights takes 13 rank and 14 length values")

    #: the order of ``vector``: rank, length, suit_points, major
    SIZE = 13 + 14 + 2

    @classmethod
    def start(cls) -> DrawWeights:
        """The weights training starts from: the power, 1.5 a card of length, 0.6 a point."""
        return cls(tuple(float(p) for p in range(13)),
                   tuple(1.5 * n for n in range(14)), 0.6, 0.0)

    def vector(self) -> list[float]:
        """The weights as one list (``from_vector``'s inverse)."""
        return [*self.rank, *self.length, self.suit_points, self.major]

    @classmethod
    def from_vector(cls, values: Sequence[float]) -> DrawWeights:
        if len(values) != cls.SIZE:
            raise ValueError(f"DrawWeights takes {cls.SIZE} values, not {len(values)}")
        v = [float(x) for x in values]
        return cls(tuple(v[:13]), tuple(v[13:27]), v[27], v[28])

    def to_json(self) -> dict[str, Any]:
        return {"rank": list(self.rank), "length": list(self.length),
                "suit_points": self.suit_points, "major": self.major}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DrawWeights:
        return cls(tuple(float(x) for x in data["rank"]),
                   tuple(float(x) for x in data["length"]),
                   float(data["suit_points"]), float(data["major"]))

    @classmethod
    def load(cls, path: str | Path) -> DrawWeights:
        """Weights from a JSON file: ``{"weights": {...}}`` (``to_json``'s keys)."""
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(json.load(fh)["weights"])

    def keep_values(self, hand: int) -> list[float]:
        """What each card of the deck would be worth keeping in ``hand`` (a mask)."""
        lengths = [0, 0, 0, 0]
        points = [0, 0, 0, 0]
        for card in range(52):
            if hand >> card & 1:
                lengths[card // 13] += 1
                points[card // 13] += HIGH_CARD_POINTS[POWER[card]]
        suit = [self.length[lengths[s]] + self.suit_points * points[s]
                + (self.major if MAJORS[s] else 0.0) for s in range(4)]
        return [self.rank[POWER[card]] + suit[card // 13] for card in range(52)]

    def shed(self, hand: int, legal: Sequence[Action]) -> Action:
        """The legal card worth least kept in ``hand``; of equals the lowest, then the
        lowest id (no random numbers)."""
        values = self.keep_values(hand)
        return min(legal, key=lambda a: (values[a.id], POWER[a.id], a.id))


@cache
def shipped() -> DrawWeights:
    """The package's trained weights (``data/drawbridge_draw.json``)."""
    path = resources.files("cardtable.bots") / "data" / "drawbridge_draw.json"
    return DrawWeights.from_json(json.loads(path.read_text(encoding="utf-8"))["weights"])


def draw_card(state: DrawBridgeState, weights: DrawWeights | None = None) -> Action:
    """The draw-phase card of the seat to act: the one worth least kept (``weights``,
    default the shipped ones); under ``show_stock_top``, the heuristic's card where it
    plays for the card shown or leads, else the one worth least kept of the cards that
    lose the trick (module docstring)."""
    seat = state.current_player
    if seat is None or state.phase != "draw":
        raise ValueError("draw_card: the state is not in its draw phase")
    legal = state.legal_actions()
    weights = weights or shipped()
    if state.game.show_stock_top:
        from cardtable.bots.base import heuristic_for

        choice = max(heuristic_for("drawbridge").scores(state, seat), key=lambda sa: sa[0])[1]
        card = state.observation(seat).lead
        if POWER[choice.id] > min(POWER[a.id] for a in legal) or card is None:
            return choice  # it plays for the card shown, or it leads
        beats = BEATS_DRAW[state.game.draw_trick_winner]
        losing = [a for a in legal if not beats[card * NUM_CARDS + a.id]]
        return weights.shed(state.hand_masks[seat], losing) if losing else choice
    return weights.shed(state.hand_masks[seat], legal)
