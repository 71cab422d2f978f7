"""The arena's standings as a picture: ratings with their intervals, pairwise win rates.

matplotlib is an optional extra (``pip install 'cardtable[plot]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cardtable.core import OptionsError

if TYPE_CHECKING:
    from cardtable.arena.standings import BotStanding, PairStanding

FORMATS = (".png", ".svg")


def check_path(path: Path) -> None:
    """Refuse, before any game is played, a picture that could not be drawn."""
    if path.suffix.lower() not in FORMATS:
        raise OptionsError(f"--plot {path}: name a .png or .svg file")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionsError("--plot needs matplotlib: pip install 'cardtable[plot]'") from None


def plot(rows: Sequence[BotStanding], pairs: Sequence[PairStanding], path: Path,
         title: str = "") -> None:
    """Draw the ratings (95% bootstrap intervals) beside the matrix of pairwise win rates
    (row bot's score against column bot, with the 95% paired interval over deals)."""
    check_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(rows, key=lambda r: r.elo)
    bots = [r.bot for r in reversed(order)]
    size = len(bots)
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(12, 1.5 + 0.8 * max(size, 3)),
        gridspec_kw={"width_ratios": [1, 1.1]}, layout="constrained")
    ys = range(len(order))
    left.errorbar([r.elo for r in order], ys,
                  xerr=[[r.elo - r.elo_low for r in order], [r.elo_high - r.elo for r in order]],
                  fmt="o", color="tab:blue", ecolor="tab:blue", capsize=4)
    left.set_yticks(list(ys), [r.bot for r in order])
    left.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    left.set_xlabel("Bradley-Terry rating (Elo scale), 95% bootstrap interval")
    left.grid(axis="x", alpha=0.3)

    rate: dict[tuple[str, str], tuple[float, float, float]] = {}
    for p in pairs:
        rate[p.bot, p.opponent] = (p.win_rate, p.paired_low, p.paired_high)
        rate[p.opponent, p.bot] = (1 - p.win_rate, 1 - p.paired_high, 1 - p.paired_low)
    matrix = [[rate.get((a, b), (float("nan"),))[0] for b in bots] for a in bots]
    image = right.imshow(matrix, cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            if (a, b) in rate:
                value, low, high = rate[a, b]
                right.text(j, i, f"{value:.0%}\n{low:.0%}-{high:.0%}", ha="center",
                           va="center", fontsize=8,
                           color="white" if abs(value - 0.5) > 0.3 else "black")
    right.set_xticks(range(size), bots, rotation=30, ha="right")
    right.set_yticks(range(size), bots)
    right.set_title("win rate of the row's bot against the column's\n"
                    "(95% interval over deals, each deal played both ways)", fontsize=9)
    figure.colorbar(image, ax=right, shrink=0.8)
    if title:
        figure.suptitle(title)
    try:
        figure.savefig(path, dpi=120)
    except OSError as exc:
        raise OptionsError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(figure)
