"""What a seat can deduce in Three Thirteen, for search: the states it cannot tell apart."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from cardtable.core import check_seat

if TYPE_CHECKING:
    from cardtable.threethirteen.game import ThreeThirteenState


def resample(state: ThreeThirteenState, seat: int, rng: random.Random) -> ThreeThirteenState:
    """The cards hidden from ``seat`` dealt afresh: other hands, the stock, cards out of play.

    Kept in place: the seat's hand, the discard pile, the cards each player took from
    it, and the hand of a player who went out (shown). After the round's reshuffle the
    stock can only hold cards of the old discard pile (which the seat saw) that the
    seat did not draw itself and that are still hidden; it is dealt from those first.
    """
    check_seat(seat, state.game.num_players)
    new = state.clone()
    others = [s for s in range(state.game.num_players) if s != seat and s != state._went_out]
    hidden: Counter[int] = Counter(state._stock)
    hidden.update(state._out_of_play)
    for s in others:
        hidden.update(state._hands[s])
        hidden.subtract(state._taken[s])
    if state._reshuffled:
        could = Counter(state._reshuffle_pile)
        could.subtract(state._drawn[seat])
        candidates = sorted((could & hidden).elements())
        rng.shuffle(candidates)
        new._stock = candidates[:len(state._stock)]
        hidden.subtract(new._stock)
    pool = sorted(hidden.elements())
    rng.shuffle(pool)
    if not state._reshuffled:
        new._stock = [pool.pop() for _ in state._stock]
    for s in others:
        new._hands[s] = list(state._taken[s]) + [
            pool.pop() for _ in range(len(state._hands[s]) - len(state._taken[s]))]
        new._drawn[s] = []
    new._out_of_play = pool
    new._rng = random.Random(rng.getrandbits(64))
    new._legal = new._legal_ids = new._news = None
    return new
