"""What several processes tell each other through PostgreSQL (here two `PostgresDatabase` handles in one
OS process; tests/postgresql/test_fleet_processes.py runs real processes): a commit's NOTIFY wakes the
other process, a silent peer's outbox claims are taken over, a clean shutdown hands its claims back."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from engine.hoss.catalog import HossCatalog
from services.community.admin import Actor, AdminService
from services.community.privacy import PrivacyService
from services.hoss.collection import HossCollection
from services.infra import ledger, outbox
from services.infra.access import ACCESS_TOPIC
from services.infra.catalogs import DATA_DIR, CardIndex, load_catalog
from services.infra.games import GameRegistry
from services.infra.guild_settings import GUILD_TOPIC, GuildSettingsService
from services.infra.heartbeat import DEAD_AFTER, PERIOD, Heartbeat
from services.infra.ledger import CARDS_TOPIC
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import CLAIM, Outbox
from services.infra.players import LOCALE_TOPIC, PlayerService, ensure_player
from services.pillz.economy import CURRENCY as PILLZ_COINS
from store.connection import Connection
from store.db import announce
from store.postgres import PostgresDatabase

START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


def _post(conn: Connection, now: datetime, channel: int) -> int:
    return outbox.enqueue(
        conn, now, Target("channel", channel, guild_id=None), MessageSpec(content=Text.raw(f"c{channel}"))
    )


async def _woken(event: asyncio.Event, within: float) -> float | None:
    started = time.monotonic()
    try:
        await asyncio.wait_for(event.wait(), within)
    except TimeoutError:
        return None
    return time.monotonic() - started


async def test_a_commit_wakes_the_other_process_and_a_rollback_does_not(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    first, second = processes
    clock = ManualClock(START)
    here, there = asyncio.Event(), asyncio.Event()
    calls: list[str] = []

    def heard(name: str, event: asyncio.Event) -> None:
        calls.append(name)
        event.set()

    first.subscribe(outbox.TOPIC, partial(heard, "first", here))
    second.subscribe(outbox.TOPIC, partial(heard, "second", there))

    def refused(conn: Connection) -> None:
        _post(conn, clock.now(), 1)
        raise ValueError("rolled back")

    with pytest.raises(ValueError, match="rolled back"):
        await first.write(refused)
    assert await _woken(there, 0.5) is None  # a NOTIFY is sent only by a commit

    await first.write(partial(_post, now=clock.now(), channel=1))
    took = await _woken(there, 5.0)
    assert took is not None
    assert took < 1.0, took
    await asyncio.sleep(0.2)  # the committing process hears its own NOTIFY too, and ignores it
    # once each; in either order, since the NOTIFY may reach the other process before the committing one
    # is back from its worker thread (seen under load)
    assert sorted(calls) == ["first", "second"]

    other = asyncio.Event()  # any topic a unit announces travels: a cache's "forget" as well
    second.subscribe("cache", other.set)
    await first.write(lambda conn: announce(conn, "cache"))
    assert await _woken(other, 5.0) is not None


async def test_a_silent_peers_claims_are_taken_over_before_they_run_out(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """The first process claims ten items and goes silent. While it is still connected it is only slow
    (its beats queued behind other units): its claims stay. Once its connection is gone too (killed), the
    second one's next beat releases them, so its deliverer sends them without waiting out the 5-minute
    claims."""
    dead, alive = processes
    clock = ManualClock(START)
    for channel in range(1, 11):
        await dead.write(partial(_post, now=clock.now(), channel=channel))
    await Heartbeat(dead, clock).beat()
    await Heartbeat(alive, clock).beat()
    claimed = await Outbox(dead, clock, registry).due()
    assert len(claimed) == 10
    survivor = Outbox(alive, clock, registry)
    assert await survivor.due() == []

    clock.advance(DEAD_AFTER * PERIOD)
    await Heartbeat(alive, clock).beat()
    assert await survivor.due() == []  # DEAD_AFTER periods exactly: still alive as far as anyone knows
    clock.advance(timedelta(seconds=1))
    heart = Heartbeat(alive, clock)
    await heart.beat()
    assert await survivor.due() == []  # silent, but connected: slow, not dead
    assert heart.fleet == 2  # and still counted in the fleet that shares the rate limit
    await dead.close()
    await heart.beat()
    assert heart.fleet == 1
    assert clock.now() - START < CLAIM
    taken = await survivor.due()
    assert sorted(item.id for item in taken) == sorted(item.id for item in claimed)


async def test_a_clean_shutdown_hands_its_claims_back(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    leaving, staying = processes
    clock = ManualClock(START)
    for channel in range(1, 4):
        await leaving.write(partial(_post, now=clock.now(), channel=channel))
    mine = Outbox(leaving, clock, registry)
    assert len(await mine.due()) == 3
    assert await Outbox(staying, clock, registry).due() == []
    assert await mine.release() == 3
    assert len(await Outbox(staying, clock, registry).due()) == 3


async def test_a_language_change_reaches_the_other_processs_cache(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """Process B knows the player (a command cached their language, so its next commands read nothing);
    process A's `/settings` change commits, and B's cache forgets the player within well under a second:
    B's next command reads, and answers in, the new language. A player erased in A is forgotten too."""
    a_db, b_db = processes
    clock = ManualClock(START)
    a, b = (
        PlayerService(a_db, clock, registry),
        PlayerService(b_db, clock, registry),
    )
    assert await b.touch(7, "fr") is None
    assert await b.touch(8, "fr") is None
    assert b.locales.get(7) is not None
    reads = b_db.reads + b_db.batches
    assert await b.touch(7, "fr") is None  # from the cache: no trip to the database
    assert b_db.reads + b_db.batches == reads

    heard = asyncio.Event()  # subscribed after B's cache: set once the cache has forgotten
    b_db.subscribe_keys(LOCALE_TOPIC, lambda key: heard.set())
    await a.set_locale(7, "en")
    took = await _woken(heard, 5.0)  # from the commit (set_locale has returned)
    assert took is not None
    assert took < 0.5, took
    assert b.locales.get(7) is None
    assert b.locales.get(8) is not None  # only that player
    assert await b.touch(7, "fr") == "en"
    print({"forgotten_after_ms": round(took * 1000, 1)})

    heard.clear()
    assert await PrivacyService(a_db, clock, registry).erase(8)
    assert await _woken(heard, 5.0) is not None
    assert b.locales.get(8) is None


