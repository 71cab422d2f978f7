"""The review of a Draw Bridge match (cardtable.drawbridge.review, `cardtable review`)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import cardtable
from cardtable import records
from cardtable.bots import make
from cardtable.cli import main
from cardtable.drawbridge import DrawBridgeState
from cardtable.drawbridge.review import review


def played(kinds: tuple[str, str], seed: int, **options: object) -> records.Record:
    state = cardtable.new_game("drawbridge", **options).deal(seed=seed)
    bots = [make(kinds[0], seed=seed), make(kinds[1], seed=seed + 1)]
    while not state.is_terminal:
        state.apply(bots[state.current_player].choose(state))  # type: ignore[index]
    return records.record_of(state, [records.Seat("bot", k) for k in kinds])


def test_the_tricks_lost_add_up_to_the_tricks_taken() -> None:
    """Each card below the best costs its player exactly the tricks the review says, so
    declarer takes the double-dummy tricks, less its losses, plus the defender's."""
    for seed in (1, 2):
        deals = review(records.positions(played(("heuristic", "random"), seed,
                                                undertricks=True, target=200)))
        assert deals
        for deal in deals:
            assert deal.finished
            if deal.contract is None:
                continue
            assert deal.declarer is not None and deal.double_dummy_tricks is not None
            declarer, defender = deal.declarer, 1 - deal.declarer
            assert deal.declarer_tricks == (deal.double_dummy_tricks - deal.tricks_lost[declarer]
                                            + deal.tricks_lost[defender])
            assert sum(m.loss for m in deal.mistakes if m.phase == "play") == sum(
                deal.tricks_lost)


def test_perfect_players_lose_nothing_and_reach_par() -> None:
    deals = review(records.positions(played(("perfect", "perfect"), 4, undertricks=True)))
    assert deals
    for deal in deals:
        assert deal.tricks_lost == [0, 0] and deal.chance_lost == [0.0, 0.0]
        assert deal.mistakes == []
        assert deal.contract == (None if deal.par.contract is None else str(deal.par.contract))
        assert deal.points == deal.par.points


def test_cardtable_review_prints_each_deal(tmp_path: Path) -> None:
    path = records.save(played(("heuristic", "random"), 2, undertricks=True), tmp_path / "m.json")
    runner = CliRunner()
    first = runner.invoke(main, ["review", str(path), "--json"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    assert report["deals"] and {"par", "tricks_lost", "mistakes"} <= set(report["deals"][0])
    # the same record gives the same review
    assert runner.invoke(main, ["review", str(path), "--json"]).output == first.output
    text = runner.invoke(main, ["review", str(path), "--engine", "python"])
    assert text.exit_code == 0 and "Deal 1" in text.output and "par:" in text.output


def test_cardtable_review_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["review", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    state = cardtable.new_game("sequence").deal(seed=1)
    path = records.save(records.record_of(state), tmp_path / "s.json")
    unfinished = runner.invoke(main, ["review", str(path)])
    assert unfinished.exit_code == 2 and "not finished" in unfinished.output


def test_a_deal_in_progress_is_reviewed_so_far(tmp_path: Path) -> None:
    state = cardtable.new_game("drawbridge", undertricks=True).deal(seed=5)
    assert isinstance(state, DrawBridgeState)
    bot = make("heuristic", seed=5)
    while state.phase != "play":
        state.apply(bot.choose(state))
    for _ in range(5):
        state.apply(bot.choose(state))
    record = records.record_of(state)
    deals = review(records.positions(record))
    assert len(deals) == 1 and not deals[0].finished and deals[0].contract is None
    path = records.save(record, tmp_path / "m.json")
    out = CliRunner().invoke(main, ["review", str(path)])
    assert out.exit_code == 0 and "not finished yet" in out.output
