"""Draw Bridge's heuristics as a numba kernel over a batch of the batched engine
(docs/envs.md, "Batched opponents: the heuristics as kernels"): in every row, the card or
call the scalar bot of ``kind`` chooses for the seat to act, ``heuristic``
(``cardtable.bots.drawbridge``) or ``heuristic-v1``, the frozen yardstick
(``cardtable.bots.drawbridge_v1``).

::

    engine = cardtable.vector.VectorDrawBridge(undertricks=True)
    batch = engine.init(np.arange(4096))
    actions = heuristic_actions(engine, batch)   # (4096,) int64: the heuristic's moves
    engine.step(batch, actions)

The scalar heuristic names one move and scores it 1, every other legal move 0; so does
``heuristic_scores``. Its rules, from the seat's view (the module docstrings of the
scalar bots); the two kinds draw and play alike:

- draw phase: with the stock's top card shown (``show_stock_top``) and a jack or better,
  lead the highest card if it is at least as high, or win the trick as cheaply as a card
  no higher than it allows; otherwise the lowest card;
- auction, ``heuristic-v1``: each side's tricks per strain estimated from both hands
  (every card is known), redouble with a trick to spare, double a contract the opponent
  cannot make, bid the best strain at the lowest level it outbids (pass when our own bid
  stands);
- auction, ``heuristic``: from the same estimates, the call worth the most expected
  points at the engine's ``undertricks`` if the auction ended there (``call_values``):
  pass, double or redouble, or each strain's lowest legal bid (one that makes at least
  ``MIN_MAKE`` of the time where going down is free); of calls worth the same to six
  decimals, the first in that order (``choose_call``);
- play: second hand wins as cheaply as it can, else follows low, ruffs low or sheds the
  lowest card; a leader (declarer first draws trumps) cashes a sure winner, else leads
  low from its longest side suit.

Among cards of equal rank the first in action-id order is chosen (the scalar bot's
``min``/``max`` over its legal list, which is in id order). The trick estimate adds the
same floats in the same order as ``estimate_tricks``, so each comparison comes out the
same; so do the trick odds and expected points (``trick_odds``, ``expected_points``: a
square by multiplying, sums left to right, the C library's ``exp``), and their rounding
to six decimals is Python's ``round`` (``_round6``), so that calls tie where the bot's
tie. ``tests/vector/test_drawbridge_heuristic.py`` checks both kinds move for move
against the scalar bots.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from cardtable.cards import NUM_CARDS
from cardtable.drawbridge.game import BID, DOUBLE, PASS, REDOUBLE
from cardtable.vector.drawbridge import (
    AUCTION,
    DRAW,
    FACTOR,
    K_HAND,
    K_PLAYED,
    M_BIDDER,
    M_CURRENT,
    M_DOUBLED,
    M_KIND,
    M_LEAD,
    M_LOWEST,
    M_NPLAYED,
    M_OVER,
    M_PHASE,
    NUM_ACTIONS,
    POWER,
    TRICK_POINTS,
    TRUMP,
    UNDER,
    DrawBridgeBatch,
    VectorDrawBridge,
    _legal_ids,
)
from cardtable.vector.sequence_heuristic import NO_SCORE

#: the power of a jack: a shown stock card below it is not worth a good card
JACK = 9
ALL_CARDS = (np.int64(1) << np.int64(NUM_CARDS)) - np.int64(1)
# what estimate_tricks weighs (cardtable.bots.drawbridge; the test checks the estimates)
LENGTH_WEIGHT = 0.5
RUFF_WEIGHT = 0.7
# what the expected-points auction of ``heuristic`` weighs (``TRICK_SPREAD``, ``MIN_MAKE`` of
# cardtable.bots.drawbridge; the test checks they are the bot's)
TRICK_SPREAD = 1.2
MIN_MAKE = 0.35
#: the scalar bot rounds a call's value to six decimals before comparing (``choose_call``)
MILLION = 1e6
#: Dekker's splitter (2**27 + 1): a double into two halves of 26 bits
SPLIT = 134217729.0
#: the bot kinds this kernel plays (``heuristic_actions``'s ``kind``)
KINDS = ("heuristic", "heuristic-v1")


@njit(inline="always", cache=True)
def _suit(mask: Any, s: int) -> tuple[int, int]:
    """(cards, highest power or -1) of suit ``s`` in ``mask``."""
    n = 0
    top = -1
    for r in range(13):
        c = 13 * s + r
        if (mask >> np.int64(c)) & np.int64(1):
            n += 1
            if POWER[c] > top:
                top = POWER[c]
    return n, top


@njit(inline="always", cache=True)
def _above(mask: Any, s: int, power: int) -> int:
    """The cards of suit ``s`` in ``mask`` of a power above ``power``."""
    n = 0
    for r in range(13):
        c = 13 * s + r
        if (mask >> np.int64(c)) & np.int64(1) and POWER[c] > power:
            n += 1
    return n


@njit(cache=True)
def _estimate(ours: Any, theirs: Any, trump: int) -> float:
    """``estimate_tricks``: the tricks the side holding ``ours`` takes as declarer with
    trump suit ``trump`` (-1: no trump), every card known."""
    tricks = 0.0
    their_trumps = 0
    if trump >= 0:
        their_trumps = _suit(theirs, trump)[0]
    for s in range(4):
        mine = _suit(ours, s)[0]
        other, top = _suit(theirs, s)
        winners = _above(ours, s, top)
        if s == trump:
            tricks += max(winners, mine - other) if mine > other else winners
        elif trump >= 0 and other == 0 and their_trumps > 0:
            continue  # they ruff this suit
        else:
            tricks += winners + LENGTH_WEIGHT * max(0, mine - other - winners)
    if trump >= 0:
        spare = _suit(ours, trump)[0] - their_trumps
        if spare > 0:
            ruffs = 0
            for s in range(4):
                if s != trump:
                    ruffs += max(0, _suit(theirs, s)[0] - _suit(ours, s)[0])
            tricks += RUFF_WEIGHT * min(spare, ruffs)
    return min(13.0, tricks)


@njit(cache=True)
def _call(hand: Any, theirs: Any, lowest: int, kind: int, bidder: int, seat: int) -> int:
    """``choose_call``: the heuristic's call, from both sides' estimates per strain."""
    ours_est = np.empty(5)
    theirs_est = np.empty(5)
    for st in range(5):
        ours_est[st] = _estimate(hand, theirs, TRUMP[st])
        theirs_est[st] = _estimate(theirs, hand, TRUMP[st])
    if bidder >= 0:
        bid = lowest - 1 - BID
        level = bid // 5 + 1
        strain = bid % 5
        if kind == 2 and ours_est[strain] >= 6 + level + 1:
            return REDOUBLE
        if kind == 1 and bidder != seat and theirs_est[strain] < 6 + level - 0.5:
            return DOUBLE
    # the strains best first, ties in strain order (Python's sort is stable)
    done = np.zeros(5, np.bool_)
    for _ in range(5):
        strain = -1
        for st in range(5):
            if not done[st] and (strain < 0 or ours_est[st] > ours_est[strain]):
                strain = st
        done[strain] = True
        most = int(np.floor(ours_est[strain])) - 6
        for level in range(1, most + 1):
            if BID + 5 * (level - 1) + strain >= lowest:
                if bidder == seat:
                    return PASS  # our own contract stands
                return BID + 5 * (level - 1) + strain
    return PASS


@njit(inline="always", cache=True)
def _odds(estimate: float) -> np.ndarray:
    """``trick_odds(estimate, TRICK_SPREAD, 0, 13)``: the chance of each trick count 0..13,
    the same floats in the same order (a square by multiplying, a sum left to right)."""
    odds = np.empty(14)
    total = 0.0
    for t in range(14):
        d = (t - estimate) / TRICK_SPREAD
        odds[t] = math.exp(-(d * d) / 2)
        total += odds[t]
    if total == 0.0:
        total = 1.0
    for t in range(14):
        odds[t] = odds[t] / total
    return odds


@njit(inline="always", cache=True)
def _round6(x: float) -> float:
    """Python's ``round(x, 6)``: the double nearest the decimal of six places nearest ``x``
    (ties to even). numba's own ``round`` rounds ``x * 1e6``, which can land on a half
    that the exact product is not on; there the product's rounding error (Dekker's exact
    product: 1e6 needs 20 bits, each half of ``x`` 26) says which side it was on."""
    y = x * MILLION
    n = np.rint(y)
    if abs(y - n) == 0.5:
        c = SPLIT * x
        high = c - (c - x)
        low = x - high
        error = (high * MILLION - y) + low * MILLION  # x * 1e6 - y, its sign exact
        if error > 0:
            n = np.floor(y) + 1.0
        elif error < 0:
            n = np.floor(y)
    return n / MILLION


@njit(inline="always", cache=True)
def _contract_odds(odds: np.ndarray, level: int) -> float:
    """``contract_odds``: the chance that a declarer whose tricks have ``odds`` (``_odds``)
    makes ``level``."""
    total = 0.0
    for t in range(6 + level, 14):
        total += odds[t]
    return total


@njit(inline="always", cache=True)
def _expected_points(odds: np.ndarray, level: int, strain: int, doubled: int,
                     undertricks: bool) -> float:
    """``expected_points``: declarer's expected points less the defender's (1.6, and
    1.1's ``undertricks``), as ``_finish_deal`` scores a deal, declarer's tricks having
    ``odds`` (``_odds``)."""
    total = 0.0
    for t in range(14):
        points = 0
        if t >= 6 + level:
            points = TRICK_POINTS[strain, t - 6] * FACTOR[doubled]
        elif undertricks:
            points = -(6 + level - t) * UNDER[doubled]
        total += odds[t] * points
    return total


@njit(cache=True)
def _call_by_points(hand: Any, theirs: Any, lowest: int, kind: int, bidder: int, seat: int,
                    doubled: int, undertricks: bool) -> int:
    """``choose_call`` of today's heuristic: the call of ``call_values`` worth the most
    expected points, each value rounded to six decimals as the bot does (``_round6``); of
    calls worth the same, the first in the bot's order: pass, double or redouble, the bids
    by strain."""
    # each side's trick odds per strain as declarer (``trick_odds`` of its estimate)
    ours = np.empty((5, 14))
    for st in range(5):
        ours[st] = _odds(_estimate(hand, theirs, TRUMP[st]))
    best = PASS
    value = 0.0
    if bidder >= 0:
        bid = lowest - 1 - BID
        level = bid // 5 + 1
        strain = bid % 5
        if bidder == seat:
            value = _round6(_expected_points(ours[strain], level, strain, doubled,
                                             undertricks))
            if kind == 2:
                v = _round6(_expected_points(ours[strain], level, strain, 2, undertricks))
                if v > value:
                    best, value = REDOUBLE, v
        else:
            odds = _odds(_estimate(theirs, hand, TRUMP[strain]))
            value = _round6(-_expected_points(odds, level, strain, doubled, undertricks))
            if kind == 1:
                v = _round6(-_expected_points(odds, level, strain, 1, undertricks))
                if v > value:
                    best, value = DOUBLE, v
    for st in range(5):
        for level in range(1, 8):
            a = BID + 5 * (level - 1) + st
            if a < lowest:
                continue
            # the lowest legal level of each strain only, as the bot
            if undertricks or _contract_odds(ours[st], level) >= MIN_MAKE:
                v = _round6(_expected_points(ours[st], level, st, 0, undertricks))
                if v > value:
                    best, value = a, v
            break
    return best


@njit(inline="always", cache=True)
def _lowest(buf: np.ndarray, n: int) -> int:
    """The first legal card of the lowest power."""
    best = buf[0]
    for k in range(1, n):
        if POWER[buf[k]] < POWER[best]:
            best = buf[k]
    return best


@njit(cache=True)
def _draw_card(buf: np.ndarray, n: int, top: int, lead: int, by_suit: bool) -> int:
    """``_draw_card``: ``top`` the shown stock card (-1: none), ``lead`` the card led."""
    lowest = _lowest(buf, n)
    if top < 0 or POWER[top] < JACK:
        return lowest
    if lead < 0:
        best = buf[0]
        for k in range(1, n):
            if POWER[buf[k]] > POWER[best]:
                best = buf[k]
        return best if POWER[best] >= POWER[top] else lowest
    cheapest = -1
    for k in range(n):
        c = buf[k]
        if POWER[c] > POWER[lead] and (not by_suit or c // 13 == lead // 13) and (
                cheapest < 0 or POWER[c] < POWER[cheapest]):
            cheapest = c
    if cheapest >= 0 and POWER[cheapest] <= POWER[top]:
        return cheapest
    return lowest


@njit(cache=True)
def _play_card(buf: np.ndarray, n: int, hand: Any, theirs: Any, lead: int, trump: int,
               declarer: bool) -> int:
    """``_play_card``: ``theirs`` the opponent's cards (all known), ``trump`` -1 in NT."""
    if lead >= 0:
        led = lead // 13
        pick = -1  # the cheapest card that beats the lead, else the lowest of the suit
        beats = False
        for k in range(n):
            c = buf[k]
            if c // 13 != led:
                continue
            up = POWER[c] > POWER[lead]
            if pick < 0 or (up and not beats) or (up == beats and POWER[c] < POWER[pick]):
                pick = c
                beats = up
        if pick >= 0:
            return pick
        for k in range(n):
            c = buf[k]
            if c // 13 == trump and (pick < 0 or POWER[c] < POWER[pick]):
                pick = c
        if pick >= 0:
            return pick
        return _lowest(buf, n)
    if declarer and trump >= 0:
        count, their_top = _suit(theirs, trump)
        if count > 0:
            pick = -1
            for k in range(n):
                c = buf[k]
                if c // 13 == trump and POWER[c] > their_top and (
                        pick < 0 or POWER[c] > POWER[pick]):
                    pick = c
            if pick >= 0:
                return pick
    their_trumps = _suit(theirs, trump)[0] if trump >= 0 else 0
    # the legal cards highest first (ties in id order): the first safe one
    for power in range(12, -1, -1):
        for k in range(n):
            c = buf[k]
            if POWER[c] != power:
                continue
            other, top = _suit(theirs, c // 13)
            if (other > 0 and power > top) or (other == 0 and (
                    trump < 0 or c // 13 == trump or their_trumps == 0)):
                return c
    side = False
    for k in range(n):
        side |= buf[k] // 13 != trump
    pick = -1
    pick_len = 0
    for k in range(n):
        c = buf[k]
        if side and c // 13 == trump:
            continue
        length = _suit(hand, c // 13)[0]
        if pick < 0 or length > pick_len or (length == pick_len and POWER[c] < POWER[pick]):
            pick = c
            pick_len = length
    return pick


@njit(cache=True)
def _choice_kernel(b: DrawBridgeBatch, show_top: bool, follow_in_draw: bool, by_suit: bool,
                   undertricks: bool, v1: bool, out: np.ndarray) -> None:
    masks, stock, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        if meta[i, M_OVER] != 0:
            out[i] = -1
            continue
        seat = meta[i, M_CURRENT]
        hand = masks[i, K_HAND + seat]
        theirs = ALL_CARDS & ~hand & ~masks[i, K_PLAYED] & ~masks[i, K_PLAYED + 1]
        phase = meta[i, M_PHASE]
        if phase == AUCTION:
            if v1:
                out[i] = _call(hand, theirs, meta[i, M_LOWEST], meta[i, M_KIND],
                               meta[i, M_BIDDER], seat)
            else:
                out[i] = _call_by_points(hand, theirs, meta[i, M_LOWEST], meta[i, M_KIND],
                                         meta[i, M_BIDDER], seat, meta[i, M_DOUBLED],
                                         undertricks)
            continue
        n = _legal_ids(masks, meta, i, follow_in_draw, buf)
        if phase == DRAW:
            top = stock[i, meta[i, M_NPLAYED] // 2 * 2] if show_top else -1
            out[i] = _draw_card(buf, n, top, meta[i, M_LEAD], by_suit)
        else:
            trump = TRUMP[(meta[i, M_LOWEST] - 1 - BID) % 5]
            out[i] = _play_card(buf, n, hand, theirs, meta[i, M_LEAD], trump,
                                meta[i, M_BIDDER] == seat)


@njit(cache=True)
def _scores_kernel(b: DrawBridgeBatch, follow_in_draw: bool, choice: np.ndarray,
                   out: np.ndarray) -> None:
    masks, _, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        out[i, :] = NO_SCORE
        if choice[i] < 0:
            continue
        n = _legal_ids(masks, meta, i, follow_in_draw, buf)
        for k in range(n):
            out[i, buf[k]] = 1.0 if buf[k] == choice[i] else 0.0


def _check(engine: Any, batch: Any) -> VectorDrawBridge:
    if not isinstance(engine, VectorDrawBridge):
        raise ValueError(f"the batched heuristic is Draw Bridge's: engine must be a "
                         f"VectorDrawBridge, not {type(engine).__name__}")
    engine._check_batch(batch)  # the engine's own checks: a batch of its layout
    return engine


def heuristic_actions(engine: VectorDrawBridge, batch: DrawBridgeBatch,
                      kind: str = "heuristic") -> np.ndarray:
    """(N,) int64: bot ``kind``'s move in every row (-1 in a finished row): ``heuristic``
    (today's, which calls by expected points at the engine's ``undertricks``) or
    ``heuristic-v1`` (the frozen yardstick)."""
    engine = _check(engine, batch)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    out = np.empty(batch.size, np.int64)
    _choice_kernel(batch, engine.show_top, engine.follow_in_draw, engine.draw_by_suit,
                   engine.undertricks, kind == "heuristic-v1", out)
    return out


def heuristic_scores(engine: VectorDrawBridge, batch: DrawBridgeBatch,
                     kind: str = "heuristic") -> np.ndarray:
    """(N, 90) float64: as ``HeuristicBot(kind).scores``, 1 for the move chosen and
    0 for the other legal moves of each row's seat to act; ``-inf`` for an action that is
    not legal and in every entry of a finished row."""
    choice = heuristic_actions(engine, batch, kind)
    out = np.empty((batch.size, NUM_ACTIONS), np.float64)
    _scores_kernel(batch, engine.follow_in_draw, choice, out)
    return out
