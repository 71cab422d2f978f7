"""Batched Draw Bridge (RULES.md section 1): N matches as arrays, stepped by numba kernels.

``VectorDrawBridge(**options)`` fixes the game options (``target``, ``show_stock_top``,
``follow_suit_in_draw``, ``draw_trick_winner``, ``undertricks`` as
``cardtable.new_game("drawbridge", ...)``); a ``DrawBridgeBatch`` holds the state of N
matches, one row each. As in ``cardtable.vector.sequence``, the kernels loop over the
rows and the body for one row (``_legal_ids``, ``_apply_one``, ``_deal_one``,
``_observe_one``) touches only that row with fixed-size loops: what ``jax.vmap`` would
map in a JAX port.

A row is a whole match (an episode): when a deal ends it is scored (1.6) and the next
deal is dealt in the same step, alternating the dealer (1.2); the match ends when a seat
reaches the target (1.7). Everything follows the scalar engine move for move
(tests/vector prove it): the same legal ids, the same observation tensor
(``cardtable.encoders``), the same rewards and ends. Only the deals differ: the
batch draws them from a counter-based generator of each row's own, deal ``d`` of match
``m`` of a row depending only on the row's seed, ``m`` and ``d``, never on the moves
played, so that two policies can be compared on the same deals.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from cardtable.cards import NUM_CARDS, card_name, parse_card
from cardtable.drawbridge import game as rules
from cardtable.drawbridge.game import (
    BID,
    DOUBLE,
    DRAW_TRICKS,
    HAND_SIZE,
    PASS,
    REDOUBLE,
    DrawBridgeGame,
    DrawBridgeState,
)
from cardtable.drawbridge.scoring import (
    BOOK,
    DOUBLING_FACTOR,
    STRAINS,
    UNDERTRICK_POINTS,
    trick_points,
)
from cardtable.vector._kernel import GOLDEN, R_DEAL, R_EPISODE, R_POLICY, R_SEED, below, mix
from cardtable.vector.base import VectorEngine

NUM_ACTIONS = REDOUBLE + 1  # 52 cards, 35 bids, pass, double, redouble
DRAW, AUCTION, PLAY, OVER = range(4)

# ---------------------------------------------------------------- tables, from the scalar engine

#: 1.5 / 1.3: the rank order of each card for tricks (2 lowest .. ace highest)
POWER = np.array(rules.POWER, np.int8)
#: the trump suit (card suit index, S H D C = 0..3) of each strain C D H S NT, -1 in NT
TRUMP = np.array(rules.TRUMP_SUIT, np.int8)
#: 1.6: the points of each number of odd tricks (0..7) in each strain, undoubled
TRICK_POINTS = np.array([[trick_points(strain, odd) for odd in range(8)]
                         for strain in range(len(STRAINS))], np.int32)
FACTOR = np.array(DOUBLING_FACTOR, np.int32)
UNDER = np.array(UNDERTRICK_POINTS, np.int32)
SUIT_BITS = np.int64(0x1FFF)

# columns of ``DrawBridgeBatch.meta``, one int32 row of small fields per match
(M_CURRENT, M_DEALER, M_PHASE, M_LEAD, M_DEAL, M_NPLAYED, M_NCALLS, M_LOWEST, M_KIND,
 M_BIDDER, M_DOUBLED, M_PASS0, M_PASS1, M_WON0, M_WON1, M_SCORE0, M_SCORE1, M_OFF0, M_OFF1,
 M_MOVES, M_OVER, M_WINNER) = range(22)
META_FIELDS = ("current", "dealer", "phase", "lead", "deal", "n_played", "n_calls",
               "lowest_bid", "call_kind", "bidder", "doubled", "passes0", "passes1",
               "tricks_won0", "tricks_won1", "score0", "score1", "off_suit0", "off_suit1",
               "moves", "over", "winner")
# rows of ``DrawBridgeBatch.masks`` (52-bit card masks, int64): the hands, the cards each
# seat played this deal, drew this deal, took face up (show_stock_top), and the bids each
# seat made (35 bits)
K_HAND, K_PLAYED, K_DRAWN, K_SHOWN, K_BIDS = 0, 2, 4, 6, 8


class DrawBridgeBatch(NamedTuple):
    """The state of N Draw Bridge matches, one row each (the kernels take the arrays).

    Cards are ``suit * 13 + rank`` (suits S H D C, ranks A..K) as in the scalar engine.
    """

    #: (N, 10) int64 masks: hand of seat 0, 1; played by 0, 1; drawn by 0, 1; shown stock
    #: cards taken by 0, 1; bids made by 0, 1 (columns ``K_*``)
    masks: np.ndarray
    #: (N, 26) int8: the stock as dealt, top first (draw trick k takes cards 2k and 2k+1)
    stock: np.ndarray
    #: (N, 22) int32: the seat to act, the dealer, the phase (0 draw, 1 auction, 2 play,
    #: 3 over), the card led (-1 none), the deal number, cards played and calls made this
    #: deal, the lowest bid allowed, what may follow (0 nothing to double, 1 double, 2
    #: redouble), the last bidder (-1 none) and its doubling, passes per seat, play tricks
    #: won per seat, match scores, suits not followed per seat (4 bits), moves this match,
    #: over, the winner (columns ``M_*``, names ``META_FIELDS``)
    meta: np.ndarray
    #: (N, 4) uint64: each row's seed, how many matches it has begun (deal d of match m
    #: comes from (seed, m, d)), the generator of the deal in play, the random policy's own
    rngs: np.ndarray

    @property
    def size(self) -> int:
        return int(self.meta.shape[0])

    @property
    def current_player(self) -> np.ndarray:
        """(N,) the seat to act (a view)."""
        return self.meta[:, M_CURRENT]

    @property
    def over(self) -> np.ndarray:
        """(N,) 1 where the match has ended (only without autoreset)."""
        return self.meta[:, M_OVER]

    @property
    def moves(self) -> np.ndarray:
        """(N,) the moves of the match in play so far (a view; ``max_moves`` counts them)."""
        return self.meta[:, M_MOVES]


class DrawBridgeResults(NamedTuple):
    """What one ``step`` reports per row, for the match that was in the row before it."""

    #: (N, 2) +1 for the winner, -1 for the other seat, 0 before the end or when cut
    rewards: np.ndarray
    #: the match ended by the rules (a seat reached the target)
    terminated: np.ndarray
    #: the match was cut at ``max_moves``
    truncated: np.ndarray
    #: the seat that won the match that ended, -1 for none
    winner: np.ndarray
    #: (N, 2) its final scores, the deals it lasted (the last one's number) and its moves
    scores: np.ndarray
    deals: np.ndarray
    moves: np.ndarray


# ---------------------------------------------------------------- the per-match bodies
# Each takes the arrays it needs and a row i, and touches only row i.


@njit(inline="always", cache=True)
def _legal_ids(masks: np.ndarray, meta: np.ndarray, i: int, follow_in_draw: bool,
               buf: np.ndarray) -> int:
    """The legal ids of row i's seat to act into ``buf`` (1.3, 1.4, 1.5); returns how many."""
    if meta[i, M_OVER] != 0:
        return 0
    n = 0
    phase = meta[i, M_PHASE]
    if phase == AUCTION:
        for a in range(meta[i, M_LOWEST], PASS + 1):
            buf[n] = a
            n += 1
        kind = meta[i, M_KIND]
        if kind == 1:
            buf[n] = DOUBLE
            n += 1
        elif kind == 2:
            buf[n] = REDOUBLE
            n += 1
        return n
    hand = masks[i, K_HAND + meta[i, M_CURRENT]]
    lead = meta[i, M_LEAD]
    if lead >= 0 and (phase == PLAY or follow_in_draw):
        suited = hand & (SUIT_BITS << np.int64(13 * (lead // 13)))
        if suited != 0:
            hand = suited
    for c in range(NUM_CARDS):
        if (hand >> np.int64(c)) & np.int64(1):
            buf[n] = c
            n += 1
    return n


@njit(inline="always", cache=True)
def _is_legal(masks: np.ndarray, meta: np.ndarray, i: int, follow_in_draw: bool,
              a: int) -> bool:
    if meta[i, M_OVER] != 0 or a < 0 or a >= NUM_ACTIONS:
        return False
    phase = meta[i, M_PHASE]
    if phase == AUCTION:
        if a < BID:
            return False
        if a == DOUBLE:
            return meta[i, M_KIND] == 1
        if a == REDOUBLE:
            return meta[i, M_KIND] == 2
        return a == PASS or a >= meta[i, M_LOWEST]
    if a >= BID:
        return False
    hand = masks[i, K_HAND + meta[i, M_CURRENT]]
    if not (hand >> np.int64(a)) & np.int64(1):
        return False
    lead = meta[i, M_LEAD]
    if lead >= 0 and (phase == PLAY or follow_in_draw) and a // 13 != lead // 13:
        return (hand & (SUIT_BITS << np.int64(13 * (lead // 13)))) == 0
    return True


@njit(inline="always", cache=True)
def _deal_one(masks: np.ndarray, stock: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
              i: int, number: int, dealer: int) -> None:
    """1.2: deal ``number`` of the match in row i: 13 cards each, one at a time, non-dealer
    first, the rest the stock; ``dealer`` -1 draws the first dealer at random."""
    match = rngs[i, R_EPISODE]
    rngs[i, R_DEAL] = mix(rngs[i, R_SEED] ^ mix(match * GOLDEN + GOLDEN)
                           ^ mix(np.uint64(number) * GOLDEN))
    deck = np.empty(NUM_CARDS, np.int8)
    for k in range(NUM_CARDS):
        deck[k] = k
    for k in range(NUM_CARDS - 1, 0, -1):
        r = below(rngs, i, R_DEAL, k + 1)
        t = deck[k]
        deck[k] = deck[r]
        deck[r] = t
    if dealer < 0:
        dealer = below(rngs, i, R_DEAL, 2)
    h0 = np.int64(0)
    h1 = np.int64(0)
    for k in range(2 * HAND_SIZE):
        bit = np.int64(1) << np.int64(deck[k])
        if (dealer + 1 + k) % 2 == 0:
            h0 |= bit
        else:
            h1 |= bit
    for k in range(2 * DRAW_TRICKS):
        stock[i, k] = deck[2 * HAND_SIZE + k]
    _start_deal(masks, meta, i, number, dealer, h0, h1)


@njit(inline="always", cache=True)
def _start_deal(masks: np.ndarray, meta: np.ndarray, i: int, number: int, dealer: int,
                h0: Any, h1: Any) -> None:
    """Row i at the start of a deal with these hands (the stock already in place); the
    match fields (scores, moves) are kept."""
    for k in range(masks.shape[1]):
        masks[i, k] = 0
    masks[i, K_HAND] = h0
    masks[i, K_HAND + 1] = h1
    meta[i, M_DEALER] = dealer
    meta[i, M_CURRENT] = 1 - dealer  # 1.3: the non-dealer leads the first trick
    meta[i, M_PHASE] = DRAW
    meta[i, M_LEAD] = -1
    meta[i, M_DEAL] = number
    meta[i, M_NPLAYED] = 0
    meta[i, M_NCALLS] = 0
    meta[i, M_LOWEST] = BID
    meta[i, M_KIND] = 0
    meta[i, M_BIDDER] = -1
    meta[i, M_DOUBLED] = 0
    for f in (M_PASS0, M_PASS1, M_WON0, M_WON1, M_OFF0, M_OFF1):
        meta[i, f] = 0


@njit(inline="always", cache=True)
def _new_match(masks: np.ndarray, stock: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
               i: int) -> None:
    """Row i: the first deal of its next match, scores 0 (the first dealer at random)."""
    for f in range(meta.shape[1]):
        meta[i, f] = 0
    meta[i, M_WINNER] = -1
    _deal_one(masks, stock, meta, rngs, i, 1, -1)
    rngs[i, R_EPISODE] += np.uint64(1)


@njit(inline="always", cache=True)
def _finish_deal(masks: np.ndarray, stock: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
                 i: int, target: int, undertricks: bool) -> None:
    """1.6 / 1.7: score the deal, then end the match or deal the next one."""
    bidder = meta[i, M_BIDDER]
    if meta[i, M_PHASE] == PLAY:
        bid = meta[i, M_LOWEST] - 1 - BID
        level = bid // 5 + 1
        strain = bid % 5
        doubled = meta[i, M_DOUBLED]
        tricks = meta[i, M_WON0 + bidder]
        if tricks >= BOOK + level:
            points = TRICK_POINTS[strain, tricks - BOOK] * FACTOR[doubled]
            meta[i, M_SCORE0 + bidder] += points
        elif undertricks:
            meta[i, M_SCORE0 + 1 - bidder] += (BOOK + level - tricks) * UNDER[doubled]
    for seat in range(2):
        # only one seat scores in a deal, so at most one reaches the target
        if meta[i, M_SCORE0 + seat] >= target:
            meta[i, M_WINNER] = seat
            meta[i, M_PHASE] = OVER
            meta[i, M_OVER] = 1
            meta[i, M_CURRENT] = -1
            return
    # 1.2 / 1.4: the deal alternates, a passed-out deal included
    rngs[i, R_EPISODE] -= np.uint64(1)  # the deals of this match: (seed, match, number)
    _deal_one(masks, stock, meta, rngs, i, meta[i, M_DEAL] + 1, 1 - meta[i, M_DEALER])
    rngs[i, R_EPISODE] += np.uint64(1)


@njit(inline="always", cache=True)
def _apply_one(masks: np.ndarray, stock: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
               i: int, a: int, target: int, show_top: bool, draw_by_suit: bool,
               undertricks: bool) -> None:
    """Play legal action ``a`` in row i, as ``DrawBridgeState._apply``."""
    seat = meta[i, M_CURRENT]
    meta[i, M_MOVES] += 1
    if a >= BID:  # 1.4: a call
        meta[i, M_NCALLS] += 1
        if a == PASS:
            meta[i, M_PASS0 + seat] += 1
            if meta[i, M_BIDDER] >= 0:  # ruling 1.4: a pass after a bid, double, redouble
                meta[i, M_PHASE] = PLAY
                meta[i, M_CURRENT] = 1 - meta[i, M_BIDDER]  # 1.5: declarer's opponent leads
            elif meta[i, M_NCALLS] == 1:
                meta[i, M_CURRENT] = 1 - seat  # the dealer's opening pass
            else:
                _finish_deal(masks, stock, meta, rngs, i, target, undertricks)  # passed out
            return
        if a == DOUBLE:
            meta[i, M_DOUBLED] = 1
            meta[i, M_KIND] = 2
        elif a == REDOUBLE:
            meta[i, M_DOUBLED] = 2
            meta[i, M_KIND] = 0
        else:
            meta[i, M_LOWEST] = a + 1
            meta[i, M_BIDDER] = seat
            meta[i, M_DOUBLED] = 0  # a new bid cancels any double or redouble
            meta[i, M_KIND] = 1
            masks[i, K_BIDS + seat] |= np.int64(1) << np.int64(a - BID)
        meta[i, M_CURRENT] = 1 - seat
        return
    bit = np.int64(1) << np.int64(a)
    masks[i, K_HAND + seat] ^= bit
    masks[i, K_PLAYED + seat] |= bit
    meta[i, M_NPLAYED] += 1
    lead = meta[i, M_LEAD]
    if lead < 0:
        meta[i, M_LEAD] = a
        meta[i, M_CURRENT] = 1 - seat
        return
    meta[i, M_LEAD] = -1
    phase = meta[i, M_PHASE]
    same = lead // 13 == a // 13
    if not same:
        meta[i, M_OFF0 + seat] |= 1 << (lead // 13)
    if same or (phase == DRAW and not draw_by_suit):
        beats = POWER[a] > POWER[lead]  # 1.3 ruling: of two equal ranks the card led wins
    elif phase == DRAW:
        beats = False  # suit-led: another suit never wins a draw trick (no trump)
    else:
        beats = a // 13 == TRUMP[(meta[i, M_LOWEST] - 1 - BID) % 5]  # 1.5: a trump wins
    winner = seat if beats else 1 - seat
    if phase == DRAW:
        # 1.3: the winner takes the top card of the stock, the loser the next one
        k = meta[i, M_NPLAYED] // 2 - 1
        won = np.int64(1) << np.int64(stock[i, 2 * k])
        lost = np.int64(1) << np.int64(stock[i, 2 * k + 1])
        masks[i, K_HAND + winner] |= won
        masks[i, K_HAND + 1 - winner] |= lost
        masks[i, K_DRAWN + winner] |= won
        masks[i, K_DRAWN + 1 - winner] |= lost
        if show_top:
            masks[i, K_SHOWN + winner] |= won
        if k + 1 < DRAW_TRICKS:
            meta[i, M_CURRENT] = winner  # 1.3: the winner leads the next trick
        else:
            meta[i, M_PHASE] = AUCTION
            meta[i, M_CURRENT] = meta[i, M_DEALER]  # 1.4: the dealer calls first
        return
    meta[i, M_WON0 + winner] += 1
    if meta[i, M_NPLAYED] < NUM_CARDS:
        meta[i, M_CURRENT] = winner  # 1.5: the winner leads the next trick
    else:
        _finish_deal(masks, stock, meta, rngs, i, target, undertricks)


# the encoder's layout (VectorDrawBridge checks these offsets against it)
O_PHASE, O_HAND, O_DRAWN, O_PLAYED, O_TRICK, O_OFF, O_TOP, O_SHOWN, O_BIDS, O_LAST, \
    O_BIDDER, O_DOUBLED, O_PASSES, O_WON, O_STOCK, O_SCORES, O_TARGET, O_DEALER, O_TO_ACT, \
    O_RULES, OBS_SIZE = (0, 4, 56, 108, 212, 264, 272, 324, 428, 498, 533, 535, 537, 539, 541,
                         542, 544, 545, 546, 547, 551)


@njit(inline="always", cache=True)
def _bits_into(out: np.ndarray, r: int, at: int, mask: Any, n: int) -> None:
    for c in range(n):
        out[r, at + c] = (mask >> np.int64(c)) & np.int64(1)


@njit(inline="always", cache=True)
def _observe_one(masks: np.ndarray, stock: np.ndarray, meta: np.ndarray, i: int, seat: int,
                 target: int, rules: np.ndarray, show_top: bool, out: np.ndarray,
                 r: int) -> None:
    """Row i seen by ``seat`` into ``out[r]``, the layout of ``DrawBridgeEncoder``."""
    other = 1 - seat
    phase = meta[i, M_PHASE]
    for k in range(4):
        out[r, O_PHASE + k] = phase == k
    _bits_into(out, r, O_HAND, masks[i, K_HAND + seat], NUM_CARDS)
    _bits_into(out, r, O_DRAWN, masks[i, K_DRAWN + seat], NUM_CARDS)
    _bits_into(out, r, O_PLAYED, masks[i, K_PLAYED + seat], NUM_CARDS)
    _bits_into(out, r, O_PLAYED + NUM_CARDS, masks[i, K_PLAYED + other], NUM_CARDS)
    for k in range(O_TRICK, O_TRICK + NUM_CARDS):
        out[r, k] = 0.0
    lead = meta[i, M_LEAD]
    if lead >= 0:
        out[r, O_TRICK + lead] = 1.0
    _bits_into(out, r, O_OFF, meta[i, M_OFF0 + seat], 4)
    _bits_into(out, r, O_OFF + 4, meta[i, M_OFF0 + other], 4)
    for k in range(O_TOP, O_TOP + NUM_CARDS):
        out[r, k] = 0.0
    if show_top and phase == DRAW:
        out[r, O_TOP + stock[i, meta[i, M_NPLAYED] // 2 * 2]] = 1.0
    _bits_into(out, r, O_SHOWN, masks[i, K_SHOWN + seat], NUM_CARDS)
    _bits_into(out, r, O_SHOWN + NUM_CARDS, masks[i, K_SHOWN + other], NUM_CARDS)
    _bits_into(out, r, O_BIDS, masks[i, K_BIDS + seat], 35)
    _bits_into(out, r, O_BIDS + 35, masks[i, K_BIDS + other], 35)
    for k in range(O_LAST, O_PASSES):
        out[r, k] = 0.0
    bidder = meta[i, M_BIDDER]
    if bidder >= 0:
        out[r, O_LAST + meta[i, M_LOWEST] - 1 - BID] = 1.0
        out[r, O_BIDDER + (bidder != seat)] = 1.0
        doubled = meta[i, M_DOUBLED]
        out[r, O_DOUBLED] = doubled >= 1
        out[r, O_DOUBLED + 1] = doubled == 2
    out[r, O_PASSES] = meta[i, M_PASS0 + seat]
    out[r, O_PASSES + 1] = meta[i, M_PASS0 + other]
    out[r, O_WON] = meta[i, M_WON0 + seat]
    out[r, O_WON + 1] = meta[i, M_WON0 + other]
    out[r, O_STOCK] = 2 * DRAW_TRICKS - meta[i, M_NPLAYED] // 2 * 2 if phase == DRAW else 0
    out[r, O_SCORES] = meta[i, M_SCORE0 + seat]
    out[r, O_SCORES + 1] = meta[i, M_SCORE0 + other]
    out[r, O_TARGET] = target
    out[r, O_DEALER] = meta[i, M_DEALER] == seat
    out[r, O_TO_ACT] = meta[i, M_CURRENT] == seat
    for k in range(4):
        out[r, O_RULES + k] = rules[k]


@njit(inline="always", cache=True)
def _finish(meta: np.ndarray, i: int, max_moves: int, rewards: np.ndarray,
            terminated: np.ndarray, truncated: np.ndarray, winner: np.ndarray,
            scores: np.ndarray, deals: np.ndarray, moves: np.ndarray) -> bool:
    """Report row i's result if its match is over or cut; True if it was."""
    if meta[i, M_OVER] != 0:
        terminated[i] = True
        w = meta[i, M_WINNER]
        rewards[i, w] = 1.0
        rewards[i, 1 - w] = -1.0
    elif max_moves > 0 and meta[i, M_MOVES] >= max_moves:
        truncated[i] = True
    else:
        return False
    winner[i] = meta[i, M_WINNER]
    scores[i, 0] = meta[i, M_SCORE0]
    scores[i, 1] = meta[i, M_SCORE1]
    deals[i] = meta[i, M_DEAL]
    moves[i] = meta[i, M_MOVES]
    return True


# ---------------------------------------------------------------- the kernels (loops over rows)


@njit(cache=True)
def _step_kernel(b: DrawBridgeBatch, actions: np.ndarray, active: np.ndarray, target: int,
                 show_top: bool, follow_in_draw: bool, draw_by_suit: bool, undertricks: bool,
                 max_moves: int, autoreset: bool, rewards: np.ndarray, terminated: np.ndarray,
                 truncated: np.ndarray, winner: np.ndarray, scores: np.ndarray,
                 deals: np.ndarray, moves: np.ndarray) -> int:
    """Check every active row's action, then play them all; -1, or the first illegal row
    (nothing is played then)."""
    masks, stock, meta, rngs = b
    n = actions.shape[0]
    for i in range(n):
        if active[i] and not _is_legal(masks, meta, i, follow_in_draw, actions[i]):
            return i
    for i in range(n):
        if not active[i]:
            continue
        _apply_one(masks, stock, meta, rngs, i, actions[i], target, show_top, draw_by_suit,
                   undertricks)
        if _finish(meta, i, max_moves, rewards, terminated, truncated, winner, scores, deals,
                   moves) and autoreset:
            _new_match(masks, stock, meta, rngs, i)
    return -1


@njit(cache=True)
def _random_kernel(b: DrawBridgeBatch, follow_in_draw: bool, out: np.ndarray) -> None:
    masks, _, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        n = _legal_ids(masks, meta, i, follow_in_draw, buf)
        out[i] = buf[below(rngs, i, R_POLICY, n)] if n else -1


@njit(cache=True)
def _play_random_kernel(b: DrawBridgeBatch, seat: int, active: np.ndarray, target: int,
                        show_top: bool, follow_in_draw: bool, draw_by_suit: bool,
                        undertricks: bool, max_moves: int, rewards: np.ndarray,
                        terminated: np.ndarray, truncated: np.ndarray, winner: np.ndarray,
                        scores: np.ndarray, deals: np.ndarray, moves: np.ndarray) -> None:
    """Random moves in each active row until ``seat`` is to act or the match ends or is cut."""
    masks, stock, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(active.shape[0]):
        if not active[i]:
            continue
        while meta[i, M_OVER] == 0 and meta[i, M_CURRENT] != seat and not (
                max_moves > 0 and meta[i, M_MOVES] >= max_moves):
            n = _legal_ids(masks, meta, i, follow_in_draw, buf)
            _apply_one(masks, stock, meta, rngs, i, buf[below(rngs, i, R_POLICY, n)], target,
                       show_top, draw_by_suit, undertricks)
        _finish(meta, i, max_moves, rewards, terminated, truncated, winner, scores, deals,
                moves)


@njit(cache=True)
def _mask_kernel(b: DrawBridgeBatch, rows: np.ndarray, follow_in_draw: bool,
                 out: np.ndarray) -> None:
    masks, _, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for r in range(rows.shape[0]):
        i = rows[r]
        for k in range(out.shape[1]):
            out[r, k] = 0
        n = _legal_ids(masks, meta, i, follow_in_draw, buf)
        for k in range(n):
            out[r, buf[k]] = 1


@njit(cache=True)
def _observe_kernel(b: DrawBridgeBatch, rows: np.ndarray, seats: np.ndarray, target: int,
                    rules: np.ndarray, show_top: bool, out: np.ndarray) -> None:
    """Row ``rows[r]`` seen by ``seats[r]`` into ``out[r]``."""
    masks, stock, meta, _ = b
    for r in range(rows.shape[0]):
        _observe_one(masks, stock, meta, rows[r], seats[r], target, rules, show_top, out, r)


@njit(cache=True)
def _new_match_kernel(b: DrawBridgeBatch, rows: np.ndarray) -> None:
    masks, stock, meta, rngs = b
    for i in rows:
        _new_match(masks, stock, meta, rngs, i)


# ---------------------------------------------------------------- the engine


class VectorDrawBridge(VectorEngine[DrawBridgeBatch, DrawBridgeResults]):
    """Batched Draw Bridge with its options fixed; ``max_moves`` (default none) cuts a match.

    Examples:
        >>> import numpy as np
        >>> from cardtable.vector import VectorDrawBridge
        >>> engine = VectorDrawBridge(target=50)
        >>> batch = engine.init(np.arange(4))
        >>> results = engine.step(batch, engine.random_actions(batch))
        >>> engine.legal_mask(batch).shape, engine.observe(batch).shape
        ((4, 90), (4, 551))
    """

    game_name = "drawbridge"
    num_actions = NUM_ACTIONS
    batch_type = DrawBridgeBatch
    results_type = DrawBridgeResults
    state_type = DrawBridgeState
    episode = "match"

    def _configure(self, game: DrawBridgeGame) -> None:
        self.target = game.target
        self.show_top = game.show_stock_top
        self.follow_in_draw = game.follow_suit_in_draw
        self.draw_by_suit = game.draw_trick_winner == "suit-led"
        self.undertricks = game.undertricks
        self._rules = np.array([self.show_top, self.follow_in_draw, self.draw_by_suit,
                                self.undertricks], np.float32)
        self._opts = (self.target, self.show_top, self.follow_in_draw, self.draw_by_suit,
                      self.undertricks, self.max_moves)
        off = self.encoder.offsets
        # the kernel writes the encoder's layout at fixed offsets: a changed layout fails here
        assert [off[s.name] for s in self.encoder.sections] + [self.obs_size] == [
            O_PHASE, O_HAND, O_DRAWN, O_PLAYED, O_TRICK, O_OFF, O_TOP, O_SHOWN, O_BIDS, O_LAST,
            O_BIDDER, O_DOUBLED, O_PASSES, O_WON, O_STOCK, O_SCORES, O_TARGET, O_DEALER,
            O_TO_ACT, O_RULES, OBS_SIZE], off

    def _empty(self, n: int) -> DrawBridgeBatch:
        return DrawBridgeBatch(masks=np.zeros((n, 10), np.int64),
                               stock=np.zeros((n, 2 * DRAW_TRICKS), np.int8),
                               meta=np.zeros((n, len(META_FIELDS)), np.int32),
                               rngs=np.zeros((n, 4), np.uint64))

    def empty_results(self, n: int) -> DrawBridgeResults:
        """Results of N rows in which nothing has ended."""
        return DrawBridgeResults(rewards=np.zeros((n, 2), np.float32),
                                 terminated=np.zeros(n, np.bool_),
                                 truncated=np.zeros(n, np.bool_),
                                 winner=np.full(n, -1, np.int8),
                                 scores=np.zeros((n, 2), np.int32),
                                 deals=np.zeros(n, np.int32), moves=np.zeros(n, np.int32))

    def _load(self, batch: DrawBridgeBatch, i: int, state: DrawBridgeState) -> None:
        """Its current deal as dealt and the match scores then (from its public ``to_dict``),
        the deal's actions replayed from ``state.history``."""
        deal = state.to_dict()["deal"]
        hands = [sum(1 << c for c in _cards(h)) for h in deal["hands"]]
        batch.stock[i] = _cards(deal["stock"])
        meta = batch.meta[i]
        meta[:] = 0
        meta[M_WINNER] = -1
        meta[M_SCORE0], meta[M_SCORE1] = deal["scores"]
        _start_deal_kernel(batch, i, deal["number"], deal["dealer"], np.int64(hands[0]),
                           np.int64(hands[1]))
        actions = [a.id for _, a in state.history[len(state.history) - len(deal["actions"]):]]
        meta[M_MOVES] = len(state.history) - len(actions)
        one = np.ones(1, np.bool_)
        for a in actions:
            res = self.empty_results(1)
            row = DrawBridgeBatch(*(x[i:i + 1] for x in batch))
            bad = _step_kernel(row, np.array([a], np.int64), one, *self._opts[:5], 0, False,
                               *res)
            assert bad < 0, f"the scalar state's action {a} is refused in the batch"

    def _stock(self, batch: DrawBridgeBatch) -> tuple[np.ndarray, np.ndarray]:
        # draw trick k takes cards 2k and 2k + 1; the stock is empty after the draw phase
        meta = batch.meta
        taken = meta[:, M_NPLAYED, None] // 2 * 2
        slots = np.arange(batch.stock.shape[1])
        return batch.stock, (slots >= taken) & (meta[:, M_PHASE, None] == DRAW)

    def _hidden_cards(self, batch: DrawBridgeBatch, i: int
                      ) -> tuple[list[list[str]], list[str]]:
        """The hands and the stock as dealt (top first)."""
        hands = [[card_name(c) for c in range(NUM_CARDS) if int(h) >> c & 1]
                 for h in batch.masks[i, K_HAND:K_HAND + 2].tolist()]
        return hands, [card_name(c) for c in batch.stock[i].tolist()]

    def _kernel_new(self, batch: DrawBridgeBatch, rows: np.ndarray) -> None:
        _new_match_kernel(batch, rows)

    def _kernel_step(self, batch: DrawBridgeBatch, actions: np.ndarray, active: np.ndarray,
                     autoreset: bool, res: DrawBridgeResults) -> int:
        return int(_step_kernel(batch, actions, active, *self._opts, autoreset, *res))

    def _kernel_play_random(self, batch: DrawBridgeBatch, seat: int, active: np.ndarray,
                            res: DrawBridgeResults) -> None:
        _play_random_kernel(batch, seat, active, *self._opts, *res)

    def _kernel_random(self, batch: DrawBridgeBatch, out: np.ndarray) -> None:
        _random_kernel(batch, self.follow_in_draw, out)

    def _kernel_mask(self, batch: DrawBridgeBatch, rows: np.ndarray, out: np.ndarray) -> None:
        _mask_kernel(batch, rows, self.follow_in_draw, out)

    def _kernel_observe(self, batch: DrawBridgeBatch, rows: np.ndarray, seats: np.ndarray,
                        out: np.ndarray) -> None:
        _observe_kernel(batch, rows, seats, self.target, self._rules, self.show_top, out)


@njit(cache=True)
def _start_deal_kernel(b: DrawBridgeBatch, i: int, number: int, dealer: int, h0: Any,
                       h1: Any) -> None:
    masks, _, meta, _ = b
    _start_deal(masks, meta, i, number, dealer, h0, h1)


def _cards(names: list[str]) -> list[int]:
    return [parse_card(c) for c in names]


ENGINE = VectorDrawBridge
