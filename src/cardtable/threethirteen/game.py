"""Three Thirteen (RULES.md section 3): a match of 11 rounds, its legal moves and scoring.

Hot state: hands, the stock and the discard pile are small lists of card ints (piles
have their top at the end); going out is found by the meld solver's cheap "does the
hand meld fully" test after every discard, the least-penalty split runs only when a
round is scored or a player goes out.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cardtable.cards import (
    CARD_NAMES,
    NUM_CARDS,
    RANKS,
    card_name,
    card_names,
    parse_card,
    sort_key,
)
from cardtable.core import (
    Action,
    Declaration,
    Game,
    IllegalActionError,
    MoveEvent,
    Observation,
    OptionsError,
    OptionSpec,
    PositionError,
    State,
    check_bool,
    check_card_supply,
    check_int,
    check_seat,
    missing_cards,
    new_rng,
    position_cards,
    position_seat,
    restore_base,
    unknown_keys,
)
from cardtable.threethirteen.melds import MeldSolver, pack_hand, solver

#: the game, declared once (RULES 3.1, 3.5, 3.7, 3.8)
DECLARATION = Declaration(
    name="threethirteen",
    title="Three Thirteen",
    players=tuple(range(2, 13)),  # 3.1 ruling: 2 to 12 players
    default_players=2,
    options=(
        OptionSpec("aces", "low", "choice", choices=("low", "both"),
                   help="Aces are low only, or low or high in a run (an unmelded ace "
                        "then costs 15)."),
        OptionSpec("face_values", "ten", "choice", choices=("ten", "counting"),
                   help="Unmelded jacks, queens and kings cost 10, or 11, 12 and 13."),
        OptionSpec("all_wild_melds", True, "bool",
                   help="A meld may consist of wild cards only."),
        OptionSpec("decks", None, "int", minimum=1, maximum=4, none_ok=True,
                   help="How many 52-card decks to play with (default: 1 for 2 players, 2 "
                        "for 3-5, 3 for 6-8, 4 for 9-12; at least enough for round 11)."),
    ),
    phases=("draw", "discard"),
)

ROUNDS = 11
MAX_DECKS = 4  # 3.1 ruling: option decks goes up to 4

# The fixed action space: draw, take, then one discard per card.
DRAW, TAKE, DISCARD = 0, 1, 2
# what followed a discard, as _apply notes it for the move event
WENT_OUT, RESHUFFLED, ROUND_OVER = 1, 2, 4
ACTIONS = (Action(DRAW, "draw"), Action(TAKE, "take"),
           *(Action(DISCARD + c, f"discard {CARD_NAMES[c]}") for c in range(NUM_CARDS)))

DEFAULTS: dict[str, Any] = DECLARATION.defaults


def decks_for(players: int) -> int:
    """3.1 ruling: by default one deck for 2 players, two for 3-5, three for 6-8, four for 9-12."""
    return 1 if players == 2 else 2 if players <= 5 else 3 if players <= 8 else 4


def fewest_decks(players: int) -> int:
    """3.1 ruling: the fewest decks that hold round 11's deal and first discard.

    That is the least ``decks`` with 52 x decks >= 13 x players + 1.
    """
    return -(-(deal_size(ROUNDS) * players + 1) // NUM_CARDS)


def check_decks(value: Any, players: int) -> int | None:
    """Option ``decks`` (3.1): None (the default count) or an integer from the fewest to 4."""
    low = fewest_decks(players)
    allowed = (str(MAX_DECKS) if low == MAX_DECKS else f"{low} or {MAX_DECKS}"
               if low == MAX_DECKS - 1 else f"{low} to {MAX_DECKS}")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise OptionsError(
            f"option decks must be an integer ({allowed} with {players} players) or None "
            f"(the default: {decks_for(players)}), not {value!r}")
    if value is not None and not low <= value <= MAX_DECKS:
        why = (f"{players} players need at least {low} deck{'s' if low > 1 else ''} for "
               f"round 11's deal of 13 cards each and the first discard"
               if value < low else f"at most {MAX_DECKS} decks are allowed")
        raise OptionsError(
            f"option decks={value} is not allowed: {why}; with {players} players choose "
            f"{allowed}, or None for the default ({decks_for(players)})")
    return value


def deal_size(round_: int) -> int:
    """3.2: round 1 deals 3 cards, round 11 deals 13."""
    return round_ + 2


def wild_rank(round_: int) -> int:
    """3.2: the rank equal to the number of cards dealt is wild (rank index: 2 = three)."""
    return round_ + 1


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand as scored at the end of a round (3.7), in notation."""

    melds: tuple[tuple[str, ...], ...]
    deadwood: tuple[str, ...]
    penalty: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The public result of the last round played (the view's ``last_round``)."""

    round: int
    went_out: int | None
    #: every seat's hand as scored
    hands: tuple[ShownHand, ...]
    #: the penalty of each seat this round
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ThreeThirteenObservation(Observation):
    """What one seat (None: a spectator) may know of a Three Thirteen match; cards are ids."""

    seat: int | None
    round: int
    deal_size: int
    #: how many 52-card decks are in play
    decks: int
    #: the wild rank as a rank index (0 = ace .. 12 = king)
    wild: int
    dealer: int
    #: the seat to act, None when the match is over
    current_player: int | None
    #: "draw", "discard" or "over"
    phase: str
    #: the seat's cards in display order; () for a spectator
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    #: the discard pile, top first
    discard: tuple[int, ...]
    #: 3.4 ruling: this round's one reshuffle is used
    reshuffled: bool
    #: per seat, the cards taken from the discard pile this round and still held
    taken: tuple[tuple[int, ...], ...]
    went_out: int | None
    #: the melds shown by the player who went out
    out_melds: tuple[tuple[int, ...], ...] | None
    last_round: RoundResult | None
    #: penalty totals of the rounds completed
    scores: tuple[int, ...]
    #: the score sheet: each completed round's penalties per seat, in order (public: they
    #: are announced as each round ends); it lists the last ``len(round_scores)`` rounds
    #: completed, all of them in a match dealt from round 1, those since the position in a
    #: match set up later (the earlier rounds are only in the totals)
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]


