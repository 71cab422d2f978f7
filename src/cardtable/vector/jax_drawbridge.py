"""Batched Draw Bridge in JAX (docs/envs.md, "A JAX port"): ``cardtable.vector.make(
"drawbridge", backend="jax")``, for GPUs and TPUs, with the API of the numba env in pgx's
shape (``cardtable.vector._jax.JaxEnv``, as the Sequence port).

::

    import jax, numpy as np
    import cardtable.vector

    env = cardtable.vector.make("drawbridge", backend="jax", target=50)
    state = env.init(np.arange(4096))                  # a pytree of arrays, one row a match
    key = jax.random.key(0)
    while not (state.terminated | state.truncated).all():
        key, sub = jax.random.split(key)
        state = env.step(state, env.random_actions(sub, state))

A row is a whole match, as in the numba engine (``cardtable.vector.drawbridge``): when a
deal ends it is scored (1.6) and the next deal is dealt in the same step from the other
dealer (1.2), and the match ends when a seat reaches the target (1.7). The rules are the
numba engine's, move for move, and so are the deals: deal d of match m of a row comes
from (seed, m, d) through the numba engines' splitmix64 (``cardtable.vector._jax``).
``to_batch`` gives a state as the numba engine's ``DrawBridgeBatch``, ``from_batch`` the
other way (a position loaded from scalar states: ``engine.from_states``);
tests/vector/test_jax_drawbridge.py plays both engines side by side.

The numba engine's 52-bit masks (hands, cards played, drawn, shown; bids made) are
boolean arrays here (JAX's default has no 64-bit integers), one entry a card (``suit * 13
+ rank``) or a bid. An illegal action (or an id outside 0..89) ends its row with
``illegal_reward``, as in the Sequence port.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, NamedTuple

try:
    import jax
    import jax.numpy as jnp
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("the JAX backend needs JAX: pip install 'cardtable[jax]'") from exc
import numpy as np

from cardtable.cards import NUM_CARDS
from cardtable.drawbridge.game import BID, DOUBLE, DRAW_TRICKS, HAND_SIZE, PASS, REDOUBLE
from cardtable.drawbridge.scoring import BOOK
from cardtable.vector import _jax as rng64
from cardtable.vector._jax import JaxEnv, on_rows, step_rows, where_rows
from cardtable.vector._kernel import POLICY_SALT, R_DEAL, R_EPISODE, R_POLICY, R_SEED
from cardtable.vector.drawbridge import (
    AUCTION,
    DRAW,
    FACTOR,
    K_BIDS,
    K_DRAWN,
    K_HAND,
    K_PLAYED,
    K_SHOWN,
    M_BIDDER,
    M_CURRENT,
    M_DEAL,
    M_DEALER,
    M_DOUBLED,
    M_KIND,
    M_LEAD,
    M_LOWEST,
    M_MOVES,
    M_NCALLS,
    M_NPLAYED,
    M_OFF0,
    M_OVER,
    M_PASS0,
    M_PHASE,
    M_SCORE0,
    M_WINNER,
    M_WON0,
    NUM_ACTIONS,
    OBS_SIZE,
    OVER,
    PLAY,
    POWER,
    TRICK_POINTS,
    TRUMP,
    UNDER,
    DrawBridgeBatch,
    VectorDrawBridge,
)

NUM_BIDS = PASS - BID  # 35: seven levels of five strains
STOCK_SIZE = 2 * DRAW_TRICKS
_CARDS = np.arange(NUM_CARDS)
_SUIT = (_CARDS // 13).astype(np.int32)
_POWER = POWER.astype(np.int32)
_TRUMP = TRUMP.astype(np.int32)


class JaxDrawBridgeState(NamedTuple):
    """N Draw Bridge matches as JAX arrays (a pytree; row i = match i).

    pgx's fields first, then the match (the numba ``DrawBridgeBatch``: its masks as
    boolean arrays, one per seat; its ``meta`` columns as arrays of their own, a pair per
    seat where it has one per seat; its generators as uint32 halves). Never show the
    match's arrays to a player: they hold both hands and the stock.
    """

    #: (N,) int32 the seat to act (-1 once a match is over, without autoreset)
    current_player: jax.Array
    #: (N, 551) float32, what the seat to act knows (``cardtable.encoders``)
    observation: jax.Array
    #: (N, 90) bool, the legal actions of the seat to act (all True in a finished row)
    legal_action_mask: jax.Array
    #: (N, 2) float32, +1 the winner and -1 the other seat of a match that ended in this
    #: step, the illegal action's penalty, 0 otherwise
    rewards: jax.Array
    #: (N,) bool: the match ended by the rules or an illegal action / was cut at max_moves
    terminated: jax.Array
    truncated: jax.Array
    #: (N, 2, 52) bool per seat: its hand, the cards it played, drew and took face up
    #: (show_stock_top) this deal; (N, 2, 35) the bids it made
    hands: jax.Array
    played: jax.Array
    drawn: jax.Array
    shown: jax.Array
    bids: jax.Array
    #: (N, 26) int8: the stock as dealt, top first (draw trick k takes cards 2k, 2k + 1)
    stock: jax.Array
    #: (N,) int32 / (N, 2) int32 per seat: ``DrawBridgeBatch.meta``'s columns
    dealer: jax.Array
    phase: jax.Array
    lead: jax.Array
    deal: jax.Array
    n_played: jax.Array
    n_calls: jax.Array
    lowest_bid: jax.Array
    call_kind: jax.Array
    bidder: jax.Array
    doubled: jax.Array
    passes: jax.Array
    tricks_won: jax.Array
    scores: jax.Array
    off_suit: jax.Array
    moves: jax.Array
    over: jax.Array
    winner: jax.Array
    #: (N,) uint32: the row's seed (two halves), its matches begun, the deal's generator
    seed_hi: jax.Array
    seed_lo: jax.Array
    episode: jax.Array
    deal_hi: jax.Array
    deal_lo: jax.Array


#: the ``meta`` columns of one value per row, and their fields here
_SCALARS = ((M_DEALER, "dealer"), (M_PHASE, "phase"), (M_LEAD, "lead"), (M_DEAL, "deal"),
            (M_NPLAYED, "n_played"), (M_NCALLS, "n_calls"), (M_LOWEST, "lowest_bid"),
            (M_KIND, "call_kind"), (M_BIDDER, "bidder"), (M_DOUBLED, "doubled"),
            (M_MOVES, "moves"), (M_OVER, "over"), (M_WINNER, "winner"))
#: the columns of one value per seat (seat 0's; seat 1's follows)
_PAIRS = ((M_PASS0, "passes"), (M_WON0, "tricks_won"), (M_SCORE0, "scores"),
          (M_OFF0, "off_suit"))
#: the mask rows (seat 0's; seat 1's follows) and their fields here
_MASKS = ((K_HAND, "hands", NUM_CARDS), (K_PLAYED, "played", NUM_CARDS),
          (K_DRAWN, "drawn", NUM_CARDS), (K_SHOWN, "shown", NUM_CARDS),
          (K_BIDS, "bids", NUM_BIDS))


class JaxDrawBridge(JaxEnv):
    """Batched Draw Bridge in JAX with its options fixed (``target``, ``show_stock_top``,
    ``follow_suit_in_draw``, ``draw_trick_winner``, ``undertricks``), ``max_moves``
    (default 100,000, counted over a match) and pgx's rules at the end of a match
    (``autoreset`` False, ``illegal_reward`` -1.0 unless given). ``make("drawbridge",
    backend="jax", ...)`` builds it; the API is ``JaxEnv``'s.
    """

    engine_type = VectorDrawBridge
    state_type = JaxDrawBridgeState
    num_actions = NUM_ACTIONS

    def _compile(self) -> tuple[Any, Any, Any, Any]:
        e = self.engine
        self._rules = _Rules(e.target, e.show_top, e.follow_in_draw, e.draw_by_suit,
                             e.undertricks, e.max_moves)
        return _compiled(self._rules, self.autoreset, self.illegal_reward, self.zero_sum)

    # -- the numba engine's batches ----------------------------------------------

    def to_batch(self, state: JaxDrawBridgeState) -> DrawBridgeBatch:
        """The numba engine's ``DrawBridgeBatch`` of the same matches (NumPy arrays; for
        ``self.engine``'s methods). The random policy's stream is the seed's."""
        s = jax.device_get(state)
        n = s.stock.shape[0]
        batch = self.engine.empty(n)
        for row, name, size in _MASKS:
            bits = np.asarray(getattr(s, name), np.int64) << np.arange(size, dtype=np.int64)
            batch.masks[:, row:row + 2] = bits.sum(axis=2)
        batch.stock[:] = s.stock
        meta = batch.meta
        meta[:, M_CURRENT] = s.current_player
        for col, name in _SCALARS:
            meta[:, col] = getattr(s, name)
        for col, name in _PAIRS:
            meta[:, col:col + 2] = getattr(s, name)
        seed = rng64.join_host(s.seed_hi, s.seed_lo)
        batch.rngs[:, R_SEED] = seed
        batch.rngs[:, R_EPISODE] = s.episode
        batch.rngs[:, R_DEAL] = rng64.join_host(s.deal_hi, s.deal_lo)
        batch.rngs[:, R_POLICY] = seed ^ POLICY_SALT
        return batch

    def from_batch(self, batch: DrawBridgeBatch) -> JaxDrawBridgeState:
        """A state holding the matches of a numba ``DrawBridgeBatch`` of this env's options
        (``self.engine.from_states(...)`` loads scalar positions into one): live rows,
        zero rewards."""
        n = self.engine._check_batch(batch)
        arrays: dict[str, Any] = {}
        for row, name, size in _MASKS:
            masks = batch.masks[:, row:row + 2, None]
            arrays[name] = (masks >> np.arange(size, dtype=np.int64)) & 1 != 0
        arrays["stock"] = batch.stock
        meta = batch.meta
        for col, name in _SCALARS:
            arrays[name] = meta[:, col]
        for col, name in _PAIRS:
            arrays[name] = meta[:, col:col + 2]
        arrays["seed_hi"], arrays["seed_lo"] = rng64.split_host(batch.rngs[:, R_SEED])
        arrays["deal_hi"], arrays["deal_lo"] = rng64.split_host(batch.rngs[:, R_DEAL])
        arrays["episode"] = batch.rngs[:, R_EPISODE].astype(np.uint32)
        state = JaxDrawBridgeState(
            current_player=jnp.asarray(meta[:, M_CURRENT].astype(np.int32)),
            observation=jnp.zeros((n, OBS_SIZE), jnp.float32),
            legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
            rewards=jnp.zeros((n, 2), jnp.float32),
            terminated=jnp.zeros(n, bool), truncated=jnp.zeros(n, bool),
            **{name: jnp.asarray(np.array(value)) for name, value in arrays.items()})
        return self._refresh(state)


