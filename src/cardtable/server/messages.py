"""The typed messages of the wire, one class per message, in and out (docs/server.md).

What a client sends on the WebSocket is read into these classes (``reading.read``);
what the server sends, there and in HTTP answers (``bodies``), is built from them and
written by :meth:`Out.text`. :func:`ws_schema` describes the WebSocket's messages
(``/api/ws-schema.json``, a copy in ``docs/ws-schema.json``:
``python -m cardtable.server.messages docs/ws-schema.json``).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, ClassVar, Literal, cast

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StrictInt,
    StrictStr,
    StringConstraints,
)
from pydantic.json_schema import models_json_schema

from cardtable.server.ending_messages import (
    AbortMessage,
    DrawMessage,
    ResignMessage,
    UndoAnswer,
    UndoAsk,
)
from cardtable.server.hint_messages import HintOutcome
from cardtable.server.reading import In, MoveText, read
from cardtable.server.refusals import Refusal

# ---------------------------------------------------------------- client to server


class MoveMessage(In):
    """A move for the seat of this connection, made at table version ``version``."""

    type: Literal["move"]
    #: the move in notation, e.g. "7H c4"
    move: MoveText
    #: the last table version the client saw
    version: StrictInt

    example: ClassVar[str] = '{"type": "move", "move": "7H c4", "version": 12}'


class HintMessage(In):
    """Ask for a hint for the seat to act (this connection's seat)."""

    type: Literal["hint"]
    example: ClassVar[str] = '{"type": "hint"}'


class RematchMessage(In):
    """A player of a finished table asks for a rematch."""

    type: Literal["rematch"]
    example: ClassVar[str] = '{"type": "rematch"}'


class PingMessage(In):
    """Keep the connection alive; answered by a pong."""

    type: Literal["ping"]
    example: ClassVar[str] = '{"type": "ping"}'


class ChatMessage(In):
    """A chat line: free ``text`` or a ``preset`` (one of CHAT_PRESETS), not both. A
    seat's line goes to the seats' channel, a spectator's to the spectators' one."""

    type: Literal["chat"]
    #: free text, at most CHAT_MAX characters once cleaned
    text: Annotated[StrictStr, StringConstraints(max_length=4096)] | None = None
    #: a preset phrase or emote, by its id
    preset: StrictStr | None = None

    example: ClassVar[str] = '{"type": "chat", "text": "good luck!"}'


class MuteMessage(In):
    """A seat mutes (or unmutes), for itself, another seat's chat lines or a spectator's
    (its id, a line's ``spectator``): one of ``seat`` and ``spectator``."""

    type: Literal["mute"]
    seat: StrictInt | None = None
    spectator: Annotated[StrictStr, StringConstraints(max_length=64)] | None = None
    muted: bool = True

    example: ClassVar[str] = '{"type": "mute", "seat": 1, "muted": true}'


class BackMessage(In):
    """The person of a seat taken over after its clock ran out plays again itself."""

    type: Literal["back"]
    example: ClassVar[str] = '{"type": "back"}'


Incoming = (MoveMessage | HintMessage | RematchMessage | PingMessage | ChatMessage
            | MuteMessage | BackMessage | ResignMessage | AbortMessage | DrawMessage
            | UndoAsk | UndoAnswer)
INCOMING: dict[str, type[In]] = {
    "move": MoveMessage, "hint": HintMessage, "rematch": RematchMessage,
    "ping": PingMessage, "chat": ChatMessage, "mute": MuteMessage, "back": BackMessage,
    "resign": ResignMessage, "abort": AbortMessage, "draw": DrawMessage, "undo": UndoAsk,
    "undo_answer": UndoAnswer}


class ClientMessage(RootModel[Annotated[Incoming, Field(discriminator="type")]]):
    """Every message a client may send on the WebSocket."""


def read_message(data: Any) -> Incoming:
    """A client's WebSocket message (parsed JSON) as its class; message/bad if it is none."""
    if not isinstance(data, dict):
        raise Refusal("message/bad", "a message must be a JSON object")
    kind = data.get("type")
    model = INCOMING.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise Refusal("message/bad", f"'type' is one of {', '.join(INCOMING)}")
    # a move's text that is blank or too long names no move: move/bad, as the game's own
    return cast(Incoming, read(model, data, "move/bad" if model is MoveMessage
                               else "message/bad", f"a {kind} message"))


# ---------------------------------------------------------------- what the server sends


def _type_required(schema: dict[str, Any]) -> None:
    if "type" in schema.get("properties", {}):
        schema["required"] = ["type", *schema.get("required", [])]


class Out(BaseModel):
    """What the server sends: only the keys given are written (:meth:`text`), ``type``
    always."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_type_required)

    def model_post_init(self, context: Any, /) -> None:
        if "type" in type(self).model_fields:
            self.model_fields_set.add("type")     # always written, though a default

    def data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_unset=True)

    def text(self) -> str:
        return self.model_dump_json(exclude_unset=True)


#: a table's status: waiting for players, playing, adjourned (all away; plays on later), over
Status = Literal["waiting", "playing", "adjourned", "over"]


class Result(Out):
    """``ended`` and ``by``: a resignation or abort, and its seat; ``undos``: takebacks."""

    winners: list[int]
    scores: list[int | float]
    ended: Literal["resign", "abort"] | None = None
    by: int | None = None
    undos: int | None = None


class SeatSummary(Out):
    seat: int
    #: "person" or "bot"
    kind: str
    name: str
    bot: str | None
    settings: dict[str, Any]
    #: a bot's seat, or a person's seat someone holds
    taken: bool
    #: a bot, or a person with a connection open
    connected: bool
    #: a bot plays for the away person
    bot_playing: bool
    #: the rating in this game of the player holding the seat, once it has one
    rating: int | None = None
    #: the public id of the player who held the seat (finished tables only)
    player: str | None = None


class ClockState(Out):
    """A table's clock as every seat and spectator sees it: per seat the seconds left at
    ``server_time`` (null for a bot's seat), the seat whose clock runs, each seat's
    timeouts in a row. It never carries anything of the game."""

    #: "move" (a time per move) or "player" (a clock per player)
    kind: Literal["move", "player"]
    #: seconds per move ("move") or null
    seconds: float | None
    #: minutes per player at the start ("player") or null
    minutes: float | None
    #: seconds added after each move ("player")
    increment: float
    #: timeouts in a row after which a bot plays the seat until its person is back
    takeover_timeouts: int
    #: the bot that plays the move of a seat whose time ran out
    bot: str
    left: list[float | None]
    running: int | None
    #: the server's time (seconds since 1970) at which ``left`` holds
    server_time: float
    timeouts: list[int]


class TableSummary(Out):
    """A table as the lobby, the welcome and the HTTP answers show it; ``result``,
    ``seed`` and ``rematch`` only once it is over."""

    id: str
    game: str
    title: str
    #: every option, defaults and players included
    options: dict[str, Any]
    #: what the page draws from: the board, each seat's team, the phases... (Game.describe)
    game_info: dict[str, Any]
    seats: list[SeatSummary]
    status: Status
    version: int
    to_act: int | None
    takeover_after: float | None
    created: str
    result: Result | None = None
    seed: int | None = None
    rematch: str | None = None
    #: the table's chat is on
    chat: bool = True
    #: the table's clock, only at a table with one
    clock: ClockState | None = None
    #: seconds a bot waits after the move before its own (docs/server.md: Bot pace)
    bot_pace: float = 0.0
    rated: bool = False     # counts for the ratings: no takebacks (docs/server.md)


#: a chat channel: the seats' (read by the seats only) or the spectators' (read by all)
Channel = Literal["seats", "spectators"]


class ChatLine(Out):
    """One chat line, as it is stored and sent: ``n`` counts the table's lines from 1;
    ``seat`` and ``name`` are the speaker's (a spectator's are null and "")."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_type_required,
                              serialize_by_alias=True, validate_by_name=True)

    type: Literal["chat"] = "chat"
    n: int
    channel: Channel
    seat: int | None
    name: str
    #: free text (HTML in it is text), or null for a preset (written as "text")
    words: str | None = Field(alias="text")
    #: a preset's id (CHAT_PRESETS), or null for free text
    preset: str | None
    #: when it was said (UTC, ISO 8601)
    at: str
    #: a spectator's line's id here (what a seat mutes; one per client address), else absent
    spectator: str | None = None


