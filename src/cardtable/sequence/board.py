"""The Sequence board (RULES 2.1) and the geometry the rules need, precomputed.

Cells are ints ``row * 10 + col`` with row 0 = board row 1 (top) and col 0 = column a.
"""

from __future__ import annotations

from cardtable.cards import NUM_CARDS, parse_card, rank_of

_LAYOUT = """
XX 2S 3S 4S 5S 6S 7S 8S 9S XX
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
XX AD KD QD TD 9D 8D 7D 6D XX
"""

#: the layout as API.md gives it: 10 rows of 10 card strings, "XX" for corners, row 1 first
#: a free corner as the board keeps it (empty cells are 0, a chip its team + 1)
CORNER = 255

BOARD: tuple[tuple[str, ...], ...] = tuple(
    tuple(line.split()) for line in _LAYOUT.strip().splitlines()
)

CORNERS = (0, 9, 90, 99)
#: the 96 cells that show a card, in cell order
CARD_CELLS_ORDER: tuple[int, ...] = tuple(c for c in range(100) if c not in CORNERS)
#: position of a cell among CARD_CELLS_ORDER
CELL_POS: dict[int, int] = {cell: i for i, cell in enumerate(CARD_CELLS_ORDER)}

JACK = 10
TWO_EYED = (parse_card("JD"), parse_card("JC"))
ONE_EYED = (parse_card("JS"), parse_card("JH"))
#: the 48 cards that are not jacks, in card order
NON_JACKS: tuple[int, ...] = tuple(c for c in range(NUM_CARDS) if rank_of(c) != JACK)
NON_JACK_POS: dict[int, int] = {card: i for i, card in enumerate(NON_JACKS)}


def _card_cells() -> tuple[tuple[int, int], ...]:
    cells: list[list[int]] = [[] for _ in range(NUM_CARDS)]
    for r, row in enumerate(BOARD):
        for c, name in enumerate(row):
            if name != "XX":
                cells[parse_card(name)].append(r * 10 + c)
    out = []
    for card in range(NUM_CARDS):
        if rank_of(card) == JACK:
            assert not cells[card]
            out.append((-1, -1))
        else:
            assert len(cells[card]) == 2, card
            a, b = cells[card]
            out.append((a, b))
    return tuple(out)


#: the two cells of each non-jack card, lower cell first; (-1, -1) for jacks
CARD_CELLS = _card_cells()
#: the card shown on each cell, -1 for corners
CELL_CARD: tuple[int, ...] = tuple(
    -1 if name == "XX" else parse_card(name) for row in BOARD for name in row
)


def cell_name(cell: int) -> str:
    """``a1`` .. ``j10``."""
    return "abcdefghij"[cell % 10] + str(cell // 10 + 1)


def parse_cell(text: str) -> int:
    """Read ``c4`` (any case); raises ValueError."""
    t = text.strip().lower()
    if len(t) >= 2 and t[0] in "abcdefghij" and t[1:].isdigit() and 1 <= int(t[1:]) <= 10:
        return (int(t[1:]) - 1) * 10 + "abcdefghij".index(t[0])
    raise ValueError(f"{text!r} is not a cell: columns a..j, rows 1..10, e.g. c4")


# 2.5: directions in the ruling's order (row, column, down-right, up-right), each line
# walked from its left end (a column from its top).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))


def _windows_through(cell: int) -> tuple[tuple[int, ...], ...]:
    r0, c0 = divmod(cell, 10)
    out = []
    for dr, dc in _DIRECTIONS:
        # the five windows through the cell, by start offset from far left/top to the cell
        for back in range(4, -1, -1):
            r, c = r0 - dr * back, c0 - dc * back
            window = tuple((r + dr * k) * 10 + c + dc * k for k in range(5))
            if all(0 <= r + dr * k < 10 and 0 <= c + dc * k < 10 for k in range(5)):
                out.append(window)
    return tuple(out)


#: for each cell, the five-cell windows containing it, in the 2.5 claiming order
WINDOWS_THROUGH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    _windows_through(cell) for cell in range(100)
)
#: every five-cell window on the board
ALL_WINDOWS: frozenset[tuple[int, ...]] = frozenset(w for ws in WINDOWS_THROUGH for w in ws)
#: each window by its set of cells, for reading sequences given in any order
WINDOW_OF_CELLS: dict[frozenset[int], tuple[int, ...]] = {frozenset(w): w for w in ALL_WINDOWS}
