"""The Table every front end plays through: turns, bots, logs, records and per-seat events."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import IllegalActionError, NotYourTurnError, OptionsError, records
from cardtable.table import BotJob, Seat, Table, run_bot_job
from tests.configs import SHORT, params

PERSON = Seat("person", "Ann")


def bots(n: int, kind: str = "random") -> list[Seat]:
    return [Seat("bot", kind) for _ in range(n)]


def test_a_move_out_of_turn_or_illegal_changes_nothing() -> None:
    table = Table.new(cardtable.new_game("sequence"), [PERSON, Seat("person", "Bo")], seed=4)
    before = table.state.to_dict()
    seat = table.to_act
    assert seat is not None
    with pytest.raises(NotYourTurnError, match=f"seat {1 - seat} cannot move: it is seat "
                                               f"{seat}'s turn"):
        table.play(1 - seat, table.state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        table.play(seat, "pass")
    with pytest.raises(OptionsError, match="no seat 2"):
        table.play(2, "pass")
    assert table.state.to_dict() == before and table.version == 0
    assert isinstance(NotYourTurnError("x"), cardtable.CardtableError | ValueError)
    action = table.play(seat, table.view(seat)["legal"][0])
    assert table.version == 1 and table.moves == [(seat, action.notation)]


def test_bots_play_until_a_person_is_to_act() -> None:
    table = Table.new(cardtable.new_game("sequence", players=4),
                      [PERSON, *bots(3, "heuristic")], seed=2)
    assert table.to_act == 1 and table.bot_to_act
    assert len(table.advance_bots(max_moves=2)) == 2 and table.to_act == 3
    assert len(table.advance_bots()) == 1 and table.to_act == 0 and table.version == 3
    assert not table.bot_to_act and table.advance_bots() == []
    with pytest.raises(NotYourTurnError):
        table.bot_job()


def test_a_table_of_bots_plays_to_the_end_and_the_same_seeds_give_the_same_game() -> None:
    game = cardtable.new_game("threethirteen", players=3)
    tables = [Table.new(game, bots(3), seed=5, bot_seed=9) for _ in range(2)]
    for table in tables:
        table.advance_bots()
        assert table.to_act is None and table.state.is_terminal
    assert tables[0].moves == tables[1].moves
    with pytest.raises(NotYourTurnError, match="game is over"):
        tables[0].play(0, "draw")


def test_a_view_has_the_version_and_the_legal_moves_of_the_seat_to_act() -> None:
    table = Table.new(cardtable.new_game("threethirteen"), [PERSON, Seat("person", "Bo")],
                      seed=1)
    seat = table.to_act
    assert seat is not None
    view = table.view(seat)
    assert "history" not in view and view["version"] == 0
    assert view["legal"] == ["draw", "take"] and table.view(1 - seat)["legal"] == []
    assert table.view(None)["legal"] == []
    assert table.view(None)["hand"] == []
    table.play(seat, "draw")
    assert table.view(seat)["version"] == 1


@pytest.mark.parametrize(("name", "options"), params(SHORT))
def test_a_tables_views_are_the_states_after_every_move(name: str,
                                                         options: dict[str, Any]) -> None:
    """The views a table keeps for a version (their lists shared between seats) are what
    the state says to each seat and to a spectator, after every move of a random game,
    each seat asked in a different order, and a seat asked before a move is not told
    the old position after it."""
    game = cardtable.new_game(name, **options)
    n = game.num_players
    table = Table.new(game, [Seat("person", f"P{s}") for s in range(n)], seed=5)
    rng = random.Random(5)
    seats: list[int | None] = [None, *range(n)]
    for _ in range(400):
        rng.shuffle(seats)
        for seat in seats:
            want = table.state.view(seat, history=False)
            assert table.view(seat) == {**want, "version": table.version}
        seat = table.to_act
        if seat is None:
            break
        table.play(seat, rng.choice(table.view(seat)["legal"]))


def test_a_log_replays_into_the_same_table_and_record() -> None:
    game = cardtable.new_game("sequence")
    table = Table.new(game, [PERSON, Seat("bot", "heuristic")], seed=3)
    for _ in range(5):
        table.advance_bots()
        table.play(0, table.view(0)["legal"][-1])
    again = Table.from_moves(game, table.seats, seed=3, moves=[m for _, m in table.moves])
    assert again.state.to_dict() == table.state.to_dict() and again.version == 10
    record = table.record()
    assert record.seats == [records.Seat("human", "Ann"), records.Seat("bot", "heuristic")]
    assert records.replay(record).to_dict() == table.state.to_dict()
    assert Table.from_record(record).state.to_dict() == table.state.to_dict()
    with pytest.raises(IllegalActionError, match="move 2"):
        Table.from_moves(game, table.seats, seed=3, moves=[table.moves[0][1], "zz"])


def test_a_table_from_a_setup_position_records_its_start() -> None:
    game = cardtable.new_game("sequence")
    start = game.setup(chips={"e5": 1}, seed=2)
    table = Table.new(game, [PERSON, Seat("person", "Bo")], start=start)
    seat = table.to_act
    assert seat is not None
    table.play(seat, table.view(seat)["legal"][0])
    record = table.record()
    assert record.seed is None and record.start == start.to_dict()
    assert records.replay(record).to_dict() == table.state.to_dict()
    assert Table.new(game, table.seats, start=start.to_dict()).state.to_dict() == start.to_dict()
    with pytest.raises(OptionsError, match="not both"):
        Table.new(game, table.seats, start=start, seed=1)


def test_on_move_is_called_after_every_move() -> None:
    seen: list[int] = []
    table = Table.new(cardtable.new_game("sequence"), bots(2), seed=1,
                      on_move=lambda t: seen.append(t.version))
    table.advance_bots(max_moves=3)
    assert seen == [1, 2, 3]


def test_a_bot_job_pickles_and_chooses_a_legal_move() -> None:
    game = cardtable.new_game("drawbridge")
    table = Table.new(game, [Seat("bot", "heuristic"), Seat("bot", "ismcts",
                                                            {"iterations": 20})], seed=6)
    for _ in range(7):
        job = pickle.loads(pickle.dumps(table.bot_job()))
        assert isinstance(job, BotJob) and job.log.moves == tuple(table.moves)
        move = run_bot_job(job)
        assert move == run_bot_job(job)  # the job's own seed: the same choice
        table.play(job.seat, move)


def test_seats_are_checked_and_can_change_hands() -> None:
    game = cardtable.new_game("sequence")
    with pytest.raises(OptionsError, match="unknown bot 'clever'"):
        Table.new(game, [PERSON, Seat("bot", "clever")])
    with pytest.raises(OptionsError, match="'person' or a 'bot'"):
        Seat("robot", "Ann")
    assert Seat("human", "Ann") == Seat("person", "Ann")  # the old name of a person
    with pytest.raises(OptionsError, match="3 seats"):
        Table.new(game, [PERSON, *bots(2)])
    table = Table.new(game, [Seat("person", "Bo"), PERSON], seed=1)
    assert table.to_act == 1
    table.set_seat(1, Seat("bot", "random"))
    assert table.bot_to_act and table.persons == [0]
    assert len(table.advance_bots()) == 1


def test_a_hint_is_for_the_seat_to_act() -> None:
    table = Table.new(cardtable.new_game("sequence"), [Seat("bot", "random"), PERSON], seed=2,
                      hint_budget={"iterations": 30})
    hint = table.hint(1)
    assert hint.action in table.state.legal_actions() and 0 <= hint.win_probability <= 1
    with pytest.raises(NotYourTurnError):
        table.hint(0)


# -- events: what a seat learns move by move ------------------------------------------------

def check_events(table: Table, seat: int, hand: Counter[str], event: dict[str, Any]
                 ) -> Counter[str]:
    """The seat's hand after ``event``, checking that the event shows nothing hidden."""
    view = table.view(seat)  # after the event's move when called as the game goes
    known = Counter(view["hand"])
    cards = event.get("drawn", []) + event.get("dealt", [])
    assert not Counter(cards) - known, f"event {event} shows seat {seat} a card it lacks"
    if "dealt" in event:
        return Counter(event["dealt"])
    if event["seat"] == seat and "card" in event["public"]:
        hand = hand - Counter([event["public"]["card"]])  # the card that left the hand
    return hand + Counter(event.get("drawn", []))


