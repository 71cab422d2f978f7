"""Three Thirteen's observation tensor (layout in docs/envs.md).

Seats are relative to the observer (index k is the k-th seat after it, 0 the
seat itself; zeros past the player count). Private: ``hand`` only. Public: the
discard pile, the cards each player took from it and still holds, the melds
shown by a player who went out, the round and the totals. The previous
round's detailed result (in the view's ``last_round``) is summed up by
``scores``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from cardtable.cards import CARD_NAMES, NUM_CARDS, RANKS
from cardtable.core import State
from cardtable.encoders import Encoder, Section, relative
from cardtable.threethirteen.game import DECLARATION, ROUNDS, ThreeThirteenState

MAX_SEATS = max(DECLARATION.players)
PHASES = ("draw", "discard", "over")
# 11 rounds of at most 13 unmelded cards at 15 (an ace under aces="both")
MAX_TOTAL = ROUNDS * 13 * 15
_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


class ThreeThirteenEncoder(Encoder):
    def _sections(self) -> list[Section]:
        decks = self.game.decks
        return [
            Section("phase", (3,), 1, False, "one-hot: draw, discard, over"),
            Section("hand", (NUM_CARDS,), decks, True,
                    "copies of each card in the seat's hand (card index = suit * 13 + rank, "
                    "suits S H D C, ranks A..K)"),
            Section("discard_pile", (NUM_CARDS,), decks, False,
                    "copies of each card in the discard pile"),
            Section("top_discard", (NUM_CARDS,), 1, False, "the top card of the discard pile"),
            Section("taken", (MAX_SEATS, NUM_CARDS), decks, False,
                    "cards each seat took from the discard pile this round and still holds "
                    "(row k: the k-th seat after the observer)"),
            Section("shown_melds", (NUM_CARDS,), decks, False,
                    "the cards of the melds shown by the player who went out this round"),
            Section("went_out", (MAX_SEATS,), 1, False,
                    "one-hot, relative: the seat that went out this round"),
            Section("hand_sizes", (MAX_SEATS,), 14, False, "cards in each hand, relative"),
            Section("stock_size", (1,), NUM_CARDS * decks, False, "cards in the stock"),
            Section("reshuffled", (1,), 1, False,
                    "1 once this round's one reshuffle of the discard pile is used"),
            Section("round", (ROUNDS,), 1, False, "one-hot: rounds 1..11"),
            Section("wild_rank", (13,), 1, False, "one-hot: the wild rank, A..K"),
            Section("dealer", (MAX_SEATS,), 1, False, "one-hot, relative: the dealer"),
            Section("to_act", (MAX_SEATS,), 1, False, "one-hot, relative: the seat to act"),
            Section("scores", (MAX_SEATS,), MAX_TOTAL, False,
                    "penalty totals of the rounds completed, relative"),
            Section("rules", (3,), 1, False,
                    "options: aces is both, face_values is counting, all_wild_melds"),
        ]

    def fill_from_view(self, view: dict[str, Any], seat: int,
                       parts: dict[str, np.ndarray]) -> None:
        n = len(view["hand_sizes"])
        order = relative(seat, n)
        where = {other: k for k, other in enumerate(order)}
        parts["phase"][PHASES.index(view["phase"])] = 1
        for name in view["hand"]:
            parts["hand"][_CARD_INDEX[name]] += 1
        for name in view["discard"]:
            parts["discard_pile"][_CARD_INDEX[name]] += 1
        if view["top_discard"] is not None:
            parts["top_discard"][_CARD_INDEX[view["top_discard"]]] = 1
        for other, cards in enumerate(view["taken"]):
            for name in cards:
                parts["taken"][where[other], _CARD_INDEX[name]] += 1
        for shown in view["melds_shown"]:
            for meld in (shown or {}).get("melds", []):
                for name in meld:
                    parts["shown_melds"][_CARD_INDEX[name]] += 1
        if view["went_out"] is not None:
            parts["went_out"][where[view["went_out"]]] = 1
        for k, other in enumerate(order):
            parts["hand_sizes"][k] = view["hand_sizes"][other]
            parts["scores"][k] = view["scores"][other]
        parts["stock_size"][0] = view["stock_size"]
        parts["reshuffled"][0] = view["reshuffled"]
        parts["round"][view["round"] - 1] = 1
        parts["wild_rank"][RANKS.index(view["wild_rank"])] = 1
        parts["dealer"][where[view["dealer"]]] = 1
        if view["current_player"] is not None:
            parts["to_act"][where[view["current_player"]]] = 1
        opts = self.game.options
        parts["rules"][:] = (opts["aces"] == "both", opts["face_values"] == "counting",
                             opts["all_wild_melds"])

    def encode(self, state: State, seat: int) -> np.ndarray:
        """Fast path: the same tensor as ``encode_view`` (tests/envs check it), read from
        ``state.observation(seat)``."""
        if not isinstance(state, ThreeThirteenState):
            raise TypeError(f"a Three Thirteen encoder encodes Three Thirteen states, not "
                            f"{state!r}")
        obs = state.observation(seat)
        off = self.offsets
        buf = bytearray(self.size)
        n = len(obs.hand_sizes)
        buf[PHASES.index(obs.phase)] = 1
        hand = off["hand"]
        for card in obs.hand:
            buf[hand + card] += 1
        pile = off["discard_pile"]
        discard = obs.discard
        for card in discard:
            buf[pile + card] += 1
        if discard:
            buf[off["top_discard"] + discard[0]] = 1
        row = off["taken"]
        for cards in obs.taken[seat:] + obs.taken[:seat]:  # seats in order from the observer
            for card in cards:
                buf[row + card] += 1
            row += NUM_CARDS
        if obs.went_out is not None:
            buf[off["went_out"] + (obs.went_out - seat) % n] = 1
            shown = off["shown_melds"]
            for meld in obs.out_melds or ():
                for card in meld:
                    buf[shown + card] += 1
        sizes = off["hand_sizes"]
        buf[sizes:sizes + n] = bytes(obs.hand_sizes[seat:] + obs.hand_sizes[:seat])
        buf[off["reshuffled"]] = obs.reshuffled
        buf[off["round"] + obs.round - 1] = 1
        buf[off["wild_rank"] + obs.wild] = 1
        buf[off["dealer"] + (obs.dealer - seat) % n] = 1
        if obs.current_player is not None:
            buf[off["to_act"] + (obs.current_player - seat) % n] = 1
        rules = off["rules"]
        buf[rules:rules + 3] = self._rules
        out = np.frombuffer(buf, np.uint8).astype(np.float32)
        out[off["stock_size"]] = obs.stock_size
        scores = off["scores"]
        out[scores:scores + n] = obs.scores[seat:] + obs.scores[:seat]
        return out

    @cached_property
    def _rules(self) -> bytes:
        opts = self.game.options
        return bytes((opts["aces"] == "both", opts["face_values"] == "counting",
                      opts["all_wild_melds"]))


ENCODER = ThreeThirteenEncoder
