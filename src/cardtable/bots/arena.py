"""Round-robin bot matches with mirrored deals, run behind a concurrent.futures.Executor.

Every pair of bots plays ``games`` games; each deal is played twice with the
bots' seats swapped, so the luck of the cards evens out. In team games a bot
takes every seat of its teams; with more seats than two the pair alternates
seats (or teams). Results are the same for a seed whatever the number of
workers, as long as the bots' budgets are in iterations, not seconds.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

import cardtable
from cardtable.bots import KINDS, make
from cardtable.core import OptionsError
from cardtable.table import Seat, Table


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


@dataclass(frozen=True)
class GameResult:
    index: int
    lineup: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    finished: bool


def plan(game: str, options: dict[str, Any], bots: list[str], games: int, seed: int,
         budget: dict[str, Any] | None = None, max_actions: int | None = None) -> list[Task]:
    """The tasks of a round robin: ``games`` games (rounded up to pairs) per pair of bots."""
    if len(bots) < 2:
        raise OptionsError("an arena needs at least two bots, e.g. --bots heuristic,random")
    unknown = [b for b in bots if b not in KINDS]
    if unknown:
        raise OptionsError(f"unknown bot {unknown[0]!r}; the bots are {', '.join(KINDS)}")
    if len(set(bots)) != len(bots):
        raise OptionsError("each bot may be named once in --bots")
    g = cardtable.new_game(game, **options)
    n = g.num_players
    groups = g.options.get("teams") or n
    tasks: list[Task] = []
    rng = random.Random(f"arena-{seed}")
    for a, b in itertools.combinations(bots, 2):
        for _ in range((games + 1) // 2):
            deal_seed = rng.getrandbits(63)
            for first, second in ((a, b), (b, a)):
                lineup = tuple(first if (s % groups) % 2 == 0 else second for s in range(n))
                seeds = tuple(rng.getrandbits(63) for _ in range(n))
                tasks.append(Task(len(tasks), game, dict(g.options), lineup, deal_seed, seeds,
                                  dict(budget or {}), max_actions))
    return tasks


def play(task: Task) -> GameResult:
    """Play one game of the arena (in whatever process runs it)."""
    seats = [Seat("bot", kind, dict(task.budget) if kind == "ismcts" else {})
             for kind in task.lineup]
    bots = {seat: make(who.name, seed=s, **who.settings)
            for seat, (who, s) in enumerate(zip(seats, task.bot_seeds, strict=True))}
    table = Table.new(cardtable.new_game(task.game, **task.options), seats,
                      seed=task.deal_seed, bots=bots)
    table.advance_bots(max_moves=task.max_actions)
    state = table.state
    return GameResult(task.index, task.lineup, tuple(state.winners), tuple(state.scores),
                      table.version, state.is_terminal)


def run(tasks: list[Task], workers: int = 1, executor: Executor | None = None,
        progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play every task, in parallel when ``workers`` > 1 or an executor is given."""
    results = []
    if executor is None and workers <= 1:
        for task in tasks:
            results.append(play(task))
            if progress:
                progress(results[-1])
        return results
    pool = executor or ProcessPoolExecutor(max_workers=workers)
    try:
        for future in as_completed([pool.submit(play, t) for t in tasks]):
            results.append(future.result())
            if progress:
                progress(results[-1])
    finally:
        if executor is None:
            pool.shutdown(cancel_futures=True)
    return sorted(results, key=lambda r: r.index)


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
    elo: float


def standings(results: Iterable[GameResult], bots: list[str]) -> list[BotStanding]:
    """Per bot: results, win rate with a 95% interval, average score, and Elo rating."""
    results = list(results)
    pair_points: dict[tuple[str, str], float] = {}
    pair_games: dict[tuple[str, str], int] = {}
    rows = []
    for bot in bots:
        mine = [r for r in results if bot in r.lineup]
        points = [outcome(r, bot) for r in mine]
        for r, p in zip(mine, points, strict=True):
            other = next(k for k in r.lineup if k != bot)
            pair_points[bot, other] = pair_points.get((bot, other), 0.0) + p
            pair_games[bot, other] = pair_games.get((bot, other), 0) + 1
        count = len(points)
        mean = sum(points) / count if count else 0.0
        low, high = wilson_interval(mean, count)
        seat_scores = [r.scores[s] for r in mine for s, k in enumerate(r.lineup) if k == bot]
        rows.append(BotStanding(
            bot, count, sum(1 for p in points if p == 1.0), sum(1 for p in points if p == 0.5),
            sum(1 for p in points if p == 0.0), round(mean, 4), round(low, 4), round(high, 4),
            round(sum(seat_scores) / len(seat_scores), 2) if seat_scores else 0.0, 0.0))
    for row, elo in zip(rows, elo_ratings(bots, pair_points, pair_games), strict=True):
        row.elo = round(elo, 1)
    return rows


def wilson_interval(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate over ``n`` games (sound at 0% and 100%)."""
    if n == 0:
        return 0.0, 1.0
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_ratings(bots: list[str], points: dict[tuple[str, str], float],
                games: dict[tuple[str, str], int], iterations: int = 500) -> list[float]:
    """Bradley-Terry maximum likelihood (minorization-maximization), on the Elo scale
    with mean 1500; half a point is added to each side of every pair so that a
    perfect score stays finite."""
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(iterations):
        new = {}
        for bot in bots:
            wins = sum(points.get((bot, o), 0.0) + 0.5 for o in bots if o != bot)
            denom = sum((games.get((bot, o), 0) + 1) / (strength[bot] + strength[o])
                        for o in bots if o != bot)
            new[bot] = wins / denom if denom else 1.0
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {b: v / math.exp(mean_log) for b, v in new.items()}
    return [1500 + 400 * math.log10(strength[b]) for b in bots]


def table(rows: list[BotStanding]) -> str:
    lines = [f"{'bot':10} {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6} "
             f"{'win rate':>9} {'95% interval':>15} {'avg score':>10} {'Elo':>7}"]
    for r in sorted(rows, key=lambda r: -r.elo):
        lines.append(f"{r.bot:10} {r.games:>6} {r.wins:>6} {r.draws:>6} {r.losses:>6} "
                     f"{r.win_rate:>9.1%} {f'{r.ci_low:.1%}-{r.ci_high:.1%}':>15} "
                     f"{r.average_score:>10} {r.elo:>7.0f}")
    return "\n".join(lines)


def as_json(rows: list[BotStanding]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]
