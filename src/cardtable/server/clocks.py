"""Clocks at the table (docs/server.md, "Clocks"): a time per move, or a clock per player
with an increment per move.

A :class:`Clock` holds, per seat, the seconds left as of ``since`` (wall time, seconds
since the epoch) and which seat's clock runs. Only a person's seat has a clock; bots'
seats, and a person's seat while a bot plays it (a takeover), never run. When the running
seat's time is up the server plays its move with :data:`TIMEOUT_BOT` and counts a timeout;
after ``takeover`` timeouts in a row the seat is taken over until its person acts again.

The clock is stored with the table (its ``clock`` column, JSON) whenever it changes, and
the server writes the time it was last alive (the ``heartbeats`` table) every second or
so: a restarted server charges the running seat only the time up to its last heartbeat,
so nobody loses the time the server was down.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from cardtable.server.bodies import ClockRequest
from cardtable.server.messages import ClockState

#: the bot that plays the move of a seat whose time ran out (and a taken-over seat)
TIMEOUT_BOT = "heuristic"
#: what a seat whose clock per player ran out gets for each later move, at least
GRACE_SECONDS = 5.0


@dataclass
class Clock:
    kind: Literal["move", "player"]
    #: seconds per move ("move") or None
    per_move: float | None
    #: seconds per player at the start ("player") or None
    base: float | None
    #: seconds added to a player's clock after each of its moves
    increment: float
    #: timeouts in a row after which the seat is taken over
    takeover: int
    #: per seat, seconds left as of ``since`` (None: a bot's seat, no clock)
    left: list[float | None]
    running: int | None = None
    since: float = field(default_factory=time.time)
    #: per seat, timeouts in a row
    timeouts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.timeouts:
            self.timeouts = [0] * len(self.left)

    @classmethod
    def new(cls, request: ClockRequest, persons: list[bool], takeover: int) -> Clock:
        if request.kind == "move":
            assert request.seconds is not None
            per_move, base, increment = float(request.seconds), None, 0.0
            full = per_move
        else:
            assert request.minutes is not None
            per_move, base, increment = None, request.minutes * 60.0, float(request.increment)
            full = base
        return cls(kind=request.kind, per_move=per_move, base=base, increment=increment,
                   takeover=request.timeouts or takeover,
                   left=[full if person else None for person in persons])

    # -- the time

    def left_now(self, seat: int, now: float | None = None) -> float | None:
        left = self.left[seat]
        if left is None or seat != self.running:
            return left
        return max(0.0, left - ((time.time() if now is None else now) - self.since))

    def expired(self, now: float | None = None) -> int | None:
        """The running seat when its time is up."""
        if self.running is None:
            return None
        left = self.left_now(self.running, now)
        return self.running if left is not None and left <= 0 else None

    def stop(self, now: float | None = None) -> None:
        """Charge the running seat its time and stop its clock."""
        now = time.time() if now is None else now
        if self.running is not None:
            self.left[self.running] = self.left_now(self.running, now)
        self.running = None
        self.since = now

    def run(self, seat: int | None, now: float | None = None) -> None:
        """The clock of ``seat`` (None: nobody's) runs from now; a seat with no clock
        (a bot's) never runs. A time per move starts full."""
        self.stop(now)
        if seat is None or self.left[seat] is None:
            return
        if self.kind == "move":
            self.left[seat] = self.per_move
        self.running = seat

    def moved(self, seat: int, timed_out: bool, person: bool,
              now: float | None = None) -> None:
        """``seat`` moved (its person, or a bot: after a timeout, or for a taken-over
        seat): its time charged, the increment added (a clock per player), the timeouts
        in a row counted (a person's own move ends the run)."""
        was_running = self.running == seat
        self.stop(now)
        left = self.left[seat]
        if left is None:
            return
        if timed_out:
            self.timeouts[seat] += 1
        elif person:
            self.timeouts[seat] = 0
        if self.kind == "move":
            self.left[seat] = self.per_move
        else:
            if was_running:
                left += self.increment
            if timed_out:
                left = max(left, self.increment, GRACE_SECONDS)
            self.left[seat] = left

    def taken_over(self, seat: int) -> bool:
        return self.left[seat] is not None and self.timeouts[seat] >= self.takeover

    def back(self, seat: int) -> bool:
        """The seat's person acted: its timeouts are forgotten; True if it was taken over."""
        was = self.taken_over(seat)
        if self.left[seat] is not None:
            self.timeouts[seat] = 0
        return was

    def ended(self) -> None:
        """The game is over: no clock runs, no seat is marked timed out or taken over."""
        self.stop()
        self.timeouts = [0] * len(self.left)

    def request(self) -> ClockRequest:
        """The request of a table with this clock (a rematch's)."""
        if self.kind == "move":
            return ClockRequest(kind="move", seconds=self.per_move, timeouts=self.takeover)
        assert self.base is not None
        return ClockRequest(kind="player", minutes=self.base / 60.0,
                            increment=self.increment, timeouts=self.takeover)

    # -- the wire and the database

    def state(self, now: float | None = None) -> ClockState:
        now = time.time() if now is None else now
        return ClockState(kind=self.kind, seconds=self.per_move,
                          minutes=None if self.base is None else self.base / 60.0,
                          increment=self.increment, takeover_timeouts=self.takeover,
                          bot=TIMEOUT_BOT,
                          left=[None if v is None else round(v, 3) for v in
                                (self.left_now(n, now) for n in range(len(self.left)))],
                          running=self.running, server_time=round(now, 3),
                          timeouts=list(self.timeouts))

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind, "per_move": self.per_move, "base": self.base,
                           "increment": self.increment, "takeover": self.takeover,
                           "left": self.left, "running": self.running, "since": self.since,
                           "timeouts": self.timeouts})

    @classmethod
    def from_json(cls, text: str, alive: float | None, now: float | None = None) -> Clock:
        """A stored clock, reloaded by a restarted server that was last alive at
        ``alive`` (wall time; None: unknown): the running seat is charged only up to
        then, so the time the server was down is given back."""
        data: dict[str, Any] = json.loads(text)
        clock = cls(kind=data["kind"], per_move=data["per_move"], base=data["base"],
                    increment=data["increment"], takeover=data["takeover"],
                    left=list(data["left"]), running=data["running"], since=data["since"],
                    timeouts=list(data["timeouts"]))
        now = time.time() if now is None else now
        if clock.running is not None:
            # charged up to the server's last sign of life; it runs again from now
            until = clock.since if alive is None else min(max(alive, clock.since), now)
            clock.left[clock.running] = clock.left_now(clock.running, until)
        clock.since = now
        return clock
