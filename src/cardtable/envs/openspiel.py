"""Every cardtable game as an OpenSpiel Python game: ``import cardtable.envs.openspiel``.

Registers ``python_cardtable_sequence``, ``python_cardtable_drawbridge`` and
``python_cardtable_threethirteen`` (each game that ``cardtable.game_names()``
lists), so that ``pyspiel.load_game("python_cardtable_sequence(players=4)")``
works, reloading by name included.

Chance. cardtable draws every shuffle inside ``apply`` from the state's own
seeded generator. The OpenSpiel game therefore starts with ``SEED_BYTES``
explicit chance nodes of 256 equally likely outcomes each; together they are
the 32-bit seed of ``game.deal(seed)``. From then on the game is deterministic
from OpenSpiel's point of view (the seed, and so every later shuffle, stays
hidden from the players). ``resample_from_infostate`` deals the cards a player
cannot see afresh with ``state.resample`` and also reseeds the generator, so
the future shuffles of a resampled world are unknown too.

Parameters are the game's options (``players`` included) plus ``max_moves``:
after that many moves without a result the game ends with every return 0 (it
bounds ``max_game_length``, which OpenSpiel requires). An option whose default
is "none" or depends on the player count (Sequence's ``teams`` and
``max_turns``) is given as 0 for that default.

Observations: the tensor is the seat's tensor from ``cardtable.encoders``
(public-only and private-only observers zero the other part); the
information-state tensor is the same tensor, which holds everything the seat
knows now but not the order in which things happened. Strings are JSON of
``state.view(player)``: the information-state string keeps the view's history
of actions (perfect recall of everything public), the observation string drops
it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

import cardtable
from cardtable.cards import CARD_NAMES
from cardtable.core import Game, OptionsError, State
from cardtable.encoders import Encoder, encoder_for
from cardtable.envs import DEFAULT_MAX_MOVES

PREFIX = "python_cardtable_"
#: chance nodes before the deal; their outcomes (bytes) make the deal's seed
SEED_BYTES = 4
# view keys left out of every string: what the seat could do now is not what it knows
_NOT_KNOWLEDGE = ("legal",)


def _player_counts(name: str) -> list[int]:
    return list(cardtable.declaration(name).players)


def _title(name: str) -> str:
    return cardtable.declaration(name).title


def _defaults(name: str) -> tuple[dict[str, Any], set[str]]:
    """The OpenSpiel parameter defaults and the options that take 0 for "the game's default"."""
    per_count = [cardtable.new_game(name, players=n).options for n in _player_counts(name)]
    base = cardtable.new_game(name).options
    spec: dict[str, Any] = {}
    zero_default = set()
    for key, value in base.items():
        if key != "players" and (value is None or any(o[key] != value for o in per_count)):
            spec[key] = 0
            zero_default.add(key)
        else:
            spec[key] = value
    spec["max_moves"] = DEFAULT_MAX_MOVES
    return spec, zero_default


class _Held:
    """A cardtable state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and
    serializes it by pickling them: this copies with ``clone`` and pickles
    through ``to_dict``.
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.state.to_dict(),))


def _restore(data: dict[str, Any]) -> _Held:
    return _Held(cardtable.state_from_dict(data))


class CardtableGame(pyspiel.Game):
    """A cardtable game with its options, as an OpenSpiel game (a subclass per game)."""

    cardtable_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.cardtable_name
        spec, zero_default = _SPECS[name]
        params = {**spec, **(params or {})}
        options = {k: v for k, v in params.items()
                   if k != "max_moves" and not (k in zero_default and v == 0)}
        try:
            self.cardtable_game: Game = cardtable.new_game(name, **options)
        except OptionsError as exc:
            raise ValueError(f"{PREFIX}{name}: {exc}") from None
        max_moves = params["max_moves"]
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise ValueError(f"{PREFIX}{name}: max_moves must be a positive integer")
        self.max_moves: int = max_moves
        self.encoder: Encoder = encoder_for(self.cardtable_game)
        zero_sum = _zero_sum(self.cardtable_game)
        game_type = game_type_of(name, zero_sum)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardtable_game.num_distinct_actions,
            max_chance_outcomes=256,
            num_players=self.cardtable_game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=max_moves,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CardtableObserver:
        if isinstance(iig_obs_type, dict):  # called from C++ with the params only
            iig_obs_type, params = None, iig_obs_type
        return CardtableObserver(self, iig_obs_type, params)


