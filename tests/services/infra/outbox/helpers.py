"""The outbox on a real SQLite file, shared by its queue tests: a clock and a database with two players
whose languages differ, the outbox on them, and a message put in the queue."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import ManualClock, to_db
from services.infra import outbox
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import Outbox
from store.connection import Connection
from store.db import Database
from store.migrate import migrate

START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
CHANNEL = Target("channel", 1001, guild_id=None)
ALICE, BOB, CAROL = 11, 12, 13  # Alice chose English, Bob only has a Discord locale, Carol is unknown


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "bot.sqlite3")
    await database.open()
    await migrate(await database.raw_writer())

    def players(conn: Connection) -> None:
        conn.execute(
            "INSERT INTO players (id, created_at, locale, last_locale)"
            " VALUES (?, ?, 'en', 'fr'), (?, ?, NULL, 'fr')",
            (ALICE, to_db(START), BOB, to_db(START)),
        )

    await database.write(players)
    yield database
    await database.close()


@pytest.fixture
def box(db: Database, clock: ManualClock, registry: GameRegistry) -> Outbox:
    return Outbox(db, clock, registry)


def say(key: str, **params: object) -> MessageSpec:
    return MessageSpec(content=Text(key, dict(params)))


async def put(db: Database, clock: ManualClock, target: Target, spec: MessageSpec) -> int:
    now = clock.now()
    return await db.write(lambda conn: outbox.enqueue(conn, now, target, spec))
