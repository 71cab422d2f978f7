"""A finished game, position by position, for the page's replay (``/t/{id}/replay``).

The page steps through a game without knowing its rules: the engine replays the record
(``cardtable.records.positions``) and each position is sent as the spectator's view, every
seat's hand (the game is over: nothing is hidden any more) and the move event that led
to it. Only a finished record is replayed; a game in play has hands nobody may see.

A replay takes at most ``MAX_ACTIONS`` moves and a review at most ``MAX_DEALS`` deals
(:class:`RecordTooLong`): each position costs a view per seat, each Draw Bridge deal the
solver's fraction of a second, and a record file can hold a hundred thousand moves.
"""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable import records
from cardtable.core import part

__all__ = ["MAX_ACTIONS", "MAX_DEALS", "RecordTooLong", "answer_bytes", "replay_json",
           "review_json"]

#: the most moves a replay or review takes: a 12-player Three Thirteen game has about 700
#: (of heuristic bots) to 4,800 (of random ones), a Draw Bridge match to 100 a few hundred
MAX_ACTIONS = 6_000
#: the most Draw Bridge deals a review takes (the solver's 0.2 s or so each): a match to
#: 100 has 5 to 25
MAX_DEALS = 40


class RecordTooLong(records.RecordError):
    """A record longer than a replay or review takes (``MAX_ACTIONS``, ``MAX_DEALS``)."""


class BadRecordFile(records.RecordError):
    """A file that cannot be replayed, with what the page tells a player (``reason``):
    ``"not-json"``, ``"pbn"`` (a PBN export), ``"not-record"`` (JSON, but no cardtable
    record), ``"not-over"`` (a game not finished) or ``"broken"`` (a cardtable record that
    does not read or replay: damaged, or of another version). The message says it for
    developers; the refusal ``record/bad`` carries both."""

    def __init__(self, message: str, reason: str = "broken") -> None:
        super().__init__(message)
        self.reason = reason


def reason_of(exc: Exception) -> str:
    """What a refused record file was (``BadRecordFile.reason``; "broken" for any other
    RecordError: its moves do not replay, say)."""
    return exc.reason if isinstance(exc, BadRecordFile) else "broken"


def _short_enough(record: records.Record, what: str) -> None:
    if len(record.actions) > MAX_ACTIONS:
        raise RecordTooLong(f"a {what} takes games of at most {MAX_ACTIONS:,} moves; this one "
                            f"has {len(record.actions):,}")


def replay_json(record: records.Record) -> dict[str, Any]:
    """``{"game", "options", "result", "positions": [{"number", "view", "hands", "event"}]}``:
    position 0 is the start (``event`` None); each position after it follows the move its
    ``event`` tells (``MoveEvent.for_seat(None)``). ``hands[s]`` is seat ``s``'s hand as its
    own view shows it (None for a game whose views have no hand). RecordError for a record
    whose game is not finished or whose moves do not replay; RecordTooLong (one) over
    ``MAX_ACTIONS`` moves."""
    if not record.finished:
        raise BadRecordFile("only a finished game is replayed: its hands are then open", "not-over")
    _short_enough(record, "replay")
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
    chance lost with the card or call where it happened: docs/drawbridge-review.md); a
    Three Thirteen game of two players at the default rules is reviewed by the trained
    network (``cardtable.review.review``: ``deals`` empty, and ``method``, ``unit``,
    ``moves`` and ``players``), and so is a two-player Sequence game at the default rules
    (by the afterstate value network); the other games have no review (``deals`` is
    empty).
    RecordError as for ``replay_json``; RecordTooLong over ``MAX_ACTIONS`` moves or
    ``MAX_DEALS`` deals."""
    if not record.finished:
        raise BadRecordFile("only a finished game is reviewed: its hands are then open", "not-over")
    if not cardtable.declaration(record.game).review:
        from cardtable import review as network_review  # NumPy, only when asked

        if record.game not in network_review.reviewed_games():
            return {"game": record.game, "deals": []}
        _short_enough(record, "review")
        try:
            return {"deals": [], **network_review.review(record)}
        except ValueError:     # options the network was not trained for
            return {"game": record.game, "deals": []}
    _short_enough(record, "review")
    final = record.log.replay()
    reviewer = part(type(final), "review")   # the game's package's review module
    deals = reviewer.deals(final)
    if deals > MAX_DEALS:
        raise RecordTooLong(f"a review takes matches of at most {MAX_DEALS} deals; this one "
                            f"has {deals}")
    return {"game": record.game,
            "deals": [deal.to_json() for deal in reviewer.review(records.positions(record))]}


def answer_bytes(asked: tuple[str, records.Record]) -> bytes:
    """``("replay" | "review", record)`` -> that answer as JSON bytes: what the server's
    bot pool works out for a finished table, in a worker process."""
    what, record = asked
    import orjson

    return orjson.dumps(replay_json(record) if what == "replay" else review_json(record))
