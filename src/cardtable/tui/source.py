"""What the terminal draws: one seat's view of a table, from either source.

A local table (``cardtable play``, ``cardtable replay``) makes it from its
:class:`~cardtable.core.State`; a remote one (``cardtable play --connect``) from the view
and the events the server sends. :meth:`cardtable.tui.app.TableApp.draw` reads nothing
else, so both draw alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.core import State


@dataclass(frozen=True)
class SeatView:
    """A seat's view (``state.view(seat, history=False)``, as the server sends it too), the
    last move seen, and whether the viewer may move now."""

    view: dict[str, Any]
    last_move: tuple[int, str] | None
    active: bool

    @classmethod
    def of_state(cls, state: State, viewer: int | None, active: bool) -> SeatView:
        """A local table's source: the state as ``viewer`` sees it."""
        last = state.history[-1] if state.history else None
        return cls(state.view(viewer, history=False),
                   None if last is None else (last[0], last[1].notation), active)

    @property
    def legal(self) -> list[str]:
        """The moves the viewer may make now (none unless ``active``)."""
        return list(self.view.get("legal", [])) if self.active else []

    @property
    def current_player(self) -> int | None:
        seat: int | None = self.view.get("current_player")
        return seat

    @property
    def num_players(self) -> int:
        return len(self.view["hand_sizes"])

    @property
    def scores(self) -> list[int]:
        return list(self.view.get("scores") or [0] * self.num_players)

    @property
    def winners(self) -> list[int]:
        return list(self.view.get("winners") or [])
