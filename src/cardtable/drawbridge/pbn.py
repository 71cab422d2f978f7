"""Finished Draw Bridge deals as PBN (Portable Bridge Notation 2.1), for bridge tools.

Seat mapping: seat 0 sits **North** and seat 1 **East**, so the two players are
opponents, as in Draw Bridge. South and West stand for nobody: their hands are
``-`` (unknown, PBN 3.4.11), their calls are ``Pass`` and their cards ``-``
(unknown, PBN 3.6). With those passes the auction is an ordinary four-hand
auction that ends where the Draw Bridge auction ends (three passes after the
last bid, double or redouble; four passes for a deal passed out), so a bridge
program reads the same contract and declarer from it.

Each deal is one PBN game with the 15 mandatory tags: ``Deal`` gives the two
hands as they stood when the auction started (after the draw phase, whose cards
are not bridge), ``Result`` the tricks declarer won, and the ``Play`` section the
13 tricks, its columns starting with declarer's left-hand opponent as PBN
prescribes (South when East declares: that column is all ``-``). A deal passed
out has the contract ``Pass`` and no play. A comment before the tags names the
game, the deal and the match points it scored.
"""

from __future__ import annotations

from cardtable.cards import RANKS, SUITS
from cardtable.drawbridge.game import ACTIONS, DealRecord, DrawBridgeState

DIRECTIONS = "NESW"  # clockwise, as PBN lists hands and calls
SEAT_DIRECTION = ("N", "E")
_RANKS_HIGH_FIRST = "AKQJT98765432"


def hand_text(mask: int) -> str:
    """A hand in PBN: ranks high to low per suit, suits S.H.D.C, e.g. ``AK3.QJT..98765432``."""
    suits = []
    for s in range(4):
        suits.append("".join(r for r in _RANKS_HIGH_FIRST
                             if mask >> (13 * s + RANKS.index(r)) & 1))
    return ".".join(suits)


def card_text(card: int) -> str:
    """A card in PBN play notation: suit then rank, e.g. ``HT``."""
    return SUITS[card // 13] + RANKS[card % 13]


def call_text(call: int) -> str:
    name = ACTIONS[call].notation
    return {"pass": "Pass", "double": "X", "redouble": "XX"}.get(name, name)


def _rotation(first: str) -> str:
    i = DIRECTIONS.index(first)
    return DIRECTIONS[i:] + DIRECTIONS[:i]


def auction_calls(record: DealRecord) -> list[str]:
    """The four-hand auction, from the dealer: Draw Bridge calls, South and West passing."""
    seat_at = {d: s for s, d in enumerate(SEAT_DIRECTION)}
    calls = list(record.calls)
    out: list[str] = []
    turn = DIRECTIONS.index(SEAT_DIRECTION[record.dealer])
    while calls:
        direction = DIRECTIONS[turn % 4]
        out.append(call_text(calls.pop(0)) if direction in seat_at else "Pass")
        turn += 1
    # complete it as bridge ends an auction: 3 passes after a call, 4 when nobody bid
    bid = any(c != "Pass" for c in out)
    while not (bid and out[-3:] == ["Pass"] * 3 or not bid and len(out) >= 4):
        out.append("Pass")
    return out


def game_text(record: DealRecord) -> str:
    """One deal as a PBN game (export format, lines ending in newlines)."""
    dealer = SEAT_DIRECTION[record.dealer]
    hands = {SEAT_DIRECTION[s]: hand_text(record.hands[s]) for s in (0, 1)}
    deal = dealer + ":" + " ".join(hands.get(d, "-") for d in _rotation(dealer))
    contract = record.contract
    points = f"North (seat 0) {record.points[0]}, East (seat 1) {record.points[1]}"
    lines = [
        f"{{Draw Bridge deal {record.number}, two players: seat 0 North, seat 1 East; South "
        f"and West are empty seats that always pass. Match points: {points}}}",
        '[Event "Draw Bridge"]',
        '[Site ""]',
        '[Date ""]',
        f'[Board "{record.number}"]',
        '[West ""]',
        '[North "seat 0"]',
        '[East "seat 1"]',
        '[South ""]',
        f'[Dealer "{dealer}"]',
        '[Vulnerable "None"]',
        f'[Deal "{deal}"]',
        '[Scoring ""]',
        f'[Declarer "{"" if contract is None else SEAT_DIRECTION[contract.declarer]}"]',
        f'[Contract "{"Pass" if contract is None else contract}"]',
        f'[Result "{"" if contract is None else record.declarer_tricks}"]',
        f'[Auction "{dealer}"]',
    ]
    calls = auction_calls(record)
    lines += [" ".join(calls[i:i + 4]) for i in range(0, len(calls), 4)]
    if contract is not None:
        leader = DIRECTIONS[(DIRECTIONS.index(SEAT_DIRECTION[contract.declarer]) + 1) % 4]
        columns = _rotation(leader)
        lines.append(f'[Play "{leader}"]')
        for t in range(0, len(record.plays), 2):
            trick = {SEAT_DIRECTION[seat]: card_text(card) for seat, card in record.plays[t:t + 2]}
            lines.append(" ".join(trick.get(d, "-") for d in columns))
    return "\n".join(lines) + "\n"


def to_pbn(state: DrawBridgeState) -> str:
    """Every finished deal of the match as a PBN file, one game per deal (empty if none yet)."""
    return "\n".join(game_text(record) for record in state.records)

