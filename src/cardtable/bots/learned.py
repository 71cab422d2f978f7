"""The "learned" bot: a game's learned strategy where it has one, else its heuristic.

Only Sequence has learned weights so far (``cardtable.bots.sequence_learned``); in the
other games the bot plays the game's heuristic, move for move.
"""

from __future__ import annotations

from cardtable.bots.base import HeuristicBot
from cardtable.bots.sequence_learned import LearnedSequenceBot
from cardtable.core import Action, State


class LearnedBot:
    """Sequence: ``LearnedSequenceBot`` with the shipped weights; other games: the heuristic."""

    def __init__(self, seed: int | None = None) -> None:
        self.sequence = LearnedSequenceBot(seed)
        self.fallback = HeuristicBot(seed)

    def choose(self, state: State) -> Action:
        """The learned bot's move in Sequence, the heuristic's in the other games."""
        if state.game.name == "sequence":
            return self.sequence.choose(state)
        return self.fallback.choose(state)

    def reset(self) -> None:
        """Restart the tie-breaking random numbers from the seed."""
        self.sequence.reset()
        self.fallback.reset()
