"""The web page: static files (``static/``), message catalogs, and a few routes the page uses.

The server (``cardtable.server``) mounts ``STATIC_DIR`` at ``/static``, serves
``static/index.html`` at ``/`` and ``/t/{id}``, and includes :func:`router`, which adds:

- ``GET /rules`` and ``GET /rules/{game}``: the page (it shows the rules);
- ``GET /p/{id}``: the page (it shows a player's page, ``GET /api/players/{id}``);
- ``GET /me`` (and ``/p/me``): the page (the player page of the key this browser holds);
- ``GET /claim``: the page (it takes the transfer code after ``#`` and asks
  ``POST /api/players/claim`` for a key of that player);
- ``GET /t/{id}/replay``: the page (it steps through a finished game from the server's
  ``GET /api/tables/{id}/replay``, built by :func:`cardtable.web.replay.replay_json`);
- ``GET /replay``: the page (it replays a record file the user drops or picks), and
  ``POST /api/replay`` (the body: a record file, ``docs/records.md``):
  :func:`record_replay_json`, the replay of a finished record with the table it was
  played at, or the refusal ``record/bad`` (400) naming what is wrong, ``message/too-large``
  (413) over ``MAX_RECORD`` bytes, ``record/too-long`` (413) over the moves or deals a
  replay or review takes (``cardtable.web.replay.MAX_ACTIONS``, ``MAX_DEALS``);
  ``POST /api/review``, the same file's review against perfect play
  (:func:`record_review_json`; Draw Bridge deals, none for the other games);
- ``GET /api/rules/{game}?lang=en|km``: ``{"game", "lang", "markdown"}``, the rule book's
  common terms and the game's section (``RULES.md`` or ``RULES.km.md``);
- ``GET /api/levels``: ``{"levels": {game: [level, ...]}}``, each game's bot levels,
  weakest first (``cardtable.bots.levels``: name, label, bot, settings, strength, evidence);
- ``GET /api/arrange?cards=7S,KS,...&round=5&aces=low&all_wild_melds=true&face_values=ten``:
  a Three Thirteen hand split into its best melds and deadwood
  (``cardtable.threethirteen.arrange``): ``{"melds", "deadwood", "penalty"}``. (Which
  discards go out is the game's to say: the view's ``going_out``.)

Any other address a browser asks for (a GET for HTML outside ``/api/``, ``/ws/`` and
``/static/``) gets the page with status 404, which says there is no such page
(:func:`not_found_page`, called by the server's 404 handler); the API keeps its JSON errors.

FastAPI is imported only by :func:`router` and :func:`not_found_page`; the package itself
needs nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable import records

STATIC_DIR = Path(str(resources.files("cardtable"))) / "web" / "static"
LANGUAGES = ("en", "km")
#: the largest record file POST /api/replay reads (a long Three Thirteen game is ~40 kB)
MAX_RECORD = 2 * 1024 * 1024

__all__ = ["LANGUAGES", "MAX_RECORD", "STATIC_DIR", "levels_json", "not_found_page",
           "record_of_file", "record_replay_json", "record_review_json", "router"]


def _bool(name: str, text: str) -> bool:
    from cardtable import OptionsError

    if text.lower() in ("true", "1", "yes"):
        return True
    if text.lower() in ("false", "0", "no"):
        return False
    raise OptionsError(f"{name} is true or false, not {text!r}")


def arrange_json(cards: str, round: str, aces: str = "low", all_wild_melds: str = "true",
                 face_values: str = "ten") -> dict[str, Any]:
    """The /api/arrange answer; OptionsError / ValueError naming a bad input."""
    from cardtable import OptionsError
    from cardtable.threethirteen import arrange

    names = [c.strip() for c in cards.split(",") if c.strip()]
    if len(names) > 14:
        raise OptionsError(f"a hand has at most 14 cards, not {len(names)}")
    try:
        number = int(round)
    except ValueError:
        raise OptionsError(f"round must be a number from 1 to 11, not {round!r}") from None
    wild_melds = _bool("all_wild_melds", all_wild_melds)
    melds, deadwood, penalty = arrange(names, number, aces=aces, all_wild_melds=wild_melds,
                                       face_values=face_values)
    return {"melds": melds, "deadwood": deadwood, "penalty": penalty}


def levels_json() -> dict[str, Any]:
    """The /api/levels answer: each game's bot levels, weakest first."""
    import cardtable
    from cardtable.bots.levels import levels

    return {"levels": {d.name: [level.as_json() for level in levels(d.name)]
                       for d in cardtable.declarations()}}


