"""Sequence: the 10x10 board game played with two decks of cards (RULES.md section 2)."""

from cardtable.sequence.board import BOARD, cell_name, parse_cell
from cardtable.sequence.game import SequenceGame, SequenceState
from cardtable.sequence.view import render

GAME_CLASS = SequenceGame

__all__ = ["BOARD", "GAME_CLASS", "SequenceGame", "SequenceState", "cell_name", "parse_cell",
           "render"]
