"""A tournament match's end, told by its game, and the tournaments' results others read (the weekly
recap: `finished_between`).

A game calls `match_over` in the unit that ends a match it started for a tournament (`GameSpec.
tournament`), so the table is decided exactly when the match ends, restarts included: the table's result
(once: a conditional UPDATE), the picture post's edit, and, when it was the round's last table, the job
that closes the round (`STEP_JOB`, run by the tournament service, which reaches the games' next matches).
A match of a tournament cancelled meanwhile, or of no tournament, changes nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from core.clock import from_db, to_db
from services.community.tournaments import posts, rounds, store
from services.community.tournaments.store import TableRow, Tournament
from services.infra import scheduler
from services.infra.games import GameRegistry
from store.connection import Connection

STEP_JOB = "tournament:step"  # a round's tables are all decided: close it, open the next or finish


def match_over(
    conn: Connection, now: datetime, registry: GameRegistry, match_id: int, winner_seat: int | None
) -> None:
    """The game's match `match_id` ended with `winner_seat` winning (None: a draw); `registry` names
    the games in the posts."""
    found = store.table_of_match(conn, match_id)
    if found is None:
        return
    tournament_id, row = found
    t = store.load_trusted(conn, tournament_id)
    if t.status != "running" or row.decided:
        return
    record(conn, now, t, registry, row, rounds.played_out(t, row, winner_seat))


def record(
    conn: Connection,
    now: datetime,
    t: Tournament,
    registry: GameRegistry,
    row: TableRow,
    decision: rounds.Decision,
) -> bool:
    """Decide `row` (once), show it on the picture, and when the round has no table left to play, arm
    the step that closes it. False when the table was decided already."""
    decided = store.decide(
        conn, now, t.id, row, points=decision.points, winner=decision.winner, reason=decision.reason
    )
    if decided is None:
        return False
    t = show(conn, now, t, registry)
    if row.round == t.round and all(r.decided for r in store.tables(conn, t.id, t.round)):
        arm_step(conn, now, t)
    return True


def show(conn: Connection, now: datetime, t: Tournament, registry: GameRegistry) -> Tournament:
    """The picture post edited to the tournament as it stands (a new post saved on the tournament when
    the last one cannot be edited)."""
    item = posts.show_picture(conn, now, t, registry, store.entries(conn, t.id), store.tables(conn, t.id))
    return t if item is None else store.save(conn, t, post_item=item)


def arm_step(conn: Connection, now: datetime, t: Tournament) -> None:
    """The job that closes the round, due now, once per round (keyed by tournament and round)."""
    scheduler.schedule(
        conn, now, STEP_JOB, now, {"tournament": t.id, "round": t.round}, period_key=f"{t.id}:{t.round}"
    )


# --- what others read ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Podium:
    place: int
    player_id: int  # negative: a player who erased their data since
    prize: int


@dataclass(frozen=True)
class Finished:
    """A finished tournament of a server, for a recap: what it was and who stood on its podium."""

    id: int
    game: str
    format: str
    day: date
    ended_at: datetime
    players: int
    podium: tuple[Podium, ...]


def finished_between(conn: Connection, guild_id: int, start: datetime, end: datetime) -> list[Finished]:
    """The tournaments of `guild_id` that finished in [start, end), oldest first, with their podiums."""
    rows = conn.execute(
        "SELECT id, game, format, day, ended_at FROM tournaments WHERE guild_id = ? AND status = 'finished'"
        " AND ended_at >= ? AND ended_at < ? ORDER BY ended_at, id",
        (guild_id, to_db(start), to_db(end)),
    ).fetchall()
    found = []
    for row in rows:
        entries = store.entries(conn, int(row[0]))
        podium = sorted(
            (
                Podium(e.place, e.player_id, e.prize or 0)
                for e in entries
                if e.place is not None and e.place <= 3
            ),
            key=lambda p: p.place,
        )
        found.append(
            Finished(
                int(row[0]),
                str(row[1]),
                str(row[2]),
                date.fromisoformat(str(row[3])),
                from_db(row[4]),
                len(entries),
                tuple(podium),
            )
        )
    return found
