"""Three Thirteen melds (RULES.md 3.5, 3.7, 3.8): the least-penalty split of a hand, exactly.

A hand is its natural cards (any rank but the round's wild rank) and a number of
wild cards, all of one rank and so of one value. The search rests on four facts:

* A meld holding a natural card is a **set** of one rank or a **run** of one suit.
  A set with one natural card is also a run (the card and two wild cards), so sets
  need two or more natural cards here, and one set per rank is enough (two sets of
  a rank merge without needing more wild cards).
* Wild cards left over once the natural cards are melded can always be melded too,
  as long as one meld exists: a set takes any number, a run grows to 13 cards, a
  full run splits in two, and a run with one to three natural cards turns into sets
  (``_absorb`` does it). So the penalty is the least deadwood of the natural cards
  over splits needing at most the wild cards held; wild cards cost their value only
  when no meld at all can be made (and then, under ``all_wild_melds``, three or more
  of them meld on their own).
* A run never leaves out a natural card it spans: swapping that card in for a wild
  card keeps every meld valid (or empties a meld of natural cards, which frees wild
  cards). So a run is fixed by its lowest and highest natural cards, and each suit's
  runs are a small search over "where does the run starting at this card end".
* Runs of different suits never share a card; only sets tie the suits together.
  So the search enumerates the choices of sets (the *leaves*: ranks with two or more
  natural cards), and for each looks up, per suit, the *frontier* of the suit's
  remaining cards: the least deadwood with 0, 1, 2 ... wild cards. A frontier depends
  only on the suit's rank pattern, so it is memoized by it and shared by every hand
  (and every game) played with the same options.

The suits of a leaf then share its wild cards. The concave hulls of their frontiers'
savings, taken best rate first, bound the best sharing from below and give it exactly
when the wild cards run out at a hull corner (most leaves); the other leaves are
searched in the order of their bounds, until a bound reaches the best split found. A
natural card with no natural card of its suit within reach of the wild cards can only
be in a set of its rank or alone with two wild cards; when its rank forms a set, it
joins it (never worse), which prunes the choices of sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from cardtable.cards import CARD_NAMES, RANKS, parse_card, rank_of
from cardtable.core import OptionsError, check_bool, check_choice

#: a run is at most 13 cards long: A..K, or 2..A with a high ace (3.8), never both aces
RUN_MAX = 13
#: rank positions in a run: 0 = ace (low) .. 12 = king, and 13 = a high ace under aces=both
HIGH_ACE = 13

# Hands are packed into one int: a 4-bit count per card, card c at bits 4c..4c+3, so
# each suit is a 52-bit "pattern" with rank r at bits 4r..4r+3. Adding the four suits
# gives each rank's count, so a hand holds at most 15 natural cards of one rank.
FIELD = 4
MAX_OF_A_RANK = 15
SUIT_BITS = 13 * FIELD
SUIT_MASK = (1 << SUIT_BITS) - 1
UNIT = tuple(1 << (FIELD * c) for c in range(52))
ONES = sum(1 << (FIELD * r) for r in range(13))  # the low bit of each rank's field
TWOS = ONES << 1
INFINITE = 1 << 30
CACHE_LIMIT = 1_000_000  # memoized suit patterns, splits and needs kept at most

# how a suit search disposes of its lowest card
DEADWOOD, LOW_RUN, HIGH_RUN = 0, 1, 2

Choice = tuple[int, int, int, tuple[int, ...]]  # (kind, cards taken, wild cards used, ranks)
SuitSplit = tuple[list[tuple[list[int], list[int], int]], list[int]]
Leaf = tuple[int, int, int, int, int]  # (wild cards left, the four suits' patterns left)

Frontier = tuple[int, ...]
# a leaf: its wild cards, its suits' patterns and their frontiers
Found = tuple[int, tuple[int, int, int, int], tuple[Frontier, Frontier, Frontier, Frontier]]


def deadwood_values(aces: str, face_values: str) -> tuple[int, ...]:
    """3.7 / 3.8: the penalty of an unmelded card, by rank index (ace first)."""
    values = [r + 1 for r in range(10)] + ([11, 12, 13] if face_values == "counting"
                                           else [10, 10, 10])
    if aces == "both":
        values[0] = 15  # 3.8: an unmelded ace costs 15 when aces may be high
    return tuple(values)


def pack(naturals: Iterable[int]) -> int:
    """Natural cards as one int: a 4-bit count per card (see ``FIELD``)."""
    packed = 0
    for c in naturals:
        packed += UNIT[c]
    return packed


def unpack(packed: int) -> list[int]:
    """The cards of a packed int, in card order."""
    cards = []
    while packed:
        c = ((packed & -packed).bit_length() - 1) >> 2
        n = (packed >> (FIELD * c)) & 15
        cards += [c] * n
        packed -= n << (FIELD * c)
    return cards


class MeldSolver:
    """The exact meld search for one choice of the ``aces`` and ``face_values`` options.

    Hands are given packed (``pack``) with their number of wild cards; the caches
    (suit pattern -> frontier) are shared by every hand the solver sees.
    """

    def __init__(self, aces: str, face_values: str) -> None:
        self.ace_high = aces == "both"
        self.values = deadwood_values(aces, face_values)
        self._fronts: dict[int, Frontier] = {0: (0,)}
        self._choices: dict[int, tuple[Choice, ...]] = {0: ()}
        self._needs: dict[int, int] = {0: 0}
        self._totals: dict[int, int] = {}
        # per frontier, the concave hull of its savings (see ``_hull``)
        self._hulls: dict[Frontier, list[tuple[float, int, int]]] = {(0,): []}
        self._splits: dict[tuple[int, int, int], SuitSplit] = {}
        # near[d][r]: the fields of the other ranks of a suit within d places of rank r (a
        # high ace is next to the king under aces=both): the cards a run could join it to
        self._near_in_suit = tuple(tuple(self._near_mask(r, d) for r in range(13))
                                   for d in range(RUN_MAX + 1))

    def _near_mask(self, rank: int, distance: int) -> int:
        places = [rank] + ([HIGH_ACE] if self.ace_high and rank == 0 else [])
        mask = 0
        for other in range(13):
            others = [other] + ([HIGH_ACE] if self.ace_high and other == 0 else [])
            if other != rank and any(abs(p - q) <= distance for p in places for q in others):
                mask |= 15 << (FIELD * other)
        return mask

    def _trim(self) -> None:
        """Forget the memoized suits when they grow past ``CACHE_LIMIT`` (a long process)."""
        if len(self._fronts) + len(self._splits) + len(self._needs) > CACHE_LIMIT:
            self._fronts = {0: (0,)}
            self._choices = {0: ()}
            self._needs = {0: 0}
            self._totals = {}
            self._hulls = {(0,): []}
            self._splits = {}

    # -- one suit: runs only --------------------------------------------------

    def frontier(self, pattern: int) -> Frontier:
        """The least deadwood of a suit pattern in runs, with 0, 1, 2 ... wild cards.

        ``frontier[u]`` is the least deadwood with at most ``u`` wild cards; the tuple
        ends at its first 0 (every card melded). ``self._choices[pattern][u]`` says what
        that best split does with the lowest card.
        """
        got = self._fronts.get(pattern)
        if got is not None:
            return got
        rank = ((pattern & -pattern).bit_length() - 1) >> 2
        one = 1 << (FIELD * rank)
        rest = pattern - one
        dead = self.frontier(rest)
        # the card alone with two wild cards, or a run up to a higher natural card taking
        # every natural card on the way (a run spans no natural card it leaves out)
        options: list[tuple[int, Choice, Frontier]] = [(2, (LOW_RUN, one, 2, (rank,)), dead)]
        ranks: tuple[int, ...] = (rank,)
        taken = one
        for top in range(rank + 1, 13):
            if (rest >> (FIELD * top)) & 15:
                taken += 1 << (FIELD * top)
                ranks += (top,)
                need = max(top - rank + 1, 3) - len(ranks)
                options.append((need, (LOW_RUN, taken, need, ranks),
                                self.frontier(pattern - taken)))
        if self.ace_high and rank == 0:
            # 3.8: a high ace tops a run reaching down from the king
            taken, ranks = one, (rank,)
            for bottom in range(12, 0, -1):
                if (rest >> (FIELD * bottom)) & 15:
                    taken += 1 << (FIELD * bottom)
                    ranks += (bottom,)
                    need = max(HIGH_ACE - bottom + 1, 3) - len(ranks)
                    options.append((need, (HIGH_RUN, taken, need, ranks),
                                    self.frontier(pattern - taken)))
        value = self.values[rank]
        last = min(need + len(f) - 1 for need, _, f in options)
        front: list[int] = []
        choices: list[Choice] = []
        for u in range(last + 1):
            best = value + (dead[u] if u < len(dead) else 0)
            choice: Choice = (DEADWOOD, one, 0, (rank,))
            for need, option, f in options:
                if need <= u:
                    k = u - need
                    x = f[k] if k < len(f) else 0
                    if x < best:
                        best, choice = x, option
            front.append(best)
            choices.append(choice)
        got = tuple(front)
        self._fronts[pattern] = got
        self._choices[pattern] = tuple(choices)
        if got not in self._hulls:
            self._hulls[got] = _hull(got)
        return got

    def suit_split(self, suit: int, pattern: int, wilds: int) -> SuitSplit:
        """A best split of a suit's pattern in runs with ``wilds`` wild cards.

        Returns the runs as (cards, their places, wild cards needed) and the deadwood;
        the lists are shared, never to be changed.
        """
        key = (suit, pattern, wilds)
        got = self._splits.get(key)
        if got is not None:
            return got
        runs: list[tuple[list[int], list[int], int]] = []
        dead: list[int] = []
        base = suit * 13
        rest, share = pattern, wilds
        while rest:
            self.frontier(rest)
            choices = self._choices[rest]
            kind, taken, need, ranks = choices[share if share < len(choices) else -1]
            if kind == DEADWOOD:
                dead.append(base + ranks[0])
            else:
                places = [HIGH_ACE if kind == HIGH_RUN and r == 0 else r for r in ranks]
                runs.append(([base + r for r in ranks], places, need))
                share -= need
            rest -= taken
        got = self._splits[key] = (runs, dead)
        return got

    def need(self, pattern: int) -> int:
        """The fewest wild cards that meld every card of a suit pattern in runs."""
        got = self._needs.get(pattern)
        if got is not None:
            return got
        rank = ((pattern & -pattern).bit_length() - 1) >> 2
        one = 1 << (FIELD * rank)
        rest = pattern - one
        best = 2 + self.need(rest)
        taken, held, gaps = one, 1, 0
        for top in range(rank + 1, 13):
            if (rest >> (FIELD * top)) & 15:
                taken += 1 << (FIELD * top)
                held += 1
                best = min(best, max(top - rank + 1, 3) - held + self.need(pattern - taken))
            else:
                gaps += 1
                if gaps >= best:
                    break
        if self.ace_high and rank == 0:
            taken, held, gaps = one, 1, 0
            for bottom in range(12, 0, -1):
                if (rest >> (FIELD * bottom)) & 15:
                    taken += 1 << (FIELD * bottom)
                    held += 1
                    best = min(best, max(HIGH_ACE - bottom + 1, 3) - held
                               + self.need(pattern - taken))
                else:
                    gaps += 1
                    if gaps >= best:
                        break
        self._needs[pattern] = best
        return best

    # -- the whole hand ---------------------------------------------------------

    def _leaves(self, packed: int, wilds: int) -> list[Leaf]:
        """Every choice of sets: (wild cards left, the four suits' patterns left for runs).

        Sets come from ranks with two or more natural cards (three with no wild card);
        the first leaf forms no set.
        """
        m = SUIT_MASK
        leaf = (wilds, packed & m, (packed >> SUIT_BITS) & m, (packed >> (2 * SUIT_BITS)) & m,
                packed >> (3 * SUIT_BITS))
        fold = leaf[1] + leaf[2] + leaf[3] + leaf[4]
        if wilds:
            ranks = (fold | (fold >> 1) | (fold >> 2)) & TWOS  # ranks with 2+ cards
        else:
            ranks = ((fold >> 2) | (fold >> 3) | (fold >> 1) & fold) & ONES  # ranks with 3+ cards
        leaves = [leaf]
        if not ranks:
            return leaves
        near = self._near_in_suit[wilds + 1 if wilds < RUN_MAX else RUN_MAX]
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            rank = (low.bit_length() - 1) >> 2
            shift = FIELD * rank
            field = 15 << shift
            options: list[tuple[int, ...]]  # (wild cards needed, taken from each suit)
            if (fold >> shift) & 15 == 2:  # two cards: the pair is the only set
                options = [(1, leaf[1] & field, leaf[2] & field, leaf[3] & field,
                            leaf[4] & field)]
            else:
                sets: list[tuple[int, ...]] = [(0, 0, 0, 0, 0)]  # (cards, taken from each suit)
                for suit in range(1, 5):
                    n = (leaf[suit] >> shift) & 15
                    if n:
                        unit = 1 << shift
                        counts = range(n + 1) if leaf[suit] & near[rank] else (n,)
                        sets = [(t[0] + k, *t[1:suit], t[suit] + k * unit, *t[suit + 1:])
                                for t in sets for k in counts]
                options = [(3 - t[0] if t[0] < 3 else 0, *t[1:]) for t in sets if t[0] >= 2]
            leaves += [(b - o[0], p0 - o[1], p1 - o[2], p2 - o[3], p3 - o[4])
                       for b, p0, p1, p2, p3 in leaves for o in options if o[0] <= b]
        return leaves

    def best(self, packed: int, wilds: int) -> tuple[int, int]:
        """The least deadwood of the natural cards given ``wilds`` wild cards.

        Returns it with the natural cards in sets in a split that reaches it.
        """
        best, found = self._search(packed, wilds)
        return best, packed - _packed(found[1])

    def _search(self, packed: int, wilds: int) -> tuple[int, Found]:
        """The least deadwood, and the leaf reaching it with its suits' patterns and frontiers.

        Each choice of sets (a leaf) leaves the suits' cards to runs sharing the wild cards
        left. The savings' concave hulls, best rate first, bound what the wild cards can
        save, and reach it when the wild cards run out at a corner of the hulls; other
        leaves are searched in the order of their bounds until a bound reaches the best.
        """
        self._trim()
        fronts = self._fronts
        frontier = self.frontier
        hulls = self._hulls
        best = INFINITE
        found: Found | None = None
        open_leaves = []
        for budget, p0, p1, p2, p3 in self._leaves(packed, wilds):
            f0 = fronts.get(p0) or frontier(p0)
            f1 = fronts.get(p1) or frontier(p1)
            f2 = fronts.get(p2) or frontier(p2)
            f3 = fronts.get(p3) or frontier(p3)
            base = f0[0] + f1[0] + f2[0] + f3[0]
            if budget == 0 or not base:
                if base < best:
                    best, found = base, (budget, (p0, p1, p2, p3), (f0, f1, f2, f3))
                continue
            if budget == 1:
                top = max(f0[0] - f0[1] if len(f0) > 1 else 0, f1[0] - f1[1] if len(f1) > 1 else 0,
                          f2[0] - f2[1] if len(f2) > 1 else 0, f3[0] - f3[1] if len(f3) > 1 else 0)
                if base - top < best:
                    best, found = base - top, (budget, (p0, p1, p2, p3), (f0, f1, f2, f3))
                continue
            segments = hulls[f0] + hulls[f1] + hulls[f2] + hulls[f3]
            segments.sort(reverse=True)
            saving, left, whole = 0, budget, True
            for _, used, saves in segments:
                if used > left:
                    if left:
                        saving += saves * left // used
                        whole = False
                    break
                saving += saves
                left -= used
            if whole:
                if base - saving < best:
                    best, found = base - saving, (budget, (p0, p1, p2, p3), (f0, f1, f2, f3))
            else:
                open_leaves.append((base - saving, (budget, (p0, p1, p2, p3), (f0, f1, f2, f3))))
        if len(open_leaves) > 1:
            open_leaves.sort(key=_first)
        for low, leaf in open_leaves:
            if low >= best:
                break
            v = _share_all(leaf[2], leaf[0])
            if v < best:
                best, found = v, leaf
        assert found is not None
        return best, found

    def penalty(self, packed: int, wilds: int, wild_value: int, all_wild_melds: bool) -> int:
        """3.7: the least penalty of a hand (natural cards packed, a number of wild cards)."""
        if packed:
            best, _ = self.best(packed, wilds)
            if best < self.deadwood(packed):
                return best  # a meld exists: every wild card melds too
        return self.deadwood(packed) + lone_wilds_penalty(wilds, wild_value, all_wild_melds)

    def deadwood(self, packed: int) -> int:
        """The penalty of natural cards left unmelded."""
        return (self.suit_deadwood(packed & SUIT_MASK)
                + self.suit_deadwood((packed >> SUIT_BITS) & SUIT_MASK)
                + self.suit_deadwood((packed >> (2 * SUIT_BITS)) & SUIT_MASK)
                + self.suit_deadwood(packed >> (3 * SUIT_BITS)))

    def suit_deadwood(self, pattern: int) -> int:
        """The penalty of a suit pattern's cards left unmelded."""
        got = self._totals.get(pattern)
        if got is None:
            got = self._totals[pattern] = sum(
                self.values[r] * ((pattern >> (FIELD * r)) & 15) for r in range(13))
        return got

    def melds_fully(self, packed: int, wilds: int, all_wild_melds: bool) -> bool:
        """3.6: whether the hand splits entirely into melds."""
        if not packed:
            return wilds == 0 or (all_wild_melds and wilds >= 3)
        self._trim()
        needs = self._needs
        need = self.need
        for budget, p0, p1, p2, p3 in self._leaves(packed, wilds):
            total = needs.get(p0)
            if total is None:
                total = need(p0)
            if total > budget:
                continue
            n = needs.get(p1)
            total += need(p1) if n is None else n
            if total > budget:
                continue
            n = needs.get(p2)
            total += need(p2) if n is None else n
            if total > budget:
                continue
            n = needs.get(p3)
            total += need(p3) if n is None else n
            if total <= budget:
                return True
        return False

    def split(self, packed: int, wild_cards: Sequence[int], wild_value: int,
              all_wild_melds: bool) -> tuple[list[list[int]], list[int], int]:
        """A least-penalty split: (melds, deadwood, penalty).

        A run lists its cards in rank order, its wild cards where they stand; the deadwood
        is in card order (suits S H D C, then rank).
        """
        wilds = list(wild_cards)
        total = self.deadwood(packed)
        if packed:
            best, found = self._search(packed, len(wilds))
            if best < total:
                melds, deadwood = self._melds(packed - _packed(found[1]), *found)
                spare = len(wilds) - sum(m.wilds for m in melds)
                melds = _absorb(melds, spare, all_wild_melds, self.ace_high)
                pool = iter(wilds)
                return [m.cards_with(pool, self.ace_high) for m in melds], deadwood, best
        lone = lone_wilds_penalty(len(wilds), wild_value, all_wild_melds)
        if wilds and not lone:
            return [wilds], unpack(packed), total
        return [], sorted(unpack(packed) + wilds), total + lone

    def _melds(self, in_sets: int, budget: int, patterns: tuple[int, int, int, int],
               fronts: tuple[Frontier, Frontier, Frontier, Frontier]
               ) -> tuple[list[_Meld], list[int]]:
        """The melds (each with the wild cards it needs) and the deadwood of a best split:
        the natural cards in sets, then the suits' patterns sharing ``budget`` wild cards."""
        melds = []
        if in_sets:
            by_rank: dict[int, list[int]] = {}
            for c in unpack(in_sets):
                by_rank.setdefault(c % 13, []).append(c)
            for rank, cards in by_rank.items():
                melds.append(_Meld(None, cards, [rank] * len(cards),
                                   3 - len(cards) if len(cards) < 3 else 0))
        shares = _shares(fronts, budget, self._hulls) if budget else (0, 0, 0, 0)
        deadwood: list[int] = []
        for suit in range(4):
            if patterns[suit]:
                runs, dead = self.suit_split(suit, patterns[suit], shares[suit])
                deadwood += dead
                melds += [_Meld(suit, cards, places, need) for cards, places, need in runs]
        return melds, deadwood


def _packed(patterns: tuple[int, int, int, int]) -> int:
    """Four suit patterns as one packed int."""
    return (patterns[0] + (patterns[1] << SUIT_BITS) + (patterns[2] << (2 * SUIT_BITS))
            + (patterns[3] << (3 * SUIT_BITS)))


def lone_wilds_penalty(wilds: int, wild_value: int, all_wild_melds: bool) -> int:
    """Penalty of wild cards when no natural card melds: 3.5, they meld alone if allowed."""
    return 0 if all_wild_melds and wilds >= 3 else wilds * wild_value


def _first(leaf: tuple[int, Found]) -> int:
    return leaf[0]


def _hull(front: Frontier) -> list[tuple[float, int, int]]:
    """The upper concave hull of a frontier's savings ``front[0] - front[u]``.

    As segments (saving per wild card, wild cards, saving), best rate first. Savings
    taken segment by segment, best rate first across suits, bound what any sharing of
    the wild cards saves (and reach it when the last segment is taken whole).
    """
    corners = [(0, 0)]
    for u in range(1, len(front)):
        point = (u, front[0] - front[u])
        while len(corners) >= 2:
            (u1, s1), (u2, s2) = corners[-2], corners[-1]
            if (s2 - s1) * (point[0] - u2) > (point[1] - s2) * (u2 - u1):
                break
            corners.pop()
        corners.append(point)
    return [((s2 - s1) / (u2 - u1), u2 - u1, s2 - s1)
            for (u1, s1), (u2, s2) in zip(corners, corners[1:], strict=False)]


def _share_all(fronts: Sequence[Frontier], budget: int) -> int:
    """The least deadwood of the suits sharing ``budget`` wild cards (two or more)."""
    using = [f for f in fronts if len(f) > 1 and f[0] != f[budget if budget < len(f) else -1]]
    rest = sum(f[0] for f in fronts) - sum(f[0] for f in using)
    if len(using) < 2:
        return rest + sum(f[budget] if budget < len(f) else 0 for f in using)
    if len(using) == 2:
        return rest + _share(using[0], using[1], budget)
    if len(using) == 3:
        return rest + _share(_merge(using[0], using[1], budget), using[2], budget)
    return rest + _share(_merge(using[0], using[1], budget),
                         _merge(using[2], using[3], budget), budget)


def _merge(a: Sequence[int], b: Sequence[int], budget: int) -> list[int]:
    """The frontier of two suits together, up to ``budget`` wild cards."""
    za, zb = len(a) - 1, len(b) - 1
    out = []
    for t in range(budget + 1):
        best = INFINITE
        for u in range(max(0, t - zb), min(t, za) + 1):
            x = a[u] + b[t - u]
            if x < best:
                best = x
        out.append(0 if best == INFINITE else best)
    return out


def _share(a: Sequence[int], b: Sequence[int], budget: int) -> int:
    """The least deadwood of two frontiers sharing ``budget`` wild cards."""
    za, zb = len(a) - 1, len(b) - 1
    best = 0 if budget >= za + zb else INFINITE
    for u in range(max(0, budget - zb), min(budget, za) + 1):
        x = a[u] + b[budget - u]
        if x < best:
            best = x
    return best


def _shares(fronts: Sequence[Frontier], budget: int,
            hulls: dict[Frontier, list[tuple[float, int, int]]]) -> list[int]:
    """How many wild cards each suit gets in the least-deadwood sharing of ``budget``."""
    needs = [len(f) - 1 for f in fronts]
    if sum(needs) <= budget:
        return needs
    shares = [0, 0, 0, 0]
    using = [s for s in range(4) if needs[s] and budget]
    if not using:
        return shares
    # the hulls' segments best rate first, when the wild cards run out at a corner
    segments = sorted(((rate, used, s) for s in using for rate, used, _ in hulls[fronts[s]]),
                      reverse=True)
    left = budget
    for _, used, s in segments:
        if used > left:
            break
        shares[s] += used
        left -= used
    if not left or sum(shares) == sum(needs[s] for s in using):
        return shares
    shares = [0, 0, 0, 0]
    # prefix[k]: the frontier of the first k + 1 suits using wild cards together
    prefix: list[Sequence[int]] = [fronts[using[0]]]
    for s in using[1:]:
        prefix.append(_merge(prefix[-1], fronts[s], budget))
    b = budget
    for k in range(len(using) - 1, 0, -1):
        f, before = fronts[using[k]], prefix[k - 1]
        z = len(before) - 1
        best, share = INFINITE, 0
        for u in range(min(b, len(f) - 1) + 1):
            x = f[u] + (before[b - u] if b - u <= z else 0)
            if x < best:
                best, share = x, u
        shares[using[k]] = share
        b -= share
    shares[using[0]] = b
    return shares


class _Meld:
    """A meld being built: a set or a wild-only meld (``suit`` None) or a run.

    ``cards`` are its natural cards and ``positions`` their places in a run (a high
    ace at 13); ``wilds`` is how many wild cards it holds.
    """

    __slots__ = ("suit", "cards", "positions", "wilds")

    def __init__(self, suit: int | None, cards: list[int], positions: list[int],
                 wilds: int) -> None:
        self.suit = suit
        self.cards = cards
        self.positions = positions
        self.wilds = wilds

    def window(self, ace_high: bool) -> tuple[int, int]:
        """The run's first and last place: from its lowest card, moved down if it must."""
        length = len(self.cards) + self.wilds
        bottom = 1 if HIGH_ACE in self.positions else 0
        top = HIGH_ACE if ace_high and 0 not in self.positions else 12
        start = max(bottom, min(min(self.positions), top - length + 1))
        return start, start + length - 1

    def cards_with(self, pool: Iterator[int], ace_high: bool) -> list[int]:
        """The meld's cards, its wild cards drawn from ``pool``; a run in rank order."""
        if self.suit is None:
            return self.cards + [next(pool) for _ in range(self.wilds)]
        start, end = self.window(ace_high)
        out: list[int | None] = [None] * (end - start + 1)
        for p, c in zip(self.positions, self.cards, strict=True):
            out[p - start] = c
        return [next(pool) if c is None else c for c in out]


def _absorb(melds: list[_Meld], spare: int, all_wild_melds: bool, ace_high: bool
            ) -> list[_Meld]:
    """Meld ``spare`` wild cards too (see the module docstring); the melds may change."""
    if not spare:
        return melds
    for meld in melds:
        if meld.suit is None:
            meld.wilds += spare  # a set takes any number of wild cards
            return melds
    if all_wild_melds and spare >= 3:
        return [*melds, _Meld(None, [], [], spare)]
    runs = list(melds)
    while True:
        for run in runs:
            more = min(spare, RUN_MAX - len(run.cards) - run.wilds)
            run.wilds += more
            spare -= more
        if not spare:
            return runs
        # every run is 13 cards long: split one in two, each at least 3 long and each
        # holding a natural card; if none can be split, the natural cards of a run lie
        # within 3 places and it holds 10 or more wild cards: cut it down to 3 cards and
        # meld the rest alone (all_wild_melds), or make each natural card a set
        for k, run in enumerate(runs):
            start, end = run.window(ace_high)
            low_card, high_card = min(run.positions), max(run.positions)
            cut = max(start + 3, low_card + 1)
            if cut <= min(end - 2, high_card):
                low = [i for i, p in enumerate(run.positions) if p < cut]
                high = [i for i, p in enumerate(run.positions) if p >= cut]
                parts = [_Meld(run.suit, [run.cards[i] for i in part],
                               [run.positions[i] for i in part], 0) for part in (low, high)]
                parts[0].wilds = cut - start - len(low)
                parts[1].wilds = end - cut + 1 - len(high)
                runs[k:k + 1] = parts
                break
        else:
            run = runs[0]
            freed = run.wilds + spare
            if all_wild_melds:
                run.wilds = 3 - len(run.cards)
                return [*runs, _Meld(None, [], [], freed - run.wilds)]
            sets = [_Meld(None, [c], [rank_of(c)], 2) for c in run.cards]
            sets[0].wilds += freed - 2 * len(sets)
            return sets + runs[1:]


# -- the public helper -----------------------------------------------------------

_SOLVERS: dict[tuple[str, str], MeldSolver] = {}
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
_ARRANGED: dict[tuple[Any, ...], tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int]] = {}
_ARRANGED_MAX = 50_000


