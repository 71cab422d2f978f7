"""Draw Bridge's observation tensor (layout in docs/envs.md).

Seats are relative to the observer: row 0 is the seat itself, row 1 its
opponent. Only ``hand`` and ``drawn`` are private; every card played, the
auction and (under ``show_stock_top``) the stock cards shown are public.
The tensor records what was seen and leaves inferences to the learner: which
suits a player did not follow (``off_suit``) rather than which suits it lacks.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from cardtable.cards import CARD_NAMES, NUM_CARDS
from cardtable.core import State
from cardtable.drawbridge.game import BID, CALL_NAMES, PASS, PHASES, DrawBridgeState
from cardtable.drawbridge.scoring import STRAINS
from cardtable.encoders import Encoder, Section

BIDS = CALL_NAMES[:PASS - BID]  # 1C 1D 1H 1S 1NT 2C .. 7NT
_BID_INDEX = {name: i for i, name in enumerate(BIDS)}
_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
# the most a deal can score: 13 undertricks redoubled at 200 (undertricks option)
MAX_DEAL_POINTS = 2600
assert len(BIDS) == 7 * len(STRAINS)


class DrawBridgeEncoder(Encoder):
    def _sections(self) -> list[Section]:
        target = self.game.options["target"]
        return [
            Section("phase", (4,), 1, False, "one-hot: draw, auction, play, over"),
            Section("hand", (NUM_CARDS,), 1, True,
                    "the seat's cards (card index = suit * 13 + rank, suits S H D C, "
                    "ranks A..K)"),
            Section("drawn", (NUM_CARDS,), 1, True, "the cards the seat drew this deal"),
            Section("played", (2, NUM_CARDS), 1, False,
                    "cards played this deal (both phases) by the seat (row 0) and its "
                    "opponent (row 1)"),
            Section("trick", (NUM_CARDS,), 1, False, "the card led to the trick in progress"),
            Section("off_suit", (2, 4), 1, False,
                    "suits (S H D C) led this deal that the seat (row 0) and its opponent "
                    "(row 1) did not follow"),
            Section("stock_top", (NUM_CARDS,), 1, False,
                    "the face-up top card of the stock (show_stock_top, draw phase)"),
            Section("shown_draws", (2, NUM_CARDS), 1, False,
                    "shown stock cards taken this deal by the seat (row 0) and its opponent "
                    "(row 1) (show_stock_top)"),
            Section("bids", (2, len(BIDS)), 1, False,
                    "bids made this deal by the seat (row 0) and its opponent (row 1), "
                    "1C 1D 1H 1S 1NT 2C .. 7NT"),
            Section("last_bid", (len(BIDS),), 1, False,
                    "the last bid of this deal's auction (the contract once play starts)"),
            Section("last_bidder", (2,), 1, False, "who made it: the seat, its opponent"),
            Section("doubled", (2,), 1, False,
                    "the last bid was doubled (entry 0) and redoubled (entry 1)"),
            Section("passes", (2,), 2, False, "passes in this deal's auction by each seat"),
            Section("tricks_won", (2,), 13, False, "play-phase tricks won this deal"),
            Section("stock_size", (1,), 26, False, "cards left in the stock"),
            Section("scores", (2,), target + MAX_DEAL_POINTS, False, "match points"),
            Section("target", (1,), target, False, "the match target (option)"),
            Section("dealer", (1,), 1, False, "1 when the seat deals this deal"),
            Section("to_act", (1,), 1, False, "1 when the seat is to act"),
            Section("rules", (4,), 1, False,
                    "options: show_stock_top, follow_suit_in_draw, draw_trick_winner is "
                    "suit-led, undertricks"),
        ]

    def fill_from_view(self, view: dict[str, Any], seat: int,
                       parts: dict[str, np.ndarray]) -> None:
        opts = self.game.options
        parts["phase"][PHASES.index(view["phase"])] = 1
        for name in view["hand"]:
            parts["hand"][_CARD_INDEX[name]] = 1
        for name in view["drawn"]:
            parts["drawn"][_CARD_INDEX[name]] = 1
        played = view["played"]
        for who, name in played:
            parts["played"][int(who != seat), _CARD_INDEX[name]] = 1
        for k in range(1, len(played), 2):
            (_, lead), (who, follow) = played[k - 1], played[k]
            if lead[-1] != follow[-1]:
                parts["off_suit"][int(who != seat), "SHDC".index(lead[-1])] = 1
        for _, name in view["trick"]:
            parts["trick"][_CARD_INDEX[name]] = 1
        if view["stock_top"] is not None:
            parts["stock_top"][_CARD_INDEX[view["stock_top"]]] = 1
        for who, name in view["shown_draws"]:
            parts["shown_draws"][int(who != seat), _CARD_INDEX[name]] = 1
        for who, call in view["auction"]:
            if call in _BID_INDEX:
                parts["bids"][int(who != seat), _BID_INDEX[call]] = 1
                parts["last_bid"][:] = 0
                parts["last_bid"][_BID_INDEX[call]] = 1
                parts["last_bidder"][:] = 0
                parts["last_bidder"][int(who != seat)] = 1
                parts["doubled"][:] = 0
            elif call == "double":
                parts["doubled"][0] = 1
            elif call == "redouble":
                parts["doubled"][1] = 1
            elif call == "pass":
                parts["passes"][int(who != seat)] += 1
        won = view["tricks_won"]
        parts["tricks_won"][:] = won[seat], won[1 - seat]
        parts["stock_size"][0] = view["stock_size"]
        scores = view["scores"]
        parts["scores"][:] = scores[seat], scores[1 - seat]
        parts["target"][0] = view["target"]
        parts["dealer"][0] = view["dealer"] == seat
        parts["to_act"][0] = view["current_player"] == seat
        parts["rules"][:] = (opts["show_stock_top"], opts["follow_suit_in_draw"],
                             opts["draw_trick_winner"] == "suit-led", opts["undertricks"])

    def encode(self, state: State, seat: int) -> np.ndarray:
        """Fast path: the same tensor as ``encode_view`` (tests/envs check it), read from
        ``state.observation(seat)`` with card masks instead of notation."""
        if not isinstance(state, DrawBridgeState):
            raise TypeError(f"a Draw Bridge encoder encodes Draw Bridge states, not {state!r}")
        obs = state.observation(seat)
        off = self.offsets
        buf = bytearray(self.size)
        phase = PHASES.index(obs.phase)
        buf[phase] = 1
        buf[off["hand"]:off["hand"] + 52] = _bits(obs.hand)
        drawn = 0
        for card in obs.drawn:
            drawn |= 1 << card
        buf[off["drawn"]:off["drawn"] + 52] = _bits(drawn)
        mine = theirs = 0
        for who, card in obs.played:
            if who == seat:
                mine |= 1 << card
            else:
                theirs |= 1 << card
        buf[off["played"]:off["played"] + 52] = _bits(mine)
        buf[off["played"] + 52:off["played"] + 104] = _bits(theirs)
        played = obs.played
        off_suit = off["off_suit"]
        for k in range(1, len(played), 2):
            lead, (who, card) = played[k - 1][1] // 13, played[k]
            if lead != card // 13:
                buf[off_suit + 4 * (who != seat) + lead] = 1
        if obs.lead is not None:
            buf[off["trick"] + obs.lead] = 1
        if obs.stock_top is not None:
            buf[off["stock_top"] + obs.stock_top] = 1
        for winner, card in obs.shown_draws:
            buf[off["shown_draws"] + 52 * (winner != seat) + card] = 1
        bids, last = off["bids"], -1
        for who, call in obs.auction:
            other = who != seat
            if call < PASS:
                bid = call - BID
                buf[bids + 35 * other + bid] = 1
                last = bid
                last_other = other
                doubled = 0
            elif call == PASS:
                buf[off["passes"] + other] += 1
            else:
                doubled = call - PASS
        if last >= 0:
            buf[off["last_bid"] + last] = 1
            buf[off["last_bidder"] + last_other] = 1
            buf[off["doubled"]] = doubled >= 1
            buf[off["doubled"] + 1] = doubled == 2
        won = obs.tricks_won
        buf[off["tricks_won"]] = won[seat]
        buf[off["tricks_won"] + 1] = won[1 - seat]
        buf[off["stock_size"]] = obs.stock_size
        buf[off["dealer"]] = obs.dealer == seat
        buf[off["to_act"]] = obs.current_player == seat
        buf[off["rules"]:off["rules"] + 4] = self._rules
        out = np.frombuffer(buf, np.uint8).astype(np.float32)
        scores = obs.scores
        out[off["scores"]] = scores[seat]
        out[off["scores"] + 1] = scores[1 - seat]
        out[off["target"]] = obs.target
        return out

    @cached_property
    def _rules(self) -> bytes:
        opts = self.game.options
        return bytes((opts["show_stock_top"], opts["follow_suit_in_draw"],
                      opts["draw_trick_winner"] == "suit-led", opts["undertricks"]))


# the 0/1 bytes of every 13-bit block of a card mask (a suit), to unpack a hand quickly
_BLOCKS = tuple(bytes((v >> b) & 1 for b in range(13)) for v in range(1 << 13))


def _bits(mask: int) -> bytes:
    """52 bytes, 1 for each card of the 52-bit mask."""
    blocks = _BLOCKS
    return (blocks[mask & 0x1FFF] + blocks[mask >> 13 & 0x1FFF] + blocks[mask >> 26 & 0x1FFF]
            + blocks[mask >> 39 & 0x1FFF])


ENCODER = DrawBridgeEncoder
