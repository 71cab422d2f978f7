"""Bots at a human pace (docs/server.md: "Bot pace"): a table's bots move no sooner than
its pace after the move before theirs, as on Trickster Cards or cardgames.io, where a bot
card comes half a second to a second after the last one.

A table asks for ``"bot_pace"`` when it is created: ``"instant"``, ``"normal"``,
``"slow"`` or a number of seconds from 0 to :data:`MAX_PACE`. A table that asks for none
gets the server's ``--bot-pace`` (``"normal"``) when a person sits at it, and
``"instant"`` when bots alone play it. The bot that plays for a person (a timeout's, a
takeover's) moves at the table's pace, and never faster than the server's ``--bot-pace``:
a person who walked away does not see the game end in seconds, and may come back at any
move.

The wait is the bot task's own (``asyncio.sleep`` in the event loop, after its move is
worked out in the pool): it holds neither the loop nor a worker.
"""

from __future__ import annotations

from typing import Any

from cardtable.server.refusals import Refusal

#: the named paces, in seconds a move
PACES: dict[str, float] = {"instant": 0.0, "normal": 0.8, "slow": 2.0}
#: the longest pace a table may ask for, in seconds a move
MAX_PACE = 10.0


def pace_seconds(value: Any, what: str = "bot_pace") -> float:
    """The seconds of a pace: a name of :data:`PACES` or a number from 0 to
    :data:`MAX_PACE`; options/bad for anything else."""
    if isinstance(value, str) and value in PACES:
        return PACES[value]
    if (isinstance(value, int | float) and not isinstance(value, bool)
            and 0 <= value <= MAX_PACE):
        return float(value)
    shown = repr(value)[:40]
    raise Refusal("options/bad", f"{what} is {', '.join(map(repr, PACES))} or seconds "
                                 f"from 0 to {MAX_PACE:g}, not {shown}")


def table_pace(asked: Any, persons: bool, default: float) -> float:
    """A new table's pace: the one it asked for, else ``default`` (the server's
    ``--bot-pace``) when a person sits at it, else instant (bots alone)."""
    if asked is not None:
        return pace_seconds(asked)
    return default if persons else 0.0


def bot_wait(pace: float, moved_at: float, now: float, for_person: bool,
             least: float) -> float:
    """Seconds a bot still waits before its move, the last move made at ``moved_at``
    (monotonic): the table's ``pace``, at least ``least`` (the server's ``--bot-pace``)
    for the bot that plays for a person."""
    if for_person:
        pace = max(pace, least)
    return max(0.0, moved_at + pace - now)
