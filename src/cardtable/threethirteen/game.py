"""Three Thirteen (RULES.md section 3): a match of 11 rounds, its legal moves and scoring.

Hot state: hands, the stock and the discard pile are small lists of card ints (piles
have their top at the end); going out is found by the meld solver's cheap "does the
hand meld fully" test after every discard, the least-penalty split runs only when a
round is scored or a player goes out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
    State,
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
    blurb="Draw and discard to lay your hand out in melds; the wild card changes every round.",
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


# ---------------------------------------------------------------- what a seat may know
# (typed; built by view.py)


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

    def keeps_turn(self, move: str) -> bool:
        """3.4: a turn is a draw (from the stock or the discard pile), then a discard."""
        return move in ("draw", "take")

    def _facts(self) -> dict[str, Any]:
        """3.2: the rounds, and the wild rank of each, round 1 first."""
        return {"rounds": ROUNDS,
                "wild_ranks": [RANKS[wild_rank(r)] for r in range(1, ROUNDS + 1)]}

    def setup(self, **position: Any) -> ThreeThirteenState:
        """The start of a round, as API.md's Positions say; omitted keys drawn from ``seed``."""
        state = super().setup(**position)
        assert isinstance(state, ThreeThirteenState)
        return state

    def _deal(self, rng: random.Random) -> ThreeThirteenState:
        dealer = rng.randrange(self.num_players)  # 3.2: the first dealer is chosen at random
        state = ThreeThirteenState(self, rng, 1, dealer, [[] for _ in range(self.num_players)],
                                   [], [], [], [0] * self.num_players)
        state._deal_round()
        return state


