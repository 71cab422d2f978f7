"""The Sequence table: the board with chips, corners, sequences and a cursor; the hand.

Keys: arrows move the cursor, 1-9 pick a card (again: its next cell), Enter or a
click plays the picked card on the cursor's cell, x exchanges it as a dead card,
p passes. Which cells a card may take is read from the legal moves' notation.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

import cardtable
from cardtable.sequence import BOARD, parse_cell
from cardtable.sequence.board import cell_name as board_cell_name
from cardtable.tui.look import (
    FELT,
    GOLD,
    PAPER,
    TEAM_COLOURS,
    TEAM_GLYPHS,
    TEAM_LETTERS,
    TEAM_NAMES,
    card_face,
    card_label,
    card_text,
)
from cardtable.tui.panes import GamePane, hand_line, held_card

COLUMNS = "abcdefghij"
CELL = 5  # a cell is one gap and four characters wide
LABEL = 3  # the row numbers' width


def cell_name(row: int, col: int) -> str:
    """(3, 2) -> ``"c4"``."""
    return board_cell_name(row * 10 + col)


def cell_of(name: str) -> tuple[int, int] | None:
    """``"c4"`` -> (3, 2) as (row, column); None for words that are not cells."""
    try:
        return divmod(parse_cell(name), 10)
    except ValueError:
        return None


def chip_mark(team: int) -> str:
    """A team's chip without colour: its glyph and letter, ``"●B"``."""
    return TEAM_GLYPHS[team % len(TEAM_GLYPHS)] + TEAM_LETTERS[team % len(TEAM_LETTERS)]


