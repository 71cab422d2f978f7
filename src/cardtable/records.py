"""Game records: save a game as JSON, load it back, replay it move by move.

A record holds what it takes to play the very same game again: the game and its
options, where it started (the seed of ``Game.deal`` or, for a ``setup``
position, the whole starting state), who sat in each seat, every action in
notation, and the result. The format is documented in docs/records.md.

Examples:
    >>> import cardtable
    >>> from cardtable import records
    >>> state = cardtable.new_game("sequence").deal(seed=7)
    >>> state.apply(state.legal_actions()[0])
    >>> record = records.record_of(state)
    >>> records.replay(record).to_dict() == state.to_dict()
    True
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cardtable
from cardtable.core import CardtableError, IllegalActionError, OptionsError, State
from cardtable.local import now

FORMAT = "cardtable-record"
VERSION = 1
#: how deep a record file's lists and objects may nest (a record's own go under 10 deep); a
#: deeper file is refused as it is read, before anything recurses into it
MAX_NESTING = 32


class RecordError(CardtableError, ValueError):
    """A record that cannot be read or does not replay, saying what is wrong."""


#: who can sit in a seat; "human" is read as an old name of "person"
SEAT_KINDS = ("person", "bot")
_SEAT_ALIASES = {"human": "person"}


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: ``Seat("person", "Ann")`` or ``Seat("bot", "ismcts", {"seconds": 1})``.

    For a bot, ``name`` is the bot kind that ``cardtable.bots.make`` takes and ``settings``
    its budget; a person's settings are empty. ``"human"`` is read as an old name of
    ``"person"`` (record files write it so, as they always have).
    """

    kind: str
    name: str
    settings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        kind = _SEAT_ALIASES.get(self.kind, self.kind)
        if kind not in SEAT_KINDS:
            raise OptionsError(f"a seat is a 'person' or a 'bot', not {self.kind!r}")
        if kind == "person" and self.settings:
            raise OptionsError(f"{self.name}: a person's seat takes no bot settings")
        object.__setattr__(self, "kind", kind)

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def to_json(self) -> dict[str, str]:
        """The seat as a record file holds it (a person is ``"human"`` there; a bot's
        settings are not kept)."""
        return {"kind": "human" if self.kind == "person" else "bot", "name": self.name}


def default_seats(num_players: int) -> list[Seat]:
    return [Seat("person", f"seat {s}") for s in range(num_players)]


@dataclass(frozen=True)
class GameLog:
    """A game as the moves that make it: the game and its options, where it began (the
    seed of ``Game.deal``, or ``start``: the ``State.to_dict()`` of a first position), and
    every move since as (seat, notation).

    A record is a log plus its seats, result and time; a stored table, a bot's or a hint's
    job and an arena game are a log plus what they add. The log replays: :meth:`replay`,
    :meth:`positions`.
    """

    game: str
    options: dict[str, Any]
    seed: int | None
    start: dict[str, Any] | None = None
    moves: tuple[tuple[int, str], ...] = ()
    #: how the table ended the game before its rules did: ``{"kind": "resign" | "abort",
    #: "seat": s}`` (docs/records.md: Endings), or None
    ending: dict[str, Any] | None = None
    #: the moves taken back, in order: ``{"seat": s, "at": n, "undone": k}``, seat ``s``
    #: took back the ``k`` moves after the first ``n`` of the moves as they then stood
    undos: tuple[dict[str, Any], ...] = ()

    @classmethod
    def of_state(cls, state: State, start: State | None = None) -> GameLog:
        """The log of ``state``'s game so far.

        A game dealt with ``Game.deal`` needs nothing more (it knows its seed); one that
        began at a ``setup`` or loaded position needs ``start``, a copy of that position
        taken before any move, whose history ``state.history`` continues.
        """
        game = state.game
        if start is not None:
            done = len(start.history)
            if start.game != game or [a.id for _, a in state.history[:done]] != [
                    a.id for _, a in start.history]:
                raise RecordError("start is not an earlier position of this game")
            begin: dict[str, Any] | None = start.to_dict()
            seed = None
        elif state.seed is not None:
            begin, seed, done = None, state.seed, 0
        else:
            raise RecordError(
                "this state did not come from Game.deal(seed), so its record needs start=, "
                "a copy of the position the game started from")
        return cls(game.name, dict(game.options), seed, begin,
                   tuple((seat, a.notation) for seat, a in state.history[done:]))

    def then(self, seat: int, move: str) -> GameLog:
        """This log with one more move."""
        return GameLog(self.game, self.options, self.seed, self.start,
                       (*self.moves, (seat, move)))

    def new_game(self) -> cardtable.Game:
        return _new_game(self.game, self.options)

    def start_state(self) -> State:
        """The first position: ``deal(seed)`` or the saved starting state."""
        if self.start is not None:
            try:
                return cardtable.state_from_dict(json.loads(json.dumps(self.start)))
            except CardtableError as exc:
                raise RecordError(f"'start' is not a valid {self.game} position: {exc}") from None
        return self.new_game().deal(seed=self.seed)

    def walk(self) -> Iterator[State]:
        """The one live state, yielded at the start and after each move (copy it to keep
        it); RecordError names the first move that does not replay."""
        state = self.start_state()
        yield state
        total = len(self.moves)
        for number, (seat, notation) in enumerate(self.moves, 1):
            where = f"action {number} of {total} ({notation!r} by seat {seat})"
            if state.current_player != seat:
                actor = ("nobody: the game is over" if state.current_player is None
                         else f"seat {state.current_player}")
                raise RecordError(f"{where}: it is the turn of {actor}")
            # a log holds canonical notation: found among the legal moves it needs no
            # parsing (a long log replays several times faster)
            action = next((a for a in state.legal_actions() if a.notation == notation), None)
            try:
                state.apply(notation if action is None else action)
            except IllegalActionError as exc:
                raise RecordError(f"{where}: {exc}") from None
            yield state

    def replay(self) -> State:
        """The position after every move."""
        for state in self.walk():
            final = state
        return final

    def positions(self) -> Iterator[State]:
        """The start, then the position after each move: independent states, in order."""
        for state in self.walk():
            yield state.clone()


