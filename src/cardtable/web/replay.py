"""A finished game, position by position, for the page's replay (``/t/{id}/replay``).

The page steps through a game without knowing its rules: the engine replays the record
(``cardtable.records.positions``) and each position is sent as the spectator's view, every
seat's hand (the game is over: nothing is hidden any more) and the move event that led
to it. Only a finished record is replayed; a game in play has hands nobody may see.
"""

from __future__ import annotations

from typing import Any

from cardtable import records

__all__ = ["replay_json", "review_json"]


def replay_json(record: records.Record) -> dict[str, Any]:
    """``{"game", "options", "result", "positions": [{"number", "view", "hands", "event"}]}``:
    position 0 is the start (``event`` None); each position after it follows the move its
    ``event`` tells (``MoveEvent.for_seat(None)``). ``hands[s]`` is seat ``s``'s hand as its
    own view shows it (None for a game whose views have no hand). RecordError for a record
    whose game is not finished or whose moves do not replay."""
    if not record.finished:
        raise records.RecordError("only a finished game is replayed: its hands are then open")
    out = []
    seats = range(len(record.seats))
    for number, state in enumerate(records.positions(record)):
        event = state.last_event if number else None
        out.append({
            "number": number,
            "view": state.view(None, history=False),
            "hands": [state.view(s, history=False).get("hand") for s in seats],
            "event": None if event is None else event.for_seat(None),
        })
    return {"game": record.game, "options": dict(record.options), "result": record.result,
            "positions": out}


def review_json(record: records.Record) -> dict[str, Any]:
    """``{"game", "deals": [...]}``: a finished Draw Bridge game's review, each deal's
    ``DealReview.to_json()`` (par, the contract reached, each seat's tricks and match
    chance lost with the card or call where it happened: docs/drawbridge-review.md); the
    other games have no review (``deals`` is empty). RecordError as for ``replay_json``."""
    if not record.finished:
        raise records.RecordError("only a finished game is reviewed: its hands are then open")
    if record.game != "drawbridge":
        return {"game": record.game, "deals": []}
    from cardtable.drawbridge.review import review

    return {"game": record.game,
            "deals": [deal.to_json() for deal in review(records.positions(record))]}
