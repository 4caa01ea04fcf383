"""The block's steps for a game played against the AI outside any server (as HOSS's ranked battles are): a
match created live in DMs, moves a game applied itself logged without a save, a deadline folded into the
step's one save, and the public message changed without a save."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from core.clock import ManualClock
from core.errors import NotFound
from services.infra.messages import MessageSpec, Target
from services.infra.outbox import enqueue
from services.shared.matches import Match, Matches, MatchRules, Played
from store.connection import Connection
from store.db import Database
from tests.services.shared.conftest import ALICE, GUILD, NimMatches, count
from tests.services.shared.nim import Nim, NimState

pytestmark = pytest.mark.usefixtures("players")

SOLO = MatchRules("solo", Nim(), numbered=True)


@pytest.fixture
def solo() -> NimMatches:
    return Matches(SOLO, Match)


async def in_dms(db: Database, clock: ManualClock, solo: NimMatches) -> Match[NimState]:
    def unit(conn: Connection) -> Match[NimState]:
        state = Nim().new_game([], 0, {"pile": 9})
        return solo.create(
            conn,
            clock.now(),
            guild_id=None,
            channel_id=None,
            seats=(ALICE, None),
            status="live",
            seed=4,
            setup={"pile": 9},
            state=state,
            data={"level": 2},
        )

    return await db.write(unit)


async def test_a_match_created_live_in_dms_answers_only_there(
    db: Database, clock: ManualClock, solo: NimMatches
) -> None:
    match = await in_dms(db, clock, solo)
    assert (match.status, match.version, match.number, match.seed) == ("live", 0, 1, 4)
    assert (match.guild_id, match.channel_id, match.seats, dict(match.data)) == (
        None,
        None,
        (ALICE, None),
        {"level": 2},
    )
    assert match.state == Nim().new_game([], 0, {"pile": 9})
    assert await db.read(lambda conn: solo.load_number(conn, 1, guild=None)) == match
    with pytest.raises(NotFound):
        await db.read(lambda conn: solo.load_number(conn, 1, guild=GUILD))
    with pytest.raises(ValueError, match="belongs to no server"):
        _ = match.server
    with pytest.raises(ValueError, match="has no channel"):
        _ = match.channel
    second = await in_dms(db, clock, solo)
    assert second.number == 2


async def test_moves_a_game_applied_itself_are_logged_without_a_save(
    db: Database, clock: ManualClock, solo: NimMatches
) -> None:
    match = await in_dms(db, clock, solo)
    moves = [Played(0, {"take": 1}, "skip", {"pause": 1}), Played(1, {"take": 2}, "ai")]
    await db.write(lambda conn: solo.record(conn, clock.now(), match.id, moves))
    await db.write(lambda conn: solo.record(conn, clock.now(), match.id, [Played(0, {"take": 3}, "timeout")]))
    logged = await db.read(lambda conn: solo.moves(conn, match.id))
    assert [(m.seq, m.seat, m.action, m.author, dict(m.data)) for m in logged] == [
        (1, 0, {"take": 1}, "skip", {"pause": 1}),
        (2, 1, {"take": 2}, "ai", {}),
        (3, 0, {"take": 3}, "timeout", {}),
    ]
    assert (await db.read(lambda conn: solo.load_trusted(conn, match.id))).version == 0


async def test_a_deadline_goes_into_the_callers_one_save(
    db: Database, clock: ManualClock, solo: NimMatches
) -> None:
    match = await in_dms(db, clock, solo)
    due = clock.now() + timedelta(minutes=2)

    def arm(conn: Connection, current: Match[NimState], when: datetime | None) -> Match[NimState]:
        changes = solo.deadline(conn, clock.now(), current, "solo.timeout", when, {"match": current.id})
        return solo.save(conn, current, clock.now(), data={"level": 3}, **changes)

    first = await db.write(lambda conn: arm(conn, match, due))
    assert (first.version, first.deadline_at) == (1, due)
    second = await db.write(lambda conn: arm(conn, first, due + timedelta(minutes=2)))
    assert second.version == 2
    states = await db.read(
        lambda conn: conn.execute(
            "SELECT id, state FROM jobs WHERE kind = 'solo.timeout' ORDER BY id"
        ).fetchall()
    )
    assert [tuple(s) for s in states] == [(first.deadline_job, "cancelled"), (second.deadline_job, "due")]
    cleared = await db.write(lambda conn: arm(conn, second, None))
    assert (cleared.deadline_at, cleared.deadline_job) == (None, None)
    assert await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM jobs WHERE state = 'due'")) == 0


async def test_the_public_message_changes_without_a_save(
    db: Database, clock: ManualClock, solo: NimMatches
) -> None:
    match = await in_dms(db, clock, solo)

    def unit(conn: Connection) -> int:
        item = enqueue(conn, clock.now(), Target("channel", 66, guild_id=None), MessageSpec())
        solo.set_message(conn, match.id, item)
        return item

    item = await db.write(unit)
    again = await db.read(lambda conn: solo.load_trusted(conn, match.id))
    assert (again.message_item, again.version) == (item, 0)
