"""The arena's games: planned from a seed, played behind a concurrent.futures.Executor.

Every pair of bots plays ``games`` games; each deal is played twice with the
bots' seats swapped, so the luck of the cards evens out. In team games a bot
takes every seat of its teams; with more seats (or teams) than two the pair
alternates teams.

A game's deal and bot seeds come from the arena seed and the game's place in the
plan only, so the results are the same whoever plays them: one process, a process
pool, a Dask or a Ray cluster, with any number of workers, in any order, in one
run or resumed (as long as the bots' budgets are in iterations, not seconds).
Games travel in batches (``play_batch``), so that scheduling costs little against
a game of a few milliseconds; results stream back as batches finish.
"""

from __future__ import annotations

import itertools
import math
import random
import socket
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Executor, as_completed
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.arena.executors import Running, open_executor
from cardtable.arena.specs import BotSpec, check, parse_list
from cardtable.bots import bot_kind
from cardtable.core import OptionsError
from cardtable.records import GameLog, HoldsLog
from cardtable.table import Seat, Table

__all__ = ["MAX_BATCH", "GameResult", "Task", "batch_size", "plan", "play", "play_batch",
           "run", "stream"]

#: the most games in one task (a heuristic game takes milliseconds)
MAX_BATCH = 50


@dataclass(frozen=True)
class Task(HoldsLog):
    """One game: its log (the game, its options and the deal's seed; no moves yet), which
    bot plays each seat and each seat's bot seed."""

    index: int
    log: GameLog
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    budget: dict[str, Any] = field(default_factory=dict)
    max_actions: int | None = None
    #: the specs of the bots in ``lineup``, by label
    bots: tuple[BotSpec, ...] = ()
    #: the deal's number in the arena: the two games of a deal share it
    deal: int = 0

    @property
    def deal_seed(self) -> int:
        assert self.log.seed is not None
        return self.log.seed


@dataclass(frozen=True)
class GameResult:
    """How one game of the arena ended: its task's index and deal, who sat where (bot
    labels), the winning seats, the scores, the moves made and whether the game ended
    (False: stopped by ``max_actions``, a draw)."""

    index: int
    lineup: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    finished: bool
    deal: int = 0


def plan(game: str, options: dict[str, Any], bots: str | Iterable[str | BotSpec], games: int,
         seed: int, budget: dict[str, Any] | None = None,
         max_actions: int | None = None) -> list[Task]:
    """The tasks of a round robin: ``games`` games (rounded up to pairs) per pair of bots.
    ``bots`` are specs (``cardtable.arena.specs``); ``budget`` holds ISMCTS settings that a
    spec's own settings override."""
    specs = parse_list(bots)
    for spec in specs:
        if spec.kind is not None and bot_kind(spec.kind).takes_budget and budget:
            check(spec, budget)
    g = cardtable.new_game(game, **options)
    n = g.num_players
    tasks: list[Task] = []
    rng = random.Random(f"arena-{seed}")
    for a, b in itertools.combinations(specs, 2):
        for _ in range((games + 1) // 2):
            deal_seed = rng.getrandbits(63)
            deal = len(tasks) // 2
            for first, second in ((a, b), (b, a)):
                lineup = tuple(first.label if g.team_of(s) % 2 == 0 else second.label
                               for s in range(n))
                seeds = tuple(rng.getrandbits(63) for _ in range(n))
                log = GameLog(game, dict(g.options), deal_seed)
                tasks.append(Task(len(tasks), log, lineup, seeds, dict(budget or {}),
                                  max_actions, (first, second), deal))
    return tasks


def play(task: Task) -> GameResult:
    """Play one game of the arena (in whatever process runs it)."""
    specs = {spec.label: spec for spec in task.bots}
    seats = [Seat("bot", specs[label].kind or str(specs[label].path), dict(specs[label].settings))
             for label in task.lineup]
    bots = {seat: specs[label].make(s, task.budget)
            for seat, (label, s) in enumerate(zip(task.lineup, task.bot_seeds, strict=True))}
    table = Table.from_log(task.log, seats, bots=bots)
    table.advance_bots(max_moves=task.max_actions)
    state = table.state
    return GameResult(task.index, task.lineup, tuple(state.winners), tuple(state.scores),
                      table.version, state.is_terminal, task.deal)


def play_batch(tasks: Sequence[Task]) -> list[GameResult]:
    """Play a batch of games: one task for an executor (a bot that cannot be made there,
    e.g. an outside bot not installed on a cluster's workers, names the worker's host)."""
    try:
        return [play(task) for task in tasks]
    except OptionsError as exc:
        raise OptionsError(f"{exc} (on a worker at {socket.gethostname()})") from None


def batch_size(tasks: Sequence[Task], parallelism: int) -> int:
    """Games per task: one when a bot searches (a game may take minutes, and Ctrl-C keeps
    only whole tasks); else enough to make scheduling cheap while every worker still gets
    several tasks (at most MAX_BATCH)."""
    if not tasks or any(spec.searches for spec in {s for t in tasks for s in t.bots}):
        return 1
    return max(1, min(MAX_BATCH, math.ceil(len(tasks) / (8 * max(1, parallelism)))))


def stream(tasks: Sequence[Task], running: Running | None = None,
           batch: int | None = None) -> Generator[GameResult, None, None]:
    """Each task's result as soon as its batch is over (in no particular order). Closing
    the iterator early (Ctrl-C) drops the unfinished batches at once."""
    if running is None or running.executor is None:
        for task in tasks:
            yield play(task)
        return
    size = batch or batch_size(tasks, running.parallelism)
    futures = [running.executor.submit(play_batch, list(tasks[i:i + size]))
               for i in range(0, len(tasks), size)]
    done = False
    try:
        for future in as_completed(futures):
            yield from future.result()
        done = True
    finally:
        if not done:
            running.stop()


def run(tasks: Sequence[Task], workers: int = 1, executor: Executor | str | None = None,
        progress: Callable[[GameResult], None] | None = None,
        batch: int | None = None) -> list[GameResult]:
    """Play every task and return the results in task order; ``executor`` is an Executor,
    or a spec for ``open_executor`` ("local", "dask://HOST:PORT", "ray", ...)."""
    results = []

    def collect(running: Running) -> None:
        with closing(stream(tasks, running, batch)) as results_stream:
            for result in results_stream:
                results.append(result)
                if progress:
                    progress(result)

    if isinstance(executor, Executor):
        collect(Running("executor", executor, max(workers, 1), lambda: None))
    else:
        with open_executor(executor or "local", workers) as running:
            collect(running)
    return sorted(results, key=lambda r: r.index)
