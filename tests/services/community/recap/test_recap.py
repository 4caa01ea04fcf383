"""The weekly recap: every Monday 09:00 (Paris) each server with an announcements channel gets its week
in one embed, only the sections that had something, the week's most prized card as the picture; a silent
week posts nothing; a Monday missed while the bot was down is posted once at start-up."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, to_db
from services.community.drops.pool import DropPrize
from services.community.recap.providers import PLATFORM_PROVIDERS
from services.community.recap.service import RECAP_JOB, RecapService
from services.hoss import GAME as HOSS
from services.infra.catalogs import DATA_DIR, load_all
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from services.pillz.ladder import record_friend_result
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

PARIS = ZoneInfo("Europe/Paris")
BUSY, SILENT, NO_CHANNEL = 8_000, 8_001, 8_002
ALICE, BOB = 201, 202
WEDNESDAY = datetime(2026, 3, 4, 15, 0, tzinfo=PARIS)
NEXT_MONDAY_9 = datetime(2026, 3, 9, 9, 0, tzinfo=PARIS)


@pytest.fixture
async def recap(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> AsyncIterator[tuple[Scheduler, RecapService]]:
    clock.set(WEDNESDAY)
    scheduler = Scheduler(db, clock, PARIS)
    catalogs = load_all(DATA_DIR, every_game().all_games())
    service = RecapService(scheduler, registry, catalogs, (*PLATFORM_PROVIDERS, *HOSS.recap_sections))
    yield scheduler, service
    await scheduler.stop()


async def a_busy_week(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    now = clock.now()

    def unit(conn: Connection) -> None:
        for guild, channel in ((BUSY, 1), (SILENT, 2), (NO_CHANNEL, None)):
            conn.execute(
                "INSERT INTO guild_settings (guild_id, announce_channel_id, updated_at) VALUES (?, ?, ?)",
                (guild, channel, to_db(now)),
            )
        for player in (ALICE, BOB):
            ensure_player(conn, player, now, registry)
        for duel in (1, 2):
            record_friend_result(conn, now, registry, BUSY, duel, (ALICE, BOB), 0)  # Pillz: alice wins twice
            record_friend_result(conn, now, registry, NO_CHANNEL, 10 + duel, (ALICE, BOB), 0)
        rare = {"copy": ["diamant", 0, False], "rarity": {"key": "hoss.rarity.diamant", "params": {}}}
        common = {"copy": ["or", 0, False], "rarity": {"key": "hoss.rarity.or", "params": {}}}
        for player, card, kept in ((BOB, "hum_lancier_1", common), (ALICE, "hum_lancier_1", rare)):
            conn.execute(
                "INSERT INTO showoff_log (guild_id, player_id, game, card_key, copy, shown_at)"
                " VALUES (?, ?, 'hoss', ?, ?, ?)",
                (BUSY, player, card, json.dumps(kept), to_db(now)),
            )
        prize = DropPrize(currency="immortals_gold", amount=10)
        conn.execute(
            "INSERT INTO drops (guild_id, channel_id, game, prize, status, seed, commitment, winner_id, won_day,"
            " day, opened_at, closes_at) VALUES (?, 1, 'immortals', ?, 'drawn', ?, ?, ?, '2026-03-04', '2026-03-04', ?, ?)",
            (BUSY, prize.to_json(), "0" * 64, "1" * 64, BOB, to_db(now), to_db(now)),
        )

    await db.write(unit)


async def recaps(db: Database) -> list[tuple[int, dict[str, Any]]]:
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT target_id, payload FROM outbox WHERE target_kind = 'channel' ORDER BY id"
        ).fetchall()
    )
    return [(int(target), json.loads(payload)) for target, payload in rows]


async def test_monday_morning_posts_each_servers_week_once(
    db: Database, clock: ManualClock, recap: tuple[Scheduler, RecapService], registry: GameRegistry
) -> None:
    scheduler, _ = recap
    await a_busy_week(db, clock, registry=registry)
    await scheduler.run_due()
    clock.set(NEXT_MONDAY_9 - timedelta(minutes=1))
    await scheduler.run_due()
    assert await recaps(db) == []

    clock.set(NEXT_MONDAY_9)
    await scheduler.run_due()
    await scheduler.run_due()

    ((channel, post),) = await recaps(db)
    assert channel == 1  # the busy server's; the silent one and the one without a channel get nothing
    (embed,) = post["embeds"]
    assert embed["title"]["key"] == "recap.title"
    keys = [field["name"]["key"] for field in embed["fields"]]
    assert keys == ["recap.players.title", "recap.pulls.title", "recap.drops.title"]
    players = embed["fields"][0]["value"]["params"]["items"]
    assert len(players) == 1  # only Pillz had wins
    assert embed["image"] == f"recap-{BUSY}.png"
    (strip,) = post["strips"]
    assert strip["cards"] == [["hum_lancier_1", "diamant", 0, False]]  # the most prized pull of the week


async def test_a_monday_missed_while_down_is_posted_once_at_start_up(
    db: Database, clock: ManualClock, recap: tuple[Scheduler, RecapService], registry: GameRegistry
) -> None:
    scheduler, _ = recap
    await a_busy_week(db, clock, registry=registry)
    await scheduler.run_due()  # the series' first occurrence exists

    clock.set(NEXT_MONDAY_9 + timedelta(days=1, hours=3))  # down until Tuesday
    await scheduler.run_due()
    await scheduler.run_due()

    assert len(await recaps(db)) == 1
    done = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = 'done'", (RECAP_JOB,)
        ).fetchone()[0]
    )
    assert done == 1


async def test_a_week_with_nothing_posts_nothing(
    db: Database, clock: ManualClock, recap: tuple[Scheduler, RecapService], registry: GameRegistry
) -> None:
    scheduler, _ = recap
    await a_busy_week(db, clock, registry=registry)
    await scheduler.run_due()
    clock.set(NEXT_MONDAY_9 + timedelta(days=7))  # the week after the busy one was silent
    await scheduler.run_due()
    await scheduler.run_due()

    assert len(await recaps(db)) == 1  # the busy week's, none for the silent one
