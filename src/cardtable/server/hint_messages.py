"""What a hint says decides its move (docs/server.md, the ``hint`` message): in Draw
Bridge from the auction on, where the hint is exact, the contract a move leads to and the
points at stake."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class HintOutcome(BaseModel):
    """What a move leads to, both players perfect after it (the play double dummy): the
    contract (``"4SX"``; null: the deal is passed out), its declarer's seat and tricks,
    the deal's points (seat 0's, seat 1's) and the asking seat's match chance after it.
    In ``calls`` each entry also names its ``call``."""

    model_config = ConfigDict(extra="forbid")

    call: str | None = None
    contract: str | None
    declarer: int | None
    tricks: int | None
    points: list[int]
    win_probability: float