class SequencePane(GamePane):
    """The board, the hand, and what the cursor points at."""

    score_name = "sequences"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1, 0)", "up", show=False),
        Binding("down", "cursor(1, 0)", "down", show=False),
        Binding("left", "cursor(0, -1)", "left", show=False),
        Binding("right", "cursor(0, 1)", "right", show=False),
        *[Binding(str(k), f"pick({k - 1})", "pick card", show=False) for k in range(1, 10)],
        Binding("enter,space", "play", "play card"),
        Binding("x", "dead", "dead card"),
        Binding("p", "pass", "pass"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.row, self.col = 4, 4
        self.picked: str | None = None
        self.hand_spans: list[tuple[int, int, int, int]] = []
        self.teams: list[int] = []  # each seat's team, from the game (seat_up)

    # -- what the view says ---------------------------------------------

    @property
    def hand(self) -> list[str]:
        cards: list[str] = self.view.get("hand", [])
        return cards

    def targets(self, card: str | None) -> set[str]:
        """The cells the legal moves put ``card`` on (a jack: many; a dead card: none)."""
        if card is None:
            return set()
        return {m.split()[1] for m in self.legal if m.split()[0] == card and len(m.split()) == 2}

    def locked(self) -> set[str]:
        return {cell for _, cells in self.view.get("sequences", []) for cell in cells}

    def last_cell(self) -> str | None:
        last = self.view.get("last_move")
        if last:
            words = str(last[1]).split()
            if len(words) == 2 and cell_of(words[1]):
                return words[1]
        return None

    def team_of(self, seat: int) -> int:
        """The seat's team, as the game says (``game.team_of``)."""
        return self.teams[seat] if seat < len(self.teams) else 0

    def seat_up(self, player_names: list[str], options: dict[str, Any]) -> None:
        super().seat_up(player_names, options)
        self.teams = cardtable.new_game("sequence", **options).describe()["teams"]

    def seat_colour(self, seat: int) -> str:
        return TEAM_COLOURS[self.team_of(seat) % len(TEAM_COLOURS)]

    def seat_mark(self, seat: int) -> str:
        return chip_mark(self.team_of(seat))

    def card_of(self, notation: str) -> str | None:
        words = notation.split()
        if len(words) == 2 and words[0].lower() == "dead":
            return held_card(words[1])
        if len(words) == 2 and cell_of(words[1]):
            return held_card(words[0])
        return None

    def seat_note(self, seat: int) -> str:
        piles = self.view.get("discards", [])
        if seat < len(piles) and piles[seat]:
            return f"discard {card_label(piles[seat][0])}"
        return ""

    def show(self, view: dict[str, Any], legal: list[str], active: bool) -> None:
        starting = active and not self.active
        super().show(view, legal, active)
        if self.picked not in self.hand:
            self.picked = self.hand[0] if self.hand else None
        cells = sorted(self.targets(self.picked), key=lambda n: cell_of(n) or (0, 0))
        if starting and cells and cell_name(self.row, self.col) not in cells:
            self.row, self.col = cell_of(cells[0]) or (self.row, self.col)  # ready to play

    # -- drawing --------------------------------------------------------

    def geometry(self) -> tuple[int, int]:
        """(cell width with its gap, lines per board row): bigger cells when there is room."""
        width, height = self.size
        return (7 if width >= LABEL + 70 + 1 else 6 if width >= LABEL + 60 + 1 else CELL,
                2 if height >= 1 + 20 + 3 else 1)

    def render(self) -> Text:
        view = self.view
        board = view.get("board")
        out = Text(no_wrap=True)
        if not board:
            return out
        width, tall = self.geometry()
        out.append(" " * LABEL)
        for c in range(10):
            out.append(f" {COLUMNS[c]:^{width - 1}}", style="bold #9fbfaf")
        out.append("\n")
        targets = self.targets(self.picked) if self.active else set()
        locked, last = self.locked(), self.last_cell()
        for r in range(10):
            gaps = [" "] * 11
            if r == self.row:
                gaps[self.col], gaps[self.col + 1] = "▐", "▌"  # the cursor's frame
            for line in range(tall):
                out.append(f"{r + 1:>{LABEL}}" if line == 0 else " " * LABEL,
                           style="bold #9fbfaf")
                for c in range(10):
                    name = cell_name(r, c)
                    out.append(gaps[c], style=f"bold #ffffff on {FELT}")
                    out.append_text(self._cell(board[r][c], BOARD[r][c], width - 1, line,
                                               name in targets, name in locked, name == last,
                                               (r + c) % 2 == 1))
                out.append(gaps[10], style=f"bold #ffffff on {FELT}")
                out.append("\n")
        out.append("\n")
        out.append_text(self._hand())
        out.append("\n")
        out.append_text(self._status())
        return out

    def _cell(self, value: object, card: str, width: int, line: int, target: bool,
              locked: bool, last: bool, shaded: bool) -> Text:
        """One line of a cell ``width`` wide: line 0 names the card, line 1 (tall) is below."""
        if value == "XX":
            return Text(f"{'★' if line == 0 else '':^{width}}", style=f"bold {GOLD} on #4a4a3a")
        label = card_label(card) if line == 0 else ""
        if isinstance(value, int):
            # a chip shows its team by colour and by glyph and letter (colour-blind
            # players, NO_COLOR): ●B ▲G ■R; the card under it is written above when the
            # cells are tall
            colour = TEAM_COLOURS[value % len(TEAM_COLOURS)]
            letter = TEAM_LETTERS[value % len(TEAM_LETTERS)]
            tall = self.geometry()[1] == 2
            if tall and line == 0:
                text = label  # the card under the chip
            elif locked:
                text = "━" + letter + "━"  # a completed sequence
            else:
                text = ("◆" + letter) if last else chip_mark(value)  # the last chip placed
            ink = GOLD if locked or last else "#ffffff"
            return Text(f"{text:^{width}}",
                        style=f"bold {ink} on {colour}" + (" reverse" if target else ""))
        bg = GOLD if target else "#d9cfb6" if shaded else PAPER
        if line == 1:
            # a chip just taken away by a one-eyed jack
            return Text(f"{'✕' if last else '':^{width}}", style=f"bold #c62828 on {bg}")
        return card_face(card, width, bg, "underline" if last else "")

    def _hand(self) -> Text:
        line = Text("Hand ", style="bold")
        picked = self.hand.index(self.picked) if self.picked in self.hand else None
        dead = {m.split()[1] for m in self.legal if m.startswith("dead ")}
        self.hand_spans = []
        line.append_text(hand_line(self.hand, picked, {c: " dead" for c in dead},
                                   self.hand_spans, start=len(line)))
        return line

    def _status(self) -> Text:
        view = self.view
        name = cell_name(self.row, self.col)
        value = view["board"][self.row][self.col]
        card = BOARD[self.row][self.col]
        out = Text(f"{name} ", style="bold")
        if value == "XX":
            out.append("free corner")
        else:
            out.append_text(card_text(card))
            if isinstance(value, int):
                colour = TEAM_NAMES[value % len(TEAM_NAMES)]
                out.append(f"  {colour} chip", style=f"bold {TEAM_COLOURS[value]}")
                if name in self.locked():
                    out.append(" in a sequence")
            else:
                out.append("  empty")
        if self.active and self.picked:
            count = len(self.targets(self.picked))
            out.append("   │ ", style="dim")
            out.append_text(card_text(self.picked))
            out.append(f"  fits {count} cell{'s' * (count != 1)}" if count else "  fits no cell")
        if self.note:
            out.append(f"   │ {self.note}", style=f"bold {GOLD}")
        return out

    def info(self) -> Text:
        view = self.view
        out = Text()
        out.append(f"Sequences to win: {view.get('sequences_needed', '?')}\n")
        out.append(f"Draw pile: {view.get('stock_size', 0)} cards\n")
        out.append(f"Turn {view.get('turns', 0) + 1}")
        if view.get("exchanged_dead_card"):
            out.append("  (dead card exchanged)")
        return out

    # -- keys and mouse -------------------------------------------------

    def action_cursor(self, dr: int, dc: int) -> None:
        self.row, self.col = (self.row + dr) % 10, (self.col + dc) % 10
        self.note, self.hinted = "", None
        self.refresh()

    def action_pick(self, index: int) -> None:
        if index >= len(self.hand):
            return
        card = self.hand[index]
        cells = sorted(self.targets(card), key=lambda n: cell_of(n) or (0, 0))
        here = cell_name(self.row, self.col)
        if card == self.picked and here in cells:
            # picking the same card again walks through its cells
            self.row, self.col = cell_of(cells[(cells.index(here) + 1) % len(cells)]) or (0, 0)
        elif cells:
            self.row, self.col = cell_of(cells[0]) or (0, 0)
        self.picked = card
        self.note, self.hinted = "", None
        self.refresh()

    def action_play(self) -> None:
        if self.active and self.hinted:
            self.choose(self.hinted)
        elif self.active and self.picked:
            self.choose(f"{self.picked} {cell_name(self.row, self.col)}")

    def action_dead(self) -> None:
        if self.active and self.picked:
            self.choose(f"dead {self.picked}")

    def action_pass(self) -> None:
        if self.active:
            self.choose("pass")

    def suggest(self, notation: str) -> None:
        words = notation.split()
        if words and words[0] in self.hand:
            self.picked = words[0]
        if len(words) == 2 and cell_of(words[1]):
            self.row, self.col = cell_of(words[1]) or (self.row, self.col)
        super().suggest(notation)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x, y = offset.x, offset.y
        width, tall = self.geometry()
        if 1 <= y <= 10 * tall and LABEL <= x < LABEL + width * 10:
            self.row, self.col = (y - 1) // tall, (x - LABEL) // width
            self.note, self.hinted = "", None
            self.refresh()
            self.action_play()
        elif y == 10 * tall + 2:
            for x0, x1, _, index in self.hand_spans:
                if x0 <= x <= x1:
                    self.action_pick(index)


PANE = SequencePane
