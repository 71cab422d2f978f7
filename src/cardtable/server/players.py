"""Players without accounts (docs/server.md: Players): keys, the player page, ratings.

A browser asks ``POST /api/players`` once and keeps the key it is given; it sends it as
``X-Player-Key`` when it takes a seat (the seat then belongs to the player) and to read
its own page (``GET /api/players/me``), to get a one-time transfer code for another
browser, or to revoke its keys. The server stores the key's SHA-256 only.

Ratings come from OpenSkill (the Plackett-Luce model of the ``openskill`` package) over
every finished table between people (no bot seat, every seat a different player's, and
not decided by the bots that played for them: :func:`decided_by_bots`), in the order
they finished; they are derived from the stored tables when the server
starts and updated as tables finish. The number shown is ``1500 + 24 * (mu - 3 sigma)``
rounded (a new player: 1500).
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from openskill.models import PlackettLuce, PlackettLuceRating

import cardtable
from cardtable.server.bodies import GameEntry, GameSeat, PlayerInfo, PlayerPage, Rating, Stats
from cardtable.server.database import Database
from cardtable.server.messages import Result
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room
from cardtable.store import Store, hash_token
from cardtable.store import players as stored
from cardtable.store.players import GameRow, PlayerRow

log = logging.getLogger("cardtable.server")

#: the header a browser sends its player key in
KEY_HEADER = "x-player-key"
#: seconds a transfer code stays valid
TRANSFER_SECONDS = 600
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I
CODE_LENGTH = 10


# ---------------------------------------------------------------- ratings


def _teams(game: str, options: dict[str, Any], players: int) -> list[int]:
    """Each seat's team (its own seat number when the game has no teams)."""
    try:
        info = cardtable.new_game(game, **{**options, "players": players}).describe()
        teams = info.get("teams")
        if isinstance(teams, list) and len(teams) == players:
            return [int(t) for t in teams]
    except Exception:
        pass
    return list(range(players))


#: a game is decided by the bots that played for its people (timeouts', takeovers') when,
#: at one person's seat, a bot played more than this share of the seat's moves...
TAKEOVER_SHARE = 0.25
#: ...and more than this many of them (docs/server.md: Ratings)
TAKEOVER_MOVES = 3


def decided_by_bots(row: GameRow) -> bool:
    """A bot played more than a quarter of a person seat's moves, and more than 3."""
    for n, by_bot in enumerate(row.bot_moves):
        made = row.moves[n] if n < len(row.moves) else 0
        if by_bot > TAKEOVER_MOVES and by_bot > TAKEOVER_SHARE * made:
            return True
    return False


Unrated = Literal["bots", "players", "takeover", "aborted", "undo"]


def unrated(row: GameRow) -> Unrated | None:
    """Why a game is left out of the ratings: it was aborted ("aborted") or had moves
    taken back ("undo"), a bot's seat ("bots"), a seat without a player key or one player
    at two seats ("players"), or it was decided by the bots that played for its people
    ("takeover"); None: it counts. A resignation counts as a win and a loss."""
    if row.result is not None and row.result.get("ended") == "abort":
        return "aborted"
    if row.result is not None and row.result.get("undos"):
        return "undo"
    ids = [p for _, _, p in row.seats]
    if not all(kind == "person" for kind, _, _ in row.seats):
        return "bots"
    if len(ids) < 2 or None in ids or len(set(ids)) != len(ids):
        return "players"
    return "takeover" if decided_by_bots(row) else None


def rated(row: GameRow) -> bool:
    """A finished game between people (no bot seat, every seat a different player's) that
    the bots playing for them did not decide."""
    return row.status == "over" and row.result is not None and unrated(row) is None


def outcome(row: GameRow, seat: int) -> Literal["won", "lost", "draw", "aborted"] | None:
    if row.result is None:
        return None
    if row.result.get("ended") == "abort":
        return "aborted"
    winners = list(row.result.get("winners", []))
    if not winners or len(winners) == len(row.seats):
        return "draw"
    return "won" if seat in winners else "lost"


