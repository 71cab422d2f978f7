"""Draw Bridge solved from the auction on: the exact play (RULES 1.5) and par (1.4-1.7).

Once the draw phase is over every card is known (RULES 1.3), so the rest of a deal is a
game of perfect information.

- ``solve(position)`` is the double-dummy value of a play position (both hands, the
  card on the table if any, the strain, who is to play): the tricks each seat takes
  from there with perfect play. ``card_values(position)`` gives that value after each
  legal card.
- ``trick_table(hands)`` is the tricks declarer takes in each strain, for each declarer
  (the other seat leads, 1.5).
- ``par(table, ...)`` solves the auction as a game over that table: each player
  maximises its chance to win the match (``match_value``); ``par_of(state)`` does it
  for the deal of a state at the auction.

The search itself (``cardtable.drawbridge._search``) runs compiled by numba when numba
is installed (``pip install cardtable[fast]``) and as plain Python otherwise; both give
the same answers. ``engine=`` picks one ("numba" or "python"); the default is the
fastest installed (``default_engine()``).
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from cardtable.cards import CARD_NAMES, NUM_CARDS, cards_of
from cardtable.core import OptionsError, PositionError
from cardtable.drawbridge import _search
from cardtable.drawbridge.game import (
    ACTIONS,
    BID,
    DOUBLE,
    PASS,
    POWER,
    REDOUBLE,
    TRUMP_SUIT,
    Contract,
    DrawBridgeState,
)
from cardtable.drawbridge.scoring import STRAINS, deal_points, match_chance

ENGINES = ("numba", "python")
HAND_SIZE = 13


# ---------------------------------------------------------------- the engines


@cache
def _compiled() -> ModuleType | None:
    """A second copy of ``_search`` with its functions compiled by numba, or None
    without numba."""
    try:
        import numba
    except ImportError:
        return None
    spec = importlib.util.spec_from_file_location("cardtable.drawbridge._search_numba",
                                                  _search.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba finds a function's module by its name
    spec.loader.exec_module(module)
    # cached on disk (in __pycache__, or numba's user cache when that is read-only): a
    # fresh process loads the compiled code in about a second instead of compiling again
    jit = numba.njit(cache=True)
    module.__dict__["_popcount"] = jit(module._popcount_loop)
    module.__dict__["_bitlen"] = jit(module._bitlen_loop)
    for name in ("_lane_of", "_remove", "_play_trick", "_quick_tricks", "_search"):
        module.__dict__[name] = jit(module.__dict__[name])
    return module


def default_engine() -> str:
    """"numba" when numba is installed, else "python"."""
    return "numba" if _compiled() is not None else "python"


class _Engine:
    """One engine's search functions and a fresh transposition table for each strain."""

    def __init__(self, engine: str | None) -> None:
        name = default_engine() if engine is None else engine
        if name not in ENGINES:
            raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        module = _search if name == "python" else _compiled()
        if module is None:
            raise OptionsError("engine 'numba' needs numba: pip install cardtable[fast]")
        self.name = name
        self.module = module
        self._tables: dict[int, Any] = {}

    def table(self, trump: int) -> Any:
        """The transposition table for ``trump`` (a lane, or -1), kept for this engine."""
        tt = self._tables.get(trump)
        if tt is None:
            if self.name == "numba":
                from numba import typed, types

                tt = typed.Dict.empty(types.int64, types.int64)
            else:
                tt = {}
            self._tables[trump] = tt
        return tt

    def search(self, h0: int, h1: int, leader: int, trump: int) -> int:
        """Seat 0's tricks from the start of a trick, exactly."""
        n = h0.bit_count()
        return int(self.module._search(h0, h1, leader, 0, trump, -1, n + 1, self.table(trump)))

    def answer(self, h0: int, h1: int, leader: int, card: int, trump: int) -> int:
        """Seat 0's tricks from a trick with ``card`` led, exactly."""
        n = h0.bit_count()
        return int(self.module._search(h0, h1, leader, card, trump, -1, n + 1,
                                       self.table(trump)))


# ---------------------------------------------------------------- positions


