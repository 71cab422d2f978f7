"""Batched Three Thirteen in JAX (docs/envs.md, "A JAX port"): ``cardtable.vector.make(
"threethirteen", backend="jax", **options)``, for GPUs and TPUs, with the API of the numba
env in pgx's shape (``cardtable.vector._jax.JaxEnv``, as the Sequence and Draw Bridge
ports), every option of the numba engine (``players``, ``decks``, ``aces``,
``face_values``, ``all_wild_melds``).

::

    import jax, numpy as np
    import cardtable.vector

    env = cardtable.vector.make("threethirteen", backend="jax", players=3)
    state = env.init(np.arange(1024))                  # a pytree of arrays, one row a match
    key = jax.random.key(0)
    while not (state.terminated | state.truncated).all():
        key, sub = jax.random.split(key)
        state = env.step(state, env.random_actions(sub, state))

A row is a whole match of 11 rounds, as in the numba engine (``cardtable.vector.
threethirteen``): a discard that leaves a hand of melds goes out (3.6, the JAX meld
solver of ``cardtable.vector.jax_threethirteen_melds``), a round that ends is scored at
every hand's best split (3.7) and the next round dealt in the same step, and the match
ends after round 11 (3.9), every seat with the lowest total winning. The rules are the
numba engine's, move for move, and so are the deals and the remade stocks: round r of
match m of a row is shuffled from (seed, m, r) through the numba engines' splitmix64
(``cardtable.vector._jax``). ``to_batch`` gives a state as the numba engine's
``ThreeThirteenBatch``, ``from_batch`` the other way; tests/vector/test_jax_threethirteen.py
plays both engines side by side.

The numba batch's ``meta`` columns are arrays of their own here, its 208-card piles are
as long as the decks in play (``to_batch`` pads them). An illegal action (or an id
outside 0..53) ends its row with ``illegal_reward``, as in the other ports.
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
from cardtable.encoders.threethirteen import MAX_SEATS
from cardtable.threethirteen.game import DISCARD, DRAW, ROUNDS, TAKE
from cardtable.vector import _jax as rng64
from cardtable.vector._jax import JaxEnv, on_rows, step_rows, where_rows
from cardtable.vector._kernel import POLICY_SALT, R_DEAL, R_EPISODE, R_POLICY, R_SEED
from cardtable.vector.jax_threethirteen_melds import hand_penalty, melds_fully
from cardtable.vector.threethirteen import (
    M_CURRENT,
    META_FIELDS,
    NUM_ACTIONS,
    SECTIONS,
    ThreeThirteenBatch,
    VectorThreeThirteen,
)

#: the ``meta`` columns but the seat to act (``current_player``), by name
_SCALARS = tuple((col, name) for col, name in enumerate(META_FIELDS) if col != M_CURRENT)
#: the card arrays of ``ThreeThirteenBatch`` kept as they are
_CARD_ARRAYS = ("hands", "sizes", "taken", "shown", "totals")
#: the observation's sections and their lengths (``ThreeThirteenEncoder``'s layout)
_SECTION_SIZES = {"phase": 3, "hand": NUM_CARDS, "discard_pile": NUM_CARDS,
                  "top_discard": NUM_CARDS, "taken": MAX_SEATS * NUM_CARDS,
                  "shown_melds": NUM_CARDS, "went_out": MAX_SEATS, "hand_sizes": MAX_SEATS,
                  "stock_size": 1, "reshuffled": 1, "round": ROUNDS, "wild_rank": 13,
                  "dealer": MAX_SEATS, "to_act": MAX_SEATS, "scores": MAX_SEATS, "rules": 3}
OBS_SIZE = sum(_SECTION_SIZES.values())


class JaxThreeThirteenState(NamedTuple):
    """N Three Thirteen matches as JAX arrays (a pytree; row i = match i).

    pgx's fields first, then the match (the numba ``ThreeThirteenBatch``: its card arrays
    as they are, its piles as long as the decks in play, its ``meta`` columns as arrays of
    their own, its generators as uint32 halves). Never show the match's arrays to a
    player: they hold every hand and the stock.
    """

    #: (N,) int32 the seat to act (after the last move once a match is over, as the numba
    #: engine)
    current_player: jax.Array
    #: (N, 924) float32, what the seat to act knows (``cardtable.encoders``)
    observation: jax.Array
    #: (N, 54) bool, the legal actions of the seat to act (all True in a finished row)
    legal_action_mask: jax.Array
    #: (N, players) float32, +1 each seat with the lowest total and -1 the others at the
    #: end of a match in this step, the illegal action's penalty, 0 otherwise
    rewards: jax.Array
    #: (N,) bool: the match ended by the rules or an illegal action / was cut at max_moves
    terminated: jax.Array
    truncated: jax.Array
    #: (N, players, 52) int8 copies of each card in each hand; the cards each seat took
    #: from the discard pile this round and still holds (public)
    hands: jax.Array
    taken: jax.Array
    #: (N, players) int32 cards in each hand; penalty totals of the rounds completed
    sizes: jax.Array
    totals: jax.Array
    #: (N, 52) int8: the melds shown by the seat that went out this round
    shown: jax.Array
    #: (N, 52 x decks) int8: the stock, its top at ``stock_len - 1``; the discard pile,
    #: its top at ``discard_len - 1``
    stock: jax.Array
    discard: jax.Array
    #: (N,) int32: ``ThreeThirteenBatch.meta``'s columns
    dealer: jax.Array
    round: jax.Array
    drawing: jax.Array
    turns: jax.Array
    moves: jax.Array
    over: jax.Array
    went_out: jax.Array
    turns_left: jax.Array
    reshuffled: jax.Array
    stock_len: jax.Array
    discard_len: jax.Array
    winner: jax.Array
    #: (N,) uint32: the row's seed (two halves), its matches begun, the round's generator
    seed_hi: jax.Array
    seed_lo: jax.Array
    episode: jax.Array
    deal_hi: jax.Array
    deal_lo: jax.Array


class JaxThreeThirteen(JaxEnv):
    """Batched Three Thirteen in JAX with its options fixed (``players``, ``decks``,
    ``aces``, ``face_values``, ``all_wild_melds``), ``max_moves`` (default 100,000,
    counted over a match) and pgx's rules at the end of a match (``autoreset`` False,
    ``illegal_reward`` -1.0 unless given). ``make("threethirteen", backend="jax", ...)``
    builds it; the API is ``JaxEnv``'s.
    """

    engine_type = VectorThreeThirteen
    state_type = JaxThreeThirteenState
    num_actions = NUM_ACTIONS

    def _compile(self) -> tuple[Any, Any, Any, Any]:
        e = self.engine
        offsets = [e.encoder.offsets[name] for name in SECTIONS]
        assert offsets == list(np.cumsum([0, *_SECTION_SIZES.values()])[:-1]) \
            and e.obs_size == OBS_SIZE
        self._rules = _Rules(e.num_players, e.decks, tuple(int(v) for v in e.vals),
                             e.ace_high, e.game.options["face_values"] == "counting",
                             e.all_wild_melds, e.max_moves)
        return _compiled(self._rules, self.autoreset, self.illegal_reward, self.zero_sum)

    # -- the numba engine's batches ----------------------------------------------

    def to_batch(self, state: JaxThreeThirteenState) -> ThreeThirteenBatch:
        """The numba engine's ``ThreeThirteenBatch`` of the same matches (NumPy arrays; for
        ``self.engine``'s methods). The random policy's stream is the seed's."""
        s = jax.device_get(state)
        n = s.stock.shape[0]
        batch = self.engine.empty(n)
        for name in _CARD_ARRAYS:
            getattr(batch, name)[:] = getattr(s, name)
        pile = s.stock.shape[1]
        batch.stock[:, :pile] = s.stock
        batch.discard[:, :pile] = s.discard
        meta = batch.meta
        meta[:, M_CURRENT] = s.current_player
        for col, name in _SCALARS:
            meta[:, col] = getattr(s, name)
        seed = rng64.join_host(s.seed_hi, s.seed_lo)
        batch.rngs[:, R_SEED] = seed
        batch.rngs[:, R_EPISODE] = s.episode
        batch.rngs[:, R_DEAL] = rng64.join_host(s.deal_hi, s.deal_lo)
        batch.rngs[:, R_POLICY] = seed ^ POLICY_SALT
        return batch

    def from_batch(self, batch: ThreeThirteenBatch) -> JaxThreeThirteenState:
        """A state holding the matches of a numba ``ThreeThirteenBatch`` of this env's
        options (``self.engine.from_states(...)`` loads scalar positions into one): live
        rows, zero rewards."""
        n = self.engine._check_batch(batch)
        pile = self.engine.decks * NUM_CARDS
        arrays: dict[str, Any] = {name: getattr(batch, name) for name in _CARD_ARRAYS}
        for name in ("hands", "taken", "shown"):
            arrays[name] = arrays[name].astype(np.int8)
        arrays["sizes"] = arrays["sizes"].astype(np.int32)
        arrays["stock"] = batch.stock[:, :pile]
        arrays["discard"] = batch.discard[:, :pile]
        meta = batch.meta
        for col, name in _SCALARS:
            arrays[name] = meta[:, col]
        arrays["seed_hi"], arrays["seed_lo"] = rng64.split_host(batch.rngs[:, R_SEED])
        arrays["deal_hi"], arrays["deal_lo"] = rng64.split_host(batch.rngs[:, R_DEAL])
        arrays["episode"] = batch.rngs[:, R_EPISODE].astype(np.uint32)
        state = JaxThreeThirteenState(
            current_player=jnp.asarray(meta[:, M_CURRENT].astype(np.int32)),
            observation=jnp.zeros((n, OBS_SIZE), jnp.float32),
            legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
            rewards=jnp.zeros((n, self.num_players), jnp.float32),
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

    players: int
    decks: int
    #: the penalty of an unmelded card by rank (3.7, 3.8)
    values: tuple[int, ...]
    ace_high: bool
    counting: bool
    all_wild_melds: bool
    max_moves: int

    @property
    def pile(self) -> int:
        """Every card in play: the longest a pile can be."""
        return self.decks * NUM_CARDS


# ------------------------------------------------------------------ one row (vmapped)


def _pick(on: jax.Array, new: JaxThreeThirteenState,
          old: JaxThreeThirteenState) -> JaxThreeThirteenState:
    """One row: ``new`` where ``on``, else ``old``."""
    return type(new)(*(jnp.where(on, a, b) for a, b in zip(new, old, strict=True)))


def _legal_row(rules: _Rules, s: JaxThreeThirteenState) -> jax.Array:
    """The 54 legal ids of the row's seat to act (3.4); none once over."""
    hand = s.hands[s.current_player] > 0
    draws = jnp.concatenate([jnp.stack([s.stock_len > 0, s.discard_len > 0]),
                             jnp.zeros(NUM_CARDS, bool)])
    discards = jnp.concatenate([jnp.zeros(DISCARD, bool), hand])
    return jnp.where(s.drawing != 0, draws, discards) & (s.over == 0)


def _observe_row(rules: _Rules, s: JaxThreeThirteenState, seat: jax.Array) -> jax.Array:
    """The row seen by ``seat``: ``ThreeThirteenEncoder``'s layout (``_observe_one``)."""
    p = rules.players
    pad = MAX_SEATS - p
    order = (seat + jnp.arange(p)) % p  # the seat itself first, then on to its left
    over = s.over != 0
    n = s.discard_len
    in_pile = jnp.arange(rules.pile) < n
    pile = jnp.zeros(NUM_CARDS, jnp.int32).at[s.discard.astype(jnp.int32)].add(in_pile)
    top = (jnp.arange(NUM_CARDS) == s.discard[jnp.maximum(n - 1, 0)]) & (n > 0)
    went = s.went_out >= 0

    def relative(seat_of: jax.Array) -> jax.Array:
        return jnp.arange(MAX_SEATS) == (seat_of - seat + p) % p

    def per_seat(values: jax.Array) -> jax.Array:
        return jnp.pad(values[order], ((0, pad),) + ((0, 0),) * (values.ndim - 1))

    parts = [jnp.arange(3) == jnp.where(over, 2, jnp.where(s.drawing != 0, 0, 1)),
             s.hands[seat], pile, top, per_seat(s.taken),
             jnp.where(went, s.shown, 0), relative(s.went_out) & went,
             per_seat(s.sizes), s.stock_len, s.reshuffled,
             jnp.arange(ROUNDS) == s.round - 1, jnp.arange(13) == s.round + 1,
             relative(s.dealer), relative(s.current_player) & ~over, per_seat(s.totals),
             jnp.asarray([rules.ace_high, rules.counting, rules.all_wild_melds])]
    return jnp.concatenate([jnp.asarray(x, jnp.float32).reshape(-1) for x in parts])


def _apply_row(rules: _Rules, s: JaxThreeThirteenState, a: jax.Array, legal: jax.Array
               ) -> tuple[JaxThreeThirteenState, jax.Array, jax.Array]:
    """Play legal action ``a`` (``_apply_one``) but the end of a round and the remade
    stock; returns the row, whether the round ends and whether the stock is remade."""
    p = rules.players
    seat = s.current_player
    seat_hot = jnp.arange(p) == seat
    cards = jnp.arange(NUM_CARDS)
    # 3.4: draw the stock's top card or take the discard pile's
    draws = a < DISCARD
    is_draw, is_take = a == DRAW, a == TAKE
    drawn = jnp.where(is_draw, s.stock[jnp.maximum(s.stock_len - 1, 0)],
                      s.discard[jnp.maximum(s.discard_len - 1, 0)])
    # then discard any card, even the one just taken
    card = jnp.where(draws, drawn, a - DISCARD).astype(jnp.int32)
    card_hot = seat_hot[:, None] & (cards == card)[None, :]
    hands = s.hands + jnp.where(card_hot, jnp.where(draws, 1, -1), 0).astype(s.hands.dtype)
    took = card_hot & is_take
    gave_back = card_hot & ~draws & (s.taken > 0)  # a card taken and discarded again
    taken = s.taken + took.astype(s.taken.dtype) - gave_back.astype(s.taken.dtype)
    discards = ~draws
    discard = s.discard.at[jnp.where(discards, s.discard_len, rules.pile)].set(
        card.astype(s.discard.dtype), mode="drop")
    # 3.6 ruling: a discard that leaves melds only goes out; the others have one more turn
    hand = hands[seat]
    goes = melds_fully(hand, s.round + 1, jnp.asarray(rules.values), rules.ace_high,
                       rules.all_wild_melds, rules.decks,
                       needed=legal & discards & (s.went_out < 0))
    after_out = discards & (s.went_out >= 0)
    turns_left = jnp.where(goes, p - 1, s.turns_left - after_out)
    last_turn = after_out & (turns_left == 0)
    moves_on = discards & ~last_turn
    stock_len = s.stock_len - is_draw
    # 3.4 ruling: an empty stock is remade once a round; the second time the round ends
    empty = moves_on & (stock_len == 0)
    s = s._replace(
        current_player=jnp.where(moves_on, (seat + 1) % p, seat),
        hands=hands, taken=taken, discard=discard,
        sizes=s.sizes + jnp.where(seat_hot, jnp.where(draws, 1, -1), 0),
        shown=jnp.where(goes, hand, s.shown),
        drawing=jnp.where(draws, 0, jnp.where(last_turn, s.drawing, 1)),
        turns=s.turns + discards, moves=s.moves + 1,
        went_out=jnp.where(goes, seat, s.went_out), turns_left=turns_left,
        stock_len=stock_len,
        discard_len=s.discard_len + jnp.where(draws, jnp.where(is_take, -1, 0), 1))
    return s, last_turn | (empty & (s.reshuffled != 0)), empty & (s.reshuffled == 0)


def _remake_stock_row(rules: _Rules, s: JaxThreeThirteenState) -> JaxThreeThirteenState:
    """3.4 ruling: the discard pile but its top card, shuffled, is the new stock."""
    n = s.discard_len - 1
    stock = jnp.where(jnp.arange(rules.pile) < n, s.discard, s.stock)
    stock, (hi, lo) = rng64.shuffle(stock, n, (s.deal_hi, s.deal_lo))
    return s._replace(stock=stock, stock_len=n, discard=s.discard.at[0].set(s.discard[n]),
                      discard_len=jnp.ones_like(n), reshuffled=jnp.ones_like(n),
                      deal_hi=hi, deal_lo=lo)


def _round_seed(s: JaxThreeThirteenState, match: jax.Array, round_: jax.Array) -> rng64.U64:
    """The generator of round ``round_`` (0: the match's own) of match ``match``
    (``_round_seed``): mix(seed ^ mix((match * 16 + round) * GOLDEN + GOLDEN))."""
    match = match.astype(jnp.uint32)
    word = (match >> 28, (match << 4) | round_.astype(jnp.uint32))
    golden = (jnp.uint32(rng64.GOLDEN64[0]), jnp.uint32(rng64.GOLDEN64[1]))
    of_round = rng64.mix(rng64.add64(rng64.mul64(word, golden), golden))
    return rng64.mix(rng64.xor64((s.seed_hi, s.seed_lo), of_round))


def _deal_round_row(rules: _Rules, s: JaxThreeThirteenState) -> JaxThreeThirteenState:
    """3.2 / 3.3: round ``s.round``'s deal from (seed, match, round) alone: every card
    shuffled, dealt one at a time from the dealer's left, one turned up."""
    p, pile = rules.players, rules.pile
    state = _round_seed(s, s.episode, s.round)
    deck = (jnp.arange(pile) % NUM_CARDS).astype(jnp.int8)  # 52 x decks passes int8
    deck, (hi, lo) = rng64.shuffle(deck, pile, state)
    k = jnp.arange(13 * p)
    dealt = s.round + 2
    seat_of = (s.dealer + 1 + k) % p
    hands = jnp.zeros((p, NUM_CARDS), jnp.int8).at[seat_of, deck[pile - 1 - k]].add(
        (k < dealt * p).astype(jnp.int8))
    top = pile - 1 - dealt * p
    zero = jnp.zeros_like(s.round)
    return s._replace(
        hands=hands, taken=jnp.zeros_like(s.taken), shown=jnp.zeros_like(s.shown),
        sizes=jnp.zeros_like(s.sizes) + dealt, stock=deck,
        discard=s.discard.at[0].set(deck[top]), discard_len=zero + 1, stock_len=top,
        current_player=(s.dealer + 1) % p, drawing=zero + 1, reshuffled=zero,
        went_out=zero - 1, turns_left=zero, deal_hi=hi, deal_lo=lo)


def _end_round_row(rules: _Rules, s: JaxThreeThirteenState) -> JaxThreeThirteenState:
    """3.7: every hand scored at its best split; then 3.9 the end (the first seat of the
    lowest total the winner), or the next round dealt by the next dealer (3.2)."""
    values = jnp.asarray(rules.values)
    penalties = jax.vmap(lambda hand: hand_penalty(hand, s.round + 1, values, rules.ace_high,
                                                   rules.all_wild_melds, rules.decks))(s.hands)
    totals = s.totals + penalties
    last = s.round == ROUNDS
    ended = s._replace(totals=totals, over=jnp.ones_like(s.over),
                       winner=jnp.argmin(totals).astype(jnp.int32))
    going_on = _deal_round_row(rules, s._replace(
        totals=totals, round=s.round + 1, dealer=(s.dealer + 1) % rules.players))
    return _pick(last, ended, going_on)


def _new_match_row(rules: _Rules, s: JaxThreeThirteenState) -> JaxThreeThirteenState:
    """The row's next match (``_new_match``): totals 0, a random first dealer (3.2) from
    the match's own generator, round 1's deal."""
    zero = jnp.zeros_like(s.round)
    episode = s.episode + 1
    first = _round_seed(s, episode, zero)
    s = s._replace(
        episode=episode, totals=jnp.zeros_like(s.totals), round=zero + 1, winner=zero - 1,
        dealer=rng64.below_at(first, 0, rules.players), turns=zero, moves=zero, over=zero)
    return _deal_round_row(rules, s)


# ------------------------------------------------------------------ the batch


def _refresh_views(rules: _Rules, s: JaxThreeThirteenState,
                   finished: jax.Array | None = None) -> JaxThreeThirteenState:
    """The observation and mask of each row's seat to act (all True where ``finished``)."""
    mask = jax.vmap(partial(_legal_row, rules))(s)
    if finished is not None:
        mask = mask | finished[:, None]
    obs = jax.vmap(partial(_observe_row, rules))(s, s.current_player)
    return s._replace(observation=obs, legal_action_mask=mask)


def _init(rules: _Rules, seed_hi: jax.Array, seed_lo: jax.Array) -> JaxThreeThirteenState:
    n, p = seed_hi.shape[0], rules.players
    z32 = jnp.zeros(n, jnp.int32)
    per_seat = jnp.zeros((n, p), jnp.int32)
    cards = jnp.zeros((n, p, NUM_CARDS), jnp.int8)
    pile = jnp.zeros((n, rules.pile), jnp.int8)
    blank = JaxThreeThirteenState(
        current_player=z32, observation=jnp.zeros((n, OBS_SIZE), jnp.float32),
        legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
        rewards=jnp.zeros((n, p), jnp.float32),
        terminated=jnp.zeros(n, bool), truncated=jnp.zeros(n, bool),
        hands=cards, taken=cards, sizes=per_seat, totals=per_seat,
        shown=jnp.zeros((n, NUM_CARDS), jnp.int8), stock=pile, discard=pile,
        **{name: z32 for _, name in _SCALARS},
        seed_hi=seed_hi, seed_lo=seed_lo, episode=jnp.zeros(n, jnp.uint32),
        deal_hi=jnp.zeros(n, jnp.uint32), deal_lo=jnp.zeros(n, jnp.uint32))
    return _refresh_views(rules, jax.vmap(partial(_new_match_row, rules))(blank))


def _play(rules: _Rules, s: JaxThreeThirteenState, a: jax.Array,
          legal: jax.Array) -> JaxThreeThirteenState:
    """The legal rows' actions played; a round that ends is scored and the next one dealt
    (or the match ends), an empty stock remade, each only in the rows that need it."""
    moved, ends_round, remakes = jax.vmap(partial(_apply_row, rules))(s, a, legal)
    g = where_rows(legal, moved, s)
    g = on_rows(partial(_end_round_row, rules), ends_round & legal, g)
    return on_rows(partial(_remake_stock_row, rules), remakes & legal, g)


def _outcome(s: JaxThreeThirteenState) -> jax.Array:
    """3.9: +1 each seat with the lowest total (a shared win), -1 the others."""
    low = s.totals.min(axis=1, keepdims=True)
    return jnp.where(s.totals == low, 1.0, -1.0)


def _step(rules: _Rules, autoreset: bool, penalty: float, zero_sum: bool,
          s: JaxThreeThirteenState, actions: jax.Array) -> JaxThreeThirteenState:
    return step_rows(s, actions, num_actions=NUM_ACTIONS, teams=np.arange(rules.players),
                     max_moves=rules.max_moves, autoreset=autoreset, penalty=penalty,
                     zero_sum=zero_sum, play=partial(_play, rules),
                     new_episode=partial(_new_match_row, rules),
                     refresh=partial(_refresh_views, rules), outcome=_outcome)


def _observe_rows(rules: _Rules, s: JaxThreeThirteenState, seats: jax.Array) -> jax.Array:
    return jax.vmap(partial(_observe_row, rules))(s, seats)


ENV = JaxThreeThirteen
