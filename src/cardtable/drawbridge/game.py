"""Draw Bridge (RULES.md section 1): a two-player match of bridge deals, each with a draw phase.

Hot state: hands are 52-bit masks (bit ``c`` for card ``c``), the stock is a list
with its top at the end, the cards played this deal one list. Precomputed tables
give who wins any two-card trick, the cards of any one-suit part of a hand, and
the legal calls after any auction.

A match is one state: when a deal ends it is scored and the next one is dealt
(chance inside ``_apply``); ``history`` holds every action of the match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from cardtable.cards import (
    CARD_NAMES,
    NUM_CARDS,
    SUIT_NAMES,
    card_names,
    cards_of,
    parse_card,
)
from cardtable.core import (
    Action,
    Declaration,
    Game,
    IllegalActionError,
    MoveEvent,
    Observation,
    OptionSpec,
    PositionError,
    State,
    part,
)
from cardtable.drawbridge.scoring import STRAINS, deal_points

DRAW_TRICK_WINNERS = ("highest", "suit-led")

#: the game, declared once (RULES 1.1)
DECLARATION = Declaration(
    name="drawbridge",
    title="Draw Bridge",
    players=(2,),
    default_players=2,
    options=(
        OptionSpec("target", 100, "int", minimum=1,
                   help="The match points a player needs to win the match."),
        OptionSpec("show_stock_top", False, "bool",
                   help="The top card of the stock is shown to both players before each "
                        "trick of the draw phase."),
        OptionSpec("follow_suit_in_draw", False, "bool",
                   help="Players must follow suit in the draw phase too."),
        OptionSpec("draw_trick_winner", "highest", "choice", choices=DRAW_TRICK_WINNERS,
                   help="Who wins a trick of the draw phase: the highest-ranked card, or "
                        "the highest card of the suit led."),
        OptionSpec("undertricks", False, "bool",
                   help="A failed contract gives the defender 50 points per undertrick "
                        "(100 doubled, 200 redoubled)."),
    ),
    phases=("draw", "auction", "play"),
    exports=("pbn",),
    blurb="Two players: win tricks to draw the cards, then bid and play them out.",
    review=True,
    # the source gives a failed contract no penalty, so two strong players need never end
    # a match (docs/bots.md): the page's tables play with undertricks on
    house_rules=(("undertricks", True),),
)

HAND_SIZE = 13
DRAW_TRICKS = 13  # 1.3: the stock of 26 cards lasts 13 tricks
DEFAULTS: dict[str, Any] = DECLARATION.defaults

DRAW, AUCTION, PLAY, OVER = range(4)
PHASES = ("draw", "auction", "play", "over")

# ---------------------------------------------------------------- the action space
# ids 0..51 play a card (id = card); then the 38 calls: 1C 1D 1H 1S 1NT 2C .. 7NT, pass,
# double, redouble. A card and a bid may share a spelling ("2S"): notation is read in
# the state's phase.
BID = NUM_CARDS
PASS = BID + 7 * len(STRAINS)
DOUBLE = PASS + 1
REDOUBLE = PASS + 2
CALL_NAMES = tuple(f"{level}{strain}" for level in range(1, 8) for strain in STRAINS) + (
    "pass", "double", "redouble")
ACTIONS: tuple[Action, ...] = tuple(
    Action(i, name) for i, name in enumerate(CARD_NAMES + CALL_NAMES))


def bid_id(level: int, strain: int) -> int:
    """The action id of a bid: level 1..7, strain an index of STRAINS."""
    return BID + 5 * (level - 1) + strain


_CALL_IDS: dict[str, int] = {name.upper(): BID + i for i, name in enumerate(CALL_NAMES)}
_CALL_IDS.update({f"{level}N": bid_id(level, 4) for level in range(1, 8)})
_CALL_IDS.update({"P": PASS, "X": DOUBLE, "DBL": DOUBLE, "XX": REDOUBLE, "RDBL": REDOUBLE})


def parse_call(text: str) -> int | None:
    """The call id of ``1C``..``7NT`` (``N`` for ``NT``), ``pass``/``p``, ``double``/``x``,
    ``redouble``/``xx`` in any case, or None."""
    return _CALL_IDS.get(text.strip().upper())


def _parse_card_id(text: str) -> int | None:
    try:
        return parse_card(text)
    except ValueError:
        return None


# 1.5: a trump suit per strain (card suits S H D C are 0..3), -1 in no trump
TRUMP_SUIT = (3, 2, 1, 0, -1)
# rank order for tricks: 2 lowest .. ace highest (card ranks are indexed A=0 .. K=12)
POWER = tuple((c % 13 - 1) % 13 for c in range(NUM_CARDS))


def _beats_table(trump: int, by_suit: bool) -> bytes:
    """Entry ``lead * 52 + follow`` is 1 when the second card of a trick wins it."""
    table = bytearray(NUM_CARDS * NUM_CARDS)
    for lead in range(NUM_CARDS):
        for follow in range(NUM_CARDS):
            if not by_suit or lead // 13 == follow // 13:
                # 1.3 ruling: of two equal ranks, the card led wins
                table[lead * NUM_CARDS + follow] = POWER[follow] > POWER[lead]
            else:
                # another suit wins only as a trump
                table[lead * NUM_CARDS + follow] = follow // 13 == trump
    return bytes(table)


#: 1.5: who wins a play-phase trick, per strain: the highest trump, else the highest of the suit led
BEATS_PLAY = tuple(_beats_table(trump, by_suit=True) for trump in TRUMP_SUIT)
#: 1.3 / option draw_trick_winner: the highest rank of any suit, or the highest of the suit led
BEATS_DRAW = {"highest": _beats_table(-1, by_suit=False), "suit-led": BEATS_PLAY[4]}

SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASK_OF = tuple(SUIT_MASKS[c // 13] for c in range(NUM_CARDS))
_S, _H, _D, _C = SUIT_MASKS


class _CardsOfSuitMask(dict[int, list[int]]):
    """The cards of a one-suit part of a hand, each list built once (shared: never mutate)."""

    def __missing__(self, mask: int) -> list[int]:
        cards = self[mask] = cards_of(mask)
        return cards


_CARDS_OF = _CardsOfSuitMask()

# 1.4: the legal calls, by the lowest bid still allowed (BID + 35: none) and what the
# last call was: 0 nothing to double (start, an opening pass, a redouble), 1 the
# opponent's bid (double allowed), 2 the opponent's double of your bid (redouble allowed)
_CALL_LISTS = tuple(
    tuple(list(range(lowest, PASS)) + [PASS] + extra for extra in ([], [DOUBLE], [REDOUBLE]))
    for lowest in range(BID, PASS + 1)
)


# ---------------------------------------------------------------- contracts and records


@dataclass(frozen=True, slots=True)
class Contract:
    """The final bid of an auction: level 1..7, strain index, doubled 0..2, declarer seat."""

    level: int
    strain: int
    doubled: int
    declarer: int

    def __str__(self) -> str:
        return f"{self.level}{STRAINS[self.strain]}" + ("", "X", "XX")[self.doubled]

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "strain": STRAINS[self.strain], "doubled": self.doubled,
                "declarer": self.declarer}


@dataclass(frozen=True)
class DealRecord:
    """A finished deal, all of it public once the auction starts (for PBN and the views)."""

    number: int
    dealer: int
    #: each seat's 13 cards when the auction started, as masks
    hands: tuple[int, int]
    calls: tuple[int, ...]
    #: the play phase: (seat, card) in order
    plays: tuple[tuple[int, int], ...]
    #: None when the deal was passed out
    contract: Contract | None
    declarer_tricks: int
    points: tuple[int, int]

    @cached_property
    def _notation(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...],
                                 tuple[str, ...]]:
        """The two hands, the auction and the play in notation, worked out once."""
        hand0, hand1 = (tuple(card_names(cards_of(h))) for h in self.hands)
        return (hand0, hand1, tuple(ACTIONS[c].notation for c in self.calls),
                tuple(CARD_NAMES[card] for _, card in self.plays))

    def to_json(self) -> dict[str, Any]:
        hand0, hand1, auction, play = self._notation
        return {
            "deal_number": self.number,
            "dealer": self.dealer,
            "hands": [list(hand0), list(hand1)],
            "auction": list(auction),
            "play": list(play),  # who played each card follows from the tricks (1.5)
            "contract": None if self.contract is None else self.contract.to_json(),
            "declarer_tricks": self.declarer_tricks,
            "points": list(self.points),
        }



@dataclass(frozen=True, slots=True)
class TrickResult:
    """A completed trick (the view's ``last_trick``): public, both cards were face up."""

    #: the deal it was played in, and its phase: "draw" or "play"
    deal_number: int
    phase: str
    #: (seat, card) for the card led, then the card that followed
    cards: tuple[tuple[int, int], tuple[int, int]]
    winner: int

    def to_json(self) -> dict[str, Any]:
        (leader, lead), (follower, follow) = self.cards
        return {"deal_number": self.deal_number, "phase": self.phase,
                "cards": [[leader, CARD_NAMES[lead]], [follower, CARD_NAMES[follow]]],
                "winner": self.winner}


#: a completed trick as the state keeps it: deal number, phase, leader, card led, card
#: that followed, winner (a TrickResult is built only for an observation)
_Trick = tuple[int, int, int, int, int, int]


def trick_result(trick: _Trick | None) -> TrickResult | None:
    """The TrickResult of a trick as the state keeps it."""
    if trick is None:
        return None
    number, phase, leader, lead, follow, winner = trick
    return TrickResult(number, PHASES[phase], ((leader, lead), (1 - leader, follow)), winner)


# ---------------------------------------------------------------- the game


# ---------------------------------------------------------------- what a seat may know
# (typed; built by view.py)


@dataclass(frozen=True, slots=True)
class DealResult:
    """The public result of a finished deal (the view's ``last_deal``)."""

    number: int
    #: None when the deal was passed out
    contract: Contract | None
    declarer_tricks: int
    points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class DrawBridgeObservation(Observation):
    """What one seat (None: a spectator) may know of a Draw Bridge match; cards are ids."""

    seat: int | None
    #: "draw", "auction", "play" or "over"
    phase: str
    deal_number: int
    dealer: int
    #: the seat to act, None when the match is over
    current_player: int | None
    winners: tuple[int, ...]
    #: the seat's cards as a 52-bit mask (bit c for card c); 0 for a spectator
    hand: int
    hand_sizes: tuple[int, int]
    stock_size: int
    #: the face-up top card of the stock (show_stock_top, draw phase), else None
    stock_top: int | None
    #: (seat that took it, card) for each shown stock card taken this deal (show_stock_top)
    shown_draws: tuple[tuple[int, int], ...]
    #: the cards the seat drew this deal, in order; () for a spectator
    drawn: tuple[int, ...]
    #: (seat, card) for every card played this deal, both phases, in order
    played: tuple[tuple[int, int], ...]
    #: the card led to the trick in progress, None when no trick is open
    lead: int | None
    #: (seat, action id) for every call of this deal's auction
    auction: tuple[tuple[int, int], ...]
    contract: Contract | None
    #: play-phase tricks won this deal, per seat
    tricks_won: tuple[int, int]
    #: match points
    scores: tuple[int, int]
    target: int
    last_deal: DealResult | None
    #: the last completed trick of the match (this deal's, or the deal before's when
    #: none is done yet), None before the first
    last_trick: TrickResult | None


class DrawBridgeGame(Game):
    """Draw Bridge with its options checked (RULES 1.1)."""

    declaration = DECLARATION
    name = DECLARATION.name
    decks = 1
    actions = ACTIONS

    def __init__(self, **options: Any) -> None:
        opts = DECLARATION.read_options(options)
        self.target: int = opts["target"]
        self.show_stock_top: bool = opts["show_stock_top"]
        self.follow_suit_in_draw: bool = opts["follow_suit_in_draw"]
        self.draw_trick_winner: str = opts["draw_trick_winner"]
        self.undertricks: bool = opts["undertricks"]
        self.options = opts
        self.num_players = 2

    def _facts(self) -> dict[str, Any]:
        """1.4: the call grid, each bid a level and a strain, lowest strain first."""
        return {"strains": list(STRAINS), "levels": list(range(1, 8)),
                # a game of tricks: the page offers the peek at the last trick, the
                # hold of a finished one and auto-play of a single legal card
                "tricks": True}

    def setup(self, **position: Any) -> DrawBridgeState:
        """The start of a deal, before the first trick (API.md, Positions)."""
        state = super().setup(**position)
        assert isinstance(state, DrawBridgeState)
        return state

    def _deal(self, rng: random.Random) -> DrawBridgeState:
        state = DrawBridgeState(self, rng, [0, 0])
        state._deal_new(1, rng.randrange(2))  # 1.2: the first dealer is chosen at random
        return state

# ---------------------------------------------------------------- the state


class DrawBridgeState(State):
    """A Draw Bridge match: the current deal, the scores and the finished deals."""

    game: DrawBridgeGame

    def __init__(self, game: DrawBridgeGame, rng: random.Random, scores: list[int]) -> None:
        self._init_base(game, rng)
        self._scores = scores
        self._records: list[DealRecord] = []
        # the current deal as dealt: (number, dealer, hands, stock top first, scores
        # and number of records before it); replaying its actions rebuilds the deal
        self._deal_start: tuple[int, int, tuple[int, int], tuple[int, ...], tuple[int, ...],
                                int] = (0, 0, (0, 0), (), (), 0)
        self._deal_number = 0
        self._dealer = 0
        self._phase = DRAW
        self._to_act: int | None = 0
        self._hands = [0, 0]
        self._stock: list[int] = []  # top at the end
        self._played: list[int] = []  # every card played this deal, in order
        self._winners: list[int] = []  # the winner of each finished trick of this deal
        self._lead = -1  # the card led to the trick in progress, -1 when none
        self._beats = BEATS_DRAW[game.draw_trick_winner]
        self._must_follow = game.follow_suit_in_draw
        self._auction_hands = (0, 0)
        self._calls: list[int] = []
        self._lowest_bid = BID
        self._call_kind = 0
        self._bidder = -1
        self._doubled = 0
        self._contract: Contract | None = None
        self._tricks_won = [0, 0]
        self._winner: int | None = None
        # the last completed trick, kept as it completes; and the one before this deal
        self._last_trick: _Trick | None = None
        self._trick_before_deal: _Trick | None = None

    # -- dealing ---------------------------------------------------------

    def _deal_new(self, number: int, dealer: int) -> None:
        """1.2: shuffle; 13 cards each, one at a time, non-dealer first; the rest is the stock."""
        deck = list(range(NUM_CARDS))
        self._rng.shuffle(deck)
        hands = [0, 0]
        for i in range(2 * HAND_SIZE):
            hands[(dealer + 1 + i) % 2] |= 1 << deck[i]
        self._begin_deal(number, dealer, (hands[0], hands[1]), tuple(deck[2 * HAND_SIZE:]))

    def _begin_deal(self, number: int, dealer: int, hands: tuple[int, int],
                    stock: tuple[int, ...]) -> None:
        self._deal_start = (number, dealer, hands, stock, tuple(self._scores), len(self._records))
        self._trick_before_deal = self._last_trick
        self._restart_deal()

    def _restart_deal(self) -> None:
        """Put the current deal back as dealt (with the match as it stood then)."""
        number, dealer, hands, stock, scores, records = self._deal_start
        self._deal_number = number
        self._dealer = dealer
        self._scores = list(scores)
        del self._records[records:]
        self._phase = DRAW
        self._to_act = 1 - dealer  # 1.3: the non-dealer leads the first trick
        self._hands = list(hands)
        self._stock = list(reversed(stock))
        self._played = []
        self._winners = []
        self._lead = -1
        self._beats = BEATS_DRAW[self.game.draw_trick_winner]
        self._must_follow = self.game.follow_suit_in_draw
        self._auction_hands = (0, 0)
        self._calls = []
        self._lowest_bid = BID
        self._call_kind = 0
        self._bidder = -1
        self._doubled = 0
        self._contract = None
        self._tricks_won = [0, 0]
        self._winner = None
        self._last_trick = self._trick_before_deal

    def _deal_actions(self) -> list[int]:
        """The action ids of the current deal so far, in order."""
        played = self._played
        return played[:2 * DRAW_TRICKS] + self._calls + played[2 * DRAW_TRICKS:]

    def _replay(self, actions: list[int]) -> None:
        """Play ``actions`` from the deal's start; PositionError at the first illegal one."""
        for aid in actions:
            if self._to_act is None:
                raise PositionError(f"{ACTIONS[aid]} comes after the end of the match")
            if aid not in self._legal_action_ids():
                raise PositionError(
                    f"{ACTIONS[aid]} is not legal in this deal: {self._why_illegal(ACTIONS[aid])}")
            self._apply(ACTIONS[aid])
        self._legal = self._legal_ids = self._news = None

    # -- the position ----------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self._to_act

    @property
    def is_terminal(self) -> bool:
        return self._to_act is None

    @property
    def scores(self) -> list[int]:
        """Match points per seat."""
        return list(self._scores)

    @property
    def winners(self) -> list[int]:
        """1.7: the seat that reached the target, once the match is over."""
        return [] if self._winner is None else [self._winner]

    @property
    def phase(self) -> str:
        """``draw``, ``auction``, ``play`` or ``over``."""
        return PHASES[self._phase]

    # Read-only facts of the whole state (hidden cards included), for search and evaluation
    # on determinizations (bots); what one seat may know is ``observation(seat)``.

    @property
    def deal_number(self) -> int:
        """The deal in progress, from 1."""
        return self._deal_number

    @property
    def hand_masks(self) -> tuple[int, int]:
        """Both hands as 52-bit card masks (bit c for card c): the whole truth of this state."""
        return (self._hands[0], self._hands[1])

    @property
    def last_bid(self) -> Contract | None:
        """1.4: the auction's last bid with its doubling and bidder (the contract it would
        make), or None before any bid; once the play starts, the contract."""
        if self._bidder < 0:
            return None
        if self._contract is not None:
            return self._contract
        index = self._lowest_bid - 1 - BID
        return Contract(index // 5 + 1, index % 5, self._doubled, self._bidder)

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Play-phase tricks won this deal, per seat."""
        return (self._tricks_won[0], self._tricks_won[1])

    @property
    def cards_played(self) -> int:
        """Cards played this deal, both phases (26 when the draw phase is over)."""
        return len(self._played)

    @property
    def records(self) -> tuple[DealRecord, ...]:
        """Every finished deal of the match, passed-out ones included."""
        return tuple(self._records)

    def _trick_leader(self, trick: int) -> int:
        """Who led trick ``trick`` of this deal (0..12 draw phase, 13..25 play phase)."""
        if trick == 0:
            return 1 - self._dealer  # 1.3
        if trick == DRAW_TRICKS:
            assert self._contract is not None
            return 1 - self._contract.declarer  # 1.5
        return self._winners[trick - 1]

    def _played_by(self) -> list[tuple[int, int]]:
        """(seat, card) for every card played this deal."""
        out = []
        for i, card in enumerate(self._played):
            leader = self._trick_leader(i // 2)
            out.append((leader if i % 2 == 0 else 1 - leader, card))
        return out

    def _drawn(self, seat: int) -> list[int]:
        """1.3: the cards ``seat`` drew this deal, one per finished draw trick."""
        stock = self._deal_start[3]
        return [stock[2 * k] if w == seat else stock[2 * k + 1]
                for k, w in enumerate(self._winners[:DRAW_TRICKS])]

    # -- legal moves -------------------------------------------------------

    def _legal_action_ids(self) -> list[int]:
        # the lists returned are shared tables: callers only read them
        seat = self._to_act
        if seat is None:
            return []
        if self._phase == AUCTION:
            return _CALL_LISTS[self._lowest_bid - BID][self._call_kind]
        hand = self._hands[seat]
        lead = self._lead
        if lead >= 0 and self._must_follow:
            # 1.5 (and 1.3 under follow_suit_in_draw): follow suit if you can
            suited = hand & SUIT_MASK_OF[lead]
            if suited:
                return _CARDS_OF[suited]
        cards = _CARDS_OF
        return cards[hand & _S] + cards[hand & _H] + cards[hand & _D] + cards[hand & _C]

    def _why_illegal(self, action: Action) -> str:
        aid = action.id
        if self._phase == AUCTION:
            if aid < BID:
                return (f"{action}: the auction is on: make a call (a bid 1C..7NT, pass, double "
                        "or redouble), not a card")
            if aid == DOUBLE:
                if self._doubled:
                    return "double: the last bid is already doubled"
                return "double: you may double only right after your opponent's bid"
            if aid == REDOUBLE:
                return "redouble: you may redouble only right after your opponent doubled your bid"
            last = ACTIONS[self._lowest_bid - 1]
            return f"{action}: a bid must be higher than the last bid, {last}"
        if aid >= BID:
            return f"{action}: this is the {PHASES[self._phase]} phase: play a card, not a call"
        seat = self._to_act
        assert seat is not None
        if not self._hands[seat] >> aid & 1:
            return f"{action}: you do not hold {action}"
        led_suit = self._lead // 13
        rule = "" if self._phase == PLAY else " (follow_suit_in_draw)"
        return f"{action}: must follow suit{rule}: you hold {SUIT_NAMES[led_suit]}"

    def _parse(self, text: str) -> int:
        if self._phase == AUCTION:
            aid = parse_call(text)
            if aid is None:
                aid = _parse_card_id(text)
        else:
            aid = _parse_card_id(text)
            if aid is None:
                aid = parse_call(text)
        if aid is None:
            raise IllegalActionError(
                f"{text!r} is not Draw Bridge notation: a card such as QH or 10D, or a call "
                "1C..7NT (strains C D H S NT), pass, double or redouble")
        return aid

    # -- applying a move ---------------------------------------------------

    def _apply(self, action: Action) -> int | tuple[int, int]:
        """Returns the phase the move was made in; after a draw-phase trick, the two cards
        drawn (the winner's, then the loser's) instead."""
        aid = action.id
        seat = self._to_act
        assert seat is not None
        if aid >= BID:
            self._call(seat, aid)
            return AUCTION
        hands = self._hands
        hands[seat] ^= 1 << aid
        played = self._played
        played.append(aid)
        lead = self._lead
        phase = self._phase
        if lead < 0:
            self._lead = aid
            self._to_act = 1 - seat
            return phase
        self._lead = -1
        winner = seat if self._beats[lead * NUM_CARDS + aid] else 1 - seat
        self._winners.append(winner)
        self._last_trick = (self._deal_number, phase, 1 - seat, lead, aid, winner)
        if phase == DRAW:
            # 1.3: the winner takes the top card of the stock, the loser the next one
            stock = self._stock
            won, lost = stock.pop(), stock.pop()
            hands[winner] |= 1 << won
            hands[1 - winner] |= 1 << lost
            if stock:
                self._to_act = winner  # 1.3: the winner leads the next trick
            else:
                self._start_auction()
            return won, lost
        self._tricks_won[winner] += 1
        if len(played) < NUM_CARDS:
            self._to_act = winner  # 1.5: the winner leads the next trick
        else:
            self._finish_deal()
        return PLAY

    def _event(self, seat: int, action: Action, news: int | tuple[int, int]) -> MoveEvent:
        aid = action.id
        public: dict[str, Any] = {}
        private: dict[int, dict[str, list[str]]] = {}
        phase = DRAW if isinstance(news, tuple) else news
        deal_over = False
        if aid >= BID:
            public["call"] = action.notation
            if self._phase == PLAY:
                assert self._contract is not None
                public["contract"] = self._contract.to_json()  # ruling 1.4
            elif self._phase != AUCTION:
                public["passed_out"] = True
                deal_over = True
        else:
            public["card"] = CARD_NAMES[aid]
            if self._lead < 0:  # the card completed a trick
                trick = trick_result(self._last_trick)
                assert trick is not None
                public["trick"] = trick.to_json()
                winner = trick.winner
                if isinstance(news, tuple):
                    won, lost = news
                    public["drew"] = [winner, 1 - winner]
                    if self.game.show_stock_top:
                        public["took"] = [winner, CARD_NAMES[won]]  # it lay face up (1.3)
                    private = {winner: {"drawn": [CARD_NAMES[won]]},
                               1 - winner: {"drawn": [CARD_NAMES[lost]]}}
                    if self._phase == AUCTION:
                        public["auction_starts"] = True
                elif self._phase != PLAY:
                    deal_over = True
        if deal_over:
            last = self._records[-1]
            public["deal"] = {
                "deal_number": last.number,
                "contract": None if last.contract is None else last.contract.to_json(),
                "declarer_tricks": last.declarer_tricks,
                "points": list(last.points),
            }
            public["scores"] = list(self._scores)
            if self._phase == OVER:
                public["over"] = True
                public["winners"] = self.winners
            else:
                public["new_deal"] = {"deal_number": self._deal_number, "dealer": self._dealer}
                private = {s: {"dealt": card_names(cards_of(self._hands[s]))} for s in (0, 1)}
        return MoveEvent(seat, action.notation, PHASES[phase], public, private)

    def _start_auction(self) -> None:
        self._phase = AUCTION
        self._auction_hands = (self._hands[0], self._hands[1])
        self._to_act = self._dealer  # 1.4: the dealer calls first

    def _call(self, seat: int, aid: int) -> None:
        """1.4: a bid, pass, double or redouble."""
        self._calls.append(aid)
        if aid == PASS:
            if self._bidder >= 0:
                self._start_play()  # ruling 1.4: a pass after a bid, double or redouble
            elif len(self._calls) == 1:
                self._to_act = 1 - seat  # the dealer's opening pass does not end the auction
            else:
                self._finish_deal()  # two passes and no bid: passed out
            return
        if aid == DOUBLE:
            self._doubled = 1
            self._call_kind = 2
        elif aid == REDOUBLE:
            self._doubled = 2
            self._call_kind = 0
        else:
            self._lowest_bid = aid + 1
            self._bidder = seat
            self._doubled = 0  # a new bid cancels any double or redouble
            self._call_kind = 1
        self._to_act = 1 - seat

    def _start_play(self) -> None:
        last_bid = self._lowest_bid - 1 - BID
        strain = last_bid % 5
        self._contract = Contract(last_bid // 5 + 1, strain, self._doubled, self._bidder)
        self._phase = PLAY
        self._beats = BEATS_PLAY[strain]
        self._must_follow = True
        self._to_act = 1 - self._bidder  # 1.5: the declarer's opponent leads

    def _finish_deal(self) -> None:
        """1.6 / 1.7: score the deal, then end the match or deal the next one."""
        contract = self._contract
        points = [0, 0]
        tricks = 0
        if contract is not None:
            tricks = self._tricks_won[contract.declarer]
            declarer, defender = deal_points(contract.level, contract.strain, contract.doubled,
                                             tricks, self.game.undertricks)
            points[contract.declarer] = declarer
            points[1 - contract.declarer] = defender
        plays = self._played_by()[2 * DRAW_TRICKS:]
        self._records.append(DealRecord(
            self._deal_number, self._dealer, self._auction_hands, tuple(self._calls),
            tuple(plays), contract, tricks, (points[0], points[1])))
        scores = self._scores
        scores[0] += points[0]
        scores[1] += points[1]
        target = self.game.target
        for seat in (0, 1):
            # only one seat scores in a deal, so at most one reaches the target
            if scores[seat] >= target:
                self._winner = seat
                self._phase = OVER
                self._to_act = None
                return
        # 1.2 / 1.4: the deal alternates, a passed-out deal included
        self._deal_new(self._deal_number + 1, 1 - self._dealer)

    # -- copies, saving ------------------------------------------------------

    def _clone_into(self, new: State) -> None:
        assert isinstance(new, DrawBridgeState)
        new._scores = list(self._scores)
        new._records = list(self._records)
        new._hands = list(self._hands)
        new._stock = list(self._stock)
        new._played = list(self._played)
        new._winners = list(self._winners)
        new._calls = list(self._calls)
        new._tricks_won = list(self._tricks_won)

    def _all_cards(self) -> list[int]:
        return cards_of(self._hands[0]) + cards_of(self._hands[1]) + self._stock + self._played

    def __getstate__(self) -> dict[str, Any]:
        fields = super().__getstate__()
        fields["_beats"] = None  # a shared 2,704-byte table, found again on loading
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        super().__setstate__(fields)
        contract = self._contract
        self._beats = (BEATS_PLAY[contract.strain] if self._phase == PLAY and contract
                       else BEATS_DRAW[self.game.draw_trick_winner])

    def __str__(self) -> str:
        """The table as a spectator sees it (view.py): no hand shows, log lines must not
        leak them."""
        text: str = part(type(self), "view").render(self)
        return text

    if TYPE_CHECKING:  # the game's view.py and deduce.py answer these (core.part)
        def observation(self, seat: int | None) -> DrawBridgeObservation: ...

        def resample(self, seat: int, rng: random.Random) -> DrawBridgeState: ...


DrawBridgeGame.state_class = DrawBridgeState
#: the game's old name, before every game's class was called <Title>Game
DrawBridge = DrawBridgeGame
