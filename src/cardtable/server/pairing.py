"""Quick pairing (docs/server.md: Quick pairing): "find me an opponent" for a game and
its options, as lichess's quick pairing or Board Game Arena's "play now".

A player (its key) asks ``POST /api/pairing`` and is given a ticket; the ticket waits
in the queue of its game, seat count and options (the options as the game completes
them, so ``{}`` and the defaults written out are one queue). When enough people wait in
one queue they are seated together at a new table, the longest-waiting first with those
whose rating in the game is closest to its own (within a range that widens as it
waits); after the ticket's ``bot_after`` seconds the longest-waiting is seated with
whoever else waits there and bots in the other seats. The client follows its ticket
with ``GET /api/pairing/{ticket}?wait=S`` (it answers as soon as the ticket is seated)
and may cancel it (``DELETE``). The queue is kept in this process's memory: a restart
forgets it (the tickets answer ``pairing/not-found``), and with several processes
(``--owner``) each pairs its own clients only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field, StrictStr

import cardtable
from cardtable.core import CardtableError
from cardtable.server.bodies import CreateTable, SeatRequest, TakeSeat
from cardtable.server.limits import client_address
from cardtable.server.messages import Out
from cardtable.server.players import KEY_HEADER
from cardtable.server.reading import In, Name, read, request_json
from cardtable.server.refusals import Refusal
from cardtable.server.rooms import check_bot, check_option_limits

log = logging.getLogger("cardtable.server")

#: tickets waiting at once for one client address, and on the whole server
PER_ADDRESS = 4
MAX_WAITING = 1_000
#: seconds a waiting ticket lives without its client asking after it (a closed tab)
GONE_AFTER = 30.0
#: seconds a ticket waits at most (then "expired")
LONGEST_WAIT = 600.0
#: seconds a ticket is kept once seated, cancelled, expired or gone (then not-found)
KEEP_AFTER = 120.0
#: the longest ``wait`` of a GET (seconds)
MAX_POLL = 25.0
#: the rating of a player without one in the game; the rating gap two tickets are paired
#: within at first, and how much it widens a second of the older one's wait
NO_RATING = 1500
RATING_RANGE = 150.0
RATING_WIDENS = 50.0
#: seconds a person seated by pairing may be away, to act, before a bot plays for it
TAKEOVER_AFTER = 60.0
#: seconds between two passes over the queue (besides one at each new ticket)
TICK = 0.25

Status = Literal["waiting", "seated", "cancelled", "expired", "gone", "refused"]
#: a ticket's state inside: "seating" while its table is being made (answered "waiting")
State = Literal["waiting", "seating", "seated", "cancelled", "expired", "gone", "refused"]


class PairRequest(In):
    """POST /api/pairing: the game, its options and how long to wait for a person."""

    game: StrictStr
    #: the game's options (not ``players``)
    options: dict[str, Any] | None = None
    #: the number of seats (default: the game's default number of players)
    players: Annotated[int, Field(ge=2, le=12, strict=True)] | None = None
    #: seconds to wait for people before bots fill the other seats; null: never
    bot_after: Annotated[float, Field(ge=1, le=600, strict=True)] | None = 30
    #: the bot that fills a seat (a bot kind of GET /api/games) and its settings
    bot: StrictStr = "heuristic"
    settings: dict[str, Any] | None = None
    #: the name to sit under (default: the player's name)
    name: Name | None = None

    example: ClassVar[str] = '{"game": "sequence", "options": {}, "bot_after": 30}'


class PairingAnswer(Out):
    """A ticket as its holder sees it."""

    ticket: str
    status: Status
    game: str
    players: int
    options: dict[str, Any]
    #: seconds it has waited; seconds it waits before bots fill the seats (or null)
    waited: float
    bot_after: float | None
    #: the tickets waiting in this queue, this one included
    waiting: int
    #: once seated: the table, the seat and its token (the only key to it), and whether
    #: bots sit there ("bots") or only people ("people")
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    opponents: Literal["people", "bots"] | None = None
    #: status "refused": why the table could not be made ({"code", "message"})
    error: dict[str, str] | None = None


#: the request bodies, for the OpenAPI document
BODIES: tuple[type[In], ...] = (PairRequest,)


@dataclass
class Ticket:
    id: str
    player: str
    name: str | None
    address: str
    queue: tuple[str, int, str]
    options: dict[str, Any]
    rating: int
    bot_after: float | None
    bot: str
    settings: dict[str, Any]
    since: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    polls: int = 0
    status: State = "waiting"
    ended: float = 0.0
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    opponents: Literal["people", "bots"] | None = None
    error: dict[str, str] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def end(self, status: State) -> None:
        self.status = status
        self.ended = time.monotonic()
        self.changed.set()


class Queue:
    """The waiting tickets and who is paired with whom (no I/O: ``Pairing`` seats them)."""

    def __init__(self) -> None:
        self.tickets: dict[str, Ticket] = {}

    def waiting(self, queue: tuple[str, int, str] | None = None) -> list[Ticket]:
        """The waiting tickets (of one queue), the longest-waiting first."""
        found = [t for t in self.tickets.values() if t.status == "waiting"
                 and (queue is None or t.queue == queue)]
        return sorted(found, key=lambda t: t.since)

    def groups(self, now: float) -> list[tuple[list[Ticket], bool]]:
        """The tables to make now: their tickets (the first the longest-waiting) and
        whether bots fill the other seats. Each ticket is in one at most."""
        out: list[tuple[list[Ticket], bool]] = []
        taken: set[str] = set()
        for first in self.waiting():
            if first.id in taken:
                continue
            seats = first.queue[1]
            others = [t for t in self.waiting(first.queue)
                      if t.id not in taken and t.id != first.id and t.player != first.player]
            others.sort(key=lambda t: (abs(t.rating - first.rating), t.since))
            reach = RATING_RANGE + RATING_WIDENS * (now - first.since)
            close = [t for t in others if abs(t.rating - first.rating) <= reach]
            group: list[Ticket] = []
            bots = False
            if len(close) >= seats - 1:
                group = [first, *close[:seats - 1]]
            elif first.bot_after is not None and now - first.since >= first.bot_after:
                group = [first, *others[:seats - 1]]
                bots = len(group) < seats
            if group:
                players = {t.player for t in group}
                if len(players) == len(group):
                    taken.update(t.id for t in group)
                    out.append((group, bots))
        return out

    def tidy(self, now: float) -> None:
        """Waiting tickets nobody asks after are gone, those past the longest wait
        expired; ended ones are forgotten after ``KEEP_AFTER``."""
        for ticket in list(self.tickets.values()):
            if ticket.status == "waiting":
                if ticket.polls == 0 and now - ticket.seen > GONE_AFTER:
                    ticket.end("gone")
                elif now - ticket.since > LONGEST_WAIT:
                    ticket.end("expired")
            elif ticket.status != "seating" and now - ticket.ended > KEEP_AFTER:
                del self.tickets[ticket.id]


class Pairing:
    """The queue of one server process and the tables it makes (``service``: the
    TableService)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.queue = Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.pair()
            except Exception as exc:    # never stops the loop
                log.error("pairing failed (%s)", type(exc).__name__)

    def rating(self, player: str, game: str) -> int:
        found = self.service.players.ratings.shown(player, game)
        return NO_RATING if found is None else int(found)

    def check(self, body: PairRequest) -> tuple[tuple[str, int, str], dict[str, Any]]:
        """The queue the request waits in, and the game's options; options/bad else."""
        if body.game not in cardtable.game_names():
            raise Refusal("options/bad", f"unknown game {body.game[:40]!r}; the games are "
                                         f"{', '.join(cardtable.game_names())}")
        declaration = cardtable.declaration(body.game)
        options = dict(body.options or {})
        if "players" in options:
            raise Refusal("options/bad", "give the number of seats as 'players', beside "
                                         "the options")
        players = body.players or declaration.default_players
        if players not in declaration.players:
            raise Refusal("options/bad", f"{declaration.title} is played by "
                                         f"{', '.join(map(str, declaration.players))} "
                                         f"players, not {players}")
        check_option_limits(declaration, options)
        check_bot(body.bot, body.settings, self.service.settings)
        try:
            game = cardtable.new_game(body.game, players=players, **options)
        except (CardtableError, TypeError) as exc:
            raise Refusal("options/bad", str(exc)) from None
        full = {k: v for k, v in game.options.items() if k != "players"}
        return (body.game, players, json.dumps(full, sort_keys=True, default=str)), options

    async def ask(self, body: PairRequest, player: str, name: str | None,
                  address: str) -> Ticket:
        queue, options = self.check(body)
        for old in self.queue.waiting():
            if old.player == player:    # one ticket a player: the new one replaces it
                old.end("cancelled")
        waiting = self.queue.waiting()
        if len(waiting) >= MAX_WAITING:
            raise Refusal("limit/pairing", "the pairing queue is full; try again later")
        if sum(1 for t in waiting if t.address == address) >= PER_ADDRESS:
            raise Refusal("limit/pairing", f"{PER_ADDRESS} tickets are waiting for your "
                                           "address already; cancel one first")
        ticket = Ticket(id=secrets.token_urlsafe(18), player=player, name=name,
                        address=address, queue=queue, options=options,
                        rating=self.rating(player, body.game), bot_after=body.bot_after,
                        bot=body.bot, settings=dict(body.settings or {}))
        self.queue.tickets[ticket.id] = ticket
        log.info("pairing: a ticket waits for %s (%d seats)", body.game, queue[1])
        await self.pair()
        return ticket

    def find(self, ticket_id: str, player: str) -> Ticket:
        ticket = self.queue.tickets.get(ticket_id)
        if ticket is None or ticket.player != player:
            raise Refusal("pairing/not-found", "there is no such pairing ticket (a ticket "
                                               "is forgotten 2 minutes after it ends, and "
                                               "at a restart)")
        return ticket

    async def follow(self, ticket: Ticket, wait: float) -> None:
        """Wait up to ``wait`` seconds for the ticket to end (seated, or else)."""
        ticket.seen = time.monotonic()
        if ticket.status not in ("waiting", "seating") or wait <= 0:
            return
        ticket.polls += 1
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await ticket.changed.wait()
        finally:
            ticket.polls -= 1
            ticket.seen = time.monotonic()

    def cancel(self, ticket: Ticket) -> None:
        if ticket.status == "waiting":
            ticket.end("cancelled")

    def answer(self, ticket: Ticket) -> PairingAnswer:
        game, players, _ = ticket.queue
        status: Status = "waiting" if ticket.status == "seating" else ticket.status
        out = PairingAnswer(ticket=ticket.id, status=status, game=game, players=players,
                            options=ticket.options,
                            waited=round(time.monotonic() - ticket.since, 1),
                            bot_after=ticket.bot_after,
                            waiting=len(self.queue.waiting(ticket.queue)))
        if ticket.status == "seated":
            out.table, out.seat, out.token = ticket.table, ticket.seat, ticket.token
            out.opponents = ticket.opponents
        if ticket.error is not None:
            out.error = ticket.error
        return out

    async def pair(self) -> None:
        """Seat every group the queue has now."""
        now = time.monotonic()
        self.queue.tidy(now)
        for group, bots in self.queue.groups(now):
            for ticket in group:
                ticket.status = "seating"
            await self.seat(group, bots)

    async def seat(self, group: list[Ticket], bots: bool) -> None:
        first = group[0]
        game, players, _ = first.queue
        people = list(group)
        random.shuffle(people)      # who sits first (and so often plays first) by chance
        seats = [SeatRequest(kind="person")] * len(people) + [
            SeatRequest(kind="bot", bot=first.bot, settings=first.settings or None)
        ] * (players - len(people))
        request = CreateTable(game=game, options=first.options, seats=seats,
                              takeover_after=TAKEOVER_AFTER)
        try:
            room = await self.service.create(request, first.address)
            for n, ticket in enumerate(people):
                ticket.token = await self.service.take_seat(
                    room, n, ticket.name or f"seat {n}", ticket.player)
                ticket.table, ticket.seat = room.id, n
        except Refusal as refusal:
            first.error = {"code": refusal.code, "message": refusal.message}
            first.end("refused")
            for ticket in group[1:]:
                ticket.status = "waiting"
            log.info("pairing: no table (%s)", refusal.code)
            return
        for ticket in group:
            ticket.opponents = "bots" if bots else "people"
            ticket.end("seated")
        log.info("pairing: table %s seats %d people%s", room.id, len(people),
                 " and bots" if bots else "")


