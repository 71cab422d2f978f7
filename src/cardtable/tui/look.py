"""How cards and seats look on the screen: suit symbols, colours, names."""

from __future__ import annotations

import re

from rich.text import Text

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: the table's felt, a card's paper, and the gold that marks what can be chosen
FELT = "#0d3b2e"
PAPER = "#ece4cf"
GOLD = "#ffd75f"
#: RULES 2.2 chip colours, team 0 first
TEAM_COLOURS = ("#2f6fdf", "#1f9a48", "#d03b30")
TEAM_NAMES = ("blue", "green", "red")
#: what tells the teams apart without colour (colour-blind players, NO_COLOR): a letter
#: and a glyph on every chip
TEAM_LETTERS = ("B", "G", "R")
TEAM_GLYPHS = ("●", "▲", "■")
SEAT_COLOURS = ("#5f9fff", "#ffaf3f", "#3fcf8f", "#ff6fcf", "#cfcf3f", "#9f8fff", "#3fcfcf",
                "#ff8f6f")


def rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def card_label(card: str) -> str:
    """``"TH"`` -> ``"10♥"``: how a card is written on the screen."""
    return rank_text(card[:-1]) + SUIT_SYMBOL.get(card[-1], card[-1])


_CARD_WORD = re.compile(r"(?<![\w♠♥♦♣])(10|[A1-9TJQK])([SHDC])(?![\w♠♥♦♣])")


def spell(text: str) -> str:
    """Every card of a move or a message as the screen writes it: ``"TH c4"`` ->
    ``"10♥ c4"``, so that the board, the hand, the log and the hints agree."""
    return _CARD_WORD.sub(lambda m: card_label(m.group(1) + m.group(2)), text)


def is_red(card: str) -> bool:
    return card[-1] in "HD"


def card_text(card: str, width: int = 0) -> Text:
    """A card in its suit's colour on a dark background, right-aligned to ``width``."""
    colour = "#ff6f6f" if is_red(card) else "#e8e8e8"
    return Text(card_label(card).rjust(width), style=f"bold {colour}")


def card_face(card: str, width: int = 5, bg: str = PAPER, extra: str = "") -> Text:
    """A card as a small face-up card: ink on paper (or on ``bg``), ``width`` cells wide."""
    colour = "#c62828" if is_red(card) else "#1a1a1a"
    label = card_label(card)
    pad = width - len(label)
    body = " " * (pad - pad // 2) + label + " " * (pad // 2)
    return Text(body, style=f"bold {colour} on {bg} {extra}".strip())


def card_back(width: int = 5) -> Text:
    return Text("░" * width, style="#6f8fcf on #1f3f7f")


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