class CardtableState(pyspiel.State):
    """A position: the seed bytes drawn so far, then the dealt cardtable state."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self.seed_bytes: list[int] = []
        self.held: _Held | None = None
        self.moves = 0
        self.truncated = False

    @property
    def cardtable_state(self) -> State | None:
        """The cardtable state once dealt (None while the seed is being drawn)."""
        return None if self.held is None else self.held.state

    def current_player(self) -> int:
        if self.held is None:
            return int(pyspiel.PlayerId.CHANCE)
        state = self.held.state
        if self.truncated or state.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = state.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.held is not None and player >= 0
        return sorted(a.id for a in self.held.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.held is None
        return [(b, 1 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.held is None:
            self.seed_bytes.append(action)
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "big")
                self.held = _Held(self.get_game().cardtable_game.deal(seed=seed))
            return
        state = self.held.state
        state.apply(int(action))
        self.moves += 1
        if not state.is_terminal and self.moves >= self.get_game().max_moves:
            self.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.get_game().cardtable_game.actions[action])

    def is_terminal(self) -> bool:
        return self.held is not None and (self.truncated or self.held.state.is_terminal)

    def returns(self) -> list[float]:
        """``state.returns()``, except that a game every seat wins (a Three Thirteen tie on
        the lowest total) is a draw, every return 0, as a game cut at ``max_moves``."""
        n = self.get_game().num_players()
        if self.held is None or self.truncated or len(self.held.state.winners) == n:
            return [0.0] * n
        return self.held.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableState:
        """A state ``player_id`` cannot tell from this one (``State.resample``), drawn with a
        generator seeded from ``probability_sampler``."""
        new: CardtableState = self.clone()
        if self.held is not None:
            seed = sum(int(probability_sampler() * 2**32) << (32 * k) for k in range(4))
            new.held = _Held(self.held.state.resample(player_id, random.Random(seed)))
        return new

    def __str__(self) -> str:
        """Every hand, then what is public (the public sections of seat 0's tensor): cheap
        to build (OpenSpiel compares it after every clone) and the same for equal states."""
        if self.held is None:
            return f"seed bytes drawn: {self.seed_bytes}"
        state = self.held.state
        encoder = self.get_game().encoder
        turn = ("truncated" if self.truncated else "over" if state.is_terminal
                else f"seat {state.current_player} to act")
        lines = [f"move {self.moves}, {turn}"]
        for seat in range(state.game.num_players):
            counts = encoder.split(encoder.encode(state, seat))["hand"]
            cards = [CARD_NAMES[c] for c in np.flatnonzero(counts) for _ in range(int(counts[c]))]
            lines.append(f"seat {seat} hand: {' '.join(cards)}")
        lines.append(encoder.describe(encoder.encode(state, 0), private=False))
        return "\n".join(lines)


class CardtableObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, game: CardtableGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations of every player's private cards are not offered")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.split(self.tensor)
        keep = np.zeros(self.encoder.size, bool)
        if self.private:
            keep |= self.encoder.private
        if self.public:
            keep |= ~self.encoder.private
        self._drop = ~keep

    def set_from(self, state: CardtableState, player: int) -> None:
        inner = state.cardtable_state
        if inner is None:
            self.tensor.fill(0)
            return
        tensor = self.encoder.encode(inner, player)
        tensor[self._drop] = 0
        self.tensor[:] = tensor

    def string_from(self, state: CardtableState, player: int) -> str:
        inner = state.cardtable_state
        if inner is None:
            return ""
        view = _view(inner, player)
        if self.public and self.private:
            shown = view
        elif self.public:
            shown = _view(inner, None)
        elif self.private:
            spectator = _view(inner, None)
            shown = {k: v for k, v in view.items() if spectator.get(k) != v}
        else:
            return ""
        drop = _NOT_KNOWLEDGE if self.perfect_recall else _NOT_KNOWLEDGE + ("history",)
        return json.dumps({k: v for k, v in shown.items() if k not in drop},
                          sort_keys=True, separators=(",", ":"))


# The views of the state last asked about: OpenSpiel asks for the information-state and the
# observation strings of every player in turn, and a view copies the whole history.
_VIEWS: dict[str, Any] = {"state": None, "moves": -1, "views": {}}


def _view(state: State, seat: int | None) -> dict[str, Any]:
    """``state.view(seat)``, remembered until the state changes (never mutated by callers)."""
    cache = _VIEWS
    if cache["state"] is not state or cache["moves"] != len(state.history):
        cache.update(state=state, moves=len(state.history), views={})
    views: dict[int | None, dict[str, Any]] = cache["views"]
    if seat not in views:
        views[seat] = state.view(seat)
    return views[seat]


def _zero_sum(game: Game) -> bool:
    """Whether the returns always sum to 0: two teams (or seats) of equal size, +1 each of
    one team's seats and -1 each of the other's, or all 0 (a draw, a game every seat
    wins, a game cut at ``max_moves``). Two-player games always are."""
    sizes = Counter(game.team_of(seat) for seat in range(game.num_players))
    return len(sizes) == 2 and len(set(sizes.values())) == 1


def game_type(name: str) -> Any:
    """The type registered for ``name``: ``ZERO_SUM`` only if it is for every player
    count (a loaded game's own type says it for its options: ``game_type_of``)."""
    counts = _player_counts(name)
    return game_type_of(name, max(counts) == 2)


def game_type_of(name: str, zero_sum: bool) -> Any:
    counts = _player_counts(name)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Python cardtable {_title(name)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # +1 per winner, -1 per other seat: zero-sum only for two teams of equal size
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_SPECS[name][0],
        default_loadable=True,
        provides_factored_observation_string=True,
    )


_SPECS: dict[str, tuple[dict[str, Any], set[str]]] = {}
_TYPES: dict[str, Any] = {}
#: the OpenSpiel game class of each game
GAME_CLASSES: dict[str, type[CardtableGame]] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name in cardtable.game_names():
        if PREFIX + name in registered:
            continue
        _SPECS[name] = _defaults(name)
        _TYPES[name] = game_type(name)
        cls = type(f"Cardtable{_title(name).replace(' ', '')}Game", (CardtableGame,),
                   {"cardtable_name": name, "__module__": __name__})
        GAME_CLASSES[name] = cls
        globals()[cls.__name__] = cls  # pickle finds a class by its module and name
        pyspiel.register_game(_TYPES[name], cls)


_register()
