"""Three Thirteen's meld solver in JAX (RULES.md 3.5, 3.7, 3.8): the least penalty of a
hand, exactly as the numba kernel (``cardtable.vector.threethirteen_melds``) and the
scalar solver find it, as a function of arrays without branches for ``jax.jit`` and
``jax.vmap``.

It is the numba kernel's branch and bound (its module docstring gives the facts it
rests on): the lowest natural card left is placed at each level, in a run of its suit
up to a higher natural card, a high-ace run down from the king (aces="both"), with two
wild cards, in a set of its rank, or as deadwood; a branch stops once its deadwood
reaches the best split found. Here the search is one ``lax.while_loop`` over a carry of
fixed size: each turn of the loop either tries a level's next option (and descends) or
returns to the level above. A level's options are computed side by side as a mask over
a fixed list of ids (13 run tops, 13 high-ace run bottoms, the two wild cards, every set
as a count per suit from a precomputed table, deadwood), and the first valid id past the
last one tried is taken: the numba kernel's search (but for the order in which it tries
sets), the same least deadwood. A level is a few ints (what its option took is one
packed int), written by comparisons with ``arange`` rather than scatters, which are slow
in XLA's CPU code. Under ``jax.vmap`` the loop runs until every row's search has ended
(a row whose search is over waits).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardtable.threethirteen.game import MAX_DECKS
from cardtable.vector.threethirteen_melds import VALUES

#: the most cards in a hand the solver takes (round 11's 13 and the card drawn): one level
#: of the search per natural card
HAND_MAX = 14
#: option ids of a level: run tops, high-ace run bottoms (12 down to 0), two wild cards,
#: then the sets and deadwood (``_options``)
_HIGH, _TWO_WILDS, _SETS = 13, 26, 27
#: where a set's counts start in a level's code of what it took (``_taken``)
_SET_BITS = 13
_RANKS = np.arange(13)


@lru_cache(maxsize=MAX_DECKS)
def _set_table(decks: int) -> np.ndarray:
    """(combos, 4) int32: every choice of how many more cards of the rank to take from each
    suit (0..decks), for the sets a card can start."""
    return np.array(list(product(range(decks + 1), repeat=4)), np.int32)


def _options(cnt: jax.Array, p: jax.Array, w: jax.Array, cur: jax.Array, best: jax.Array,
             vals: jax.Array, ace_high: bool, table: np.ndarray
             ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """Level options of the card ``p`` (already out of ``cnt``) with ``w`` wild cards and
    deadwood ``cur`` so far: per id whether it is valid, the wild cards it needs, and
    what each id takes out of the suit's 13 ranks (runs) or each suit's rank (sets)."""
    suit, rank = p // 13, p % 13
    present = cnt.reshape(4, 13)[suit] > 0
    r = jnp.asarray(_RANKS)
    # runs up to a higher natural card, taking every natural card on the way
    above = present & (r > rank)
    held = 1 + jnp.cumsum(above)
    need_up = jnp.maximum(r - rank + 1, 3) - held
    valid_up = above & (need_up <= w)
    # 3.8: a high ace tops a run down from the king (bottom b, ids from b = 12 down)
    low = present & (r >= 1)
    held_hi = 1 + jnp.cumsum(low[::-1])[::-1]
    need_hi = jnp.maximum(14 - r, 3) - held_hi
    valid_hi = low & (need_hi <= w) & (rank == 0) & ace_high
    # a set: the card and k[q] more of its rank from suit q
    n = cnt.reshape(4, 13)[:, rank]
    k = jnp.asarray(table)
    size = 1 + k.sum(axis=1)
    need_set = jnp.maximum(3 - size, 0)
    valid_set = (k <= n).all(axis=1) & (size >= 2) & (need_set <= w)
    dead = cur + vals[rank] < best
    valid = jnp.concatenate([valid_up, valid_hi[::-1], (w >= 2)[None], valid_set, dead[None]])
    need = jnp.concatenate([need_up, need_hi[::-1], jnp.full(1, 2), need_set,
                            jnp.zeros(1, need_set.dtype)])
    return valid, need, above, low


def _taken(code: jax.Array, p: jax.Array) -> jax.Array:
    """(52,) the cards an option of the level of card ``p`` took out, from its ``code``:
    a run's ranks of the card's suit (bits 0..12), a set's count from each suit (3 bits
    a suit from bit 13)."""
    suit, rank = p // 13, p % 13
    r = jnp.asarray(_RANKS)
    run = (code >> r) & 1
    counts = (code >> (_SET_BITS + 3 * jnp.arange(4))) & 7
    return ((jnp.arange(4) == suit)[:, None] * run[None, :]
            + counts[:, None] * (r == rank)[None, :]).reshape(52)


def search(cnt: jax.Array, wilds: jax.Array, vals: jax.Array, best: jax.Array,
           ace_high: bool, decks: int) -> jax.Array:
    """The least deadwood (below ``best``, else ``best``) of the natural cards ``cnt``
    (52 counts, at most ``HAND_MAX`` cards, at most ``decks`` of a card) with at most
    ``wilds`` wild cards: the numba ``_search``, one option or one return a turn. A
    level keeps its card, wild cards, deadwood, next option id and what its option took
    (``_taken``'s code): a few ints, put back when the search returns to it."""
    table = _set_table(decks)
    last = _SETS + len(table)  # deadwood's id
    ids = jnp.arange(last + 1)
    depth = HAND_MAX
    r = jnp.asarray(_RANKS)
    set_codes = jnp.asarray((table << (_SET_BITS + 3 * np.arange(4))).sum(axis=1))
    cnt = jnp.asarray(cnt, jnp.int32)
    first = jnp.argmax(cnt > 0)
    any_card = (cnt > 0).any()
    zero = jnp.zeros(depth, jnp.int32)
    carry0 = (cnt.at[first].add(-any_card.astype(jnp.int32)), jnp.zeros((), jnp.int32),
              zero.at[0].set(first), zero.at[0].set(wilds), zero, zero, zero,
              jnp.asarray(best, jnp.int32), ~any_card)

    at = jnp.arange(depth)

    def turn(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        cnt, d, pos, wild, cur, par, took, best, _ = carry
        p, w, c = pos[d], wild[d], cur[d]
        cnt = cnt + _taken(took[d], p)  # what the level's last option took goes back
        valid, need, above, low = _options(cnt, p, w, c, best, vals, ace_high, table)
        valid = valid & (ids >= par[d])
        found = valid.any()
        o = jnp.argmax(valid)
        rank = p % 13
        run = jnp.where(o < _HIGH, above & (r <= o),
                        jnp.where(o < _TWO_WILDS, low & (r >= _TWO_WILDS - 1 - o), False))
        in_set = (o >= _SETS) & (o < last)
        code = jnp.where(run, 1 << r, 0).sum() \
            + jnp.where(in_set, set_codes[jnp.clip(o - _SETS, 0, len(table) - 1)], 0)
        code = code * found
        child_w = w - need[o]
        child_c = c + jnp.where(o == last, vals[rank], 0)
        left = cnt - _taken(code, p)
        q = jnp.argmax(left > 0)
        leaf = found & ~(left > 0).any()
        best = jnp.where(leaf, jnp.minimum(best, child_c), best)
        down = found & ~leaf
        took = jnp.where(at == d, code, took)
        par = jnp.where(at == d, jnp.where(found, o + 1, par), par)
        # descend: the next level places the lowest card left
        below = down & (at == d + 1)
        pos = jnp.where(below, q, pos)
        wild = jnp.where(below, child_w, wild)
        cur = jnp.where(below, child_c, cur)
        par = jnp.where(below, 0, par)
        cards = jnp.arange(52)
        cnt = left - (down & (cards == q))
        # every option tried: the card goes back, the level above carries on
        cnt = cnt + (~found & (cards == p))
        d = jnp.where(down, d + 1, jnp.where(found, d, d - 1))
        done = (d < 0) | (best == 0)
        return cnt, jnp.maximum(d, 0), pos, wild, cur, par, took, best, done

    return jax.lax.while_loop(lambda c: ~c[-1], turn, carry0)[-2]


def _naturals(hand: jax.Array, wild: jax.Array, vals: jax.Array
              ) -> tuple[jax.Array, jax.Array, jax.Array]:
    """The natural cards of ``hand`` (52 counts), its wild cards and the naturals' value."""
    hand = jnp.asarray(hand, jnp.int32)
    is_wild = jnp.asarray(np.arange(52) % 13) == wild
    cnt = jnp.where(is_wild, 0, hand)
    return cnt, jnp.where(is_wild, hand, 0).sum(), (cnt * vals[np.arange(52) % 13]).sum()


def hand_penalty(hand: jax.Array, wild: jax.Array, vals: jax.Array, ace_high: bool,
                 all_wild_melds: bool, decks: int) -> jax.Array:
    """3.7: the penalty of ``hand`` (52 counts) at its best split, ``wild`` the wild rank's
    index (the numba ``hand_penalty``)."""
    cnt, wilds, total = _naturals(hand, wild, vals)
    best = search(cnt, wilds, vals, total, ace_high, decks)
    lone = jnp.where(all_wild_melds & (wilds >= 3), 0, wilds * vals[wild])
    return jnp.where(best < total, best, total + lone)


def melds_fully(hand: jax.Array, wild: jax.Array, vals: jax.Array, ace_high: bool,
                all_wild_melds: bool, decks: int, needed: jax.Array | bool = True
                ) -> jax.Array:
    """3.6: whether ``hand`` (52 counts) splits entirely into melds; False without a search
    where ``needed`` is False (a row that does not ask)."""
    cnt, wilds, total = _naturals(hand, wild, vals)
    cnt = jnp.where(needed, cnt, 0)
    alone = (wilds == 0) | (all_wild_melds & (wilds >= 3))
    return jnp.where(total == 0, alone, search(cnt, wilds, vals, jnp.int32(1), ace_high,
                                               decks) == 0) & needed


@lru_cache(maxsize=32)
def _penalties_fn(aces: str, face_values: str, all_wild_melds: bool, decks: int) -> Any:
    vals = VALUES[aces, face_values].astype(np.int32)

    def one(hand: jax.Array, wild: jax.Array) -> jax.Array:
        return hand_penalty(hand, wild, jnp.asarray(vals), aces == "both", all_wild_melds,
                            decks)
    return jax.jit(jax.vmap(one, in_axes=(0, None)))


def penalties(hands: Any, round_: int, aces: str = "low", face_values: str = "ten",
              all_wild_melds: bool = True, decks: int = 1) -> np.ndarray:
    """The penalty of each hand in ``hands`` ((k, 52) card counts, at most ``decks`` of a
    card and ``HAND_MAX`` cards) in round ``round_``: the twin of the numba
    ``penalties``."""
    fn = _penalties_fn(aces, face_values, all_wild_melds, decks)
    return np.asarray(fn(jnp.asarray(np.asarray(hands), jnp.int32), jnp.int32(round_ + 1)))
