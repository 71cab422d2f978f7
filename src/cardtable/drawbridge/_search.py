"""The double-dummy search of the play phase (RULES 1.5), on hands in *relative ranks*.

Both hands are 64-bit masks with one 16-bit lane per suit (lane ``s`` is the card suit
``s``: S H D C). Inside a lane only the cards still held by either player are kept,
packed from bit 0 up in rank order: bit 0 is the lowest card left in the suit, bit
``n - 1`` the highest, whoever holds it. A card played is taken out and the cards above
it in its suit move down one place (``_remove``), so cards held by neither player never
separate two cards, and a run of cards of one hand with no opponent card between them
is one move (the top of the run stands for it). Positions that differ only in cards
already gone are the same position, and the transposition table's key is the packed
hands themselves: ``h0 | sentinels | leader`` fits in 63 bits.

The search is alpha-beta over whole tricks (the lead, then every answer to it) with a
transposition table of bounds at the start of each trick, the leader's sure tricks as
a bound, and the moves most likely to cut tried first. Values are the tricks seat 0
takes from the start of the trick on.

The module is written in the subset of Python that numba compiles: ``solver`` runs it
as it is (the pure path) or, when numba is installed, a second copy of it compiled with
the bit-count helpers swapped for loops numba knows (the fast path). Both give the
same numbers, since both search the same tree exactly.
"""

from __future__ import annotations

from typing import Any

LANE_BITS = 16
LANE_MASK = 0xFFFF
#: one at the bottom of each lane: ``u + LANE_ONES`` puts a bit just above each packed lane
LANE_ONES = 0x0001_0001_0001_0001
#: where the key keeps who leads (bit 15 of lane 0: a lane holds at most 13 cards)
LEADER_BIT = 15


def _popcount(x: int) -> int:
    return x.bit_count()


def _bitlen(x: int) -> int:
    return x.bit_length()