class HoldsLog:
    """What holds a game log (a record, an arena's game) reads its game and options from
    it rather than copying them."""

    log: GameLog

    @property
    def game(self) -> str:
        return self.log.game

    @property
    def options(self) -> dict[str, Any]:
        return self.log.options


@dataclass
class Record(HoldsLog):
    """One game: its log (the game, its start and its moves), its seats, its result (None
    while unfinished) and when it began."""

    log: GameLog
    seats: list[Seat]
    result: dict[str, Any] | None = None
    created: str = field(default_factory=now)

    @property
    def seed(self) -> int | None:
        return self.log.seed

    @property
    def start(self) -> dict[str, Any] | None:
        """``State.to_dict()`` of the first position when the game did not start from a
        seed."""
        return self.log.start

    @property
    def actions(self) -> tuple[tuple[int, str], ...]:
        """(seat, notation) for every action after the start."""
        return self.log.moves

    @property
    def finished(self) -> bool:
        return self.result is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "cardtable": cardtable.__version__,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "start": self.start,
            "seats": [seat.to_json() for seat in self.seats],
            "actions": [[seat, notation] for seat, notation in self.actions],
            "result": self.result,
            "created": self.created,
            "saved": now(),
            **({"ending": dict(self.log.ending)} if self.log.ending else {}),
            **({"undos": [dict(u) for u in self.log.undos]} if self.log.undos else {}),
        }

    @classmethod
    def of_log(cls, log: GameLog, seats: list[Seat], result: dict[str, Any] | None = None,
               created: str | None = None) -> Record:
        """A record of ``log`` with its seats, result and time."""
        return cls(log, list(seats), result, created or now())

    def start_state(self) -> State:
        """The first position: ``deal(seed)`` or the saved starting state."""
        return self.log.start_state()


def result_of(state: State) -> dict[str, Any] | None:
    """The result part of a record: None while the game goes on."""
    if not state.is_terminal:
        return None
    return {"winners": list(state.winners), "scores": list(state.scores)}


#: how a table may end a game before its rules do (docs/records.md: Endings)
ENDINGS = ("resign", "abort")


def log_result(state: State, ending: dict[str, Any] | None = None,
               undos: int = 0) -> dict[str, Any] | None:
    """The result of a game at ``state`` with the table's ``ending`` (None: the rules'
    end) after ``undos`` takebacks: a resignation is won by every seat of the other teams,
    an abort by nobody (``"ended"`` and ``"by"`` say which and who); ``"undos"`` counts
    the takebacks when there were some. None while the game goes on."""
    if ending is None:
        result = result_of(state)
    else:
        seat = ending["seat"]
        game = state.game
        winners = [] if ending["kind"] == "abort" else [
            s for s in range(game.num_players) if game.team_of(s) != game.team_of(seat)]
        result = {"winners": winners, "scores": list(state.scores),
                  "ended": ending["kind"], "by": seat}
    if result is not None and undos:
        result["undos"] = undos
    return result


