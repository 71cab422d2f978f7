"""Win-rate intervals and Bradley-Terry ratings with bootstrap intervals.

Pure Python and seeded: the same games give the same numbers. The unit of
resampling is the deal (a deal played twice with the seats swapped), since
both games of a deal share the cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

#: the 97.5% point of the standard normal (95% two-sided intervals)
Z95 = 1.96

#: one deal of a pair of bots: (bot a, bot b, a's points over the deal's games, games)
Deal = tuple[str, str, float, int]


def wilson_interval(rate: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate over ``n`` games (sound at 0% and 100%)."""
    if n == 0:
        return 0.0, 1.0
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_interval(deal_rates: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean win rate and 95% interval over deals, each deal's rate being the mean of its
    mirrored games: a deal that one hand wins whoever holds it counts as one 50% unit,
    not as two independent games. The interval is Wilson's with the deal rates' sample
    variance in place of p(1 - p): it is Wilson's over deals when every deal is won or
    lost outright, and stays honest (not zero-width) when all deals agree.
    Returns (rate, low, high)."""
    n = len(deal_rates)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(deal_rates) / n
    variance = sum((r - mean) ** 2 for r in deal_rates) / n
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(variance / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(bots: Sequence[str], points: dict[tuple[str, str], float],
                  games: dict[tuple[str, str], int], tolerance: float = 1e-10,
                  max_iterations: int = 2000) -> list[float]:
    """Bradley-Terry maximum likelihood (minorization-maximization), on the Elo scale
    with mean 1500. ``points[a, b]`` is a's score against b (a draw counts half) over
    ``games[a, b]`` games. Half a point is added to each side of every pair that
    played, so that a perfect score stays finite."""
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(max_iterations):
        new = {}
        for bot in bots:
            opponents = [o for o in bots if o != bot and games.get((bot, o), 0)]
            wins = sum(points.get((bot, o), 0.0) + 0.5 for o in opponents)
            denom = sum((games[bot, o] + 1) / (strength[bot] + strength[o]) for o in opponents)
            new[bot] = wins / denom if denom else 1.0
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {b: v / math.exp(mean_log) for b, v in new.items()}
        change = max(abs(math.log(new[b] / strength[b])) for b in bots)
        strength = new
        if change < tolerance:
            break
    return [1500 + 400 * math.log10(strength[b]) for b in bots]


def ratings_of_deals(bots: Sequence[str], deals: Sequence[Deal]) -> list[float]:
    """Bradley-Terry ratings (Elo scale) of the bots from their deals' results."""
    points: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], int] = {}
    for a, b, score, count in deals:
        points[a, b] = points.get((a, b), 0.0) + score
        points[b, a] = points.get((b, a), 0.0) + count - score
        games[a, b] = games[b, a] = games.get((a, b), 0) + count
    return bradley_terry(bots, points, games)


def bootstrap_ratings(bots: Sequence[str], deals: Sequence[Deal], samples: int = 200,
                      seed: int = 0) -> list[tuple[float, float, float]]:
    """Each bot's rating with a 95% percentile-bootstrap interval: the deals of each pair
    of bots are resampled with replacement, ``samples`` times. Returns (rating, low, high)."""
    rating = ratings_of_deals(bots, deals)
    by_pair: dict[tuple[str, str], list[Deal]] = {}
    for deal in deals:
        by_pair.setdefault((deal[0], deal[1]), []).append(deal)
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in bots]
    for _ in range(samples if deals else 0):
        sample = [rng.choice(pair) for pair in by_pair.values() for _ in pair]
        for column, value in zip(draws, ratings_of_deals(bots, sample), strict=True):
            column.append(value)
    out = []
    for value, column in zip(rating, draws, strict=True):
        if not column:
            out.append((value, value, value))
            continue
        column.sort()
        low = column[int(0.025 * (len(column) - 1))]
        high = column[math.ceil(0.975 * (len(column) - 1))]
        out.append((value, low, high))
    return out
