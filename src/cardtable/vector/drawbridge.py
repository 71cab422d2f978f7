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
(``cardtable.envs.encoders``), the same rewards and ends. Only the deals differ: the
batch draws them from a counter-based generator of each row's own, deal ``d`` of match
``m`` of a row depending only on the row's seed, ``m`` and ``d``, never on the moves
played, so that two policies can be compared on the same deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import njit

import cardtable
from cardtable.cards import NUM_CARDS, card_name
from cardtable.core import IllegalMoveError, OptionsError, State
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
from cardtable.drawbridge.scoring import BOOK, DOUBLING_FACTOR, UNDERTRICK_POINTS
from cardtable.envs.encoders import encoder_for
from cardtable.vector.sequence import _GOLDEN, _below, _mix, _rows, _seeds

NUM_ACTIONS = REDOUBLE + 1  # 52 cards, 35 bids, pass, double, redouble
DRAW, AUCTION, PLAY, OVER = range(4)

# ---------------------------------------------------------------- tables, from the scalar engine

#: 1.5 / 1.3: the rank order of each card for tricks (2 lowest .. ace highest)
POWER = np.array([(c % 13 - 1) % 13 for c in range(NUM_CARDS)], np.int8)
#: the trump suit (card suit index, S H D C = 0..3) of each strain C D H S NT, -1 in NT
TRUMP = np.array([3, 2, 1, 0, -1], np.int8)
#: 1.6: points per odd trick, undoubled: the first, then each after it, per strain
FIRST_TRICK = np.array([20, 20, 30, 30, 40], np.int32)
NEXT_TRICK = np.array([20, 20, 30, 30, 30], np.int32)
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
# columns of ``DrawBridgeBatch.rngs``
R_SEED, R_MATCH, R_DEAL, R_POLICY = range(4)
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
    match = rngs[i, R_MATCH]
    rngs[i, R_DEAL] = _mix(rngs[i, R_SEED] ^ _mix(match * _GOLDEN + _GOLDEN)
                           ^ _mix(np.uint64(number) * _GOLDEN))
    deck = np.empty(NUM_CARDS, np.int8)
    for k in range(NUM_CARDS):
        deck[k] = k
    for k in range(NUM_CARDS - 1, 0, -1):
        r = _below(rngs, i, R_DEAL, k + 1)
        t = deck[k]
        deck[k] = deck[r]
        deck[r] = t
    if dealer < 0:
        dealer = _below(rngs, i, R_DEAL, 2)
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
    rngs[i, R_MATCH] += np.uint64(1)


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
            odd = tricks - BOOK
            points = (FIRST_TRICK[strain] + NEXT_TRICK[strain] * (odd - 1)) * FACTOR[doubled]
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
    rngs[i, R_MATCH] -= np.uint64(1)  # the deals of this match: (seed, match, number)
    _deal_one(masks, stock, meta, rngs, i, meta[i, M_DEAL] + 1, 1 - meta[i, M_DEALER])
    rngs[i, R_MATCH] += np.uint64(1)


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
        out[i] = buf[_below(rngs, i, R_POLICY, n)] if n else -1


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
            _apply_one(masks, stock, meta, rngs, i, buf[_below(rngs, i, R_POLICY, n)], target,
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


class VectorDrawBridge:
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

    num_actions = NUM_ACTIONS
    num_players = 2

    def __init__(self, max_moves: int | None = None, **options: Any) -> None:
        game = cardtable.new_game("drawbridge", **options)
        assert isinstance(game, DrawBridgeGame)
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(
                max_moves, int) or max_moves < 1):
            raise OptionsError(f"max_moves must be a positive int or None, not {max_moves!r}")
        self.game = game
        self.target = game.target
        self.show_top = game.show_stock_top
        self.follow_in_draw = game.follow_suit_in_draw
        self.draw_by_suit = game.draw_trick_winner == "suit-led"
        self.undertricks = game.undertricks
        self.max_moves = max_moves or 0
        self.encoder = encoder_for(game)
        self.obs_size = self.encoder.size
        self._rules = np.array([self.show_top, self.follow_in_draw, self.draw_by_suit,
                                self.undertricks], np.float32)
        off = self.encoder.offsets
        # the kernel writes the encoder's layout at fixed offsets: a changed layout fails here
        assert [off[s.name] for s in self.encoder.sections] + [self.obs_size] == [
            O_PHASE, O_HAND, O_DRAWN, O_PLAYED, O_TRICK, O_OFF, O_TOP, O_SHOWN, O_BIDS, O_LAST,
            O_BIDDER, O_DOUBLED, O_PASSES, O_WON, O_STOCK, O_SCORES, O_TARGET, O_DEALER,
            O_TO_ACT, O_RULES, OBS_SIZE], off

    # -- making batches --------------------------------------------------

    def empty(self, n: int) -> DrawBridgeBatch:
        """N rows of zeros: fill them with ``init``'s deals or ``load``."""
        return DrawBridgeBatch(masks=np.zeros((n, 10), np.int64),
                               stock=np.zeros((n, 2 * DRAW_TRICKS), np.int8),
                               meta=np.zeros((n, len(META_FIELDS)), np.int32),
                               rngs=np.zeros((n, 4), np.uint64))

    def init(self, seeds: Any) -> DrawBridgeBatch:
        """The first deal of a match in each row, from the row's seed (non-negative ints
        below 2**64); deal d of the row's match m comes from (seed, m, d), and the random
        policy's stream is seeded from the seed too."""
        seeds = _seeds(seeds)
        batch = self.empty(len(seeds))
        _seed_rows(batch, seeds)
        _new_match_kernel(batch, np.arange(len(seeds)))
        return batch

    def reset_rows(self, batch: DrawBridgeBatch, rows: Any) -> None:
        """A new match in each row of ``rows`` (indices or a boolean mask)."""
        idx = _rows(rows)
        if idx.size:
            _new_match_kernel(batch, idx)

    def from_states(self, states: Sequence[State]) -> DrawBridgeBatch:
        """A batch holding scalar states (``game.deal(seed)``, ``setup``, a loaded save), row
        by row; row i's later deals come from seed i."""
        batch = self.empty(len(states))
        _seed_rows(batch, np.arange(len(states), dtype=np.uint64))
        for i, state in enumerate(states):
            self.load(batch, i, state)
        return batch

    def load(self, batch: DrawBridgeBatch, i: int, state: State) -> None:
        """Row i becomes the scalar ``state``: its current deal as dealt and the match scores
        then (from its public ``to_dict``), the deal's actions replayed from
        ``state.history``; the row's generators keep going."""
        if not isinstance(state, DrawBridgeState) or state.game != self.game:
            raise OptionsError(f"a state of {state.game!r} does not fit a batch of {self.game!r}")
        deal = state.to_dict()["deal"]
        hands = [sum(1 << c for c in _cards(h)) for h in deal["hands"]]
        batch.stock[i] = _cards(deal["stock"])
        meta = batch.meta[i]
        meta[:] = 0
        meta[M_WINNER] = -1
        meta[M_SCORE0], meta[M_SCORE1] = deal["scores"]
        _start_deal_row(batch, i, deal["number"], deal["dealer"], hands[0], hands[1])
        actions = [a.id for _, a in state.history[len(state.history) - len(deal["actions"]):]]
        meta[M_MOVES] = len(state.history) - len(actions)
        one = np.ones(1, np.bool_)
        for a in actions:
            res = self.empty_results(1)
            row = DrawBridgeBatch(*(x[i:i + 1] for x in batch))
            bad = _step_kernel(row, np.array([a], np.int64), one, self.target, self.show_top,
                               self.follow_in_draw, self.draw_by_suit, self.undertricks, 0,
                               False, *res)
            assert bad < 0, f"the scalar state's action {a} is refused in the batch"

    def hidden_cards(self, batch: DrawBridgeBatch, i: int) -> tuple[list[list[str]], list[str]]:
        """Row i's hands and its stock as dealt (top first) in notation, for tests and
        debugging."""
        hands = [[card_name(c) for c in range(NUM_CARDS) if int(h) >> c & 1]
                 for h in batch.masks[i, K_HAND:K_HAND + 2].tolist()]
        return hands, [card_name(c) for c in batch.stock[i].tolist()]

    # -- playing ---------------------------------------------------------

    def _opts(self) -> tuple[int, bool, bool, bool, bool, int]:
        return (self.target, self.show_top, self.follow_in_draw, self.draw_by_suit,
                self.undertricks, self.max_moves)

    def step(self, batch: DrawBridgeBatch, actions: Any, active: Any = None,
             autoreset: bool = True) -> DrawBridgeResults:
        """Play ``actions[i]`` in every row (only where ``active``, a boolean mask, if given).

        Refuses the whole call with ``IllegalMoveError`` if one action is illegal. A match
        that ends (or reaches ``max_moves``) reports its result in the returned results and,
        with ``autoreset``, its row holds the first deal of a new match at once.
        """
        n = batch.size
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), not {acts.shape}")
        on = np.ones(n, np.bool_) if active is None else np.ascontiguousarray(active, np.bool_)
        if on.shape != (n,):
            raise ValueError(f"active must have shape ({n},), not {on.shape}")
        res = self.empty_results(n)
        bad = _step_kernel(batch, acts, on, *self._opts(), autoreset, *res)
        if bad >= 0:
            what = "the match is over" if batch.meta[bad, M_OVER] else "it is not legal now"
            raise IllegalMoveError(f"row {bad}: action {int(acts[bad])} is refused: {what} "
                                   "(nothing was played)")
        return res

    def play_random(self, batch: DrawBridgeBatch, until_seat: int,
                    active: Any = None) -> DrawBridgeResults:
        """Random moves in each (active) row until ``until_seat`` is to act, the match ends
        or reaches ``max_moves``; the rows are not reset."""
        n = batch.size
        on = np.ones(n, np.bool_) if active is None else np.ascontiguousarray(active, np.bool_)
        res = self.empty_results(n)
        _play_random_kernel(batch, until_seat, on, *self._opts(), *res)
        return res

    def random_actions(self, batch: DrawBridgeBatch,
                       out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per row (-1 where the match is over), drawn from
        the rows' policy stream."""
        out = np.empty(batch.size, np.int64) if out is None else out
        _random_kernel(batch, self.follow_in_draw, out)
        return out

    def legal_mask(self, batch: DrawBridgeBatch, out: np.ndarray | None = None,
                   rows: Any = None) -> np.ndarray:
        """(N, 90) bool, True on the legal action ids of each row's seat to act (none once
        the match is over); ``rows`` (indices) for some rows only; ``out`` may be bool, int8
        or uint8."""
        idx = np.arange(batch.size) if rows is None else _rows(rows)
        if out is None:
            out = np.empty((len(idx), NUM_ACTIONS), np.bool_)
        _mask_kernel(batch, idx, self.follow_in_draw, out.view(np.uint8))
        return out

    def observe(self, batch: DrawBridgeBatch, seats: Any = None,
                out: np.ndarray | None = None, rows: Any = None) -> np.ndarray:
        """(N, 551) float32: each row seen by ``seats`` (one seat, or one per row; default
        the seat to act, seat 0 once a match is over), the tensor of
        ``cardtable.envs.encoders``; ``rows`` (indices) for some rows only."""
        idx = np.arange(batch.size) if rows is None else _rows(rows)
        if seats is None:
            seat_arr = np.maximum(batch.meta[idx, M_CURRENT], 0).astype(np.int64)
        else:
            seat_arr = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, np.int64),
                                                            idx.shape))
            if seat_arr.size and not (seat_arr.min() >= 0 and seat_arr.max() < 2):
                raise ValueError("seats must be 0..1")
        if out is None:
            out = np.empty((len(idx), self.obs_size), np.float32)
        _observe_kernel(batch, idx, seat_arr, self.target, self._rules, self.show_top, out)
        return out

    def empty_results(self, n: int) -> DrawBridgeResults:
        """Results of N rows in which nothing has ended."""
        return DrawBridgeResults(rewards=np.zeros((n, 2), np.float32),
                                 terminated=np.zeros(n, np.bool_),
                                 truncated=np.zeros(n, np.bool_),
                                 winner=np.full(n, -1, np.int8),
                                 scores=np.zeros((n, 2), np.int32),
                                 deals=np.zeros(n, np.int32), moves=np.zeros(n, np.int32))


@njit(cache=True)
def _start_deal_kernel(b: DrawBridgeBatch, i: int, number: int, dealer: int, h0: Any,
                       h1: Any) -> None:
    masks, _, meta, _ = b
    _start_deal(masks, meta, i, number, dealer, h0, h1)


def _start_deal_row(batch: DrawBridgeBatch, i: int, number: int, dealer: int, h0: int,
                    h1: int) -> None:
    _start_deal_kernel(batch, i, number, dealer, np.int64(h0), np.int64(h1))


def _cards(names: list[str]) -> list[int]:
    from cardtable.cards import parse_card

    return [parse_card(c) for c in names]


def _seed_rows(batch: DrawBridgeBatch, seeds: np.ndarray) -> None:
    batch.rngs[:, R_SEED] = seeds
    batch.rngs[:, R_POLICY] = seeds ^ np.uint64(0x5DEECE66D)
