"""Batched Sequence in JAX (docs/envs.md, "A JAX port"): ``cardtable.vector.make("sequence",
backend="jax")``, for GPUs and TPUs, with the API of the numba env in pgx's shape.

::

    import jax, numpy as np
    import cardtable.vector

    env = cardtable.vector.make("sequence", backend="jax", players=2)
    state = env.init(np.arange(4096))                  # a pytree of arrays, one row a game
    key = jax.random.key(0)
    while not (state.terminated | state.truncated).all():
        key, sub = jax.random.split(key)
        state = env.step(state, env.random_actions(sub, state))

``init`` and ``step`` are pure functions of arrays: ``jax.jit`` and ``jax.vmap`` take them
(``step`` is compiled already). The state (``JaxSequenceState``, a NamedTuple) holds pgx's
fields (``current_player``, ``observation``, ``legal_action_mask``, ``rewards``,
``terminated``, ``truncated``) and the game's arrays.

The rules are the numba engine's, move for move (``cardtable.vector.sequence``), and so
are the deals: the same seeds deal the same cards, and the draw pile is remade and
shuffled the same way (``cardtable.vector._jax`` computes the numba engines' splitmix64
in 32-bit words). ``to_batch`` gives a state as the numba engine's ``SequenceBatch``,
``from_batch`` the other way (a position loaded from a scalar state:
``engine.from_states``); tests/vector/test_jax_sequence.py plays both engines side by side.

What differs from ``SelfPlay``, because a compiled step cannot raise: an illegal action
(or an id outside 0..528) always ends its row with ``illegal_reward`` (a number; None is
refused), as pgx does; a float or a misshapen ``actions`` is refused before compiling.
``autoreset`` is False by default, as ``make``; True deals the next game in a row that
ends (the step still reports the end).
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
from cardtable.sequence.board import ONE_EYED, TWO_EYED
from cardtable.sequence.game import CORNER, DEAD, ONE_EYED_JACK, PASS, PLAY, TWO_EYED_JACK
from cardtable.vector import _jax as rng64
from cardtable.vector._jax import JaxEnv, on_rows, step_rows, where_rows
from cardtable.vector._kernel import POLICY_SALT, R_DEAL, R_EPISODE, R_POLICY, R_SEED
from cardtable.vector.sequence import (
    ACT_CARD,
    ACT_CELL,
    ACT_KIND,
    CARD_DEAD,
    CELL0,
    CELL1,
    CELLS96,
    DECK_SIZE,
    K_DEAD,
    K_ONE_EYED,
    K_PASS,
    K_PLAY,
    K_TWO_EYED,
    M_CURRENT,
    M_DEALER,
    M_DECK_LEN,
    M_EXCHANGED,
    M_MOVES,
    M_NSEQ,
    M_OVER,
    M_PASSES,
    M_TURNS,
    M_WINNER,
    MAX_SEQUENCES,
    META_FIELDS,
    OVERLAP,
    THROUGH,
    WINDOW_CELLS,
    SequenceBatch,
    VectorSequence,
)

NUM_ACTIONS = len(ACT_KIND)
_ACT_CARD = np.maximum(ACT_CARD, 0).astype(np.int32)
_ACT_CELL = np.maximum(ACT_CELL, 0).astype(np.int32)
_ACT_KIND = ACT_KIND.astype(np.int32)
#: each action's card's two cells (a dead-card exchange needs both taken)
_ACT_CELL0 = CELL0[_ACT_CARD].astype(np.int32)
_ACT_CELL1 = CELL1[_ACT_CARD].astype(np.int32)
_IS_DEAD_ID = (ACT_KIND == K_DEAD) & (CARD_DEAD[_ACT_CARD] >= 0)
_THROUGH = np.maximum(THROUGH, 0).astype(np.int32)
_THROUGH_VALID = THROUGH >= 0
#: the cells of each window through each cell: (100, 20, 5)
_THROUGH_CELLS = WINDOW_CELLS[_THROUGH].astype(np.int32)
_OVERLAP2 = OVERLAP > 1


def _claim_tables() -> tuple[np.ndarray, np.ndarray]:
    """The 2.5 ruling's order without a loop. Windows of two directions share one cell at
    most, so a window conflicts only with windows of its own direction (at most 5 through
    a cell): ``by_direction[cell, d, j]`` is the j-th window through the cell in direction
    d (in the claiming order; 20 past the last) and ``accept[cell, d, p]`` the windows of
    that direction claimed (bit j) when those of bit pattern p are full and free."""
    by_direction = np.full((100, 4, 5), 20, np.int32)
    accept = np.zeros((100, 4, 32), np.int32)
    for cell in range(100):
        groups: dict[int, list[int]] = {}
        for t in range(THROUGH.shape[1]):
            w = THROUGH[cell, t]
            if w >= 0:
                groups.setdefault(int(WINDOW_CELLS[w, 1]) - int(WINDOW_CELLS[w, 0]), []).append(t)
        for d, ts in enumerate(groups.values()):
            by_direction[cell, d, :len(ts)] = ts
            for p in range(32):
                taken: list[int] = []
                for j, t in enumerate(ts):
                    if p >> j & 1 and not any(OVERLAP[THROUGH[cell, t], THROUGH[cell, u]] > 1
                                              for u in taken):
                        taken.append(t)
                        accept[cell, d, p] |= 1 << j
        for t in range(THROUGH.shape[1]):  # no conflict across directions
            for u in range(THROUGH.shape[1]):
                w, x = THROUGH[cell, t], THROUGH[cell, u]
                assert w < 0 or x < 0 or t == u or OVERLAP[w, x] <= 1 or any(
                    t in g and u in g for g in groups.values())
    return by_direction, accept


_BY_DIRECTION, _ACCEPT = _claim_tables()
_CORNER = int(CORNER)


def _pick_tables() -> tuple[np.ndarray, np.ndarray]:
    """0/1 matrices that pick, for the action space's blocks, the cells (CELLS96 order for
    the jacks, each play id's cell, each dead card's two cells) and the cards (each play
    id's, each dead card's) of a row: a product instead of a gather."""
    assert (PLAY, TWO_EYED_JACK, ONE_EYED_JACK, DEAD, PASS) == (0, 96, 288, 480, 528)
    assert list(ACT_CELL[TWO_EYED_JACK:TWO_EYED_JACK + 96]) == list(CELLS96)
    dead = np.arange(DEAD, PASS)
    cols: list[np.ndarray] = [CELLS96, ACT_CELL[:96], CELL0[ACT_CARD[dead]], CELL1[ACT_CARD[dead]]]
    cell_pick = np.zeros((100, 288), np.float32)
    cell_pick[np.concatenate(cols), np.arange(288)] = 1.0
    card_pick = np.zeros((NUM_CARDS, 144), np.float32)
    card_pick[np.concatenate([ACT_CARD[:96], ACT_CARD[dead]]), np.arange(144)] = 1.0
    return cell_pick, card_pick


_CELL_PICK, _CARD_PICK = _pick_tables()


class JaxSequenceState(NamedTuple):
    """N games of Sequence as JAX arrays (a pytree; row i = game i).

    pgx's fields first, then the game (the layout of ``SequenceBatch``, its ``meta``
    columns as arrays of their own and its generators as uint32 halves). Never show the
    game's arrays to a player: they hold every hand and the draw pile.
    """

    #: (N,) int32 the seat to act (not a seat once a game is over, without autoreset)
    current_player: jax.Array
    #: (N, 523) float32, what the seat to act knows (``cardtable.encoders``)
    observation: jax.Array
    #: (N, 529) bool, the legal actions of the seat to act (all True in a finished row)
    legal_action_mask: jax.Array
    #: (N, players) float32, +1 each winner, -1 each other seat of a game that ended in
    #: this step, the illegal action's penalty, 0 otherwise
    rewards: jax.Array
    #: (N,) bool: the game ended by the rules or an illegal action / was cut at max_moves
    terminated: jax.Array
    truncated: jax.Array
    #: (N, 100) uint8: 0 empty, team + 1 a chip, 255 a free corner; locked chips
    board: jax.Array
    locked: jax.Array
    #: (N, players, hand size) int8 cards, -1 in an empty slot
    hands: jax.Array
    #: (N, 104) int8, the draw pile, its top at ``deck_len - 1``
    deck: jax.Array
    #: (N, 52) uint8 copies of each card in the discard piles
    discards: jax.Array
    #: (N, 14) int32 window and team of each sequence claimed, in order; (N, 3) per team
    seq_window: jax.Array
    seq_team: jax.Array
    seq_count: jax.Array
    #: (N,) int32: ``SequenceBatch.meta``'s columns
    dealer: jax.Array
    exchanged: jax.Array
    passes: jax.Array
    turns: jax.Array
    moves: jax.Array
    over: jax.Array
    winner: jax.Array
    deck_len: jax.Array
    n_seq: jax.Array
    #: (N,) uint32: the row's seed (two halves), its deals so far, the deal's generator
    seed_hi: jax.Array
    seed_lo: jax.Array
    episode: jax.Array
    deal_hi: jax.Array
    deal_lo: jax.Array


class JaxSequence(JaxEnv):
    """Batched Sequence in JAX with its options fixed (``players``, ``teams``,
    ``max_turns``), ``max_moves`` (default 100,000) and pgx's rules at the end of a game
    (``autoreset`` False, ``illegal_reward`` -1.0 unless given). ``make("sequence",
    backend="jax", ...)`` builds it; the API is ``JaxEnv``'s.

    pgx's attributes: ``id``, ``version``, ``num_players``, ``num_actions``,
    ``observation_shape``; ``backend`` is ``"jax"``.
    """

    engine_type = VectorSequence
    state_type = JaxSequenceState
    num_actions = NUM_ACTIONS

    def _compile(self) -> tuple[Any, Any, Any, Any]:
        engine = self.engine
        self._rules = _Rules(engine.num_players, engine.teams, engine.hand_size, engine.needed,
                             engine.max_turns, engine.max_moves)
        return _compiled(self._rules, self.autoreset, self.illegal_reward, self.zero_sum)

    # -- the numba engine's batches ----------------------------------------------

    def to_batch(self, state: JaxSequenceState) -> SequenceBatch:
        """The numba engine's ``SequenceBatch`` of the same games (NumPy arrays; for
        ``self.engine``'s methods: ``legal_mask``, ``observe``, ``hidden_cards``,
        ``to_svg``). The random policy's stream is the seed's (``init``'s)."""
        s = jax.device_get(state)
        n = s.board.shape[0]
        batch = self.engine.empty(n)
        batch.board[:] = s.board
        batch.locked[:] = s.locked
        batch.hands[:] = s.hands
        batch.deck[:] = s.deck
        batch.discards[:] = s.discards
        k = np.arange(MAX_SEQUENCES)[None, :] < s.n_seq[:, None]
        batch.sequences[:, :, 0] = np.where(k, s.seq_window, 0)
        batch.sequences[:, :, 1] = np.where(k, s.seq_team, 0)
        batch.seq_count[:, :] = 0
        batch.seq_count[:, :s.seq_count.shape[1]] = s.seq_count
        meta = batch.meta
        for col, arr in ((M_CURRENT, s.current_player), (M_DEALER, s.dealer),
                         (M_EXCHANGED, s.exchanged), (M_PASSES, s.passes),
                         (M_TURNS, s.turns), (M_MOVES, s.moves), (M_OVER, s.over),
                         (M_WINNER, s.winner), (M_DECK_LEN, s.deck_len), (M_NSEQ, s.n_seq)):
            meta[:, col] = arr
        seed = rng64.join_host(s.seed_hi, s.seed_lo)
        batch.rngs[:, R_SEED] = seed
        batch.rngs[:, R_EPISODE] = s.episode
        batch.rngs[:, R_DEAL] = rng64.join_host(s.deal_hi, s.deal_lo)
        batch.rngs[:, R_POLICY] = seed ^ POLICY_SALT
        return batch

    def from_batch(self, batch: SequenceBatch) -> JaxSequenceState:
        """A state holding the games of a numba ``SequenceBatch`` of this env's options
        (``self.engine.from_states(...)`` loads scalar positions into one): live rows,
        zero rewards."""
        n = self.engine._check_batch(batch)
        meta = batch.meta
        k = np.arange(MAX_SEQUENCES)[None, :] < meta[:, M_NSEQ, None]
        deal_hi, deal_lo = rng64.split_host(batch.rngs[:, R_DEAL])
        seed_hi, seed_lo = rng64.split_host(batch.rngs[:, R_SEED])
        teams = self._rules.teams
        game = {
            "board": batch.board, "locked": batch.locked, "hands": batch.hands,
            "deck": batch.deck, "discards": batch.discards,
            "seq_window": np.where(k, batch.sequences[:, :, 0], 0).astype(np.int32),
            "seq_team": np.where(k, batch.sequences[:, :, 1], 0).astype(np.int32),
            "seq_count": batch.seq_count[:, :teams].astype(np.int32),
            "dealer": meta[:, M_DEALER], "exchanged": meta[:, M_EXCHANGED],
            "passes": meta[:, M_PASSES], "turns": meta[:, M_TURNS], "moves": meta[:, M_MOVES],
            "over": meta[:, M_OVER], "winner": meta[:, M_WINNER],
            "deck_len": meta[:, M_DECK_LEN], "n_seq": meta[:, M_NSEQ],
            "seed_hi": seed_hi, "seed_lo": seed_lo,
            "episode": batch.rngs[:, R_EPISODE].astype(np.uint32),
            "deal_hi": deal_hi, "deal_lo": deal_lo}
        arrays = {name: jnp.asarray(np.array(value)) for name, value in game.items()}
        for name in META_FIELDS:
            if name in arrays:
                arrays[name] = arrays[name].astype(jnp.int32)
        arrays["current_player"] = jnp.asarray(meta[:, M_CURRENT].astype(np.int32))
        state = JaxSequenceState(
            observation=jnp.zeros((n, self.observation_size), jnp.float32),
            legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
            rewards=jnp.zeros((n, self.num_players), jnp.float32),
            terminated=jnp.zeros(n, bool), truncated=jnp.zeros(n, bool), **arrays)
        return self._refresh(state)


@lru_cache(maxsize=32)
def _compiled(rules: _Rules, autoreset: bool, penalty: float,
              zero_sum: bool) -> tuple[Any, Any, Any, Any]:
    """``init``, ``step`` and ``observe`` compiled for these rules: envs of the same
    options share them (and XLA's compiled code)."""
    return (jax.jit(partial(_init, rules)),
            jax.jit(partial(_step, rules, autoreset, penalty, zero_sum)),
            jax.jit(partial(_observe_rows, rules)), jax.jit(partial(_refresh_views, rules)))


class _Rules(NamedTuple):
    """The options, fixed at compile time."""

    players: int
    teams: int
    hand_size: int
    needed: int
    max_turns: int
    max_moves: int


# ------------------------------------------------------------------ one row (vmapped)


def _legal_row(rules: _Rules, s: JaxSequenceState) -> jax.Array:
    """The 529 legal ids of the row's seat to act (2.4, the pass ruling); none once over.

    Without gathers (slow on a CPU): what each id needs of the board and the hand comes
    from two small products with 0/1 matrices (``_CELL_PICK``, ``_CARD_PICK``), laid out
    as the action space's blocks: the plays, the two-eyed and the one-eyed jacks on the
    96 card cells, the dead-card exchanges, the pass."""
    seat = s.current_player
    hand = s.hands[seat].astype(jnp.int32)
    held = (hand[:, None] == jnp.arange(NUM_CARDS)[None, :]).any(axis=0)
    board = s.board.astype(jnp.int32)
    own = seat % rules.teams + 1
    features = jnp.stack([board == 0, (board != 0) & (board != own) & (s.locked == 0),
                          board != 0]).astype(jnp.float32)
    cells = jnp.dot(features, jnp.asarray(_CELL_PICK)) > 0.5  # (3, 96 + 96 + 48 + 48)
    cards = jnp.dot(held.astype(jnp.float32), jnp.asarray(_CARD_PICK)) > 0.5  # (96 + 48)
    empty96, removable96 = cells[0, :96], cells[1, :96]
    play = cards[:96] & cells[0, 96:192]
    blocks = [play]
    blocks += [empty96 & held[c] for c in TWO_EYED]
    blocks += [removable96 & held[c] for c in ONE_EYED]
    blocks.append(cards[96:] & cells[2, 192:240] & cells[2, 240:] & (s.exchanged == 0))
    mask = jnp.concatenate(blocks)
    return jnp.concatenate([mask, ~mask.any(keepdims=True)]) & (s.over == 0)


def _observe_row(rules: _Rules, s: JaxSequenceState, seat: jax.Array) -> jax.Array:
    """The row seen by ``seat``: ``SequenceEncoder``'s layout (``_observe_one``)."""
    teams, players = rules.teams, rules.players
    team = seat % teams
    board = s.board.astype(jnp.int32)
    chip0 = team + 1
    chip1 = (team + 1) % teams + 1
    chip2 = (team + 2) % teams + 1 if teams == 3 else -1
    hand = s.hands[seat].astype(jnp.int32)
    hand_counts = (hand[:, None] == jnp.arange(NUM_CARDS)[None, :]).sum(axis=0)
    sizes = (s.hands >= 0).sum(axis=1)
    sizes = sizes[(seat + jnp.arange(players)) % players]
    seqs = s.seq_count[(team + jnp.arange(teams)) % teams]
    left = s.turns if rules.max_turns == 0 else rules.max_turns - s.turns
    tail = jnp.stack([s.deck_len, s.exchanged, jnp.asarray(rules.needed, jnp.int32),
                      left * (rules.max_turns > 0)])
    parts = [board == chip0, board == chip1, board == chip2, s.locked, hand_counts,
             s.discards, sizes, jnp.zeros(12 - players), seqs, jnp.zeros(3 - teams), tail]
    return jnp.concatenate([jnp.asarray(p, jnp.float32).reshape(-1) for p in parts])


def _claim_row(rules: _Rules, board: jax.Array, s: JaxSequenceState, cell: jax.Array,
               team: jax.Array) -> tuple[jax.Array, ...]:
    """2.5 ruling: the new sequences among the windows through ``cell``, claimed in order,
    each against the team's sequences so far (the ones claimed just before included)."""
    chip = team + 1
    cells = jnp.asarray(_THROUGH_CELLS)[cell]  # (20, 5)
    v = board[cells].astype(jnp.int32)
    full = ((v == chip) | (v == _CORNER)).all(axis=1) & jnp.asarray(_THROUGH_VALID)[cell]
    windows = jnp.asarray(_THROUGH)[cell]
    mine = (jnp.arange(MAX_SEQUENCES) < s.n_seq) & (s.seq_team == team)
    old = (jnp.asarray(_OVERLAP2)[windows[:, None], s.seq_window[None, :]]
           & mine[None, :]).any(axis=1)
    candidate = full & ~old
    ts = jnp.asarray(_BY_DIRECTION)[cell]  # (4, 5) windows by direction, 20 past the last
    bits = jnp.concatenate([candidate, jnp.zeros(1, bool)])[ts].astype(jnp.int32)
    pattern = (bits << jnp.arange(5)).sum(axis=1)
    claimed = jnp.asarray(_ACCEPT)[cell, jnp.arange(4), pattern]
    won = (claimed[:, None] >> jnp.arange(5)) & 1
    taken = jnp.zeros(21, bool).at[ts.reshape(-1)].set(won.reshape(-1) > 0)[:20]
    count = taken.sum().astype(jnp.int32)
    slot = jnp.where(taken, s.n_seq + jnp.cumsum(taken) - 1, MAX_SEQUENCES)
    seq_window = s.seq_window.at[slot].set(windows, mode="drop")
    seq_team = s.seq_team.at[slot].set(team, mode="drop")
    lock_cells = jnp.where(taken[:, None], cells, 100).reshape(-1)
    locked = s.locked.at[lock_cells].set(1, mode="drop")
    seq_count = s.seq_count.at[team].add(count)
    return count, seq_window, seq_team, locked, seq_count


def _apply_row(rules: _Rules, s: JaxSequenceState,
               a: jax.Array) -> tuple[JaxSequenceState, jax.Array, jax.Array, jax.Array]:
    """Play legal action ``a`` (``_apply_one``) but the draw; returns the row, whether the
    seat draws a card, the seat and the hand slot it goes to."""
    seat = s.current_player
    kind = jnp.asarray(_ACT_KIND)[a]
    card = jnp.asarray(_ACT_CARD)[a]
    cell = jnp.asarray(_ACT_CELL)[a]
    is_pass = kind == K_PASS
    is_dead = kind == K_DEAD
    place = (kind == K_PLAY) | (kind == K_TWO_EYED)
    team = seat % rules.teams
    slot = jnp.argmax(s.hands[seat] == card)
    hands = jnp.where(is_pass, s.hands, s.hands.at[seat, slot].set(-1))
    discards = s.discards.at[card].add(jnp.where(is_pass, 0, 1).astype(s.discards.dtype))
    value = jnp.where(place, team + 1, 0).astype(s.board.dtype)
    board = jnp.where(place | (kind == K_ONE_EYED), s.board.at[cell].set(value), s.board)
    count, seq_window, seq_team, locked, seq_count = _claim_row(rules, board, s, cell, team)
    claimed = place & (count > 0)
    won = claimed & (seq_count[team] >= rules.needed)
    ends_turn = ~is_dead & ~won
    passes = jnp.where(is_pass, jnp.where(s.exchanged != 0, 0, s.passes + 1),
                       jnp.where(is_dead, s.passes, 0))
    turns = s.turns + ends_turn
    cut = (rules.max_turns > 0) & (turns >= rules.max_turns)
    over = won | (ends_turn & ((is_pass & (passes >= rules.players)) | cut))
    s = s._replace(
        board=board, hands=hands, discards=discards,
        locked=jnp.where(claimed, locked, s.locked),
        seq_window=jnp.where(claimed, seq_window, s.seq_window),
        seq_team=jnp.where(claimed, seq_team, s.seq_team),
        seq_count=jnp.where(claimed, seq_count, s.seq_count),
        n_seq=s.n_seq + jnp.where(place, count, 0),
        moves=s.moves + 1, passes=passes, turns=turns,
        exchanged=jnp.where(is_dead, 1, jnp.where(ends_turn, 0, s.exchanged)),
        current_player=jnp.where(ends_turn, (seat + 1) % rules.players, seat),
        over=over.astype(jnp.int32), winner=jnp.where(won, team, s.winner))
    return s, ~is_pass & ~won, seat, slot


def _reshuffle_row(s: JaxSequenceState) -> JaxSequenceState:
    """2.4.3: remake the empty draw pile from the discards (card order) and shuffle it with
    the deal's generator."""
    counts = s.discards.astype(jnp.int32)
    top = counts.sum()
    pile = jnp.repeat(jnp.arange(NUM_CARDS, dtype=s.deck.dtype), counts,
                      total_repeat_length=DECK_SIZE)
    pile, (hi, lo) = rng64.shuffle(pile, top, (s.deal_hi, s.deal_lo))
    return s._replace(deck=pile, discards=jnp.zeros_like(s.discards), deck_len=top,
                      deal_hi=hi, deal_lo=lo)


def _draw_row(s: JaxSequenceState, need: jax.Array, seat: jax.Array,
              slot: jax.Array) -> JaxSequenceState:
    top = s.deck_len - 1
    hands = s.hands.at[seat, slot].set(s.deck[jnp.maximum(top, 0)])
    return s._replace(hands=jnp.where(need, hands, s.hands),
                      deck_len=jnp.where(need, top, s.deck_len))


def _deal_row(rules: _Rules, s: JaxSequenceState) -> JaxSequenceState:
    """The row's next deal from (seed, deal number) alone (``_deal_one``)."""
    seed = (s.seed_hi, s.seed_lo)
    count = rng64.add64((jnp.zeros_like(s.episode), s.episode), (jnp.uint32(0), jnp.uint32(1)))
    mixed = rng64.mix(rng64.mul64(count, (jnp.uint32(rng64.GOLDEN64[0]),
                                          jnp.uint32(rng64.GOLDEN64[1]))))
    state = rng64.mix(rng64.xor64(seed, mixed))
    deck = jnp.arange(DECK_SIZE, dtype=jnp.int8) // 2
    deck, state = rng64.shuffle(deck, DECK_SIZE, state)
    dealer = rng64.below_at(state, 0, rules.players)
    state = rng64.advance(state, 1)
    players, size = rules.players, rules.hand_size
    seat = jnp.arange(players)[:, None]
    j = jnp.arange(size)[None, :]
    k = j * players + (seat - dealer - 1) % players
    hands = deck[DECK_SIZE - 1 - k]
    board = jnp.zeros(100, jnp.uint8).at[jnp.array([0, 9, 90, 99])].set(_CORNER)
    zero = jnp.zeros((), jnp.int32)
    return s._replace(
        current_player=(dealer + 1) % players, board=board, locked=jnp.zeros_like(s.locked),
        hands=hands, deck=deck, discards=jnp.zeros_like(s.discards),
        seq_window=jnp.zeros_like(s.seq_window), seq_team=jnp.zeros_like(s.seq_team),
        seq_count=jnp.zeros_like(s.seq_count), dealer=dealer, exchanged=zero, passes=zero,
        turns=zero, moves=zero, over=zero, winner=zero - 1,
        deck_len=jnp.asarray(DECK_SIZE - size * players, jnp.int32), n_seq=zero,
        episode=s.episode + 1, deal_hi=state[0], deal_lo=state[1])


# ------------------------------------------------------------------ the batch


def _refresh_views(rules: _Rules, s: JaxSequenceState,
                   finished: jax.Array | None = None) -> JaxSequenceState:
    """The observation and mask of each row's seat to act (all True where ``finished``)."""
    mask = jax.vmap(partial(_legal_row, rules))(s)
    if finished is not None:
        mask = mask | finished[:, None]
    obs = jax.vmap(partial(_observe_row, rules))(s, s.current_player)
    return s._replace(observation=obs, legal_action_mask=mask)


def _init(rules: _Rules, seed_hi: jax.Array, seed_lo: jax.Array) -> JaxSequenceState:
    n = seed_hi.shape[0]
    z32 = jnp.zeros(n, jnp.int32)
    blank = JaxSequenceState(
        current_player=z32, observation=jnp.zeros((n, 523), jnp.float32),
        legal_action_mask=jnp.zeros((n, NUM_ACTIONS), bool),
        rewards=jnp.zeros((n, rules.players), jnp.float32),
        terminated=jnp.zeros(n, bool), truncated=jnp.zeros(n, bool),
        board=jnp.zeros((n, 100), jnp.uint8), locked=jnp.zeros((n, 100), jnp.uint8),
        hands=jnp.zeros((n, rules.players, rules.hand_size), jnp.int8),
        deck=jnp.zeros((n, DECK_SIZE), jnp.int8), discards=jnp.zeros((n, NUM_CARDS), jnp.uint8),
        seq_window=jnp.zeros((n, MAX_SEQUENCES), jnp.int32),
        seq_team=jnp.zeros((n, MAX_SEQUENCES), jnp.int32),
        seq_count=jnp.zeros((n, rules.teams), jnp.int32),
        dealer=z32, exchanged=z32, passes=z32, turns=z32, moves=z32, over=z32, winner=z32,
        deck_len=z32, n_seq=z32, seed_hi=seed_hi, seed_lo=seed_lo,
        episode=jnp.zeros(n, jnp.uint32), deal_hi=jnp.zeros(n, jnp.uint32),
        deal_lo=jnp.zeros(n, jnp.uint32))
    return _refresh_views(rules, jax.vmap(partial(_deal_row, rules))(blank))


def _play(rules: _Rules, s: JaxSequenceState, a: jax.Array,
          legal: jax.Array) -> JaxSequenceState:
    """The legal rows' actions played, the card drawn (from a remade pile where it is
    empty)."""
    moved, draws, seat, slot = jax.vmap(partial(_apply_row, rules))(s, a)
    g = where_rows(legal, moved, s)
    draws = draws & legal
    g = on_rows(_reshuffle_row, draws & (g.deck_len == 0), g)
    return jax.vmap(_draw_row)(g, draws, seat, slot)


def _step(rules: _Rules, autoreset: bool, penalty: float, zero_sum: bool,
          s: JaxSequenceState, actions: jax.Array) -> JaxSequenceState:
    return step_rows(s, actions, num_actions=NUM_ACTIONS, teams=rules_teams(rules),
                     max_moves=rules.max_moves, autoreset=autoreset, penalty=penalty,
                     zero_sum=zero_sum, play=partial(_play, rules),
                     new_episode=partial(_deal_row, rules), refresh=partial(_refresh_views, rules))


def rules_teams(rules: _Rules) -> np.ndarray:
    """Each seat's team (seats alternate teams, 2.2)."""
    return np.arange(rules.players) % rules.teams


def _observe_rows(rules: _Rules, s: JaxSequenceState, seats: jax.Array) -> jax.Array:
    return jax.vmap(partial(_observe_row, rules))(s, seats)


ENV = JaxSequence
