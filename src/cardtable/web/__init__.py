"""The web page: static files (``static/``), message catalogs, and a few routes the page uses.

The server (``cardtable.server``) mounts ``STATIC_DIR`` at ``/static``, serves
``static/index.html`` at ``/`` and ``/t/{id}``, and includes :func:`router`, which adds:

- ``GET /rules`` and ``GET /rules/{game}``: the page (it shows the rules);
- ``GET /t/{id}/replay``: the page (it steps through a finished game from the server's
  ``GET /api/tables/{id}/replay``, built by :func:`cardtable.web.replay.replay_json`);
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

from importlib import resources
from pathlib import Path
from typing import Any

STATIC_DIR = Path(str(resources.files("cardtable"))) / "web" / "static"
LANGUAGES = ("en", "km")

__all__ = ["LANGUAGES", "STATIC_DIR", "not_found_page", "router"]


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


def router() -> Any:
    """The page's own routes as a FastAPI ``APIRouter`` (``app.include_router(router())``)."""
    from fastapi import APIRouter
    from fastapi.responses import FileResponse, JSONResponse

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

    @routes.get("/t/{table_id}/replay", response_model=None)
    async def replay_page(table_id: str) -> Any:
        return page()

    return routes
