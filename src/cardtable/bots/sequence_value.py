"""Sequence's value network over afterstates, in NumPy (no PyTorch at play).

``V(afterstate)`` is the mover's chance to win, read from the position *after* its move
as the mover sees it: the board, the locked chips, its hand less the card played, the
discard piles and the counts (``afterstates``: the observation tensor of
``cardtable.encoders`` with the move applied, the card the mover then draws left aside,
since the mover does not know it when it chooses). TD-Gammon's shape: the bot plays the
legal move whose afterstate has the highest value.

The network is a convolution along the board's lines: each of the 192 five-cell windows
(rows, columns, diagonals) is read as 5 cells x ``CELL_FEATURES`` numbers (our chip, theirs,
empty, corner, locked, copies of the cell's card in the hand, copies discarded) by the
same two rectified layers; their outputs are summed over the windows, joined to a few
numbers of the whole position (``SCALARS``: jacks held and gone, sequences, the stock)
and read by a small perceptron to one logit. A move changes a few cells only, so the
bot recomputes only the windows whose inputs a move changes (``ValueNet.afterstate_values``).

``cardtable.train.value`` trains it (``python -m cardtable.train sequence --method value``,
docs/training.md); ``cardtable.bots.trained`` plays it as Sequence's ``trained`` bot, and
``cardtable.review`` reviews Sequence games with it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.cards import NUM_CARDS
from cardtable.core import OptionsError
from cardtable.sequence.board import (
    CELL_CARD,
    CORNERS,
    ONE_EYED,
    TWO_EYED,
    WINDOWS_THROUGH,
)
from cardtable.sequence.game import DEAD, DECODE, NUM_ACTIONS, ONE_EYED_JACK, PASS, TWO_EYED_JACK

__all__ = ["SHIPPED", "ValueNet", "afterstates", "inputs", "shipped"]

#: the shipped weights, in ``cardtable/bots/data``
SHIPPED = "sequence_value.npz"

# the observation tensor's offsets, two players (docs/envs.md; the encoder checks them)
OURS, THEIRS, LOCKED, HAND, DISCARDS, HAND_SIZES, SEQUENCES = 0, 100, 300, 400, 452, 504, 516
STOCK, EXCHANGED, NEEDED, TURNS_LEFT = 519, 520, 521, 522
OBS_SIZE = 523

K_PLAY, K_TWO_EYED, K_ONE_EYED, K_DEAD, K_PASS = 0, 1, 2, 3, 4
ACT_KIND = np.array([K_PASS if a == PASS else K_DEAD if a >= DEAD else
                     K_ONE_EYED if a >= ONE_EYED_JACK else K_TWO_EYED if a >= TWO_EYED_JACK
                     else K_PLAY for a in range(NUM_ACTIONS)], np.int8)
ACT_CARD = np.array([card for card, _ in DECODE], np.int64)
ACT_CELL = np.array([cell for _, cell in DECODE], np.int64)
_WINDOWS = sorted({w for ws in WINDOWS_THROUGH for w in ws})
#: (192, 5) the cells of every five-cell window
WINDOW_CELLS = np.array(_WINDOWS, np.int64)
_WINDOW_ID = {w: k for k, w in enumerate(_WINDOWS)}
#: the windows through each cell in the claiming order of RULES 2.5
THROUGH = tuple(tuple(_WINDOW_ID[w] for w in ws) for ws in WINDOWS_THROUGH)
_MOST = max(len(t) for t in THROUGH)
#: (100, 20, 5) the cells of the windows through each cell (padded with the first one)
_THROUGH_CELLS = np.array([[WINDOW_CELLS[t[min(k, len(t) - 1)]] for k in range(_MOST)]
                           for t in THROUGH], np.int64)
_THROUGH_REAL = np.array([[k < len(t) for k in range(_MOST)] for t in THROUGH], bool)
CORNER_PLANE = np.zeros(100, np.float32)
CORNER_PLANE[list(CORNERS)] = 1.0
_CELL_CARD = np.array([max(c, 0) for c in CELL_CARD], np.int64)
_HAS_CARD = np.array([c >= 0 for c in CELL_CARD], np.float32)
#: the numbers read for each cell of a window
CELL_FEATURES = ("ours", "theirs", "empty", "corner", "locked", "in_hand", "discarded")
#: the numbers read for the whole position
SCALARS = ("two_eyed_held", "one_eyed_held", "two_eyed_gone", "one_eyed_gone",
           "our_sequences", "their_sequences", "stock", "hand_size")
WINDOW_INPUTS = 5 * len(CELL_FEATURES)
_TWO, _ONE = list(TWO_EYED), list(ONE_EYED)


def afterstates(obs: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """(N, 523) the mover's observation after each row's action, from the observation
    ``obs`` (N, 523) of the seat to act before it: the card played leaves the hand for the
    discards, the chip is placed (removed by a one-eyed jack), the sequences it completes
    are claimed (RULES 2.5) and the turn passes; the card the mover then draws is left
    aside (the hand one card short, the stock as it was). A dead-card exchange leaves the
    seat to play on (``exchanged_dead_card`` 1). Two players only."""
    obs = np.asarray(obs, np.float32)
    actions = np.asarray(actions, np.int64)
    out = obs.copy()
    rows = np.arange(len(actions))
    kind, card, cell = ACT_KIND[actions], ACT_CARD[actions], ACT_CELL[actions]
    plays = kind != K_PASS
    out[rows[plays], HAND + card[plays]] -= 1
    out[rows[plays], DISCARDS + card[plays]] += 1
    out[plays, HAND_SIZES] -= 1
    place = (kind == K_PLAY) | (kind == K_TWO_EYED)
    out[rows[place], OURS + cell[place]] = 1
    remove = kind == K_ONE_EYED
    out[rows[remove], THEIRS + cell[remove]] = 0
    turn = kind != K_DEAD
    out[turn, EXCHANGED] = 0
    out[kind == K_DEAD, EXCHANGED] = 1
    limited = turn & (obs[:, TURNS_LEFT] > 0)
    out[limited, TURNS_LEFT] -= 1
    placed = np.flatnonzero(place)
    if len(placed):   # only where a window through the cell is now full: RULES 2.5
        filled = out[placed, OURS:OURS + 100] + CORNER_PLANE
        through = _THROUGH_CELLS[cell[placed]]                      # (P, 20, 5)
        full = (np.take_along_axis(filled, through.reshape(len(placed), -1), axis=1)
                .reshape(through.shape).min(axis=2) >= 1) & _THROUGH_REAL[cell[placed]]
        for r in placed[full.any(axis=1)].tolist():
            _claim(out[r], int(cell[r]), obs[r])
    return out


def _claim(row: np.ndarray, cell: int, before: np.ndarray) -> None:
    """RULES 2.5 in one observation row: the windows through ``cell`` that our chips (and
    corners) fill and that share at most one cell with our sequences become sequences;
    a winning move ends the game before the turn passes."""
    ours = row[OURS:OURS + 100] + CORNER_PLANE
    locked = row[LOCKED:LOCKED + 100]
    # our sequences before the move: with two teams at most one (two win), so our locked
    # cells are exactly its cells
    old = locked * row[OURS:OURS + 100]
    for corner in CORNERS:   # a locked corner is ours if our locked chips fill a window with it
        if locked[corner] and any(old[WINDOW_CELLS[w]].sum() == 4 for w in THROUGH[corner]):
            old[corner] = 1
    new: list[np.ndarray] = []
    for w in THROUGH[cell]:
        cells = WINDOW_CELLS[w]
        if ours[cells].min() < 1 or old[cells].sum() > 1:
            continue
        if any(len(np.intersect1d(cells, other)) > 1 for other in new):
            continue
        new.append(cells)
    for cells in new:
        locked[cells] = 1
        row[SEQUENCES] += 1
    if new and row[SEQUENCES] >= row[NEEDED]:
        row[EXCHANGED] = before[EXCHANGED]
        row[TURNS_LEFT] = before[TURNS_LEFT]


def won(after: np.ndarray) -> np.ndarray:
    """(N,) whether each afterstate is a win of the mover (its sequences reach the need)."""
    after = np.asarray(after)
    return (after[:, SEQUENCES] >= after[:, NEEDED]) & (after[:, NEEDED] > 0)


def inputs(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs of (N, 523) observations: (N, 192, WINDOW_INPUTS) the cells of
    every window (``CELL_FEATURES`` of each of its five cells) and (N, len(SCALARS))."""
    obs = np.asarray(obs, np.float32)
    n = len(obs)
    ours = obs[:, OURS:OURS + 100]
    theirs = obs[:, THEIRS:THEIRS + 100] + obs[:, THEIRS + 100:THEIRS + 200]
    corner = np.broadcast_to(CORNER_PLANE, ours.shape)
    hand, discards = obs[:, HAND:HAND + NUM_CARDS], obs[:, DISCARDS:DISCARDS + NUM_CARDS]
    cells = np.stack([ours, theirs, 1.0 - ours - theirs - corner, corner,
                      obs[:, LOCKED:LOCKED + 100],
                      hand[:, _CELL_CARD] * _HAS_CARD * 0.5,
                      discards[:, _CELL_CARD] * _HAS_CARD * 0.5], axis=2)   # (N, 100, 7)
    windows = np.take(cells, WINDOW_CELLS, axis=1).reshape(n, len(WINDOW_CELLS), WINDOW_INPUTS)
    scalars = np.stack([hand[:, _TWO].sum(1) / 2, hand[:, _ONE].sum(1) / 2,
                        discards[:, _TWO].sum(1) / 4, discards[:, _ONE].sum(1) / 4,
                        obs[:, SEQUENCES] / 2, obs[:, SEQUENCES + 1:SEQUENCES + 3].sum(1) / 2,
                        obs[:, STOCK] / 104, obs[:, HAND_SIZES] / 7], axis=1)
    return windows, scalars.astype(np.float32)