def solver(aces: str, face_values: str) -> MeldSolver:
    """The shared solver for these options (its caches serve every game that uses them)."""
    key = (aces, face_values)
    got = _SOLVERS.get(key)
    if got is None:
        got = _SOLVERS[key] = MeldSolver(aces, face_values)
    return got


def arrange(cards: Iterable[str], round: int, aces: str = "low", all_wild_melds: bool = True,
            face_values: str = "ten") -> tuple[list[list[str]], list[str], int]:
    """3.7: a least-penalty split of ``cards`` in ``round`` (1..11): (melds, deadwood, penalty).

    The penalty is the least over every possible split (any number of wild cards, cards
    repeated from several decks, runs of any length); melds and deadwood are card
    notations, a run in rank order with its wild cards where they stand.

    Examples:
        >>> arrange(["5H", "6H", "KS", "9C", "9D"], 11)  # kings wild: the nines make a set
        ([['9D', '9C', 'KS']], ['5H', '6H'], 11)
        >>> arrange(["5H", "6H", "KS", "9C", "4D"], 11)
        ([['5H', '6H', 'KS']], ['4D', '9C'], 13)
    """
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= 11:
        raise OptionsError(f"round must be a number from 1 to 11, not {round!r}")
    check_choice("aces", aces, ("low", "both"))
    check_bool("all_wild_melds", all_wild_melds)
    check_choice("face_values", face_values, ("ten", "counting"))
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise OptionsError(f"cards must be a list of card notations such as ['AS', 'TD'], "
                           f"not {cards!r}")
    by_name = _CARD_BY_NAME
    ints = []
    for text in cards:
        c = by_name.get(text) if isinstance(text, str) else None
        if c is None:
            if not isinstance(text, str):
                raise OptionsError(f"{text!r} is not a card: cards are notation strings like 'AS'")
            try:
                c = parse_card(text)
            except ValueError as exc:
                raise OptionsError(str(exc)) from None
        ints.append(c)
    key = (round, aces, all_wild_melds, face_values, *sorted(ints))
    got = _ARRANGED.get(key)
    if got is None:
        got = _arrange(ints, round, solver(aces, face_values), all_wild_melds)
        if len(_ARRANGED) >= _ARRANGED_MAX:
            _ARRANGED.clear()
        _ARRANGED[key] = got
    melds, deadwood, penalty = got
    return [list(m) for m in melds], list(deadwood), penalty


