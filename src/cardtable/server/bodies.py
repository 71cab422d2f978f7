"""The HTTP API's request bodies and answers, the players' included (docs/server.md);
FastAPI's OpenAPI document (``/api/openapi.json``) describes them.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StrictStr, StringConstraints, model_validator

from cardtable.server.messages import Out, Result, TableSummary
from cardtable.server.reading import In, Name
from cardtable.server.refusals import Refusal

# ---------------------------------------------------------------- HTTP request bodies


class SeatRequest(In):
    """One seat of a new table: a person's (taken later) or a bot's."""

    kind: Literal["person", "bot"]
    #: the bot kind (GET /api/games lists them); bots only
    bot: StrictStr = "heuristic"
    #: the bot's settings, those of cardtable.bots.make (e.g. {"seconds": 1.0})
    settings: dict[str, Any] | None = None


class ClockRequest(In):
    """A table's clock: ``{"kind": "move", "seconds": 15}`` (a time per move) or
    ``{"kind": "player", "minutes": 5, "increment": 3}`` (a clock per player, plus
    ``increment`` seconds after each of its moves)."""

    kind: Literal["move", "player"]
    #: seconds per move, 1 to 3,600 ("move" only)
    seconds: Annotated[float, Field(ge=1, le=3_600, strict=True)] | None = None
    #: minutes per player, 0.05 to 600 ("player" only)
    minutes: Annotated[float, Field(ge=0.05, le=600, strict=True)] | None = None
    #: seconds added after each move, 0 to 600 ("player" only)
    increment: Annotated[float, Field(ge=0, le=600, strict=True)] = 0
    #: timeouts in a row before the seat is taken over (default: the server's setting)
    timeouts: Annotated[int, Field(ge=1, le=100, strict=True)] | None = None

    example: ClassVar[str] = '{"kind": "player", "minutes": 5, "increment": 3}'

    @model_validator(mode="after")
    def _complete(self) -> ClockRequest:
        if self.kind == "move" and (self.seconds is None or self.minutes is not None
                                    or self.increment):
            raise ValueError("a clock of kind 'move' has 'seconds' (1 to 3600) and no "
                             "'minutes' or 'increment'")
        if self.kind == "player" and (self.minutes is None or self.seconds is not None):
            raise ValueError("a clock of kind 'player' has 'minutes' (0.05 to 600) and "
                             "'increment' (seconds, 0 to 600), not 'seconds'")
        return self


class CreateTable(In):
    """POST /api/tables: a new table."""

    game: StrictStr
    #: the game's options except players, which is the number of seats
    options: dict[str, Any] | None = None
    #: one entry per player; default: the game's default number of persons
    seats: Annotated[list[SeatRequest], Field(min_length=1)] | None = None
    #: seconds a person's seat may be away, to act, before a bot plays for it (or null)
    takeover_after: Annotated[float, Field(ge=1, le=86_400, strict=True)] | None = None
    #: the table's chat (false: every chat line is refused with chat/off)
    chat: Annotated[bool, Field(strict=True)] = True
    #: the table's clock (or null: no clock)
    clock: ClockRequest | None = None
    #: how fast its bots move: "instant", "normal" (0.8 s), "slow" (2 s) or seconds from
    #: 0 to 10 after the move before theirs (default: the server's --bot-pace where a
    #: person sits, "instant" for bots alone)
    bot_pace: StrictStr | Annotated[float, Field(strict=True)] | None = None


class TakeSeat(In):
    """POST /api/tables/{id}/seats/{seat}: the display name (default "seat N")."""

    name: Name | None = None


# ---------------------------------------------------------------- HTTP answers


class Refused(Out):
    code: str
    message: str


class ErrorBody(Out):
    """Every refusal over HTTP, whatever the route."""

    error: Refused


def error_body(refusal: Refusal) -> dict[str, Any]:
    return ErrorBody(error=Refused(code=refusal.code, message=refusal.message)).data()


class OptionInfo(Out):
    name: str
    default: Any
    #: "int", "bool" or "choice"
    kind: str
    choices: list[Any]
    minimum: int | None
    maximum: int | None
    none_ok: bool
    help: str


class GameInfo(Out):
    name: str
    title: str
    players: list[int]
    default_players: int
    options: list[OptionInfo]
    #: the phases a move can be made in, in their order
    phases: list[str]
    #: the board's cells row by row, as card notation ("XX" a corner), or null
    board: list[list[str]] | None
    #: the record formats besides JSON (GET /api/tables/{id}/record.{format})
    exports: list[str]
    #: how the game plays, in one line (English; the page translates it)
    blurb: str
    #: a finished table has a review (GET /api/tables/{id}/review gives its deals)
    review: bool
    #: the options the page's tables start with (a house rule: Draw Bridge's undertricks)
    house_rules: dict[str, Any] = {}


class Games(Out):
    games: list[GameInfo]
    bots: list[str]


class TableAnswer(TableSummary):
    """A table's summary with, per seat, its invite link (null for a bot's seat)."""

    invites: list[str | None]


class Lobby(Out):
    tables: list[TableSummary]


class SeatTaken(Out):
    seat: int
    #: the only key to the seat: keep it
    token: str
    table: TableSummary


class SeatLeft(Out):
    left: int
    table: TableSummary


class Health(Out):
    ok: bool
    tables: int
    moves: int


# ---------------------------------------------------------------- players


class NewPlayer(In):
    """POST /api/players: the display name, if the browser has one yet."""

    name: Name | None = None


class ClaimCode(In):
    """POST /api/players/claim: a transfer code shown in the other browser."""

    code: Annotated[StrictStr, StringConstraints(min_length=1, max_length=32)]


class PlayerInfo(Out):
    """What is public of a player: its id and display name."""

    id: str
    name: str


class PlayerKey(Out):
    """A player and the key that is its only proof: keep it, it is shown once."""

    player: PlayerInfo
    key: str


class TransferCode(Out):
    """A one-time code (and a link with it) that gives another browser a key of this
    player; it expires after ``expires_in`` seconds."""

    code: str
    link: str
    expires_in: int


class Rating(Out):
    game: str
    #: the number shown: 1500 + 24 * (mu - 3 sigma), rounded
    rating: int
    mu: float
    sigma: float
    #: rated games (between people) of this game
    games: int


class Stats(Out):
    game: str
    played: int
    won: int
    lost: int
    drawn: int
    rated: int


class GameSeat(Out):
    seat: int
    kind: str
    name: str
    #: the player's public id (finished games only)
    player: str | None = None


class GameEntry(Out):
    """One game of a player: its table, its seat, the outcome once over."""

    table: str
    game: str
    title: str
    status: str
    seat: int
    created: str
    updated: str
    seats: list[GameSeat]
    #: "won", "lost" or "draw" once over
    outcome: Literal["won", "lost", "draw", "aborted"] | None = None
    result: Result | None = None
    #: between people only: counted in the ratings
    rated: bool = False
    #: why a finished game is not rated: "bots" (a bot's seat), "players" (a seat taken
    #: without a player key, or one player at two seats), "takeover" (decided by the bots
    #: that played for its people: docs/server.md, Ratings)
    unrated: Literal["bots", "players", "takeover", "aborted", "undo"] | None = None
    #: the page that steps through the finished game
    replay: str | None = None
    #: an unfinished table's summary (to the key's holder only)
    summary: TableSummary | None = None


class PlayerPage(Out):
    """GET /api/players/{id}: the public page; ``unfinished`` only to the key's holder
    (GET /api/players/me)."""

    player: PlayerInfo
    ratings: list[Rating]
    stats: list[Stats]
    #: finished games, the newest first (at most 100)
    games: list[GameEntry]
    unfinished: list[GameEntry] | None = None


