"""``cardtable review``: every deal of a saved Draw Bridge match against perfect play; a
Three Thirteen match or a Sequence game move by move against the trained networks
(``cardtable.review``)."""

from __future__ import annotations

import json
from pathlib import Path

import click

import cardtable
from cardtable import records
from cardtable.cli.options import UserError
from cardtable.drawbridge import review as deal_review
from cardtable.drawbridge.solver import ENGINES


def _points(points: tuple[int, int] | list[int]) -> str:
    return f"{points[0]}-{points[1]}"


def render(deal: deal_review.DealReview) -> list[str]:
    """The review of one deal as lines of text."""
    par = deal.par
    lines = [f"Deal {deal.number}: dealer seat {deal.dealer}, scores "
             f"{_points(deal.scores_before)}"]
    if par.contract is None:
        lines.append("  par:      passed out")
    else:
        lines.append(f"  par:      {par.contract} by seat {par.contract.declarer}, "
                     f"{par.declarer_tricks} tricks, points {_points(par.points)} "
                     f"(auction: {' '.join(par.to_json()['auction'])})")
    if not deal.finished:
        lines.append("  played:   not finished yet")
    elif deal.contract is None:
        lines.append("  played:   passed out")
    else:
        lines.append(f"  played:   {deal.contract} by seat {deal.declarer}, "
                     f"{deal.declarer_tricks} tricks, points {_points(deal.points)}; "
                     f"double dummy {deal.double_dummy_tricks} tricks")
    for seat in (0, 1):
        lost = deal.tricks_lost[seat]
        lines.append(f"  seat {seat}:   {lost} trick{'' if lost == 1 else 's'} lost in the play, "
                     f"{deal.chance_lost[seat]:.1%} of the match lost in the auction")
        for m in deal.mistakes:
            if m.seat != seat:
                continue
            if m.phase == "play":
                lines.append(f"    trick {m.number}: {m.played}, best {m.best}: "
                             f"{m.loss:g} trick{'s' if m.loss != 1 else ''} lost")
            else:
                lines.append(f"    call {m.number}: {m.played}, best {m.best}: "
                             f"{m.loss:.1%} of the match lost")
    return lines


def _count(n: int, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{n} {word if n == 1 else plural}"


def render_moves(answer: dict[str, object]) -> list[str]:
    """A review by the trained network as lines of text: each player's accuracy, then
    the moves that cost most."""
    lines = [f"Reviewed by the {answer['method']}; losses in {answer['unit']}."]
    players = answer["players"]
    assert isinstance(players, list)
    for p in players:
        accuracy = "-" if p["accuracy"] is None else f"{p['accuracy']:.1f}%"
        counts = ", ".join(_count(p[key], word) for key, word in (
            ("inaccuracies", "inaccuracy"), ("mistakes", "mistake"), ("blunders", "blunder")))
        lines.append(f"seat {p['seat']}: accuracy {accuracy} over {p['moves']} moves, "
                     f"{p['loss']:g} lost in all; {counts}")
    moves = answer["moves"]
    assert isinstance(moves, list)
    for m in moves:
        if m["verdict"]:
            where = f"round {m['round']}, " if m["round"] is not None else ""
            lines.append(f"  move {m['number']} ({where}seat {m['seat']}): {m['played']}, "
                         f"best {m['best']}: {m['loss']:g} lost, "
                         f"{'an' if m['verdict'] == 'inaccuracy' else 'a'} {m['verdict']}")
    return lines


@click.command()
@click.argument("path", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--engine", type=click.Choice(ENGINES), default=None,
              help="The solver: numba (compiled; pip install 'cardtable[fast]') or python "
                   "(default: numba when installed).")
def review(path: Path, as_json: bool, engine: str | None) -> None:
    """Review a finished game: Draw Bridge against perfect play, Three Thirteen and
    Sequence against the trained networks.

    Draw Bridge, each deal: par (the result between two perfect players, from the hands
    at the auction and the match scores), the contract reached, and each seat's losses:
    the tricks lost with each card below the best, and the match chance lost with each
    call below the best (docs/drawbridge-review.md). Three Thirteen (two players, the
    default rules): each move against the move the trained network values most, in
    points of the round; inaccuracies, mistakes and blunders, and each player's
    accuracy (docs/training.md, "Reviews"). Sequence (two players, the default rules):
    each move's chance to win after it against the best move's, by the afterstate value
    network, in percent.
    """
    try:
        record = records.load(path)
    except records.RecordError as exc:
        raise UserError(str(exc)) from None
    if not cardtable.declaration(record.game).review:
        from cardtable import review as network_review  # NumPy, only when asked

        if record.game not in network_review.reviewed_games():
            reviewed = [d.title for d in cardtable.declarations()
                        if d.review or d.name in network_review.reviewed_games()]
            raise UserError(f"{path}: a record of {record.game}, which has no review; "
                            f"review reads records of {', '.join(reviewed)}")
        if not record.finished:
            raise UserError(f"{path}: the game is not finished; a review reads finished "
                            "games")
        try:
            answer = network_review.review(record)
        except ValueError as exc:
            raise UserError(f"{path}: {exc}") from None
        click.echo(json.dumps({"record": str(path), **answer}) if as_json
                   else "\n".join(render_moves(answer)))
        return
    deals = deal_review.review(records.positions(record), engine)
    if as_json:
        click.echo(json.dumps({"record": str(path), "deals": [d.to_json() for d in deals]}))
        return
    if not deals:
        click.echo("No deal of this record reached its auction: nothing to review.")
    for deal in deals:
        click.echo("\n".join(render(deal)))
