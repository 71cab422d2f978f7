"""``cardtable play --connect LINK``: a table of a ``cardtable serve`` server in the
terminal table UI, as a thin client.

The server holds the game; this app only shows what the server sends (the seat's view,
the events) and sends the moves the player picks. It draws a
:class:`~cardtable.tui.source.SeatView` of what the server sent, as a local table draws
one of its state. Refusals come back with their code and the game's own words.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Input

from cardtable.core import CardtableError
from cardtable.local import data_folder
from cardtable.records import Seat
from cardtable.tui.app import MoveInput, TableApp
from cardtable.tui.look import spell
from cardtable.tui.panes import GamePane
from cardtable.tui.source import SeatView


class ConnectError(CardtableError, ValueError):
    """An invite link that does not lead to a seat, said in words."""


def parse_link(link: str) -> tuple[str, str, int | None]:
    """``http://HOST/t/ID?seat=N`` -> (base URL, table id, seat or None to watch)."""
    parts = urlsplit(link)
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or len(path) < 3 or path[-2] != "t":
        raise ConnectError(f"{link!r} is not an invite link like http://HOST:8000/t/ID?seat=0")
    seat_text = parse_qs(parts.query).get("seat", [None])[0]
    if seat_text is not None and not seat_text.isdigit():
        raise ConnectError(f"the link's seat must be a number, not {seat_text!r}")
    base = f"{parts.scheme}://{parts.netloc}" + "/".join(path[:-2])
    return base, path[-1], None if seat_text is None else int(seat_text)


def _tokens_file() -> Path:
    return data_folder() / "seats.json"


def _saved_tokens() -> dict[str, str]:
    try:
        data = json.loads(_tokens_file().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_token(key: str, token: str) -> None:
    tokens = _saved_tokens()
    tokens[key] = token
    path = _tokens_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps(tokens))


def join(link: str, name: str) -> tuple[str, str, int | None, str | None, dict[str, Any]]:
    """Take the link's seat (or find this terminal's token for it from an earlier visit):
    (base, table id, seat, token, table summary). ConnectError says what went wrong."""
    import httpx

    base, table_id, seat = parse_link(link)
    key = f"{base}/t/{table_id}?seat={seat}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            answer = http.get(f"/api/tables/{table_id}")
            if answer.status_code != 200:
                raise ConnectError(_refusal(answer))
            summary: dict[str, Any] = answer.json()
            if seat is None:
                return base, table_id, None, None, summary
            token = _saved_tokens().get(key)
            if token is not None and summary["seats"][seat]["taken"]:
                return base, table_id, seat, token, summary
            taken = http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
            if taken.status_code != 200:
                raise ConnectError(_refusal(taken))
            token = taken.json()["token"]
            _save_token(key, token)
            return base, table_id, seat, token, taken.json()["table"]
    except httpx.HTTPError as exc:
        raise ConnectError(f"cannot reach {base}: {exc}") from None


def _refusal(answer: Any) -> str:
    try:
        error = answer.json()["error"]
        return f"{error['message']} ({error['code']})"
    except (ValueError, KeyError, TypeError):
        return f"the server answered {answer.status_code}"


