"""The arena's standings: per bot (win rate with a Wilson interval, average score, a
Bradley-Terry rating with a bootstrap interval) and per pair of bots (per game and per
deal), as rows, as text and as plain dicts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardtable.arena import ratings
from cardtable.arena.ratings import wilson_interval
from cardtable.arena.runner import GameResult


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