@pytest.mark.parametrize(("name", "options"), params(SHORT))
def test_events_give_each_seat_its_own_cards_and_nothing_hidden(name: str,
                                                                options: dict[str, Any]) -> None:
    game = cardtable.new_game(name, **options)
    n = game.num_players
    table = Table.new(game, bots(n), seed=11, bot_seed=3)
    hands = [Counter(table.view(s)["hand"]) for s in range(n)]
    phases = cardtable.declaration(name).phases
    while table.to_act is not None and table.version < 800:
        phase = table.view(None).get("phase", "play")
        table.advance_bots(max_moves=1)
        version = table.version
        for seat in range(n):
            events = table.events_since(version - 1, seat)
            assert [e["version"] for e in events] == [version]
            hands[seat] = check_events(table, seat, hands[seat], events[0])
            assert hands[seat] == Counter(table.view(seat)["hand"]), events[0]
        [spectator] = table.events_since(version - 1, None)
        assert spectator == {"version": version, "seat": table.moves[-1][0],
                             "move": table.moves[-1][1], "phase": spectator["phase"],
                             "public": events[0]["public"]}
        assert spectator["phase"] in phases and spectator["phase"] == phase
    # a seat that asks late gets the same events, worked out from the log
    again = Table.from_moves(game, bots(n), seed=11, moves=[m for _, m in table.moves])
    for seat in range(n):
        assert again.events_since(0, seat) == table.events_since(0, seat)
    events = table.events_since(0, 0)
    assert any("drawn" in e for e in events)
    if name != "sequence":  # a new deal or round came, unless the first one ended the game
        assert any("dealt" in e for e in events) or table.to_act is None


