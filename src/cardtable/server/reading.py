"""Reading what clients send: sizes, JSON, display names, chat text, and the typed
models of incoming data (:class:`In`), read by :func:`read`, which turns any mismatch into
a :class:`Refusal` with a documented code (docs/server.md).
"""

from __future__ import annotations

import json
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StrictStr,
    StringConstraints,
    ValidationError,
)

from cardtable.server.refusals import Refusal

if TYPE_CHECKING:
    from starlette.requests import Request

# ---------------------------------------------------------------- reading


def check_size(raw: str | bytes, limit: int) -> None:
    if len(raw) > limit:
        raise Refusal("message/too-large",
                      f"a message may hold at most {limit} bytes; this one has {len(raw)}")


def parse_json(raw: str | bytes, limit: int) -> Any:
    """The JSON value of ``raw``: message/too-large over ``limit`` bytes, message/bad when
    it is not JSON."""
    check_size(raw, limit)
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Refusal("message/bad", "the message is not valid JSON") from None


def is_json_type(content_type: str) -> bool:
    """Whether a Content-Type names JSON: ``application/json`` or ``application/...+json``,
    with or without parameters (``; charset=utf-8``)."""
    kind = content_type.partition(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/")
                                          and kind.endswith("+json"))


async def request_json(request: Request, limit: int) -> Any:
    """The JSON body of an HTTP request, ``{}`` when it has none.

    http/content-type (415) when the body is sent as anything but JSON, or with no
    Content-Type at all: a form or ``text/plain`` is what another site's page can send
    to this server without the browser asking first. message/too-large over ``limit``
    bytes, message/bad when it is not JSON.
    """
    content_type = request.headers.get("content-type")
    wrong_type = "a request body is JSON, sent with 'Content-Type: application/json'"
    if content_type is not None and not is_json_type(content_type):
        raise Refusal("http/content-type", f"{wrong_type}, not {content_type[:60]!r}")
    too_large = Refusal("message/too-large", f"a request body may hold at most {limit} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise too_large
    if not raw:
        return {}
    if content_type is None:
        raise Refusal("http/content-type", wrong_type)
    return parse_json(raw, limit)


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON, though Python's reader takes them
    raise ValueError(f"{name} is not JSON")


def explain(exc: ValidationError) -> str:
    """The first problem pydantic found, as one sentence naming where it is."""
    error = exc.errors(include_url=False)[0]
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                    for part in error["loc"]).lstrip(".")
    text = error["msg"].removeprefix("Value error, ")
    return f"{where}: {text}" if where else text


M = TypeVar("M", bound="In")


def misshapen(exc: ValidationError) -> bool:
    """True when the first problem is the message's shape: a field missing, or a value of
    the wrong JSON type (a text for a number, a list for an object...)."""
    kind = str(exc.errors(include_url=False)[0]["type"])
    return kind == "missing" or kind.endswith(("_type", "_parsing"))


def read(model: type[M], data: Any, code: str, what: str) -> M:
    """``data`` as a ``model``, or a Refusal saying what is wrong with ``what`` (and quoting
    the model's example, if it has one): message/bad if it is no object, a field is missing
    or of the wrong type; ``code`` for a value of the right type that is refused (too
    long, out of range, not one of the choices)."""
    if not isinstance(data, dict):
        raise Refusal("message/bad", f"{what} must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        example = f"; e.g. {model.example}" if model.example else ""
        raise Refusal("message/bad" if misshapen(exc) else code,
                      f"{what}: {explain(exc)}{example}") from None


#: what a name may hold besides printable characters: the zero-width space and joiners
#: (Khmer text breaks words with U+200B; emoji sequences join with U+200D)
NAME_FORMAT_CHARACTERS = frozenset("\u200b\u200c\u200d")


def _display_name(value: str) -> str:
    for ch in value:
        if (not ch.isprintable() and ch not in NAME_FORMAT_CHARACTERS
                and unicodedata.category(ch) != "Zs"):
            raise ValueError(f"a name may not hold the control character U+{ord(ch):04X} "
                             "(a newline, a tab, ...)")
    name = " ".join(value.split())      # the spaces (any width) at the ends go, runs are one
    if not name or len(name) > 32:
        raise ValueError("a name has 1 to 32 printable characters, e.g. \"Dara\"")
    return name


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("a move is its notation, e.g. \"7H c4\", not blank")
    return value


#: the longest chat line, in characters once cleaned
CHAT_MAX = 200
#: the preset phrases and emotes of the chat: ids the page translates (docs/server.md)
CHAT_PRESETS = ("hello", "good-luck", "well-played", "good-game", "thanks", "sorry",
                "oops", "wait", "hurry", "bye", "smile", "laugh", "wow", "sad", "thumbs-up",
                "heart")
# zero-width space, non-joiner and joiner: Khmer text and emoji sequences need them
_KEEP_FORMAT = {"\u200b", "\u200c", "\u200d"}


def clean_chat(value: str) -> str:
    """A chat line as it is stored and sent: runs of white space (newlines included) made
    one space, control and other invisible format characters (bidirectional overrides)
    removed, as names are cleaned; the line's HTML is left as it is (the page shows it as
    text)."""
    kept = "".join(ch for ch in value
                   if ch in _KEEP_FORMAT or unicodedata.category(ch) not in
                   ("Cc", "Cf", "Cs", "Co") or ch.isspace())
    return " ".join(kept.split())


#: a display name: 1 to 32 printable characters (no control character), the spaces at
#: its ends dropped and runs of spaces made one
Name = Annotated[StrictStr, AfterValidator(_display_name)]
#: a move in the game's notation, as sent (the game parses it)
MoveText = Annotated[StrictStr, StringConstraints(max_length=64), AfterValidator(_not_blank)]


class In(BaseModel):
    """What a client sends; keys the message does not have are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    #: a message of the kind, for refusals to quote
    example: ClassVar[str] = ""


