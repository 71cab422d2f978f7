"""The game area of the screen: one pane per game, and a plain one for any other game.

A pane draws ``state.view(seat)`` and turns keys and clicks into move notation
(posted as :class:`GamePane.Chosen`); whether the move is legal is the state's
business, so a pane holds no rule of its game.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

import cardtable
from cardtable.cards import card_name, parse_card
from cardtable.tui.look import GOLD, PAPER, card_face, card_text, seat_colour, spell


class GamePane(Widget, can_focus=True):
    """Shows a seat's view of the table; keys and clicks choose a move."""

    DEFAULT_CSS = """
    GamePane { height: 1fr; width: 1fr; padding: 0 1; }
    """

    #: what ``state.scores`` count in this game, for the seats panel
    score_name: ClassVar[str] = "score"

    class Chosen(Message):
        """The player picked a move (not yet known to be legal)."""

        def __init__(self, notation: str) -> None:
            super().__init__()
            self.notation = notation

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: dict[str, Any] = {}
        self.legal: list[str] = []
        self.active = False
        self.note = ""
        #: the move a hint pointed at, which Enter plays until the player looks elsewhere
        self.hinted: str | None = None
        self.player_names: list[str] = []
        self.options: dict[str, Any] = {}

    def seat_up(self, player_names: list[str], options: dict[str, Any]) -> None:
        """The players' names and the game's options, before the first ``show``."""
        self.player_names, self.options = player_names, options

    def player(self, seat: int) -> str:
        return self.player_names[seat] if seat < len(self.player_names) else f"Seat {seat}"

    def show(self, view: dict[str, Any], legal: list[str], active: bool) -> None:
        """Draw ``view``; ``legal`` are the moves the viewer may make now (``active``)."""
        self.view, self.legal, self.active = view, legal, active
        self.refresh()

    def choose(self, notation: str) -> None:
        self.post_message(self.Chosen(notation))

    def suggest(self, notation: str) -> None:
        """Point at a move (a hint) without playing it; Enter plays it."""
        self.note = f"hint: {spell(notation)}"
        self.hinted = notation
        self.refresh()

    def forget_hint(self) -> None:
        """The player looked elsewhere, or a move was made: the hint is gone."""
        self.note, self.hinted = "", None
        self.refresh()

    def card_of(self, notation: str) -> str | None:
        """The card of the hand a typed move plays (``"KH a1"`` -> ``"KH"``), if any: the
        table says first when the player does not hold it."""
        return None

    def interlude(self) -> Text | None:
        """Something to show over the table before play goes on (a round's scoring), once."""
        return None

    def news(self) -> str:
        """What the last move did that the log should say (a trick won), or ``""``."""
        return ""

    def seat_colour(self, seat: int) -> str:
        return seat_colour(seat)

    def seat_mark(self, seat: int) -> str:
        """The mark beside a seat's name, in its colour (Sequence: the team's chip)."""
        return "●"

    def seat_note(self, seat: int) -> str:
        """Something public about a seat for the seats panel (a top discard, tricks won)."""
        return ""

    def info(self) -> Text:
        """Facts of the whole table for the side panel (stock size, round, contract...)."""
        return Text(f"stock {self.view.get('stock_size', 0)}")


def held_card(word: str) -> str | None:
    """``word`` as a card in notation (``"10h"`` -> ``"TH"``), or None if it is no card."""
    try:
        return card_name(parse_card(word))
    except ValueError:
        return None


def pane_for(game: str) -> GamePane:
    """The game's own pane, or the plain one."""
    try:  # cardtable.tui.<game> defines PANE
        module = cardtable.game_adapter(game, "cardtable.tui")
    except (ImportError, cardtable.OptionsError):
        module = None
    if module is not None and hasattr(module, "PANE"):
        cls: type[GamePane] = module.PANE
        return cls(id="pane")
    return PlainPane(id="pane")


def hand_line(cards: list[str], selected: int | None, marks: dict[str, str] | None = None,
              spans: list[tuple[int, int, int, int]] | None = None, start: int = 0, *,
              numbered: bool = True, playable: set[str] | None = None,
              breaks: set[int] | None = None, width: int = 5, gap: str = "  ",
              paper: dict[str, str] | None = None, wrap: int = 0) -> Text:
    """Cards as small face-up cards, the selected one in gold.

    ``numbered`` shows the keys 1-9 before the first nine; cards not in ``playable``
    are dimmed; ``paper`` gives some cards another colour; a gap follows each index
    in ``breaks`` (suits, melds); lines are at most ``wrap`` wide (0: one line).
    ``spans`` collects (first x, last x, line, index) of each card, for mouse clicks.
    """
    out, line, row = Text(), Text(), 0
    for i, card in enumerate(cards):
        mark = (marks or {}).get(card, "")
        size = (2 if numbered else 1) + width + len(mark)
        if wrap and line and start + len(line) + size > wrap:
            out.append_text(line)
            out.append("\n")
            line, row, start = Text(), row + 1, 0
        if numbered:
            line.append(f" {i + 1}" if i < 9 else "  ", style="dim")
        else:
            line.append(" ")
        x0 = start + len(line)
        bg = GOLD if i == selected else (paper or {}).get(card) or (
            PAPER if playable is None or card in playable else "#8f8a7c")
        line.append_text(card_face(card, width, bg))
        if mark:
            line.append(mark, style="italic #ff8f8f")
        if spans is not None:
            spans.append((x0, start + len(line) - 1, row, i))
        if breaks and i in breaks:
            line.append(gap)
    out.append_text(line)
    return out


class PlainPane(GamePane):
    """Any game: the hand, the public facts of the view and a list of the legal moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "previous move", show=False),
        Binding("down", "move(1)", "next move", show=False),
        Binding("enter,space", "play", "play", show=True),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cursor = 0

    def show(self, view: dict[str, Any], legal: list[str], active: bool) -> None:
        self.cursor = min(self.cursor, max(len(legal) - 1, 0))
        super().show(view, legal, active)

    def render(self) -> Text:
        out = Text()
        out.append("Hand ", style="bold")
        for card in self.view.get("hand", []):
            out.append_text(card_text(card))
            out.append(" ")
        out.append("\n\n")
        for key, value in self.view.items():
            if key in ("hand", "legal", "history", "game"):
                continue
            out.append(f"{key}: ", style="dim")
            out.append(json.dumps(value)[:200] + "\n")
        if self.active:
            out.append("\nYour moves (up/down, Enter):\n", style="bold")
            for i, move in enumerate(self.legal):
                out.append(f" {move} \n", style="reverse" if i == self.cursor else "")
        return out

    def action_move(self, step: int) -> None:
        if self.legal:
            self.cursor = (self.cursor + step) % len(self.legal)
            self.refresh()

    def action_play(self) -> None:
        if self.active and self.hinted:
            self.choose(self.hinted)
        elif self.active and self.legal:
            self.choose(self.legal[self.cursor])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.active:
            return
        first = sum(1 for _ in self.render().plain.split("\n")) - len(self.legal) - 1
        index = offset.y - first
        if 0 <= index < len(self.legal):
            self.cursor = index
            self.choose(self.legal[index])