async def test_a_lost_listen_connection_empties_the_language_cache(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """What was announced while a process was not listening is lost: it forgets every player instead."""
    first, second = processes
    players = PlayerService(second, ManualClock(START), registry)
    heard: list[str | None] = []
    told = asyncio.Event()

    def hear(key: str | None) -> None:
        heard.append(key)
        told.set()

    second.subscribe_keys(LOCALE_TOPIC, hear)
    await players.touch(9, "fr")
    assert players.locales.get(9) is not None
    listening = (  # the connection that LISTENs and holds a live lock (store/postgres.py)
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = current_database() AND query LIKE 'SELECT pg_advisory_lock%'"
    )
    killed = await first.write(lambda conn: conn.execute(listening).fetchall())
    assert len(killed) == 2
    assert await _woken(told, 10.0) is not None  # listening again after 0.5 s
    assert heard == [None]
    assert players.locales.get(9) is None


async def test_a_ban_reaches_the_other_processs_gate(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """Process B keeps the server's pauses and bans (every game interaction asks); a ban made in process A
    reaches B's cache within well under a second, and B's next interaction of that player is refused."""
    a_db, b_db = processes
    clock = ManualClock(START)
    cards = CardIndex({})
    a, b = (
        AdminService(a_db, clock, registry, cards),
        AdminService(b_db, clock, registry, cards),
    )
    await b.check_access(5, "pillz", 7)
    reads = b_db.reads
    await b.check_access(5, "pillz", 7)
    assert b_db.reads == reads  # kept

    heard = asyncio.Event()  # subscribed after B's cache: set once the cache has forgotten
    b_db.subscribe_keys(ACCESS_TOPIC, lambda key: heard.set())
    await a.ban(Actor(user_id=77, guild_id=5, request=1), 7, "triche")
    took = await _woken(heard, 5.0)
    assert took is not None
    assert took < 0.5, took
    with pytest.raises(NotAllowed, match=r"admin\.banned"):
        await b.check_access(5, "pillz", 7)


async def test_a_servers_settings_change_reaches_the_other_processs_cache(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """Process B keeps the server's settings (the language of its public posts); /setup in process A
    reaches B's cache within well under a second."""
    a_db, b_db = processes
    clock = ManualClock(START)
    a, b = GuildSettingsService(a_db, clock), GuildSettingsService(b_db, clock)
    assert (await b.get(5)).locale is None
    reads = b_db.reads
    await b.get(5)
    assert b_db.reads == reads  # kept

    heard = asyncio.Event()  # subscribed after B's cache: set once the cache has forgotten
    b_db.subscribe_keys(GUILD_TOPIC, lambda key: heard.set())
    await a.update(5, "locale", "en")
    took = await _woken(heard, 5.0)
    assert took is not None
    assert took < 0.5, took
    assert (await b.get(5)).locale == "en"


async def test_a_copy_minted_in_one_process_shows_on_the_others_next_collection_page(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """Process B keeps the player's visible HOSS copies; a copy minted by process A reaches B's next
    page within well under a second (CARDS_TOPIC by NOTIFY)."""
    a_db, b_db = processes
    clock = ManualClock(START)
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    b = HossCollection(b_db, catalog)
    await a_db.write(lambda conn: ensure_player(conn, 9, clock.now(), registry))
    assert (await b.list_copies(9)).total == 0
    reads = b_db.reads
    await b.list_copies(9)
    assert b_db.reads == reads  # kept

    heard = asyncio.Event()  # subscribed after B's collection: set once it has forgotten the player
    b_db.subscribe_keys(CARDS_TOPIC, lambda key: heard.set())
    await a_db.write(
        lambda conn: ledger.mint_card(conn, clock.now(), 9, "hoss", "sq_guerrier_1", ledger.Movement("test"))
    )
    took = await _woken(heard, 5.0)
    assert took is not None
    assert took < 0.5, took
    assert (await b.list_copies(9)).total == 1


async def test_gold_paid_in_one_process_shows_on_the_others_next_profile(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """Process B keeps the player's /profile; gold credited by process A reaches B's next profile within
    well under a second (WALLETS_TOPIC by NOTIFY)."""
    a_db, b_db = processes
    clock = ManualClock(START)
    b = PlayerService(b_db, clock, registry)
    b.check_kept_profiles = False  # its fresh reads would hide what was kept
    coins = PILLZ_COINS.name_key
    heard = asyncio.Event()  # subscribed after B's players: set once it has forgotten the player
    b_db.subscribe_keys(ledger.WALLETS_TOPIC, lambda key: heard.set())
    await a_db.write(lambda conn: ensure_player(conn, 10, clock.now(), registry))  # the starting coins
    assert await _woken(heard, 5.0) is not None  # a read racing with that NOTIFY would not be kept
    heard.clear()
    before = await b.profile(10, create=False)
    assert before is not None
    reads = b_db.reads
    assert await b.profile(10, create=False) == before
    assert b_db.reads == reads  # kept

    paid = ledger.Movement("test")
    await a_db.write(lambda conn: ledger.credit(conn, clock.now(), 10, PILLZ_COINS.code, 7, paid))
    took = await _woken(heard, 5.0)
    assert took is not None
    assert took < 0.5, took
    after = await b.profile(10, create=False)
    assert after is not None
    assert dict(after.wallets)[coins] == dict(before.wallets)[coins] + 7
    assert b_db.reads == reads + 1