class ThreeThirteenState(State):
    """A position in a match of Three Thirteen: one round in play, the totals so far."""

    game: ThreeThirteenGame
    #: view.py's cache: (``_last_round``, its RoundResult), made once per round
    _round_result_of: tuple[dict[str, Any], RoundResult] | None = None

    def __init__(self, game: ThreeThirteenGame, rng: random.Random, round_: int, dealer: int,
                 hands: list[list[int]], stock: list[int], discard: list[int],
                 out_of_play: list[int], scores: list[int]) -> None:
        self._init_base(game, rng)
        n = game.num_players
        self._round = round_
        self._wild = wild_rank(round_)
        self._dealer = dealer
        self._current = (dealer + 1) % n  # 3.4: left of the dealer plays first
        self._drawing = True  # the player to act must draw or take (else discard)
        self._hands = hands
        self._stock = stock  # top at the end
        self._discard = discard  # top at the end
        self._out_of_play = out_of_play  # cards a setup position left out until the next deal
        self._totals = scores
        self._reshuffled = False  # 3.4 ruling: the one reshuffle of this round is used
        self._went_out: int | None = None
        self._out_melds: list[list[int]] | None = None
        self._turns_left = 0  # 3.6: turns still to play after someone went out
        # public knowledge: per seat, the cards taken from the discard pile still held
        self._taken: list[list[int]] = [[] for _ in range(n)]
        # the cards the reshuffle made the new stock of (the table saw them), and per seat
        # the cards drawn from that stock (each seat knows its own): both bound resample
        self._reshuffle_pile: list[int] = []
        self._drawn: list[list[int]] = [[] for _ in range(n)]
        self._last_round: dict[str, Any] | None = None
        # the score sheet: each scored round's penalties (tuples, shared by clones)
        self._round_scores: list[tuple[int, ...]] = []
        self._round_start = 0  # where this round's actions begin in the history
        self._over = False

    # -- the position: read-only, for search on a determinization (bots read a seat's
    # observation otherwise); nothing outside this package writes the state's fields

    @property
    def round(self) -> int:
        return self._round

    @property
    def wild(self) -> int:
        """The wild rank as a rank index (0 = ace .. 12 = king)."""
        return self._wild

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def current(self) -> int:
        """The seat whose turn it is (the last to play, once the match is over)."""
        return self._current

    @property
    def drawing(self) -> bool:
        """Whether the seat to act must draw or take (else discard)."""
        return self._drawing

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(h) for h in self._hands)

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock, top at the end."""
        return tuple(self._stock)

    @property
    def discard(self) -> tuple[int, ...]:
        """The discard pile, top at the end."""
        return tuple(self._discard)

    @property
    def out_of_play(self) -> tuple[int, ...]:
        """Cards a setup position left out until the next deal."""
        return tuple(self._out_of_play)

    @property
    def totals(self) -> tuple[int, ...]:
        """The penalty totals of the rounds completed."""
        return tuple(self._totals)

    @property
    def reshuffled(self) -> bool:
        return self._reshuffled

    @property
    def went_out(self) -> int | None:
        return self._went_out

    @property
    def over(self) -> bool:
        return self._over

    @property
    def current_player(self) -> int | None:
        return None if self._over else self._current

    @property
    def is_terminal(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        """3.9: the penalty totals of the rounds completed."""
        return list(self._totals)

    @property
    def winners(self) -> list[int]:
        """3.9: after round 11, every seat with the lowest total."""
        if not self._over:
            return []
        low = min(self._totals)
        return [s for s, t in enumerate(self._totals) if t == low]

    def melds_fully(self, cards: Sequence[int]) -> bool:
        """3.6: whether ``cards`` split entirely into melds this round."""
        packed, wilds = pack_hand(cards, self._wild)
        return self.game.solver.melds_fully(packed, len(wilds), self.game.all_wild_melds)

    def split(self, cards: Sequence[int]) -> tuple[list[list[int]], list[int], int]:
        """3.7: a least-penalty split of ``cards`` this round: melds, deadwood, penalty."""
        packed, wilds = pack_hand(cards, self._wild)
        game = self.game
        return game.solver.split(packed, wilds, game.solver.values[self._wild],
                                 game.all_wild_melds)

    # -- legal moves ------------------------------------------------------

    def _legal_action_ids(self) -> list[int]:
        if self._drawing:
            ids = [DRAW] if self._stock else []
            if self._discard:
                ids.append(TAKE)
            return ids
        return [DISCARD + c for c in sorted(set(self._hands[self._current]))]

    def _why_illegal(self, action: Action) -> str:
        aid = action.id
        if aid in (DRAW, TAKE):
            if not self._drawing:
                return f"{action}: you have drawn this turn; now discard a card"
            if aid == DRAW:
                return "draw: the stock is empty; take the top discard"
            return "take: the discard pile is empty; draw from the stock"
        if self._drawing:
            return f"{action}: first draw from the stock or take the top discard"
        return f"{action}: you do not hold {card_name(aid - DISCARD)}"

    def _parse(self, text: str) -> int:
        return parse_action_id(text)

    # -- applying a move --------------------------------------------------

    def _apply(self, action: Action) -> int:
        """Returns the card drawn or taken; after a discard, the flags WENT_OUT,
        RESHUFFLED and ROUND_OVER of what followed it."""
        aid = action.id
        seat = self._current
        hand = self._hands[seat]
        if aid == DRAW:
            card = self._stock.pop()
            hand.append(card)
            if self._reshuffled:
                self._drawn[seat].append(card)
            self._drawing = False
            return card
        if aid == TAKE:
            card = self._discard.pop()
            hand.append(card)
            self._taken[seat].append(card)  # the whole table saw which card it was
            self._drawing = False
            return card
        card = aid - DISCARD
        hand.remove(card)  # 3.4: any card, even the one just taken
        self._discard.append(card)
        if card in self._taken[seat]:
            self._taken[seat].remove(card)
        flags = 0
        if self._went_out is None:
            if self.melds_fully(hand):
                # 3.6 ruling: the discard leaves melds only: the player goes out, shows
                # the melds, and every other player has one more turn
                self._went_out = seat
                self._out_melds = self.split(hand)[0]
                self._turns_left = self.game.num_players - 1
                flags = WENT_OUT
        else:
            self._turns_left -= 1
            if not self._turns_left:
                self._end_round()
                return ROUND_OVER
        self._current = (seat + 1) % self.game.num_players
        self._drawing = True
        # 3.4 ruling: an empty stock is remade once a round; the second time the round ends
        if not self._stock:
            if self._reshuffled:
                self._end_round()
                return flags | ROUND_OVER
            self._reshuffle()
            flags |= RESHUFFLED
        return flags

    def _start_turn(self) -> None:
        """3.4 ruling: an empty stock is remade once a round; the second time the round ends."""
        if self._stock:
            return
        if self._reshuffled:
            self._end_round()
            return
        self._reshuffle()

    def _reshuffle(self) -> None:
        """3.4 ruling: the discard pile but its top card, shuffled, is the new stock."""
        self._reshuffled = True
        pile = self._discard
        self._stock = pile[:-1]
        self._discard = pile[-1:]
        self._reshuffle_pile = sorted(self._stock)
        self._rng.shuffle(self._stock)

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
            assert self._out_melds is not None or news & ROUND_OVER
            public["went_out"] = seat
        if news & RESHUFFLED:
            public["reshuffled"] = True
        if news & ROUND_OVER:
            last = self._last_round
            assert last is not None
            public["round_over"] = _last_round_copy(last)
            public["scores"] = list(self._totals)
            if self._over:
                public["over"] = True
                public["winners"] = self.winners
            else:
                public["new_round"] = {"round": self._round, "dealer": self._dealer,
                                       "wild_rank": RANKS[self._wild],
                                       "top_discard": card_name(self._discard[-1])}
                private = {s: {"dealt": card_names(sorted(h, key=sort_key))}
                           for s, h in enumerate(self._hands)}
        elif news & WENT_OUT:
            assert self._out_melds is not None
            public["melds"] = [card_names(m) for m in self._out_melds]
        return MoveEvent(seat, action.notation, "discard", public, private)

    def _end_round(self) -> None:
        """3.7: score every hand at its best split; then 3.9 the end, or the next deal."""
        shown = []
        penalties = []
        for hand in self._hands:
            melds, deadwood, penalty = self.split(hand)
            shown.append({"melds": [card_names(m) for m in melds], "deadwood": card_names(deadwood),
                          "penalty": penalty})
            penalties.append(penalty)
        self._totals = [t + p for t, p in zip(self._totals, penalties, strict=True)]
        self._last_round = {"round": self._round, "went_out": self._went_out,
                           "melds_shown": shown, "scores": penalties}
        self._round_scores.append(tuple(penalties))
        if self._round == ROUNDS:
            self._over = True
            return
        self._round += 1
        self._wild = wild_rank(self._round)
        self._dealer = (self._dealer + 1) % self.game.num_players  # 3.2: the deal passes left
        self._deal_round()

    def _deal_round(self) -> None:
        """3.2 / 3.3: shuffle every card, deal one at a time from the dealer's left, turn one up."""
        cards = ([c for h in self._hands for c in h] + self._stock + self._discard
                 + self._out_of_play)
        if not cards:
            cards = [c for _ in range(self.game.decks) for c in range(NUM_CARDS)]
        cards.sort()
        self._rng.shuffle(cards)
        n = self.game.num_players
        hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(deal_size(self._round) * n):
            hands[(self._dealer + 1 + k) % n].append(cards.pop())
        self._hands = hands
        self._discard = [cards.pop()]
        self._stock = cards
        self._out_of_play = []
        self._round_start = len(self.history)
        self._current = (self._dealer + 1) % n
        self._drawing = True
        self._reshuffled = False
        self._went_out = None
        self._out_melds = None
        self._turns_left = 0
        self._taken = [[] for _ in range(n)]
        self._reshuffle_pile = []
        self._drawn = [[] for _ in range(n)]

    # -- copies, saving, views -------------------------------------------

    def _clone_into(self, new: State) -> None:
        assert isinstance(new, ThreeThirteenState)
        new._hands = [list(h) for h in self._hands]
        new._stock = list(self._stock)
        new._discard = list(self._discard)
        new._out_of_play = list(self._out_of_play)
        new._totals = list(self._totals)
        new._taken = [list(t) for t in self._taken]
        new._reshuffle_pile = list(self._reshuffle_pile)
        new._drawn = [list(d) for d in self._drawn]
        new._round_scores = list(self._round_scores)
        # out_melds and last_round are replaced whole, never changed in place

    def _all_cards(self) -> list[int]:
        return [c for h in self._hands for c in h] + self._stock + self._discard + self._out_of_play

    if TYPE_CHECKING:  # the game's view.py and deduce.py answer these (core.part)
        def observation(self, seat: int | None) -> ThreeThirteenObservation: ...

        def resample(self, seat: int, rng: random.Random) -> ThreeThirteenState: ...

    def __str__(self) -> str:
        """The table as a spectator sees it: no hand shows (log lines must not leak them)."""
        top = card_name(self._discard[-1]) if self._discard else "-"
        lines = [f"Three Thirteen, round {self._round} ({RANKS[self._wild]} wild), "
                 f"scores {self._totals}", f"discard {top}, stock {len(self._stock)}"]
        for s, hand in enumerate(self._hands):
            mark = ">" if s == self.current_player else " "
            lines.append(f"{mark} seat {s}: {len(hand)} cards")
        return "\n".join(lines)


def _last_round_copy(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """A fresh copy of the last round's summary (views and saves must not share it)."""
    if last is None:
        return None
    return {"round": last["round"], "went_out": last["went_out"],
            "melds_shown": [{"melds": [list(m) for m in shown["melds"]],
                             "deadwood": list(shown["deadwood"]), "penalty": shown["penalty"]}
                            for shown in last["melds_shown"]],
            "scores": list(last["scores"])}


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
