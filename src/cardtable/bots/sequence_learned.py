"""A Sequence bot whose move scores are a weighted sum of features, the weights learned.

Each legal move is described by a few numbers read from the seat's observation: the
heuristic's own (how many five-cell windows through the cell it builds or blocks, by how
full they are; jacks spent; chips a one-eyed jack takes off) and what the heuristic does
not see: whether the opponent can still reach the cell (copies of its card not yet seen),
which empty cells of the windows the seat's remaining cards can fill, and double threats.
The bot plays the move with the highest weighted sum, ties broken at random. The weights
ship in ``data/sequence_weights.json``; ``python -m cardtable.train.evolve`` makes
them again (docs/bots.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from cardtable.bots.base import ScoringBot
from cardtable.bots.sequence import (
    _AROUND,
    BLOCK,
    BUILD,
    ONE_EYED_COST,
    TWO_EYED_COST,
    _made,
    _placed,
    _spent,
    _undone,
)
from cardtable.core import Action, OptionsError, State
from cardtable.sequence.board import (
    CARD_CELLS,
    CELL_CARD,
    TWO_EYED,
)
from cardtable.sequence.game import (
    CORNER,
    DEAD,
    DECODE,
    ONE_EYED_JACK,
    PASS,
    TWO_EYED_JACK,
    SequenceObservation,
)

#: the features of a move, in the order of the weights
FEATURES = (
    "build0", "build1", "build2", "build3", "build4",  # windows built, by chips already in
    "block1", "block2", "block3", "block4",  # opposing windows blocked, by their chips
    "two_eyed_spent",  # a two-eyed jack played that neither completes nor blocks a four
    "remove1", "remove2", "remove3", "remove4",  # one-eyed jack: windows undone, by chips
    "one_eyed_spent",
    "build_safe",  # build value (heuristic's scale / 100) on a cell the opponent cannot reach
    "block_safe",  # block value (likewise) on a cell the opponent cannot reach
    "support2", "support3", "support4",  # empty cells the hand can fill in windows now at 2..4
    "fork",  # a new open four whose gap differs from another open four's: two threats
)
#: the heuristic's scoring as weights: a bot with these plays as ``heuristic`` does
HEURISTIC_WEIGHTS = (
    *BUILD, *BLOCK[1:], -TWO_EYED_COST, *BLOCK[1:], -ONE_EYED_COST,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
)
assert len(HEURISTIC_WEIGHTS) == len(FEATURES)

_WEIGHTS_FILE = "sequence_weights.json"

# the cells (0, 1 or 2) on which each card can be played
_CELLS_OF: tuple[tuple[int, ...], ...] = tuple(
    () if cells[0] < 0 else cells for cells in CARD_CELLS)


@cache
def load_weights() -> tuple[float, ...]:
    """The shipped weights, one per FEATURES name."""
    text = resources.files("cardtable.bots").joinpath("data", _WEIGHTS_FILE).read_text()
    data = json.loads(text)
    weights = data["weights"]
    if list(weights) != list(FEATURES):
        raise OptionsError(f"{_WEIGHTS_FILE}: the features are {list(weights)}, "
                           f"expected {list(FEATURES)}")
    return tuple(float(weights[name]) for name in FEATURES)


class _Position:
    """What the features need of a position, from one seat's observation."""

    def __init__(self, obs: SequenceObservation) -> None:
        assert obs.team is not None
        self.board = obs.board
        self.chip = obs.team + 1
        self.made = _made(obs.sequences)
        self.hand = list(obs.hand)
        # copies of each card the seat has not seen: in other hands or the draw pile
        unseen = [2] * 52
        for card in self.hand:
            unseen[card] -= 1
        for pile in obs.discards:
            for card in pile:
                unseen[card] -= 1
        self.unseen = unseen
        self.gaps = self._open_four_gaps()

    def _open_four_gaps(self) -> set[int]:
        """The empty cells that would complete one of the seat's windows now at four."""
        board, chip = self.board, self.chip
        mine_made = self.made.get(chip)
        gaps: set[int] = set()
        for cell in range(100):
            if board[cell]:
                continue
            for others, window in _AROUND[cell]:
                if all(board[c] == chip or board[c] == CORNER for c in others) \
                        and not _spent(mine_made, window):
                    gaps.add(cell)
                    break
        return gaps

    def features(self, aid: int) -> list[float]:
        """The features of the placement or removal ``aid`` (not a dead card or a pass)."""
        card, cell = DECODE[aid]
        f = [0.0] * len(FEATURES)
        board = self.board
        if aid >= ONE_EYED_JACK:
            for theirs in _undone(board, cell, self.made):
                f[9 + theirs] += 1.0
            f[14] = 1.0
            return f
        hand = list(self.hand)
        hand.remove(card)
        fillable: set[int] = set()
        jack_in_hand = TWO_EYED[0] in hand or TWO_EYED[1] in hand
        for c in hand:
            fillable.update(_CELLS_OF[c])
        build = block = 0.0
        new_gaps: set[int] = set()
        for builds, k, others in _placed(board, cell, self.chip, self.made):
            if builds:
                f[k] += 1.0
                build += BUILD[k]
                if 1 <= k <= 3:
                    empties = [c for c in others if not board[c]]
                    f[16 + k] += (len(empties) if jack_in_hand
                                  else sum(1 for e in empties if e in fillable))
                    if k == 3:
                        new_gaps.add(empties[0])
            else:
                f[4 + k] += 1.0
                block += BLOCK[k]
        if aid >= TWO_EYED_JACK and not f[4] and not f[8]:
            f[9] = 1.0
        if not self.unseen[CELL_CARD[cell]]:
            f[15] = build / 100.0
            f[16] = block / 100.0
        if new_gaps - self.gaps and len((self.gaps | new_gaps) - {cell}) >= 2:
            f[20] = 1.0
        return f


def move_scores(state: State, seat: int,
                weights: Sequence[float]) -> list[tuple[float, Action]]:
    """Each legal action of ``seat`` with its weighted score (a dead-card exchange first)."""
    obs = state.observation(seat)
    if not isinstance(obs, SequenceObservation):
        raise OptionsError(f"the learned bot plays Sequence only, not {state.game.name}")
    position = _Position(obs)
    out = []
    for action in state.legal_actions():
        aid = action.id
        if aid == PASS:
            value = 0.0
        elif aid >= DEAD:
            value = 1e9  # a free exchange is never worse (as the heuristic)
        else:
            value = sum(w * x for w, x in zip(weights, position.features(aid), strict=True))
        out.append((value, action))
    return out


class LearnedSequenceBot(ScoringBot):
    """Sequence: the legal move with the highest weighted feature score."""

    def __init__(self, seed: int | None = None,
                 weights: Sequence[float] | None = None) -> None:
        super().__init__(seed)
        self.weights = tuple(weights) if weights is not None else load_weights()

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        """Each legal action's weighted feature score (``move_scores``)."""
        return move_scores(state, seat, self.weights)


def make(seed: int | None = None, **weights: Any) -> LearnedSequenceBot:
    """The bot with the shipped weights, some replaced by name: an arena spec for trying
    weights, e.g. ``cardtable.bots.sequence_learned:make:fork=50``."""
    unknown = sorted(set(weights) - set(FEATURES))
    if unknown:
        raise OptionsError(f"unknown feature {', '.join(unknown)}; the features are "
                           f"{', '.join(FEATURES)}")
    chosen = dict(zip(FEATURES, load_weights(), strict=True))
    chosen.update({k: float(v) for k, v in weights.items()})
    return LearnedSequenceBot(seed, [chosen[name] for name in FEATURES])
