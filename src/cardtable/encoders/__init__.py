"""Observation tensors: each game's fixed-shape encoding of what one seat knows.

An encoder turns ``state.view(seat)`` (the API's account of exactly what a seat
may know) into a flat ``float32`` vector made of named sections, documented in
docs/envs.md. ``encode_view`` is the reference: it reads nothing but the view.
The fast ``encode`` reads the game's typed observation (``state.observation(seat)``,
the same knowledge with card ids instead of notation) and never a state's private
fields; the tests check that both give the same tensor, and that resampling what
the seat cannot see never changes it.

Examples:
    >>> import cardtable
    >>> from cardtable.encoders import encoder_for
    >>> state = cardtable.new_game("sequence").deal(seed=1)
    >>> enc = encoder_for(state.game)
    >>> enc.encode(state, 0).shape == (enc.size,)
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

import cardtable
from cardtable.core import Game, State


@dataclass(frozen=True)
class Section:
    """A named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    #: the largest value an entry can take (the smallest is always 0)
    high: float
    #: True when the block holds the seat's private cards (zeroed in public-only tensors)
    private: bool
    doc: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Encoder:
    """The observation layout of one game with its options fixed."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sections = tuple(self._sections())
        self.offsets: dict[str, int] = {}
        self._slices: list[tuple[str, int, int, tuple[int, ...]]] = []
        offset = 0
        for s in self.sections:
            self.offsets[s.name] = offset
            self._slices.append((s.name, offset, offset + s.size, s.shape))
            offset += s.size
        self.size = offset
        self.high = np.concatenate(
            [np.full(s.size, s.high, np.float32) for s in self.sections])
        private = np.zeros(self.size, bool)
        for s in self.sections:
            if s.private:
                private[self.offsets[s.name]:self.offsets[s.name] + s.size] = True
        #: True on the entries that hold the seat's private cards
        self.private = private

    def _sections(self) -> list[Section]:
        """The game's sections, in order."""
        raise NotImplementedError

    def encode(self, state: State, seat: int) -> np.ndarray:
        """The tensor of what ``seat`` knows in ``state`` (a fresh array)."""
        return self.encode_view(state.view(seat, history=False), seat)

    def encode_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """The tensor built from ``view = state.view(seat)`` alone: the reference encoding."""
        out = np.zeros(self.size, np.float32)
        self.fill_from_view(view, seat, self.split(out))
        return out

    def fill_from_view(self, view: dict[str, Any], seat: int,
                       parts: dict[str, np.ndarray]) -> None:
        """Write the sections (``parts``: zeroed views into the tensor) from a view."""
        raise NotImplementedError

    def split(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``tensor`` (no copy), one per section."""
        return {name: tensor[start:end].reshape(shape)
                for name, start, end, shape in self._slices}

    def describe(self, tensor: np.ndarray, private: bool = True) -> str:
        """The tensor in words, one line per section: the flat indices of its nonzero
        entries, with their value when it is not 1 (private sections left out if asked)."""
        lines = []
        for section, (name, start, end, _) in zip(self.sections, self._slices, strict=True):
            if section.private and not private:
                continue
            part = tensor[start:end]
            entries = [str(i) if part[i] == 1 else f"{i}={part[i]:g}"
                       for i in np.flatnonzero(part)]
            lines.append(f"{name}: {' '.join(entries)}")
        return "\n".join(lines)

    def layout_table(self) -> str:
        """The layout as a Markdown table (docs/envs.md holds one per game)."""
        rows = ["| section | offset | shape | max | private | meaning |",
                "| --- | --- | --- | --- | --- | --- |"]
        for s in self.sections:
            shape = " x ".join(map(str, s.shape))
            high = f"{s.high:g}"
            rows.append(f"| `{s.name}` | {self.offsets[s.name]} | {shape} | {high} | "
                        f"{'yes' if s.private else ''} | {s.doc} |")
        rows.append(f"| total | | {self.size} | | | |")
        return "\n".join(rows)


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (a ``cardtable.Game`` with its options)."""
    module = cardtable.game_adapter(game.name, __name__)  # cardtable.encoders.<game>
    if module is None:
        raise ValueError(f"no observation encoder for {game.name} yet")
    cls: type[Encoder] = module.ENCODER
    return cls(game)


def relative(seat: int, n: int) -> list[int]:
    """Seats in play order starting with ``seat``: index k is the k-th seat after it."""
    return [(seat + k) % n for k in range(n)]
