"""What a seat sends to end a game early or take moves back (docs/server.md: Resign,
abort and takebacks): resign, abort, draw, undo and undo_answer."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import StrictBool

from cardtable.server.reading import In


class ResignMessage(In):
    """The seat (its team with it) concedes: the game ends, the other teams winning."""

    type: Literal["resign"]
    example: ClassVar[str] = '{"type": "resign"}'


class AbortMessage(In):
    """End the game with no result, never rated: only while a person of the table has not
    moved yet, or at a table where this seat's person plays bots alone."""

    type: Literal["abort"]
    example: ClassVar[str] = '{"type": "abort"}'


class DrawMessage(In):
    """Offer a draw: refused (draw/none), no game here has a draw by agreement."""

    type: Literal["draw"]
    example: ClassVar[str] = '{"type": "draw"}'


class UndoAsk(In):
    """Take back this seat's last whole turn and every move after it: at once where the other
    seats are bots, else asked of the other people (``undo_answer``); never rated."""

    type: Literal["undo"]
    example: ClassVar[str] = '{"type": "undo"}'


class UndoAnswer(In):
    """A person's answer to the takeback another seat asked for."""

    type: Literal["undo_answer"]
    accept: StrictBool
    example: ClassVar[str] = '{"type": "undo_answer", "accept": true}'
