"""Batched Sequence (RULES.md section 2): N games as arrays, stepped by numba kernels.

``VectorSequence(**options)`` fixes the game options (``players``, ``teams``,
``max_turns`` as ``cardtable.new_game("sequence", ...)``); a ``SequenceBatch``
holds the state of N games, one row each. The kernels loop over the rows; the
body for one row (``_legal_ids``, ``_apply_one``, ``_deal_one``, ``_observe_one``)
touches only that row and has fixed-size loops, so it is what ``jax.vmap``
would map in a JAX port (docs/envs.md says what that port takes).

Everything but the deck order after a reshuffle follows the scalar engine move for
move (tests/vector prove it): the same legal ids, the same observation tensor
(``cardtable.encoders``), the same rewards and ends. Deals and reshuffles draw
from a counter-based generator of each row's own: deal k of row i depends only on
the row's seed and k, never on the moves played, so that two policies can be
compared on the same deals.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardtable.cards import NUM_CARDS, card_name, parse_card
from cardtable.encoders.sequence import MAX_SEATS, MAX_TEAMS
from cardtable.sequence.board import (
    CARD_CELLS,
    CARD_CELLS_ORDER,
    CORNERS,
    NON_JACK_POS,
    ONE_EYED,
    TWO_EYED,
    WINDOW_OF_CELLS,
    WINDOWS_THROUGH,
    parse_cell,
)
from cardtable.sequence.game import (
    CORNER,
    DEAD,
    DECKS,
    DECODE,
    NUM_ACTIONS,
    ONE_EYED_JACK,
    PASS,
    PLAY,
    TWO_EYED_JACK,
    SequenceGame,
    SequenceState,
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

# ---------------------------------------------------------------- tables, from the scalar engine

#: kind of each action id
K_PLAY, K_TWO_EYED, K_ONE_EYED, K_DEAD, K_PASS = 0, 1, 2, 3, 4
ACT_KIND = np.array([K_PASS if a == PASS else K_DEAD if a >= DEAD else
                     K_ONE_EYED if a >= ONE_EYED_JACK else K_TWO_EYED if a >= TWO_EYED_JACK
                     else K_PLAY for a in range(NUM_ACTIONS)], np.int8)
ACT_CARD = np.array([card for card, _ in DECODE], np.int8)
ACT_CELL = np.array([cell for _, cell in DECODE], np.int8)
#: 0 a card that is not a jack, 1 a two-eyed jack, 2 a one-eyed jack
JACK_KIND = np.array([1 if c in TWO_EYED else 2 if c in ONE_EYED else 0
                      for c in range(NUM_CARDS)], np.int8)
#: first action id of each card: its PLAY pair, or its block of 96 jack cells
CARD_BASE = np.array([TWO_EYED_JACK + 96 * TWO_EYED.index(c) if c in TWO_EYED else
                      ONE_EYED_JACK + 96 * ONE_EYED.index(c) if c in ONE_EYED else
                      PLAY + 2 * NON_JACK_POS[c] for c in range(NUM_CARDS)], np.int16)
#: the DEAD exchange id of each non-jack card (-1 for jacks)
CARD_DEAD = np.array([DEAD + NON_JACK_POS[c] if c in NON_JACK_POS else -1
                      for c in range(NUM_CARDS)], np.int16)
CELL0 = np.array([CARD_CELLS[c][0] for c in range(NUM_CARDS)], np.int16)
CELL1 = np.array([CARD_CELLS[c][1] for c in range(NUM_CARDS)], np.int16)
CELLS96 = np.array(CARD_CELLS_ORDER, np.int16)
_ALL_WINDOWS = sorted({w for ws in WINDOWS_THROUGH for w in ws})
_WINDOW_ID = {w: k for k, w in enumerate(_ALL_WINDOWS)}
#: the five cells of each window
WINDOW_CELLS = np.array(_ALL_WINDOWS, np.int16)
#: the windows through each cell in the 2.5 claiming order, -1 past the last
THROUGH = np.full((100, max(len(ws) for ws in WINDOWS_THROUGH)), -1, np.int16)
for _cell, _ws in enumerate(WINDOWS_THROUGH):
    THROUGH[_cell, :len(_ws)] = [_WINDOW_ID[w] for w in _ws]
#: cells two windows share
OVERLAP = np.array([[len(set(a) & set(b)) for b in _ALL_WINDOWS] for a in _ALL_WINDOWS], np.int8)
#: room for the sequences of one game: fewer than 2 per team before the last move, and the
#: last chip completes at most two per direction
MAX_SEQUENCES = 2 * MAX_TEAMS + 8
DECK_SIZE = DECKS * NUM_CARDS


# columns of ``SequenceBatch.meta``, one int32 row of small fields per game
M_CURRENT, M_DEALER, M_EXCHANGED, M_PASSES, M_TURNS, M_MOVES, M_OVER, M_WINNER, M_DECK_LEN, \
    M_NSEQ = range(10)
META_FIELDS = ("current", "dealer", "exchanged", "passes", "turns", "moves", "over", "winner",
               "deck_len", "n_seq")


class SequenceBatch(NamedTuple):
    """The state of N Sequence games, one row each (the kernels take the arrays).

    Cells are ``row * 10 + col``, cards ``suit * 13 + rank`` as in the scalar engine.
    """

    #: (N, 100) uint8: 0 empty, team + 1 a chip, 255 a free corner
    board: np.ndarray
    #: (N, 100) uint8: 1 on the chips of completed sequences
    locked: np.ndarray
    #: (N, players, hand size) int8 cards, -1 in an empty slot (the winner's last card)
    hands: np.ndarray
    #: (N, 104) int8: the draw pile, its top at ``deck_len - 1``
    deck: np.ndarray
    #: (N, 52) uint8: copies of each card in the face-up discard piles
    discards: np.ndarray
    #: (N, MAX_SEQUENCES, 2) int16: window id and team of each completed sequence, in the
    #: order they were claimed
    sequences: np.ndarray
    #: (N, 3) int8: completed sequences per team
    seq_count: np.ndarray
    #: (N, 10) int32: the seat to act, the dealer, the dead-card exchange of this turn
    #: (2.4.1), plain passes in a row (ruling 2.4), turns, moves since the deal (for
    #: truncation), over, the winning team (-1: none), the draw pile's size, sequences
    #: claimed (columns ``M_*``, names ``META_FIELDS``)
    meta: np.ndarray
    #: (N, 4) uint64: each row's seed, how many deals it has had (deal k comes from
    #: (seed, k)), the generator of the deal in play (reshuffles), the random policy's own
    rngs: np.ndarray

    @property
    def size(self) -> int:
        return int(self.board.shape[0])

    @property
    def current_player(self) -> np.ndarray:
        """(N,) the seat to act (a view)."""
        return self.meta[:, M_CURRENT]

    @property
    def over(self) -> np.ndarray:
        """(N,) 1 where the game has ended (only without autoreset)."""
        return self.meta[:, M_OVER]

    @property
    def moves(self) -> np.ndarray:
        """(N,) the moves of the game in play so far (a view; ``max_moves`` counts them)."""
        return self.meta[:, M_MOVES]


class SequenceResults(NamedTuple):
    """What one ``step`` reports per row, for the game that was in the row before it."""

    #: (N, players) +1 for each winner, -1 for the other seats, 0 in a draw or before the end
    rewards: np.ndarray
    #: the game ended by the rules (a win, every player passing, max_turns)
    terminated: np.ndarray
    #: the game was cut at ``max_moves``
    truncated: np.ndarray
    #: the winning team of the game that ended, -1 for none
    winner: np.ndarray
    #: turns and moves the ended game lasted
    turns: np.ndarray
    moves: np.ndarray


# ---------------------------------------------------------------- the per-game bodies
# Each takes the arrays it needs and a row i, and touches only row i.

@njit(inline="always", cache=True)
def _legal_ids(board: np.ndarray, locked: np.ndarray, hands: np.ndarray, meta: np.ndarray,
               i: int, teams: int, buf: np.ndarray) -> int:
    """The legal ids of row i's seat to act into ``buf``; returns how many (2.4, the pass
    ruling). Each distinct card once, as the scalar engine."""
    seat = meta[i, M_CURRENT]
    own = seat % teams + 1
    n = 0
    for j in range(hands.shape[2]):
        card = hands[i, seat, j]
        if card < 0:
            continue
        seen = False
        for k in range(j):
            if hands[i, seat, k] == card:
                seen = True
        if seen:
            continue
        kind = JACK_KIND[card]
        base = CARD_BASE[card]
        # the jacks' loops are branch-free: write the id, count it if it is legal
        if kind == 1:  # 2.4.2: a two-eyed jack on any empty cell
            for p in range(96):
                buf[n] = base + p
                n += board[i, CELLS96[p]] == 0
        elif kind == 2:  # a one-eyed jack removes an opponent's chip outside sequences
            for p in range(96):
                cell = CELLS96[p]
                v = board[i, cell]
                buf[n] = base + p
                n += (v != 0) & (v != own) & (locked[i, cell] == 0)
        else:
            free0 = board[i, CELL0[card]] == 0
            free1 = board[i, CELL1[card]] == 0
            if free0:
                buf[n] = base
                n += 1
            if free1:
                buf[n] = base + 1
                n += 1
            if not free0 and not free1 and meta[i, M_EXCHANGED] == 0:
                buf[n] = CARD_DEAD[card]  # 2.4.1, once per turn
                n += 1
    if n == 0:
        buf[0] = PASS
        n = 1
    return n


@njit(inline="always", cache=True)
def _is_legal(board: np.ndarray, locked: np.ndarray, hands: np.ndarray, meta: np.ndarray,
              i: int, teams: int, a: int, buf: np.ndarray) -> bool:
    if meta[i, M_OVER] != 0 or a < 0 or a >= NUM_ACTIONS:
        return False
    if a == PASS:
        n = _legal_ids(board, locked, hands, meta, i, teams, buf)
        return n == 1 and buf[0] == PASS
    seat = meta[i, M_CURRENT]
    card = ACT_CARD[a]
    held = False
    for j in range(hands.shape[2]):
        if hands[i, seat, j] == card:
            held = True
    if not held:
        return False
    kind = ACT_KIND[a]
    if kind == K_DEAD:
        return (meta[i, M_EXCHANGED] == 0 and board[i, CELL0[card]] != 0
                and board[i, CELL1[card]] != 0)
    cell = ACT_CELL[a]
    if kind == K_ONE_EYED:
        v = board[i, cell]
        return v != 0 and v != seat % teams + 1 and locked[i, cell] == 0
    return board[i, cell] == 0


@njit(inline="always", cache=True)
def _draw_into(hands: np.ndarray, deck: np.ndarray, discards: np.ndarray, meta: np.ndarray,
               rngs: np.ndarray, i: int, seat: int, slot: int) -> None:
    """2.4.3: the top card into the hand slot; an empty pile is first remade from every
    discard pile and shuffled."""
    top = meta[i, M_DECK_LEN]
    if top == 0:
        for card in range(NUM_CARDS):
            for _ in range(discards[i, card]):
                deck[i, top] = card
                top += 1
            discards[i, card] = 0
        shuffle(deck, i, top, rngs)
    top -= 1
    hands[i, seat, slot] = deck[i, top]
    meta[i, M_DECK_LEN] = top


@njit(inline="always", cache=True)
def _claim(board: np.ndarray, locked: np.ndarray, sequences: np.ndarray, seq_count: np.ndarray,
           meta: np.ndarray, i: int, cell: int, team: int) -> int:
    """2.5 ruling: claim the new sequences among the windows through ``cell``, in order."""
    chip = team + 1
    claimed = 0
    for t in range(THROUGH.shape[1]):
        w = THROUGH[cell, t]
        if w < 0:
            break
        full = True
        for k in range(5):
            v = board[i, WINDOW_CELLS[w, k]]
            if v != chip and v != CORNER:
                full = False
                break
        if not full:
            continue
        for s in range(meta[i, M_NSEQ]):
            if sequences[i, s, 1] == team and OVERLAP[w, sequences[i, s, 0]] > 1:
                full = False
                break
        if full:
            s = meta[i, M_NSEQ]
            sequences[i, s, 0] = w
            sequences[i, s, 1] = team
            meta[i, M_NSEQ] = s + 1
            seq_count[i, team] += 1
            for k in range(5):
                locked[i, WINDOW_CELLS[w, k]] = 1
            claimed += 1
    return claimed


@njit(inline="always", cache=True)
def _end_turn(meta: np.ndarray, i: int, players: int, max_turns: int, draw: bool) -> None:
    turns = meta[i, M_TURNS] + 1
    meta[i, M_TURNS] = turns
    meta[i, M_EXCHANGED] = 0
    meta[i, M_CURRENT] = (meta[i, M_CURRENT] + 1) % players
    if draw or (max_turns > 0 and turns >= max_turns):
        meta[i, M_OVER] = 1


@njit(inline="always", cache=True)
def _apply_one(board: np.ndarray, locked: np.ndarray, hands: np.ndarray, deck: np.ndarray,
               discards: np.ndarray, sequences: np.ndarray, seq_count: np.ndarray,
               meta: np.ndarray, rngs: np.ndarray, i: int, a: int, players: int, teams: int,
               needed: int, max_turns: int) -> None:
    """Play legal action ``a`` in row i, as ``SequenceState._apply``."""
    seat = meta[i, M_CURRENT]
    meta[i, M_MOVES] += 1
    if a == PASS:
        # ruling 2.4: a pass after a dead-card exchange breaks the run of passes
        passes = 0 if meta[i, M_EXCHANGED] != 0 else meta[i, M_PASSES] + 1
        meta[i, M_PASSES] = passes
        _end_turn(meta, i, players, max_turns, passes >= players)
        return
    card = ACT_CARD[a]
    slot = 0
    while hands[i, seat, slot] != card:
        slot += 1
    hands[i, seat, slot] = -1
    discards[i, card] += 1
    kind = ACT_KIND[a]
    if kind == K_DEAD:
        meta[i, M_EXCHANGED] = 1  # 2.4.1: discard, draw a replacement, play on
        _draw_into(hands, deck, discards, meta, rngs, i, seat, slot)
        return
    meta[i, M_PASSES] = 0
    cell = ACT_CELL[a]
    if kind == K_ONE_EYED:
        board[i, cell] = 0  # 2.4.2: no chip is placed this turn
    else:
        team = seat % teams
        board[i, cell] = team + 1
        if (_claim(board, locked, sequences, seq_count, meta, i, cell, team) > 0
                and seq_count[i, team] >= needed):
            meta[i, M_WINNER] = team  # 2.6: the game ends at once, no draw
            meta[i, M_OVER] = 1
            return
    _draw_into(hands, deck, discards, meta, rngs, i, seat, slot)
    _end_turn(meta, i, players, max_turns, False)


@njit(inline="always", cache=True)
def _deal_one(board: np.ndarray, locked: np.ndarray, hands: np.ndarray, deck: np.ndarray,
              discards: np.ndarray, seq_count: np.ndarray, meta: np.ndarray, rngs: np.ndarray,
              i: int, players: int) -> None:
    """Deal k of row i from (seed, k) alone, as 2.3 deals: a random dealer, the cards one at
    a time from the left of the dealer."""
    episode = rngs[i, R_EPISODE]
    rngs[i, R_DEAL] = mix(rngs[i, R_SEED] ^ mix(episode * GOLDEN + GOLDEN))
    rngs[i, R_EPISODE] = episode + np.uint64(1)
    for cell in range(100):
        board[i, cell] = 0
        locked[i, cell] = 0
    for cell in (0, 9, 90, 99):
        board[i, cell] = CORNER
    for card in range(NUM_CARDS):
        discards[i, card] = 0
    for k in range(DECK_SIZE):
        deck[i, k] = k // DECKS
    shuffle(deck, i, DECK_SIZE, rngs)
    dealer = below(rngs, i, R_DEAL, players)
    top = DECK_SIZE
    for k in range(hands.shape[2] * players):
        top -= 1
        hands[i, (dealer + 1 + k) % players, k // players] = deck[i, top]
    for t in range(seq_count.shape[1]):
        seq_count[i, t] = 0
    for f in range(meta.shape[1]):
        meta[i, f] = 0
    meta[i, M_DECK_LEN] = top
    meta[i, M_DEALER] = dealer
    meta[i, M_CURRENT] = (dealer + 1) % players
    meta[i, M_WINNER] = -1


@njit(inline="always", cache=True)
def _observe_one(board: np.ndarray, locked: np.ndarray, hands: np.ndarray,
                 discards: np.ndarray, seq_count: np.ndarray, meta: np.ndarray, i: int,
                 seat: int, players: int, teams: int, needed: int, max_turns: int,
                 out: np.ndarray, r: int) -> None:
    """Row i seen by ``seat`` into ``out[r]``, the layout of ``SequenceEncoder`` (the engine
    checks its offsets). The board planes are written without branches (a random board
    defeats branch prediction)."""
    team = seat % teams
    # the chip value of plane k: the seat's team, the next, the one after (none: -1)
    chip0 = team + 1
    chip1 = (team + 1) % teams + 1
    chip2 = (team + 2) % teams + 1 if teams == 3 else -1
    for cell in range(100):
        v = np.int64(board[i, cell])
        out[r, cell] = v == chip0
        out[r, 100 + cell] = v == chip1
        out[r, 200 + cell] = v == chip2
        out[r, 300 + cell] = locked[i, cell]
    for k in range(400, out.shape[1]):
        out[r, k] = 0.0
    for j in range(hands.shape[2]):
        card = hands[i, seat, j]
        if card >= 0:
            out[r, 400 + card] += 1.0
    for card in range(NUM_CARDS):
        out[r, 452 + card] = discards[i, card]
    for k in range(players):
        other = seat + k
        if other >= players:
            other -= players
        size = 0
        for j in range(hands.shape[2]):
            if hands[i, other, j] >= 0:
                size += 1
        out[r, 504 + k] = size
    for k in range(teams):
        other = team + k
        if other >= teams:
            other -= teams
        out[r, 516 + k] = seq_count[i, other]
    out[r, 519] = meta[i, M_DECK_LEN]
    out[r, 520] = meta[i, M_EXCHANGED]
    out[r, 521] = needed
    out[r, 522] = max_turns - meta[i, M_TURNS] if max_turns > 0 else 0


@njit(inline="always", cache=True)
def _finish(meta: np.ndarray, i: int, players: int, teams: int, max_moves: int,
            rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
            winner: np.ndarray, turns: np.ndarray, moves: np.ndarray) -> bool:
    """Report row i's result if its game is over or cut; True if it was."""
    if meta[i, M_OVER] != 0:
        terminated[i] = True
        w = meta[i, M_WINNER]
        if w >= 0:
            for s in range(players):
                rewards[i, s] = 1.0 if s % teams == w else -1.0
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
def _step_kernel(b: SequenceBatch, actions: np.ndarray, active: np.ndarray, players: int,
                 teams: int, needed: int, max_turns: int, max_moves: int, autoreset: bool,
                 rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                 winner: np.ndarray, turns: np.ndarray, moves: np.ndarray) -> int:
    """Check every active row's action, then play them all; -1, or the first illegal row
    (nothing is played then)."""
    board, locked, hands, deck, discards, sequences, seq_count, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    n = actions.shape[0]
    for i in range(n):
        if active[i] and not _is_legal(board, locked, hands, meta, i, teams, actions[i], buf):
            return i
    for i in range(n):
        if not active[i]:
            continue
        _apply_one(board, locked, hands, deck, discards, sequences, seq_count, meta, rngs, i,
                   actions[i], players, teams, needed, max_turns)
        if _finish(meta, i, players, teams, max_moves, rewards, terminated, truncated, winner,
                   turns, moves) and autoreset:
            _deal_one(board, locked, hands, deck, discards, seq_count, meta, rngs, i, players)
    return -1


