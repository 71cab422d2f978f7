"""The game abstraction every game plugs into: errors, Action, Game and State.

A game module subclasses :class:`Game` and :class:`State` and fills in the
``_``-prefixed hooks; everything public (``apply`` with its three input forms,
``after``, ``clone``, ``returns``, ``to_dict`` ...) is written once here.
"""

from __future__ import annotations

import importlib
import operator
import random
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, SupportsIndex, TypeVar

from cardtable.cards import NUM_CARDS, card_name, parse_card

# ---------------------------------------------------------------- errors


class CardtableError(Exception):
    """Base of every error cardtable raises on purpose."""


class IllegalActionError(CardtableError, ValueError):
    """An action that is not legal now, or notation that does not parse.

    Raised as one of its two kinds: :class:`InvalidActionError` (it names no action of the
    game) or :class:`IllegalMoveError` (a real action, not legal in this position).
    """


class InvalidActionError(IllegalActionError):
    """Notation that does not parse, an id out of range, an object that is no action."""


class IllegalMoveError(IllegalActionError):
    """An action of the game that is not legal now (or the game is over)."""


class OptionsError(CardtableError, ValueError):
    """A bad game name, option or player count."""


class PositionError(CardtableError, ValueError):
    """An inconsistent ``setup`` position or ``state_from_dict`` input."""


class NotYourTurnError(CardtableError, ValueError):
    """A move (or a hint) asked for by a seat that is not the seat to act (cardtable.table)."""


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Action:
    """One move in a game's fixed action space.

    ``id`` is stable across states (for RL masks); ``str(action)`` is its notation.
    """

    id: int
    notation: str

    def __str__(self) -> str:
        return self.notation


# ---------------------------------------------------------------- randomness


def new_rng(seed: int | None) -> random.Random:
    """The state's own generator: seeded, or from fresh OS randomness when ``seed`` is None."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionsError(f"seed must be an integer or None, not {seed!r}")
    return random.Random(seed)


def copy_rng(rng: random.Random) -> random.Random:
    new = random.Random()
    new.setstate(rng.getstate())
    return new


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Any) -> random.Random:
    """The generator ``rng_to_json`` saved: [3, 625 words (624 of 32 bits and a position
    0..624), null or a float]; PositionError for anything else."""
    bad = "'rng' is not a saved random generator state"
    if not isinstance(data, list | tuple) or len(data) != 3:
        raise PositionError(f"{bad}: it must be [version, words, gauss]")
    version, internal, gauss = data
    if version != 3 or isinstance(version, bool):
        raise PositionError(f"{bad}: version {version!r} is not 3")
    if (not isinstance(internal, list | tuple) or len(internal) != 625
            or any(isinstance(w, bool) or not isinstance(w, int) for w in internal)
            or not all(0 <= w < 1 << 32 for w in internal[:624]) or not 0 <= internal[624] <= 624):
        raise PositionError(f"{bad}: it must hold 624 words of 32 bits and a position 0..624")
    if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, int | float)):
        raise PositionError(f"{bad}: its gauss entry must be null or a number")
    rng = random.Random()
    rng.setstate((3, tuple(internal), None if gauss is None else float(gauss)))
    return rng


# ---------------------------------------------------------------- options


def take_options(
    game: str, given: dict[str, Any], defaults: dict[str, Any]
) -> dict[str, Any]:
    """``defaults`` updated with ``given``, refusing option names the game does not have."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise OptionsError(
            f"{game} has no option {', '.join(map(repr, unknown))}; "
            f"its options are {', '.join(sorted(defaults))}"
        )
    return {**defaults, **given}


