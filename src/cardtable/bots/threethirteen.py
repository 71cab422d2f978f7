"""A Three Thirteen strategy, from the seat's view and the meld solver.

- Draw: take the top discard when it lowers the hand's best penalty after the
  following discard (a card that completes or extends a meld, or a wild card);
  otherwise draw from the stock.
- Discard: the card whose removal leaves the least penalty; among equals, keep
  wild cards and cards close to melds (pairs, suit neighbours) and shed the
  highest deadwood.

For ISMCTS (``cardtable.bots.ismcts``) it also gives a fast playout, the same
strategy with one meld search a move, played for two turns a seat (or to the end
of the round) and scored by the match standing with the hands as they stand; and
it asks for the "paired" root, since the stock decides more than any single
discard.
"""

from __future__ import annotations

import math
import random
from typing import Any

from cardtable.bots.base import Heuristic
from cardtable.cards import RANKS
from cardtable.core import Action, State
from cardtable.threethirteen import arrange
from cardtable.threethirteen.game import ACTIONS, DISCARD, DRAW, ROUNDS, TAKE, ThreeThirteenState
from cardtable.threethirteen.melds import UNIT, pack_hand


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


class ThreeThirteenHeuristic(Heuristic):
    # ISMCTS: every root move on the same determinizations, then the ``playout`` below
    root = "paired"
    # a random playout (``rollout="random"``) stops at once for ``evaluate``: the hands'
    # best penalties are a far sharper signal than random play within a long round
    rollout_horizon = 0
    # the lookahead bot (the expert level) beats the heuristic 64.1% of 400 (its first
    # version ISMCTS at 2,000 iterations 55% of 80), in milliseconds: a hint gives its
    # move (docs/bots.md)
    hint_bot = "lookahead"
    #: the spread of one round's penalty difference between two seats, for ``standing``
    ROUND_SPREAD = 12.0
    #: the playout stops after each seat has played this many turns, and scores the hands
    #: as they stand (None: at the end of the round). Two turns measured 1.0 +- 0.55
    #: points a round better than whole rounds (176 rounds at 0.25 s a move): they
    #: weigh what the next draws bring and what the opponent takes, without the noise
    #: of the rest of the round's stock.
    PLAYOUT_TURNS: int | None = 2

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        view = state.view(seat, history=False)
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
        """Mid-round: each seat's total plus what its hand would cost now at its best
        split (3.7), against the others' totals. A seat holding its drawn card is judged
        after discarding its highest deadwood, so hands compare at the same phase of a
        turn. Only the seat's own hand counts for it: the others' hands are samples of
        the determinization, and would only add noise."""
        assert isinstance(state, ThreeThirteenState)
        totals = state.totals
        values = state.game.solver.values
        out = []
        for seat, hand in enumerate(state.hands):
            _, deadwood, penalty = state.split(hand)
            if seat == state.current and not state.drawing:
                naturals = [values[c % 13] for c in deadwood
                            if c % 13 != state.wild]
                penalty = penalty - max(naturals) if naturals else 0
            mine = totals[seat] + penalty
            others = [t for s, t in enumerate(totals) if s != seat]
            out.append(math.tanh((sum(others) / len(others) - mine) / 30.0))
        return out

    def playout(self, state: State, rng: random.Random) -> list[float]:
        """Play on with the fast strategy for ``PLAYOUT_TURNS`` turns a seat or to the end of
        the round; each seat's prospects there (``standing``, the hands scored as they stand).

        Draw: take the top discard when it is wild or melds in the hand's best split
        (or the stock is empty). Discard: the highest natural deadwood card of the best
        split (one at random among equals), or when none is left, a card whose removal
        leaves melds only.
        """
        assert isinstance(state, ThreeThirteenState)
        melder = state.game.solver
        values = melder.values
        all_wild = state.game.all_wild_melds
        start = state.round
        # per seat, the penalty of its hand since its last discard (its highest deadwood
        # card left a best split of the rest: exactly the old penalty less that card)
        known: dict[int, int] = {}
        turns = self.PLAYOUT_TURNS
        discards = None if turns is None else turns * len(state.hands)
        while not state.over and state.round == start:
            if discards is not None and discards <= 0:
                return self.standing(state, [known[s] if s in known else state.split(h)[2]
                                             for s, h in enumerate(state.hands)])
            seat = state.current
            hand = state.hands[seat]
            wild = state.wild
            if state.drawing:
                take = not state.stock
                pile = state.discard
                if not take and pile:
                    top = pile[-1]
                    if top % 13 == wild:
                        take = True
                    else:
                        packed, wilds = pack_hand(hand, wild)
                        w = len(wilds)
                        now = known.get(seat)
                        if now is None:
                            now = melder.penalty(packed, w, values[wild], all_wild)
                        take = (melder.penalty(packed + UNIT[top], w, values[wild], all_wild)
                                < now + values[top % 13])
                state.apply(ACTIONS[TAKE if take else DRAW])
                continue
            _, deadwood, penalty = state.split(hand)
            naturals = [c for c in deadwood if c % 13 != wild]
            if naturals:
                high = max(values[c % 13] for c in naturals)
                choices = [c for c in naturals if values[c % 13] == high]
                known[seat] = penalty - high
            else:
                fits = state.melds_fully
                choices = [c for i, c in enumerate(hand) if fits(hand[:i] + hand[i + 1:])]
                if choices:
                    known[seat] = 0
                else:
                    choices = list(hand)
                    known.pop(seat, None)
            state.apply(ACTIONS[DISCARD + choices[rng.randrange(len(choices))]])
            if discards is not None:
                discards -= 1
        return self.standing(state)

    def standing(self, state: ThreeThirteenState,
                 penalties: list[int] | None = None) -> list[float]:
        """Each seat's prospects from the totals, after a round or, mid-round, with each
        hand's ``penalties`` added as if the round ended there: its lead over the others'
        mean, as a chance of winning the rounds left (each round's difference spread
        ``ROUND_SPREAD``), blended with a plain margin so that a
        lost or won cause still prefers the better score."""
        if state.is_terminal:
            return state.returns()
        totals = list(state.totals)
        if penalties is not None:
            totals = [t + p for t, p in zip(totals, penalties, strict=True)]
        left = ROUNDS - state.round + 1
        spread = self.ROUND_SPREAD * math.sqrt(2 * left)
        out = []
        for seat, mine in enumerate(totals):
            others = [t for s, t in enumerate(totals) if s != seat]
            lead = sum(others) / len(others) - mine
            out.append(0.7 * math.erf(lead / spread) + 0.3 * math.tanh(lead / 30.0))
        return out


HEURISTIC = ThreeThirteenHeuristic()