@njit(cache=True)
def _random_kernel(b: SequenceBatch, teams: int, out: np.ndarray) -> None:
    board, locked, hands, _, _, _, _, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(out.shape[0]):
        if meta[i, M_OVER] != 0:
            out[i] = -1
            continue
        n = _legal_ids(board, locked, hands, meta, i, teams, buf)
        out[i] = buf[below(rngs, i, R_POLICY, n)]


@njit(cache=True)
def _play_random_kernel(b: SequenceBatch, seat: int, active: np.ndarray, players: int,
                        teams: int, needed: int, max_turns: int, max_moves: int,
                        rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                        winner: np.ndarray, turns: np.ndarray, moves: np.ndarray) -> None:
    """Random moves in each active row until ``seat`` is to act or the game ends or is cut."""
    board, locked, hands, deck, discards, sequences, seq_count, meta, rngs = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for i in range(active.shape[0]):
        if not active[i]:
            continue
        while meta[i, M_OVER] == 0 and meta[i, M_CURRENT] != seat and not (
                max_moves > 0 and meta[i, M_MOVES] >= max_moves):
            n = _legal_ids(board, locked, hands, meta, i, teams, buf)
            _apply_one(board, locked, hands, deck, discards, sequences, seq_count, meta, rngs,
                       i, buf[below(rngs, i, R_POLICY, n)], players, teams, needed, max_turns)
        _finish(meta, i, players, teams, max_moves, rewards, terminated, truncated, winner,
                turns, moves)