def test_a_table_ends_early_and_takes_moves_back_and_its_log_says_so() -> None:
    """Table.end and Table.undo (the server's resign, abort and takeback): the result,
    the view, the log and a table rebuilt from the log (docs/records.md)."""
    from cardtable.store import table_log

    for game in ("drawbridge", "sequence", "threethirteen"):
        table = Table.new(cardtable.new_game(game), [Seat("person", "Ann"),
                                                     Seat("bot", "random")], seed=5)
        assert table.undo(0) == 0
        for _ in range(3):
            table.play(0, table.view(0)["legal"][0])
            table.advance_bots()
        before = table.version
        played = list(table.moves)
        taken = table.undo(0)
        assert taken >= 1 and table.version == before - taken and table.to_act == 0
        assert table.undos == [{"seat": 0, "at": table.version, "undone": taken}]
        table.end("resign", 0)
        assert table.to_act is None and table.view(0)["legal"] == []
        result = table.result()
        assert result is not None
        assert (result["winners"], result["ended"], result["by"], result["undos"]) == (
            [1], "resign", 0, 1)
        with pytest.raises(NotYourTurnError):
            table.end("abort", 1)
        rebuilt = Table.from_log(table.log(), table.seats)
        assert rebuilt.result() == result and rebuilt.version == table.version
        # the server's stored rows (append-only) read back to the same log
        rows = [*played, (0, f"!undo {taken}"), (0, "!resign")]
        assert table_log(game, dict(table.state.game.options), 5, rows) == table.log()


@pytest.mark.parametrize("seed", range(4))
def test_a_takeback_in_three_thirteen_goes_back_a_whole_turn(seed: int) -> None:
    """Issue 37: an undo against a bot takes the player back to their own last decision,
    the start of their last turn (3.4: the draw or take, then the discard), not to the
    discard with the card drawn still in hand."""
    table = Table.new(cardtable.new_game("threethirteen"),
                      [Seat("person", "Ann"), Seat("bot", "heuristic")], seed=seed)
    table.advance_bots()
    start = table.version
    hand = sorted(table.view(0)["hand"])
    table.play(0, "take" if seed % 2 else "draw")
    table.play(0, table.view(0)["legal"][-1])   # a discard (or going out)
    table.advance_bots()
    count = table.undoable(0)
    assert count == table.version - start >= 3   # the draw, the discard, the bot's turn
    assert table.undo(0) == count
    assert table.version == start and table.to_act == 0
    view = table.view(0)
    assert set(view["legal"]) >= {"draw", "take"} and sorted(view["hand"]) == hand
    # mid-turn (drawn, not yet discarded) the takeback is the draw alone
    table.play(0, "draw")
    assert table.undoable(0) == 1 and table.undo(0) == 1 and table.version == start


def test_a_takeback_in_sequence_includes_the_dead_card_exchanged_that_turn() -> None:
    game = cardtable.new_game("sequence")
    assert game.keeps_turn("dead 7H") and not game.keeps_turn("7H c4")
    assert not cardtable.new_game("drawbridge").keeps_turn("2S")
