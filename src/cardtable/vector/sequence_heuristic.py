"""Sequence's heuristic (``heuristic-v1``, the frozen yardstick) as a numba kernel over a
batch of the batched engine (docs/envs.md, "A batched opponent: Sequence's heuristic-v1"):
in every row, each legal action of the seat to act scored exactly as
``cardtable.bots.sequence.SequenceHeuristic`` scores it, and the best one chosen.

::

    engine = cardtable.vector.VectorSequence(players=2)
    batch = engine.init(np.arange(4096))
    actions = heuristic_actions(engine, batch)   # (4096,) int64: heuristic-v1's moves
    engine.step(batch, actions)

``tests/vector/test_sequence_heuristic.py`` checks it move for move against the scalar bot:
the same score for every legal action of every position, so the same set of best moves
(the scalar bot breaks ties with its own seeded generator, the kernel with each row's
random-policy generator).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardtable.sequence.game import CORNER, NUM_ACTIONS
from cardtable.vector._kernel import R_POLICY, below
from cardtable.vector.sequence import (
    ACT_CELL,
    ACT_KIND,
    K_DEAD,
    K_ONE_EYED,
    K_PASS,
    K_TWO_EYED,
    M_CURRENT,
    M_NSEQ,
    M_OVER,
    OVERLAP,
    THROUGH,
    WINDOW_CELLS,
    SequenceBatch,
    VectorSequence,
    _legal_ids,
)

# heuristic-v1's numbers (cardtable.bots.sequence, 1 December 2026), kept here: the batched
# engines import no bot, and a yardstick stays as it was (tests/vector/test_sequence_heuristic
# checks them against the bot's)
#: the value of adding a chip to a window already holding n of the team's chips
BUILD = (1.0, 3.0, 12.0, 60.0, 1000.0)
#: the value of blocking a window holding n chips of one opposing team and none of ours
BLOCK = (0.0, 1.0, 6.0, 50.0, 800.0)
TWO_EYED_COST = 40.0
ONE_EYED_COST = 45.0
#: a free exchange of a dead card is never worse
DEAD_VALUE = 10_000.0
_BUILD = np.array(BUILD, np.float64)
_BLOCK = np.array(BLOCK, np.float64)
NO_SCORE = -np.inf


@njit(cache=True)
def _spent(sequences: np.ndarray, meta: np.ndarray, i: int, chip: int, w: int) -> bool:
    """Whether window ``w`` shares more than one cell with a sequence of the team whose
    chip is ``chip`` (RULES 2.5: it can never be another of its sequences)."""
    for k in range(meta[i, M_NSEQ]):
        if sequences[i, k, 1] + 1 == chip and OVERLAP[sequences[i, k, 0], w] > 1:
            return True
    return False


@njit(cache=True)
def _placement(board: np.ndarray, sequences: np.ndarray, meta: np.ndarray, i: int,
               cell: int, chip: int, build: np.ndarray, block: np.ndarray) -> float:
    """``_placement_value``: what a chip on the empty ``cell`` builds and blocks."""
    value = 0.0
    for t in range(THROUGH.shape[1]):
        w = THROUGH[cell, t]
        if w < 0:
            break
        mine = 0
        corners = 0
        opp = 0
        other = -1
        for k in range(5):
            c = WINDOW_CELLS[w, k]
            if c == cell:
                continue
            v = int(board[i, c])
            if v == chip:
                mine += 1
            elif v == CORNER:
                corners += 1
            elif v != 0:
                opp += 1
                other = v if (other == -1 or other == v) else 0
        if opp == 0:
            if not _spent(sequences, meta, i, chip, w):
                value += build[mine + corners]
        elif other > 0 and mine == 0 and not _spent(sequences, meta, i, other, w):
            value += block[opp + corners]
    return value


@njit(cache=True)
def _removal(board: np.ndarray, sequences: np.ndarray, meta: np.ndarray, i: int, cell: int,
             block: np.ndarray) -> float:
    """``_removal_value``: what taking the chip off ``cell`` undoes of its owner's
    windows."""
    owner = int(board[i, cell])
    value = 0.0
    for t in range(THROUGH.shape[1]):
        w = THROUGH[cell, t]
        if w < 0:
            break
        theirs = 0
        blocked = False
        for k in range(5):
            v = int(board[i, WINDOW_CELLS[w, k]])
            if v == owner or v == CORNER:  # noqa: SIM109 (a kernel: plain tests)
                theirs += 1
            elif v != 0:
                blocked = True
                break
        if not blocked and not _spent(sequences, meta, i, owner, w):
            value += block[min(theirs, 4)]
    return value


@njit(cache=True)
def _scores_kernel(b: SequenceBatch, teams: int, build: np.ndarray, block: np.ndarray,
                   one_eyed_cost: float, two_eyed_cost: float, out: np.ndarray) -> None:
    board, locked, hands, _, _, sequences, _, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        out[i, :] = NO_SCORE
        if meta[i, M_OVER] != 0:
            continue
        chip = meta[i, M_CURRENT] % teams + 1
        n = _legal_ids(board, locked, hands, meta, i, teams, buf)
        for j in range(n):
            a = buf[j]
            kind = ACT_KIND[a]
            if kind == K_PASS:
                value = 0.0
            elif kind == K_DEAD:
                value = DEAD_VALUE
            elif kind == K_ONE_EYED:
                value = _removal(board, sequences, meta, i, ACT_CELL[a], block) - one_eyed_cost
            else:
                value = _placement(board, sequences, meta, i, ACT_CELL[a], chip, build, block)
                if kind == K_TWO_EYED and value < block[4]:
                    value -= two_eyed_cost
            out[i, a] = value


@njit(cache=True)
def _choose_kernel(scores: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """The best-scored action of each row, ties broken uniformly by the row's random-policy
    generator; -1 in a row with no legal action (a finished game)."""
    for i in range(scores.shape[0]):
        best = NO_SCORE
        count = 0
        for a in range(scores.shape[1]):
            s = scores[i, a]
            if s == NO_SCORE:
                continue
            if s > best + 1e-9:
                best = s
                count = 1
            elif s >= best - 1e-9:
                count += 1
        if count == 0:
            out[i] = -1
            continue
        pick = below(rngs, i, R_POLICY, count) if count > 1 else 0
        for a in range(scores.shape[1]):
            s = scores[i, a]
            if s != NO_SCORE and s >= best - 1e-9:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1


def _check(engine: Any, batch: Any) -> VectorSequence:
    if not isinstance(engine, VectorSequence):
        raise ValueError(f"the batched heuristic is Sequence's: engine must be a "
                         f"VectorSequence, not {type(engine).__name__}")
    engine._check_batch(batch)  # the engine's own checks: a batch of its layout
    return engine


def heuristic_scores(engine: VectorSequence, batch: SequenceBatch) -> np.ndarray:
    """(N, 529) float64: the score of each legal action of each row's seat to act, as
    ``HeuristicBot("heuristic-v1").scores`` gives it; ``-inf`` for an action that is not
    legal and in every entry of a finished row."""
    engine = _check(engine, batch)
    out = np.empty((batch.size, NUM_ACTIONS), np.float64)
    _scores_kernel(batch, engine.teams, _BUILD, _BLOCK, ONE_EYED_COST, TWO_EYED_COST, out)
    return out


def heuristic_actions(engine: VectorSequence, batch: SequenceBatch) -> np.ndarray:
    """(N,) int64: heuristic-v1's move in every row (-1 in a finished row), ties broken by
    each row's random-policy generator (``engine.random_actions``'s)."""
    scores = heuristic_scores(engine, batch)
    out = np.empty(batch.size, np.int64)
    _choose_kernel(scores, batch.rngs, out)
    return out