class ThreeThirteenGame(Game):
    """Three Thirteen with its options checked (RULES 3.1, 3.5, 3.7, 3.8)."""

    declaration = DECLARATION
    name = DECLARATION.name
    actions = ACTIONS

    def __init__(self, **options: Any) -> None:
        opts = DECLARATION.read_options(options, unchecked=("decks",))
        players: int = opts["players"]
        # Reading of API.md's "defaults filled in" for 3.1's "decks (default none = those
        # numbers)": options["decks"] holds the value given, None when left at the default
        # (so a record replays the same options); self.decks is the number of decks in use.
        decks = opts["decks"] = check_decks(opts["decks"], players)
        self.options = opts
        self.num_players = players
        self.decks: int = decks_for(players) if decks is None else decks
        self.all_wild_melds: bool = self.options["all_wild_melds"]
        self.solver: MeldSolver = solver(self.options["aces"], self.options["face_values"])

    def _facts(self) -> dict[str, Any]:
        """3.2: the wild rank of each round, round 1 first."""
        return {"wild_ranks": [RANKS[wild_rank(r)] for r in range(1, ROUNDS + 1)]}

    def _deal(self, rng: random.Random) -> ThreeThirteenState:
        dealer = rng.randrange(self.num_players)  # 3.2: the first dealer is chosen at random
        state = ThreeThirteenState(self, rng, 1, dealer, [[] for _ in range(self.num_players)],
                                   [], [], [], [0] * self.num_players)
        state._deal_round()
        return state

    def setup(self, **position: Any) -> ThreeThirteenState:
        """The start of a round, as API.md's Positions say; omitted keys drawn from ``seed``."""
        keys = ("round", "dealer", "hands", "stock", "discard", "scores", "seed")
        unknown_keys(self.name, position, keys)
        rng = new_rng(position.get("seed"))
        n = self.num_players
        round_ = position.get("round", 1)
        if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= ROUNDS:
            raise PositionError(f"round must be a number from 1 to {ROUNDS}, not {round_!r}")
        size = deal_size(round_)
        dealer = (position_seat("dealer", position["dealer"], n) if "dealer" in position
                  else rng.randrange(n))
        scores = _position_scores(position.get("scores"), n)
        hands = _seat_lists("hands", position.get("hands"), n)
        stock = position_cards("stock", position["stock"]) if "stock" in position else None
        discard = position_cards("discard", position["discard"]) if "discard" in position \
            else None
        named = [c for h in hands or [] for c in h] + (stock or []) + (discard or [])
        check_card_supply(named, self.decks)
        for seat, hand in enumerate(hands or []):
            if len(hand) != size:
                raise PositionError(
                    f"hands: seat {seat} holds {len(hand)} cards; round {round_} deals {size}")
        pool = missing_cards(named, self.decks)
        rng.shuffle(pool)
        if hands is None:
            if len(pool) < n * size:
                raise PositionError(f"not enough cards left to deal {n} hands of {size}")
            hands = [[pool.pop() for _ in range(size)] for _ in range(n)]
        if stock is None:
            stock, pool = pool, []
        else:
            stock.reverse()  # given top first; kept with the top at the end
        if discard is None:
            # API.md: an omitted discard pile is the stock's top card turned up
            discard = [stock.pop()] if stock else []
        else:
            discard.reverse()
        if not stock and not discard:
            raise PositionError("the stock and the discard pile are both empty: nothing to draw")
        state = ThreeThirteenState(self, rng, round_, dealer, hands, stock, discard, pool,
                                   scores)
        state._start_turn()
        return state


