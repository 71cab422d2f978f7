"""Sequence's observation tensor (layout in docs/envs.md).

Teams and seats are relative to the observing seat: chip plane 0 is always
the seat's own team, hand size 0 its own hand. Everything but ``hand`` is
public in Sequence: the board, the completed sequences and the face-up
discard piles.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.cards import CARD_NAMES, NUM_CARDS
from cardtable.core import State
from cardtable.encoders import Encoder, Section, relative
from cardtable.sequence import parse_cell
from cardtable.sequence.game import DECLARATION, TEAM_SPLITS, SequenceState

MAX_SEATS = max(DECLARATION.players)
MAX_TEAMS = max(t for n in DECLARATION.players for t in TEAM_SPLITS[n])
_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


class SequenceEncoder(Encoder):
    def _sections(self) -> list[Section]:
        game = self.game
        max_turns = game.options["max_turns"]
        return [
            Section("chips", (MAX_TEAMS, 10, 10), 1, False,
                    "chips on the board (row 1 first, column a first) by team: plane 0 the "
                    "seat's own team, 1 the next team, 2 the one after (zeros with two teams)"),
            Section("locked", (10, 10), 1, False,
                    "chips that belong to a completed sequence (they cannot be removed)"),
            Section("hand", (NUM_CARDS,), 2, True,
                    "copies of each card in the seat's hand (card index = suit * 13 + rank, "
                    "suits S H D C, ranks A..K)"),
            Section("discards", (NUM_CARDS,), 2, False,
                    "copies of each card in the face-up discard piles (they come back only "
                    "when the deck is remade)"),
            Section("hand_sizes", (MAX_SEATS,), 7, False,
                    "cards in each hand, seat k after the observer at index k (0: itself); "
                    "zeros past the player count"),
            # a winning chip may complete several sequences at once: up to two per direction
            Section("sequences", (MAX_TEAMS,), 9, False,
                    "completed sequences per team, in the order of the chip planes"),
            Section("stock_size", (1,), 2 * NUM_CARDS, False, "cards in the draw pile"),
            Section("exchanged_dead_card", (1,), 1, False,
                    "1 once the seat to act has exchanged its dead card this turn"),
            Section("sequences_needed", (1,), 2, False, "sequences a team needs to win"),
            Section("turns_left", (1,), max(max_turns or 1, 1), False,
                    "turns until the max_turns draw (0 when there is no limit)"),
        ]

    def fill_from_view(self, view: dict[str, Any], seat: int,
                       parts: dict[str, np.ndarray]) -> None:
        game = self.game
        teams = game.num_teams
        team = game.team_of(seat)
        for k in range(teams):
            absolute = (team + k) % teams
            for r, row in enumerate(view["board"]):
                for c, value in enumerate(row):
                    if value == absolute and not isinstance(value, str):
                        parts["chips"][k, r, c] = 1
        for owner, cells in view["sequences"]:
            parts["sequences"][(owner - team) % teams] += 1
            for name in cells:
                cell = parse_cell(name)
                parts["locked"][cell // 10, cell % 10] = 1
        for name in view["hand"]:
            parts["hand"][_CARD_INDEX[name]] += 1
        for pile in view["discards"]:
            for name in pile:
                parts["discards"][_CARD_INDEX[name]] += 1
        sizes = view["hand_sizes"]
        for k, other in enumerate(relative(seat, len(sizes))):
            parts["hand_sizes"][k] = sizes[other]
        parts["stock_size"][0] = view["stock_size"]
        parts["exchanged_dead_card"][0] = view["exchanged_dead_card"]
        parts["sequences_needed"][0] = view["sequences_needed"]
        max_turns = game.options["max_turns"]
        parts["turns_left"][0] = max_turns - view["turns"] if max_turns else 0

    def encode(self, state: State, seat: int) -> np.ndarray:
        """Fast path: the same tensor as ``encode_view`` (tests/envs check it), read from
        ``state.observation(seat)``."""
        if not isinstance(state, SequenceState):
            raise TypeError(f"a Sequence encoder encodes Sequence states, not {state!r}")
        obs = state.observation(seat)
        teams = obs.teams
        team = self.game.team_of(seat)
        board = obs.board
        own, nxt, after = _PLANES[teams][team]
        # hand .. sequences_needed are small counts: gather them in one bytearray
        tail = bytearray(_TAIL)
        for card in obs.hand:
            tail[card] += 1
        for pile in obs.discards:
            for card in pile:
                tail[NUM_CARDS + card] += 1
        sizes = obs.hand_sizes
        n = len(sizes)
        for k in range(n):
            tail[_SIZES + k] = sizes[(seat + k) % n]
        counts = obs.sequence_counts
        for k in range(teams):
            tail[_SIZES + MAX_SEATS + k] = counts[(team + k) % teams]
        tail[_TAIL - 3] = obs.stock_size
        tail[_TAIL - 2] = obs.exchanged_dead_card
        tail[_TAIL - 1] = obs.sequences_needed
        out = np.empty(self.size, np.float32)
        out[:-1] = np.frombuffer(board.translate(own) + board.translate(nxt)
                                 + board.translate(after) + obs.locked + tail, np.uint8)
        max_turns = self.game.options["max_turns"]
        out[-1] = max_turns - obs.turns if max_turns else 0
        return out


# The fast path builds the tensor as bytes: the chip planes by translating the board
# (cell value team + 1, 255 for a corner) through a table per relative team, then locked,
# then hand (52) discards (52) hand_sizes (12) sequences (3) and three scalars, then the
# turns_left float (tests/envs check these offsets against the sections).
def _plane_table(chip: int | None) -> bytes:
    return bytes(1 if chip is not None and v == chip else 0 for v in range(256))


_PLANES = {
    teams: [tuple(_plane_table((team + k) % teams + 1 if k < teams else None)
                  for k in range(MAX_TEAMS)) for team in range(teams)]
    for teams in range(2, MAX_TEAMS + 1)
}
_SIZES = 2 * NUM_CARDS
_TAIL = _SIZES + MAX_SEATS + MAX_TEAMS + 3

ENCODER = SequenceEncoder