def _popcount_loop(x: int) -> int:
    """``_popcount`` for the compiled copy (numba has no ``int.bit_count``)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _bitlen_loop(x: int) -> int:
    """``_bitlen`` for the compiled copy (numba has no ``int.bit_length``)."""
    n = 0
    while x:
        x >>= 1
        n += 1
    return n


def _lane_of(bit: int) -> int:
    """The lane (suit) of a one-bit mask."""
    return (_bitlen(bit) - 1) >> 4


def _remove(h: int, bit: int) -> int:
    """The hand ``h`` with the place ``bit`` taken out of its lane: the cards above it in
    that suit move down one rank, as the card at ``bit`` (in either hand) is gone."""
    lane = LANE_MASK << (LANE_BITS * _lane_of(bit))
    above = lane & ~((bit << 1) - 1)
    return (h & ~(above | bit)) | ((h & above) >> 1)


def _quick_tricks(lead: int, other: int, trump: int) -> int:
    """Tricks the leader ``lead`` takes in a row from the top, whatever ``other`` does:
    in each suit the cards above all of the opponent's, all of the suit when they draw
    the opponent's last card of it; a side suit only while the opponent, holding
    trumps, must still follow."""
    other_trumps = trump >= 0 and (other >> (LANE_BITS * trump)) & LANE_MASK != 0
    total = 0
    for s in range(4):
        mine = (lead >> (LANE_BITS * s)) & LANE_MASK
        if mine == 0:
            continue
        theirs = (other >> (LANE_BITS * s)) & LANE_MASK
        held = _popcount(mine)
        safe = s == trump or not other_trumps
        if theirs == 0:
            if safe:
                total += held
            continue
        length = _popcount(theirs)
        top = _popcount(mine | theirs) - _bitlen(theirs)  # my cards above all of theirs
        if safe:
            total += held if top >= length else top
        else:
            total += top if top < length else length
    return total


def _play_trick(h0: int, h1: int, leader: int, card: int, reply: int,
                trump: int) -> tuple[int, int, int]:
    """The hands after a trick (``leader`` led the place ``card``, the other seat
    answered ``reply``) and its winner (1.5)."""
    same_suit = _lane_of(card) == _lane_of(reply)
    leader_wins = card > reply if same_suit else _lane_of(reply) != trump
    if leader == 0:
        c0 = h0 ^ card
        c1 = h1 ^ reply
    else:
        c0 = h0 ^ reply
        c1 = h1 ^ card
    # take out the higher place first: the lower one does not move
    high = card if card > reply else reply
    low = reply if card > reply else card
    c0 = _remove(_remove(c0, high), low)
    c1 = _remove(_remove(c1, high), low)
    return c0, c1, leader if leader_wins else 1 - leader


def _search(h0: int, h1: int, leader: int, card: int, trump: int, alpha: int, beta: int,
            tt: Any) -> int:
    """Tricks seat 0 takes from here with ``leader`` to lead, hands ``h0``/``h1`` in
    relative ranks, ``trump`` a lane or -1; ``card`` 0 at the start of a trick (hands of
    equal size), else the place ``leader`` led, still counted in its hand (the other
    seat answers). Exact when strictly inside ``(alpha, beta)``, else a bound on the
    side of the window it fell (fail-soft). One function for both halves of a trick:
    numba compiles recursion within a function, not between two."""
    n = _popcount(h0)
    if card:
        # no card led in the next trick: ``card & 0``, a zero of the argument's type rather
        # than the literal 0, so that numba compiles the recursion as one function that it
        # can cache
        none = card & 0
        follow_hand = h1 if leader == 0 else h0
        lane = LANE_MASK << (LANE_BITS * _lane_of(card))
        suited = follow_hand & lane
        # answers: the top of each run; follow suit if possible (1.5), the cheapest card
        # that wins first, then the lowest; void: the lowest trump first
        if suited:
            answers = suited & ~(suited >> 1)
            first = answers & ~((card << 1) - 1)
        else:
            answers = follow_hand & ~(follow_hand >> 1)
            first = 0
            if trump >= 0:
                first = answers & (LANE_MASK << (LANE_BITS * trump))
        maximise = leader == 1  # the follower is seat 0
        value = -1 if maximise else n + 1
        cut = False
        for half in range(2):
            replies = first if half == 0 else answers & ~first
            while replies and not cut:
                reply = replies & -replies
                replies ^= reply
                c0, c1, winner = _play_trick(h0, h1, leader, card, reply, trump)
                own = 1 if winner == 0 else 0
                if maximise:
                    v = own + _search(c0, c1, winner, none, trump, max(alpha, value) - own,
                                      beta - own, tt)
                    if v > value:
                        value = v
                    cut = value >= beta
                else:
                    v = own + _search(c0, c1, winner, none, trump, alpha - own,
                                      min(beta, value) - own, tt)
                    if v < value:
                        value = v
                    cut = value <= alpha
        return value
    if n == 0:
        return 0
    lead_hand = h0 if leader == 0 else h1
    follow_hand = h1 if leader == 0 else h0
    if n == 1:
        # the last trick: one card each
        if _lane_of(lead_hand) == _lane_of(follow_hand):
            won = lead_hand > follow_hand
        else:
            won = _lane_of(follow_hand) != trump
        return 1 if won == (leader == 0) else 0
    key = h0 | ((h0 | h1) + LANE_ONES) | (leader << LEADER_BIT)
    entry = tt.get(key, -1)
    lo = 0
    hi = n
    if entry >= 0:
        lo = entry >> 4
        hi = entry & 15
    sure = _quick_tricks(lead_hand, follow_hand, trump)
    if leader == 0:
        lo = max(lo, sure)
    else:
        hi = min(hi, n - sure)
    if lo >= hi or lo >= beta:
        return lo
    if hi <= alpha:
        return hi
    a = max(alpha, lo)
    b = min(beta, hi)
    maximise = leader == 0
    best = -1 if maximise else n + 1
    # leads: the top card of each run of the leader; first the suits' top cards the
    # opponent must follow (or cannot ruff), then low cards the opponent must follow,
    # then the rest
    tops = lead_hand & ~(lead_hand >> 1)
    highest = ((lead_hand | follow_hand) + LANE_ONES) >> 1  # the top place of each lane
    can_follow = 0
    for s in range(4):
        if (follow_hand >> (LANE_BITS * s)) & LANE_MASK:
            can_follow |= LANE_MASK << (LANE_BITS * s)
    winners = tops & highest
    if trump >= 0 and (follow_hand >> (LANE_BITS * trump)) & LANE_MASK:
        winners &= can_follow | (LANE_MASK << (LANE_BITS * trump))
    done = False
    for group in range(3):
        if group == 0:
            moves = winners
        elif group == 1:
            moves = tops & ~winners & can_follow
        else:
            moves = tops & ~winners & ~can_follow
        while moves and not done:
            lead = moves & -moves
            moves ^= lead
            if maximise:
                value = _search(h0, h1, leader, lead, trump, max(a, best), b, tt)
                if value > best:
                    best = value
                done = best >= b
            else:
                value = _search(h0, h1, leader, lead, trump, a, min(b, best), tt)
                if value < best:
                    best = value
                done = best <= a
    if best <= a:
        hi = best
    elif best >= b:
        lo = best
    else:
        lo = hi = best
    tt[key] = (lo << 4) | hi
    return best