@njit(cache=True)
def _mask_kernel(b: SequenceBatch, rows: np.ndarray, teams: int, out: np.ndarray) -> None:
    board, locked, hands, _, _, _, _, meta, _ = b
    buf = np.empty(NUM_ACTIONS, np.int16)
    for r in range(rows.shape[0]):
        i = rows[r]
        for k in range(out.shape[1]):
            out[r, k] = 0
        if meta[i, M_OVER] != 0:
            continue
        n = _legal_ids(board, locked, hands, meta, i, teams, buf)
        for k in range(n):
            out[r, buf[k]] = 1


@njit(cache=True)
def _observe_kernel(b: SequenceBatch, rows: np.ndarray, seats: np.ndarray, players: int,
                    teams: int, needed: int, max_turns: int, out: np.ndarray) -> None:
    """Row ``rows[r]`` seen by ``seats[r]`` into ``out[r]``."""
    board, locked, hands, _, discards, _, seq_count, meta, _ = b
    for r in range(rows.shape[0]):
        _observe_one(board, locked, hands, discards, seq_count, meta, rows[r], seats[r],
                     players, teams, needed, max_turns, out, r)


@njit(cache=True)
def _deal_kernel(b: SequenceBatch, rows: np.ndarray, players: int) -> None:
    board, locked, hands, deck, discards, _, seq_count, meta, rngs = b
    for i in rows:
        _deal_one(board, locked, hands, deck, discards, seq_count, meta, rngs, i, players)