def pack_hand(cards: Iterable[int], wild: int) -> tuple[int, list[int]]:
    """A hand as the solver takes it: its natural cards packed, and its wild cards apart."""
    packed = 0
    wilds = []
    for c in cards:
        if c % 13 == wild:
            wilds.append(c)
        else:
            packed += UNIT[c]
    return packed, wilds


def _arrange(cards: list[int], round_: int, melder: MeldSolver, all_wild_melds: bool
             ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int]:
    wild = round_ + 1  # 3.2: the rank index of the round's wild rank
    packed, wilds = pack_hand(cards, wild)
    if len(cards) - len(wilds) > MAX_OF_A_RANK:
        most, rank = max((sum(c % 13 == r for c in cards), r) for r in range(13) if r != wild)
        if most > MAX_OF_A_RANK:
            raise OptionsError(f"{most} natural cards of rank {RANKS[rank]}: the solver takes "
                             f"at most {MAX_OF_A_RANK} of one rank")
    wilds.sort()  # card order is display order: suits S H D C, then rank
    melds, deadwood, penalty = melder.split(packed, wilds, melder.values[wild], all_wild_melds)
    name = CARD_NAMES.__getitem__
    return tuple(tuple(map(name, m)) for m in melds), tuple(map(name, deadwood)), penalty
