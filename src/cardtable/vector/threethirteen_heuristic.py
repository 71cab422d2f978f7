"""Three Thirteen's heuristic (``heuristic``, and ``heuristic-v1``, the frozen yardstick,
which is the same today) as a numba kernel over a batch of the batched engine
(docs/envs.md, "Batched opponents: the heuristics as kernels"): in every row, each legal
action of the seat to act scored exactly as
``cardtable.bots.threethirteen.ThreeThirteenHeuristic.scores`` scores it, and the best one
chosen.

::

    engine = cardtable.vector.VectorThreeThirteen(players=2)
    batch = engine.init(np.arange(4096))
    actions = heuristic_actions(engine, batch)   # (4096,) int64: the heuristic's moves
    engine.step(batch, actions)

The scores, from the seat's view and the meld kernel (``threethirteen_melds``):

- drawing: ``draw`` 0; ``take`` 1 when the top discard is a wild card or when, with it
  in the hand, the best discard of a card other than it (any copy) leaves a lower
  penalty than the hand has now, else -1;
- discarding card c: ``-1000 * penalty(hand - c) - 10 * keep + value(c)``, where keep is
  50 for a wild card, else the cards of the hand (c itself and its copies included: the
  scalar bot's ``other is card`` never holds, its strings being distinct objects) of c's
  rank or of c's suit within two ranks; value is the rank's number (ace 1), the picture
  cards 10 unless ``face_values="counting"`` (11, 12, 13).

``tests/vector/test_threethirteen_heuristic.py`` checks it move for move against the
scalar bot: the same score for every legal action of every position, so the same set of
best moves (the scalar bot breaks ties with its own seeded generator, the kernel with
each row's random-policy generator).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardtable.cards import NUM_CARDS
from cardtable.threethirteen.game import DISCARD, DRAW, TAKE
from cardtable.vector.sequence_heuristic import NO_SCORE, _choose_kernel
from cardtable.vector.threethirteen import (
    M_CURRENT,
    M_DISCARD_LEN,
    M_DRAWING,
    M_OVER,
    M_ROUND,
    M_STOCK_LEN,
    NUM_ACTIONS,
    ThreeThirteenBatch,
    VectorThreeThirteen,
)
from cardtable.vector.threethirteen_melds import DEPTH, hand_penalty

# the heuristic's numbers (cardtable.bots.threethirteen, 1 December 2026), kept here: the
# batched engines import no bot (tests/vector/test_threethirteen_heuristic checks them)
#: the weight of the penalty left after a discard
PENALTY_WEIGHT = 1000.0
#: the weight of a card's closeness to melds (kept cards are worth more)
KEEP_WEIGHT = 10.0
#: a wild card's closeness: never shed while another card will do
WILD_KEEP = 50.0


def tie_values(face_values: str) -> np.ndarray:
    """The heuristic's ``_value`` by rank: ace 1 .. ten 10, the picture cards 10 (or 11,
    12, 13 with ``face_values="counting"``)."""
    return np.array([r + 1 if r + 1 <= 10 or face_values == "counting" else 10
                     for r in range(13)], np.float64)


@njit(cache=True)
def _scores_kernel(b: ThreeThirteenBatch, vals: np.ndarray, ace_high: bool, all_wild: bool,
                   ties: np.ndarray, out: np.ndarray) -> None:
    hands, _, _, discard, _, _, _, meta, _ = b
    work = np.zeros((10, DEPTH), np.int64)
    hand = np.zeros(NUM_CARDS, np.uint8)
    for i in range(out.shape[0]):
        out[i, :] = NO_SCORE
        if meta[i, M_OVER] != 0:
            continue
        seat = meta[i, M_CURRENT]
        wild = meta[i, M_ROUND] + 1
        for c in range(NUM_CARDS):
            hand[c] = hands[i, seat, c]
        if meta[i, M_DRAWING] != 0:
            if meta[i, M_STOCK_LEN] > 0:
                out[i, DRAW] = 0.0
            n = meta[i, M_DISCARD_LEN]
            if n == 0:
                continue
            top = discard[i, n - 1]
            if top % 13 == wild:
                out[i, TAKE] = 1.0
                continue
            now = hand_penalty(hand, wild, vals, ace_high, all_wild, work)
            hand[top] += 1
            best = 1 << 30
            for c in range(NUM_CARDS):
                if c != top and hand[c] > 0:
                    hand[c] -= 1
                    p = hand_penalty(hand, wild, vals, ace_high, all_wild, work)
                    hand[c] += 1
                    if p < best:
                        best = p
            out[i, TAKE] = 1.0 if best < now else -1.0
            continue
        for c in range(NUM_CARDS):
            if hand[c] == 0:
                continue
            rank = c % 13
            suit = c // 13
            hand[c] -= 1
            penalty = hand_penalty(hand, wild, vals, ace_high, all_wild, work)
            hand[c] += 1
            if rank == wild:
                keep = WILD_KEEP
            else:
                near = 0
                for other in range(NUM_CARDS):
                    k = hand[other]
                    if k == 0:
                        continue
                    r = other % 13
                    if r == rank or (other // 13 == suit and abs(r - rank) <= 2):
                        near += k
                keep = float(near)
            out[i, DISCARD + c] = -PENALTY_WEIGHT * penalty - KEEP_WEIGHT * keep + ties[rank]


def _check(engine: Any, batch: Any) -> VectorThreeThirteen:
    if not isinstance(engine, VectorThreeThirteen):
        raise ValueError(f"the batched heuristic is Three Thirteen's: engine must be a "
                         f"VectorThreeThirteen, not {type(engine).__name__}")
    engine._check_batch(batch)  # the engine's own checks: a batch of its layout
    return engine


def heuristic_scores(engine: VectorThreeThirteen, batch: ThreeThirteenBatch) -> np.ndarray:
    """(N, 54) float64: the score of each legal action of each row's seat to act, as
    ``HeuristicBot("heuristic").scores`` gives it; ``-inf`` for an action that is not
    legal and in every entry of a finished row."""
    engine = _check(engine, batch)
    out = np.empty((batch.size, NUM_ACTIONS), np.float64)
    faces = engine.game.options["face_values"]
    _scores_kernel(batch, engine.vals, engine.ace_high, engine.all_wild_melds,
                   tie_values(faces), out)
    return out


def heuristic_actions(engine: VectorThreeThirteen, batch: ThreeThirteenBatch) -> np.ndarray:
    """(N,) int64: the heuristic's move in every row (-1 in a finished row), ties broken
    uniformly by each row's random-policy generator (``engine.random_actions``'s)."""
    scores = heuristic_scores(engine, batch)
    out = np.empty(batch.size, np.int64)
    _choose_kernel(scores, batch.rngs, out)
    return out
