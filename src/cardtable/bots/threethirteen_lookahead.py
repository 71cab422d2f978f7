"""Three Thirteen's "lookahead" bot: every move judged by the hand it leaves after one more draw.

When a player goes out, every other player has one more turn (RULES 3.6), so the hand a
seat keeps at the end of its turn is never scored as it stands: at the earliest it is
scored after one more draw and discard. The bot plays for that hand.

- **Discard**: the card whose removal leaves the least *expected penalty after the next
  draw*: for each card the seat has not seen (each copy as likely as any other), the
  least penalty of the hand with that card drawn and the best card discarded, averaged.
  A hand that goes out counts not 0 but ``-going_out`` times the cards dealt this
  round (GOING_OUT, 3): going out ends the round while the other hands still hold
  their penalty, and that is what a match is won by. On the seat's last turn (someone
  went out) there is no next draw, and the card that leaves the least penalty now is
  thrown. Among equals it keeps wild cards and throws the highest card.
- **Draw**: take the top discard when it is wild, or when the hand with it, after the
  best discard, is worth less than after an average card of the stock (going out
  counted as above, except on the last turn).

The cards a seat has not seen are the decks less its hand, the discard pile and the
cards the others took from it (3.4); after the round's reshuffle, the cards of the old
pile that the seat has not drawn. It reads nothing else of the state, so two states
that differ only in hidden cards give the same move. A move costs up to some hundreds
of meld solves (``cardtable.threethirteen.melds``), each hand solved once: from a
millisecond in round 1 to about 40 ms for a discard in round 11
(``bench/threethirteen_lookahead.py``).

docs/bots.md has what it measured against the heuristic and ISMCTS.

Examples:
    >>> import cardtable
    >>> from cardtable.bots import make
    >>> state = cardtable.new_game("threethirteen").deal(seed=1)
    >>> state.apply(make("lookahead", seed=1).choose(state))
"""

from __future__ import annotations

from collections import Counter

from cardtable.core import Action
from cardtable.threethirteen.game import ACTIONS, DISCARD, DRAW, TAKE, ThreeThirteenState, deal_size
from cardtable.threethirteen.melds import UNIT, pack_hand

__all__ = ["GOING_OUT", "choose", "unseen"]

#: what going out is worth, in penalty points a card dealt this round, below a hand that
#: melds fully by luck: about what the other hands are left to score (docs/bots.md: level
#: with 0, the first lookahead, in matches won, 50.0% of 400, and two points a match lower
#: in total; 1 and 6 were no better)
GOING_OUT = 3.0

#: a hand as the meld solver takes it: its natural cards packed, and its count of wild cards
Hand = tuple[int, int]


def unseen(state: ThreeThirteenState, seat: int) -> Counter[int]:
    """The cards ``seat`` has not seen this round, with their counts: the cards the next
    draw from the stock may be."""
    seen: Counter[int] = Counter(state._hands[seat])
    seen.update(state._discard)
    for other, taken in enumerate(state._taken):
        if other != seat:
            seen.update(taken)
    hidden = Counter({card: state.game.decks for card in range(52)})
    hidden.subtract(seen)
    if state.reshuffled:
        # the stock is the old pile (the table saw it) less what was drawn since
        could = Counter(state._reshuffle_pile)
        could.subtract(state._drawn[seat])
        hidden &= could
    return +hidden


class _Judge:
    """The penalties of one seat's hands this turn, each solved once."""

    def __init__(self, state: ThreeThirteenState, seat: int, going_out: float = 0.0) -> None:
        game = state.game
        #: a hand that goes out counts this, not 0 (none on the seat's last turn)
        self.out = 0.0 if state.went_out is not None else -going_out * deal_size(state.round)
        self.melder = game.solver
        self.wild = state.wild
        self.wild_value = self.melder.values[self.wild]
        self.all_wild = game.all_wild_melds
        self.pool = list(unseen(state, seat).items())
        self.total = sum(count for _, count in self.pool)
        self.cache: dict[Hand, int] = {}

    def plus(self, hand: Hand, card: int) -> Hand:
        packed, wilds = hand
        return (packed, wilds + 1) if card % 13 == self.wild else (packed + UNIT[card], wilds)

    def minus(self, hand: Hand, card: int) -> Hand:
        packed, wilds = hand
        return (packed, wilds - 1) if card % 13 == self.wild else (packed - UNIT[card], wilds)

    def pack(self, cards: list[int]) -> Hand:
        packed, wilds = pack_hand(cards, self.wild)
        return packed, len(wilds)

    def penalty(self, hand: Hand) -> int:
        got = self.cache.get(hand)
        if got is None:
            got = self.cache[hand] = self.melder.penalty(hand[0], hand[1], self.wild_value,
                                                         self.all_wild)
        return got

    def after_discard(self, hand: Hand, cards: list[int]) -> int:
        """The least penalty of ``hand`` (holding ``cards``) less one card."""
        return min(self.penalty(self.minus(hand, card)) for card in set(cards))

    def worth(self, penalty: int) -> float:
        """A hand's worth at the end of a turn: its penalty, or ``out`` if it goes out."""
        return penalty if penalty else self.out

    def after_draw(self, hand: Hand, cards: list[int]) -> float:
        """The expected worth after one more draw from the stock and the best discard;
        the penalty as it stands when the seat has seen every card."""
        if not self.total:
            return float(self.worth(self.penalty(hand)))
        return sum(count * self.worth(self.after_discard(self.plus(hand, card), cards + [card]))
                   for card, count in self.pool) / self.total


def choose(state: ThreeThirteenState, going_out: float = GOING_OUT) -> Action:
    """The lookahead's move for the seat to act (module docstring); ``going_out`` 0 plays
    the first lookahead, which counted going out as a hand of no penalty."""
    seat = state.current
    judge = _Judge(state, seat, going_out)
    cards = list(state._hands[seat])
    hand = judge.pack(cards)
    last_turn = state.went_out is not None
    if state.drawing:
        if not state._stock:
            return ACTIONS[TAKE]
        if not state._discard:
            return ACTIONS[DRAW]
        top = state._discard[-1]
        if top % 13 == judge.wild:
            return ACTIONS[TAKE]
        taken = judge.worth(judge.after_discard(judge.plus(hand, top), cards + [top]))
        drawn = judge.after_draw(hand, cards)
        return ACTIONS[TAKE if taken < drawn else DRAW]
    values = judge.melder.values

    def judged(card: int) -> tuple[float, bool, int]:
        left = judge.minus(hand, card)
        if last_turn:
            worth: float = judge.penalty(left)
        else:
            rest = list(cards)
            rest.remove(card)
            worth = judge.after_draw(left, rest)
        return worth, card % 13 == judge.wild, -values[card % 13]

    return ACTIONS[DISCARD + min(sorted(set(cards)), key=judged)]
