"""Batched Three Thirteen (RULES.md section 3): N matches as arrays, stepped by numba kernels.

``VectorThreeThirteen(**options)`` fixes the game options (``players``, ``decks``,
``aces``, ``face_values``, ``all_wild_melds`` as ``cardtable.new_game("threethirteen",
...)``); a ``ThreeThirteenBatch`` holds the state of N matches of 11 rounds, one row each.
The design is Sequence's (``cardtable.vector.sequence``): the kernels loop over the rows,
the body for one row (``_legal_ids``, ``_apply_one``, ``_deal_round``, ``_observe_one``)
touches only that row, and going out and scoring use the meld kernel of
``cardtable.vector.threethirteen_melds``.

Everything but the order of the cards after a shuffle follows the scalar engine move for
move (tests/vector prove it): the same legal ids, the same observation tensor
(``cardtable.encoders``), the same rewards and ends. Each round's deal and its
reshuffle draw from a generator of the row's own, seeded from (seed, match, round) alone.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from cardtable.cards import NUM_CARDS, card_name, parse_card
from cardtable.encoders.threethirteen import MAX_SEATS
from cardtable.threethirteen.game import (
    ACTIONS,
    DISCARD,
    DRAW,
    MAX_DECKS,
    ROUNDS,
    TAKE,
    ThreeThirteenGame,
    ThreeThirteenState,
)
from cardtable.vector._kernel import (
    GOLDEN,
    R_DEAL,
    R_EPISODE,
    R_POLICY,
    R_SEED,
    below,
    mix,
    shuffle,
)
from cardtable.vector.base import VectorEngine
from cardtable.vector.threethirteen_melds import DEPTH, VALUES, hand_penalty, melds_fully

NUM_ACTIONS = len(ACTIONS)  # draw, take, a discard per card: 54
#: room for every card in one pile
PILE = MAX_DECKS * NUM_CARDS
#: the most cards in a hand: round 11's 13 and the card drawn
HAND_MAX = 14

# columns of ``ThreeThirteenBatch.meta``, one int32 row of small fields per match
M_CURRENT, M_DEALER, M_ROUND, M_DRAWING, M_TURNS, M_MOVES, M_OVER, M_WENT_OUT, \
    M_TURNS_LEFT, M_RESHUFFLED, M_STOCK_LEN, M_DISCARD_LEN, M_WINNER = range(13)
META_FIELDS = ("current", "dealer", "round", "drawing", "turns", "moves", "over", "went_out",
               "turns_left", "reshuffled", "stock_len", "discard_len", "winner")

#: the encoder's sections, in order (the kernel writes them at the encoder's offsets)
SECTIONS = ("phase", "hand", "discard_pile", "top_discard", "taken", "shown_melds",
            "went_out", "hand_sizes", "stock_size", "reshuffled", "round", "wild_rank",
            "dealer", "to_act", "scores", "rules")
(O_PHASE, O_HAND, O_PILE, O_TOP, O_TAKEN, O_SHOWN, O_WENT_OUT, O_SIZES, O_STOCK, O_RESHUFFLED,
 O_ROUND, O_WILD, O_DEALER, O_TO_ACT, O_SCORES, O_RULES) = range(len(SECTIONS))


class ThreeThirteenBatch(NamedTuple):
    """The state of N Three Thirteen matches, one row each (the kernels take the arrays).

    Cards are ``suit * 13 + rank`` as in the scalar engine.
    """

    #: (N, players, 52) uint8: copies of each card in each hand
    hands: np.ndarray
    #: (N, players) int8: cards in each hand
    sizes: np.ndarray
    #: (N, 208) int8: the stock, its top at ``stock_len - 1``
    stock: np.ndarray
    #: (N, 208) int8: the discard pile, its top at ``discard_len - 1``
    discard: np.ndarray
    #: (N, players, 52) uint8: the cards each seat took from the discard pile this round
    #: and still holds (public)
    taken: np.ndarray
    #: (N, 52) uint8: the cards of the melds shown by the seat that went out this round
    shown: np.ndarray
    #: (N, players) int32: the penalty totals of the rounds completed
    totals: np.ndarray
    #: (N, 13) int32: the seat to act, the dealer, the round (1..11), drawing (1) or
    #: discarding (0), turns (discards), moves since the match began (for truncation),
    #: over, the seat that went out (-1: none), the turns left after it, the round's
    #: reshuffle used, the piles' sizes, the first winner (columns ``M_*``)
    meta: np.ndarray
    #: (N, 4) uint64: each row's seed, how many matches it has had, the generator of the
    #: round in play (its deal, its reshuffle), the random policy's own
    rngs: np.ndarray

    @property
    def size(self) -> int:
        return int(self.hands.shape[0])

    @property
    def current_player(self) -> np.ndarray:
        """(N,) the seat to act (a view)."""
        return self.meta[:, M_CURRENT]

    @property
    def over(self) -> np.ndarray:
        """(N,) 1 where the match has ended (only without autoreset)."""
        return self.meta[:, M_OVER]

    @property
    def moves(self) -> np.ndarray:
        """(N,) the moves of the match in play so far (a view; ``max_moves`` counts them)."""
        return self.meta[:, M_MOVES]


class ThreeThirteenResults(NamedTuple):
    """What one ``step`` reports per row, for the match that was in the row before it."""

    #: (N, players) +1 for each seat with the lowest total, -1 for the others, at the end
    rewards: np.ndarray
    #: the match ended by the rules (after round 11)
    terminated: np.ndarray
    #: the match was cut at ``max_moves``
    truncated: np.ndarray
    #: the first seat with the lowest total of the match that ended, -1 for none
    winner: np.ndarray
    #: turns (discards) and moves the ended match lasted
    turns: np.ndarray
    moves: np.ndarray


# ---------------------------------------------------------------- the per-match bodies
# Each takes the arrays it needs and a row i, and touches only row i.


@njit(inline="always", cache=True)
def _deal_round(hands: np.ndarray, sizes: np.ndarray, stock: np.ndarray, discard: np.ndarray,
                taken: np.ndarray, shown: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
                i: int, players: int, decks: int) -> None:
    """3.2 / 3.3: round ``meta[i, M_ROUND]``'s deal, from (seed, match, round) alone: every
    card shuffled, dealt one at a time from the dealer's left, one turned up."""
    round_ = meta[i, M_ROUND]
    rngs[i, R_DEAL] = _round_seed(rngs[i, R_SEED], rngs[i, R_EPISODE], round_)
    total = decks * NUM_CARDS
    for k in range(total):
        stock[i, k] = k % NUM_CARDS
    shuffle(stock, i, total, rngs)
    for s in range(players):
        sizes[i, s] = 0
        for c in range(NUM_CARDS):
            hands[i, s, c] = 0
            taken[i, s, c] = 0
    for c in range(NUM_CARDS):
        shown[i, c] = 0
    dealer = meta[i, M_DEALER]
    top = total
    for k in range((round_ + 2) * players):
        top -= 1
        s = (dealer + 1 + k) % players
        hands[i, s, stock[i, top]] += 1
        sizes[i, s] += 1
    top -= 1
    discard[i, 0] = stock[i, top]
    meta[i, M_DISCARD_LEN] = 1
    meta[i, M_STOCK_LEN] = top
    meta[i, M_CURRENT] = (dealer + 1) % players
    meta[i, M_DRAWING] = 1
    meta[i, M_RESHUFFLED] = 0
    meta[i, M_WENT_OUT] = -1
    meta[i, M_TURNS_LEFT] = 0


