"""Every refusal of a bad save or record, named by a row of one table.

Each row spoils a good save or record and loads it through the public API
(``cardtable.state_from_dict``, ``Game.setup``, ``records.load``, ``records.record_of``),
asserting the message of its own refusal. ``test_every_refusal_has_a_row`` finds every
``raise PositionError(...)`` / ``raise RecordError(...)`` in the package's source and fails
when one of them is raised by no row: a refusal added without a row, or a row that no
longer reaches the refusal it was written for. Sites are found in the source and in the
tracebacks of the refusals, never by line number, so moving code does not break the test.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
from click.testing import CliRunner

import cardtable
from cardtable import CardtableError, PositionError, records
from cardtable.cards import CARD_NAMES
from cardtable.cli import main
from cardtable.drawbridge import solver
from cardtable.web import record_of_file
from cardtable.web.replay import MAX_ACTIONS, replay_json, review_json
from tests.test_loading import play_to, put

PACKAGE = Path(cardtable.__file__).resolve().parent

# ---------------------------------------------------------------- good saves to spoil


@cache
def saved_at(name: str, moves: int, seed: int = 3) -> dict[str, Any]:
    state = play_to(cardtable.new_game(name), seed, moves)
    return json.loads(json.dumps(state.to_dict()))


#: the moments a row needs: a predicate on the save, the game's options (and the first
#: seed to try, when the first with such a moment is far)
MOMENTS: dict[str, tuple[Callable[[dict[str, Any]], bool], dict[str, Any]]
              | tuple[Callable[[dict[str, Any]], bool], dict[str, Any], int]] = {
    # Three Thirteen: someone went out (2 or 3 players), the stock was remade, round 3
    # began, the match ended with someone out
    "threethirteen out": (lambda d: d["went_out"] is not None and d["turns_left"], {}),
    "threethirteen out3": (lambda d: d["went_out"] is not None and d["turns_left"] == 2,
                           {"players": 3}),
    "threethirteen reshuffled": (
        lambda d: d["reshuffled"] and d["drawn"][0] and not d["went_out"], {}),
    "threethirteen round3": (lambda d: d["round"] == 3 and d["went_out"] is None
                             and min(d["last_round"]["scores"]) > 0, {}),
    "threethirteen over": (lambda d: d["over"] and d["went_out"] is not None, {}),
    # Draw Bridge: two deals finished, in the draw phase of the third; a passed-out deal
    # just before
    "drawbridge records": (lambda d: len(d["records"]) == 2 and len(d["deal"]["actions"]) == 3,
                           {"target": 10_000, "undertricks": True}),
    "drawbridge passed": (lambda d: d["records"] and d["records"][-1]["contract"] is None
                          and d["deal"]["previous_trick"], {"target": 10_000}, 18),
    # Sequence: a team won
    "sequence won": (lambda d: d["over"] and d["winning_team"] is not None, {}),
}


@cache
def saved_when(where: str) -> dict[str, Any]:
    """The first save of a random game (seeds from 11 up) at the moment ``where`` (those
    ending in " over" are looked for at the end of the game only)."""
    test, options, *first = MOMENTS[where]
    game = cardtable.new_game(where.split()[0], **options)
    for seed in range(int(first[0]) if first else 11, 100):
        state = game.deal(seed=seed)
        rng = random.Random(seed)
        while len(state.history) < 3000:
            if state.is_terminal or not where.endswith(" over"):
                d = state.to_dict()
                if test(d):
                    return json.loads(json.dumps(d))
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {where} in the first 3,000 moves of 89 games")


@cache
def before_deal_ends() -> tuple[dict[str, Any], str]:
    """A Draw Bridge save just before the last card of its first deal, and that card."""
    state = cardtable.new_game("drawbridge", target=10_000).deal(seed=11)
    rng = random.Random(11)
    while True:
        action = rng.choice(state.legal_actions())
        after = state.after(action)
        if after.to_dict()["deal"]["number"] == 2:
            return json.loads(json.dumps(state.to_dict())), action.notation
        state = after


def save_of(where: str) -> dict[str, Any]:
    """``"sequence 5"``: after 5 random moves; ``"drawbridge records"``: see saved_when."""
    name, point = where.split()
    return copy.deepcopy(saved_at(name, int(point)) if point.lstrip("-").isdigit()
                         else saved_when(where))


# ---------------------------------------------------------------- good records to spoil


@cache
def _record_of(where: str) -> dict[str, Any]:
    if where == "finished":  # a whole Sequence game from a seed
        state = play_to(cardtable.new_game("sequence"), 9, -1)
        return records.record_of(state).to_json()
    if where == "unfinished":  # 20 moves of a Sequence game from a seed
        return records.record_of(play_to(cardtable.new_game("sequence"), 9, 20)).to_json()
    assert where == "setup"  # 12 moves from a setup position, unfinished
    start = cardtable.new_game("sequence").setup(seed=5)
    state = start.clone()
    rng = random.Random(5)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    return records.record_of(state, start=start).to_json()


def record_of(where: str) -> dict[str, Any]:
    return copy.deepcopy(_record_of(where))


# ---------------------------------------------------------------- the rows


@dataclass(frozen=True)
class Row:
    """One refusal: ``load`` does it, and its message matches ``message`` (a regex)."""

    name: str
    load: Callable[[Path], object]
    message: str
    #: the error it must be (a subclass of CardtableError)
    error: type[CardtableError] = PositionError
    #: whether ``cardtable replay bad.json`` must say the same
    cli: bool = False


Change = Callable[[Any], object]


def set_(*path_and_value: Any) -> Change:
    *path, value = path_and_value
    return lambda d: put(d, tuple(path), copy.deepcopy(value))


def delete(key: str) -> Change:
    return lambda d: d.pop(key)


def save(where: str, change: Change, message: str) -> Row:
    """``where``'s save, changed by ``change``, refused by ``cardtable.state_from_dict``."""
    def load(_: Path) -> object:
        data = save_of(where)
        change(data)
        return cardtable.state_from_dict(data)
    return Row(f"save {where}: {message}", load, message)


