"""A Sequence strategy: build and block lines, save two-eyed jacks, break fours.

Every action is scored from the seat's view: a chip on a cell is worth what it
adds to the five-cell windows through that cell that the team can still
complete, plus what it blocks in windows the opponents are building; jacks cost
something to spend, so they are kept for completing a sequence or stopping one.
"""

from __future__ import annotations

import math
from typing import Any

from cardtable.cards import parse_card
from cardtable.core import Action, State
from cardtable.sequence.board import (
    ALL_WINDOWS,
    CELL_CARD,
    TWO_EYED,
    WINDOWS_THROUGH,
    parse_cell,
)
from cardtable.sequence.game import CORNER, SequenceState

# value of adding a chip to a window already holding n of the team's chips
BUILD = (1.0, 3.0, 12.0, 60.0, 1000.0)
# value of blocking a window holding n chips of one opposing team and none of ours
BLOCK = (0.0, 1.0, 6.0, 50.0, 800.0)
TWO_EYED_COST = 40.0
ONE_EYED_COST = 45.0

# evaluate(): a window held by one team alone with n chips (corners included)
POTENTIAL = (0.0, 0.5, 2.0, 8.0, 30.0, 0.0)
SEQUENCE_VALUE = 120.0
JACK_VALUE = {parse_card("JD"): 12.0, parse_card("JC"): 12.0, parse_card("JS"): 8.0,
              parse_card("JH"): 8.0}
EVAL_SCALE = 60.0
WINDOW_LIST = sorted(ALL_WINDOWS)


def _windows(board: list[Any], cell: int, team: int) -> list[tuple[int, int, set[int], int]]:
    """For each window through ``cell``: the team's chips, free corners, the other teams
    in it and how many chips they have there."""
    out = []
    for window in WINDOWS_THROUGH[cell]:
        mine = corners = opp = 0
        others: set[int] = set()
        for c in window:
            v = board[c]
            if v == team:
                mine += 1
            elif v == "XX":
                corners += 1
            elif v is not None:
                others.add(v)
                opp += 1
        out.append((mine, corners, others, opp))
    return out


class SequenceHeuristic:
    # ISMCTS scores its leaves with ``evaluate`` at once: a sharper signal than random
    # playouts, and many more iterations in the same time
    rollout_horizon = 0

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        view = state.view(seat)
        team = view["team"]
        board = [v for row in view["board"] for v in row]
        out = []
        for action in state.legal_actions():
            words = str(action).split()
            if words[0] == "dead":
                out.append((10_000.0, action))  # a free exchange is never worse
                continue
            if words[0] == "pass":
                out.append((0.0, action))
                continue
            cell = parse_cell(words[1])
            card = words[0]
            if card in ("JS", "JH"):
                out.append((self._removal_value(board, cell, team) - ONE_EYED_COST, action))
                continue
            value = self._placement_value(board, cell, team)
            if card in ("JD", "JC") and value < BLOCK[4]:
                value -= TWO_EYED_COST
            out.append((value, action))
        return out

    @staticmethod
    def _placement_value(board: list[Any], cell: int, team: int) -> float:
        value = 0.0
        for mine, corners, others, opp in _windows(board, cell, team):
            if not others:
                value += BUILD[min(mine + corners, 4)]
            elif len(others) == 1 and not mine:
                value += BLOCK[min(opp + corners, 4)]
        return value

    @staticmethod
    def _removal_value(board: list[Any], cell: int, team: int) -> float:
        """What taking the opponent's chip off ``cell`` undoes of its windows."""
        owner = board[cell]
        value = 0.0
        for window in WINDOWS_THROUGH[cell]:
            theirs = sum(1 for c in window if board[c] == owner or board[c] == "XX")
            if all(board[c] in (owner, "XX") or board[c] is None for c in window):
                value += BLOCK[min(theirs, 4)]
        return value

    def evaluate(self, state: State) -> list[float]:
        """Board potential: every window one team alone can still complete is worth more the
        fuller it is; completed sequences and jacks in hand add to it (RULES 2.5, 2.4.2)."""
        assert isinstance(state, SequenceState)
        teams = state.game.teams
        board = state.board
        potential = [0.0] * teams
        open_fours: list[list[int]] = [[] for _ in range(teams)]
        for window in WINDOW_LIST:
            owner = -1
            count = 0
            gap = -1
            for c in window:
                v = board[c]
                if v == 0:
                    gap = c
                    continue
                if v == CORNER:
                    count += 1
                elif owner < 0 or owner == v:
                    owner = v
                    count += 1
                else:
                    owner = 0  # two teams: nobody can complete it
                    break
            if owner > 0:
                potential[owner - 1] += POTENTIAL[count]
                if count == 4:
                    open_fours[owner - 1].append(gap)
        for team, count in enumerate(state.seq_count):
            potential[team] += SEQUENCE_VALUE * count
        for seat, hand in enumerate(state.hands):
            for card in hand:
                if card in JACK_VALUE:
                    potential[seat % teams] += JACK_VALUE[card]
        # the seat to move completes an open four when it holds that cell's card or a
        # two-eyed jack: count that sequence as good as made
        mover = state.current_player
        if mover is not None:
            hand = state.hands[mover]
            if any(CELL_CARD[gap] in hand or TWO_EYED[0] in hand or TWO_EYED[1] in hand
                   for gap in open_fours[mover % teams]):
                potential[mover % teams] += 0.9 * SEQUENCE_VALUE
        out = []
        for seat in range(state.game.num_players):
            mine = potential[seat % teams]
            best_other = max(p for t, p in enumerate(potential) if t != seat % teams)
            out.append(math.tanh((mine - best_other) / EVAL_SCALE))
        return out


HEURISTIC = SequenceHeuristic()
