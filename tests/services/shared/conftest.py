"""The shared match block on a real SQLite file, played with the test-only Nim engine."""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from services.infra.scheduler import Scheduler
from services.shared.matches import Match, Matches, MatchRules
from store.connection import Connection
from store.db import Database
from tests.services.shared.nim import Nim, NimState

ALICE, BOB, CAROL = 11, 12, 13
GUILD, OTHER_GUILD, CHANNEL = 5, 7, 6
NimMatches = Matches[NimState, Match[NimState]]


@pytest.fixture
def matches() -> NimMatches:
    return Matches(MatchRules("nim", Nim()), Match)


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
async def players(db: Database, add_player: Callable[[Connection, int], None]) -> None:
    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB, CAROL):
            add_player(conn, player)

    await db.write(unit)


async def live(db: Database, clock: ManualClock, matches: NimMatches, pile: int = 21) -> Match[NimState]:
    """A live match between alice (seat 0, to move first) and bob."""

    def unit(conn: Connection) -> Match[NimState]:
        match = matches.create(conn, clock.now(), guild_id=GUILD, channel_id=CHANNEL, seats=(ALICE, BOB))
        state = Nim().new_game([], 0, {"pile": pile})
        return matches.start(conn, clock.now(), match, seed=0, setup={"pile": pile}, state=state)

    return await db.write(unit)


def count(conn: Connection, sql: str, *args: object) -> int:
    return int(conn.execute(sql, args).fetchone()[0])