class Muted(Out):
    """The seats and spectators whose chat lines this seat does not receive (its answer
    to ``mute``)."""

    type: Literal["muted"] = "muted"
    seats: list[int]
    spectators: list[str] | None = None


class Welcome(Out):
    """First message of every connection; ``chat`` the last lines it may read (oldest
    first), ``muted`` the seats its seat muted; ``skipped`` only when the connection
    missed more moves than the server sends as events (``--catch-up-limit``)."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    version: int
    view: dict[str, Any]
    table: TableSummary
    chat: list[ChatLine] | None = None
    muted: list[int] | None = None
    #: the spectators its seat muted (a seat's connection only, when there are some)
    muted_spectators: list[str] | None = None
    #: the missed moves not sent as events (versions ``since`` + 1 to ``version``): the
    #: view is the seat's view now, a snapshot in their place
    skipped: int | None = None


class Event(Out):
    """One accepted move as this connection's seat may know it (``Table.events_since``):
    ``drawn`` / ``dealt`` are this seat's own new cards; ``phase`` and ``public`` (what
    became public by the move; its keys depend on the game) come from the game's move
    event; ``view`` only on the last of a run of events. Keys the table adds pass through."""

    model_config = ConfigDict(extra="allow")
    type: Literal["event"] = "event"
    version: int
    seat: int
    move: str
    drawn: list[str] | None = None
    dealt: list[str] | None = None
    phase: str | None = None
    public: dict[str, Any] | None = None
    view: dict[str, Any] | None = None


def event_text(event: dict[str, Any], view: dict[str, Any] | None = None) -> str:
    """``Event(**event, view=view)``'s text written by orjson straight from the dict: the
    model took half of a move's time (tests/server/test_messages.py checks they agree)."""
    data = {"type": "event", **event}
    if view is not None:
        data["view"] = view
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