@njit(inline="always", cache=True)
def _round_seed(seed: Any, match: Any, round_: int) -> Any:
    """The generator of round ``round_`` (0: the match's own, for the first dealer) of
    match ``match`` of a row seeded ``seed``."""
    return mix(seed ^ mix((match * np.uint64(16) + np.uint64(round_)) * GOLDEN + GOLDEN))


@njit(inline="always", cache=True)
def _new_match(hands: np.ndarray, sizes: np.ndarray, stock: np.ndarray, discard: np.ndarray,
               taken: np.ndarray, shown: np.ndarray, totals: np.ndarray, meta: np.ndarray,
               rngs: np.ndarray, i: int, players: int, decks: int) -> None:
    """Match k of row i, from (seed, k) alone: a random first dealer (3.2), round 1's deal."""
    match = rngs[i, R_EPISODE] + np.uint64(1)
    rngs[i, R_EPISODE] = match
    rngs[i, R_DEAL] = _round_seed(rngs[i, R_SEED], match, 0)
    for f in range(meta.shape[1]):
        meta[i, f] = 0
    for s in range(players):
        totals[i, s] = 0
    meta[i, M_ROUND] = 1
    meta[i, M_WINNER] = -1
    meta[i, M_DEALER] = below(rngs, i, R_DEAL, players)
    _deal_round(hands, sizes, stock, discard, taken, shown, meta, rngs, i, players, decks)


