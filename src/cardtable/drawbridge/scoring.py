"""Scoring a Draw Bridge deal (RULES.md 1.6, option ``undertricks`` of 1.1)."""

from __future__ import annotations

from typing import Any

from cardtable.core import OptionsError

#: 1.4: the strains, low to high
STRAINS = ("C", "D", "H", "S", "NT")
NO_TRUMP = 4
#: 1.6: a contract doubled scores twice, redoubled four times
DOUBLING_FACTOR = (1, 2, 4)
#: 1.1 undertricks: 50 per undertrick, 100 doubled, 200 redoubled
UNDERTRICK_POINTS = (50, 100, 200)
BOOK = 6


def trick_points(strain: int, odd_tricks: int) -> int:
    """1.6: points for ``odd_tricks`` tricks over the book, undoubled.

    Examples:
        >>> trick_points(STRAINS.index("NT"), 4)
        130
    """
    if odd_tricks <= 0:
        return 0
    if strain == NO_TRUMP:
        return 40 + 30 * (odd_tricks - 1)
    return (20 if strain <= 1 else 30) * odd_tricks


def deal_points(level: int, strain: int, doubled: int, tricks: int,
                undertricks: bool) -> tuple[int, int]:
    """(declarer, defender) points, inputs already checked; ``strain`` is an index of STRAINS."""
    if tricks >= BOOK + level:
        # 1.6: every trick over six counts, not only those bid
        return trick_points(strain, tricks - BOOK) * DOUBLING_FACTOR[doubled], 0
    if undertricks:
        return 0, (BOOK + level - tricks) * UNDERTRICK_POINTS[doubled]
    return 0, 0  # 1.6: a failed contract scores nothing


def parse_strain(text: Any) -> int:
    """The index in STRAINS of ``C D H S NT`` (any case; ``N`` for no trump); OptionsError
    if none."""
    if isinstance(text, str):
        t = text.strip().upper()
        if t == "N":
            t = "NT"
        if t in STRAINS:
            return STRAINS.index(t)
    raise OptionsError(f"strain must be one of C, D, H, S, NT, not {text!r}")


def _int_in(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionsError(f"{name} must be an integer from {low} to {high}, not {value!r}")
    return value


def score_deal(level: int, strain: str, doubled: int, tricks: int,
               undertricks: bool = False) -> tuple[int, int]:
    """Points ``(declarer, defender)`` for one deal under rule 1.6.

    ``level`` 1..7, ``strain`` one of ``C D H S NT``, ``doubled`` 0, 1 (doubled) or
    2 (redoubled), ``tricks`` what declarer won in the play phase (0..13),
    ``undertricks`` the option of rule 1.1. A bad input is an OptionsError (a ValueError).

    Examples:
        >>> score_deal(2, "S", 1, 9)
        (180, 0)
        >>> score_deal(3, "NT", 0, 10)
        (130, 0)
        >>> score_deal(4, "H", 2, 8, undertricks=True)
        (0, 400)
    """
    _int_in("level", level, 1, 7)
    index = parse_strain(strain)
    _int_in("doubled", doubled, 0, 2)
    _int_in("tricks", tricks, 0, 13)
    if not isinstance(undertricks, bool):
        raise OptionsError(f"undertricks must be true or false, not {undertricks!r}")
    return deal_points(level, index, doubled, tricks, undertricks)


def match_chance(scores: list[int], target: int) -> float:
    """Seat 0's chance to win the match from ``scores`` between deals (1.7).

    Only one side scores in a deal, so the match is a race to the target: the chance
    is ``b^2 / (a^2 + b^2)`` for the points ``a``, ``b`` each seat still needs (0.5 when
    level, 0.8 needing half what the opponent needs, 1 once the target is reached).
    """
    need0 = target - scores[0]
    need1 = target - scores[1]
    if need0 <= 0:
        return 1.0
    if need1 <= 0:
        return 0.0
    return need1 * need1 / (need0 * need0 + need1 * need1)