def raw_save(data: Any, message: str) -> Row:
    return Row(f"save {data!r:.30}: {message}",
               lambda _: cardtable.state_from_dict(copy.deepcopy(data)), message)


def setup(name: str, position: dict[str, Any], message: str) -> Row:
    """``Game.setup(**position)`` refused."""
    return Row(f"setup {name} {sorted(position)}: {message}",
               lambda _: cardtable.new_game(name).setup(**copy.deepcopy(position)), message)


def record(where: str, change: Change, message: str) -> Row:
    """``where``'s record, changed and written to a file, refused by ``records.load``."""
    def load(folder: Path) -> object:
        data = record_of(where)
        change(data)
        return load_file(folder, json.dumps(data))
    return Row(f"record {where}: {message}", load, message, records.RecordError, cli=True)


def too_many_moves() -> records.Record:
    """A finished Sequence game's record with its moves repeated past MAX_ACTIONS."""
    record = records.record_of(play_to(cardtable.new_game("sequence"), 1, -1))
    moves = record.actions * (MAX_ACTIONS // len(record.actions) + 1)
    return dataclasses.replace(record, log=dataclasses.replace(record.log, moves=moves))


def record_file(text: str | None, message: str) -> Row:
    """A file that is no record (None: no file at all), refused by ``records.load``."""
    return Row(f"file {text!r}: {message}", lambda folder: load_file(folder, text), message,
               records.RecordError, cli=True)


def load_file(folder: Path, text: str | None) -> object:
    file = folder / "bad.json"
    if text is not None:
        file.write_text(text, encoding="utf-8")
    return records.load(file)


def record_from(what: str, make: Callable[[], object], message: str) -> Row:
    return Row(f"record_of {what}: {message}", lambda _: make(), message, records.RecordError)


def solver_position(args: tuple[Any, ...], message: str) -> Row:
    return Row(f"solver position: {message}", lambda _: solver.PlayPosition(*args), message)


def move_turn(d: dict[str, Any]) -> None:
    d["actions"][2][0] = 1 - d["actions"][2][0]


def negative_word(d: dict[str, Any]) -> None:
    d["rng"][1][5] = -1


def mirrored(deal: dict[str, Any]) -> None:
    """A Draw Bridge deal record with the seats swapped: it replays just as well."""
    deal["dealer"] = 1 - deal["dealer"]
    deal["hands"].reverse()
    deal["points"].reverse()
    if deal["contract"] is not None:
        deal["contract"]["declarer"] = 1 - deal["contract"]["declarer"]


def played_past_the_deal(d: dict[str, Any]) -> None:
    save, last = before_deal_ends()
    d.update(copy.deepcopy(save))
    d["deal"]["actions"].append(last)


def line(*cells: str) -> dict[str, int]:
    return dict.fromkeys(cells, 0)


WORDS = "'rng' is not a saved random generator state: it must hold 624 words of 32 bits"
TT_HANDS = [["AS", "2S", "3S"], ["4S", "5S", "6S"]]


ROWS: list[Row] = [
    # ------------------------------------------------ records.load: the file
    record_file(None, "bad.json: cannot read it"),
    record_file("{not json", "bad.json: not a JSON file"),
    record_file("[1, 2]", "bad.json: a record is a JSON object, not list"),
    record_file("[" * 33 + "]" * 33, "bad.json: the file's lists and objects nest more than "
                "32 deep"),
    record_file("[" * 100_000 + "]" * 100_000, "bad.json: the file's lists and objects nest "
                "more than 32 deep"),
    # ------------------------------------------------ records.load: the fields
    record("finished", set_("format", "chess-pgn"), "not a cardtable game record"),
    record("finished", set_("version", 7), "record version 7 is not supported"),
    record("finished", delete("actions"), "the record lacks 'actions'"),
    record("finished", set_("options", []), "'options' must be an object of game options$"),
    record("finished", set_("options", {"1": 2}), "game: sequence has no option '1'"),
    Row("from_json: options by number", lambda _: records.from_json(
        {**record_of("finished"), "options": {1: 2}}),
        "'options' must be an object of game options by name", records.RecordError),
    record("finished", set_("game", "chess"), "game: unknown game 'chess'"),
    record("finished", set_("options", "players", 5), "game: option players=5 is not allowed"),
    record("finished", set_("seed", "seven"), r"'seed' must be an integer or null, not 'seven'"),
    record("finished", set_("seed", True), r"'seed' must be an integer or null, not True"),
    record("finished", set_("seed", None), "a record without a 'seed' needs 'start'"),
    record("setup", lambda d: d.update(start=record_of("finished")["start"] or 1),
           "a record without a 'seed' needs 'start'"),
    record("setup", lambda d: d.update(seed=5),
           "a record has either a 'seed' or a 'start', not both"),
    record("setup", set_("start", "options", "players", 3),
           "'start' is a position of another game or other options"),
    record("setup", set_("start", "game", "threethirteen"),
           "'start' is a position of another game or other options"),
    record("setup", set_("start", "current", 7),
           "'start' is not a valid sequence position: current must be a seat"),
    record("finished", set_("result", [1]), "'result' must be an object or null"),
    record("finished", set_("created", 7), "'created' must be a timestamp string"),
    record("finished", set_("seats", []), "'seats' must list the 2 seats of the game"),
    record("finished", set_("seats", 1, {"kind": "alien", "name": "x"}), r"seats\[1\] must be"),
    record("finished", set_("actions", {}), r"'actions' must be a list of \[seat, notation\]"),
    record("finished", set_("actions", 0, "7H c4"), r"action 1 must be \[seat 0..1, notation\]"),
    record("finished", set_("actions", 3, 0, 9), r"action 4 must be \[seat 0..1"),
    record("finished", set_("ending", {"kind": "quit", "seat": 0}),
           r"'ending' must be \{\"kind\": \"resign\" or \"abort\""),
    record("finished", set_("undos", {}), r"'undos' must be a list"),
    record("finished", set_("undos", [{"seat": 0, "at": 1, "undone": 0}]),
           r"undo 1 must be \{\"seat\": 0..1"),
    record("finished", set_("ending", {"kind": "resign", "seat": 0}),
           r"the record's actions end the game, but it says the table ended it \(resign\)"),
    # ------------------------------------------------ records.load: the replay
    record("finished", set_("actions", 3, 1, "XX z9"), r"action 4 of \d+ \('XX z9' by seat"),
    record("finished", move_turn, r"action 3 of \d+ .*: it is the turn of seat"),
    record("finished", lambda d: d["actions"].append(d["actions"][-1]),
           "it is the turn of nobody: the game is over"),
    record("finished", set_("result", "winners", [5]),
           r"the record's result .* is not what its actions give"),
    record("unfinished", set_("result", {"winners": [0], "scores": [1, 0]}),
           "the record has a result, but its actions do not end the game"),
    record("finished", set_("result", None),
           "the record's actions end the game, but it has no result"),
    # ------------------------------------------------ records.record_of
    record_from("a state from setup, no start",
                lambda: records.record_of(cardtable.new_game("sequence").setup(seed=1)),
                "needs start=, a copy of the position the game started from"),
    record_from("another game's start",
                lambda: records.record_of(cardtable.new_game("sequence").deal(seed=1),
                                          start=cardtable.new_game("drawbridge").deal(seed=1)),
                "start is not an earlier position of this game"),
    record_from("3 seats for 2 players",
                lambda: records.record_of(cardtable.new_game("sequence").deal(seed=1),
                                          seats=[records.Seat("bot", "random")] * 3),
                "3 seats given for 2 players"),
    # ------------------------------------------------ state_from_dict: any game
    raw_save([], "a saved state is a dict, not list"),
    raw_save({"game": "sequence"}, "a saved state needs the key 'options'"),
    raw_save({"game": "sequence", "options": {(1, 2): 3}},
             "'options' must be a dict of game options by name"),
    raw_save({"game": "chess", "options": {}}, "saved state: unknown game 'chess'"),
    setup("sequence", {"surprise": 1}, "sequence positions have no key 'surprise'"),
    save("threethirteen 5", negative_word, WORDS),
    save("sequence 5", negative_word, WORDS),
    save("drawbridge 5", negative_word, WORDS),
    save("sequence 5", set_("rng", 1, 624, 625), WORDS),
    save("sequence 5", set_("rng", 1, 3, 2**32), WORDS),
    save("sequence 5", set_("rng", 0, 2),
         "'rng' is not a saved random generator state: version 2 is not 3"),
    save("sequence 5", set_("rng", 1, [0] * 10), "generator state: it must hold 624 words"),
    save("sequence 5", set_("rng", 2, "x"),
         "generator state: its gauss entry must be null or a number"),
    save("sequence 5", set_("rng", None), r"generator state: it must be \[version, words, gauss\]"),
    save("sequence 5", set_("seed", "x"), "'seed' must be an integer or null"),
    save("sequence 5", set_("history", {}), r"history must be a list of \[seat, notation, id\]"),
    save("sequence 5", set_("history", 0, [0, "x"]), r"history: .* is not \[seat 0..1"),
    save("sequence 5", set_("history", 0, 2, 0), "history: action id 0 is .*, not"),
    save("sequence 5", set_("deck", "AS"), r"deck must be a list of cards such as \['AS'"),
    save("sequence 5", set_("deck", 0, 7), "deck: 7 is not a card"),
    save("sequence 5", set_("deck", 0, "ZZ"), "deck: "),
    save("sequence 5", set_("current", 9), "current must be a seat from 0 to 1, not 9"),
    save("sequence 5", lambda d: d["deck"].extend(d["deck"][:10]),
         "appears 3 times, but the deck holds it only 2"),
    # ------------------------------------------------ state_from_dict: Sequence
    save("sequence 5", delete("turns"), "saved sequence state lacks 'turns'"),
    save("sequence 5", set_("turns", -1), "saved sequence state: option turns=-1"),
    save("sequence 5", set_("winning_team", 0), "winning_team is set, but the game is not over"),
    save("sequence 5", set_("over", True), "over: the game has no winner"),
    save("sequence 5", set_("over", 1), "over must be true or false"),
    save("sequence 5", set_("exchanged", "yes"), "exchanged must be true or false"),
    save("sequence 5", set_("passes", 2), "passes=2 is not allowed|over must be true"),
    save("sequence 5", set_("passes", 3), "passes=3 is not allowed"),
    save("sequence 5", set_("chips", []), r"chips must be a dict such as \{'c4': 0\}"),
    save("sequence 5", set_("chips", {"z9": 0}), "'z9' is not a cell|z9"),
    save("sequence 5", set_("chips", {1: 0}), "1 is not a cell; cells are strings such as"),
    save("sequence 5", set_("chips", {"a1": 0}), "chips: a1 is a corner; corners hold no chip"),
    save("sequence 5", set_("chips", {"c4": 5}), "chips: c4 holds team 5; teams are 0..1"),
    save("sequence 5", set_("hands", [[]]), "hands must be a list of 2 card lists, one per seat"),
    save("sequence 5", lambda d: d["hands"][0].pop(), "hands: seat 0 holds 6 cards"),
    save("sequence 5", set_("sequences", {}), r"sequences must be a list of \[team, \[five"),
    save("sequence 5", set_("sequences", [7]), r"sequences: 7 is not \[team, \[five cells\]\]"),
    save("sequence 5", set_("sequences", [[4, ["b2", "c3", "d4", "e5", "f6"]]]),
         "sequences: team 4 is not a team 0..1"),
    save("sequence 5", set_("sequences", [[0, ["b2", "c3", "d4", "e5", "g7"]]]),
         "are not five cells in a straight line"),
    save("sequence 5", lambda d: d.update(options={**d["options"], "max_turns": 3}),
         "turns: 3 turns played, but max_turns is 3|turns: .* turns played, but max_turns is 3"),
    save("sequence won", set_("winning_team", None), "over: the game has no winner"),
    save("sequence won", set_("over", False), "already has enough sequences to win"),
    save("sequence won", lambda d: d.update(over=False, winning_team=None),
         "already has enough sequences to win"),
    save("sequence won", lambda d: d["hands"][d["current"]].append(d["deck"].pop()),
         "the winner's last card is played without a draw"),
    save("sequence 5", set_("sequences", [[0, ["b2", "c3", "d4", "e5", "f6"]]]),
         "sequences: b2 of b2 c3 d4 e5 f6 holds no chip of team 0"),
    save("sequence 5", lambda d: d.update(
        chips=line("a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"),
        sequences=[[0, ["a2", "b2", "c2", "d2", "e2"]], [0, ["d2", "e2", "f2", "g2", "h2"]]]),
        "sequences: .* share more than one cell"),
    save("sequence 5", set_("chips", line("a2", "b2", "c2", "d2", "e2")),
         "chips: team 0 holds a2 b2 c2 d2 e2, a sequence that is not listed in sequences"),
    save("sequence 5", lambda d: (d.update(over=True, passes=2),
                                  d["deck"].append(d["hands"][0].pop())),
         "hands: the game ended without a winner, so every hand is full"),
    save("sequence won", lambda d: d.update(winning_team=1 - d["winning_team"]),
         "winning_team: team . has . sequences; 2 win, and only the winner has them"),
    setup("sequence", {"deck": [*CARD_NAMES, *CARD_NAMES][7:]}, "not enough cards left"),
    # ------------------------------------------------ state_from_dict: Three Thirteen
    save("threethirteen 5", set_("hands", None), "hands must be"),
    save("threethirteen 5", set_("taken", None), "taken must be"),
    save("threethirteen 5", set_("drawn", None), "drawn must be"),
    save("threethirteen 5", set_("hands", 0, None), r"hands\[0\] must be"),
    save("threethirteen out", set_("out_melds", 1.5), "out_melds"),
    save("threethirteen out", set_("out_melds", 0, 1.5), "out_melds"),
    save("threethirteen 5", set_("over", True), "over: the match ends only after round 11"),
    save("threethirteen 5", set_("went_out", 0), "went_out: seat 0's hand does not split"),
    save("threethirteen out", lambda d: d.__setitem__("went_out", 1 - d["went_out"]),
         "hand does not split into the melds"),
    save("threethirteen out", lambda d: d["out_melds"].pop(), "does not split into the melds"),
    save("threethirteen 5", set_("turns_left", 1), "turns_left need a player who went out"),
    save("threethirteen out", set_("turns_left", 0), "turns_left must be 1..1"),
    save("threethirteen out", lambda d: d.__setitem__("out_melds", None),
         "does not split into the melds"),
    save("threethirteen 5", set_("reshuffled", True), "not the reshuffled pile"),
    save("threethirteen 5", set_("reshuffle_pile", ["AS"]), "must be empty before"),
    save("threethirteen reshuffled", lambda d: d["drawn"][0].pop(), "not the reshuffled pile"),
    save("threethirteen reshuffled", set_("reshuffled", False), "must be empty before"),
    save("threethirteen 5", set_("last_round", {
        "round": 1, "went_out": None, "scores": [0, 0],
        "melds_shown": [{"melds": [], "deadwood": [], "penalty": 0}] * 2}),
        "last_round: round 1 is not the one before round 1"),
    save("threethirteen 5", set_("round_start", 99), "round_start lies beyond"),
    save("threethirteen 5", delete("round"), "saved threethirteen state lacks 'round'"),
    save("threethirteen 5", set_("round", 12), "saved threethirteen state: option round=12"),
    save("threethirteen 5", set_("hands", [[]]), "hands must be a list of 2 card lists, one "
                                                 "per seat$"),
    save("threethirteen 5", set_("scores", [-1, 0]), "scores must be a list of 2 penalty totals"),
    save("threethirteen 5", lambda d: d["stock"].pop(), "the saved cards number 51, not the 52"),
    save("threethirteen 5", lambda d: d["hands"][0].append(d["stock"].pop()),
         "hands: seat 0 holds . cards, not"),
    save("threethirteen 5", lambda d: d["taken"][0].append(d["stock"][0]),
         "seat 0: taken cards that are not in the hand"),
    save("threethirteen 0", lambda d: d.update(out_of_play=d["out_of_play"] + d["stock"],
                                               stock=[]),
         "the stock is empty at the start of a turn"),
    save("threethirteen out3", set_("turns_left", 1),
         "current: seat . cannot be to act with 1 turns left after seat . went out"),
    save("threethirteen over", set_("turns_left", 1), "over: a finished match has no turns left"),
    save("threethirteen round3", set_("scores", [0, 0]),
         "last_round: its penalties must be from 0 up to the totals"),
    save("threethirteen round3", set_("round_scores", [[0, 0]] * 3),
         "round_scores lists 3 rounds; only 2 were completed"),
    save("threethirteen round3", set_("round_scores", [[0, 0], [99, 99]]),
         "round_scores: its last round is not last_round's penalties"),
    save("threethirteen round3", set_("round_scores", 0, [1000, 1000]),
         "round_scores: seat 0's penalties add up to more than its total"),
    save("threethirteen 5", set_("last_round", {"x": 1}), "last_round must be None or"),
    save("threethirteen 5", set_("round_scores", "x"), "round_scores must be a list of rounds"),
    setup("threethirteen", {"round": 12}, "round must be a number from 1 to 11, not 12"),
    setup("threethirteen", {"hands": [["AS"], ["KS"]]}, "hands: seat 0 holds 1 cards; round 1 "
                                                        "deals 3"),
    setup("threethirteen", {"stock": CARD_NAMES}, "not enough cards left to deal 2 hands of 3"),
    setup("threethirteen", {"hands": TT_HANDS, "stock": [], "discard": []},
          "the stock and the discard pile are both empty: nothing to draw"),
    # ------------------------------------------------ state_from_dict: Draw Bridge
    save("drawbridge 5", set_("deal", "number", 7), "deal number 7 needs the records"),
    save("drawbridge records", lambda d: d["records"].pop(), "deal number 3 needs the records"),
    save("drawbridge records", lambda d: d["records"].reverse(), "stands where deal 1 belongs"),
    save("drawbridge records",
         lambda d: d["records"][1].__setitem__("dealer", d["records"][0]["dealer"]),
         "record of deal 2: KH: you do not hold KH"),
    save("drawbridge records",
         lambda d: d["deal"].__setitem__("dealer", d["records"][1]["dealer"]),
         "the deal alternates"),
    save("drawbridge records", set_("deal", "scores", [0, 0]),
         "less than the .* its finished deals earned"),
    save("drawbridge records", lambda d: d["records"][0]["play"].reverse(), "record of deal 1"),
    save("drawbridge records", lambda d: d["records"][0]["play"].append("2C"),
         "record of deal 1: 2C comes after the end of the deal"),
    save("drawbridge records", lambda d: d["records"][0]["auction"].append("pass"),
         "record of deal 1: pass: this is the play phase"),
    save("drawbridge records", lambda d: d["records"][0]["auction"].pop(0),
         "record of deal 1: 7S: you may double only|record of deal 1"),
    save("drawbridge records", lambda d: d["records"][0]["play"].pop(), "do not finish the deal"),
    save("drawbridge records", set_("records", 0, "declarer_tricks", 14),
         "declarer_tricks 14 does not follow"),
    save("drawbridge records", lambda d: d["history"].pop(),
         "history does not end with the current deal's actions"),
    save("drawbridge records", lambda d: d["history"][-1].__setitem__(0, 1 - d["history"][-1][0]),
         "history does not end with the current deal's actions"),
    save("drawbridge 5", set_("records", None), "'records' must be the list"),
    save("drawbridge 5", set_("deal", "hands", [[]]), "hands must be a list of 2 card lists"),
    save("drawbridge 5", lambda d: d["deal"]["hands"][0].pop(),
         "hands: seat 0 holds 12 cards; a hand holds 13"),
    save("drawbridge 5", lambda d: d["deal"]["stock"].pop(), "stock holds 25 cards; it must "
                                                             "hold 26"),
    save("drawbridge 5", set_("deal", "scores", [-1, 0]), "scores must be 2 integers from 0 to "
                                                          "99"),
    save("drawbridge -1", lambda d: d["deal"]["actions"].append("2C"),
         "2C comes after the end of the match"),
    save("drawbridge 5", lambda d: d["deal"]["actions"].insert(0, "AS"),
         "AS is not legal in this deal"),
    save("drawbridge 5", set_("deal", "actions", 0, "ZZ"), "deal actions: 'ZZ'"),
    save("drawbridge 5", set_("deal", "number", "x"), "deal number must be a positive integer"),
    save("drawbridge 5", set_("deal", "actions", "x"), "deal actions must be a list of "
                                                       "notations"),
    save("drawbridge 5", lambda d: d["deal"].pop("stock"), "saved drawbridge state lacks "
                                                           "'stock'"),
    save("drawbridge 5", played_past_the_deal, "deal actions run past the end of the deal"),
    save("drawbridge records", lambda d: mirrored(d["records"][1]),
         "records: deal 2 has the dealer of deal 1; the deal alternates"),
    save("drawbridge 5", set_("deal", "previous_trick", {"x": 1}),
         "previous_trick: there is no deal before deal 1"),
    save("drawbridge records", set_("deal", "previous_trick", "winner", 1),
         "previous_trick .* is not the last trick of deal 2"),
    save("drawbridge passed", set_("deal", "previous_trick", {"x": 1}),
         r"previous_trick \(the last draw trick of the passed-out deal .\) must be"),
    save("drawbridge passed", set_("deal", "previous_trick", "cards", [1]),
         r"passed-out deal .\): cards must be \[\[seat, card\], \[seat, card\]\]"),
    save("drawbridge passed", lambda d: d["deal"]["previous_trick"]["cards"][1].__setitem__(
        0, d["deal"]["previous_trick"]["cards"][0][0]), "the card that follows is the other "
                                                        "seat's"),
    save("drawbridge passed", lambda d: d["deal"]["previous_trick"]["cards"][1].__setitem__(
        1, d["deal"]["previous_trick"]["cards"][0][1]), "its two cards must be cards of the "
                                                        "draw phase"),
    save("drawbridge passed", lambda d: d["deal"]["previous_trick"].update(
        winner=1 - d["deal"]["previous_trick"]["winner"]), "the winner is seat . by the rules"),
    save("drawbridge records", set_("records", 0, 5), "a deal record is a dict, not 5"),
    save("drawbridge records", set_("records", 0, "deal_number", 0),
         "record deal_number must be a positive integer, not 0"),
    save("drawbridge records", set_("records", 0, "hands", [[]]),
         "record of deal 1: hands must be 2 hands of 13 cards"),
    save("drawbridge records", lambda d: d["records"][0]["hands"][0].pop(),
         "record of deal 1: hands must be 2 hands of 13 cards"),
    save("drawbridge records", set_("records", 0, "auction", "x"),
         "record of deal 1: auction must be a list of calls"),
    save("drawbridge records", set_("records", 0, "auction", 0, "8S"),
         "record of deal 1: auction: '8S' is not a call"),
    save("drawbridge records", lambda d: d["records"][0].pop("play"),
         "a deal record lacks 'play'"),
    save("drawbridge 5", set_("deal", []), "'deal' must be the current deal"),
    # ------------------------------------------------ the Draw Bridge solver's positions
    *[solver_position(args, message) for args, message in [
          (((0b1, 0b10), 5, 0), r"strain must be an index of"),
          (((0b1, 0b10), 4, 2), "to_move must be 0 or 1, not 2"),
          (((0b11, 0b10), 4, 0), "hands must be two disjoint sets of cards"),
          (((0b11, 0b100), 4, 0), "at the start of a trick both hands hold as many cards"),
          (((0b1, 0b10), 4, 0, 1), "lead must be a card held by neither hand, not 1"),
          (((0b1, 0b10), 4, 0, 7), "after a lead, the seat to play holds one card more"),
          (((0, 0), 4, 0), "the seat to play holds 1 to 13 cards"),
      ]],
    Row("solver: a position outside the play", lambda _: solver.PlayPosition.of(
        cardtable.new_game("drawbridge").deal(seed=1)),  # type: ignore[arg-type]
        "the deal is in its draw phase, not the play"),
    Row("export: a format the game does not offer", lambda _: records.export(
        records.record_of(cardtable.new_game("sequence").deal(seed=1)), "pbn"),
        "Sequence records are exported as json, not 'pbn'", records.RecordError),
    Row("replay: a game not over", lambda _: replay_json(
        records.record_of(cardtable.new_game("sequence").deal(seed=1))),
        "only a finished game is replayed: its hands are then open", records.RecordError),
    Row("review: a game not over", lambda _: review_json(
        records.record_of(cardtable.new_game("drawbridge").deal(seed=1))),
        "only a finished game is reviewed: its hands are then open", records.RecordError),
    Row("replay: a game of too many moves", lambda _: replay_json(too_many_moves()),
        "a replay takes games of at most 6,000 moves; this one has", records.RecordError),
    Row("review: a match of too many deals", lambda _: review_json(records.record_of(
        play_to(cardtable.new_game("drawbridge"), 1, -1))),
        "a review takes matches of at most 40 deals; this one has 56", records.RecordError),
    Row("a record file: a PBN export", lambda _: record_of_file(b'[Event "?"]\n[Deal "N:"]'),
        "this is a PBN export, which cannot be replayed", records.RecordError),
    Row("a record file: not JSON", lambda _: record_of_file(b"\xff\xfe not text"),
        "not a JSON file: a record is the JSON file cardtable writes", records.RecordError),
    Row("a record file: nested too deep", lambda _: record_of_file(b"[" * 40 + b"]" * 40),
        "the file's lists and objects nest more than 32", records.RecordError),
    Row("a record file: JSON that is not a record", lambda _: record_of_file(b'{"a": 1}'),
        "not a cardtable game record", records.RecordError),
    Row("solver: a trick table of short hands", lambda _: solver.trick_table((0b1, 0b10)),
        "a trick table is of two 13-card hands"),
    Row("solver: par before the auction", lambda _: solver.auction_of(
        cardtable.new_game("drawbridge").deal(seed=1)),  # type: ignore[arg-type]
        "the deal is in its draw phase: par is known from the auction on"),
]


# ---------------------------------------------------------------- running a row


def refusal(row: Row, folder: Path) -> CardtableError:
    """The error ``row`` ends in; it fails the test when the row loads."""
    try:
        row.load(folder)
    except CardtableError as exc:
        return exc
    pytest.fail(f"{row.name}: loaded, but it should have been refused")


@pytest.mark.parametrize("row", ROWS, ids=[row.name[:70] for row in ROWS])
def test_a_bad_save_or_record_is_refused_saying_what_is_wrong(row: Row, tmp_path: Path) -> None:
    exc = refusal(row, tmp_path)
    assert isinstance(exc, row.error), f"{type(exc).__name__}: {exc}"
    assert_matches(str(exc), row.message)
    if row.cli:
        # the command line says the same, without a traceback
        result = CliRunner().invoke(main, ["replay", str(tmp_path / "bad.json")])
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert_matches(" ".join(result.output.split()), row.message)


def assert_matches(text: str, message: str) -> None:
    import re

    assert re.search(message, text), f"{text!r} does not say {message!r}"


# ---------------------------------------------------------------- every refusal has a row


@dataclass(frozen=True)
class Site:
    """A ``raise`` of a refusal in the package's source."""

    path: Path
    first: int
    last: int
    text: str

    def __str__(self) -> str:
        return f"src/cardtable/{self.path.relative_to(PACKAGE)}:{self.first}: {self.text}"


def refusal_names() -> set[str]:
    """PositionError, RecordError and the errors derived from them."""
    names: set[str] = set()
    todo: list[type] = [PositionError, records.RecordError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo += cls.__subclasses__()
    return names


def raise_sites() -> list[Site]:
    names = refusal_names()
    sites = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not any(f"{name}(" in text for name in names):
            continue
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and _called(node.exc.func) in names):
                sites.append(Site(path, node.lineno, node.end_lineno or node.lineno,
                                  lines[node.lineno - 1].strip()))
    return sites


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def raised_at(exc: BaseException) -> Iterator[tuple[Path, int]]:
    """Where ``exc`` and each error it was raised while handling were raised."""
    seen: BaseException | None = exc
    while seen is not None:
        tb: TracebackType | None = seen.__traceback__
        if tb is not None:
            while tb.tb_next is not None:
                tb = tb.tb_next
            yield Path(tb.tb_frame.f_code.co_filename).resolve(), tb.tb_lineno
        seen = seen.__context__


def test_every_refusal_has_a_row(tmp_path: Path) -> None:
    hit: set[tuple[Path, int]] = set()
    for number, row in enumerate(ROWS):
        folder = tmp_path / str(number)
        folder.mkdir()
        hit.update(raised_at(refusal(row, folder)))
    sites = raise_sites()
    assert len(sites) > 100, "the source scan found too few refusals"
    missing = [site for site in sites
               if not any(path == site.path and site.first <= line <= site.last
                          for path, line in hit)]
    assert not missing, ("refusals that no row of ROWS reaches (add a row that spoils a save or "
                         "record so that each is raised):\n" + "\n".join(map(str, missing)))