# ---------------------------------------------------------------- the engine



class VectorSequence(VectorEngine[SequenceBatch, SequenceResults]):
    """Batched Sequence with its options fixed; ``max_moves`` (default none) cuts a game.

    Examples:
        >>> import numpy as np
        >>> from cardtable.vector import VectorSequence
        >>> engine = VectorSequence(players=2)
        >>> batch = engine.init(np.arange(4))
        >>> results = engine.step(batch, engine.random_actions(batch))
        >>> engine.legal_mask(batch).shape, engine.observe(batch).shape
        ((4, 529), (4, 523))
    """

    game_name = "sequence"
    num_actions = NUM_ACTIONS
    batch_type = SequenceBatch
    results_type = SequenceResults
    state_type = SequenceState

    def _configure(self, game: SequenceGame) -> None:
        self.card_copies = 2
        self.teams = game.teams
        self.hand_size = game.hand_size
        self.needed = game.needed
        self.max_turns = game.max_turns or 0
        offsets = self.encoder.offsets
        # the kernel writes the encoder's layout at fixed offsets: a changed layout fails here
        assert (offsets["locked"], offsets["hand"], offsets["discards"], offsets["hand_sizes"],
                offsets["sequences"], offsets["stock_size"], self.obs_size) == (
                    300, 400, 452, 504, 516, 519, 523), offsets
        assert MAX_SEATS == 12 and MAX_TEAMS == 3
        self._rules = (self.num_players, self.teams, self.needed, self.max_turns,
                       self.max_moves)

    def _empty(self, n: int) -> SequenceBatch:
        return SequenceBatch(
            board=np.zeros((n, 100), np.uint8), locked=np.zeros((n, 100), np.uint8),
            hands=np.full((n, self.num_players, self.hand_size), -1, np.int8),
            deck=np.zeros((n, DECK_SIZE), np.int8), discards=np.zeros((n, NUM_CARDS), np.uint8),
            sequences=np.zeros((n, MAX_SEQUENCES, 2), np.int16),
            seq_count=np.zeros((n, MAX_TEAMS), np.int8),
            meta=np.zeros((n, len(META_FIELDS)), np.int32), rngs=np.zeros((n, 4), np.uint64))

    def empty_results(self, n: int) -> SequenceResults:
        """Results of N rows in which nothing has ended."""
        return SequenceResults(rewards=np.zeros((n, self.num_players), np.float32),
                               terminated=np.zeros(n, np.bool_),
                               truncated=np.zeros(n, np.bool_),
                               winner=np.full(n, -1, np.int8), turns=np.zeros(n, np.int32),
                               moves=np.zeros(n, np.int32))

    def _load(self, batch: SequenceBatch, i: int, state: SequenceState) -> None:
        data = state.to_dict()
        board = batch.board[i]
        board[:] = 0
        board[list(CORNERS)] = CORNER
        for name, team in data["chips"].items():
            board[parse_cell(name)] = team + 1
        meta = batch.meta[i]
        meta[:] = 0
        batch.locked[i] = 0
        batch.seq_count[i] = 0
        for s, (team, cells) in enumerate(data["sequences"]):
            window = _WINDOW_ID[WINDOW_OF_CELLS[frozenset(parse_cell(c) for c in cells)]]
            batch.sequences[i, s] = window, team
            batch.seq_count[i, team] += 1
            batch.locked[i, WINDOW_CELLS[window]] = 1
        meta[M_NSEQ] = len(data["sequences"])
        batch.hands[i] = -1
        for seat, hand in enumerate(data["hands"]):
            batch.hands[i, seat, :len(hand)] = [parse_card(c) for c in hand]
        deck = [parse_card(c) for c in reversed(data["deck"])]  # top at the end
        batch.deck[i, :len(deck)] = deck
        meta[M_DECK_LEN] = len(deck)
        batch.discards[i] = np.bincount([parse_card(c) for pile in data["discards"]
                                         for c in pile], minlength=NUM_CARDS)
        meta[M_CURRENT] = data["current"]
        meta[M_DEALER] = data["dealer"]
        meta[M_EXCHANGED] = data["exchanged"]
        meta[M_PASSES] = data["passes"]
        meta[M_TURNS] = data["turns"]
        meta[M_MOVES] = len(data["history"])
        meta[M_OVER] = data["over"]
        meta[M_WINNER] = -1 if data["winning_team"] is None else data["winning_team"]

    def _stock(self, batch: SequenceBatch) -> tuple[np.ndarray, np.ndarray]:
        deck = batch.deck
        return deck, np.arange(deck.shape[1]) < batch.meta[:, M_DECK_LEN, None]

    def _hidden_cards(self, batch: SequenceBatch, i: int) -> tuple[list[list[str]], list[str]]:
        hands = [[card_name(c) for c in h if c >= 0] for h in batch.hands[i].tolist()]
        deck = [card_name(c) for c in reversed(batch.deck[i, :batch.meta[i, M_DECK_LEN]].tolist())]
        return hands, deck

    def _kernel_new(self, batch: SequenceBatch, rows: np.ndarray) -> None:
        _deal_kernel(batch, rows, self.num_players)

    def _kernel_step(self, batch: SequenceBatch, actions: np.ndarray, active: np.ndarray,
                     autoreset: bool, res: SequenceResults) -> int:
        players, teams, needed, max_turns, max_moves = self._rules
        return int(_step_kernel(batch, actions, active, players, teams, needed, max_turns,
                                max_moves, autoreset, *res))

    def _kernel_play_random(self, batch: SequenceBatch, seat: int, active: np.ndarray,
                            res: SequenceResults) -> None:
        _play_random_kernel(batch, seat, active, *self._rules, *res)

    def _kernel_random(self, batch: SequenceBatch, out: np.ndarray) -> None:
        _random_kernel(batch, self.teams, out)

    def _kernel_mask(self, batch: SequenceBatch, rows: np.ndarray, out: np.ndarray) -> None:
        _mask_kernel(batch, rows, self.teams, out)

    def _kernel_observe(self, batch: SequenceBatch, rows: np.ndarray, seats: np.ndarray,
                        out: np.ndarray) -> None:
        _observe_kernel(batch, rows, seats, *self._rules[:4], out)


#: the old name of ``SequenceResults``
Results = SequenceResults
ENGINE = VectorSequence
