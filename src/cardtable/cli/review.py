"""``cardtable review``: every deal of a saved Draw Bridge match against perfect play."""

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


@click.command()
@click.argument("path", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--engine", type=click.Choice(ENGINES), default=None,
              help="The solver: numba (compiled; pip install 'cardtable[fast]') or python "
                   "(default: numba when installed).")
def review(path: Path, as_json: bool, engine: str | None) -> None:
    """Review every deal of a Draw Bridge record against perfect play.

    For each deal: par (the result between two perfect players, from the hands at the
    auction and the match scores), the contract reached, and each seat's losses: the
    tricks lost with each card below the best, and the match chance lost with each call
    below the best. See docs/drawbridge-review.md.
    """
    try:
        record = records.load(path)
    except records.RecordError as exc:
        raise UserError(str(exc)) from None
    if not cardtable.declaration(record.game).review:
        reviewed = ", ".join(d.title for d in cardtable.declarations() if d.review)
        raise UserError(f"{path}: a record of {record.game}, which has no review; review "
                        f"reads records of {reviewed}")
    deals = deal_review.review(records.positions(record), engine)
    if as_json:
        click.echo(json.dumps({"record": str(path), "deals": [d.to_json() for d in deals]}))
        return
    if not deals:
        click.echo("No deal of this record reached its auction: nothing to review.")
    for deal in deals:
        click.echo("\n".join(render(deal)))
