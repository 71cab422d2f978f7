"""The "lookahead" bot: two plies of expectimax on Sequence's afterstate value network.

The trained bot plays the move whose afterstate its network values most
(``cardtable.bots.sequence_value``). This bot takes the ``top`` moves by that value and
looks one reply further: it deals the cards its seat has not seen afresh ``samples``
times (``state.resample``: the opponent's hand and the draw pile, from what the seat may
know), plays each candidate on every such deal, lets the opponent answer, and scores the
candidate by the mover's chance left, ``1 - V_opp`` of the reply's afterstate, averaged
over the deals (a win is 1, a loss 0). The opponent answers as ``reply`` would: by
default the heuristic, the player whose games the network learned from (so the network's
values and the reply agree on how play goes on); ``reply="value"``, the move the network
values most from the opponent's side. ``prior`` counts the candidate's own value as so
many deals. A dead-card exchange is made at once (RULES 2.4.1: never worse), as is a
winning move.

``seconds`` caps the thinking time: no new deal is begun once it is spent (one deal at
least). docs/bots.md has what it measured: no stronger than the trained bot's one ply.

Three Thirteen, any options and players, is played by
``cardtable.bots.threethirteen_lookahead``: each move judged by the expected penalty of
the hand after one more draw. Other games are played as the trained bot plays them.

Examples:
    >>> import cardtable
    >>> from cardtable.bots import make
    >>> state = cardtable.new_game("sequence").deal(seed=1)
    >>> state.apply(make("lookahead", seed=1).choose(state))
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardtable.bots import threethirteen_lookahead
from cardtable.bots.base import Bot
from cardtable.bots.sequence_value import ACT_KIND, K_DEAD, ValueNet, best_action, shipped
from cardtable.bots.trained import TrainedBot
from cardtable.core import Action, OptionsError, State
from cardtable.threethirteen.game import ThreeThirteenState

__all__ = ["LookaheadBot", "make"]


class LookaheadBot:
    """Two-ply expectimax over sampled deals, the value network at the leaves."""

    def __init__(self, seed: int | None = None, top: int = 3, samples: int = 16,
                 seconds: float | None = None, reply: str = "heuristic", prior: float = 0.0,
                 weights: ValueNet | None = None,
                 going_out: float = threethirteen_lookahead.GOING_OUT) -> None:
        for name, count in (("top", top), ("samples", samples)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise OptionsError(f"{name} must be a whole number of at least 1, not {count!r}")
        if seconds is not None and not seconds > 0:
            raise OptionsError(f"seconds must be more than 0, not {seconds!r}")
        if not going_out >= 0:
            raise OptionsError(f"going_out must be a number of at least 0, not {going_out!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.top, self.samples, self.seconds = top, samples, seconds
        self.net = weights
        self.reply = reply
        #: the root value's weight, in deals: each candidate's score is its value before the
        #: reply counted ``prior`` times with the deals' values after it
        self.prior = prior
        #: Three Thirteen: going out's worth, in penalty points a card dealt
        self.going_out = going_out
        #: the bot that answers for the opponent (None: the network's best reply)
        self.replier: Bot | None = None
        if reply != "value":
            from cardtable.bots import make as make_bot

            self.replier = make_bot(reply, seed)
        self.fallback = TrainedBot(seed)
        #: the time source the ``seconds`` cap reads
        self.clock: Callable[[], float] = time.perf_counter
        #: the deals the last search looked at
        self.last_samples = 0
        self._encoder: Any = None

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self.fallback.reset()
        if self.replier is not None:
            self.replier.reset()

    def _network(self, state: State) -> ValueNet | None:
        net = self.net if self.net is not None else shipped()
        return net if net is not None and net.fits(state.game) else None

    def choose(self, state: State) -> Action:
        """The candidate with the best chance after the opponent's reply, averaged over deals
        of the unseen cards; in Three Thirteen, the hand left after one more draw."""
        if isinstance(state, ThreeThirteenState) and not state.is_terminal:
            return threethirteen_lookahead.choose(state, self.going_out)
        net = self._network(state)
        seat = state.current_player
        if net is None or seat is None:
            return self.fallback.choose(state)
        if self._encoder is None:
            from cardtable.encoders import encoder_for

            self._encoder = encoder_for(state.game)
        game = state.game
        legal = state.legal_actions()
        ids = [a.id for a in legal]
        best, values = best_action(net, self._encoder.encode(state, seat), ids)
        self.last_samples = 0
        if ACT_KIND[best] == K_DEAD or len(ids) == 1 or values.max() >= 1.0:
            return game.actions[best]
        order = np.argsort(-values, kind="stable")[:self.top]
        candidates = [legal[int(k)] for k in order]
        totals = self.prior * values[order]
        stop = None if self.seconds is None else self.clock() + self.seconds
        while self.last_samples < self.samples and (
                not self.last_samples or stop is None or self.clock() < stop):
            deal = state.resample(seat, self.rng)
            totals += self._after_replies(net, [deal.after(a) for a in candidates], seat)
            self.last_samples += 1
        return candidates[int(np.argmax(totals))]

    def _after_replies(self, net: ValueNet, states: list[State], seat: int) -> np.ndarray:
        """``seat``'s chance in each of ``states`` once the opponent has answered (the
        replier's move, else its best by the network): 1 less the network's value of the
        reply's afterstate from the opponent's side (the game's result where it is over)."""
        out = np.zeros(len(states))
        asked: list[int] = []
        positions = []
        for k, state in enumerate(states):
            if state.is_terminal:
                out[k] = (state.returns()[seat] + 1.0) / 2.0
                continue
            other = state.current_player
            assert other is not None and other != seat   # exchanges are made at once
            asked.append(k)
            replies = ([self.replier.choose(state).id] if self.replier is not None
                       else [a.id for a in state.legal_actions()])
            positions.append((self._encoder.encode(state, other), np.array(replies)))
        if positions:
            values = net.afterstate_values_of(positions)
            out[asked] = [1.0 - float(v.max()) for v in values]
        return out


def make(seed: int | None = None, top: int | str = 3, samples: int | str = 16,
         seconds: float | str | None = None, reply: str = "heuristic",
         prior: float | str = 0.0,
         going_out: float | str = threethirteen_lookahead.GOING_OUT) -> LookaheadBot:
    """A lookahead bot, for the arena's outside bots (settings as text:
    ``cardtable.bots.lookahead:make:top=6:samples=12``; in Three Thirteen,
    ``cardtable.bots.lookahead:make:going_out=0`` is the first lookahead)."""
    try:
        counts = int(top), int(samples)
        limit = None if seconds is None else float(seconds)
        weight, out = float(prior), float(going_out)
    except ValueError:
        raise OptionsError(f"top and samples must be whole numbers, seconds, prior and "
                           f"going_out numbers: {top!r}, {samples!r}, {seconds!r}, "
                           f"{prior!r}, {going_out!r}") from None
    return LookaheadBot(seed, *counts, limit, reply, weight, going_out=out)