@njit(inline="always", cache=True)
def _legal_ids(hands: np.ndarray, meta: np.ndarray, i: int, buf: np.ndarray) -> int:
    """The legal ids of row i's seat to act into ``buf``, in id order; returns how many."""
    n = 0
    if meta[i, M_DRAWING] != 0:
        if meta[i, M_STOCK_LEN] > 0:
            buf[n] = DRAW
            n += 1
        if meta[i, M_DISCARD_LEN] > 0:
            buf[n] = TAKE
            n += 1
        return n
    seat = meta[i, M_CURRENT]
    for c in range(NUM_CARDS):
        buf[n] = DISCARD + c
        n += hands[i, seat, c] > 0
    return n


@njit(inline="always", cache=True)
def _is_legal(hands: np.ndarray, meta: np.ndarray, i: int, a: int) -> bool:
    if meta[i, M_OVER] != 0 or a < 0 or a >= NUM_ACTIONS:
        return False
    drawing = meta[i, M_DRAWING] != 0
    if a == DRAW:
        return drawing and meta[i, M_STOCK_LEN] > 0
    if a == TAKE:
        return drawing and meta[i, M_DISCARD_LEN] > 0
    return not drawing and hands[i, meta[i, M_CURRENT], a - DISCARD] > 0


@njit(inline="always", cache=True)
def _end_round(hands: np.ndarray, sizes: np.ndarray, stock: np.ndarray, discard: np.ndarray,
               taken: np.ndarray, shown: np.ndarray, totals: np.ndarray, meta: np.ndarray,
               rngs: np.ndarray, i: int, players: int, decks: int, vals: np.ndarray,
               ace_high: bool, all_wild: bool, work: np.ndarray) -> None:
    """3.7: every hand scored at its best split; then 3.9 the end, or the next deal."""
    round_ = meta[i, M_ROUND]
    wild = round_ + 1
    for s in range(players):
        totals[i, s] += hand_penalty(hands[i, s], wild, vals, ace_high, all_wild, work)
    if round_ == ROUNDS:
        meta[i, M_OVER] = 1
        low = totals[i, 0]
        first = 0
        for s in range(1, players):
            if totals[i, s] < low:
                low = totals[i, s]
                first = s
        meta[i, M_WINNER] = first
        return
    meta[i, M_ROUND] = round_ + 1
    meta[i, M_DEALER] = (meta[i, M_DEALER] + 1) % players  # 3.2: the deal passes left
    _deal_round(hands, sizes, stock, discard, taken, shown, meta, rngs, i, players, decks)


