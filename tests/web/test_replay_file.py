"""The replay of a record file the user drops or picks: ``POST /api/replay``
(``cardtable.web.record_replay_json``) and the page at ``/replay`` and in the lobby,
in a real browser against a real ``cardtable serve``; a bad file gets a clear message.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import bots, records
from cardtable.web import record_replay_json, record_review_json
from cardtable.web.replay import MAX_ACTIONS, MAX_DEALS, RecordTooLong, reason_of
from tests.web.test_browser import Player


def finished_record(game: str, seed: int = 5, **options: Any) -> records.Record:
    state = cardtable.new_game(game, **options).deal(seed=seed)
    players = [bots.make("heuristic", seed=seed + s) for s in range(state.game.num_players)]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(players[seat].choose(state))
    seats = [records.Seat("human", "Dara")] + [records.Seat("bot", "heuristic")] * (
        state.game.num_players - 1)
    return records.record_of(state, seats=seats)


def text_of(record: records.Record) -> bytes:
    return json.dumps(record.to_json(), indent=1).encode()


def long_match() -> records.Record:
    """A Draw Bridge match to 100 of random moves: 56 deals in 3,195 moves."""
    state = cardtable.new_game("drawbridge").deal(seed=1)
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return records.record_of(state)


def padded(record: records.Record, moves: int) -> bytes:
    """The record's file with its moves repeated to ``moves`` (it no longer replays)."""
    data = record.to_json()
    data["actions"] = (data["actions"] * (moves // len(data["actions"]) + 1))[:moves]
    return json.dumps(data).encode()


def test_a_record_file_replays_with_its_table() -> None:
    record = finished_record("sequence")
    got = record_replay_json(text_of(record))
    assert got["game"] == "sequence" and len(got["positions"]) == len(record.actions) + 1
    assert got["table"]["seats"][0] == {"kind": "person", "name": "Dara", "taken": True}
    assert got["table"]["seats"][1]["bot"] == "heuristic"
    assert got["table"]["game_info"]["board"]


@pytest.mark.parametrize(("body", "words"), [
    (b'[Event "?"]\n[Deal "N:..."]\n', "PBN"),
    (b"\xff\xfe not text", "not a JSON file"),
    (b"{}", "not a cardtable game record"),
    (b"[1, 2]", "a record is a JSON object"),
    # Python's JSON reader recurses: far too deep it gives up, a little too deep is read
    (b"[" * 100_000 + b"]" * 100_000, "nest more than 32 deep"),
    (b'{"a":' * 50_000, "nest more than 32 deep"),
    (b'{"format": "cardtable-record", "seats": ' + b"[" * 33 + b"]" * 33 + b"}",
     "nest more than 32 deep"),
])
def test_a_bad_file_is_refused_with_what_is_wrong(body: bytes, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        record_replay_json(body)


def unfinished_record() -> bytes:
    state = cardtable.new_game("sequence").deal(seed=3)
    for _move in range(4):
        state.apply(state.legal_actions()[0])
    return text_of(records.record_of(state))


@pytest.mark.parametrize(("body", "reason"), [
    (b'[Event "?"]\n[Deal "N:..."]\n', "pbn"),
    (b"\xff\xfe not text", "not-json"),
    (b"{}", "not-record"),
    (b"[1, 2]", "not-record"),
    (b"[" * 100 + b"]" * 100, "not-record"),
    (b'{"format": "cardtable-record", "version": 1}', "broken"),
    (None, "not-over"),
])
def test_a_bad_file_says_to_the_page_what_it_is(body: bytes | None, reason: str) -> None:
    """record/bad carries a reason the page words for players (issue 37: the page showed
    "(not a cardtable game record ('format' is not 'cardtable-record'))")."""
    with pytest.raises(ValueError) as refused:
        record_replay_json(unfinished_record() if body is None else body)
    assert reason_of(refused.value) == reason
    # a record whose moves do not replay is "broken" too
    with pytest.raises(ValueError) as refused:
        record_replay_json(padded(finished_record("sequence"), 200))
    assert reason_of(refused.value) == "broken"


@pytest.mark.slow
def test_a_record_with_a_start_position_is_not_too_deep() -> None:
    state = cardtable.new_game("threethirteen", players=3).deal(seed=2)
    first = state.clone()
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    record = records.record_of(state, start=first)
    text = json.dumps(record.to_json())
    assert records.loads(text) == json.loads(text)
    assert len(record_replay_json(text_of(record))["positions"]) == len(record.actions) + 1


def never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a refused record was replayed position by position")


def test_a_review_of_too_many_deals_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    record = long_match()
    assert len(record.actions) <= MAX_ACTIONS and MAX_DEALS < 56
    monkeypatch.setattr(records, "positions", never)     # the deals counted, none reviewed
    with pytest.raises(RecordTooLong, match="at most 40 deals; this one has 56"):
        record_review_json(text_of(record))


@pytest.mark.parametrize("answer", [record_replay_json, record_review_json])
def test_a_record_of_too_many_moves_is_refused_before_it_is_replayed(
        answer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    body = padded(finished_record("drawbridge", target=1), MAX_ACTIONS + 1)
    monkeypatch.setattr(records, "positions", never)
    monkeypatch.setattr(records.GameLog, "replay", never)
    monkeypatch.setattr(records.GameLog, "walk", never)
    with pytest.raises(RecordTooLong, match="at most 6,000 moves; this one has 6,001"):
        answer(body)


def test_an_unfinished_or_broken_record_is_refused() -> None:
    data = finished_record("sequence").to_json()
    unfinished = {**data, "actions": data["actions"][:4], "result": None}
    with pytest.raises(ValueError, match="only a finished game"):
        record_replay_json(json.dumps(unfinished).encode())
    broken = json.loads(json.dumps(data))
    broken["actions"][2][1] = "ZZ a1"
    with pytest.raises(ValueError, match="action 3"):
        record_replay_json(json.dumps(broken).encode())


def test_a_record_file_is_reviewed_as_a_table_is() -> None:
    from cardtable.web.replay import review_json

    record = finished_record("drawbridge", target=1)
    got = record_review_json(text_of(record))
    assert got == review_json(record) and got["deals"]
    assert record_review_json(text_of(finished_record("sequence")))["deals"] == []
    with pytest.raises(ValueError, match="not a JSON file"):
        record_review_json(b"\xff not text")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), [
    ("sequence", {}), ("drawbridge", {"target": 1}), ("threethirteen", {})])
def test_the_page_steps_through_a_picked_record_file(browser: Any, server: str, tmp_path: Path,
                                                     shots: Path, game: str,
                                                     options: dict[str, Any]) -> None:
    record = finished_record(game, **options)
    path = tmp_path / f"{game}.json"
    path.write_bytes(text_of(record))
    p = Player(browser, server)
    p.page.goto(server + "/replay")
    p.page.set_input_files("#record-file", str(path))
    p.page.wait_for_selector("#replay .replay-controls")
    total = len(record.actions)
    assert p.page.inner_text("#replay-counter") == f"Move 0 of {total}"
    assert p.page.locator("#log li").count() == total
    p.page.keyboard.press("ArrowRight")
    assert p.page.inner_text("#replay-counter") == f"Move 1 of {total}"
    p.page.keyboard.press("End")
    assert p.page.inner_text("#replay-counter") == f"Move {total} of {total}"
    # the last position is the record's end: every hand open, the game over
    view = p.page.evaluate("window.cardtable.replay.view")
    assert view["is_terminal"]
    if "scores" in view:
        assert record.result is not None and view["scores"] == record.result["scores"]
    assert p.page.locator("#hands .replay-hand").count() == len(record.seats)
    assert "Dara" in p.page.inner_text("#seats")
    if game == "drawbridge":
        # the file's review beside its replay, as a finished table's (POST /api/review;
        # the solver's first use in the server may compile it: a generous wait)
        p.page.wait_for_selector("#review .review-deal", timeout=180_000)
        assert p.page.locator("#review .review-deal").count() == len(
            record_review_json(text_of(record))["deals"])
    else:
        # two players at the default rules: reviewed move by move by the trained network
        # (Sequence's by its afterstate value network, issue 34)
        review = record_review_json(text_of(record))
        p.page.wait_for_selector("#review .review-players li", timeout=60_000)
        shown = p.page.inner_text("#review")
        for player in review["players"]:
            assert f"accuracy {player['accuracy']:g}%" in shown   # as JS writes numbers
        costly = [m for m in review["moves"] if m["verdict"] in ("mistake", "blunder")]
        assert p.page.locator("#review .mistakes li").count() == len(costly)
        p.shot_of("#review", shots / f"replay-review-{game}.png")
        if costly:   # each one a link to the position before it
            p.page.click("#review .mistakes li button")
            assert p.page.inner_text("#replay-counter") == (
                f"Move {costly[0]['number'] - 1} of {total}")
        # in Khmer too
        km = Player(browser, server, locale="km-KH")
        km.page.goto(server + "/replay")
        km.page.set_input_files("#record-file", str(path))
        km.page.wait_for_selector("#review .review-players li", timeout=60_000)
        assert "ការពិនិត្យដោយបណ្តាញដែលបានបង្វឹក" in km.page.inner_text("#review h2")
        assert "ភាពត្រឹមត្រូវ" in km.page.inner_text("#review .review-players")
        km.page.screenshot(path=str(shots / f"replay-review-{game}-km.png"))
        km.close()
    p.close()


@pytest.mark.slow
def test_the_lobby_takes_a_dropped_file_and_a_bad_one_is_told(browser: Any, server: str,
                                                               shots: Path) -> None:
    p = Player(browser, server)
    p.page.goto(server + "/")
    p.page.wait_for_selector("#record-drop")
    drop = """([name, text]) => { const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: "application/json" }));
      document.querySelector('#record-drop').dispatchEvent(
        new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })); }"""
    # a bad file: a clear message, in the page, and the lobby stays
    p.page.evaluate(drop, ["notes.txt", "these are not the moves"])
    p.page.wait_for_selector("#record-error:not([hidden])")
    message = p.page.inner_text("#record-error")
    assert message == "This file is not a cardtable game record."
    assert p.page.url.rstrip("/") == server
    p.shot(shots, "replay-file-bad")
    # the PBN export is not a record: said so
    p.page.evaluate(drop, ["deal.pbn", '[Event "?"]\n[Deal "N:AKQ..."]\n'])
    p.page.wait_for_function(
        "() => document.querySelector('#record-error').textContent.includes('PBN')")
    assert "Download the record" in p.page.inner_text("#record-error")
    # a record: its replay
    record = finished_record("sequence", seed=8)
    p.page.evaluate(drop, ["game.json", text_of(record).decode()])
    p.page.wait_for_url("**/replay")
    p.page.wait_for_selector("#replay .replay-controls")
    assert p.page.locator("#log li").count() == len(record.actions)
    p.page.keyboard.press("End")
    p.shot(shots, "replay-file")
    p.page.click("#replay-other")
    p.page.wait_for_selector("#record-drop")
    # the file button speaks the page's language: a label for the hidden input
    assert p.page.inner_text("#record-pick") == "Pick a file"
    p.page.select_option("#lang", "km")
    p.page.wait_for_function("() => document.querySelector('#record-pick') && "
                             "/[\u1780-\u17ff]/.test(document.querySelector('#record-pick').textContent)")
    p.close()