def router(service: Any) -> APIRouter:
    """The pairing routes under /api/pairing, served by ``service.pairing``."""
    routes = APIRouter(prefix="/api/pairing")
    pairing: Pairing = service.pairing

    def answer(message: Out, status: int = 200) -> Response:
        return Response(message.text(), status_code=status, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    async def player_of(request: Request) -> Any:
        row = await service.players.of_key(request.headers.get(KEY_HEADER))
        assert row is not None
        return row

    @routes.post("", status_code=201, response_model=PairingAnswer)
    async def ask(request: Request) -> Response:
        """Wait for an opponent (docs/server.md: Quick pairing); the player key is
        required (``X-Player-Key``)."""
        row = await player_of(request)
        data = await request_json(request, service.settings.max_body)
        if isinstance(data, dict) and data.get("name") is not None:
            read(TakeSeat, {"name": data["name"]}, "name/bad", "a pairing request")
        body = read(PairRequest, data, "options/bad", "a pairing request")
        ticket = await pairing.ask(body, row.id, body.name or row.name,
                                   client_address(request.scope))
        if body.name:   # as taking a seat with the key: the player's name from now on
            await service.players.rename(row, body.name)
        return answer(pairing.answer(ticket), 201)

    @routes.get("/{ticket_id}", response_model=PairingAnswer)
    async def follow(request: Request, ticket_id: str, wait: float = 0) -> Response:
        """The ticket; with ``wait`` (seconds, at most 25) the answer waits until the
        ticket is seated (or otherwise ends) or that time has passed."""
        row = await player_of(request)
        if not 0 <= wait <= MAX_POLL:
            raise Refusal("message/bad", f"wait is 0 to {MAX_POLL:g} seconds")
        ticket = pairing.find(ticket_id[:64], row.id)
        await pairing.follow(ticket, wait)
        return answer(pairing.answer(ticket))

    @routes.delete("/{ticket_id}", response_model=PairingAnswer)
    async def cancel(request: Request, ticket_id: str) -> Response:
        """Stop waiting; a ticket already seated stays seated (its answer says so)."""
        row = await player_of(request)
        ticket = pairing.find(ticket_id[:64], row.id)
        pairing.cancel(ticket)
        return answer(pairing.answer(ticket))

    return routes