@njit(inline="always", cache=True)
def _apply_one(hands: np.ndarray, sizes: np.ndarray, stock: np.ndarray, discard: np.ndarray,
               taken: np.ndarray, shown: np.ndarray, totals: np.ndarray, meta: np.ndarray,
               rngs: np.ndarray, i: int, a: int, players: int, decks: int, vals: np.ndarray,
               ace_high: bool, all_wild: bool, work: np.ndarray) -> None:
    """Play legal action ``a`` in row i, as ``ThreeThirteenState._apply``."""
    seat = meta[i, M_CURRENT]
    meta[i, M_MOVES] += 1
    if a < DISCARD:  # draw or take
        if a == DRAW:
            top = meta[i, M_STOCK_LEN] - 1
            card = stock[i, top]
            meta[i, M_STOCK_LEN] = top
        else:
            top = meta[i, M_DISCARD_LEN] - 1
            card = discard[i, top]
            meta[i, M_DISCARD_LEN] = top
            taken[i, seat, card] += 1  # the whole table saw which card it was
        hands[i, seat, card] += 1
        sizes[i, seat] += 1
        meta[i, M_DRAWING] = 0
        return
    card = a - DISCARD
    hands[i, seat, card] -= 1  # 3.4: any card, even the one just taken
    sizes[i, seat] -= 1
    discard[i, meta[i, M_DISCARD_LEN]] = card
    meta[i, M_DISCARD_LEN] += 1
    meta[i, M_TURNS] += 1
    if taken[i, seat, card] > 0:
        taken[i, seat, card] -= 1
    if meta[i, M_WENT_OUT] < 0:
        if melds_fully(hands[i, seat], meta[i, M_ROUND] + 1, vals, ace_high, all_wild, work):
            # 3.6 ruling: the discard leaves melds only: the player goes out, shows the
            # melds (the whole hand), and every other player has one more turn
            meta[i, M_WENT_OUT] = seat
            for c in range(NUM_CARDS):
                shown[i, c] = hands[i, seat, c]
            meta[i, M_TURNS_LEFT] = players - 1
    else:
        meta[i, M_TURNS_LEFT] -= 1
        if meta[i, M_TURNS_LEFT] == 0:
            _end_round(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i,
                       players, decks, vals, ace_high, all_wild, work)
            return
    meta[i, M_CURRENT] = (seat + 1) % players
    meta[i, M_DRAWING] = 1
    # 3.4 ruling: an empty stock is remade once a round; the second time the round ends
    if meta[i, M_STOCK_LEN] == 0:
        if meta[i, M_RESHUFFLED] != 0:
            _end_round(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i,
                       players, decks, vals, ace_high, all_wild, work)
            return
        # the discard pile but its top card, shuffled, is the new stock
        meta[i, M_RESHUFFLED] = 1
        n = meta[i, M_DISCARD_LEN] - 1
        for k in range(n):
            stock[i, k] = discard[i, k]
        discard[i, 0] = discard[i, n]
        meta[i, M_DISCARD_LEN] = 1
        shuffle(stock, i, n, rngs)
        meta[i, M_STOCK_LEN] = n


@njit(inline="always", cache=True)
def _observe_one(hands: np.ndarray, sizes: np.ndarray, discard: np.ndarray, taken: np.ndarray,
                 shown: np.ndarray, totals: np.ndarray, meta: np.ndarray, i: int, seat: int,
                 players: int, off: np.ndarray, rules: np.ndarray, out: np.ndarray,
                 r: int) -> None:
    """Row i seen by ``seat`` into ``out[r]``, the layout of ``ThreeThirteenEncoder`` (the
    engine reads its offsets)."""
    for k in range(out.shape[1]):
        out[r, k] = 0.0
    over = meta[i, M_OVER] != 0
    out[r, off[O_PHASE] + (2 if over else 0 if meta[i, M_DRAWING] != 0 else 1)] = 1.0
    for c in range(NUM_CARDS):
        out[r, off[O_HAND] + c] = hands[i, seat, c]
    n = meta[i, M_DISCARD_LEN]
    for k in range(n):
        out[r, off[O_PILE] + discard[i, k]] += 1.0
    if n > 0:
        out[r, off[O_TOP] + discard[i, n - 1]] = 1.0
    for k in range(players):
        other = seat + k
        if other >= players:
            other -= players
        row = off[O_TAKEN] + k * NUM_CARDS
        for c in range(NUM_CARDS):
            out[r, row + c] = taken[i, other, c]
        out[r, off[O_SIZES] + k] = sizes[i, other]
        out[r, off[O_SCORES] + k] = totals[i, other]
    went = meta[i, M_WENT_OUT]
    if went >= 0:
        out[r, off[O_WENT_OUT] + (went - seat + players) % players] = 1.0
        for c in range(NUM_CARDS):
            out[r, off[O_SHOWN] + c] = shown[i, c]
    out[r, off[O_STOCK]] = meta[i, M_STOCK_LEN]
    out[r, off[O_RESHUFFLED]] = meta[i, M_RESHUFFLED]
    round_ = meta[i, M_ROUND]
    out[r, off[O_ROUND] + round_ - 1] = 1.0
    out[r, off[O_WILD] + round_ + 1] = 1.0
    out[r, off[O_DEALER] + (meta[i, M_DEALER] - seat + players) % players] = 1.0
    if not over:
        out[r, off[O_TO_ACT] + (meta[i, M_CURRENT] - seat + players) % players] = 1.0
    for k in range(3):
        out[r, off[O_RULES] + k] = rules[k]