def record_of_file(body: bytes) -> records.Record:
    """The record in a file's bytes; RecordError (a ValueError) when they are not UTF-8
    JSON (saying so of a PBN export), nest too deep or are not a cardtable record."""
    import json

    from cardtable import records
    from cardtable.web.replay import BadRecordFile

    try:
        data = records.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        text = body[:200].decode("utf-8", "replace")
        if "[Event " in text or "[Deal " in text:
            raise BadRecordFile("this is a PBN export, which cannot be replayed: use the "
                                "game's JSON record", "pbn") from None
        raise BadRecordFile("not a JSON file: a record is the JSON file cardtable "
                            "writes", "not-json") from None
    except records.RecordError as exc:   # JSON nested too deep to be a record
        raise BadRecordFile(str(exc), "not-record") from None
    try:
        return records.from_json(data)
    except records.RecordError as exc:
        ours = isinstance(data, dict) and data.get("format") == records.FORMAT
        raise BadRecordFile(str(exc), "broken" if ours else "not-record") from None


def record_replay_json(body: bytes) -> dict[str, Any]:
    """A record file's replay: ``replay_json`` of it, plus ``"table"``, what the page reads
    of a table (game, seats as the server's table summary names them, ``game_info``).
    RecordError (a ValueError) naming what is wrong: not UTF-8 JSON, not a cardtable
    record (a PBN export, say), a record that does not replay, a game not finished."""
    from cardtable import records
    from cardtable.web.replay import replay_json

    record = record_of_file(body)
    out = replay_json(record)   # replays it: RecordError when a move is not legal
    game = records.replay(record).game
    out["table"] = {
        "id": None, "game": record.game, "status": "over", "result": record.result,
        "game_info": game.describe(),
        "seats": [{"kind": "bot", "bot": seat.name, "name": seat.name} if seat.is_bot
                  else {"kind": "person", "name": seat.name, "taken": True}
                  for seat in record.seats],
    }
    return out


def record_replay_bytes(body: bytes) -> bytes:
    """:func:`record_replay_json` as JSON bytes, written where it is worked out (a bot pool
    worker): a replay holds thousands of positions, too many to encode on the event loop."""
    import orjson

    return orjson.dumps(record_replay_json(body))


def record_review_bytes(body: bytes) -> bytes:
    """:func:`record_review_json` as JSON bytes (as :func:`record_replay_bytes`)."""
    import orjson

    return orjson.dumps(record_review_json(body))


def record_review_json(body: bytes) -> dict[str, Any]:
    """A record file's review (``cardtable.web.replay.review_json``: each Draw Bridge deal
    against perfect play; a two-player Three Thirteen game move by move by the trained
    network; no deals for the other games); RecordError as for
    :func:`record_replay_json`."""
    from cardtable.web.replay import review_json

    return review_json(record_of_file(body))


def rules_json(game: str, lang: str = "en") -> dict[str, Any]:
    """The /api/rules answer; OptionsError for an unknown game or language."""
    from cardtable import OptionsError
    from cardtable.rulebook import rules_of

    if lang not in LANGUAGES:
        raise OptionsError(f"lang is one of {', '.join(LANGUAGES)}, not {lang!r}")
    return {"game": game, "lang": lang, "markdown": rules_of(game, lang=lang)}


def not_found_page(method: str, path: str, accept: str) -> Any:
    """The page, with status 404, for a browser's GET of an address nothing answers; else None.

    A browser (``Accept`` naming ``text/html``) then sees the page's own "no such page"
    with a way back to the lobby, not the API's JSON error; requests under ``/api/``,
    ``/ws/`` and ``/static/`` keep that error.
    """
    if method not in ("GET", "HEAD") or "text/html" not in accept:
        return None
    if path.startswith(("/api/", "/ws/", "/static/")):
        return None
    from fastapi.responses import FileResponse

    return FileResponse(STATIC_DIR / "index.html", status_code=404,
                        headers={"Cache-Control": "no-cache"})


