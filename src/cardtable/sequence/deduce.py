"""What a seat can deduce in Sequence, for search: the states it cannot tell apart."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cardtable.core import check_seat

if TYPE_CHECKING:
    from cardtable.sequence.game import SequenceState


def resample(state: SequenceState, seat: int, rng: random.Random) -> SequenceState:
    """The other hands and the deck dealt afresh; all play is public in Sequence.

    A pass also shows that the passer held no playable card; the resample does not
    keep that (rare) inference.
    """
    check_seat(seat, state.game.num_players)
    new = state.clone()
    pool = list(state._deck)
    for other, hand in enumerate(state._hands):
        if other != seat:
            pool += hand
    pool.sort()  # what the seat cannot tell apart must resample alike
    rng.shuffle(pool)
    for other, hand in enumerate(new._hands):
        if other != seat:
            new._hands[other] = [pool.pop() for _ in hand]
    new._deck = pool
    new._rng = random.Random(rng.getrandbits(64))
    new._legal = new._legal_ids = new._news = None
    return new
