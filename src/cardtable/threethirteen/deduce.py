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
    others = [s for s in range(state.game.num_players) if s != seat and s != state.went_out]
    hidden: Counter[int] = Counter(state.stock)
    hidden.update(state.out_of_play)
    for s in others:
        hidden.update(state.hands[s])
        hidden.subtract(state.taken[s])
    if state.reshuffled:
        could = Counter(state.reshuffle_pile)
        could.subtract(state.drawn[seat])
        candidates = sorted((could & hidden).elements())
        rng.shuffle(candidates)
        new.stock = candidates[:len(state.stock)]
        hidden.subtract(new.stock)
    pool = sorted(hidden.elements())
    rng.shuffle(pool)
    if not state.reshuffled:
        new.stock = [pool.pop() for _ in state.stock]
    for s in others:
        new.hands[s] = list(state.taken[s]) + [
            pool.pop() for _ in range(len(state.hands[s]) - len(state.taken[s]))]
        new.drawn[s] = []
    new.out_of_play = pool
    new._rng = random.Random(rng.getrandbits(64))
    new._legal = new._legal_ids = new._news = None
    return new