def _position_scores(value: Any, n: int) -> list[int]:
    if value is None:
        return [0] * n
    if not isinstance(value, list | tuple) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
        raise PositionError(f"scores must be a list of {n} penalty totals (integers from 0 up)")
    return list(value)


def _seat_lists(what: str, value: Any, n: int) -> list[list[int]] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != n:
        raise PositionError(f"{what} must be a list of {n} card lists, one per seat")
    return [position_cards(f"{what}[{seat}]", cards) for seat, cards in enumerate(value)]


class ThreeThirteenState(State):
    """A position in a match of Three Thirteen: one round in play, the totals so far."""

    game: ThreeThirteenGame

    def __init__(self, game: ThreeThirteenGame, rng: random.Random, round_: int, dealer: int,
                 hands: list[list[int]], stock: list[int], discard: list[int],
                 out_of_play: list[int], scores: list[int]) -> None:
        self._init_base(game, rng)
        n = game.num_players
        self.round = round_
        self.wild = wild_rank(round_)
        self.dealer = dealer
        self.current = (dealer + 1) % n  # 3.4: left of the dealer plays first
        self.drawing = True  # the player to act must draw or take (else discard)
        self.hands = hands
        self.stock = stock  # top at the end
        self.discard = discard  # top at the end
        self.out_of_play = out_of_play  # cards a setup position left out until the next deal
        self.totals = scores
        self.reshuffled = False  # 3.4 ruling: the one reshuffle of this round is used
        self.went_out: int | None = None
        self.out_melds: list[list[int]] | None = None
        self.turns_left = 0  # 3.6: turns still to play after someone went out
        # public knowledge: per seat, the cards taken from the discard pile still held
        self.taken: list[list[int]] = [[] for _ in range(n)]
        # the cards the reshuffle made the new stock of (the table saw them), and per seat
        # the cards drawn from that stock (each seat knows its own): both bound resample
        self.reshuffle_pile: list[int] = []
        self.drawn: list[list[int]] = [[] for _ in range(n)]
        self.last_round: dict[str, Any] | None = None
        # the score sheet: each scored round's penalties (tuples, shared by clones)
        self.round_scores: list[tuple[int, ...]] = []
        self.round_start = 0  # where this round's actions begin in the history
        self.over = False

    # -- the position -----------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.current

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        """3.9: the penalty totals of the rounds completed."""
        return list(self.totals)

    @property
    def winners(self) -> list[int]:
        """3.9: after round 11, every seat with the lowest total."""
        if not self.over:
            return []
        low = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == low]

    def melds_fully(self, cards: list[int]) -> bool:
        """3.6: whether ``cards`` split entirely into melds this round."""
        packed, wilds = pack_hand(cards, self.wild)
        return self.game.solver.melds_fully(packed, len(wilds), self.game.all_wild_melds)

    def split(self, cards: list[int]) -> tuple[list[list[int]], list[int], int]:
        """3.7: a least-penalty split of ``cards`` this round: melds, deadwood, penalty."""
        packed, wilds = pack_hand(cards, self.wild)
        game = self.game
        return game.solver.split(packed, wilds, game.solver.values[self.wild],
                                 game.all_wild_melds)

    # -- legal moves ------------------------------------------------------

    def _legal_action_ids(self) -> list[int]:
        if self.drawing:
            ids = [DRAW] if self.stock else []
            if self.discard:
                ids.append(TAKE)
            return ids
        return [DISCARD + c for c in sorted(set(self.hands[self.current]))]

    def _why_illegal(self, action: Action) -> str:
        aid = action.id
        if aid in (DRAW, TAKE):
            if not self.drawing:
                return f"{action}: you have drawn this turn; now discard a card"
            if aid == DRAW:
                return "draw: the stock is empty; take the top discard"
            return "take: the discard pile is empty; draw from the stock"
        if self.drawing:
            return f"{action}: first draw from the stock or take the top discard"
        return f"{action}: you do not hold {card_name(aid - DISCARD)}"

    def _parse(self, text: str) -> int:
        return parse_action_id(text)

    # -- applying a move --------------------------------------------------

    def _apply(self, action: Action) -> int:
        """Returns the card drawn or taken; after a discard, the flags WENT_OUT,
        RESHUFFLED and ROUND_OVER of what followed it."""
        aid = action.id
        seat = self.current
        hand = self.hands[seat]
        if aid == DRAW:
            card = self.stock.pop()
            hand.append(card)
            if self.reshuffled:
                self.drawn[seat].append(card)
            self.drawing = False
            return card
        if aid == TAKE:
            card = self.discard.pop()
            hand.append(card)
            self.taken[seat].append(card)  # the whole table saw which card it was
            self.drawing = False
            return card
        card = aid - DISCARD
        hand.remove(card)  # 3.4: any card, even the one just taken
        self.discard.append(card)
        if card in self.taken[seat]:
            self.taken[seat].remove(card)
        flags = 0
        if self.went_out is None:
            if self.melds_fully(hand):
                # 3.6 ruling: the discard leaves melds only: the player goes out, shows
                # the melds, and every other player has one more turn
                self.went_out = seat
                self.out_melds = self.split(hand)[0]
                self.turns_left = self.game.num_players - 1
                flags = WENT_OUT
        else:
            self.turns_left -= 1
            if not self.turns_left:
                self._end_round()
                return ROUND_OVER
        self.current = (seat + 1) % self.game.num_players
        self.drawing = True
        # 3.4 ruling: an empty stock is remade once a round; the second time the round ends
        if not self.stock:
            if self.reshuffled:
                self._end_round()
                return flags | ROUND_OVER
            self._reshuffle()
            flags |= RESHUFFLED
        return flags

    def _start_turn(self) -> None:
        """3.4 ruling: an empty stock is remade once a round; the second time the round ends."""
        if self.stock:
            return
        if self.reshuffled:
            self._end_round()
            return
        self._reshuffle()

    def _reshuffle(self) -> None:
        """3.4 ruling: the discard pile but its top card, shuffled, is the new stock."""
        self.reshuffled = True
        pile = self.discard
        self.stock = pile[:-1]
        self.discard = pile[-1:]
        self.reshuffle_pile = sorted(self.stock)
        self._rng.shuffle(self.stock)

    def _event(self, seat: int, action: Action, news: int) -> MoveEvent:
        aid = action.id
        if aid == DRAW:
            return MoveEvent(seat, "draw", "draw", {"drew": True},
                             {seat: {"drawn": [card_name(news)]}})
        if aid == TAKE:
            taken = card_name(news)
            return MoveEvent(seat, "take", "draw", {"took": taken}, {seat: {"drawn": [taken]}})
        public: dict[str, Any] = {"card": card_name(aid - DISCARD)}
        private: dict[int, dict[str, list[str]]] = {}
        if news & WENT_OUT:
            assert self.out_melds is not None or news & ROUND_OVER
            public["went_out"] = seat
        if news & RESHUFFLED:
            public["reshuffled"] = True
        if news & ROUND_OVER:
            last = self.last_round
            assert last is not None
            public["round_over"] = _last_round_copy(last)
            public["scores"] = list(self.totals)
            if self.over:
                public["over"] = True
                public["winners"] = self.winners
            else:
                public["new_round"] = {"round": self.round, "dealer": self.dealer,
                                       "wild_rank": RANKS[self.wild],
                                       "top_discard": card_name(self.discard[-1])}
                private = {s: {"dealt": card_names(sorted(h, key=sort_key))}
                           for s, h in enumerate(self.hands)}
        elif news & WENT_OUT:
            assert self.out_melds is not None
            public["melds"] = [card_names(m) for m in self.out_melds]
        return MoveEvent(seat, action.notation, "discard", public, private)

    def _end_round(self) -> None:
        """3.7: score every hand at its best split; then 3.9 the end, or the next deal."""
        shown = []
        penalties = []
        for hand in self.hands:
            melds, deadwood, penalty = self.split(hand)
            shown.append({"melds": [card_names(m) for m in melds], "deadwood": card_names(deadwood),
                          "penalty": penalty})
            penalties.append(penalty)
        self.totals = [t + p for t, p in zip(self.totals, penalties, strict=True)]
        self.last_round = {"round": self.round, "went_out": self.went_out,
                           "melds_shown": shown, "scores": penalties}
        self.round_scores.append(tuple(penalties))
        if self.round == ROUNDS:
            self.over = True
            return
        self.round += 1
        self.wild = wild_rank(self.round)
        self.dealer = (self.dealer + 1) % self.game.num_players  # 3.2: the deal passes left
        self._deal_round()

    def _deal_round(self) -> None:
        """3.2 / 3.3: shuffle every card, deal one at a time from the dealer's left, turn one up."""
        cards = [c for h in self.hands for c in h] + self.stock + self.discard + self.out_of_play
        if not cards:
            cards = [c for _ in range(self.game.decks) for c in range(NUM_CARDS)]
        cards.sort()
        self._rng.shuffle(cards)
        n = self.game.num_players
        hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(deal_size(self.round) * n):
            hands[(self.dealer + 1 + k) % n].append(cards.pop())
        self.hands = hands
        self.discard = [cards.pop()]
        self.stock = cards
        self.out_of_play = []
        self.round_start = len(self.history)
        self.current = (self.dealer + 1) % n
        self.drawing = True
        self.reshuffled = False
        self.went_out = None
        self.out_melds = None
        self.turns_left = 0
        self.taken = [[] for _ in range(n)]
        self.reshuffle_pile = []
        self.drawn = [[] for _ in range(n)]

    # -- copies, saving, views -------------------------------------------

    def _clone_into(self, new: State) -> None:
        assert isinstance(new, ThreeThirteenState)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discard = list(self.discard)
        new.out_of_play = list(self.out_of_play)
        new.totals = list(self.totals)
        new.taken = [list(t) for t in self.taken]
        new.reshuffle_pile = list(self.reshuffle_pile)
        new.drawn = [list(d) for d in self.drawn]
        new.round_scores = list(self.round_scores)
        # out_melds and last_round are replaced whole, never changed in place

    def _all_cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.stock + self.discard + self.out_of_play

    def _to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dealer": self.dealer,
            "current": self.current,
            "drawing": self.drawing,
            "hands": [card_names(h) for h in self.hands],
            "stock": card_names(reversed(self.stock)),
            "discard": card_names(reversed(self.discard)),
            "out_of_play": card_names(self.out_of_play),
            "scores": list(self.totals),
            "reshuffled": self.reshuffled,
            "went_out": self.went_out,
            "out_melds": None if self.out_melds is None
            else [card_names(m) for m in self.out_melds],
            "turns_left": self.turns_left,
            "taken": [card_names(t) for t in self.taken],
            "reshuffle_pile": card_names(self.reshuffle_pile),
            "drawn": [card_names(d) for d in self.drawn],
            "last_round": _last_round_copy(self.last_round),
            "round_scores": [list(r) for r in self.round_scores],
            "round_start": self.round_start,
            "over": self.over,
        }

    @classmethod
    def _from_dict(cls, game: Game, data: dict[str, Any]) -> ThreeThirteenState:
        assert isinstance(game, ThreeThirteenGame)
        try:
            return _restore(game, data)
        except KeyError as exc:
            raise PositionError(f"saved threethirteen state lacks {exc.args[0]!r}") from None
        except OptionsError as exc:
            raise PositionError(f"saved threethirteen state: {exc}") from None

    def observation(self, seat: int | None) -> ThreeThirteenObservation:
        """What ``seat`` may know (None: a spectator): own hand and everything public; its
        size is bounded by one round."""
        n = self.game.num_players
        if seat is not None:
            check_seat(seat, n)
        last = self.last_round
        out_melds = self.out_melds
        return ThreeThirteenObservation(
            seat=seat,
            round=self.round,
            deal_size=deal_size(self.round),
            decks=self.game.decks,
            wild=self.wild,
            dealer=self.dealer,
            current_player=None if self.over else self.current,
            phase="over" if self.over else "draw" if self.drawing else "discard",
            hand=() if seat is None else tuple(sorted(self.hands[seat], key=sort_key)),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            discard=tuple(reversed(self.discard)),
            reshuffled=self.reshuffled,
            taken=tuple(tuple(t) for t in self.taken),
            went_out=self.went_out,
            out_melds=None if out_melds is None else tuple(tuple(m) for m in out_melds),
            last_round=None if last is None else RoundResult(
                last["round"], last["went_out"],
                tuple(ShownHand(tuple(tuple(m) for m in h["melds"]), tuple(h["deadwood"]),
                                h["penalty"]) for h in last["melds_shown"]),
                tuple(last["scores"])),
            scores=tuple(self.totals),
            round_scores=tuple(self.round_scores),
            winners=tuple(self.winners),
        )

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The view from ``observation(seat)``; ``taken`` lists, per seat, the cards taken
        from the discard pile and not discarded since, which the whole table knows are in
        that hand."""
        obs = self.observation(seat)
        shown: list[dict[str, Any] | None] = [None] * len(obs.hand_sizes)
        if obs.went_out is not None and obs.out_melds is not None:
            shown[obs.went_out] = {"melds": [card_names(m) for m in obs.out_melds],
                                   "deadwood": []}
        to_act = seat is not None and seat == obs.current_player
        last = obs.last_round
        going_out: list[str] = []
        if to_act and obs.phase == "discard" and obs.went_out is None:
            # 3.6: the discards that leave a hand of melds only go out
            hand = list(obs.hand)
            for card in dict.fromkeys(hand):
                rest = list(hand)
                rest.remove(card)
                if self.melds_fully(rest):
                    going_out.append(card_name(card))
        return {
            "game": "threethirteen",
            "seat": seat,
            "hand": card_names(obs.hand),
            "hand_sizes": list(obs.hand_sizes),
            "stock_size": obs.stock_size,
            "discard": card_names(obs.discard),
            "top_discard": card_name(obs.discard[0]) if obs.discard else None,
            "round": obs.round,
            "deal_size": obs.deal_size,
            "decks": obs.decks,
            "wild_rank": RANKS[obs.wild],
            "dealer": obs.dealer,
            "current_player": obs.current_player,
            "phase": obs.phase,
            "legal": [str(a) for a in self.legal_actions()] if to_act else [],
            "going_out": going_out,
            "reshuffled": obs.reshuffled,
            "taken": [card_names(t) for t in obs.taken],
            "went_out": obs.went_out,
            "melds_shown": shown,
            "last_round": None if last is None else {
                "round": last.round, "went_out": last.went_out,
                "melds_shown": [{"melds": [list(m) for m in h.melds],
                                 "deadwood": list(h.deadwood), "penalty": h.penalty}
                                for h in last.hands],
                "scores": list(last.scores)},
            "scores": list(obs.scores),
            "round_scores": [list(r) for r in obs.round_scores],
            "is_terminal": obs.current_player is None,
            "winners": list(obs.winners),
        }

    def resample(self, seat: int, rng: random.Random) -> ThreeThirteenState:
        """The cards hidden from ``seat`` dealt afresh: other hands, the stock, cards out of play.

        Kept in place: the seat's hand, the discard pile, the cards each player took from
        it, and the hand of a player who went out (shown). After the round's reshuffle the
        stock can only hold cards of the old discard pile (which the seat saw) that the
        seat did not draw itself and that are still hidden; it is dealt from those first.
        """
        check_seat(seat, self.game.num_players)
        new = self.clone()
        others = [s for s in range(self.game.num_players) if s != seat and s != self.went_out]
        hidden: Counter[int] = Counter(self.stock)
        hidden.update(self.out_of_play)
        for s in others:
            hidden.update(self.hands[s])
            hidden.subtract(self.taken[s])
        if self.reshuffled:
            could = Counter(self.reshuffle_pile)
            could.subtract(self.drawn[seat])
            candidates = sorted((could & hidden).elements())
            rng.shuffle(candidates)
            new.stock = candidates[:len(self.stock)]
            hidden.subtract(new.stock)
        pool = sorted(hidden.elements())
        rng.shuffle(pool)
        if not self.reshuffled:
            new.stock = [pool.pop() for _ in self.stock]
        for s in others:
            new.hands[s] = list(self.taken[s]) + [
                pool.pop() for _ in range(len(self.hands[s]) - len(self.taken[s]))]
            new.drawn[s] = []
        new.out_of_play = pool
        new._rng = random.Random(rng.getrandbits(64))
        new._legal = new._legal_ids = new._news = None
        return new

    def __str__(self) -> str:
        """The table as a spectator sees it: no hand shows (log lines must not leak them)."""
        top = card_name(self.discard[-1]) if self.discard else "-"
        lines = [f"Three Thirteen, round {self.round} ({RANKS[self.wild]} wild), "
                 f"scores {self.totals}", f"discard {top}, stock {len(self.stock)}"]
        for s, hand in enumerate(self.hands):
            mark = ">" if s == self.current_player else " "
            lines.append(f"{mark} seat {s}: {len(hand)} cards")
        return "\n".join(lines)


def _restore(game: ThreeThirteenGame, data: dict[str, Any]) -> ThreeThirteenState:
    """A saved state, checked: every field of the right kind, and the fields agreeing with
    each other as a game played by the rules leaves them (PositionError saying what)."""
    n = game.num_players
    round_ = check_int("round", data["round"], allowed=range(1, ROUNDS + 1))
    assert round_ is not None
    hands = _saved_seat_lists("hands", data["hands"], n)
    stock = position_cards("stock", data["stock"])[::-1]
    discard = position_cards("discard", data["discard"])[::-1]
    out_of_play = position_cards("out_of_play", data["out_of_play"])
    every = [c for h in hands for c in h] + stock + discard + out_of_play
    check_card_supply(every, game.decks)
    if len(every) != NUM_CARDS * game.decks:
        raise PositionError(f"the saved cards number {len(every)}, not the "
                            f"{NUM_CARDS * game.decks} of {game.decks} deck(s)")
    state = ThreeThirteenState(game, new_rng(0), round_, position_seat("dealer", data["dealer"], n),
                               hands, stock, discard, out_of_play,
                               _position_scores(data["scores"], n))
    state.current = position_seat("current", data["current"], n)
    state.drawing = check_bool("drawing", data["drawing"])
    state.reshuffled = check_bool("reshuffled", data["reshuffled"])
    state.over = check_bool("over", data["over"])
    went_out = data["went_out"]
    state.went_out = None if went_out is None else position_seat("went_out", went_out, n)
    state.out_melds = _saved_melds(data["out_melds"])
    state.turns_left = check_int("turns_left", data["turns_left"], allowed=range(n)) or 0
    state.taken = _saved_seat_lists("taken", data["taken"], n)
    state.drawn = _saved_seat_lists("drawn", data["drawn"], n)
    state.reshuffle_pile = sorted(position_cards("reshuffle_pile", data["reshuffle_pile"]))
    state.last_round = _saved_last_round(data["last_round"], n)
    state.round_scores = _saved_round_scores(data, state.last_round, n)
    state.round_start = check_int("round_start", data["round_start"], minimum=0) or 0
    restore_base(state, game, data)
    _check_restored(state)
    return state


def _check_restored(state: ThreeThirteenState) -> None:
    """PositionError if the fields of a loaded state contradict each other or the rules."""
    n = state.game.num_players
    # 3.9: the match ends after round 11, which has been scored
    last = state.last_round
    if state.over and (state.round != ROUNDS or last is None or last["round"] != ROUNDS):
        raise PositionError(f"over: the match ends only after round {ROUNDS} is scored")
    hands = state.hands
    size = deal_size(state.round)
    for s, hand in enumerate(hands):
        expected = size + (1 if s == state.current and not state.drawing and not state.over
                           else 0)
        if len(hand) != expected:
            raise PositionError(f"hands: seat {s} holds {len(hand)} cards, not {expected}")
        if Counter(state.taken[s]) - Counter(hand):
            raise PositionError(f"seat {s}: taken cards that are not in the hand")
    # 3.4: a turn starts with a card to draw (an empty stock is remade or ends the round)
    if state.drawing and not state.over and not state.stock:
        raise PositionError("the stock is empty at the start of a turn; it would have been "
                            "remade from the discard pile, or the round ended")
    # 3.4 ruling: after the reshuffle the stock is the old discard pile less what was drawn
    drawn = Counter(c for d in state.drawn for c in d)
    if not state.reshuffled and (state.reshuffle_pile or drawn):
        raise PositionError("reshuffle_pile and drawn must be empty before the stock is remade")
    if state.reshuffled and Counter(state.stock) + drawn != Counter(state.reshuffle_pile):
        raise PositionError("the stock and the cards drawn since the reshuffle are not the "
                            "reshuffled pile")
    # 3.6: the player out shows melds that are exactly the hand; the others play one turn
    went_out = state.went_out
    if went_out is None:
        if state.out_melds is not None or state.turns_left:
            raise PositionError("out_melds and turns_left need a player who went out "
                                "(went_out is null)")
    else:
        melds = state.out_melds
        hand = hands[went_out]
        if (melds is None or Counter(c for m in melds for c in m) != Counter(hand)
                or not state.melds_fully(hand)
                or any(len(m) < 3 or not state.melds_fully(m) for m in melds)):
            raise PositionError(f"went_out: seat {went_out}'s hand does not split into the "
                                "melds shown in out_melds")
        if not state.over:
            if not 1 <= state.turns_left <= n - 1:
                raise PositionError(f"turns_left must be 1..{n - 1} after a player went out")
            if state.current != (went_out + n - state.turns_left) % n:
                raise PositionError(f"current: seat {state.current} cannot be to act with "
                                    f"{state.turns_left} turns left after seat {went_out} "
                                    "went out")
    if state.over and state.turns_left:
        raise PositionError("over: a finished match has no turns left")
    if last is not None:
        if last["round"] != state.round - (0 if state.over else 1):
            raise PositionError(f"last_round: round {last['round']} is not the one before "
                                f"round {state.round}")
        if any(p < 0 or p > t for p, t in zip(last["scores"], state.totals, strict=True)):
            raise PositionError("last_round: its penalties must be from 0 up to the totals")
    if state.round_start > len(state.history):
        raise PositionError("round_start lies beyond the saved history")
    # the score sheet: no more rounds than were completed, the last one is last_round,
    # and its columns add up to no more than the totals (a setup position's or an old
    # save's earlier rounds are in the totals only)
    sheet = state.round_scores
    completed = ROUNDS if state.over else state.round - 1
    if len(sheet) > completed:
        raise PositionError(f"round_scores lists {len(sheet)} rounds; only {completed} "
                            "were completed")
    if sheet and (last is None or list(sheet[-1]) != last["scores"]):
        raise PositionError("round_scores: its last round is not last_round's penalties")
    for s in range(n):
        if sum(row[s] for row in sheet) > state.totals[s]:
            raise PositionError(f"round_scores: seat {s}'s penalties add up to more than its "
                                f"total {state.totals[s]} in scores")


def _saved_seat_lists(what: str, value: Any, n: int) -> list[list[int]]:
    """One card list per seat, required (null is refused)."""
    lists = _seat_lists(what, value, n)
    if lists is None:
        raise PositionError(f"{what} must be a list of {n} card lists, one per seat, not null")
    return lists


def _saved_melds(value: Any) -> list[list[int]] | None:
    """The melds of the player out: null, or a list of card lists."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise PositionError(f"out_melds must be null or a list of melds, not {value!r}")
    return [position_cards("out_melds", meld) for meld in value]