@njit(inline="always", cache=True)
def _finish(totals: np.ndarray, meta: np.ndarray, i: int, players: int, max_moves: int,
            rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
            winner: np.ndarray, turns: np.ndarray, moves: np.ndarray) -> bool:
    """Report row i's result if its match is over or cut; True if it was."""
    if meta[i, M_OVER] != 0:
        terminated[i] = True
        low = totals[i, meta[i, M_WINNER]]
        for s in range(players):
            rewards[i, s] = 1.0 if totals[i, s] == low else -1.0
    elif max_moves > 0 and meta[i, M_MOVES] >= max_moves:
        truncated[i] = True
    else:
        return False
    winner[i] = meta[i, M_WINNER]
    turns[i] = meta[i, M_TURNS]
    moves[i] = meta[i, M_MOVES]
    return True


# ---------------------------------------------------------------- the kernels (loops over rows)


@njit(cache=True)
def _step_kernel(b: ThreeThirteenBatch, actions: np.ndarray, active: np.ndarray, players: int,
                 decks: int, vals: np.ndarray, ace_high: bool, all_wild: bool, max_moves: int,
                 autoreset: bool, rewards: np.ndarray, terminated: np.ndarray,
                 truncated: np.ndarray, winner: np.ndarray, turns: np.ndarray,
                 moves: np.ndarray) -> int:
    """Check every active row's action, then play them all; -1, or the first illegal row
    (nothing is played then)."""
    hands, sizes, stock, discard, taken, shown, totals, meta, rngs = b
    work = np.zeros((10, DEPTH), np.int64)  # the meld search's work array
    n = actions.shape[0]
    for i in range(n):
        if active[i] and not _is_legal(hands, meta, i, actions[i]):
            return i
    for i in range(n):
        if not active[i]:
            continue
        _apply_one(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i,
                   actions[i], players, decks, vals, ace_high, all_wild, work)
        if _finish(totals, meta, i, players, max_moves, rewards, terminated, truncated, winner,
                   turns, moves) and autoreset:
            _new_match(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i,
                       players, decks)
    return -1


@njit(cache=True)
def _random_kernel(b: ThreeThirteenBatch, out: np.ndarray) -> None:
    hands, _, _, _, _, _, _, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        if meta[i, M_OVER] != 0:
            out[i] = -1
            continue
        n = _legal_ids(hands, meta, i, buf)
        out[i] = buf[below(rngs, i, R_POLICY, n)] if n > 0 else -1


