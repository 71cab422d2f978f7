"""The shape every batched engine has: ``VectorEngine``, and the engines found by name.

A game's module in ``cardtable.vector`` (``cardtable.vector.<game>``) holds its kernels,
its batch layout and ``ENGINE``, a subclass of ``VectorEngine``. The base owns what is
alike in every game: the options and ``max_moves``, making batches, seeding the rows,
choosing rows, autoreset, the results, and the checks of every argument before a kernel
sees it. The kernels index arrays without bounds checks, so nothing reaches them that
could send them outside the batch: a bad ``rows=``, ``out=``, ``seats=``, action or row
index is refused with a ``ValueError`` or an ``IndexError`` naming the argument.

    engine = cardtable.vector.make_engine("drawbridge", target=50)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

import cardtable
from cardtable.cards import NUM_CARDS
from cardtable.core import Game, IllegalMoveError, InvalidActionError, OptionsError, State
from cardtable.encoders import encoder_for
from cardtable.vector._kernel import seed_rows

#: a game's batch (a NamedTuple of arrays, row i = game i) and its step results
B = TypeVar("B", bound=tuple[Any, ...])
R = TypeVar("R", bound=tuple[Any, ...])

_MASK_DTYPES = (np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.uint8))
_FLOAT32 = (np.dtype(np.float32),)
_INT64 = (np.dtype(np.int64),)


class VectorEngine(Generic[B, R]):
    """N games of one game with its options fixed, as arrays; ``max_moves`` (default none)
    cuts a game (a match, where a row is a match) after that many moves.

    A subclass (the game's module) names its game, batch, results and scalar state, lays
    out ``empty`` and ``empty_results``, and runs its kernels in the ``_kernel_*`` hooks;
    the public methods here check their arguments and call them.
    """

    #: the game's name, its size of action space, and its types
    game_name: ClassVar[str]
    num_actions: ClassVar[int]
    batch_type: ClassVar[type[Any]]
    results_type: ClassVar[type[Any]]
    state_type: ClassVar[type[State]]
    #: what a row holds, in the engine's messages: "game" or "match"
    episode: ClassVar[str] = "game"
    #: the copies of each card in the game's whole deck (the most ``stock_counts`` gives)
    card_copies: int = 1

    def __init__(self, max_moves: int | None = None, **options: Any) -> None:
        game = cardtable.new_game(self.game_name, **options)
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(
                max_moves, int) or max_moves < 1):
            raise OptionsError(f"max_moves must be a positive int or None, not {max_moves!r}")
        self.game: Game = game
        self.num_players = game.num_players
        self.max_moves = max_moves or 0
        self.encoder = encoder_for(game)
        self.obs_size = self.encoder.size
        self._configure(game)
        # each array's shape past the rows and its dtype, to check a batch against
        self._layout = tuple((a.shape[1:], a.dtype) for a in self._empty(0))
        self._checked: Any = None

    # -- what a game's module provides ----------------------------------

    def _configure(self, game: Any) -> None:
        """Read the game's options into what the kernels take."""

    def _empty(self, n: int) -> B:
        raise NotImplementedError

    def empty_results(self, n: int) -> R:
        """Results of N rows in which nothing has ended."""
        raise NotImplementedError

    def _load(self, batch: B, i: int, state: Any) -> None:
        raise NotImplementedError

    def _hidden_cards(self, batch: B, i: int) -> tuple[list[list[str]], list[str]]:
        raise NotImplementedError

    def _stock(self, batch: B) -> tuple[np.ndarray, np.ndarray]:
        """The cards of every row's stock (N, slots) and which slots hold one (bool)."""
        raise NotImplementedError

    def _kernel_new(self, batch: B, rows: np.ndarray) -> None:
        """A new episode (the next deal or match) in each of ``rows``."""
        raise NotImplementedError

    def _kernel_step(self, batch: B, actions: np.ndarray, active: np.ndarray,
                     autoreset: bool, res: R) -> int:
        """-1, or the first active row whose action is refused (then nothing is played)."""
        raise NotImplementedError

    def _kernel_play_random(self, batch: B, seat: int, active: np.ndarray, res: R) -> None:
        raise NotImplementedError

    def _kernel_random(self, batch: B, out: np.ndarray) -> None:
        raise NotImplementedError

    def _kernel_mask(self, batch: B, rows: np.ndarray, out: np.ndarray) -> None:
        raise NotImplementedError

    def _kernel_observe(self, batch: B, rows: np.ndarray, seats: np.ndarray,
                        out: np.ndarray) -> None:
        raise NotImplementedError

    # -- making batches --------------------------------------------------

    def empty(self, n: int) -> B:
        """N rows of zeros: fill them with ``init``'s deals or ``load``."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise ValueError(f"n must be a non-negative int, not {n!r}")
        return self._empty(int(n))

    def init(self, seeds: Any) -> B:
        """A fresh episode in each row, from the row's seed (non-negative ints below 2**64).

        Later episodes of a row (after ``step`` resets it) come from the same seed, the
        k-th from (seed, k); the random policy's stream is seeded from it too.
        """
        arr = _seeds(seeds)
        batch = self._empty(len(arr))
        seed_rows(batch.rngs, arr)  # type: ignore[attr-defined]
        self._kernel_new(batch, np.arange(len(arr)))
        return batch

    def reset_rows(self, batch: B, rows: Any) -> None:
        """A new episode in each row of ``rows`` (indices or a boolean mask)."""
        n = self._check_batch(batch)
        if rows is None:
            raise IndexError("rows must be row indices or a boolean mask, not None")
        idx = _rows(rows, n)
        if idx.size:
            self._kernel_new(batch, idx)

    def from_states(self, states: Sequence[State]) -> B:
        """A batch holding scalar states (``game.deal(seed)``, ``setup``, a loaded save), row
        by row; row i's later episodes come from seed i."""
        states = list(states)
        batch = self._empty(len(states))
        seed_rows(batch.rngs, np.arange(len(states), dtype=np.uint64))  # type: ignore[attr-defined]
        for i, state in enumerate(states):
            self.load(batch, i, state)
        return batch

    def load(self, batch: B, i: int, state: State) -> None:
        """Row i becomes the scalar ``state`` (read through its public ``to_dict``); the row's
        generators keep going."""
        i = _index(i, self._check_batch(batch))
        if not isinstance(state, self.state_type) or state.game != self.game:
            what = state.game if isinstance(state, State) else state
            raise OptionsError(f"a state of {what!r} does not fit a batch of {self.game!r}")
        self._load(batch, i, state)

    def hidden_cards(self, batch: B, i: int) -> tuple[list[list[str]], list[str]]:
        """Row i's hands and stock or draw pile (top first) in notation, for tests and
        debugging."""
        return self._hidden_cards(batch, _index(i, self._check_batch(batch)))

    def to_svg(self, batch: B, i: int, seat: int | None = None) -> str:
        """A picture of row i as SVG text (as pgx's ``save_svg``), drawn as a scalar state's
        ``to_svg`` is, from the row's observation tensors: ``seat`` None shows every hand,
        a seat what that seat sees (the other hands face down). What the tensors leave out
        (the auction's order, the discard piles' order) is not drawn."""
        from cardtable import picture
        from cardtable.core import part

        i = _index(i, self._check_batch(batch))
        viewer = picture.check_seat(seat, self.num_players)
        seats = range(self.num_players) if viewer is None else (viewer,)
        parts = {s: self.encoder.split(self.observe(batch, seats=s, rows=[i])[0])
                 for s in seats}
        over = bool(batch.over[i])  # type: ignore[attr-defined]
        to_act = None if over else int(batch.current_player[i])  # type: ignore[attr-defined]
        module = part(self.state_type, "picture")
        svg: str = module.draw(self.game, module.scene_of_tensors(self.game, parts, viewer,
                                                                  to_act))
        return svg

    def stock_counts(self, batch: B) -> np.ndarray:
        """(N, 52) uint8: the copies of each card in each row's stock or draw pile, which no
        seat sees (the perfect-information tensor of ``SelfPlay`` holds it; never show it to
        a player). At most ``card_copies``."""
        self._check_batch(batch)
        cards, valid = self._stock(batch)
        out = np.zeros((len(cards), NUM_CARDS), np.uint8)
        rows, slots = np.nonzero(valid)
        np.add.at(out, (rows, cards[rows, slots]), 1)
        return out

    # -- playing ---------------------------------------------------------

    def step(self, batch: B, actions: Any, active: Any = None, autoreset: bool = True) -> R:
        """Play ``actions[i]`` in every row (only where ``active``, a boolean mask, if given;
        the other rows' actions are not read).

        Refuses the whole call with ``IllegalMoveError`` if one action is illegal, with
        ``InvalidActionError`` (a ``ValueError``) if one is not an action id (the vector
        environment's error and message for it); nothing is played then. An episode that
        ends (or reaches ``max_moves``) reports its result in the returned results and,
        with ``autoreset``, its row holds the next one at once.
        """
        n = self._check_batch(batch)
        acts = check_actions(actions, n)
        on = _active(active, n)
        if n and (acts.min() < 0 or acts.max() >= self.num_actions):
            # an id past the action space is refused before any illegal one, as the
            # vector environment refuses it (an inactive row's is not read)
            outside = np.flatnonzero(on & ((acts < 0) | (acts >= self.num_actions)))
            if outside.size:
                k = int(outside[0])
                raise not_an_action("actions", k, int(acts[k]), self.num_actions)
        res = self.empty_results(n)
        bad = self._kernel_step(batch, acts, on, bool(autoreset), res)
        if bad >= 0:
            a = int(acts[bad])
            over = batch.over[bad]  # type: ignore[attr-defined]
            what = f"the {self.episode} is over" if over else "it is not legal now"
            raise IllegalMoveError(f"row {bad}: action {a} is refused: {what} "
                                   "(nothing was played)")
        return res

    def play_random(self, batch: B, until_seat: int, active: Any = None) -> R:
        """Random moves in each (active) row until ``until_seat`` is to act, the episode
        ends or reaches ``max_moves``; the rows are not reset."""
        n = self._check_batch(batch)
        seat = _seat(until_seat, self.num_players, "until_seat")
        on = _active(active, n)
        res = self.empty_results(n)
        self._kernel_play_random(batch, seat, on, res)
        return res

    def random_actions(self, batch: B, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per row (-1 where the episode is over), drawn
        from the rows' policy stream; ``out``: an int64 array of shape (N,)."""
        n = self._check_batch(batch)
        if out is None:
            out = np.empty(n, np.int64)
        else:
            _check_out(out, (n,), _INT64)
        self._kernel_random(batch, out)
        return out

    def legal_mask(self, batch: B, out: np.ndarray | None = None,
                   rows: Any = None) -> np.ndarray:
        """(N, num_actions) bool, True on the legal action ids of each row's seat to act
        (none once the episode is over); ``rows`` (indices or a boolean mask) for some rows
        only; ``out`` of shape (rows, num_actions) may be bool, int8 or uint8."""
        n = self._check_batch(batch)
        idx = np.arange(n) if rows is None else _rows(rows, n)
        shape = (len(idx), self.num_actions)
        if out is None:
            out = np.empty(shape, np.bool_)
        else:
            _check_out(out, shape, _MASK_DTYPES)
        self._kernel_mask(batch, idx, out.view(np.uint8))
        return out

    def observe(self, batch: B, seats: Any = None, out: np.ndarray | None = None,
                rows: Any = None) -> np.ndarray:
        """(N, obs_size) float32: each row seen by ``seats`` (one seat, or one per row;
        default the seat to act, seat 0 once an episode is over), the tensor of
        ``cardtable.encoders``; ``rows`` (indices or a boolean mask) for some rows
        only; ``out`` a float32 array of shape (rows, obs_size)."""
        n = self._check_batch(batch)
        idx = np.arange(n) if rows is None else _rows(rows, n)
        if seats is None:
            seat_arr = np.maximum(batch.current_player[idx], 0).astype(np.int64)  # type: ignore[attr-defined]
        else:
            seat_arr = _seats(seats, len(idx), self.num_players)
        shape = (len(idx), self.obs_size)
        if out is None:
            out = np.empty(shape, np.float32)
        else:
            _check_out(out, shape, _FLOAT32)
        self._kernel_observe(batch, idx, seat_arr, out)
        return out

    # -- checks ------------------------------------------------------------

    def _check_batch(self, batch: Any) -> int:
        """The rows of ``batch``, once it is known to be this engine's layout (the last
        batch checked is remembered: a loop over one batch pays for the check once)."""
        if batch is self._checked:
            return int(batch[0].shape[0])
        if not isinstance(batch, self.batch_type) or len(batch) != len(self._layout):
            raise ValueError(f"batch must be a {self.batch_type.__name__} of this engine, "
                             f"not {type(batch).__name__}")
        n = None
        for name, arr, (tail, dtype) in zip(batch._fields, batch, self._layout, strict=True):
            if not isinstance(arr, np.ndarray) or arr.dtype != dtype or arr.shape[1:] != tail \
                    or (n is not None and arr.shape[0] != n) or not _writeable(arr):
                raise ValueError(f"batch.{name} must be a C-contiguous, writeable {dtype} "
                                 f"array of shape (N, {', '.join(map(str, tail))}) (this "
                                 f"engine's options), not {_describe(arr)}")
            n = arr.shape[0]
        self._checked = batch
        return int(batch[0].shape[0])


def check_actions(actions: Any, n: int, num_actions: int | None = None,
                  name: str = "actions", unplayed: bool = True) -> np.ndarray:
    """``actions`` (called ``name`` in the errors) as a contiguous int64 array of shape
    (n,); integers only (a float is refused, not truncated: ``InvalidActionError``), and
    with ``num_actions`` every id below it (``InvalidActionError``, the engine's own
    message for an id past the action space; ``unplayed``: it says nothing was played)."""
    arr = np.asarray(actions)
    if arr.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), not {arr.shape}")
    if arr.dtype.kind not in "iu" and arr.size:
        raise InvalidActionError(f"{name} must be integer action ids, not {arr.dtype}")
    acts = np.ascontiguousarray(arr, np.int64)
    # (a uint64 above 2**63 has wrapped below 0)
    if num_actions is not None and acts.size:
        bad = np.flatnonzero((acts < 0) | (acts >= num_actions))
        if bad.size:
            raise not_an_action(name, int(bad[0]), int(acts[bad[0]]), num_actions, unplayed)
    return acts


def not_an_action(name: str, row: int, action: int, num_actions: int,
                  unplayed: bool = True) -> InvalidActionError:
    """The one error for an id past the action space, from the engine and the vector
    environment alike."""
    return InvalidActionError(f"{name}[{row}] is {action}, not an action id "
                              f"(0..{num_actions - 1})"
                              + ("; nothing was played" if unplayed else ""))


def _seeds(seeds: Any) -> np.ndarray:
    arr = np.asarray(seeds)
    if arr.ndim != 1 or arr.dtype.kind not in "iu" or (arr.size and int(arr.min()) < 0):
        raise ValueError("seeds must be a 1-d array of non-negative ints")
    return arr.astype(np.uint64)


def _rows(rows: Any, n: int) -> np.ndarray:
    """Row indices 0..n-1 (one int, a 1-d array) or a boolean mask of shape (n,), as a
    contiguous int64 array."""
    arr = np.asarray(rows)
    if arr.dtype == np.bool_:
        if arr.shape != (n,):
            raise IndexError(f"rows as a boolean mask must have shape ({n},), not {arr.shape}")
        return np.flatnonzero(arr)
    if arr.ndim > 1:
        raise IndexError(f"rows must be one index, a 1-d array of them or a boolean mask, "
                         f"not an array of shape {arr.shape}")
    if not arr.size:
        return np.empty(0, np.int64)
    if arr.dtype.kind not in "iu":
        raise IndexError(f"rows must be integers or booleans, not {arr.dtype}")
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= n:
        raise IndexError(f"rows must be 0..{n - 1} (the batch has {n} rows), not "
                         f"{lo if lo < 0 else hi}")
    return np.ascontiguousarray(arr.reshape(-1), np.int64)


def _index(i: Any, n: int) -> int:
    """One row index 0..n-1."""
    if isinstance(i, bool | np.bool_):
        raise IndexError(f"i must be a row index, not {i!r}")
    try:
        k = operator.index(i)
    except TypeError:
        raise IndexError(f"i must be a row index (an int), not {i!r}") from None
    if not 0 <= k < n:
        raise IndexError(f"row {k} is out of range: the batch has {n} rows")
    return k


def _seat(seat: Any, players: int, name: str) -> int:
    if isinstance(seat, bool | np.bool_) or not isinstance(seat, int | np.integer) or not (
            0 <= seat < players):
        raise ValueError(f"{name} must be a seat 0..{players - 1}, not {seat!r}")
    return int(seat)


def _seats(seats: Any, k: int, players: int) -> np.ndarray:
    """One seat, or one per row: a contiguous int64 array of shape (k,)."""
    arr = np.asarray(seats)
    if arr.dtype.kind not in "iu" and arr.size:
        raise ValueError(f"seats must be integer seats 0..{players - 1}, not {arr.dtype}")
    try:
        out = np.ascontiguousarray(np.broadcast_to(arr, (k,)), np.int64)
    except ValueError:
        raise ValueError(f"seats must be one seat or one per row (shape ({k},)), not an "
                         f"array of shape {arr.shape}") from None
    if k and (out.min() < 0 or out.max() >= players):
        raise ValueError(f"seats must be 0..{players - 1}")
    return out


def _active(active: Any, n: int) -> np.ndarray:
    if active is None:
        return np.ones(n, np.bool_)
    arr = np.asarray(active)
    if arr.shape != (n,) or (arr.dtype.kind not in "biu" and arr.size):
        raise ValueError(f"active must be a boolean mask of shape ({n},), not "
                         f"{arr.dtype} {arr.shape}")
    return np.ascontiguousarray(arr, np.bool_)


def _check_out(out: Any, shape: tuple[int, ...], dtypes: tuple[np.dtype[Any], ...]) -> None:
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype not in dtypes \
            or not _writeable(out):
        kinds = " or ".join(str(d) for d in dtypes)
        raise ValueError(f"out must be a C-contiguous, writeable {kinds} array of shape "
                         f"{shape}, not {_describe(out)}")


def _writeable(arr: np.ndarray) -> bool:
    """What the kernels write into: a C-contiguous array (another layout would compile
    the kernels again) that may be written."""
    flags = arr.flags
    return bool(flags.c_contiguous and flags.writeable)


def _describe(arr: Any) -> str:
    if not isinstance(arr, np.ndarray):
        return type(arr).__name__
    flags = arr.flags
    how = "" if flags.c_contiguous else "non-contiguous "
    how += "" if flags.writeable else "read-only "
    return f"a {how}{arr.dtype} array of shape {arr.shape}"


# -- the engines, by game name ---------------------------------------------


def engine_class(game: str) -> type[VectorEngine[Any, Any]]:
    """The batched engine of ``game``: ``ENGINE`` of ``cardtable.vector.<game>``."""
    module = cardtable.game_adapter(game, "cardtable.vector")  # OptionsError: unknown game
    if module is None or not hasattr(module, "ENGINE"):
        raise OptionsError(f"no batched engine for {game!r} yet; cardtable.vector has "
                           f"{', '.join(game_names())}")
    cls: type[VectorEngine[Any, Any]] = module.ENGINE
    return cls


def game_names() -> list[str]:
    """The games that have a batched engine."""
    return [name for name in cardtable.game_names()
            if getattr(cardtable.game_adapter(name, "cardtable.vector"), "ENGINE", None)]


def make_engine(game: str, max_moves: int | None = None, **options: Any) -> VectorEngine[Any, Any]:
    """The batched engine of ``game`` with its options (and ``max_moves``)."""
    return engine_class(game)(max_moves=max_moves, **options)