@dataclass(frozen=True)
class PlayPosition:
    """A position of the play phase, all of it known.

    ``hands``: each seat's cards as 52-bit masks (bit c for card c); ``strain``: an index
    of STRAINS (C D H S NT); ``to_move``: the seat to play; ``lead``: the card on the
    table, led by the other seat (no longer in its hand), or None at the start of a
    trick.
    """

    hands: tuple[int, int]
    strain: int
    to_move: int
    lead: int | None = None

    def __post_init__(self) -> None:
        if self.strain not in range(len(STRAINS)):
            raise PositionError(f"strain must be an index of {STRAINS}, not {self.strain!r}")
        if self.to_move not in (0, 1):
            raise PositionError(f"to_move must be 0 or 1, not {self.to_move!r}")
        h0, h1 = self.hands
        if h0 & h1 or (h0 | h1) >> NUM_CARDS or h0 < 0 or h1 < 0:
            raise PositionError("hands must be two disjoint sets of cards")
        mover, other = self.hands[self.to_move], self.hands[1 - self.to_move]
        if self.lead is None:
            if mover.bit_count() != other.bit_count():
                raise PositionError("at the start of a trick both hands hold as many cards")
        else:
            if self.lead not in range(NUM_CARDS) or (h0 | h1) >> self.lead & 1:
                raise PositionError(f"lead must be a card held by neither hand, not "
                                    f"{self.lead!r}")
            if mover.bit_count() != other.bit_count() + 1:
                raise PositionError("after a lead, the seat to play holds one card more")
        if mover.bit_count() > HAND_SIZE or mover == 0:
            raise PositionError("the seat to play holds 1 to 13 cards")

    @classmethod
    def of(cls, state: DrawBridgeState) -> PlayPosition:
        """The position of ``state`` in the play phase (the whole truth of that state:
        from the auction on both hands are known to both seats)."""
        contract = state.last_bid
        seat = state.current_player
        if state.phase != "play" or contract is None or seat is None:
            raise PositionError(f"the deal is in its {state.phase} phase, not the play")
        view = state.view(seat, history=False)
        lead = view["trick"][0][1] if view["trick"] else None
        return cls(state.hand_masks, contract.strain, seat,
                   None if lead is None else CARD_NAMES.index(lead))

    @property
    def trump(self) -> int:
        """The trump suit's lane in the search (card suits 0..3), -1 in no trump."""
        return TRUMP_SUIT[self.strain]

    def legal_cards(self) -> list[int]:
        """The cards the seat to play may play (1.5: follow suit if it can)."""
        hand = self.hands[self.to_move]
        if self.lead is not None:
            suited = [c for c in cards_of(hand) if c // 13 == self.lead // 13]
            if suited:
                return suited
        return cards_of(hand)


def _relative(position: PlayPosition) -> tuple[int, int, dict[int, int]]:
    """The hands in relative ranks (``_search``'s form, the lead back in the leader's
    hand) and the place of each card."""
    h0, h1 = position.hands
    leader = position.to_move if position.lead is None else 1 - position.to_move
    rel = [0, 0]
    owner = {c: 0 for c in cards_of(h0)} | {c: 1 for c in cards_of(h1)}
    if position.lead is not None:
        owner[position.lead] = leader
    places: dict[int, int] = {}
    for suit in range(4):
        held = sorted((c for c in owner if c // 13 == suit), key=POWER.__getitem__)
        for rank, card in enumerate(held):
            bit = 1 << (_search.LANE_BITS * suit + rank)
            places[card] = bit
            rel[owner[card]] |= bit
    return rel[0], rel[1], places


def _values(position: PlayPosition, engine: _Engine) -> dict[int, int]:
    """Seat 0's tricks from ``position`` on after each legal card."""
    h0, h1, places = _relative(position)
    trump = position.trump
    mover = position.to_move
    module = engine.module
    out: dict[int, int] = {}
    found: dict[int, int] = {}  # by the top of the card's run: equivalent cards
    mine = (h0, h1)[mover]
    for card in position.legal_cards():
        top = places[card]
        while top << 1 & mine:
            top <<= 1  # the run goes on up in the same hand (a lane holds at most 13)
        if top not in found:
            if position.lead is None:
                found[top] = engine.answer(h0, h1, mover, top, trump)
            else:
                c0, c1, winner = module._play_trick(h0, h1, 1 - mover, places[position.lead],
                                                    top, trump)
                rest = engine.search(int(c0), int(c1), int(winner), trump) if c0 else 0
                found[top] = rest + (winner == 0)
        out[card] = found[top]
    return out


def _solve(position: PlayPosition, run: _Engine) -> tuple[int, int]:
    h0, h1, places = _relative(position)
    mover = position.to_move
    if position.lead is None:
        zero = run.search(h0, h1, mover, position.trump)
    else:
        zero = run.answer(h0, h1, 1 - mover, places[position.lead], position.trump)
    return zero, h0.bit_count() - zero


def solve(position: PlayPosition, engine: str | None = None) -> tuple[int, int]:
    """The tricks each seat takes from ``position`` on with perfect play (a trick on the
    table counts for its winner).

    Examples:
        >>> from cardtable.cards import mask_of, parse_card
        >>> spades = mask_of([parse_card(c) for c in ("AS", "KS")])
        >>> other = mask_of([parse_card(c) for c in ("QS", "2H")])
        >>> solve(PlayPosition((spades, other), STRAINS.index("NT"), to_move=1), "python")
        (1, 1)

        Seat 1 leads the 2H, which wins (seat 0 holds no heart), then loses the QS.
    """
    return _solve(position, _Engine(engine))


def card_values(position: PlayPosition, engine: str | None = None) -> dict[int, int]:
    """For each legal card of the seat to play, the tricks that seat takes from
    ``position`` on (this trick included) when it plays that card and both play
    perfectly after it."""
    run = _Engine(engine)
    n = max(position.hands[0].bit_count(), position.hands[1].bit_count())
    zero = _values(position, run)
    return {card: v if position.to_move == 0 else n - v for card, v in zero.items()}


# ---------------------------------------------------------------- par


#: ``table[strain][declarer]``: the tricks declarer takes in that strain, the other seat
#: leading (strains indexed as STRAINS)
TrickTable = tuple[tuple[int, int], ...]


def trick_table(hands: tuple[int, int], engine: str | None = None) -> TrickTable:
    """For each strain and each declarer, the tricks declarer takes with perfect play
    from the first lead (1.5: declarer's opponent leads); ``hands`` are the two 13-card
    hands at the auction, as card masks."""
    run = _Engine(engine)
    rows = []
    for strain in range(len(STRAINS)):
        row = []
        for declarer in (0, 1):
            position = PlayPosition(hands, strain, 1 - declarer)
            if position.hands[0].bit_count() != HAND_SIZE:
                raise PositionError("a trick table is of two 13-card hands")
            zero, one = _solve(position, run)
            row.append(zero if declarer == 0 else one)
        rows.append((row[0], row[1]))
    return tuple(rows)


def match_value(scores: tuple[int, int] | list[int], target: int) -> float:
    """What the players of ``par`` maximise: seat 0's chance to win the match once a deal
    has moved the scores to ``scores`` (seat 1's is one minus it). 1 or 0 when a seat
    has reached the target (1.7); otherwise the match goes on with new deals whose cards
    nobody knows yet, valued as a race to the target (``match_chance``)."""
    return match_chance(list(scores), target)


@dataclass(frozen=True)
class Par:
    """The result of a deal between two perfect players (``par``).

    ``calls``: the auction they make (action ids; ties between equally good calls as
    ``Auction.best_call`` breaks them); ``contract``: where
    it ends, None when passed out; ``declarer_tricks``: what declarer takes;
    ``points``: (seat 0, seat 1) for the deal; ``value``: seat 0's match chance after
    it (``match_value``).
    """

    calls: tuple[int, ...]
    contract: Contract | None
    declarer_tricks: int
    points: tuple[int, int]
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"auction": [ACTIONS[c].notation for c in self.calls],
                "contract": None if self.contract is None else self.contract.to_json(),
                "declarer_tricks": self.declarer_tricks, "points": list(self.points),
                "value": self.value}


class Auction:
    """The auction (RULES 1.4) as a game of perfect information over a trick table: the
    value of every call, for the players of ``par``."""

    def __init__(self, table: TrickTable, scores: tuple[int, int] | list[int], target: int,
                 undertricks: bool, dealer: int) -> None:
        self.table = table
        self.scores = (scores[0], scores[1])
        self.target = target
        self.undertricks = undertricks
        self.dealer = dealer
        self._memo: dict[tuple[int, int, int], float] = {}
        self.passed_out = match_value(self.scores, target)

    def outcome(self, bid: int, doubled: int, declarer: int) -> tuple[Contract, int,
                                                                       tuple[int, int]]:
        """The contract of the bid ``bid`` (0..34: 1C .. 7NT), declarer's tricks, the
        points."""
        contract = Contract(bid // 5 + 1, bid % 5, doubled, declarer)
        tricks = self.table[contract.strain][declarer]
        mine, theirs = deal_points(contract.level, contract.strain, doubled, tricks,
                                   self.undertricks)
        points = (mine, theirs) if declarer == 0 else (theirs, mine)
        return contract, tricks, points

    def _contract_value(self, bid: int, doubled: int, declarer: int) -> float:
        _, _, points = self.outcome(bid, doubled, declarer)
        return match_value((self.scores[0] + points[0], self.scores[1] + points[1]),
                           self.target)

    def call_values(self, calls: list[int] | tuple[int, ...]) -> dict[int, float]:
        """Seat 0's match chance after each legal call that may follow ``calls`` (this
        deal's calls so far, action ids), both playing perfectly after it."""
        bid, doubled, bidder, to_act, opening = self._replay(calls)
        return dict(self._options(bid, doubled, bidder, to_act, opening))

    def _replay(self, calls: list[int] | tuple[int, ...]) -> tuple[int, int, int, int, bool]:
        bid, doubled, bidder, to_act = -1, 0, -1, self.dealer
        for call in calls:
            if call == DOUBLE:
                doubled = 1
            elif call == REDOUBLE:
                doubled = 2
            elif call != PASS:
                bid, doubled, bidder = call - BID, 0, to_act
            to_act = 1 - to_act
        return bid, doubled, bidder, to_act, len(calls) == 0

    def _options(self, bid: int, doubled: int, bidder: int, to_act: int,
                 opening: bool) -> list[tuple[int, float]]:
        """(call, seat 0's value) for each legal call, in the order ties are broken."""
        if bid < 0:
            rest = (self.passed_out if not opening
                    else self._best(self._options(-1, 0, -1, 1 - to_act, False), 1 - to_act))
            out = [(PASS, rest)]
        else:
            out = [(PASS, self._contract_value(bid, doubled, bidder))]
        out += [(BID + b, self._value(b, 0, to_act)) for b in range(bid + 1, 35)]
        if bid >= 0 and doubled == 0 and bidder != to_act:
            out.append((DOUBLE, self._value(bid, 1, bidder)))
        if bid >= 0 and doubled == 1 and bidder == to_act:
            out.append((REDOUBLE, self._value(bid, 2, bidder)))
        return out

    @staticmethod
    def _best(options: list[tuple[int, float]], seat: int) -> float:
        values = [v for _, v in options]
        return max(values) if seat == 0 else min(values)

    def _value(self, bid: int, doubled: int, bidder: int) -> float:
        """Seat 0's value once ``bidder``'s bid ``bid`` stands, doubled so far."""
        key = (bid, doubled, bidder)
        value = self._memo.get(key)
        if value is None:
            # after a bid or a redouble the other seat calls; after a double, the bidder
            to_act = bidder if doubled == 1 else 1 - bidder
            value = self._memo[key] = self._best(
                self._options(bid, doubled, bidder, to_act, False), to_act)
        return value

    def best_call(self, calls: list[int] | tuple[int, ...]) -> tuple[int, float]:
        """The perfect call after ``calls`` and seat 0's value. Of equally good calls,
        the one worth most if the opponent passed next (so a player who errs there pays
        for it), then the earliest of pass, the bids low to high, double, redouble."""
        bid, doubled, bidder, to_act, opening = self._replay(calls)
        sign = 1 if to_act == 0 else -1
        best: tuple[float, float] | None = None
        choice = (PASS, 0.0)
        for call, value in self._options(bid, doubled, bidder, to_act, opening):
            if call == PASS:
                now = self.passed_out if bid < 0 else self._contract_value(bid, doubled, bidder)
            elif call == DOUBLE:
                now = self._contract_value(bid, 1, bidder)
            elif call == REDOUBLE:
                now = self._contract_value(bid, 2, bidder)
            else:
                now = self._contract_value(call - BID, 0, to_act)
            key = (sign * value, sign * now)
            if best is None or key > best:
                best, choice = key, (call, value)
        return choice

    def par(self, calls: list[int] | tuple[int, ...] = ()) -> Par:
        """The rest of the auction between perfect players after ``calls``, and its
        result."""
        made = list(calls)
        value = 0.0
        while True:
            bid = self._replay(made)[0]
            call, value = self.best_call(made)
            made.append(call)
            if call == PASS and (bid >= 0 or len(made) == 2):
                break
        bid, doubled, bidder, _, _ = self._replay(made)
        if bid < 0:
            return Par(tuple(made), None, 0, (0, 0), value)
        contract, tricks, points = self.outcome(bid, doubled, bidder)
        return Par(tuple(made), contract, tricks, points, value)


def auction_of(state: DrawBridgeState, engine: str | None = None) -> Auction:
    """The ``Auction`` of the deal of ``state`` (in its auction or play phase): its trick
    table from the hands at the auction, the match scores before the deal, the
    options."""
    if state.phase not in ("auction", "play"):
        raise PositionError(f"the deal is in its {state.phase} phase: par is known from "
                            "the auction on")
    hands = _auction_hands(state)
    game = state.game
    return Auction(trick_table(hands, engine), state.scores, game.target, game.undertricks,
                   state.view(None, history=False)["dealer"])


def _auction_hands(state: DrawBridgeState) -> tuple[int, int]:
    """Both hands as they were when the auction of the deal in progress started."""
    h0, h1 = state.hand_masks
    view = state.view(None, history=False)
    tricks_played = view["played"][2 * 13:]
    hands = [h0, h1]
    for seat, name in tricks_played:
        hands[seat] |= 1 << CARD_NAMES.index(name)
    return hands[0], hands[1]
