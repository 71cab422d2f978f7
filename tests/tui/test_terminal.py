"""The real `cardtable play` in a pseudo-terminal: play a few moves, quit, resume, play on."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable import records

pexpect = pytest.importorskip("pexpect")

CARDTABLE = str(Path(sys.executable).parent / "cardtable")
ENV = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "110", "LINES": "32"}


def spawn(*args: str) -> Any:
    return pexpect.spawn(CARDTABLE, list(args), env=ENV, dimensions=(32, 110),
                         encoding="utf-8", timeout=60)


def moves_in(path: Path) -> int:
    return len(records.load(path).actions)


def my_turn(child: Any, path: Path, after: int) -> records.Record:
    """Wait (reading the screen) until the record has more than ``after`` actions and the
    person, seat 0, is to move."""
    for _ in range(300):
        child.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.1)
        try:
            record = records.load(path)
        except records.RecordError:
            continue  # not written yet
        if len(record.actions) > after and records.replay(record).current_player == 0:
            return record
    raise AssertionError("the bot did not answer")


def play_moves(child: Any, path: Path, count: int) -> None:
    """Type ``count`` legal moves in notation, each once the bot has answered the last."""
    child.expect("your move")
    for _ in range(count):
        state = records.replay(records.load(path))
        assert state.current_player == 0
        before = len(state.history)
        child.send(":")
        time.sleep(0.3)  # the move box takes the keys once it has the focus
        child.send(str(state.legal_actions()[0]).lower())
        child.send("\r")
        record = my_turn(child, path, before + 1)
        assert record.actions[before] == (0, str(state.legal_actions()[0]))


@pytest.mark.slow
def test_play_quit_resume_in_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = spawn("play", "sequence", "--seed", "3", "--bots", "random", "--pace", "0",
                  "--save", str(path))
    play_moves(child, path, 2)
    child.send("q")
    child.expect("play on with: cardtable play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = moves_in(path)
    record = records.load(path)
    assert record.seed == 3 and record.seats[0] == records.Seat("human", "You")

    child = spawn("play", "--resume", str(path), "--pace", "0")
    play_moves(child, path, 1)
    child.sendcontrol("q")  # Ctrl+Q says where the game is, as q does
    child.expect(f"The game is saved in {path}; play on with: cardtable play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert moves_in(path) >= saved + 2
    assert records.load(path).seed == 3


def test_mistakes_exit_2_with_a_message(tmp_path: Path) -> None:
    child = spawn("play", "sequence", "--players", "5")
    child.expect("choose one of 2, 3, 4, 6, 8, 9, 10, 12")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
