"""The bot levels a player picks, per game, weakest first, with how strong each is.

The one place the levels live: the web page's lobby reads them through
``GET /api/levels`` (``cardtable.web.levels_json``) and translates the words
(``label``, ``strength``: English message ids in the web catalog). The order is the
arena's measured strength (README's table, docs/bots.md; every figure a win rate over
games played twice with the seats swapped, its 95% interval in brackets, and the command
that measured it in ``evidence``).

Examples:
    >>> from cardtable.bots.levels import levels
    >>> [level.bot for level in levels("sequence")]
    ['random', 'heuristic', 'learned', 'blend']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["LEVELS", "LEVEL_NAMES", "Level", "levels"]


@dataclass(frozen=True)
class Level:
    """One level: its name, the bot that plays it and that bot's settings, and its strength
    in a few words (``strength``) with the measurement behind it (``evidence``)."""

    name: str
    label: str
    bot: str
    strength: str
    evidence: str
    settings: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "bot": self.bot,
                "settings": dict(self.settings), "strength": self.strength,
                "evidence": self.evidence}


#: the levels' names, weakest first (a game has the first three at least)
LEVEL_NAMES = ("easy", "medium", "hard", "expert")

EASY = "Plays at random: for learning the rules"

LEVELS: dict[str, tuple[Level, ...]] = {
    "sequence": (
        Level("easy", "Easy", "random", EASY, "the medium bot beats it 99.2% (97.8-99.7): "
              "cardtable arena sequence --bots heuristic,random --games 400 --seed 1"),
        Level("medium", "Medium", "heuristic",
              "Builds and blocks lines: beats random play 99 games in 100",
              "99.2% (97.8-99.7) of 400: cardtable arena sequence --bots heuristic,random "
              "--games 400 --seed 1"),
        Level("hard", "Hard", "learned",
              "Learned from many games: beats the medium bot 56 games in 100, "
              "and the searching bot 57 in 100",
              "55.6% (53.5-57.8) of 2,000 against heuristic-v1: cardtable arena sequence "
              "--bots learned,heuristic-v1 --games 2000 --seed 19 --workers 2; 57% of 100 "
              "against ismcts at 1,000 iterations (paired over deals 49-64%)"),
        Level("expert", "Expert", "blend",
              "A trained network and learned scores together: beats the medium bot "
              "59 games in 100, and the hard bot 53 in 100",
              "58.8% (57.0-60.5 paired over deals) of 2,000 against heuristic-v1, 52.9% "
              "(51.3-54.5) of 2,000 against learned, 50.8% (49.1-52.5) against trained: "
              "cardtable arena sequence --bots blend,trained,learned,heuristic-v1 --games "
              "2000 --seed 19 --workers 2"),
    ),
    "drawbridge": (
        Level("easy", "Easy", "random", EASY, "the medium bot beats it 98.2% (96.4-99.2) "
              "of 400: cardtable arena drawbridge --bots heuristic,heuristic-v1,random "
              "--games 400 --seed 1"),
        Level("medium", "Medium", "heuristic",
              "Plays and bids by rules of thumb: beats random play 98 matches in 100",
              "98.2% (96.4-99.2) of 400: cardtable arena drawbridge --bots "
              "heuristic,heuristic-v1,random --games 400 --seed 1; bids by expected points "
              "at the table's rules, 67.2% (64.2-70.0) of 1,000 against the heuristic of "
              "1 December 2026 (heuristic-v1), 55.7% with undertricks (docs/bots.md)"),
        Level("hard", "Hard", "ismcts",
              "Searches one second a move: has won every match against the medium bot",
              "100% (83.9-100) of 20 against the heuristic of 1 December 2026: cardtable "
              "arena drawbridge --bots ismcts,heuristic-v1 --iterations 300 --games 20 "
              "--seed 3; 4 of 4 against today's: cardtable arena drawbridge --bots "
              "ismcts,heuristic --iterations 300 --games 4 --seed 3", {"seconds": 1.0}),
        Level("expert", "Expert", "perfect",
              "Keeps the strongest cards in the draw and plays perfectly from the auction "
              "on: never loses a match to the medium bot",
              "100% (98.1-100) of 200 against heuristic: cardtable arena drawbridge --bots "
              "perfect,heuristic --games 200 --seed 61; with undertricks 87.5% (82.2-91.4) "
              "of 200: the same with -o undertricks=true; 62.8% (paired over deals "
              "60.7-64.7) of 2,000 against perfect-v1, its draw phase the heuristic's: "
              "cardtable arena drawbridge --bots perfect,perfect-v1 --games 1000 --seed 61 "
              "--workers 2 -o undertricks=true, and the same with --seed 62; 91.5% "
              "(86.8-94.6) of 200 against ismcts before the trained draw: cardtable arena "
              "drawbridge --bots perfect,ismcts "
              "--iterations 200 --games 200 -o undertricks=true"),
    ),
    "threethirteen": (
        Level("easy", "Easy", "random", EASY, "the medium bot beats it 100% (96.3-100): "
              "cardtable arena threethirteen --bots heuristic,random --games 100 --seed 1"),
        Level("medium", "Medium", "heuristic",
              "Keeps near melds and takes useful discards: beats random play every time",
              "100% (96.3-100) of 100: cardtable arena threethirteen --bots heuristic,random "
              "--games 100 --seed 1"),
        Level("hard", "Hard", "ismcts",
              "Searches one second a move: beats the medium bot about 64 matches in 100",
              "64.2% (51.5-75.1) of 60 (three sets of 20): cardtable arena threethirteen "
              "--bots ismcts,heuristic --seconds 1 --games 20 --workers 2 --seed 5 (6, 7)",
              {"seconds": 1.0}),
        Level("expert", "Expert", "lookahead",
              "Looks one draw ahead: beats the medium bot 64 matches in 100, "
              "and the hard bot 55 in 100",
              "64.1% (60.2-67.6 paired over deals) of 400 against heuristic: cardtable "
              "arena threethirteen --bots lookahead,heuristic --games 400 --seed 41 "
              "--workers 2; the first lookahead (going_out=0, level with it head to "
              "head) won 55.0% (47.0-62.1 paired) of 80 against ismcts at 2,000 "
              "iterations (about 1 s a move): cardtable arena threethirteen --bots "
              "cardtable.bots.lookahead:make:going_out=0,ismcts --iterations 2000 "
              "--games 40 --seed 43 --workers 2 (and --seed 44)"),
    ),
}


def levels(game: str) -> tuple[Level, ...]:
    """The levels of ``game``, weakest first (a game without levels: none)."""
    return LEVELS.get(game, ())


def messages() -> list[str]:
    """The words of the levels the page translates (labels and strengths)."""
    out: list[str] = []
    for game_levels in LEVELS.values():
        for level in game_levels:
            for text in (level.label, level.strength):
                if text not in out:
                    out.append(text)
    return out
