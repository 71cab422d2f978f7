"""What a seat sees of a Sequence game: its typed observation, its view, the board as text.

Everything but the hands and the deck is public in Sequence (RULES 2.3, 2.4).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from cardtable.cards import CARD_NAMES, card_names
from cardtable.core import check_seat
from cardtable.sequence.board import CELL_CARD, CORNER, cell_name
from cardtable.sequence.game import SequenceObservation

if TYPE_CHECKING:
    from cardtable.sequence.game import SequenceState

def observe(state: SequenceState, seat: int | None) -> SequenceObservation:
    """What ``seat`` may know (None: a spectator): everything but hidden hands and the deck."""
    game = state.game
    if seat is not None:
        check_seat(seat, game.num_players)
    return SequenceObservation(
        seat=seat,
        team=None if seat is None else game.team_of(seat),
        teams=game.teams,
        hand=() if seat is None else tuple(state._hands[seat]),
        hand_sizes=tuple(len(h) for h in state._hands),
        stock_size=len(state._deck),
        board=bytes(state._board),
        locked=bytes(state._locked),
        discards=tuple(tuple(reversed(p)) for p in state._discards),
        sequences=tuple(state._sequences),
        sequence_counts=tuple(state._seq_count),
        sequences_needed=game.needed,
        dealer=state._dealer,
        current_player=None if state._over else state._current,
        exchanged_dead_card=state._exchanged,
        turns=state._turns,
        winners=tuple(state.winners),
    )


def seat_view(state: SequenceState, seat: int | None) -> dict[str, Any]:
    """What ``observe(state, seat)`` holds, as JSON-able data: the server makes one for
    every seat after every move, so it reads the state's fields directly (the same fields
    ``observe`` copies; tests/test_views.py checks the two agree key by key)."""
    return shared_seat_view(state, seat, {})


def shared_seat_view(state: SequenceState, seat: int | None,
                     shared: dict[str, Any]) -> dict[str, Any]:
    """``seat_view``, its public keys (all but the seat's own) made once per position
    and kept in ``shared`` for the other seats (State._shared_view)."""
    game = state.game
    if seat is not None:
        check_seat(seat, game.num_players)
    public = shared.get("sequence")
    if public is None:
        public = shared["sequence"] = _public_view(state)
    return {
        "game": "sequence",
        "seat": seat,
        "team": None if seat is None else game.team_of(seat),
        "teams": game.teams,
        "hand": [] if seat is None else sorted([CARD_NAMES[c] for c in state._hands[seat]]),
        **public,
        "legal": state.legal_notations(seat),
        # 2.4.1: the seat's own cards whose two cells are covered (any turn)
        "dead_cards": [] if seat is None else card_names(state.dead_cards(seat)),
    }


def _public_view(state: SequenceState) -> dict[str, Any]:
    """The keys of a view that every seat sees alike, in the view's order."""
    rows, chips = _board_view(bytes(state._board))
    teams = state.game.teams
    counts = state._seq_count
    hands = state._hands
    current = None if state._over else state._current
    return {
        "hand_sizes": [len(h) for h in hands],
        "stock_size": len(state._deck),
        "board": [list(row) for row in rows],
        "chips": dict(chips),
        "discards": [[CARD_NAMES[c] for c in reversed(pile)] for pile in state._discards],
        "sequences": [[t, [_CELL_NAMES[c] for c in cells]] for t, cells in state._sequences],
        "scores": [counts[s % teams] for s in range(len(hands))],
        "sequences_needed": state.game.needed,
        "dealer": state._dealer,
        "current_player": current,
        "exchanged_dead_card": state._exchanged,
        "turns": state._turns,
        "is_terminal": current is None,
        "winners": state.winners,
    }


def _cell_view(v: int) -> str | int | None:
    """A cell in a view: "XX" for a corner, the team of a chip, None when empty."""
    return "XX" if v == CORNER else v - 1 if v else None


#: _cell_view of every byte value, and cell_name of every cell: a view is made for every
#: seat after every move at a table (the server's hot path)
_CELL_VIEW: tuple[str | int | None, ...] = tuple(_cell_view(v) for v in range(256))
_CELL_NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(100))


@functools.lru_cache(maxsize=8192)
def _row(r: int, cells: bytes) -> tuple[tuple[str | int | None, ...], tuple[tuple[str, int], ...]]:
    """Row ``r`` (0-9) of the board, its ten bytes ``cells``: the row as a view writes it,
    and its chips as (cell name, team). Rows repeat from move to move: kept, a new board
    is made from ten rows seen before."""
    return (tuple(_CELL_VIEW[v] for v in cells),
            tuple((_CELL_NAMES[r * 10 + i], v - 1) for i, v in enumerate(cells)
                  if v and v != CORNER))


@functools.lru_cache(maxsize=512)
def _board_view(board: bytes) -> tuple[tuple[tuple[str | int | None, ...], ...],
                                       tuple[tuple[str, int], ...]]:
    """The board's rows as a view writes them, and its chips as (cell name, team), cell by
    cell in order (corners hold no chip): every seat's view after a move shares them."""
    rows = []
    chips: list[tuple[str, int]] = []
    for r in range(10):
        cells, chipped = _row(r, board[r * 10:r * 10 + 10])
        rows.append(cells)
        chips += chipped
    return tuple(rows), tuple(chips)


def render(state: SequenceState) -> str:
    """The board as text: card names, ``o0``.. for team chips, ``**`` for the free corners."""
    lines = ["     " + "  ".join("abcdefghij")]
    board = state._board
    for r in range(10):
        cells = []
        for c in range(10):
            v = board[r * 10 + c]
            cells.append("**" if v == CORNER else f"o{v - 1}" if v else
                         CARD_NAMES[CELL_CARD[r * 10 + c]])
        lines.append(f"{r + 1:>3}  " + " ".join(cells))
    return "\n".join(lines)