@njit(cache=True)
def _play_random_kernel(b: ThreeThirteenBatch, seat: int, active: np.ndarray, players: int,
                        decks: int, vals: np.ndarray, ace_high: bool, all_wild: bool,
                        max_moves: int, rewards: np.ndarray, terminated: np.ndarray,
                        truncated: np.ndarray, winner: np.ndarray, turns: np.ndarray,
                        moves: np.ndarray) -> None:
    """Random moves in each active row until ``seat`` is to act or the match ends or is cut."""
    hands, sizes, stock, discard, taken, shown, totals, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    work = np.zeros((10, DEPTH), np.int64)  # the meld search's work array
    for i in range(active.shape[0]):
        if not active[i]:
            continue
        while meta[i, M_OVER] == 0 and meta[i, M_CURRENT] != seat and not (
                max_moves > 0 and meta[i, M_MOVES] >= max_moves):
            n = _legal_ids(hands, meta, i, buf)
            _apply_one(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i,
                       buf[below(rngs, i, R_POLICY, n)], players, decks, vals, ace_high,
                       all_wild, work)
        _finish(totals, meta, i, players, max_moves, rewards, terminated, truncated, winner,
                turns, moves)


@njit(cache=True)
def _mask_kernel(b: ThreeThirteenBatch, rows: np.ndarray, out: np.ndarray) -> None:
    hands, _, _, _, _, _, _, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for r in range(rows.shape[0]):
        i = rows[r]
        for k in range(out.shape[1]):
            out[r, k] = 0
        if meta[i, M_OVER] != 0:
            continue
        n = _legal_ids(hands, meta, i, buf)
        for k in range(n):
            out[r, buf[k]] = 1


@njit(cache=True)
def _observe_kernel(b: ThreeThirteenBatch, rows: np.ndarray, seats: np.ndarray, players: int,
                    off: np.ndarray, rules: np.ndarray, out: np.ndarray) -> None:
    """Row ``rows[r]`` seen by ``seats[r]`` into ``out[r]``."""
    hands, sizes, _, discard, taken, shown, totals, meta, _ = b
    for r in range(rows.shape[0]):
        _observe_one(hands, sizes, discard, taken, shown, totals, meta, rows[r], seats[r],
                     players, off, rules, out, r)


@njit(cache=True)
def _deal_kernel(b: ThreeThirteenBatch, rows: np.ndarray, players: int, decks: int) -> None:
    hands, sizes, stock, discard, taken, shown, totals, meta, rngs = b
    for i in rows:
        _new_match(hands, sizes, stock, discard, taken, shown, totals, meta, rngs, i, players,
                   decks)


# ---------------------------------------------------------------- the engine