class ValueNet:
    """The value network in NumPy. ``layers`` are (weight, bias) pairs, ``x @ w + b``:
    ``window`` (two, applied to every window's inputs) then ``head`` (the rest, the last
    giving one logit). ``meta`` names the game, its options and the run."""

    WINDOW_SCALE = 1.0 / 16.0   # the window sum is divided by this many windows

    def __init__(self, window: list[tuple[np.ndarray, np.ndarray]],
                 head: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> None:
        self.window = [(w.astype(np.float32), b.astype(np.float32)) for w, b in window]
        self.head = [(w.astype(np.float32), b.astype(np.float32)) for w, b in head]
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                window = [(data[f"ww{k}"], data[f"wb{k}"]) for k in range(int(meta["window"]))]
                head = [(data[f"hw{k}"], data[f"hb{k}"]) for k in range(int(meta["head"]))]
        except (OSError, KeyError, ValueError) as exc:
            raise OptionsError(f"{path}: not a Sequence value network ({exc})") from None
        return cls(window, head, meta)

    def save(self, path: str | Path, dtype: Any = np.float16) -> None:
        arrays: dict[str, Any] = {"meta": json.dumps(
            {**self.meta, "window": len(self.window), "head": len(self.head)})}
        for k, (w, b) in enumerate(self.window):
            arrays[f"ww{k}"], arrays[f"wb{k}"] = w.astype(dtype), b.astype(dtype)
        for k, (w, b) in enumerate(self.head):
            arrays[f"hw{k}"], arrays[f"hb{k}"] = w.astype(dtype), b.astype(dtype)
        with open(path, "wb") as out:
            np.savez_compressed(out, **arrays)

    def fits(self, game: Any) -> bool:
        return (self.meta.get("game") == game.name
                and self.meta.get("options") == json.loads(json.dumps(game.options)))

    def embed(self, windows: np.ndarray) -> np.ndarray:
        """(..., hidden) each window's output, from (..., WINDOW_INPUTS)."""
        h = windows
        for w, b in self.window:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def read(self, pooled: np.ndarray, scalars: np.ndarray) -> np.ndarray:
        """(N,) logits from the summed window outputs and the scalars."""
        h = np.concatenate([pooled * self.WINDOW_SCALE, scalars], axis=1)
        last = len(self.head) - 1
        for k, (w, b) in enumerate(self.head):
            h = h @ w + b
            if k < last:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """(N,) the logit of the win chance of each (N, 523) afterstate, every window
        computed."""
        windows, scalars = inputs(obs)
        return self.read(self.embed(windows).sum(axis=1), scalars)

    def values(self, obs: np.ndarray) -> np.ndarray:
        """(N,) the mover's chance to win from each afterstate (a win is 1)."""
        out = 1.0 / (1.0 + np.exp(-self.logits(obs)))
        return np.where(won(obs), 1.0, out)

    def afterstate_values(self, obs: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """(K,) the value of each action's afterstate from the seat's observation ``obs``
        (523,): the windows the moves leave as they were are computed once."""
        return self.afterstate_values_of([(obs, actions)])[0]

    def afterstate_values_of(self, positions: list[tuple[np.ndarray, np.ndarray]]
                             ) -> list[np.ndarray]:
        """``afterstate_values`` of many (observation, actions) pairs in one pass (a search
        values many positions at once)."""
        obs = np.asarray([o for o, _ in positions], np.float32)             # (P, 523)
        counts = [len(a) for _, a in positions]
        rows = np.repeat(np.arange(len(positions)), counts)
        actions = np.concatenate([np.asarray(a, np.int64) for _, a in positions])
        after = afterstates(obs[rows], actions)
        windows, scalars = inputs(after)
        base, _ = inputs(obs)
        base_out = self.embed(base)                                         # (P, 192, h)
        changed = (windows != base[rows]).any(axis=2)                       # (K, 192)
        pooled = base_out.sum(axis=1)[rows]
        k, w = np.nonzero(changed)
        if len(k):
            np.add.at(pooled, k, self.embed(windows[k, w]) - base_out[rows[k], w])
        out = 1.0 / (1.0 + np.exp(-self.read(pooled, scalars)))
        out = np.where(won(after), 1.0, out)
        return np.split(out, np.cumsum(counts)[:-1])


@cache
def shipped() -> ValueNet | None:
    """The value network shipped with the package, or None."""
    path = resources.files("cardtable.bots") / "data" / SHIPPED
    if not path.is_file():
        return None
    with resources.as_file(path) as file:
        return ValueNet.load(file)


def best_action(net: ValueNet, obs: np.ndarray, legal: list[int]) -> tuple[int, np.ndarray]:
    """The legal action of highest afterstate value (a dead-card exchange first: it is
    never worse, RULES 2.4.1), and the values of all of ``legal`` (in its order)."""
    ids = np.asarray(legal, np.int64)
    values = net.afterstate_values(obs, ids)
    dead = ACT_KIND[ids] == K_DEAD
    if dead.any():
        return int(ids[np.flatnonzero(dead)[0]]), values
    return int(ids[int(np.argmax(values))]), values

