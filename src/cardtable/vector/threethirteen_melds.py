"""Three Thirteen's meld solver as numba kernels (RULES.md 3.5, 3.7, 3.8): the least
penalty of a hand, exactly as ``cardtable.threethirteen.melds`` finds it.

A hand is 52 card counts (card = suit * 13 + rank, several decks may give a card twice).
The penalty rests on the scalar solver's facts (see its docstring): wild cards left
over once the natural cards are melded can always be melded too, as long as one meld
exists, so the penalty is the least deadwood of the natural cards over the splits that
need at most the wild cards held; when no natural card melds, the wild cards cost their
value, unless ``all_wild_melds`` lets three or more meld on their own.

The search (``_search``) takes the lowest natural card left, in card order, and tries
every meld it can be the lowest card of: a run of its suit up to a higher natural card
of the suit (a run never leaves out a natural card it spans), the card with two wild
cards, a high-ace run reaching down from the king (aces="both"), a set with any choice
of the other natural cards of its rank; and last, the card as deadwood. It is a branch
and bound: a branch stops once its deadwood reaches the best split found. It keeps its
own stack (one level per natural card, at most 14 in a hand of play), as numba's cache
cannot hold a recursive function; a JAX port would replace it by the scalar solver's
table of suit frontiers (docs/envs.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardtable.threethirteen.melds import deadwood_values

#: the penalty of an unmelded card by rank, for (aces, face_values): the scalar solver's
VALUES = {(aces, faces): np.array(deadwood_values(aces, faces), np.int64)
          for aces in ("low", "both") for faces in ("ten", "counting")}


#: the deepest search: one level per natural card (at most 52 in a hand given to it)
DEPTH = 64
# what a level has to undo when the search comes back to it
U_NONE, U_RUN, U_SET = 0, 1, 2


@njit(cache=True)
def _search(work: np.ndarray, wilds: int, vals: np.ndarray, ace_high: bool, best: int) -> int:
    """The least deadwood (below ``best``, else ``best``) of the natural cards in
    ``work[0]`` (52 counts) with at most ``wilds`` wild cards; ``work`` (``scratch()``) is
    changed, its other rows hold the search's stack.

    A depth-first search with its own stack (numba's cache cannot hold a recursive
    function): level d places the lowest natural card left, ``pos[d]``, trying its
    options in stages: runs up to a higher card, high-ace runs, two wild cards, sets,
    deadwood. Each option takes cards out of ``cnt`` and descends; coming back, the
    level puts them back (``undo``) and tries its next option.
    """
    cnt = work[0]
    pos = work[1]
    wild = work[2]
    cur = work[3]
    stage = work[4]
    par = work[5]  # the stage's next top, bottom or set choice
    held = work[6]
    taken = work[7]  # ranks of the suit taken by the run so far
    undo = work[8]  # U_*: what the option being tried took out
    undo_bits = work[9]  # its ranks (a run) or its counts (a set)
    d = 0
    start = 0  # the level being entered: its cards start at ``start``
    w0 = wilds
    c0 = 0
    entering = True
    while True:
        if entering:
            entering = False
            p = start
            while p < 52 and cnt[p] == 0:
                p += 1
            if p == 52:  # every natural card is placed
                if c0 < best:
                    best = c0
                    if best == 0:
                        return 0
                d -= 1
                if d < 0:
                    return best
            else:
                pos[d] = p
                wild[d] = w0
                cur[d] = c0
                cnt[p] -= 1
                rank = p % 13
                stage[d] = 0
                par[d] = rank + 1
                held[d] = 1
                taken[d] = 0
                undo[d] = U_NONE
        # level d: put back what its last option took, then find its next option
        p = pos[d]
        suit = p // 13
        rank = p - 13 * suit
        base = 13 * suit
        if undo[d] == U_RUN:
            bits = undo_bits[d]
            for k in range(13):
                if bits & (1 << k):
                    cnt[base + k] += 1
        elif undo[d] == U_SET:
            bits = undo_bits[d]
            for q in range(4):
                cnt[13 * q + rank] += (bits >> (8 * q)) & 255
        undo[d] = U_NONE
        w = wild[d]
        descend = False
        child_w = w
        child_c = cur[d]
        if stage[d] == 0:  # runs of the suit up to a higher natural card
            while par[d] < 13:
                top = par[d]
                par[d] = top + 1
                if cnt[base + top] == 0:
                    continue
                held[d] += 1
                taken[d] |= 1 << top
                span = top - rank + 1
                need = (span if span > 3 else 3) - held[d]
                if need > w:
                    if span >= 3:
                        break  # the need only grows from here
                    continue
                bits = taken[d]
                for k in range(13):
                    if bits & (1 << k):
                        cnt[base + k] -= 1
                undo[d] = U_RUN
                undo_bits[d] = bits
                child_w = w - need
                descend = True
                break
            if not descend:
                stage[d] = 1
                par[d] = 12
                held[d] = 1
                taken[d] = 0
        if not descend and stage[d] == 1:  # 3.8: a high ace tops a run down from the king
            while ace_high and rank == 0 and par[d] >= 1:
                bottom = par[d]
                par[d] = bottom - 1
                if cnt[base + bottom] == 0:
                    continue
                held[d] += 1
                taken[d] |= 1 << bottom
                span = 14 - bottom
                need = (span if span > 3 else 3) - held[d]
                if need > w:
                    if span >= 3:
                        break
                    continue
                bits = taken[d]
                for k in range(13):
                    if bits & (1 << k):
                        cnt[base + k] -= 1
                undo[d] = U_RUN
                undo_bits[d] = bits
                child_w = w - need
                descend = True
                break
            if not descend:
                stage[d] = 2
        if not descend and stage[d] == 2:  # the card with two wild cards
            stage[d] = 3
            par[d] = 0
            if w >= 2:
                child_w = w - 2
                descend = True
        if not descend and stage[d] == 3:  # a set: the card and k[q] more of suit q
            n0 = cnt[rank]
            n1 = cnt[13 + rank]
            n2 = cnt[26 + rank]
            n3 = cnt[39 + rank]
            combos = (n0 + 1) * (n1 + 1) * (n2 + 1) * (n3 + 1)
            while par[d] < combos:
                j = par[d]
                par[d] = j + 1
                k0 = j % (n0 + 1)
                j //= n0 + 1
                k1 = j % (n1 + 1)
                j //= n1 + 1
                k2 = j % (n2 + 1)
                k3 = j // (n2 + 1)
                size = 1 + k0 + k1 + k2 + k3
                need = 3 - size if size < 3 else 0
                if size < 2 or need > w:
                    continue
                cnt[rank] -= k0
                cnt[13 + rank] -= k1
                cnt[26 + rank] -= k2
                cnt[39 + rank] -= k3
                undo[d] = U_SET
                undo_bits[d] = k0 | (k1 << 8) | (k2 << 16) | (k3 << 24)
                child_w = w - need
                descend = True
                break
            if not descend:
                stage[d] = 4
        if not descend and stage[d] == 4:  # the card as deadwood
            stage[d] = 5
            value = vals[rank]
            if cur[d] + value < best:
                child_c = cur[d] + value
                descend = True
        if descend:
            start = p
            w0 = child_w
            c0 = child_c
            d += 1
            entering = True
            continue
        # every option tried: put the card back and return to the level above
        cnt[p] += 1
        d -= 1
        if d < 0:
            return best


def scratch() -> np.ndarray:
    """The work array of ``hand_penalty`` and ``melds_fully`` (one per kernel call)."""
    return np.zeros((10, DEPTH), np.int64)


@njit(cache=True)
def _naturals(hand: np.ndarray, wild: int, cnt: np.ndarray, vals: np.ndarray) -> tuple[int, int]:
    """The natural cards of ``hand`` (52 counts) into ``cnt``; returns (wild cards, the
    natural cards' total value)."""
    wilds = 0
    total = 0
    for c in range(52):
        n = int(hand[c])
        r = c % 13
        if r == wild:
            wilds += n
            cnt[c] = 0
        else:
            cnt[c] = n
            total += n * vals[r]
    return wilds, total


@njit(cache=True)
def hand_penalty(hand: np.ndarray, wild: int, vals: np.ndarray, ace_high: bool,
                 all_wild_melds: bool, work: np.ndarray) -> int:
    """3.7: the penalty of ``hand`` (52 counts) at its best split, the wild rank ``wild``;
    ``work`` is a ``scratch()`` array."""
    wilds, total = _naturals(hand, wild, work[0], vals)
    best = _search(work, wilds, vals, ace_high, total) if total > 0 else total
    if best < total:
        return best
    if all_wild_melds and wilds >= 3:
        return total
    return total + wilds * vals[wild]


@njit(cache=True)
def melds_fully(hand: np.ndarray, wild: int, vals: np.ndarray, ace_high: bool,
                all_wild_melds: bool, work: np.ndarray) -> bool:
    """3.6: whether ``hand`` (52 counts) splits entirely into melds (``work``: a
    ``scratch()`` array)."""
    wilds, total = _naturals(hand, wild, work[0], vals)
    if total == 0:
        return wilds == 0 or (all_wild_melds and wilds >= 3)
    return _search(work, wilds, vals, ace_high, 1) == 0


@njit(cache=True)
def _penalties(hands: np.ndarray, wild: int, vals: np.ndarray, ace_high: bool,
               all_wild_melds: bool, out: np.ndarray) -> None:
    work = np.zeros((10, DEPTH), np.int64)
    for i in range(hands.shape[0]):
        out[i] = hand_penalty(hands[i], wild, vals, ace_high, all_wild_melds, work)


def penalties(hands: Any, round_: int, aces: str = "low", face_values: str = "ten",
              all_wild_melds: bool = True) -> np.ndarray:
    """The penalty of each hand in ``hands`` ((k, 52) card counts) in round ``round_``:
    the batched twin of ``cardtable.threethirteen.melds.arrange``'s third value."""
    arr = np.ascontiguousarray(hands, np.int64)
    out = np.empty(arr.shape[0], np.int64)
    _penalties(arr, round_ + 1, VALUES[aces, face_values], aces == "both", all_wild_melds, out)
    return out
