"""The "trained" bot: a game's action-value network, trained by ``cardtable.train``,
run in NumPy (no PyTorch at play). Sequence's network is instead a value over
afterstates (``cardtable.bots.sequence_value``): the bot plays the legal move whose
afterstate it values most.

The network reads the seat's observation tensor (``cardtable.encoders``: only what
the seat may know), scales each entry by the encoder's bound, and gives one value per
action id through a few rectified layers. In Three Thirteen each legal move's value
also takes off the least penalty the seat's hand is left with after it
(``penalties_after``, over ``meta["feature_scale"]``): the network learns what the
meld solver cannot see. The bot plays the legal action of highest value (the lowest id
among equals: no random numbers). A game without shipped weights,
or with options the weights were not trained for, is played by the heuristic; Draw
Bridge's draw phase by the trained draw policy (``cardtable.bots.drawbridge_draw``:
which card to give up, weights trained by ``python -m cardtable.train drawbridge``),
the rest of it by the heuristic.

Weights are ``.npz`` files: ``w0, b0, w1, b1, ...`` (float16 or float32) and ``meta``,
a JSON string naming the game, its options and the run that made them
(docs/training.md).

Examples:
    >>> import cardtable
    >>> from cardtable.bots import make
    >>> state = cardtable.new_game("threethirteen").deal(seed=1)
    >>> state.apply(make("trained").choose(state))
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.bots.base import HeuristicBot
from cardtable.bots.drawbridge_draw import draw_card
from cardtable.bots.sequence_value import ValueNet, best_action
from cardtable.bots.sequence_value import shipped as shipped_value
from cardtable.core import Action, OptionsError, State
from cardtable.drawbridge.game import DrawBridgeState
from cardtable.threethirteen.game import DISCARD, DRAW, TAKE, ThreeThirteenObservation
from cardtable.threethirteen.melds import pack_hand

__all__ = ["QNet", "TrainedBot", "make", "no_idle_take", "penalties_after", "shipped"]

#: the shipped weights of each game, in ``cardtable/bots/data``
SHIPPED = {"threethirteen": "threethirteen_trained.npz"}


class QNet:
    """A multilayer perceptron in NumPy: ``x * scale`` through rectified layers to one
    value per action. ``meta`` says which game and options it was trained for."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], scale: np.ndarray,
                 meta: dict[str, Any]) -> None:
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.scale = scale.astype(np.float32)
        self.meta = meta

    @classmethod
    def load(cls, path: str | Path) -> QNet:
        """The network saved at ``path`` (``save``'s format); OptionsError if it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                count = int(meta["layers"])
                layers = [(data[f"w{k}"], data[f"b{k}"]) for k in range(count)]
                scale = data["scale"]
        except (OSError, KeyError, ValueError) as exc:
            raise OptionsError(f"{path}: not a trained network's weights ({exc})") from None
        return cls(layers, scale, meta)

    def save(self, path: str | Path, dtype: Any = np.float16) -> None:
        """Write the network as ``.npz`` (float16 by default: half the size, the same
        moves in practice; tests check the values against PyTorch)."""
        arrays: dict[str, Any] = {"scale": self.scale,
                                  "meta": json.dumps({**self.meta, "layers": len(self.layers)})}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"], arrays[f"b{k}"] = w.astype(dtype), b.astype(dtype)
        with open(path, "wb") as out:
            np.savez_compressed(out, **arrays)

    def values(self, obs: np.ndarray) -> np.ndarray:
        """(N, actions) values of (N, inputs) observations."""
        h = np.asarray(obs, np.float32) * self.scale
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < last:
                np.maximum(h, 0.0, out=h)
        return h

    def action_values(self, obs: np.ndarray, penalties: np.ndarray | None = None
                      ) -> np.ndarray:
        """(N, actions): the network's values, less each move's ``penalties`` (the hand's
        least penalty after it) over ``meta["feature_scale"]`` for a network trained so."""
        values = self.values(obs)
        if self.meta.get("features") == "penalties_after":
            if penalties is None:
                raise ValueError("this network needs the penalties after each move")
            values -= np.asarray(penalties, np.float32) / float(self.meta["feature_scale"])
        return values

    def best(self, obs: np.ndarray, mask: np.ndarray, penalties: np.ndarray | None = None,
             taken: np.ndarray | None = None) -> np.ndarray:
        """(N,) the legal action of highest value of each row (with the penalties, no idle
        move around a take: ``no_idle_take``)."""
        if penalties is not None:
            mask = no_idle_take(np.asarray(mask, bool), np.asarray(penalties), taken)
        return np.where(mask, self.action_values(obs, penalties), -np.inf).argmax(axis=1)

    def fits(self, state: State) -> bool:
        """Whether this network was trained for ``state``'s game and options."""
        return self.fits_game(state.game)

    def fits_game(self, game: Any) -> bool:
        """Whether this network was trained for ``game`` (its name and options)."""
        return (self.meta.get("game") == game.name
                and self.meta.get("options") == json.loads(json.dumps(game.options)))