@lru_cache(maxsize=32)
def _compiled(rules: _Rules, autoreset: bool, penalty: float,
              zero_sum: bool) -> tuple[Any, Any, Any, Any]:
    """``init``, ``step``, ``observe`` and the views compiled for these rules: envs of the
    same options share them (and XLA's compiled code)."""
    return (jax.jit(partial(_init, rules)),
            jax.jit(partial(_step, rules, autoreset, penalty, zero_sum)),
            jax.jit(partial(_observe_rows, rules)), jax.jit(partial(_refresh_views, rules)))


class _Rules(NamedTuple):
    """The options, fixed at compile time."""

    target: int
    show_top: bool
    follow_in_draw: bool
    draw_by_suit: bool
    undertricks: bool
    max_moves: int


# ------------------------------------------------------------------ one row (vmapped)


def _own_first(pair: jax.Array, seat: jax.Array) -> jax.Array:
    """A per-seat pair (2, ...) as (seat's, the other's), without a gather."""
    return jnp.where(seat == 0, pair, pair[::-1])


def _legal_row(rules: _Rules, s: JaxDrawBridgeState) -> jax.Array:
    """The 90 legal ids of the row's seat to act (1.3, 1.4, 1.5); none once over."""
    seat = jnp.maximum(s.current_player, 0)
    hand = _own_first(s.hands, seat)[0]
    follows = (s.lead >= 0) & ((s.phase == PLAY) | rules.follow_in_draw)
    suited = hand & (jnp.asarray(_SUIT) == s.lead // 13)
    cards = jnp.where(follows & suited.any(), suited, hand)
    bids = jnp.arange(BID, PASS) >= s.lowest_bid
    calls = jnp.concatenate([jnp.zeros(NUM_CARDS, bool), bids,
                             jnp.stack([jnp.asarray(True), s.call_kind == 1,
                                        s.call_kind == 2])])
    plays = jnp.concatenate([cards, jnp.zeros(NUM_ACTIONS - NUM_CARDS, bool)])
    return jnp.where(s.phase == AUCTION, calls, plays) & (s.over == 0)


def _observe_row(rules: _Rules, s: JaxDrawBridgeState, seat: jax.Array) -> jax.Array:
    """The row seen by ``seat``: ``DrawBridgeEncoder``'s layout (``_observe_one``)."""
    in_draw = s.phase == DRAW
    taken = s.n_played // 2 * 2
    top = s.stock[jnp.minimum(taken, STOCK_SIZE - 1)]
    has_bid = s.bidder >= 0
    parts = [jnp.arange(4) == s.phase, _own_first(s.hands, seat)[0],
             _own_first(s.drawn, seat)[0], _own_first(s.played, seat),
             jnp.asarray(_CARDS) == s.lead,
             (_own_first(s.off_suit, seat)[:, None] >> jnp.arange(4)) & 1,
             (jnp.asarray(_CARDS) == top) & in_draw & rules.show_top,
             _own_first(s.shown, seat), _own_first(s.bids, seat),
             (jnp.arange(NUM_BIDS) == s.lowest_bid - 1 - BID) & has_bid,
             (jnp.arange(2) == (s.bidder != seat)) & has_bid,
             jnp.stack([s.doubled >= 1, s.doubled == 2]) & has_bid,
             _own_first(s.passes, seat), _own_first(s.tricks_won, seat),
             jnp.where(in_draw, STOCK_SIZE - taken, 0), _own_first(s.scores, seat),
             jnp.asarray(rules.target), s.dealer == seat, s.current_player == seat,
             jnp.asarray([rules.show_top, rules.follow_in_draw, rules.draw_by_suit,
                          rules.undertricks])]
    return jnp.concatenate([jnp.asarray(p, jnp.float32).reshape(-1) for p in parts])


def _apply_row(rules: _Rules, s: JaxDrawBridgeState,
               a: jax.Array) -> tuple[JaxDrawBridgeState, jax.Array]:
    """Play legal action ``a`` (``_apply_one``) but the end of a deal; returns the row and
    whether the deal ends (passed out, or its last trick played)."""
    seat = s.current_player
    other = 1 - seat
    seat_hot = jnp.arange(2) == seat
    # 1.4: a call
    is_call = a >= BID
    is_pass = a == PASS
    is_bid = is_call & (a < PASS)
    is_double, is_redouble = a == DOUBLE, a == REDOUBLE
    n_calls = s.n_calls + is_call
    to_play = is_pass & (s.bidder >= 0)  # ruling 1.4: a pass after a bid, double, redouble
    passed_out = is_pass & (s.bidder < 0) & (n_calls != 1)
    bid_hot = seat_hot[:, None] & (jnp.arange(NUM_BIDS) == a - BID)[None, :] & is_bid
    # 1.3 / 1.5: a card
    is_card = ~is_call
    leads = is_card & (s.lead < 0)
    follows = is_card & (s.lead >= 0)
    card_hot = seat_hot[:, None] & (jnp.asarray(_CARDS) == a)[None, :] & is_card
    n_played = s.n_played + is_card
    lead = jnp.maximum(s.lead, 0)
    lead_suit, suit = lead // 13, a // 13
    same = lead_suit == suit
    power = jnp.asarray(_POWER)
    by_rank = power[a] > power[lead]  # 1.3 ruling: of two equal ranks the card led wins
    trump = jnp.asarray(_TRUMP)[(s.lowest_bid - 1 - BID) % 5]
    in_draw = s.phase == DRAW
    beats = jnp.where(same | (in_draw & ~rules.draw_by_suit), by_rank,
                      ~in_draw & (suit == trump))  # suit-led draw: another suit never wins
    winner = jnp.where(beats, seat, other)
    win_hot = jnp.arange(2) == winner
    # 1.3: the draw trick's winner takes the top card of the stock, the loser the next one
    draw_trick = follows & in_draw
    k = jnp.clip(n_played // 2 - 1, 0, DRAW_TRICKS - 1)
    won_card = jnp.asarray(_CARDS) == s.stock[2 * k]
    lost_card = jnp.asarray(_CARDS) == s.stock[2 * k + 1]
    taken = ((win_hot[:, None] & won_card[None, :]) | (~win_hot[:, None] & lost_card[None, :])
             ) & draw_trick
    draw_over = draw_trick & (k + 1 >= DRAW_TRICKS)
    play_trick = follows & (s.phase == PLAY)
    last_trick = play_trick & (n_played >= NUM_CARDS)
    current = jnp.where(
        is_call, jnp.where(to_play, 1 - s.bidder, other),  # 1.5: declarer's opponent leads
        jnp.where(leads, other, jnp.where(draw_over, s.dealer, winner)))  # 1.4: dealer calls
    s = s._replace(
        current_player=current,
        phase=jnp.where(to_play, PLAY, jnp.where(draw_over, AUCTION, s.phase)),
        moves=s.moves + 1, n_calls=n_calls, n_played=n_played,
        passes=s.passes + (is_pass & seat_hot),
        doubled=jnp.where(is_double, 1, jnp.where(is_redouble, 2,
                                                  jnp.where(is_bid, 0, s.doubled))),
        call_kind=jnp.where(is_double, 2, jnp.where(is_redouble, 0,
                                                    jnp.where(is_bid, 1, s.call_kind))),
        lowest_bid=jnp.where(is_bid, a + 1, s.lowest_bid),
        bidder=jnp.where(is_bid, seat, s.bidder), bids=s.bids | bid_hot,
        hands=(s.hands & ~card_hot) | taken, played=s.played | card_hot,
        drawn=s.drawn | taken,
        shown=s.shown | (taken & win_hot[:, None] & won_card[None, :] & rules.show_top),
        lead=jnp.where(leads, a, jnp.where(is_card, -1, s.lead)),
        off_suit=s.off_suit | jnp.where(seat_hot & follows & ~same, 1 << lead_suit, 0),
        tricks_won=s.tricks_won + (play_trick & win_hot))
    return s, passed_out | last_trick


def _score_row(rules: _Rules, s: JaxDrawBridgeState) -> JaxDrawBridgeState:
    """1.6 / 1.7: score the deal that ended (a passed-out deal scores nothing); the match
    is over if a seat reached the target (only one seat scores in a deal)."""
    bidder = jnp.maximum(s.bidder, 0)
    bid = jnp.maximum(s.lowest_bid - 1 - BID, 0)
    level, strain = bid // 5 + 1, bid % 5
    tricks = _own_first(s.tricks_won, bidder)[0]
    made = tricks >= BOOK + level
    points = jnp.asarray(TRICK_POINTS)[strain, jnp.clip(tricks - BOOK, 0, 7)] \
        * jnp.asarray(FACTOR)[s.doubled]
    under = (BOOK + level - tricks) * jnp.asarray(UNDER)[s.doubled]
    played = s.phase == PLAY
    declarer = jnp.arange(2) == bidder
    gain = jnp.where(played & made, jnp.where(declarer, points, 0),
                     jnp.where(played & rules.undertricks, jnp.where(declarer, 0, under), 0))
    scores = s.scores + gain
    reached = scores >= rules.target
    winner = jnp.where(reached[0], 0, jnp.where(reached[1], 1, -1))
    over = winner >= 0
    return s._replace(scores=scores, winner=winner, over=over.astype(jnp.int32),
                      phase=jnp.where(over, OVER, s.phase),
                      current_player=jnp.where(over, -1, s.current_player))


def _deal_row(s: JaxDrawBridgeState, match: jax.Array, number: jax.Array,
              dealer: jax.Array) -> JaxDrawBridgeState:
    """1.2: deal ``number`` of match ``match`` from (seed, match, number) alone
    (``_deal_one``): 13 cards each, one at a time, non-dealer first, the rest the stock;
    ``dealer`` -1 draws the first dealer at random. The match fields are kept."""
    golden = (jnp.uint32(rng64.GOLDEN64[0]), jnp.uint32(rng64.GOLDEN64[1]))
    zero = jnp.zeros_like(s.episode)
    of_match = rng64.mix(rng64.mul64((zero, match + 1), golden))  # match * G + G
    of_deal = rng64.mix(rng64.mul64((zero, number.astype(jnp.uint32)), golden))
    state = rng64.mix(rng64.xor64(rng64.xor64((s.seed_hi, s.seed_lo), of_match), of_deal))
    deck, state = rng64.shuffle(jnp.arange(NUM_CARDS, dtype=jnp.int8), NUM_CARDS, state)
    drawn = dealer < 0
    dealer = jnp.where(drawn, rng64.below_at(state, 0, 2), dealer)
    after = rng64.advance(state, 1)
    state = (jnp.where(drawn, after[0], state[0]), jnp.where(drawn, after[1], state[1]))
    seat_of = (dealer + 1 + jnp.arange(2 * HAND_SIZE)) % 2
    # the one card a slot holds, placed by a scatter (not a (26, 52) comparison, which XLA
    # fuses with the generator's arithmetic and runs a thousand times slower on a CPU)
    dealt = deck[:2 * HAND_SIZE].astype(jnp.int32)
    hands = jnp.stack([jnp.zeros(NUM_CARDS, bool).at[dealt].set(seat_of == seat)
                       for seat in (0, 1)])
    none = jnp.zeros_like(s.hands)
    zero32 = jnp.zeros((), jnp.int32)
    pair = jnp.zeros(2, jnp.int32)
    return s._replace(
        hands=hands, played=none, drawn=none, shown=none, bids=jnp.zeros_like(s.bids),
        stock=deck[2 * HAND_SIZE:], dealer=dealer.astype(jnp.int32),
        current_player=(1 - dealer).astype(jnp.int32),  # 1.3: the non-dealer leads
        phase=zero32 + DRAW, lead=zero32 - 1, deal=jnp.asarray(number, jnp.int32),
        n_played=zero32, n_calls=zero32, lowest_bid=zero32 + BID, call_kind=zero32,
        bidder=zero32 - 1, doubled=zero32, passes=pair, tricks_won=pair, off_suit=pair,
        deal_hi=state[0], deal_lo=state[1])


def _next_deal_row(s: JaxDrawBridgeState) -> JaxDrawBridgeState:
    """1.2 / 1.4: the match's next deal, from the other dealer (a passed-out deal too)."""
    return _deal_row(s, s.episode - 1, s.deal + 1, 1 - s.dealer)


def _new_match_row(s: JaxDrawBridgeState) -> JaxDrawBridgeState:
    """The first deal of the row's next match, scores 0, the first dealer at random."""
    zero = jnp.zeros((), jnp.int32)
    s = s._replace(scores=jnp.zeros(2, jnp.int32), moves=zero, over=zero, winner=zero - 1)
    s = _deal_row(s, s.episode, zero + 1, zero - 1)
    return s._replace(episode=s.episode + 1)


# ------------------------------------------------------------------ the batch


def _refresh_views(rules: _Rules, s: JaxDrawBridgeState,
                   finished: jax.Array | None = None) -> JaxDrawBridgeState:
    """The observation and mask of each row's seat to act (seat 0 once over; all True
    where ``finished``)."""
    mask = jax.vmap(partial(_legal_row, rules))(s)
    if finished is not None:
        mask = mask | finished[:, None]
    obs = jax.vmap(partial(_observe_row, rules))(s, jnp.maximum(s.current_player, 0))
    return s._replace(observation=obs, legal_action_mask=mask)


def _init(rules: _Rules, seed_hi: jax.Array, seed_lo: jax.Array) -> JaxDrawBridgeState:
    n = seed_hi.shape[0]
    z32 = jnp.zeros(n, jnp.int32)
    pair = jnp.zeros((n, 2), jnp.int32)
    cards = jnp.zeros((n, 2, NUM_CARDS), bool)
    blank = JaxDrawBridgeState(
        current_player=z32, observation=jnp.zeros((n, OBS_SIZE), jnp.float32),
        legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
        rewards=jnp.zeros((n, 2), jnp.float32),
        terminated=jnp.zeros(n, bool), truncated=jnp.zeros(n, bool),
        hands=cards, played=cards, drawn=cards, shown=cards,
        bids=jnp.zeros((n, 2, NUM_BIDS), bool), stock=jnp.zeros((n, STOCK_SIZE), jnp.int8),
        dealer=z32, phase=z32, lead=z32, deal=z32, n_played=z32, n_calls=z32,
        lowest_bid=z32, call_kind=z32, bidder=z32, doubled=z32, passes=pair,
        tricks_won=pair, scores=pair, off_suit=pair, moves=z32, over=z32, winner=z32,
        seed_hi=seed_hi, seed_lo=seed_lo, episode=jnp.zeros(n, jnp.uint32),
        deal_hi=jnp.zeros(n, jnp.uint32), deal_lo=jnp.zeros(n, jnp.uint32))
    return _refresh_views(rules, jax.vmap(_new_match_row)(blank))


def _play(rules: _Rules, s: JaxDrawBridgeState, a: jax.Array,
          legal: jax.Array) -> JaxDrawBridgeState:
    """The legal rows' actions played; a deal that ends is scored, and the match ends or
    its next deal is dealt (shuffled only in the rows that need it)."""
    moved, ends_deal = jax.vmap(partial(_apply_row, rules))(s, a)
    g = where_rows(legal, moved, s)
    ends_deal = ends_deal & legal
    g = where_rows(ends_deal, jax.vmap(partial(_score_row, rules))(g), g)
    return on_rows(_next_deal_row, ends_deal & (g.over == 0), g)


def _step(rules: _Rules, autoreset: bool, penalty: float, zero_sum: bool,
          s: JaxDrawBridgeState, actions: jax.Array) -> JaxDrawBridgeState:
    return step_rows(s, actions, num_actions=NUM_ACTIONS, teams=np.arange(2),
                     max_moves=rules.max_moves, autoreset=autoreset, penalty=penalty,
                     zero_sum=zero_sum, play=partial(_play, rules), new_episode=_new_match_row,
                     refresh=partial(_refresh_views, rules))


def _observe_rows(rules: _Rules, s: JaxDrawBridgeState, seats: jax.Array) -> jax.Array:
    return jax.vmap(partial(_observe_row, rules))(s, seats)


ENV = JaxDrawBridge
