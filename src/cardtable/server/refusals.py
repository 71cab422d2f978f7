"""The documented refusals: one table of codes, each with its HTTP status (docs/server.md)."""

from __future__ import annotations

# code -> HTTP status when the refusal answers an HTTP request
CODES: dict[str, int] = {
    "move/bad": 400,
    "move/illegal": 422,
    "move/not-your-turn": 409,
    "move/stale": 409,
    "move/game-over": 409,
    "move/timed-out": 409,
    "table/waiting": 409,
    "seat/taken": 409,
    "seat/held": 409,           # a rematch's seat held for the last game's player
    "seat/not-found": 404,
    "name/bad": 400,
    "auth/bad-token": 401,
    "table/not-found": 404,
    "table/not-over": 409,
    "table/elsewhere": 421,
    "table/closed": 410,
    "options/bad": 422,
    "message/bad": 400,
    "message/too-large": 413,
    "limit/rate": 429,
    "limit/tables": 503,
    "limit/bot-tables": 429,    # tables of bots alone playing for one address
    "limit/tables-per-address": 429,    # tables waiting or playing for one address
    "limit/connections": 429,   # WebSockets past a table's or an address's cap (close 4429)
    "limit/pairing": 429,       # pairing tickets past an address's or the server's cap
    "pairing/not-found": 404,   # a pairing ticket that is no ticket (or forgotten)
    "record/no-format": 404,
    "player/bad-key": 401,
    "player/not-found": 404,
    "player/bad-code": 404,
    "record/bad": 400,          # POST /api/replay (cardtable.web): not a finished record
    "record/too-long": 413,     # a replay or review of more moves or deals than it takes
    "end/too-late": 409,        # an abort after every person moved (docs/server.md)
    "draw/none": 409,           # no game here has a draw by agreement
    "undo/rated": 403,          # no takebacks in a rated game
    "undo/nothing": 409,        # the seat has no move to take back
    "undo/pending": 409,        # a takeback is asked already
    "undo/not-asked": 409,      # an answer with no takeback asked of this seat
    "chat/off": 403,
    "chat/bad": 422,
    "chat/too-long": 413,
    "chat/rate": 429,
    "http/not-found": 404,
    "http/method": 405,
    "http/content-type": 415,   # a JSON route's body sent as a form, text/plain or untyped
    "http/timeout": 408,        # a request's body that stopped coming (--body-timeout)
    "server/error": 500,
    "server/unavailable": 503,  # the database cannot store anything just now
}


class Refusal(Exception):
    """A documented refusal: ``code`` (namespaced) and a sentence for a person."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return CODES[self.code]