@dataclass
class Ratings:
    """Every player's OpenSkill rating per game, from the finished games in order."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    ratings: dict[tuple[str, str], PlackettLuceRating] = field(default_factory=dict)
    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)

    def apply(self, row: GameRow) -> None:
        if not rated(row) or row.table_id in self.done or row.result is None:
            return
        self.done.add(row.table_id)
        ids = [p for _, _, p in row.seats if p is not None]
        teams = _teams(row.game, row.options, len(ids))
        order = sorted(set(teams))
        groups = [[n for n in range(len(ids)) if teams[n] == t] for t in order]
        winners = set(row.result.get("winners", []))
        ranks: list[float] = [1 if winners & set(g) or not winners else 2 for g in groups]
        before = [[self.rating(ids[n], row.game) for n in g] for g in groups]
        after = self.model.rate(before, ranks=ranks)
        for g, new in zip(groups, after, strict=True):
            for n, rating in zip(g, new, strict=True):
                self.ratings[ids[n], row.game] = rating
                self.counts[ids[n], row.game] = self.counts.get((ids[n], row.game), 0) + 1

    def rating(self, player: str, game: str) -> PlackettLuceRating:
        found = self.ratings.get((player, game))
        return found if found is not None else self.model.rating()

    def shown(self, player: str, game: str) -> int | None:
        """The number shown next to the player's name, once it has a rated game."""
        found = self.ratings.get((player, game))
        return None if found is None else shown(found)

    def of(self, player: str) -> list[Rating]:
        return [Rating(game=game, rating=shown(r), mu=round(r.mu, 3),
                       sigma=round(r.sigma, 3), games=self.counts.get((pid, game), 0))
                for (pid, game), r in sorted(self.ratings.items()) if pid == player]


def shown(rating: PlackettLuceRating) -> int:
    return round(1500 + 24 * (rating.mu - 3 * rating.sigma))


# ---------------------------------------------------------------- the service


def new_code() -> str:
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
    return f"{letters[:5]}-{letters[5:]}"


def code_hash(code: str) -> str:
    return hash_token("".join(code.upper().split()).replace("-", ""))


