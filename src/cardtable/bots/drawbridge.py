"""A Draw Bridge strategy, from the seat's view alone.

- Draw phase: a trick only decides who draws the stock's top card, so play to win
  it (as cheaply as possible) only when that card is shown and worth having;
  otherwise shed the lowest card and keep the high ones for the play phase.
- Auction: every card is known by elimination (RULES 1.3), so estimate the tricks
  each side would take in each strain, bid the best strain as low as it outbids,
  double a contract the opponent cannot make, redouble one we make with a trick
  to spare.
- Play: second hand wins as cheaply as it can or plays low; a leader cashes sure
  winners, declarer draws trumps first, otherwise leads low from the longest suit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from cardtable.core import Action, State

POWER = "23456789TJQKA"  # bridge order: ace high
SUITS = "SHDC"
STRAINS = ("C", "D", "H", "S", "NT")
ALL_CARDS = frozenset(r + s for r in POWER for s in SUITS)


def power(card: str) -> int:
    return POWER.index(card[0])


def by_suit(cards: Iterable[str]) -> dict[str, list[int]]:
    """Powers of the cards in each suit, highest first."""
    out: dict[str, list[int]] = {s: [] for s in SUITS}
    for c in cards:
        out[c[1]].append(power(c))
    for s in SUITS:
        out[s].sort(reverse=True)
    return out


def estimate_tricks(ours: dict[str, list[int]], theirs: dict[str, list[int]],
                    strain: str) -> float:
    """Tricks the side holding ``ours`` would take as declarer in ``strain``, all cards known."""
    trump = None if strain == "NT" else strain
    tricks = 0.0
    for s in SUITS:
        mine, other = ours[s], theirs[s]
        top = other[0] if other else -1
        winners = sum(1 for p in mine if p > top)
        if s == trump:
            # trumps: the top ones, then the length left after drawing theirs
            tricks += max(winners, len(mine) - len(other)) if len(mine) > len(other) else winners
        elif trump is not None and not other and theirs[trump]:
            continue  # they ruff this suit
        else:
            tricks += winners + 0.5 * max(0, len(mine) - len(other) - winners)
    if trump is not None:
        spare = len(ours[trump]) - len(theirs[trump])
        if spare > 0:
            ruffs = sum(max(0, len(theirs[s]) - len(ours[s])) for s in SUITS if s != trump)
            tricks += 0.7 * min(spare, ruffs)
    return min(13.0, tricks)


def parse_call(call: str) -> tuple[int, str] | None:
    if call[0].isdigit():
        return int(call[0]), call[1:]
    return None


class DrawBridgeHeuristic:
    # ISMCTS: play out to about the end of the deal, then judge by the match scores
    rollout_horizon = 60

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        view = state.view(seat, history=False)
        legal = state.legal_actions()
        phase = view["phase"]
        if phase == "auction":
            choice = self._call(view, seat, [str(a) for a in legal])
        elif phase == "draw":
            choice = self._draw_card(view, state.game.options, [str(a) for a in legal])
        else:
            choice = self._play_card(view, seat, [str(a) for a in legal])
        return [(1.0 if str(a) == choice else 0.0, a) for a in legal]

    # -- draw phase (1.3) -------------------------------------------------

    def _draw_card(self, view: dict[str, Any], options: dict[str, Any], legal: list[str]) -> str:
        top = view.get("stock_top")
        lowest = min(legal, key=power)
        if top is None or power(top) < POWER.index("J"):
            return lowest  # the card drawn is unknown or not worth a good card
        if not view["trick"]:
            best = max(legal, key=power)  # leading: the highest card is the surest winner
            return best if power(best) >= power(top) else lowest
        led = view["trick"][0][1]
        suit_led = options.get("draw_trick_winner") == "suit-led"
        winners = [c for c in legal if power(c) > power(led) and (not suit_led or c[1] == led[1])]
        cheapest = min(winners, key=power) if winners else None
        if cheapest is not None and power(cheapest) <= power(top):
            return cheapest
        return lowest

    # -- auction (1.4) ----------------------------------------------------

    def _call(self, view: dict[str, Any], seat: int, legal: list[str]) -> str:
        mine = set(view["hand"])
        theirs = ALL_CARDS - mine - {c for _, c in view["played"]}
        ours_s, theirs_s = by_suit(mine), by_suit(theirs)
        ours_est = {st: estimate_tricks(ours_s, theirs_s, st) for st in STRAINS}
        last_bid = None
        last_bidder = None
        for who, call in view["auction"]:
            bid = parse_call(call)
            if bid is not None:
                last_bid, last_bidder = bid, who
        if ("redouble" in legal and last_bid is not None
                and ours_est[last_bid[1]] >= 6 + last_bid[0] + 1):
            return "redouble"
        if "double" in legal and last_bid is not None and last_bidder != seat:
            level, strain = last_bid
            if estimate_tricks(theirs_s, ours_s, strain) < 6 + level - 0.5:
                return "double"
        for strain in sorted(STRAINS, key=lambda st: -ours_est[st]):
            most = math.floor(ours_est[strain]) - 6
            for level in range(1, most + 1):
                if f"{level}{strain}" in legal:
                    if last_bidder == seat and last_bid is not None:
                        return "pass"  # our own contract stands
                    return f"{level}{strain}"
        return "pass"

    # -- play phase (1.5) -------------------------------------------------

    def _play_card(self, view: dict[str, Any], seat: int, legal: list[str]) -> str:
        contract = view["contract"]
        trump = None if contract["strain"] == "NT" else contract["strain"]
        mine = set(view["hand"])
        theirs = by_suit(ALL_CARDS - mine - {c for _, c in view["played"]})
        if view["trick"]:
            led = view["trick"][0][1]
            follow = [c for c in legal if c[1] == led[1]]
            if follow:
                beat = [c for c in follow if power(c) > power(led)]
                return min(beat or follow, key=power)
            trumps = [c for c in legal if c[1] == trump]
            if trumps:
                return min(trumps, key=power)
            return min(legal, key=power)
        declarer = contract["declarer"] == seat
        if declarer and trump is not None and theirs[trump]:
            top_trumps = [c for c in legal if c[1] == trump and power(c) > theirs[trump][0]]
            if top_trumps:
                return max(top_trumps, key=power)
        for card in sorted(legal, key=power, reverse=True):
            other = theirs[card[1]]
            safe = (other and power(card) > other[0]) or (
                not other and (trump is None or card[1] == trump or not theirs[trump]))
            if safe:
                return card
        counts = by_suit(mine)
        side = [c for c in legal if c[1] != trump] or legal
        return min(side, key=lambda c: (-len(counts[c[1]]), power(c)))

    def evaluate(self, state: State) -> list[float]:
        view = state.view(None, history=False)
        a, b = view["scores"]
        diff = (a - b) / max(1, view["target"])
        return [math.tanh(3 * diff), math.tanh(-3 * diff)]


HEURISTIC = DrawBridgeHeuristic()