#: how the server works out a record file's replay or review: ``offload(request, answer,
#: body)`` -> ``answer(body)``, run where the server says (its bot pool's fair share)
Offload = Callable[[Any, Callable[[bytes], bytes], bytes], Awaitable[bytes]]


async def _until_gone(request: Any) -> None:
    """Returns once the client of ``request`` (whose body was read) has gone away."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def router(offload: Offload | None = None) -> Any:
    """The page's own routes as a FastAPI ``APIRouter`` (``app.include_router(router())``);
    a record file's replay or review is worked out by ``offload`` (the table server's
    pool), or in a thread without one, and dropped unstarted if its client goes away."""
    import asyncio

    from fastapi import APIRouter, Request
    from fastapi.responses import FileResponse, JSONResponse, Response

    routes = APIRouter()

    def refuse(code: str, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": {"code": code, "message": str(exc)}}, status_code=400)

    @routes.get("/api/arrange", response_model=None)
    async def arrange(cards: str = "", round: str = "1", aces: str = "low",  # noqa: A002
                      all_wild_melds: str = "true", face_values: str = "ten") -> Any:
        try:
            return arrange_json(cards, round, aces, all_wild_melds, face_values)
        except ValueError as exc:
            return refuse("options/bad", exc)

    def of_file(answer: Callable[[bytes], bytes]) -> Any:
        """A route reading a record file (at most MAX_RECORD bytes) and answering with
        ``answer(body)`` in a thread; record/bad for a file it refuses, record/too-long
        for a game longer than a replay or review takes."""
        async def route(request: Request) -> Any:
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_RECORD:
                    return JSONResponse({"error": {"code": "message/too-large", "message":
                                        f"a record file is at most {MAX_RECORD // 1024} KiB"}},
                                        status_code=413)
            from cardtable.web.replay import RecordTooLong, reason_of

            work = asyncio.ensure_future(asyncio.to_thread(answer, body) if offload is None
                                         else offload(request, answer, body))
            gone = asyncio.ensure_future(_until_gone(request))
            try:
                await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
            if not work.done():     # nobody waits for it: it is dropped before it starts
                work.cancel()
                return Response(status_code=499)
            try:
                return Response(work.result(), media_type="application/json")
            except RecordTooLong as exc:
                return JSONResponse({"error": {"code": "record/too-long", "message": str(exc)}},
                                    status_code=413)
            except ValueError as exc:
                # what the page tells a player (the message is for developers)
                return JSONResponse({"error": {"code": "record/bad", "message": str(exc),
                                               "reason": reason_of(exc)}}, status_code=400)

        # (the annotations are strings here: FastAPI is given the class itself)
        route.__annotations__["request"] = Request
        return route

    routes.post("/api/replay", response_model=None)(of_file(record_replay_bytes))
    routes.post("/api/review", response_model=None)(of_file(record_review_bytes))

    @routes.get("/api/levels", response_model=None)
    async def bot_levels() -> Any:
        return levels_json()

    @routes.get("/api/rules/{game}", response_model=None)
    async def rules(game: str, lang: str = "en") -> Any:
        try:
            return rules_json(game, lang)
        except ValueError as exc:
            return refuse("options/bad", exc)

    def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @routes.get("/rules", response_model=None)
    async def rules_page() -> Any:
        return page()

    @routes.get("/rules/{game}", response_model=None)
    async def rules_game_page(game: str) -> Any:
        return page()

    @routes.get("/p/{player_id}", response_model=None)
    async def player_page(player_id: str) -> Any:
        return page()

    @routes.get("/me", response_model=None)
    async def my_page() -> Any:
        return page()

    @routes.get("/claim", response_model=None)
    async def claim_page() -> Any:
        return page()

    @routes.get("/replay", response_model=None)
    async def record_replay_page() -> Any:
        return page()

    @routes.get("/t/{table_id}/replay", response_model=None)
    async def replay_page(table_id: str) -> Any:
        return page()

    return routes
