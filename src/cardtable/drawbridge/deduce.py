"""Dealing afresh the cards a seat has not seen, consistent with all it saw (for ``resample``).

From one seat's side, each unseen card of the deal lies in one "slot": the
opponent's dealt hand (time 0), the card the opponent drew after draw trick k
(time k + 1: in hand from trick k + 1 on), or the stock still undrawn (time INF).
What the seat saw bounds the time of each card to a window ``[lo, hi]``:

- a card the opponent played at draw trick p was in hand then: ``hi = p``
  (a card it played in the play phase was in hand at the auction: ``hi = 13``);
  a card nobody played may still be in the stock: ``hi = INF``;
- under ``follow_suit_in_draw``, an opponent that did not follow suit X at draw
  trick k held no X then (RULES 1.3): an X card it held later came after:
  ``lo = k + 1``.

Every such assignment is a deal the seat cannot tell from the real one. Finding
one is a matching of cards to slots whose allowed slots form intervals, which the
earliest-deadline-first sweep decides exactly; ``deal_hidden`` fills each slot at
random among the choices that keep the rest solvable (not exactly uniform over all
such deals, but every one of them can come out).
"""

from __future__ import annotations

import random
from heapq import heappop, heappush
from typing import TYPE_CHECKING

import cardtable.drawbridge.game as rules  # the game imports this module: read at call time
from cardtable.cards import cards_of, mask_of
from cardtable.core import check_seat

if TYPE_CHECKING:
    from cardtable.drawbridge.game import DrawBridgeState

INF = 1 << 30
SUBSET_TRIES = 4

#: a hidden card and its window of times: (card, lo, hi)
Window = tuple[int, int, int]


def solvable(cards: list[Window], slots: list[tuple[int, int]]) -> bool:
    """Whether ``cards`` (sorted by lo) fill ``slots`` ((time, size), ascending) exactly."""
    heap: list[int] = []
    i, n = 0, len(cards)
    for time, size in slots:
        while i < n and cards[i][1] <= time:
            heappush(heap, cards[i][2])
            i += 1
        for _ in range(size):
            if not heap or heappop(heap) < time:
                return False
    return i == n and not heap


def deal_hidden(cards: list[Window], slots: list[tuple[int, int]],
                rng: random.Random) -> dict[int, list[int]]:
    """A random assignment of ``cards`` to ``slots`` (time -> its cards) within every window.

    ``slots`` are (time, size) in ascending time and must hold exactly the cards;
    ValueError if no assignment exists (never for the windows of a real deal).
    """
    # sorted by lo, then card: the result depends on the windows and ``rng`` only, never on
    # the order the caller found the cards in (which could reflect where they really are)
    pending = sorted(cards, key=lambda w: (w[1], w[0]))
    if not solvable(pending, slots):
        raise ValueError("no deal of the hidden cards fits what was seen")
    out: dict[int, list[int]] = {}
    for i, (time, size) in enumerate(slots):
        later = slots[i + 1:]
        if time == INF:
            stock = [w[0] for w in pending]
            rng.shuffle(stock)
            out[time] = stock
            pending = []
            continue
        # a card whose window ends here must be in this slot
        chosen = [w for w in pending if w[2] == time]
        pending = [w for w in pending if w[2] != time]
        # first a few random draws of the whole slot, each kept if the rest stays solvable
        options = [w for w in pending if w[1] <= time]
        for _ in range(SUBSET_TRIES):
            picks = rng.sample(options, size - len(chosen))
            rest = [w for w in pending if w not in picks]
            if solvable(rest, later):
                chosen += picks
                pending = rest
                break
        # else card by card, each kept if the rest stays solvable
        while len(chosen) < size:
            options = [w for w in pending if w[1] <= time]
            room = [(time, size - len(chosen) - 1)] + later
            while True:  # a random option that leaves the rest solvable; one always does
                pick = options.pop(rng.randrange(len(options)))
                rest = [w for w in pending if w is not pick]
                if solvable(rest, room):
                    break
            chosen.append(pick)
            pending = rest
        out[time] = [w[0] for w in chosen]
    return out


def resample(state: DrawBridgeState, seat: int, rng: random.Random) -> DrawBridgeState:
    """A deal ``seat`` cannot tell from this one: the unseen cards dealt afresh.

    Kept: the seat's own cards and draws, every card played (with when and by whom),
    the stock tops shown under ``show_stock_top``, and under ``follow_suit_in_draw``
    each suit the opponent could not follow at that moment (see ``deduce``). From the
    auction on every card is known by elimination, so the hands are the true ones.
    """
    check_seat(seat, 2)
    new = state.clone()
    new._rng = random.Random(rng.getrandbits(64))
    new._legal = new._legal_ids = None
    opp = 1 - seat
    number, dealer, hands, stock, scores, records = state._deal_start
    shown = state.game.show_stock_top
    draw_winners = state._winners[:rules.DRAW_TRICKS]
    done = len(draw_winners)
    # the unseen places of the deal: the opponent's dealt hand, its unseen draws, the stock
    pool = cards_of(hands[opp])
    draw_slots: list[tuple[int, int]] = []  # (time, stock position)
    stock_slots: list[int] = []
    for k, w in enumerate(draw_winners):
        pos = 2 * k if w == opp else 2 * k + 1
        if not (shown and w == opp):
            draw_slots.append((k + 1, pos))
            pool.append(stock[pos])
    top_shown = shown and state._phase == rules.DRAW
    for pos in range(2 * done + top_shown, len(stock)):
        stock_slots.append(pos)
        pool.append(stock[pos])
    # the windows of time in which each unseen card may have reached the opponent
    last_time: dict[int, int] = {}
    voids: list[tuple[int, int]] = []  # (draw trick, suit) the opponent could not follow
    for i, (who, card) in enumerate(state._played_by()):
        if who == opp:
            last_time[card] = min(i // 2, rules.DRAW_TRICKS)
        if i % 2 and i < 2 * rules.DRAW_TRICKS and who == opp and state.game.follow_suit_in_draw:
            led = state._played[i - 1] // 13
            if card // 13 != led:
                voids.append((i // 2, led))
    windows: list[Window] = []
    for card in pool:
        hi = last_time.get(card, INF)
        lo = max([k + 1 for k, suit in voids if suit == card // 13 and k < hi], default=0)
        windows.append((card, lo, hi))
    slots = [(0, rules.HAND_SIZE)] + [(t, 1) for t, _ in draw_slots]
    if stock_slots:
        slots.append((INF, len(stock_slots)))
    placed = deal_hidden(windows, slots, rng)
    new_stock = list(stock)
    for time, pos in draw_slots:
        new_stock[pos] = placed[time][0]
    for pos, card in zip(stock_slots, placed.get(INF, []), strict=True):
        new_stock[pos] = card
    new_hands = [0, 0]
    new_hands[seat] = hands[seat]
    new_hands[opp] = mask_of(placed[0])
    new._deal_start = (number, dealer, (new_hands[0], new_hands[1]), tuple(new_stock),
                       scores, records)
    new._restart_deal()
    new._replay(state._deal_actions())
    return new