class VectorThreeThirteen(VectorEngine[ThreeThirteenBatch, ThreeThirteenResults]):
    """Batched Three Thirteen with its options fixed; ``max_moves`` (default none) cuts a
    match.

    Examples:
        >>> import numpy as np
        >>> from cardtable.vector import VectorThreeThirteen
        >>> engine = VectorThreeThirteen(players=3)
        >>> batch = engine.init(np.arange(4))
        >>> results = engine.step(batch, engine.random_actions(batch))
        >>> engine.legal_mask(batch).shape, engine.observe(batch).shape
        ((4, 54), (4, 924))
    """

    game_name = "threethirteen"
    num_actions = NUM_ACTIONS
    batch_type = ThreeThirteenBatch
    results_type = ThreeThirteenResults
    state_type = ThreeThirteenState
    episode = "match"

    def _configure(self, game: ThreeThirteenGame) -> None:
        self.decks = game.decks
        self.card_copies = game.decks
        opts = game.options
        self.vals = VALUES[opts["aces"], opts["face_values"]]
        self.ace_high = opts["aces"] == "both"
        self.all_wild_melds = bool(opts["all_wild_melds"])
        self._offsets = np.array([self.encoder.offsets[name] for name in SECTIONS], np.int64)
        self._rules = np.array([self.ace_high, opts["face_values"] == "counting",
                                self.all_wild_melds], np.float32)
        self._opts = (self.num_players, self.decks, self.vals, self.ace_high,
                      self.all_wild_melds, self.max_moves)
        assert MAX_SEATS == 12 and self.obs_size == 924

    def _empty(self, n: int) -> ThreeThirteenBatch:
        p = self.num_players
        return ThreeThirteenBatch(
            hands=np.zeros((n, p, NUM_CARDS), np.uint8), sizes=np.zeros((n, p), np.int8),
            stock=np.zeros((n, PILE), np.int8), discard=np.zeros((n, PILE), np.int8),
            taken=np.zeros((n, p, NUM_CARDS), np.uint8), shown=np.zeros((n, NUM_CARDS), np.uint8),
            totals=np.zeros((n, p), np.int32), meta=np.zeros((n, len(META_FIELDS)), np.int32),
            rngs=np.zeros((n, 4), np.uint64))

    def empty_results(self, n: int) -> ThreeThirteenResults:
        """Results of N rows in which nothing has ended."""
        return ThreeThirteenResults(rewards=np.zeros((n, self.num_players), np.float32),
                                    terminated=np.zeros(n, np.bool_),
                                    truncated=np.zeros(n, np.bool_),
                                    winner=np.full(n, -1, np.int8),
                                    turns=np.zeros(n, np.int32), moves=np.zeros(n, np.int32))

    def _load(self, batch: ThreeThirteenBatch, i: int, state: ThreeThirteenState) -> None:
        """The round's own generator is seeded from the row's seed and round; cards a setup
        position leaves out of play stay out until the next deal."""
        data = state.to_dict()
        meta = batch.meta[i]
        meta[:] = 0
        for name in ("hands", "taken", "sizes"):
            getattr(batch, name)[i] = 0
        batch.shown[i] = 0
        for seat, hand in enumerate(data["hands"]):
            for c in hand:
                batch.hands[i, seat, parse_card(c)] += 1
            batch.sizes[i, seat] = len(hand)
        for seat, cards in enumerate(data["taken"]):
            for c in cards:
                batch.taken[i, seat, parse_card(c)] += 1
        for meld in data["out_melds"] or ():
            for c in meld:
                batch.shown[i, parse_card(c)] += 1
        stock = [parse_card(c) for c in reversed(data["stock"])]  # top at the end
        batch.stock[i, :len(stock)] = stock
        discard = [parse_card(c) for c in reversed(data["discard"])]
        batch.discard[i, :len(discard)] = discard
        batch.totals[i] = data["scores"]
        meta[M_CURRENT] = data["current"]
        meta[M_DEALER] = data["dealer"]
        meta[M_ROUND] = data["round"]
        meta[M_DRAWING] = data["drawing"]
        meta[M_TURNS] = sum(1 for _, _, aid in data["history"] if aid >= DISCARD)
        meta[M_MOVES] = len(data["history"])
        meta[M_OVER] = data["over"]
        meta[M_WENT_OUT] = -1 if data["went_out"] is None else data["went_out"]
        meta[M_TURNS_LEFT] = data["turns_left"]
        meta[M_RESHUFFLED] = data["reshuffled"]
        meta[M_STOCK_LEN] = len(stock)
        meta[M_DISCARD_LEN] = len(discard)
        meta[M_WINNER] = state.winners[0] if state.winners else -1
        rngs = batch.rngs
        if rngs[i, R_EPISODE] == 0:
            rngs[i, R_EPISODE] = np.uint64(1)  # the loaded match counts as the row's first
        # the round's reshuffle: a stream of its own, apart from the deals' streams
        rngs[i, R_DEAL] = _round_seed(rngs[i, R_SEED], rngs[i, R_EPISODE], 15)

    def _stock(self, batch: ThreeThirteenBatch) -> tuple[np.ndarray, np.ndarray]:
        stock = batch.stock
        return stock, np.arange(stock.shape[1]) < batch.meta[:, M_STOCK_LEN, None]

    def _hidden_cards(self, batch: ThreeThirteenBatch, i: int
                      ) -> tuple[list[list[str]], list[str]]:
        """The hands (card order) and the stock (top first)."""
        hands = [[card_name(c) for c in range(NUM_CARDS) for _ in range(int(h[c]))]
                 for h in batch.hands[i]]
        stock = [card_name(c) for c in
                 reversed(batch.stock[i, :batch.meta[i, M_STOCK_LEN]].tolist())]
        return hands, stock

    def _kernel_new(self, batch: ThreeThirteenBatch, rows: np.ndarray) -> None:
        _deal_kernel(batch, rows, self.num_players, self.decks)

    def _kernel_step(self, batch: ThreeThirteenBatch, actions: np.ndarray, active: np.ndarray,
                     autoreset: bool, res: ThreeThirteenResults) -> int:
        return int(_step_kernel(batch, actions, active, *self._opts, autoreset, *res))

    def _kernel_play_random(self, batch: ThreeThirteenBatch, seat: int, active: np.ndarray,
                            res: ThreeThirteenResults) -> None:
        _play_random_kernel(batch, seat, active, *self._opts, *res)

    def _kernel_random(self, batch: ThreeThirteenBatch, out: np.ndarray) -> None:
        _random_kernel(batch, out)

    def _kernel_mask(self, batch: ThreeThirteenBatch, rows: np.ndarray,
                     out: np.ndarray) -> None:
        _mask_kernel(batch, rows, out)

    def _kernel_observe(self, batch: ThreeThirteenBatch, rows: np.ndarray, seats: np.ndarray,
                        out: np.ndarray) -> None:
        _observe_kernel(batch, rows, seats, self.num_players, self._offsets, self._rules, out)

    def penalties_after(self, batch: ThreeThirteenBatch) -> np.ndarray:
        """(N, 54) float32: for the seat to act in each row, the least penalty (3.7) of its
        hand after each legal move (drawing: the hand as it is; taking: after the best
        discard that follows; a discard: without that card), 0 for the other ids; what
        the trained bot adds to its network's values (``cardtable.bots.trained``)."""
        self._check_batch(batch)
        return _penalties_after(self, batch)