def record_of(state: State, seats: list[Seat] | None = None, start: State | None = None,
              created: str | None = None) -> Record:
    """The record of ``state``'s game so far.

    A game dealt with ``Game.deal`` needs nothing more (it knows its seed); one that
    began at a ``setup`` or loaded position needs ``start``, a copy of that position
    taken before any move, whose history ``state.history`` continues.
    """
    log = GameLog.of_state(state, start)
    seats = list(seats) if seats is not None else default_seats(state.game.num_players)
    if len(seats) != state.game.num_players:
        raise RecordError(f"{len(seats)} seats given for {state.game.num_players} players")
    return Record.of_log(log, seats, result_of(state), created)


# ---------------------------------------------------------------- replaying


def positions(record: Record) -> Iterator[State]:
    """The start, then the position after each action: independent states, in order.

    RecordError names the first action that does not replay.
    """
    return record.log.positions()


class Positions:
    """A record's positions by number (0: the start), worked out as they are asked for.

    Stepping forward applies one move; any other jump starts again from the nearest
    copy, kept every ``every`` moves as they are first reached. ``positions[i]`` is one
    live state that the next request moves on: copy it (``clone``) to keep it. The record
    is taken as valid (``load`` checks it).
    """

    def __init__(self, record: Record, every: int = 500) -> None:
        self.actions = record.actions
        self.every = every
        self._saved = [record.start_state()]
        self._state = self._saved[0].clone()
        self._index = 0

    def __len__(self) -> int:
        return len(self.actions) + 1

    def __getitem__(self, index: int) -> State:
        if not 0 <= index < len(self):
            raise IndexError(f"position {index} of a record of {len(self.actions)} actions")
        if not self._index <= index <= self._index + self.every:
            k = min(index // self.every, len(self._saved) - 1)
            self._state, self._index = self._saved[k].clone(), k * self.every
        while self._index < index:
            self._state.apply(self.actions[self._index][1])
            self._index += 1
            if self._index == len(self._saved) * self.every:
                self._saved.append(self._state.clone())
        return self._state


def replay(record: Record) -> State:
    """The position after every action of the record, checked against its result."""
    final = record.log.replay()
    if record.log.ending is not None and final.is_terminal:
        raise RecordError("the record's actions end the game, but it says the table "
                          f"ended it ({record.log.ending['kind']})")
    expected = log_result(final, record.log.ending, len(record.log.undos))
    if record.result is not None and expected != record.result:
        if expected is None:
            raise RecordError("the record has a result, but its actions do not end the game")
        raise RecordError(f"the record's result {record.result} is not what its actions give: "
                          f"{expected}")
    if record.result is None and expected is not None:
        raise RecordError("the record's actions end the game, but it has no result")
    return final


def export(record: Record, fmt: str) -> str:
    """The game of ``record`` as text in ``fmt``, one of its declaration's ``exports``
    (Draw Bridge: "pbn"); RecordError naming the formats the game has for any other.

    A game's exporter for format F is ``to_F(state)`` in the module F of its package
    (``cardtable.drawbridge.pbn.to_pbn``), given the record's last position.
    """
    game = _new_game(record.game, record.options)
    if fmt not in game.declaration.exports:
        offered = ", ".join(("json", *game.declaration.exports))
        raise RecordError(f"{game.declaration.title} records are exported as {offered}, "
                          f"not {fmt[:20]!r}")
    package = type(game).__module__.rpartition(".")[0]
    exporter = getattr(importlib.import_module(f"{package}.{fmt}"), f"to_{fmt}")
    text: str = exporter(replay(record))
    return text


# ---------------------------------------------------------------- files


def save(record: Record, path: str | Path) -> Path:
    """Write ``record`` as JSON (directories made as needed); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record.to_json(), indent=1)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(path)  # a game saved after every move is never left half written
    return path


def load(path: str | Path, check: bool = True) -> Record:
    """Read a record; RecordError (naming the file and the problem) if it is not a good one.

    With ``check`` the actions are replayed, so a record that loads also replays.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read it: {exc}") from None
    try:
        data = loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not a JSON file: {exc}") from None
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    try:
        record = from_json(data)
        if check:
            replay(record)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    return record


def loads(text: str) -> Any:
    """The JSON value of a record file: json.JSONDecodeError when it is not JSON,
    RecordError when its lists and objects nest deeper than ``MAX_NESTING``."""
    too_deep = RecordError(f"the file's lists and objects nest more than {MAX_NESTING} "
                           "deep, which no record does")
    try:
        data = json.loads(text)
    except RecursionError:   # Python's reader recurses: thousands deep it gives up
        raise too_deep from None
    todo = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise too_deep
            todo.extend((item, depth + 1)
                        for item in (value.values() if isinstance(value, dict) else value))
    return data


def from_json(data: Any) -> Record:
    """The Record that ``Record.to_json`` wrote; RecordError naming the first bad field."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a cardtable game record ('format' is not {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise RecordError(f"record version {version!r} is not supported; this cardtable "
                          f"reads version {VERSION}")
    missing = [key for key in ("game", "options", "seed", "seats", "actions") if key not in data]
    if missing:
        raise RecordError(f"the record lacks {', '.join(map(repr, missing))}")
    options = data["options"]
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object of game options")
    game = _new_game(data["game"], options)
    seed = data["seed"]
    start = data.get("start")
    if seed is None:
        if not isinstance(start, dict):
            raise RecordError("a record without a 'seed' needs 'start', the starting position")
        if start.get("game") != game.name or start.get("options") != game.options:
            raise RecordError("'start' is a position of another game or other options")
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"'seed' must be an integer or null, not {seed!r}")
    elif start is not None:
        raise RecordError("a record has either a 'seed' or a 'start', not both")
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("'result' must be an object or null")
    created = data.get("created", "")
    if not isinstance(created, str):
        raise RecordError("'created' must be a timestamp string")
    log = GameLog(game.name, dict(game.options), seed, start,
                  tuple(_actions(data["actions"], game.num_players)),
                  _ending(data.get("ending"), game.num_players),
                  tuple(_undos(data.get("undos", []), game.num_players)))
    return Record(log, _seats(data["seats"], game.num_players), result, created)


def _seat_number(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _ending(value: Any, n: int) -> dict[str, Any] | None:
    if value is None:
        return None
    if (not isinstance(value, dict) or value.get("kind") not in ENDINGS
            or not _seat_number(value.get("seat"), n) or len(value) != 2):
        raise RecordError(f"'ending' must be {{\"kind\": \"resign\" or \"abort\", "
                          f"\"seat\": 0..{n - 1}}}, not {value!r}")
    return {"kind": value["kind"], "seat": value["seat"]}


def _undos(value: Any, n: int) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise RecordError("'undos' must be a list of {\"seat\", \"at\", \"undone\"}")
    undos = []
    for number, item in enumerate(value, 1):
        if (not isinstance(item, dict) or set(item) != {"seat", "at", "undone"}
                or not _seat_number(item["seat"], n)
                or not all(isinstance(item[k], int) and not isinstance(item[k], bool)
                           and item[k] >= (k == "undone") for k in ("at", "undone"))):
            raise RecordError(f"undo {number} must be {{\"seat\": 0..{n - 1}, \"at\": "
                              f"moves before it, \"undone\": moves taken back}}, not {item!r}")
        undos.append({"seat": item["seat"], "at": item["at"], "undone": item["undone"]})
    return undos


def _new_game(name: Any, options: dict[str, Any]) -> cardtable.Game:
    if not all(isinstance(key, str) for key in options):
        raise RecordError("'options' must be an object of game options by name")
    try:
        return cardtable.new_game(name, **options)
    except OptionsError as exc:
        raise RecordError(f"game: {exc}") from None


def _seats(value: Any, n: int) -> list[Seat]:
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f"'seats' must list the {n} seats of the game")
    seats = []
    for number, item in enumerate(value):
        if (not isinstance(item, dict) or item.get("kind") not in ("human", "bot")
                or not isinstance(item.get("name"), str)):
            raise RecordError(f"seats[{number}] must be {{\"kind\": \"human\" or \"bot\", "
                              f"\"name\": text}}, not {item!r}")
        seats.append(Seat(item["kind"], item["name"]))
    return seats


def _actions(value: Any, n: int) -> list[tuple[int, str]]:
    if not isinstance(value, list):
        raise RecordError("'actions' must be a list of [seat, notation]")
    actions = []
    for number, item in enumerate(value, 1):
        if (not isinstance(item, list) or len(item) != 2 or isinstance(item[0], bool)
                or not isinstance(item[0], int) or not 0 <= item[0] < n
                or not isinstance(item[1], str)):
            raise RecordError(f"action {number} must be [seat 0..{n - 1}, notation], "
                              f"not {item!r}")
        actions.append((item[0], item[1]))
    return actions
