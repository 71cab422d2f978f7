"""Round-robin bot matches with mirrored deals, run behind a concurrent.futures.Executor.

Every pair of bots plays ``games`` games; each deal is played twice with the
bots' seats swapped, so the luck of the cards evens out. In team games a bot
takes every seat of its teams; with more seats than two the pair alternates
seats (or teams).

A game's deal and bot seeds come from the arena seed and the game's place in the
plan only, so the results are the same whoever plays them: one process, a process
pool, a Dask or a Ray cluster, with any number of workers, in any order, in one
run or resumed (as long as the bots' budgets are in iterations, not seconds).
Games travel in batches (``play_batch``), so that scheduling costs little against
a game of a few milliseconds; results stream back as batches finish.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import socket
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Executor, as_completed
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import cardtable
from cardtable.bots import ratings
from cardtable.bots.executors import Running, open_executor
from cardtable.bots.ratings import wilson_interval
from cardtable.bots.specs import BotSpec, check, parse_list
from cardtable.core import OptionsError
from cardtable.table import Seat, Table

__all__ = ["BotStanding", "GameResult", "PairStanding", "ResultsFile", "Task", "outcome",
           "pairs", "plan", "play", "play_batch", "read_results", "run", "standings", "stream",
           "table", "wilson_interval"]

#: the most games in one task (a heuristic game takes milliseconds)
MAX_BATCH = 50


@dataclass(frozen=True)
class Task:
    """One game: which bot plays each seat, the deal, and each seat's bot seed."""

    index: int
    game: str
    options: dict[str, Any]
    lineup: tuple[str, ...]
    deal_seed: int
    bot_seeds: tuple[int, ...]
    budget: dict[str, Any] = field(default_factory=dict)
    max_actions: int | None = None
    #: the specs of the bots in ``lineup``, by label
    bots: tuple[BotSpec, ...] = ()
    #: the deal's number in the arena: the two games of a deal share it
    deal: int = 0


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
    ``bots`` are specs (``cardtable.bots.specs``); ``budget`` holds ISMCTS settings that a
    spec's own settings override."""
    specs = parse_list(bots)
    for spec in specs:
        if spec.kind == "ismcts" and budget:
            check(spec, budget)
    g = cardtable.new_game(game, **options)
    n = g.num_players
    groups = g.options.get("teams") or n
    tasks: list[Task] = []
    rng = random.Random(f"arena-{seed}")
    for a, b in itertools.combinations(specs, 2):
        for _ in range((games + 1) // 2):
            deal_seed = rng.getrandbits(63)
            deal = len(tasks) // 2
            for first, second in ((a, b), (b, a)):
                lineup = tuple(first.label if (s % groups) % 2 == 0 else second.label
                               for s in range(n))
                seeds = tuple(rng.getrandbits(63) for _ in range(n))
                tasks.append(Task(len(tasks), game, dict(g.options), lineup, deal_seed, seeds,
                                  dict(budget or {}), max_actions, (first, second), deal))
    return tasks


def play(task: Task) -> GameResult:
    """Play one game of the arena (in whatever process runs it)."""
    specs = {spec.label: spec for spec in task.bots}
    seats = [Seat("bot", specs[label].kind or str(specs[label].path), dict(specs[label].settings))
             for label in task.lineup]
    bots = {seat: specs[label].make(s, task.budget)
            for seat, (label, s) in enumerate(zip(task.lineup, task.bot_seeds, strict=True))}
    table = Table.new(cardtable.new_game(task.game, **task.options), seats,
                      seed=task.deal_seed, bots=bots)
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


# ---------------------------------------------------------------- results files


def header(game: str, options: dict[str, Any], specs: Sequence[BotSpec], games: int,
           seed: int, budget: dict[str, Any] | None, max_actions: int | None,
           tasks: int) -> dict[str, Any]:
    """What identifies an arena: the first line of its results file."""
    return json.loads(json.dumps({
        "arena": 1, "game": game, "options": options, "bots": [asdict(s) for s in specs],
        "games": games, "seed": seed, "budget": budget or {}, "max_actions": max_actions,
        "tasks": tasks}))


def result_from_json(data: dict[str, Any]) -> GameResult:
    """A GameResult from its line in a results file."""
    return GameResult(data["index"], tuple(data["lineup"]), tuple(data["winners"]),
                      tuple(data["scores"]), data["actions"], data["finished"], data["deal"])


def read_results(path: Path) -> tuple[dict[str, Any], list[GameResult]]:
    """The header and the results of a results file (a last line cut short is skipped)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise OptionsError(f"cannot read {path}: {exc.strerror}") from None
    lines = text.splitlines()
    if not text.endswith("\n") and lines:
        lines.pop()  # cut short by a crash: that game is played again
    try:
        head = json.loads(lines[0]) if lines else None
        if not isinstance(head, dict) or head.get("arena") != 1:
            raise ValueError
        results = {r.index: r for r in (result_from_json(json.loads(line))
                                        for line in lines[1:] if line.strip())}
    except (ValueError, KeyError, TypeError):
        raise OptionsError(f"{path} is not an arena results file (written by --out)") from None
    return head, sorted(results.values(), key=lambda r: r.index)


class ResultsFile:
    """A JSON-lines results file: the header, then one line per game as it finishes."""

    def __init__(self, path: Path, head: dict[str, Any], resume: bool = False) -> None:
        self.path = path
        self.done: list[GameResult] = []
        if resume and path.exists():
            old, self.done = read_results(path)
            if old != head:
                changed = sorted(k for k in head if old.get(k) != head[k])
                raise OptionsError(f"{path} holds another arena ({', '.join(changed)} differ); "
                                   "resume with the command that wrote it")
            self._rewrite(head)
        else:
            if path.exists() and not resume and path.stat().st_size:
                raise OptionsError(f"{path} exists; continue it with --resume {path}, or "
                                   "choose another file")
            self._rewrite(head)
        self._file: IO[str] = path.open("a")

    def _rewrite(self, head: dict[str, Any]) -> None:
        """The header and the games kept so far (drops a line cut short)."""
        lines = [head, *(asdict(r) for r in self.done)]
        try:
            self.path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        except OSError as exc:
            raise OptionsError(f"cannot write {self.path}: {exc.strerror}") from None

    def add(self, result: GameResult) -> None:
        self._file.write(json.dumps(asdict(result)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


# ---------------------------------------------------------------- standings


def outcome(result: GameResult, bot: str) -> float:
    """1 when only ``bot``'s seats won, 0 when only the other bot's did, 0.5 otherwise."""
    mine = any(result.lineup[w] == bot for w in result.winners)
    theirs = any(result.lineup[w] != bot for w in result.winners)
    return 0.5 if mine == theirs else 1.0 if mine else 0.0


@dataclass
class BotStanding:
    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # a draw or shared win counts half
    ci_low: float
    ci_high: float
    average_score: float
    elo: float  # Bradley-Terry maximum likelihood on the Elo scale
    elo_low: float = 0.0  # its 95% bootstrap interval (deals resampled)
    elo_high: float = 0.0


@dataclass
class PairStanding:
    """``bot`` against ``opponent``: the win rate per game (Wilson interval) and per deal
    (paired interval: both games of a deal are one unit)."""

    bot: str
    opponent: str
    games: int
    deals: int
    win_rate: float
    ci_low: float
    ci_high: float
    paired_low: float
    paired_high: float


def _deals(results: Sequence[GameResult], bots: Sequence[str]) -> list[ratings.Deal]:
    """Per deal: the pair of bots (in ``bots`` order), the first's points, games."""
    order = {b: i for i, b in enumerate(bots)}
    by_deal: dict[int, list[GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r)
    deals = []
    for deal in sorted(by_deal):
        games = by_deal[deal]
        a, b = sorted(set(games[0].lineup), key=lambda k: order.get(k, len(order)))
        deals.append((a, b, sum(outcome(r, a) for r in games), len(games)))
    return deals


def standings(results: Iterable[GameResult], bots: Sequence[str],
              samples: int = 200) -> list[BotStanding]:
    """Per bot: results, win rate with a 95% interval, average score, and a Bradley-Terry
    rating with a 95% bootstrap interval (``samples`` resamplings of the deals)."""
    results = list(results)
    rows = []
    for bot in bots:
        mine = [r for r in results if bot in r.lineup]
        points = [outcome(r, bot) for r in mine]
        count = len(points)
        mean = sum(points) / count if count else 0.0
        low, high = wilson_interval(mean, count)
        seat_scores = [r.scores[s] for r in mine for s, k in enumerate(r.lineup) if k == bot]
        rows.append(BotStanding(
            bot, count, sum(1 for p in points if p == 1.0), sum(1 for p in points if p == 0.5),
            sum(1 for p in points if p == 0.0), round(mean, 4), round(low, 4), round(high, 4),
            round(sum(seat_scores) / len(seat_scores), 2) if seat_scores else 0.0, 0.0))
    rated = ratings.bootstrap_ratings(bots, _deals(results, bots), samples)
    for row, (elo, low, high) in zip(rows, rated, strict=True):
        row.elo, row.elo_low, row.elo_high = round(elo, 1), round(low, 1), round(high, 1)
    return rows


def pairs(results: Iterable[GameResult], bots: Sequence[str]) -> list[PairStanding]:
    """Every pair of bots that met, from the first-named bot's side."""
    by_pair: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for a, b, points, count in _deals(list(results), bots):
        by_pair.setdefault((a, b), []).append((points, count))
    out = []
    for (a, b), deals in by_pair.items():
        games = sum(c for _, c in deals)
        rate = sum(p for p, _ in deals) / games
        low, high = wilson_interval(rate, games)
        _, paired_low, paired_high = ratings.paired_interval([p / c for p, c in deals])
        out.append(PairStanding(a, b, games, len(deals), round(rate, 4), round(low, 4),
                                round(high, 4), round(paired_low, 4), round(paired_high, 4)))
    return out


def elo_ratings(bots: list[str], points: dict[tuple[str, str], float],
                games: dict[tuple[str, str], int]) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (see ``ratings.bradley_terry``)."""
    return ratings.bradley_terry(bots, points, games)


def _interval(low: float, high: float) -> str:
    return f"{low:.1%}-{high:.1%}"


def table(rows: list[BotStanding], pair_rows: Sequence[PairStanding] = ()) -> str:
    """The standings as text: per bot, then per pair of bots."""
    width = max([10, *(len(r.bot) for r in rows)])
    lines = [f"{'bot':{width}} {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6} "
             f"{'win rate':>9} {'95% interval':>15} {'avg score':>10} {'Elo':>6} "
             f"{'95% interval':>12}"]
    for r in sorted(rows, key=lambda r: -r.elo):
        lines.append(f"{r.bot:{width}} {r.games:>6} {r.wins:>6} {r.draws:>6} {r.losses:>6} "
                     f"{r.win_rate:>9.1%} {_interval(r.ci_low, r.ci_high):>15} "
                     f"{r.average_score:>10} {r.elo:>6.0f} "
                     f"{f'{r.elo_low:.0f}-{r.elo_high:.0f}':>12}")
    if pair_rows:
        pair_width = max(len(f"{p.bot} vs {p.opponent}") for p in pair_rows)
        lines += ["", f"{'pair':{pair_width}} {'games':>6} {'win rate':>9} "
                  f"{'per game (Wilson)':>18} {'deals':>6} {'per deal (paired)':>18}"]
        for p in pair_rows:
            lines.append(f"{f'{p.bot} vs {p.opponent}':{pair_width}} {p.games:>6} "
                         f"{p.win_rate:>9.1%} {_interval(p.ci_low, p.ci_high):>18} "
                         f"{p.deals:>6} {_interval(p.paired_low, p.paired_high):>18}")
    return "\n".join(lines)


def as_json(rows: Sequence[BotStanding | PairStanding]) -> list[dict[str, Any]]:
    """Standings as plain dicts, for --json and --csv."""
    return [asdict(r) for r in rows]
