"""PBN export of finished deals, read back with a small PBN reader written here."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from cardtable.cards import CARD_NAMES
from cardtable.drawbridge import DrawBridgeState, to_pbn
from cardtable.drawbridge.game import ACTIONS, DealRecord
from tests.drawbridge.positions import auction_position, deal, play

DIRECTIONS = "NESW"
SEAT_OF = {"N": 0, "E": 1}
PBN_CALLS = {"Pass": "pass", "X": "double", "XX": "redouble"}


@dataclass
class PbnGame:
    tags: dict[str, str] = field(default_factory=dict)
    auction: list[str] = field(default_factory=list)
    play: list[str] = field(default_factory=list)


def read_pbn(text: str) -> list[PbnGame]:
    """Games of a PBN file: tags, and the tokens of the auction and play sections."""
    games = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        chunk = re.sub(r"\{[^}]*\}", " ", chunk)
        chunk = re.sub(r";[^\n]*", " ", chunk)
        g = PbnGame()
        section: list[str] | None = None
        for token in re.findall(r'\[\s*\w+\s+"[^"]*"\s*\]|\S+', chunk):
            tag = re.fullmatch(r'\[\s*(\w+)\s+"([^"]*)"\s*\]', token)
            if tag:
                g.tags[tag[1]] = tag[2]
                section = {"Auction": g.auction, "Play": g.play}.get(tag[1])
            elif section is not None:
                section.append(token)
        games.append(g)
    return games


def hands_of_deal(deal: str) -> dict[str, set[str]]:
    """PBN Deal tag -> {direction: cards}, '-' hands left out."""
    first, hands = deal.split(":")
    out = {}
    for i, hand in enumerate(hands.split()):
        direction = DIRECTIONS[(DIRECTIONS.index(first) + i) % 4]
        if hand != "-":
            out[direction] = {rank + suit for suit, ranks in zip("SHDC", hand.split("."),
                                                                  strict=True) for rank in ranks}
    return out


def bridge_contract(first: str, calls: list[str]) -> tuple[str, str]:
    """How a four-hand bridge program reads an auction: (contract, declarer)."""
    turn = DIRECTIONS.index(first)
    last_bid, doubled, bidder = "", "", ""
    named: dict[tuple[int, str], str] = {}  # (side, strain) -> first to name it
    passes = 0
    for call in calls:
        who = DIRECTIONS[turn % 4]
        turn += 1
        side = DIRECTIONS.index(who) % 2
        if call == "Pass":
            passes += 1
            if (last_bid and passes == 3) or passes == 4:
                break
            continue
        passes = 0
        if call == "X":
            assert last_bid and DIRECTIONS.index(bidder) % 2 != side and not doubled
            doubled = "X"
        elif call == "XX":
            assert doubled == "X" and DIRECTIONS.index(bidder) % 2 == side
            doubled = "XX"
        else:
            assert not last_bid or _rank(call) > _rank(last_bid), f"{call} after {last_bid}"
            last_bid, doubled, bidder = call, "", who
            named.setdefault((side, call[1:]), who)
    else:
        raise AssertionError("the auction does not end")
    if not last_bid:
        return "Pass", ""
    return last_bid + doubled, named[(DIRECTIONS.index(bidder) % 2, last_bid[1:])]


def _rank(bid: str) -> int:
    return int(bid[0]) * 5 + ["C", "D", "H", "S", "NT"].index(bid[1:])


def check_game(g: PbnGame, record: DealRecord) -> None:
    tags = g.tags
    assert tags["Board"] == str(record.number)
    assert tags["Dealer"] == "NE"[record.dealer]
    assert tags["Auction"] == tags["Dealer"]
    hands = hands_of_deal(tags["Deal"])
    assert set(hands) == {"N", "E"}
    for seat, direction in enumerate("NE"):
        assert hands[direction] == {CARD_NAMES[c] for c in range(52) if record.hands[seat] >> c & 1}
    # the Draw Bridge calls are the North and East ones; South and West only pass
    first = DIRECTIONS.index(tags["Auction"])
    ours = []
    for i, call in enumerate(g.auction):
        direction = DIRECTIONS[(first + i) % 4]
        if direction in SEAT_OF:
            ours.append(PBN_CALLS.get(call, call))
        else:
            assert call == "Pass"
    assert ours == [ACTIONS[c].notation for c in record.calls]
    contract, declarer = bridge_contract(tags["Auction"], g.auction)
    assert tags["Contract"] == contract
    assert tags["Declarer"] == declarer
    if record.contract is None:
        assert contract == "Pass" and g.play == [] and tags["Result"] == ""
        return
    assert contract == str(record.contract)
    assert declarer == "NE"[record.contract.declarer]
    assert tags["Result"] == str(record.declarer_tricks)
    leader = DIRECTIONS[(DIRECTIONS.index(declarer) + 1) % 4]
    assert tags["Play"] == leader
    columns = [DIRECTIONS[(DIRECTIONS.index(leader) + i) % 4] for i in range(4)]
    assert len(g.play) == 13 * 4
    played = []
    for t in range(13):
        row = dict(zip(columns, g.play[4 * t:4 * t + 4], strict=True))
        assert row["S"] == row["W"] == "-"
        played.append({SEAT_OF[d]: row[d][1] + row[d][0] for d in "NE"})
    assert played == [{seat: CARD_NAMES[card] for seat, card in record.plays[2 * t:2 * t + 2]}
                      for t in range(13)]


def played_match(seed: int, deals: int) -> DrawBridgeState:
    s = auction_position([["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S",
                           "3S", "2S"], ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H",
                                         "5H", "4H", "3H", "2H"]], dealer=1, target=10_000)
    play(s, "pass pass")  # a deal passed out
    rng = random.Random(seed)
    while len(s.records) < deals and not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_pbn_export_reads_back_to_the_same_hands_auction_and_play() -> None:
    s = played_match(seed=3, deals=12)
    text = to_pbn(s)
    games = read_pbn(text)
    assert len(games) == len(s.records) == 12
    for g, record in zip(games, s.records, strict=True):
        check_game(g, record)


def test_pbn_is_in_export_form() -> None:
    s = played_match(seed=4, deals=3)
    text = to_pbn(s)
    mandatory = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                 "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    for chunk in text.split("\n\n"):
        tags = re.findall(r'^\[(\w+) "', chunk, flags=re.M)
        assert tags[:15] == mandatory
        assert tags[15] == "Auction"
    assert text.endswith("\n") and "\n\n\n" not in text
    first = read_pbn(text)[0]
    assert first.tags["Contract"] == "Pass"
    assert first.auction == ["Pass"] * 4  # East dealt and passed, North passed


def test_no_finished_deal_no_pbn() -> None:
    assert to_pbn(deal(1)) == ""


def test_a_known_deal_in_pbn() -> None:
    spades = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "2H", "3H", "4H", "5H"]
    hearts = ["AH", "KH", "QH", "JH", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D"]
    s = auction_position([spades, hearts], dealer=0, target=1000)
    play(s, "2S x pass AH 2H KH 3H QH 4H JH 5H AD AS KS KD QS QD JS JD TS TD 9S 9D 8S 8D "
            "7S 7D 6S 6D")
    text = to_pbn(s)
    assert '[Deal "N:AKQJT9876.5432.. .AKQJ.AKQJT9876. - -"]' in text
    assert '[Declarer "N"]\n[Contract "2SX"]\n[Result "9"]' in text
    assert '[Auction "N"]\n2S X Pass Pass\nPass\n[Play "E"]\nHA - - H2\n' in text
    assert "North (seat 0) 180, East (seat 1) 0" in text