def _last_round_copy(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """A fresh copy of the last round's summary (views and saves must not share it)."""
    if last is None:
        return None
    return {"round": last["round"], "went_out": last["went_out"],
            "melds_shown": [{"melds": [list(m) for m in shown["melds"]],
                             "deadwood": list(shown["deadwood"]), "penalty": shown["penalty"]}
                            for shown in last["melds_shown"]],
            "scores": list(last["scores"])}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _saved_last_round(value: Any, n: int) -> dict[str, Any] | None:
    """The last round's summary from a save, checked."""
    if value is None:
        return None
    try:
        last = _last_round_copy(value)
        assert last is not None
        shown = last["melds_shown"]
        ok = (_is_int(last["round"]) and 1 <= last["round"] <= ROUNDS
              and (last["went_out"] is None or _is_int(last["went_out"])
                   and last["went_out"] in range(n))
              and len(shown) == n and len(last["scores"]) == n
              and all(_is_int(x) and x >= 0 for x in last["scores"])
              and [entry["penalty"] for entry in shown] == last["scores"])
        for entry in shown:
            for meld in entry["melds"]:
                position_cards("last_round", meld)
            position_cards("last_round", entry["deadwood"])
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise PositionError("last_round must be None or {round, went_out, melds_shown, scores}")
    return last


def _saved_round_scores(data: dict[str, Any], last: dict[str, Any] | None,
                        n: int) -> list[tuple[int, ...]]:
    """The score sheet from a save, its rows checked. A save written before the sheet
    existed has no key: its sheet starts with the last round, the only one it kept."""
    if "round_scores" not in data:
        return [] if last is None else [tuple(last["scores"])]
    value = data["round_scores"]
    if not isinstance(value, list) or any(
            not isinstance(row, list) or len(row) != n
            or any(not _is_int(x) or x < 0 for x in row) for row in value):
        raise PositionError(f"round_scores must be a list of rounds, each a list of {n} "
                            "penalties (integers from 0 up)")
    return [tuple(row) for row in value]


def parse_action_id(text: str) -> int:
    """Three Thirteen notation -> action id: ``draw``, ``take``, ``discard 5C`` (or ``5C``)."""
    words = text.strip().lower().split()
    if words in (["draw"], ["d"], ["stock"]):
        return DRAW
    if words in (["take"], ["t"]):
        return TAKE
    if (len(words) == 2 and words[0] == "discard") or len(words) == 1:
        try:
            return DISCARD + parse_card(words[-1])
        except ValueError as exc:
            raise IllegalActionError(f"{text!r}: {exc}") from None
    raise IllegalActionError(
        f"{text!r} is not a Three Thirteen move: write 'draw' (from the stock), 'take' "
        "(the top discard) or 'discard 5C'"
    )


ThreeThirteenGame.state_class = ThreeThirteenState