def check_int(name: str, value: Any, *, minimum: int | None = None,
              maximum: int | None = None,
              allowed: Iterable[int] | None = None, none_ok: bool = False) -> int | None:
    """An integer option, checked; a bool is not an integer here."""
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        kind = "an integer or None" if none_ok else "an integer"
        raise OptionsError(f"option {name} must be {kind}, not {value!r}")
    if allowed is not None:
        allowed = list(allowed)
        if value not in allowed:
            raise OptionsError(
                f"option {name}={value} is not allowed; choose one of "
                f"{', '.join(map(str, allowed))}"
            )
    if minimum is not None and value < minimum:
        raise OptionsError(f"option {name}={value} is too small; it must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise OptionsError(f"option {name}={value} is too large; it must be at most {maximum}")
    return value


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OptionsError(f"option {name} must be true or false, not {value!r}")
    return value


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> Any:
    """``value`` if it is one of ``choices`` (never a bool standing for 1 or 0), else an
    OptionsError naming the option and the choices."""
    if value not in choices or isinstance(value, bool):
        raise OptionsError(
            f"option {name}={value!r} is not allowed; choose one of "
            f"{', '.join(map(repr, choices))}"
        )
    return value


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game (everything but ``players``), as UIs and servers list it."""

    name: str
    #: the default; None means "derived from the other options" (Sequence teams, ...)
    default: Any
    #: "int" | "bool" | "choice"
    kind: str
    #: the allowed values of a "choice"
    choices: tuple[Any, ...] = ()
    #: bounds of an "int" (a game may narrow them further from the other options)
    minimum: int | None = None
    maximum: int | None = None
    #: whether None is accepted
    none_ok: bool = False
    #: one English sentence for UIs
    help: str = ""

    def check(self, value: Any) -> Any:
        """``value`` if it fits this spec, else an OptionsError naming the option."""
        if value is None and self.none_ok:
            return None
        if self.kind == "int":
            return check_int(self.name, value, minimum=self.minimum, maximum=self.maximum)
        if self.kind == "bool":
            return check_bool(self.name, value)
        if self.kind == "choice":
            return check_choice(self.name, value, self.choices)
        raise AssertionError(f"unknown option kind {self.kind!r}")


@dataclass(frozen=True)
class Declaration:
    """A game declared once, at the top of its module: name, title, seats, options and
    export formats."""

    #: the name ``new_game`` takes, e.g. "sequence"
    name: str
    #: the name shown to people, e.g. "Sequence"
    title: str
    #: the allowed player counts
    players: tuple[int, ...]
    default_players: int
    #: every option except ``players``, in the order of ``game.options``
    options: tuple[OptionSpec, ...]
    #: the phases a move can be made in, in the order they come (``MoveEvent.phase``)
    phases: tuple[str, ...] = ("play",)
    #: the board's cells row by row, as card notation ("XX" a corner): Sequence's layout
    board: tuple[tuple[str, ...], ...] | None = None
    #: the record formats the game exports besides JSON (``records.export``), e.g. ("pbn",)
    exports: tuple[str, ...] = ()
    #: how the game plays, in one line (the lobby's; the page translates it)
    blurb: str = ""
    #: the game's package has a ``review`` module: a finished game's losses against
    #: perfect play (``review(positions)``, ``deals(final)``; Draw Bridge's)
    review: bool = False
    #: options the web page's tables start with where the engine's default would make a
    #: poor table (a documented house rule), as (option, value) pairs: Draw Bridge's
    #: ``undertricks``; the engine's defaults stay the source's rules
    house_rules: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str) -> OptionSpec:
        """The spec of option ``name`` (KeyError if the game has none)."""
        for spec in self.options:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @property
    def defaults(self) -> dict[str, Any]:
        """Every option with its default, ``players`` first."""
        return {"players": self.default_players,
                **{spec.name: spec.default for spec in self.options}}

    def read_options(self, given: dict[str, Any], *,
                     unchecked: Iterable[str] = ()) -> dict[str, Any]:
        """``given`` checked against the specs, defaults filled in, ``players`` first.

        Options named in ``unchecked`` are passed through (default filled in) for the
        game to check itself, when what is allowed depends on the other options.
        """
        opts = take_options(self.name, given, self.defaults)
        check_int("players", opts["players"], allowed=self.players)
        skip = set(unchecked)
        for spec in self.options:
            if spec.name not in skip:
                opts[spec.name] = spec.check(opts[spec.name])
        return opts


# ---------------------------------------------------------------- positions


def position_cards(what: str, cards: Any) -> list[int]:
    """A list of card notations from a ``setup`` position, or a PositionError naming ``what``."""
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise PositionError(f"{what} must be a list of cards such as ['AS', 'TD'], not {cards!r}")
    out = []
    for item in cards:
        if not isinstance(item, str):
            raise PositionError(f"{what}: {item!r} is not a card; cards are strings such as 'AS'")
        try:
            out.append(parse_card(item))
        except ValueError as exc:
            raise PositionError(f"{what}: {exc}") from None
    return out


def position_seat_lists(what: str, value: Any, n: int) -> list[list[int]] | None:
    """One card list per seat from a ``setup`` position (None when it is not given)."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != n:
        raise PositionError(f"{what} must be a list of {n} card lists, one per seat")
    return [position_cards(f"{what}[{seat}]", cards) for seat, cards in enumerate(value)]


def position_seat(what: str, value: Any, num_players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < num_players:
        raise PositionError(f"{what} must be a seat from 0 to {num_players - 1}, not {value!r}")
    return value


def check_seat(seat: Any, num_players: int) -> int:
    """A seat argument of ``view`` or ``resample``: 0..n-1 (OptionsError otherwise)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise OptionsError(
            f"seat must be 0..{num_players - 1} (None for a spectator's view), not {seat!r}")
    return seat


def check_card_supply(used: Iterable[int], decks: int) -> None:
    """PositionError if any card is used more often than ``decks`` decks hold it."""
    counts = Counter(used)
    over = sorted(c for c, n in counts.items() if n > decks)
    if over:
        c = over[0]
        held = "once" if decks == 1 else f"{decks} times"
        raise PositionError(
            f"{card_name(c)} appears {counts[c]} times, but the deck holds it only {held}"
        )


def missing_cards(used: Iterable[int], decks: int) -> list[int]:
    """The cards of ``decks`` decks that ``used`` does not account for, in order."""
    counts = Counter(used)
    return [c for c in range(NUM_CARDS) for _ in range(decks - counts.get(c, 0))]


def unknown_keys(game: str, position: dict[str, Any], keys: Iterable[str]) -> None:
    extra = sorted(set(position) - set(keys))
    if extra:
        raise PositionError(
            f"{game} positions have no key {', '.join(map(repr, extra))}; "
            f"the keys are {', '.join(sorted(keys))}"
        )


# ---------------------------------------------------------------- move events


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """What one accepted move did, as the game tells it (``state.last_event``).

    ``public`` is what every seat and spectator learns: the move's facts in the game's
    words (the card played and where, a trick and its winner, a contract, a sequence, the
    hands of a finished round ...), JSON-able, card notation as in views. ``private`` holds,
    per seat, the cards that came into that seat's hand with the move: ``{"drawn": [...]}``
    (on top of what it held) or ``{"dealt": [...]}`` (its whole new hand, when a new deal
    or round replaced the old one); a seat that received nothing is absent. The key
    ``"card"`` of ``public``, when present, is the card that left the mover's hand.
    """

    #: the seat that moved
    seat: int
    #: the move in notation
    move: str
    #: the phase the move was made in (one of the declaration's ``phases``)
    phase: str
    public: dict[str, Any]
    private: dict[int, dict[str, list[str]]]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may know it (None: a spectator), as JSON-able data:
        ``seat``, ``move``, ``phase``, ``public`` and that seat's own ``drawn`` or
        ``dealt`` cards."""
        out: dict[str, Any] = {"seat": self.seat, "move": self.move, "phase": self.phase,
                               "public": self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out


# ---------------------------------------------------------------- observations


class Observation:
    """What one seat may know of a state, typed and read-only (``state.observation(seat)``).

    Each game defines a frozen dataclass on this base: card ids and small tuples, cheap
    to build (nothing in it grows with the length of the game). ``view()``, the RL
    encoders and the UIs build on it; nothing outside a game's module reads its private
    state.
    """

    __slots__ = ()


# ---------------------------------------------------------------- games and states

S = TypeVar("S", bound="State")


def action_id(value: Any, size: int) -> int:
    """An action id in 0..size-1 from an int or an integer-like value (``numpy.int64``);
    IllegalActionError for anything else, a bool and a float included."""
    if type(value) is not int:
        try:
            if isinstance(value, bool):
                raise TypeError
            value = operator.index(value)  # numpy.bool is refused here too
        except TypeError:
            raise InvalidActionError(
                f"{value!r} is not an action: give an Action, its notation or its id"
            ) from None
    if not 0 <= value < size:
        raise InvalidActionError(f"action id {value} is out of range 0..{size - 1}")
    return value


_parts: dict[tuple[type, str], ModuleType] = {}


def part(cls: type, name: str) -> ModuleType:
    """The module ``name`` of the game package that defines ``cls``: a game's state class
    in ``cardtable.sequence.game`` has its view in ``cardtable.sequence.view``, its
    determinization in ``.deduce`` and its positions in ``.positions``. Those modules
    import the game's ``game.py``; it imports none of them, and finds them here when first
    asked."""
    found = _parts.get((cls, name))
    if found is not None:
        return found
    for klass in cls.__mro__:
        if klass.__module__ in (__name__, "builtins"):
            continue
        path = f"{klass.__module__.rpartition('.')[0]}.{name}"
        try:
            found = _parts[cls, name] = importlib.import_module(path)
            return found
        except ModuleNotFoundError as exc:
            if exc.name != path:
                raise
    raise NotImplementedError(f"{cls.__name__}: no {name} module in its game's package")


class Game:
    """A game with its options fixed: a factory of states and the owner of the action table."""

    name: ClassVar[str]
    #: the game's declaration (title, player counts, option specs)
    declaration: ClassVar[Declaration]
    state_class: ClassVar[type[State]]

    options: dict[str, Any]
    num_players: int
    #: every action of the game, indexed by id
    actions: tuple[Action, ...]
    #: how many 52-card decks the game uses
    decks: int

    @property
    def num_distinct_actions(self) -> int:
        return len(self.actions)

    @property
    def num_teams(self) -> int:
        """How many teams play; each seat is its own team unless the game says otherwise."""
        return self.num_players

    def team_of(self, seat: int) -> int:
        """The team ``seat`` plays for, 0..num_teams-1."""
        return seat

    def keeps_turn(self, move: str) -> bool:
        """Whether the move (notation) is the first part of its seat's turn, whose next
        move is the same turn's (Three Thirteen's draw or take before the discard,
        Sequence's dead-card exchange before the card played): a takeback
        (``Table.undo``) goes back to the start of a whole turn. None here."""
        return False

    def describe(self) -> dict[str, Any]:
        """What a front end needs to draw this game, as JSON-able data: the declaration's
        facts (name, title, blurb, phases, board, export formats, whether it has a
        review, the web page's house rules), these options, each seat's team and the
        game's own facts (Draw Bridge: the call grid; Sequence: what each jack does; Three
        Thirteen: the rounds and the wild rank of each)."""
        d = self.declaration
        return {
            "name": d.name,
            "title": d.title,
            "options": dict(self.options),
            "num_players": self.num_players,
            "num_teams": self.num_teams,
            "teams": [self.team_of(s) for s in range(self.num_players)],
            "phases": list(d.phases),
            "board": None if d.board is None else [list(row) for row in d.board],
            "exports": list(d.exports),
            "blurb": d.blurb,
            "review": d.review,
            "house_rules": dict(d.house_rules),
            **self._facts(),
        }

    def _facts(self) -> dict[str, Any]:
        """Facts of this game that ``describe`` adds, for front ends (none by default)."""
        return {}

    def deal(self, seed: int | None = None) -> State:
        """A whole match or game from its first deal; ``seed=None`` picks a fresh seed.

        The seed used is kept as ``state.seed``, so that a record can replay the game.
        """
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        state = self._deal(new_rng(seed))
        state.seed = seed
        return state

    def _deal(self, rng: random.Random) -> State:
        """The first position of a match, all chance drawn from ``rng``."""
        raise NotImplementedError

    def setup(self, **position: Any) -> State:
        """A chosen position (see API.md, Positions): the game's ``positions.setup``."""
        state: State = part(type(self), "positions").setup(self, position)
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"cardtable.new_game({self.name!r}, {opts})"

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """A game pickles as its name and options (its tables and caches are rebuilt)."""
        return _game_from_pickle, (self.name, dict(self.options))


def _game_from_pickle(name: str, options: dict[str, Any]) -> Game:
    import cardtable  # the registry imports the game modules, which import this one

    return cardtable.new_game(name, **options)


class State:
    """A position of a game, mutated in place by ``apply``.

    Subclasses implement the hooks below; ``legal_actions`` and ``apply`` cache
    the legal list for the position, so the random-playout loop
    ``s.apply(rng.choice(s.legal_actions()))`` computes it once per step.
    """

    game: Game
    history: list[tuple[int, Action]]
    #: the seed ``Game.deal`` started from; None for a ``setup`` position
    seed: int | None
    _rng: random.Random
    _legal: list[Action] | None
    _legal_ids: list[int] | None
    #: the game's note of what the last move did (``_apply``'s return), for ``last_event``
    _news: Any

    def _init_base(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.seed = None
        self.history = []
        self._rng = rng
        self._legal = None
        self._legal_ids = None
        self._news = None

    # -- hooks a game fills in -----------------------------------------

    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @property
    def scores(self) -> list[int]:
        raise NotImplementedError

    @property
    def winners(self) -> list[int]:
        raise NotImplementedError

    def _legal_action_ids(self) -> list[int]:
        """Ids of the legal actions, each once, in a fixed order."""
        raise NotImplementedError

    def _apply(self, action: Action) -> Any:
        """Carry out a legal action, with any automatic chance that follows it; return a
        small note (never None) of what happened that the state after the move cannot tell,
        for :meth:`_event` (a drawn card, a removed chip's team ...)."""
        raise NotImplementedError

    def _event(self, seat: int, action: Action, news: Any) -> MoveEvent:
        """The event of ``seat``'s ``action``, just applied; ``news`` is what ``_apply``
        returned. Called right after the move, so it may read the state after it."""
        raise NotImplementedError

    def _parse(self, text: str) -> int:
        """The action id for notation, read in this position's phase; IllegalActionError if none."""
        raise NotImplementedError

    def _why_illegal(self, action: Action) -> str:
        """A player's explanation of why ``action`` is not legal now."""
        return f"{action} is not a legal move now"

    def _clone_into(self, new: State) -> None:
        """Give ``new`` (a shallow copy of self) its own copies of every mutable field."""
        raise NotImplementedError

    # what a seat sees (the game's view.py), can deduce (deduce.py), and how a position is
    # written (positions.py): found by the package convention (:func:`part`), so that a
    # game's game.py imports none of the modules that import it

    def _to_dict(self) -> dict[str, Any]:
        saved: dict[str, Any] = part(type(self), "positions").save(self)
        return saved

    @classmethod
    def _from_dict(cls: type[S], game: Game, data: dict[str, Any]) -> S:
        loaded: S = part(cls, "positions").load(game, data)
        return loaded

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know now (None: a spectator), as the game's typed observation
        (its ``view.observe``)."""
        observed: Observation = part(type(self), "view").observe(self, seat)
        return observed

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The view without its history: the game's ``view.seat_view``."""
        built: dict[str, Any] = part(type(self), "view").seat_view(self, seat)
        return built

    def _shared_view(self, seat: int | None, shared: dict[str, Any]) -> dict[str, Any]:
        """``_view(seat)``, whose lists may be those of the other seats' views of this
        position: ``shared`` is a dict kept for one position (empty at first) where a game
        keeps what every seat sees alike (the game's ``view.shared_seat_view``, where it has
        one). A table makes every seat's view after each move (cardtable.table.Table.view);
        its views are read, never changed."""
        shared_view = getattr(part(type(self), "view"), "shared_seat_view", None)
        if shared_view is None:
            return self._view(seat)
        built: dict[str, Any] = shared_view(self, seat, shared)
        return built

    def resample(self, seat: int, rng: random.Random) -> State:
        """A copy in which every card ``seat`` cannot see is dealt afresh with ``rng``,
        consistent with what the seat knows: a determinization for search (the game's
        ``deduce.resample``)."""
        drawn: State = part(type(self), "deduce").resample(self, seat, rng)
        return drawn

    def _all_cards(self) -> list[int]:
        """Every card of the game wherever it lies, for invariant checks."""
        raise NotImplementedError

    # -- the public surface, shared --------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions now; empty only when the game is over."""
        legal = self._legal
        if legal is None:
            ids = self._legal_ids = [] if self.is_terminal else self._legal_action_ids()
            table = self.game.actions
            legal = self._legal = [table[i] for i in ids]
        return list(legal)

    def parse_action(self, text: str) -> Action:
        """The action that ``text`` names in this position (legality is ``apply``'s job)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not move notation")
        try:
            return self.game.actions[self._parse(text)]
        except InvalidActionError:
            raise
        except IllegalActionError as exc:
            raise InvalidActionError(str(exc)) from None

    def apply(self, action: Action | str | SupportsIndex) -> None:
        """Play ``action``: an Action, its notation or its id; refused ones change nothing.

        An id is anything ``operator.index`` takes (an int, ``numpy.int64`` ...), but not a
        bool.
        """
        table = self.game.actions
        if type(action) is Action:
            a = action
            if not (0 <= a.id < len(table) and table[a.id].notation == a.notation):
                raise InvalidActionError(f"{a!r} is not an action of {self.game.name}")
        elif type(action) is int and 0 <= action < len(table):
            a = table[action]
        elif isinstance(action, str):
            a = self.parse_action(action)
        else:
            a = table[action_id(action, len(table))]
        seat = self.current_player
        if seat is None:
            raise IllegalMoveError(f"{a}: the game is over")
        ids = self._legal_ids
        if ids is None:
            self.legal_actions()
            ids = self._legal_ids
            assert ids is not None
        if a.id not in ids:
            raise IllegalMoveError(self._why_illegal(a))
        self._legal = self._legal_ids = None
        self.history.append((seat, table[a.id]))
        self._news = self._apply(table[a.id])

    @property
    def last_event(self) -> MoveEvent | None:
        """What the last move applied to this state did (see :class:`MoveEvent`); None
        before the first move, and in a state made by ``state_from_dict`` or ``resample``
        until it moves again."""
        news = self._news
        if news is None or not self.history:
            return None
        seat, action = self.history[-1]
        return self._event(seat, action, news)

    def clone(self: S) -> S:
        """An independent deep copy."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new._rng = copy_rng(self._rng)
        if self._legal is not None:
            new._legal = list(self._legal)
        self._clone_into(new)
        return new

    def after(self: S, action: Action | str | SupportsIndex) -> S:
        """A new state with ``action`` played; this one is untouched."""
        new = self.clone()
        new.apply(action)
        return new

    def legal_notations(self, seat: int | None) -> list[str]:
        """The view's ``legal``: the notation of every legal move when ``seat`` is to act,
        else none (a spectator's, and a seat's that waits)."""
        if seat is None or seat != self.current_player:
            return []
        return [a.notation for a in self.legal_actions()]

    def view(self, seat: int | None, history: bool = True) -> dict[str, Any]:
        """What ``seat`` may know as JSON-able data (None: a spectator).

        ``history`` (last key) lists every action since ``deal()``/``setup()`` as
        ``[seat, notation]``; ``history=False`` leaves it out, and the view then costs the
        same however long the game has run.
        """
        out = self._view(seat)
        if history:
            out["history"] = [[s, a.notation] for s, a in self.history]
        return out

    def to_svg(self, seat: int | None = None) -> str:
        """A picture of the state as SVG text, drawn with the web page's card art
        (``cardtable.picture``; the game's ``picture`` module lays it out from its views).
        ``seat`` None shows every card face up; a seat shows what that seat sees, what it
        may not know face down. Raises ``ValueError`` for another ``seat``."""
        from cardtable import picture

        viewer = picture.check_seat(seat, self.game.num_players)
        module = part(type(self), "picture")
        svg: str = module.draw(self.game, module.scene_of_state(self, viewer))
        return svg

    def save_svg(self, path: Any, seat: int | None = None) -> None:
        """Write ``to_svg(seat)`` to ``path`` (as pgx's ``save_svg``)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_svg(seat))

    def _repr_svg_(self) -> str:
        """A notebook shows the state as a picture (every card face up)."""
        return self.to_svg()

    def _repr_html_(self) -> str:
        from cardtable import picture

        return picture.html(self.to_svg())

    def returns(self) -> list[float]:
        """+1 per winner and -1 per other seat at the end; all 0 for a draw or before the end."""
        n = self.game.num_players
        if not self.is_terminal:
            return [0.0] * n
        won = self.winners
        if not won:
            return [0.0] * n
        return [1.0 if s in won else -1.0 for s in range(n)]

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data, hidden cards and generator included."""
        return {
            "game": self.game.name,
            "options": dict(self.game.options),
            **self._to_dict(),
            "history": [[seat, a.notation, a.id] for seat, a in self.history],
            "seed": self.seed,
            "rng": rng_to_json(self._rng),
        }

    def __getstate__(self) -> dict[str, Any]:
        """What pickles: every field but the caches (rebuilt on demand), the history as
        two bytes per seat and per action id."""
        fields = self.__dict__.copy()
        fields["_legal"] = fields["_legal_ids"] = fields["_news"] = None
        fields["history"] = array("H", [x for seat, a in self.history for x in (seat, a.id)])
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        packed = fields["history"]
        table = fields["game"].actions
        fields["history"] = [(packed[i], table[packed[i + 1]]) for i in range(0, len(packed), 2)]
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        """Public facts only: no card of the state shows (logs must not leak hands)."""
        turn = "over" if self.is_terminal else f"seat {self.current_player} to act"
        return f"<{type(self).__name__} {self.game.name}, {turn}, {len(self.history)} actions>"


def restore_base(state: State, game: Game, data: dict[str, Any]) -> None:
    """Set the shared fields of a state read by ``state_from_dict``."""
    state._init_base(game, rng_from_json(data.get("rng")))
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise PositionError(f"'seed' must be an integer or null, not {seed!r}")
    state.seed = seed
    history = data.get("history", [])
    if not isinstance(history, list):
        raise PositionError("history must be a list of [seat, notation, id]")
    n = game.num_players
    for item in history:
        if (not isinstance(item, list | tuple) or len(item) != 3
                or isinstance(item[0], bool) or not isinstance(item[0], int)
                or not 0 <= item[0] < n or isinstance(item[2], bool)
                or not isinstance(item[2], int) or not 0 <= item[2] < len(game.actions)):
            raise PositionError(f"history: {item!r} is not [seat 0..{n - 1}, notation, id]")
        seat, notation, aid = item
        action = game.actions[aid]
        if action.notation != notation:
            raise PositionError(f"history: action id {aid} is {action}, not {notation!r}")
        state.history.append((seat, action))
