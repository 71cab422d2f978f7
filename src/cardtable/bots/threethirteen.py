"""A Three Thirteen strategy, from the seat's view and the meld solver.

- Draw: take the top discard when it lowers the hand's best penalty after the
  following discard (a card that completes or extends a meld, or a wild card);
  otherwise draw from the stock.
- Discard: the card whose removal leaves the least penalty; among equals, keep
  wild cards and cards close to melds (pairs, suit neighbours) and shed the
  highest deadwood.
"""

from __future__ import annotations

import math
from typing import Any

from cardtable.cards import card_names
from cardtable.core import Action, State
from cardtable.threethirteen import arrange

RANKS = "A23456789TJQK"


def _penalty(cards: list[str], view: dict[str, Any], options: dict[str, Any]) -> int:
    _, _, penalty = arrange(cards, view["round"], aces=options["aces"],
                            all_wild_melds=options["all_wild_melds"],
                            face_values=options["face_values"])
    return penalty


def _closeness(card: str, hand: list[str]) -> int:
    """How many other cards could meld with ``card``: same rank, or same suit within two."""
    r = RANKS.index(card[0])
    near = 0
    for other in hand:
        if other is card:
            continue
        if other[0] == card[0] or other[1] == card[1] and abs(RANKS.index(other[0]) - r) <= 2:
            near += 1
    return near


def _value(card: str, face_values: str) -> int:
    r = RANKS.index(card[0]) + 1
    return r if r <= 10 or face_values == "counting" else 10


class ThreeThirteenHeuristic:
    # ISMCTS scores its leaves with ``evaluate`` at once (no playout): the hands' best
    # penalties are a far sharper signal than random play within a long round
    rollout_horizon = 0

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        view = state.view(seat)
        options = state.game.options
        legal = state.legal_actions()
        hand = list(view["hand"])
        names = [str(a) for a in legal]
        if "draw" in names or "take" in names:
            return [(self._draw_value(name, hand, view, options), a)
                    for name, a in zip(names, legal, strict=True)]
        wild = view["wild_rank"]
        out = []
        cache: dict[str, float] = {}
        for name, action in zip(names, legal, strict=True):
            card = name.split()[1]
            if card not in cache:
                rest = list(hand)
                rest.remove(card)
                penalty = _penalty(rest, view, options)
                keep = 50.0 if card[0] == wild else _closeness(card, hand)
                cache[card] = -1000.0 * penalty - 10.0 * keep + _value(card, options["face_values"])
            out.append((cache[card], action))
        return out

    def _draw_value(self, name: str, hand: list[str], view: dict[str, Any],
                    options: dict[str, Any]) -> float:
        if name == "draw" or not view["discard"]:
            return 0.0
        top = view["discard"][0]
        if top[0] == view["wild_rank"]:
            return 1.0
        now = _penalty(hand, view, options)
        with_top = hand + [top]
        best = min(_penalty([c for j, c in enumerate(with_top) if j != i], view, options)
                   for i in range(len(with_top)) if with_top[i] != top)
        return 1.0 if best < now else -1.0

    def evaluate(self, state: State) -> list[float]:
        """Each seat's total plus what its hand would cost now at its best split (3.7),
        against the others' totals. Only the seat's own hand counts for it: the others'
        hands are samples of the determinization, and would only add noise."""
        view = state.view(None)
        options = state.game.options
        totals = view["scores"]
        out = []
        for seat, hand in enumerate(state.hands):  # type: ignore[attr-defined]
            mine = totals[seat] + _penalty(card_names(hand), view, options)
            others = [t for s, t in enumerate(totals) if s != seat]
            out.append(math.tanh((sum(others) / len(others) - mine) / 30.0))
        return out


HEURISTIC = ThreeThirteenHeuristic()
