"""Observations a network takes as they come (docs/envs.md, "Observations for networks").

``ObservationFormat(engine, normalize=False, planes=False)`` turns the engine's flat
observation (``engine.observe``: the encoder's layout, raw counts) into what ``SelfPlay``
returns:

- ``normalize``: every entry divided by its section's maximum (``encoder.high``), so every
  entry lies in [0, 1]: scores scaled by their bound, counts as fractions of theirs;
- ``planes`` (Sequence only): the same numbers laid out as ``(33, 10, 10)`` planes over the
  board (``SEQUENCE_PLANES``): the chips and the locked cells as they are, the hand and the
  discards on the cells of their cards, every other entry a constant plane. Each plane is
  entries of the flat tensor (``plane_index`` says which), so no information is lost or
  added.

``perfect_information`` is for centralised critics only (RLCard's
``get_perfect_information``): every seat's observation and the draw pile together, which
no seat may see.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.cards import NUM_CARDS, parse_card
from cardtable.core import OptionsError

#: Sequence's planes over the 10 x 10 board: (name, planes, meaning)
SEQUENCE_PLANES: tuple[tuple[str, int, str], ...] = (
    ("chips", 3, "chips by team, plane 0 the seat's own team (the flat `chips`)"),
    ("locked", 1, "chips of completed sequences (the flat `locked`)"),
    ("hand", 1, "copies in the seat's hand of the card printed on each cell (0 on corners)"),
    ("discards", 1, "copies in the discard piles of the card printed on each cell"),
    ("hand_jacks", 4, "constant planes: copies of JS, JH, JD, JC in the seat's hand"),
    ("discard_jacks", 4, "constant planes: copies of JS, JH, JD, JC in the discard piles"),
    ("hand_sizes", 12, "constant planes: the flat `hand_sizes`, seat k after the observer"),
    ("sequences", 3, "constant planes: completed sequences per team, as the chip planes"),
    ("stock_size", 1, "constant plane"),
    ("exchanged_dead_card", 1, "constant plane"),
    ("sequences_needed", 1, "constant plane"),
    ("turns_left", 1, "constant plane"),
)
JACKS = tuple(parse_card(name) for name in ("JS", "JH", "JD", "JC"))


def sequence_plane_index(offsets: dict[str, int], board: Any) -> np.ndarray:
    """(33, 100) int64: the flat entry each cell of each plane holds, ``-1`` for 0 (the
    hand and discard planes on the corners). ``board``: 10 rows of 10 card names, "XX" for
    a corner."""
    cells = [parse_card(name) if name != "XX" else -1 for row in board for name in row]
    planes: list[np.ndarray] = []

    def const(entry: int) -> None:
        planes.append(np.full(100, entry, np.int64))

    for k in range(4):  # the three chip planes, then locked: the flat layout as it is
        planes.append(offsets["chips"] + 100 * k + np.arange(100))
    for name in ("hand", "discards"):
        planes.append(np.array([offsets[name] + c if c >= 0 else -1 for c in cells], np.int64))
    for name in ("hand", "discards"):
        for jack in JACKS:
            const(offsets[name] + jack)
    for name, count in (("hand_sizes", 12), ("sequences", 3)):
        for k in range(count):
            const(offsets[name] + k)
    for name in ("stock_size", "exchanged_dead_card", "sequences_needed", "turns_left"):
        const(offsets[name])
    index = np.stack(planes)
    assert len(index) == sum(n for _, n, _ in SEQUENCE_PLANES)
    return index


class ObservationFormat:
    """What ``SelfPlay`` makes of the engine's flat observations (see the module)."""

    def __init__(self, engine: Any, normalize: bool = False, planes: bool = False) -> None:
        for name, value in (("normalize", normalize), ("planes", planes)):
            if not isinstance(value, bool):
                raise OptionsError(f"{name} must be True or False, not {value!r}")
        game = engine.game
        encoder = engine.encoder
        self.normalize = normalize
        self.planes = planes
        self.flat_size: int = encoder.size
        #: each flat entry's maximum (the minimum is 0)
        self.high: np.ndarray = encoder.high.astype(np.float32)
        self.plane_index: np.ndarray | None = None
        if planes:
            if game.name != "sequence":
                raise OptionsError(f"planes=True is Sequence's (its 10 x 10 board), not "
                                   f"{game.name}'s; leave it out")
            from cardtable.sequence.board import BOARD
            self.plane_index = sequence_plane_index(encoder.offsets, BOARD)
        self.shape: tuple[int, ...] = (
            (len(self.plane_index), 10, 10) if self.plane_index is not None
            else (self.flat_size,))
        #: the maximum of each stock count (``perfect_information`` divides by it)
        self.card_copies = int(engine.card_copies)

    def convert(self, flat: np.ndarray) -> np.ndarray:
        """``flat`` (..., flat_size) float32, the engine's observations, as this format:
        (..., *shape) float32 (``flat`` itself where nothing changes)."""
        if self.normalize:
            flat = np.divide(flat, self.high, dtype=np.float32)
        if self.plane_index is None:
            return flat
        padded = np.concatenate([flat, np.zeros((*flat.shape[:-1], 1), np.float32)], axis=-1)
        out = padded[..., self.plane_index]  # -1: the zero appended
        return out.reshape(*flat.shape[:-1], *self.shape)

    def perfect_information(self, flat_seats: np.ndarray, to_act: np.ndarray,
                            stock: np.ndarray, num_players: int) -> np.ndarray:
        """(N, players + players * flat_size + 52) float32 from every seat's flat
        observation ((N, players, flat_size), absolute seat order), the seat to act and
        the stock counts; normalised as the format is (never as planes)."""
        n = len(to_act)
        if self.normalize:
            flat_seats = np.divide(flat_seats, self.high, dtype=np.float32)
            stock_part = np.divide(stock, self.card_copies, dtype=np.float32)
        else:
            stock_part = stock.astype(np.float32)
        one_hot = np.zeros((n, num_players), np.float32)
        live = (to_act >= 0) & (to_act < num_players)
        one_hot[np.flatnonzero(live), to_act[live]] = 1.0
        return np.concatenate([one_hot, flat_seats.reshape(n, -1), stock_part], axis=1)


def perfect_information_size(num_players: int, flat_size: int) -> int:
    """The length of a row of ``perfect_information``."""
    return num_players + num_players * flat_size + NUM_CARDS
