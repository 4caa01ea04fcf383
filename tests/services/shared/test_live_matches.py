"""A player's live matches are found among the game's open ones, not by reading every match the player
ever sat in: the HOSS ranked start and ladder, the duels' and Chocobataille's look-ups ask at every
command, and a player's history only grows (0.37 ms at 2,000 finished battles)."""

from __future__ import annotations

import sqlite3
from typing import cast

import pytest

from core.clock import ManualClock
from services.shared.match_sql import LIVE_NUMBER, LIVE_OF
from services.shared.matches import Match
from store.connection import Connection
from store.db import Database
from tests.services.shared.conftest import ALICE, BOB, NimMatches, live
from tests.services.shared.nim import NimState

pytestmark = pytest.mark.usefixtures("players")


async def steps_of_live_of(db: Database, matches: NimMatches, player: int) -> tuple[int, list[int]]:
    """SQLite's virtual machine steps `live_of` runs (every row it visits costs some), and what it found."""

    def unit(conn: Connection) -> tuple[int, list[int]]:
        raw = cast(sqlite3.Connection, conn)
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0  # go on

        raw.set_progress_handler(step, 1)
        try:
            found = matches.live_of(conn, player)
        finally:
            raw.set_progress_handler(None, 1)
        return steps[0], [m.id for m in found]

    return await db.read(unit)


async def finished(db: Database, clock: ManualClock, matches: NimMatches) -> Match[NimState]:
    match = await live(db, clock, matches)
    return await db.write(lambda conn: matches.end(conn, clock.now(), match, "over", result={"winner": 0}))


@pytest.mark.sqlite_only("SQLite's virtual machine steps")
async def test_a_players_live_match_is_found_without_reading_their_finished_ones(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    current = await live(db, clock, matches)
    await finished(db, clock, matches)
    few, found = await steps_of_live_of(db, matches, ALICE)
    assert found == [current.id]

    for _ in range(30):
        await finished(db, clock, matches)
    many, found = await steps_of_live_of(db, matches, ALICE)
    assert found == [current.id]
    assert many == few  # the 30 finished matches are not visited (before: 13 steps each)
    assert (await steps_of_live_of(db, matches, BOB))[1] == [current.id]


@pytest.mark.sqlite_only("SQLite's query plan")
async def test_the_live_matches_are_read_from_the_open_matches_index_in_its_order(db: Database) -> None:
    sql = f"EXPLAIN QUERY PLAN SELECT * FROM matches WHERE game = ? AND {LIVE_OF} ORDER BY id"
    plan = await db.read(
        lambda conn: " ".join(str(row[-1]) for row in conn.execute(sql, ("nim", ALICE, None, None)))
    )
    assert "INDEX matches_open" in plan, plan
    assert "TEMP B-TREE" not in plan, plan  # the ids come sorted from the index


@pytest.mark.sqlite_only("SQLite's query plan")
async def test_a_live_number_is_read_from_the_open_matches_index_in_its_order(db: Database) -> None:
    plan = await db.read(
        lambda conn: " ".join(
            str(row[-1])
            for row in conn.execute("EXPLAIN QUERY PLAN " + LIVE_NUMBER, ("nim", ALICE, None, None))
        )
    )
    assert "INDEX matches_open" in plan, plan
    assert "TEMP B-TREE" not in plan, plan
