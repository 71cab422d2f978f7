"""The arena: round-robin matches between bots on mirrored deals, ranked with intervals.

It sits above the table (each game is played through a ``cardtable.table.Table``) and
the bots; nothing below imports it. Its modules, one job each:

- ``cardtable.arena.specs``: bots named by spec (a built-in kind with settings, or an
  outside bot by import path);
- ``cardtable.arena.runner``: the plan of games from a seed, and playing it behind any
  ``concurrent.futures.Executor``;
- ``cardtable.arena.executors``: where the games run (this machine, Dask, Ray);
- ``cardtable.arena.results``: the JSON-lines results file that an arena resumes from;
- ``cardtable.arena.standings``: the standings, per bot and per pair, as text or dicts;
- ``cardtable.arena.ratings``: the statistics (Wilson and paired intervals,
  Bradley-Terry with a bootstrap);
- ``cardtable.arena.plots``: the standings as a picture (matplotlib, an extra).

The names most used are importable from here.

Examples:
    >>> from cardtable import arena
    >>> tasks = arena.plan("sequence", {}, "heuristic,random", games=2, seed=1)
    >>> rows = arena.standings(arena.run(tasks), ["heuristic", "random"])
    >>> [row.games for row in rows]
    [2, 2]
"""

from __future__ import annotations

from cardtable.arena.results import ResultsFile, header, read_results
from cardtable.arena.runner import GameResult, Task, plan, play, play_batch, run, stream
from cardtable.arena.specs import BotSpec, parse, parse_list
from cardtable.arena.standings import (
    BotStanding,
    PairStanding,
    as_json,
    outcome,
    pairs,
    standings,
    table,
)

__all__ = ["BotSpec", "BotStanding", "GameResult", "PairStanding", "ResultsFile", "Task",
           "as_json", "header", "outcome", "pairs", "parse", "parse_list", "plan", "play",
           "play_batch", "read_results", "run", "standings", "stream", "table"]