class Players:
    """The players of the database: keys, pages and ratings."""

    def __init__(self, store: Store, db: Database) -> None:
        self.store = store
        self.db = db
        self.ratings = Ratings()
        #: the finished games with a player's seat at the last ``load``
        self.loaded = 0

    async def load(self) -> None:
        rows: list[GameRow] = await self.db.run(stored.finished_games)
        fresh = Ratings()
        for row in rows:
            fresh.apply(row)
        # in place: the rooms hold ``self.ratings.shown``
        self.ratings.ratings, self.ratings.counts, self.ratings.done = (
            fresh.ratings, fresh.counts, fresh.done)
        self.loaded = len(rows)
        log.info("%d rated games between players", len(self.ratings.done))

    async def refresh(self) -> None:
        """In a cluster, where other processes finish games too: the ratings worked out
        again from every finished game, in order, when the database holds another number
        of them than at the last load (one count; the whole load only after a change)."""
        if await self.db.run(stored.count_finished_games) != self.loaded:
            await self.load()

    def finished(self, room: Room) -> None:
        """A table's end is stored: its players' ratings move (pipeline.on_over)."""
        result = room.result()
        seats = [(s.kind, s.name, room.players[n]) for n, s in enumerate(room.table.seats)]
        made = [0] * len(seats)
        for seat, _ in room.table.moves:
            made[seat] += 1
        row = GameRow(room.id, room.game.name, "over", -1, room.table.created, "",
                      None if result is None else result.data(), seats,
                      dict(room.game.options), list(room.bot_moves), made)
        self.ratings.apply(row)

    async def create(self, name: str | None) -> tuple[PlayerRow, str]:
        key = secrets.token_urlsafe(24)
        player_id = secrets.token_urlsafe(9)
        row: PlayerRow = await self.db.run(lambda conn: stored.create_player(
            conn, player_id, name or "", hash_token(key)))
        log.info("player %s created", player_id)
        return row, key

    async def of_key(self, key: str | None, required: bool = True) -> PlayerRow | None:
        """The player of ``key``; player/bad-key when it is no key (or None when not
        ``required`` and no key was sent)."""
        if key is None or not key.strip():
            if required:
                raise Refusal("player/bad-key", f"send the player key as '{KEY_HEADER}'")
            return None
        digest = hash_token(key.strip())
        row: PlayerRow | None = await self.db.run(
            lambda conn: stored.player_of_key(conn, digest))
        if row is None:
            raise Refusal("player/bad-key", "that player key is not valid (revoked, or "
                                            "never given)")
        return row

    async def rename(self, player: PlayerRow, name: str) -> None:
        if name and name != player.name:
            await self.db.run(lambda conn: stored.rename(conn, player.id, name))

    async def transfer(self, player: PlayerRow) -> tuple[str, int]:
        code = new_code()
        expires = time.time() + TRANSFER_SECONDS
        await self.db.run(lambda conn: stored.set_transfer(conn, player.id, code_hash(code),
                                                           expires))
        return code, TRANSFER_SECONDS

    async def claim(self, code: str) -> tuple[PlayerRow, str]:
        key = secrets.token_urlsafe(24)
        digest = code_hash(code)
        row: PlayerRow | None = await self.db.run(lambda conn: stored.claim_transfer(
            conn, digest, time.time(), hash_token(key)))
        if row is None:
            raise Refusal("player/bad-code", "that transfer code is not valid (used, "
                                             "expired, or never given)")
        log.info("player %s: a key moved to another browser", row.id)
        return row, key

    async def revoke(self, player: PlayerRow, void_hash: str) -> str:
        """A new key, the only one of the player now; its seats' tokens are replaced by
        ``void_hash`` (``Rooms.void_player`` does the same in memory)."""
        key = secrets.token_urlsafe(24)
        await self.db.run(lambda conn: stored.revoke(conn, player.id, hash_token(key),
                                                     void_hash))
        log.info("player %s: keys revoked", player.id)
        return key

    async def page(self, player: PlayerRow, private: bool, summaries: Any = None
                   ) -> PlayerPage:
        finished: list[GameRow] = await self.db.run(
            lambda conn: stored.games_of(conn, player.id, finished=True, limit=100_000))
        stats: dict[str, Stats] = {}
        for row in finished:
            entry = stats.setdefault(row.game, Stats(game=row.game, played=0, won=0,
                                                     lost=0, drawn=0, rated=0))
            result = outcome(row, row.seat)
            if result == "aborted":
                continue            # an aborted game was never played out
            entry.played += 1
            if result == "won":
                entry.won += 1
            elif result == "lost":
                entry.lost += 1
            else:
                entry.drawn += 1
            entry.rated += rated(row)
        out = PlayerPage(player=PlayerInfo(id=player.id, name=player.name),
                         ratings=self.ratings.of(player.id),
                         stats=[stats[g] for g in sorted(stats)],
                         games=[self.entry(row, True) for row in finished[:100]])
        if private:
            unfinished: list[GameRow] = await self.db.run(
                lambda conn: stored.games_of(conn, player.id, finished=False))
            entries: list[GameEntry] = []
            for row in unfinished:
                game = self.entry(row, False)
                if summaries is not None:
                    summary = await summaries(row.table_id)
                    if summary is None:
                        continue
                    game.summary = summary
                entries.append(game)
            out.unfinished = entries
        return out

    def entry(self, row: GameRow, public: bool) -> GameEntry:
        try:
            title = cardtable.declaration(row.game).title
        except Exception:
            title = row.game
        seats = []
        for n, (kind, name, pid) in enumerate(row.seats):
            seat = GameSeat(seat=n, kind=kind, name=name)
            if public and pid is not None:
                seat.player = pid
            seats.append(seat)
        entry = GameEntry(table=row.table_id, game=row.game, title=title, status=row.status,
                          seat=row.seat, created=row.created, updated=row.updated,
                          seats=seats)
        if row.status == "over" and row.result is not None:
            entry.outcome = outcome(row, row.seat)
            entry.result = Result(**row.result)
            entry.rated = rated(row)
            if not entry.rated:
                entry.unrated = unrated(row)
            entry.replay = f"/t/{row.table_id}/replay"
        return entry