class Presence(Out):
    """Who is connected (bots count as connected), where a bot plays for a person, and
    how many spectators watch."""

    type: Literal["presence"] = "presence"
    connected: list[bool]
    bot_playing: list[bool]
    #: the spectators' connections open at the table
    spectators: int | None = None
    #: spectators watching under a player's name (the first 20), and the guests (no name)
    watchers: list[str] | None = None
    guests: int | None = None


class HintFound(Out):
    """A hint: the move, its chance of winning ``estimate_of`` ("game"; "match"); exact
    hints say what the move (``outcome``) and every call (``calls``) lead to."""

    type: Literal["hint"] = "hint"
    move: str
    win_probability: float
    estimate_of: str
    version: int
    outcome: HintOutcome | None = None
    calls: list[HintOutcome] | None = None


class Over(Out):
    """The game is over (after the last event, and on joining a finished table)."""

    type: Literal["over"] = "over"
    winners: list[int]
    scores: list[int | float]
    seed: int
    version: int
    #: only where the table ended it ("resign" or "abort"), and the seat that did
    ended: Literal["resign", "abort"] | None = None
    by: int | None = None


class ErrorMessage(Out):
    """A refusal; ``version`` (the table's) with the move/* and table/waiting codes."""

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None


class RematchTable(Out):
    """The rematch table; to the asker also its seat there and the token."""

    type: Literal["rematch"] = "rematch"
    table: str
    seat: int | None = None
    token: str | None = None


class Pong(Out):
    type: Literal["pong"] = "pong"


class ClockMessage(Out):
    """The table's clock, after every change (a move, the start, a timeout, a seat taken
    over or given back); only at a table with a clock. ``timed_out``: the seat whose time
    ran out just now (its move is the bot's)."""

    type: Literal["clock"] = "clock"
    clock: ClockState
    timed_out: int | None = None


class UndoMessage(Out):
    """A takeback ``asked`` by ``seat``, ``declined`` (by ``by``), ``lapsed`` (a move came
    first) or ``done``: ``undone`` moves taken back, ``view`` the seat's at ``version``."""

    type: Literal["undo"] = "undo"
    status: Literal["asked", "declined", "lapsed", "done"]
    seat: int
    version: int
    by: int | None = None
    undone: int | None = None
    view: dict[str, Any] | None = None


Outgoing = (Welcome | Event | Presence | HintFound | Over | ErrorMessage | RematchTable | Pong
            | ChatLine | Muted | ClockMessage | UndoMessage)


class ServerMessage(RootModel[Annotated[Outgoing, Field(discriminator="type")]]):
    """Every message the server sends on the WebSocket."""


def error_message(refusal: Refusal, version: int | None = None) -> ErrorMessage:
    if version is None:
        return ErrorMessage(code=refusal.code, message=refusal.message)
    return ErrorMessage(code=refusal.code, message=refusal.message, version=version)


# ---------------------------------------------------------------- the WebSocket's schema


def ws_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of every WebSocket message: ``$defs/ClientMessage`` is
    what a client sends, ``$defs/ServerMessage`` what the server sends."""
    _, defs = models_json_schema([(ClientMessage, "validation"),
                                  (ServerMessage, "validation")],
                                 ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "/api/ws-schema.json",
        "title": "cardtable WebSocket messages (/ws/tables/{id})",
        "description": "Every message is a JSON object with a 'type'; see docs/server.md.",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs["$defs"],
    }


def ws_schema_text() -> str:
    return json.dumps(ws_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m cardtable.server.messages docs/ws-schema.json
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write(ws_schema_text())