class RemoteApp(TableApp):
    """A seat (or a spectator's chair) at a server's table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "hint"),
        Binding("colon,slash", "type_move", "type a move"),
    ]

    def __init__(self, base: str, table_id: str, seat: int | None, token: str | None,
                 summary: dict[str, Any]) -> None:
        seats = [Seat(s["kind"], s["name"] or (s["bot"] or f"seat {s['seat']}"))
                 for s in summary["seats"]]
        super().__init__(summary["game"], seats)
        self.base = base
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.summary = summary
        self.version = -1
        self.view: dict[str, Any] = {}
        self.last: tuple[int, str] | None = None
        self.ws: Any = None

    def ws_url(self) -> str:
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{self.table_id}"
        query = [f"token={self.token}"] if self.token else []
        if self.version >= 0:
            query.append(f"since={self.version}")
        return url + ("?" + "&".join(query) if query else "")

    def on_mount(self) -> None:
        who = f"seat {self.seat}" if self.seat is not None else "watching"
        self.title = f"cardtable · {self.summary.get('title', self.summary['game'])} · {who}"
        self.sub_title = f"{self.base}/t/{self.table_id}"
        self.say("Connecting…", "italic")
        self.pane.focus()  # the keys go to the table, as at a local one
        self.run_worker(self.connection(), exclusive=True, group="connection")

    async def connection(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        while True:
            try:
                async with connect(self.ws_url(), max_size=2**22) as ws:
                    self.ws = ws
                    async for raw in ws:
                        self.receive(json.loads(raw))
            except (OSError, WebSocketException):
                pass
            self.ws = None
            if self.farewell.startswith("Game over"):
                return
            self.say("Connection lost; reconnecting…", "italic #ffb0b0")
            await asyncio.sleep(1.0)

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.version = message["version"]
            self.show(message["view"])
            self.say("Connected." if self.seat is None or not message["view"].get("legal")
                     else "Your turn.", "italic")
        elif kind == "event":
            self.version = max(self.version, message["version"])
            self.last = (message["seat"], message["move"])
            self.log_move(message["seat"], message["move"])
            self.pane.forget_hint()  # a hint is for the position it was given in
            if "view" in message:
                self.show(message["view"])
                if message["view"].get("legal"):
                    self.say("Your turn.", "italic")
        elif kind == "error":
            self.refuse(f"{message.get('message', '')}")
            if message.get("code") in ("auth/bad-token", "table/not-found"):
                self.farewell = f"The server refused: {message.get('message')}"
        elif kind == "hint":
            self.pane.suggest(message["move"])  # Enter plays it, as at a local table
            of = message.get("estimate_of", "game")  # the game, or (Draw Bridge) the match
            self.say(Text(f"Hint: {spell(message['move'])} (a "
                          f"{100 * message['win_probability']:.0f}% chance to win the {of})"
                          "  Enter plays it.",
                          style="#cfe0d8"))
        elif kind == "over":
            names = ", ".join(self.seat_name(s) for s in message["winners"]) or "nobody"
            self.farewell = f"Game over: {names} won; scores {message['scores']}."
            self.say(self.farewell, "bold")

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        active = self.seat is not None and bool(view.get("legal"))
        self.draw(SeatView(view, self.last, active), self.seat, self.summary["options"])

    def refuse(self, text: str) -> None:
        self.bell()
        self.say(Text.assemble(("✗ ", "bold #ff6f6f"), (spell(text), "#ffb0b0")))

    async def send(self, message: dict[str, Any]) -> None:
        if self.ws is None:
            self.refuse("not connected; wait a moment")
            return
        await self.ws.send(json.dumps(message))

    async def play(self, notation: str) -> None:
        if not self.view.get("legal"):
            self.say("Not your turn yet." if self.seat is not None else
                     "You are watching.", "italic")
            return
        await self.send({"type": "move", "move": notation, "version": self.version})

    @on(GamePane.Chosen)
    async def chosen(self, message: GamePane.Chosen) -> None:
        await self.play(message.notation)

    @on(Input.Submitted, "#move")
    async def typed(self, event: Input.Submitted) -> None:
        box = self.query_one("#move", MoveInput)
        text = event.value.strip()
        box.value, box.cycle = "", None
        self.pane.focus()
        if text:
            await self.play(text)

    def action_type_move(self) -> None:
        box = self.query_one("#move", MoveInput)
        if not box.disabled:
            box.value, box.cycle = "", None
            box.focus()

    async def action_hint(self) -> None:
        if not self.view.get("legal"):
            self.say("A hint is for your own turn.", "italic")
            return
        self.say(Text("Asking the server's bot for advice…", style="italic #9fbfaf"))
        await self.send({"type": "hint"})
