"""A Draw Bridge strategy, from the seat's view alone.

- Draw phase: a trick only decides who draws the stock's top card, so play to win
  it (as cheaply as possible) only when that card is shown and worth having;
  otherwise shed the lowest card and keep the high ones for the play phase.
- Auction: every card is known by elimination (RULES 1.3), so estimate the tricks
  each side would take in each strain, and make the call worth the most points at the
  table's rules if the auction ended there (``call_values``): pass, double, redouble,
  or a strain bid as low as it outbids. Without ``undertricks`` a failed contract
  costs nothing: a double only raises what a made contract scores, so the heuristic
  never doubles, and it bids only a contract it expects to make (``MIN_MAKE``), never a
  free sacrifice. With ``undertricks`` a double or a sacrifice is worth its price.
- Play: second hand wins as cheaply as it can or plays low; a leader cashes sure
  winners, declarer draws trumps first, otherwise leads low from the longest suit.

For ISMCTS (``cardtable.bots.ismcts``) it values the deal in progress as a chance
to win the *match* (``estimate_of = "match"``): the contract (as it stands, or as
the auction would end with both players bidding like the heuristic), the tricks
declarer has won, an estimate of the tricks still to come from the cards held,
spread over a range of trick counts, each scored under rule 1.6 and mapped to a
match chance from the scores and the target (``match_chance``). Its ``playout``
finishes the draw phase at random, bids the auction out with the heuristic and
values the contract at once; a playout from a deal whose play has begun plays the
cards out at random and values the match from the deal's score. (A random playout
cut after ``rollout_horizon`` steps used to be valued from the match scores only,
which had not moved, so every auction call scored 50%.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any

from cardtable.bots.base import Heuristic
from cardtable.cards import CARD_NAMES, RANKS, SUITS, cards_of
from cardtable.core import Action, State
from cardtable.drawbridge.game import POWER as CARD_POWER
from cardtable.drawbridge.game import DrawBridgeState
from cardtable.drawbridge.scoring import STRAINS, deal_points, match_chance

#: the ranks in bridge order: the two lowest, the ace highest
POWER = RANKS[1:] + RANKS[0]
ALL_CARDS = frozenset(CARD_NAMES)


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


#: how widely the tricks a side takes spread around ``estimate_tricks`` (a bell's width)
TRICK_SPREAD = 1.2
#: the least chance to make that a bid needs where going down is free (``undertricks``
#: off): a bid there is never only a sacrifice, which two such bidders would trade up
#: to 7NT deal after deal with nobody scoring
MIN_MAKE = 0.35


def contract_odds(estimate: float, level: int) -> float:
    """The chance that a declarer expected to take ``estimate`` tricks makes ``level``."""
    odds = 0.0
    for t, p in trick_odds(estimate, TRICK_SPREAD, 0, 13):
        if t >= 6 + level:
            odds += p
    return odds


def expected_points(estimate: float, level: int, strain: str, doubled: int,
                    undertricks: bool) -> float:
    """Declarer's expected points less the defender's for a contract (1.6, and 1.1's
    ``undertricks``), declarer expected to take ``estimate`` tricks."""
    index = STRAINS.index(strain)
    total = 0.0
    for tricks, odds in trick_odds(estimate, TRICK_SPREAD, 0, 13):
        mine, theirs = deal_points(level, index, doubled, tricks, undertricks)
        total += odds * (mine - theirs)
    return total


def call_values(ours_est: dict[str, float], theirs_est: dict[str, float],
                last_bid: tuple[int, str] | None, last_bidder: int | None, seat: int,
                legal: Iterable[str], doubled: int = 0,
                undertricks: bool = False) -> dict[str, float]:
    """Each call worth considering, with its expected points for ``seat`` less the
    opponent's if the auction ended after it (the opponent passing): a pass leaves the
    contract as it stands, a double or redouble doubles it, a bid is our contract. A bid
    is considered only where it makes often enough (``MIN_MAKE``) or, with
    ``undertricks``, where going down costs what it costs (a sacrifice by its price)."""
    legal = set(legal)
    values: dict[str, float] = {}
    if last_bid is None:
        values["pass"] = 0.0
    else:
        level, strain = last_bid
        if last_bidder == seat:
            values["pass"] = expected_points(ours_est[strain], level, strain, doubled,
                                             undertricks)
            if "redouble" in legal:
                values["redouble"] = expected_points(ours_est[strain], level, strain, 2,
                                                     undertricks)
        else:
            values["pass"] = -expected_points(theirs_est[strain], level, strain, doubled,
                                              undertricks)
            if "double" in legal:
                values["double"] = -expected_points(theirs_est[strain], level, strain, 1,
                                                    undertricks)
    for strain in STRAINS:
        for level in range(1, 8):
            call = f"{level}{strain}"
            if call not in legal:
                continue
            # every trick over six scores (1.6): the lowest legal level of a strain is
            # worth the most, a higher one only risks more
            if undertricks or contract_odds(ours_est[strain], level) >= MIN_MAKE:
                values[call] = expected_points(ours_est[strain], level, strain, 0,
                                               undertricks)
            break
    return values


def choose_call(ours_est: dict[str, float], theirs_est: dict[str, float],
                last_bid: tuple[int, str] | None, last_bidder: int | None, seat: int,
                legal: Iterable[str], doubled: int = 0, undertricks: bool = False) -> str:
    """The heuristic's call (1.4) from both sides' trick estimates per strain as declarer:
    the call of ``call_values`` worth the most at the table's rules; of calls worth the
    same, a pass first, then a double or redouble, then the lowest bid. Without
    ``undertricks`` a double only adds to what a made contract scores, so the heuristic
    never doubles there, and it never bids a contract it expects to fail."""
    values = call_values(ours_est, theirs_est, last_bid, last_bidder, seat, legal,
                         doubled, undertricks)
    order = list(values)
    return max(order, key=lambda call: (round(values[call], 6), -order.index(call)))


# -- valuing a deal in progress as a chance to win the match (for ISMCTS) -----------


def trick_odds(mean: float, spread: float, low: int, high: int) -> list[tuple[int, float]]:
    """A chance for each trick count ``low..high``: a bell around ``mean`` of width ``spread``.

    Plain IEEE arithmetic, in the order the batched kernel repeats it
    (``cardtable.vector.drawbridge_heuristic``): a square by multiplying (``** 2`` is the C
    library's ``pow``, which can differ from it in the last bit) and sums added left to
    right (``sum`` of floats compensates from Python 3.12 on)."""
    weights = []
    total = 0.0
    for t in range(low, high + 1):
        d = (t - mean) / spread
        w = math.exp(-(d * d) / 2)
        weights.append((t, w))
        total += w
    total = total or 1.0
    return [(t, w / total) for t, w in weights]


def contract_chance(scores: list[int], target: int, undertricks: bool, level: int,
                    strain: int, doubled: int, declarer: int, won: int, mean_more: float,
                    left: int) -> float:
    """Seat 0's match chance once the contract is played: declarer has ``won`` tricks and
    is expected to take ``mean_more`` of the ``left`` still to play (1.6 scoring)."""
    spread = 0.4 + 0.3 * math.sqrt(left)
    chance = 0.0
    for tricks, odds in trick_odds(won + mean_more, spread, won, won + left):
        points = deal_points(level, strain, doubled, tricks, undertricks)
        after = list(scores)
        after[declarer] += points[0]
        after[1 - declarer] += points[1]
        chance += odds * match_chance(after, target)
    return chance


def _suits_of(mask: int) -> dict[str, list[int]]:
    """``by_suit`` of a hand given as a card mask (a determinization's, in a search)."""
    out: dict[str, list[int]] = {s: [] for s in SUITS}
    for c in cards_of(mask):
        out[SUITS[c // 13]].append(CARD_POWER[c])
    for s in SUITS:
        out[s].sort(reverse=True)
    return out


def deal_value(state: DrawBridgeState) -> float:
    """Seat 0's match chance with the deal in progress valued from the cards (module
    docstring): a contract (the last bid while the auction runs), declarer's tricks won
    and an estimate of the tricks to come; before any bid, the match scores alone."""
    game = state.game
    scores = state.scores
    c = state.last_bid if state.phase in ("auction", "play") else None
    if c is None:
        return match_chance(scores, game.target)
    level, strain, doubled, declarer = c.level, c.strain, c.doubled, c.declarer
    tricks = state.tricks_won
    won = tricks[declarer]
    left = 13 - tricks[0] - tricks[1]
    hands = state.hand_masks
    more = estimate_tricks(_suits_of(hands[declarer]), _suits_of(hands[1 - declarer]),
                           STRAINS[strain])
    return contract_chance(scores, game.target, game.undertricks, level, strain, doubled,
                           declarer, won, min(float(left), more), left)


def bid_auction_out(state: DrawBridgeState) -> None:
    """Play the auction to its end with both seats calling like the heuristic (all cards
    are known from the auction on, so each side's estimates are fixed)."""
    hands = state.hand_masks
    suits = [_suits_of(hands[0]), _suits_of(hands[1])]
    est = [{st: estimate_tricks(suits[s], suits[1 - s], st) for st in STRAINS} for s in (0, 1)]
    while state.phase == "auction":
        seat = state.current_player
        assert seat is not None
        bid = state.last_bid
        last = None if bid is None else (bid.level, STRAINS[bid.strain])
        call = choose_call(est[seat], est[1 - seat], last,
                           None if bid is None else bid.declarer, seat,
                           [a.notation for a in state.legal_actions()],
                           0 if bid is None else bid.doubled, state.game.undertricks)
        state.apply(call)


class DrawBridgeHeuristic(Heuristic):
    # ISMCTS: a random playout (rollout="random") stops after this many steps and is
    # valued by ``evaluate``; the default ``playout`` below values the deal at once
    rollout_horizon = 60
    # what the search's win chance is of (cardtable.bots.Hint.estimate_of)
    estimate_of = "match"
    # the draw phase's hint: the perfect bot's card (its trained draw policy), measured
    # stronger than the heuristic's (docs/bots.md); from the auction on hints are exact
    hint_bot = "perfect"

    def root_for(self, state: State) -> str:
        """ISMCTS's root: "flat" in the auction (every call valued by ``playout``, which
        bids the auction out like the heuristic: a tree would answer each call with the
        opponent's untried calls at random, most of them absurd); UCB1 elsewhere."""
        return "flat" if state.phase == "auction" else "ucb"  # type: ignore[attr-defined]

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        view = state.view(seat, history=False)
        legal = state.legal_actions()
        phase = view["phase"]
        if phase == "auction":
            choice = self._call(view, seat, [str(a) for a in legal],
                                bool(state.game.options.get("undertricks")))
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

    def _call(self, view: dict[str, Any], seat: int, legal: list[str],
              undertricks: bool = False) -> str:
        mine = set(view["hand"])
        theirs = ALL_CARDS - mine - {c for _, c in view["played"]}
        ours_s, theirs_s = by_suit(mine), by_suit(theirs)
        ours_est = {st: estimate_tricks(ours_s, theirs_s, st) for st in STRAINS}
        theirs_est = {st: estimate_tricks(theirs_s, ours_s, st) for st in STRAINS}
        last_bid = None
        last_bidder = None
        doubled = 0
        for who, call in view["auction"]:
            bid = parse_call(call)
            if bid is not None:
                last_bid, last_bidder, doubled = bid, who, 0
            elif call in ("double", "redouble"):
                doubled += 1
        return choose_call(ours_est, theirs_est, last_bid, last_bidder, seat, legal,
                           doubled, undertricks)

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
        """Each seat's match chance (as 2p - 1) with the deal in progress valued."""
        assert isinstance(state, DrawBridgeState)
        p = deal_value(state)
        return [2 * p - 1, 1 - 2 * p]

    def playout(self, state: State, rng: random.Random) -> list[float]:
        """A determinization played on (module docstring); each seat's reward in [-1, 1]."""
        assert isinstance(state, DrawBridgeState)
        if state.phase == "play" and state.cards_played > 2 * 13:
            # the play has begun: play the deal out at random and value its score
            deal = state.deal_number
            while not state.is_terminal and state.deal_number == deal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            if state.is_terminal:
                return state.returns()
            p = match_chance(state.scores, state.game.target)
            return [2 * p - 1, 1 - 2 * p]
        while state.phase == "draw" and not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.phase == "auction":
            bid_auction_out(state)
        return self.evaluate(state)


HEURISTIC = DrawBridgeHeuristic()