def penalties_after(state: State) -> np.ndarray:
    """For the seat to act in a Three Thirteen state, the least penalty (3.7) of its hand
    after each legal move, by action id (0 for the others): drawing, the hand as it is;
    taking, after the best discard that follows; a discard, the hand without that card.
    From the seat's own observation only (its hand and the top discard); the batched
    engine's ``VectorThreeThirteen.penalties_after`` gives the same numbers."""
    seat = state.current_player
    obs = state.observation(seat)
    assert isinstance(obs, ThreeThirteenObservation)
    game: Any = state.game
    solver = game.solver
    wild_value, all_wild = solver.values[obs.wild], game.all_wild_melds

    def penalty(cards: list[int]) -> int:
        packed, wilds = pack_hand(cards, obs.wild)
        return int(solver.penalty(packed, len(wilds), wild_value, all_wild))

    out = np.zeros(game.num_distinct_actions, np.float32)
    hand = list(obs.hand)
    if obs.phase == "draw":
        out[DRAW] = penalty(hand)
        if obs.discard:
            held = [*hand, obs.discard[0]]
            out[TAKE] = min(penalty(held[:k] + held[k + 1:]) for k in range(len(held)))
    elif obs.phase == "discard":
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            out[DISCARD + card] = penalty(rest)
    return out


def no_idle_take(mask: np.ndarray, penalties: np.ndarray,
                 taken: np.ndarray | None = None) -> np.ndarray:
    """``mask`` (rows of (N, actions)) less the idle moves around a take: taking the top
    discard where no discard after it would lower the hand's least penalty (and drawing
    is legal), and, in a row whose seat has just taken card ``taken[i]`` (-1: it drew),
    a discard that does not leave less penalty than throwing that card back would. Two
    players who take and throw back would never end a round (3.4 allows it); so a seat
    takes only to lower its penalty, which cannot go on for ever, and draws otherwise."""
    out = mask.copy()
    idle = out[:, TAKE] & out[:, DRAW] & (penalties[:, TAKE] >= penalties[:, DRAW])
    out[idle, TAKE] = False
    if taken is not None:
        rows = np.flatnonzero(taken >= 0)
        back = penalties[rows, DISCARD + taken[rows]]
        keep = out[rows, DISCARD:] & (penalties[rows, DISCARD:] < back[:, None])
        better = keep.any(axis=1)
        out[rows[better], DISCARD:] = keep[better]
    return out


def just_taken(state: State) -> int:
    """The card the seat to act took from the discard pile this turn, -1 if it drew or is
    drawing: from its observation, the last of the cards it took this round."""
    seat = state.current_player
    history = state.history
    if seat is None or not history or history[-1][0] != seat or history[-1][1].id != TAKE:
        return -1
    obs = state.observation(seat)
    assert isinstance(obs, ThreeThirteenObservation)
    return obs.taken[seat][-1]


#: each game's move features, for networks trained with them
FEATURES = {"penalties_after": penalties_after}


def load(path: str | Path) -> QNet | ValueNet:
    """The network saved at ``path``: an action-value network (``QNet``) or Sequence's
    afterstate value network (``ValueNet``); OptionsError if it is neither."""
    try:
        with np.load(path, allow_pickle=False) as data:
            kind = json.loads(str(data["meta"])).get("kind")
    except (OSError, KeyError, ValueError) as exc:
        raise OptionsError(f"{path}: not a trained network's weights ({exc})") from None
    return ValueNet.load(path) if kind == "afterstate value" else QNet.load(path)


@cache
def shipped(game: str) -> QNet | ValueNet | None:
    """The network shipped for ``game``, or None."""
    if game == "sequence":
        return shipped_value()
    name = SHIPPED.get(game)
    if name is None:
        return None
    with resources.as_file(resources.files("cardtable.bots") / "data" / name) as path:
        return QNet.load(path)


class TrainedBot:
    """Plays the best legal action by the network's values, from the seat's observation;
    the heuristic where there is no network for the game and its options."""

    def __init__(self, seed: int | None = None,
                 weights: str | Path | QNet | ValueNet | None = None) -> None:
        #: the network given (weights or a file of them), else the game's shipped one
        self.net: QNet | ValueNet | None = (
            weights if isinstance(weights, QNet | ValueNet) or weights is None
            else load(weights))
        self.fallback = HeuristicBot(seed)
        self._encoders: dict[Any, Any] = {}

    def _net(self, state: State) -> QNet | ValueNet | None:
        net = self.net if self.net is not None else shipped(state.game.name)
        if isinstance(net, ValueNet):
            return net if net.fits(state.game) else None
        return net if net is not None and net.fits(state) else None

    def choose(self, state: State) -> Action:
        """The legal action the network values most, for the seat to act."""
        if isinstance(state, DrawBridgeState) and state.phase == "draw":
            return draw_card(state)
        net = self._net(state)
        seat = state.current_player
        if net is None or seat is None:
            return self.fallback.choose(state)
        from cardtable.encoders import encoder_for

        game = state.game
        encoder = self._encoders.get(game)
        if encoder is None:
            encoder = self._encoders[game] = encoder_for(game)
        if isinstance(net, ValueNet):   # Sequence: the best afterstate
            legal_ids = [a.id for a in state.legal_actions()]
            best, _ = best_action(net, encoder.encode(state, seat), legal_ids)
            return game.actions[best]
        legal = state.legal_actions()
        mask = np.zeros((1, game.num_distinct_actions), bool)
        mask[0, [a.id for a in legal]] = True
        feature = FEATURES.get(net.meta.get("features", ""))
        extra = None if feature is None else feature(state)[None]
        taken = None if feature is None else np.array([just_taken(state)])
        best = int(net.best(encoder.encode(state, seat)[None], mask, extra, taken)[0])
        return next(a for a in legal if a.id == best)

    def reset(self) -> None:
        self.fallback.reset()


def make(seed: int | None = None, weights: str | None = None) -> TrainedBot:
    """A trained bot, for the arena's outside bots (``cardtable.bots.trained:make:weights=
    run/latest.npz``): the shipped network, or the one at ``weights``."""
    return TrainedBot(seed, weights)
