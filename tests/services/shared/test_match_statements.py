"""What the match steps cost in statements (issue 39), each SQL statement ~30 µs of the writer's CPU: a
match is read with its seats in one statement, a record of no move runs none, a move takes its number in
its own insert, a start reads the live match's number and the next one at once and its insert writes
that number and the deadline armed before it."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from typing import Any, cast

import pytest

from core.clock import ManualClock
from services.infra import scheduler as jobs
from services.shared.matches import Match, Matches, MatchRules, Played
from store.connection import Connection
from store.db import Database
from tests.services.shared.conftest import ALICE, BOB, CHANNEL, GUILD, NimMatches, live
from tests.services.shared.nim import Nim, NimState

pytestmark = pytest.mark.usefixtures("players")


def traced(conn: Connection) -> list[str]:
    statements: list[str] = []
    cast(sqlite3.Connection, conn).set_trace_callback(statements.append)
    return statements


def against_ai(matches: NimMatches, conn: Connection, clock: ManualClock, **options: Any) -> Match[NimState]:
    """Alice's live match against the AI, created with no challenge."""
    state = Nim().new_game([], 0, {"pile": 9})
    return matches.create(
        conn,
        clock.now(),
        guild_id=GUILD,
        channel_id=CHANNEL,
        seats=(ALICE, None),
        status="live",
        state=state,
        **options,
    )


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_each_move_takes_its_number_in_its_own_insert_and_no_move_runs_nothing(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    def unit(conn: Connection) -> list[str]:
        made = against_ai(matches, conn, clock)
        statements = traced(conn)
        matches.record(conn, clock.now(), made.id, [])
        matches.record(conn, clock.now(), made.id, [Played(0, {"take": 1}, "player")] * 2)
        matches.record(conn, clock.now(), made.id, [Played(1, {"take": 2}, "ai")])
        cast(sqlite3.Connection, conn).set_trace_callback(None)
        assert [(m.seq, m.seat) for m in matches.moves(conn, made.id)] == [(1, 0), (2, 0), (3, 1)]
        return statements

    statements = await db.write(unit)
    assert [s.split(" ")[0] for s in statements] == ["INSERT"] * 3  # one per move, no read of the last number


async def test_moves_recorded_later_follow_the_last_one(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    moves = [Played(0, {"take": 1}, "player")]
    await db.write(lambda conn: matches.record(conn, clock.now(), match.id, moves))
    await db.write(lambda conn: matches.record(conn, clock.now(), match.id, moves * 2))
    seqs = await db.read(lambda conn: [m.seq for m in matches.moves(conn, match.id)])
    assert seqs == [1, 2, 3]


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_match_is_read_with_its_seats_in_one_statement(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    ai = await db.write(
        lambda conn: matches.create(
            conn, clock.now(), guild_id=GUILD, channel_id=CHANNEL, seats=(None, ALICE)
        )
    )

    def unit(conn: Connection) -> list[str]:
        statements = traced(conn)
        assert matches.load(conn, match.id, guild=GUILD) == match
        assert matches.load_trusted(conn, ai.id).seats == (None, ALICE)
        assert [m.id for m in matches.live_of(conn, ALICE)] == [match.id]
        cast(sqlite3.Connection, conn).set_trace_callback(None)
        return statements

    assert len(await db.read(unit)) == 3  # one per read, the seats in it


async def test_a_start_reads_the_live_number_and_the_next_and_its_insert_writes_both_and_the_deadline(
    db: Database, clock: ManualClock
) -> None:
    numbered: NimMatches = Matches(MatchRules("nim", Nim(), numbered=True), Match)
    due = clock.now() + timedelta(minutes=2)

    def start(conn: Connection) -> Match[NimState]:
        live, number = numbered.live_and_next(conn, ALICE)
        assert live is None
        job = jobs.schedule(conn, clock.now(), "nim:timeout", due, {"number": number})
        return against_ai(
            numbered, conn, clock, number=number, deadline={"deadline_at": due, "deadline_job": job}
        )

    first = await db.write(start)
    assert await db.read(lambda conn: numbered.load_trusted(conn, first.id)) == first
    assert (first.number, first.deadline_at) == (1, due)
    assert await db.read(lambda conn: numbered.live_and_next(conn, ALICE)) == (1, 2)
    assert await db.read(lambda conn: numbered.live_number(conn, ALICE)) == 1
    assert await db.read(lambda conn: numbered.live_number(conn, BOB)) is None
    with pytest.raises(ValueError, match="numbered"):
        await db.write(
            lambda conn: numbered.create(
                conn, clock.now(), guild_id=GUILD, channel_id=CHANNEL, seats=(BOB, None), number=2
            )
        )