@njit(cache=True)
def _penalties_after_kernel(b: ThreeThirteenBatch, vals: np.ndarray, ace_high: bool,
                            all_wild: bool, out: np.ndarray) -> None:
    """For the seat to act in each row, the least penalty (3.7) its hand is left with after
    each of its legal moves, into ``out`` (N, 54): drawing, the hand as it is; taking, the
    best hand after taking the top discard and discarding any card; discarding a card,
    the hand without it. Other ids: 0."""
    work = np.zeros((10, DEPTH), np.int64)
    hand = np.zeros(NUM_CARDS, np.uint8)
    for i in range(b.meta.shape[0]):
        for a in range(out.shape[1]):
            out[i, a] = 0.0
        if b.meta[i, M_OVER] != 0:
            continue
        seat = b.meta[i, M_CURRENT]
        wild = b.meta[i, M_ROUND] + 1
        for c in range(NUM_CARDS):
            hand[c] = b.hands[i, seat, c]
        if b.meta[i, M_DRAWING] != 0:
            out[i, DRAW] = hand_penalty(hand, wild, vals, ace_high, all_wild, work)
            n = b.meta[i, M_DISCARD_LEN]
            if n > 0:
                top = b.discard[i, n - 1]
                hand[top] += 1
                best = 1 << 30
                for c in range(NUM_CARDS):
                    if hand[c] > 0:
                        hand[c] -= 1
                        p = hand_penalty(hand, wild, vals, ace_high, all_wild, work)
                        hand[c] += 1
                        if p < best:
                            best = p
                hand[top] -= 1
                out[i, TAKE] = best
        else:
            for c in range(NUM_CARDS):
                if hand[c] > 0:
                    hand[c] -= 1
                    out[i, DISCARD + c] = hand_penalty(hand, wild, vals, ace_high, all_wild,
                                                       work)
                    hand[c] += 1


def _penalties_after(engine: VectorThreeThirteen, batch: ThreeThirteenBatch) -> np.ndarray:
    out = np.zeros((batch.size, NUM_ACTIONS), np.float32)
    _penalties_after_kernel(batch, engine.vals, engine.ace_high, engine.all_wild_melds, out)
    return out


#: the old name of ``ThreeThirteenResults``
Results = ThreeThirteenResults
ENGINE = VectorThreeThirteen
