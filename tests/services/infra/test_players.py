"""Players appear on first use, exactly once, with the starting wallets of every registered game."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from core.clock import ManualClock
from core.errors import BadInput
from services.infra.games import Currency, GameRegistry, GameSpec, SummaryLine
from services.infra.players import PlayerService, ensure_player
from store.connection import Connection
from store.db import Database

Conservation = Callable[[Connection], None]
COINS = Currency("zz_test_coins", "currency.zz_test_coins", starting=100)
TOKENS = Currency("zz_test_tokens", "currency.zz_test_tokens", starting=0)  # no grant, no wallet row


def _summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    return [SummaryLine("summary.zz_test", {"player": player_id})]


@pytest.fixture
def spec() -> GameSpec:
    """A test-only game, so these tests do not depend on which real games exist or what they grant."""
    return GameSpec(
        key="zz_test_players",
        name_key="game.zz_test",
        command_group="zztest",
        currencies=(COINS, TOKENS),
        profile_summary=_summary,
    )


@pytest.fixture
def registry(spec: GameSpec) -> GameRegistry:
    return GameRegistry((spec,))


@pytest.fixture
def service(db: Database, clock: ManualClock, registry: GameRegistry) -> PlayerService:
    return PlayerService(db, clock, registry)


def _count(sql: str, *params: object) -> Callable[[Connection], int]:
    return lambda conn: conn.execute(sql, params).fetchone()[0]


async def test_ensure_player_creates_once_with_starting_wallets(
    db: Database, clock: ManualClock, spec: GameSpec, conservation: Conservation, registry: GameRegistry
) -> None:
    assert await db.write(lambda conn: ensure_player(conn, 7, clock.now(), registry)) is True
    assert await db.write(lambda conn: ensure_player(conn, 7, clock.now(), registry)) is False
    wallets = await db.read(
        lambda conn: [
            tuple(r) for r in conn.execute("SELECT currency, balance FROM wallets WHERE player_id = 7")
        ]
    )
    assert (COINS.code, 100) in wallets
    assert all(currency != TOKENS.code for currency, _ in wallets)
    await db.read(conservation)


async def test_fifty_concurrent_first_uses_create_one_player_and_grant_once(
    db: Database, service: PlayerService, spec: GameSpec, conservation: Conservation
) -> None:
    await asyncio.gather(*(service.ensure(8) for _ in range(50)))
    assert await db.read(_count("SELECT COUNT(*) FROM players WHERE id = 8")) == 1
    grants = "SELECT COUNT(*) FROM ledger WHERE player_id = 8 AND currency = ? AND reason = 'starting_grant'"
    assert await db.read(_count(grants, COINS.code)) == 1
    assert (
        await db.read(_count("SELECT balance FROM wallets WHERE player_id = 8 AND currency = ?", COINS.code))
        == 100
    )
    await db.read(conservation)


async def test_someone_elses_unknown_profile_is_none_and_creates_nobody(
    db: Database, service: PlayerService, spec: GameSpec
) -> None:
    assert await service.profile(9, create=False) is None
    assert await db.read(_count("SELECT COUNT(*) FROM players")) == 0
    assert await db.read(_count("SELECT COUNT(*) FROM ledger")) == 0


async def test_your_own_profile_creates_you(
    db: Database, service: PlayerService, clock: ManualClock, spec: GameSpec
) -> None:
    profile = await service.profile(10, create=True)
    assert profile is not None
    assert profile.player_id == 10
    assert profile.joined == clock.now()
    assert (COINS.name_key, 100) in profile.wallets
    assert (TOKENS.name_key, 0) in profile.wallets
    assert (spec.name_key, [SummaryLine("summary.zz_test", {"player": 10})]) in profile.summaries
    # Once you exist, others can see you, and looking does not grant anything again.
    assert await service.profile(10, create=False) == profile
    assert await service.profile(10, create=True) == profile


async def test_set_locale_creates_the_player_and_can_be_cleared(
    db: Database, service: PlayerService, spec: GameSpec
) -> None:
    assert await service.locale_of(11) is None
    await service.set_locale(11, "fr")
    assert await service.locale_of(11) == "fr"
    assert await db.read(_count("SELECT COUNT(*) FROM players WHERE id = 11")) == 1
    await service.set_locale(11, "en")
    assert await service.locale_of(11) == "en"
    await service.set_locale(11, None)  # back to following Discord's locale
    assert await service.locale_of(11) is None
    grants = "SELECT COUNT(*) FROM ledger WHERE player_id = 11 AND reason = 'starting_grant' AND currency = ?"
    assert await db.read(_count(grants, COINS.code)) == 1


async def test_an_unsupported_locale_is_refused(db: Database, service: PlayerService, spec: GameSpec) -> None:
    await service.set_locale(12, "fr")
    with pytest.raises(BadInput):
        await service.set_locale(12, "de")
    assert await service.locale_of(12) == "fr"


async def test_touch_creates_the_player_and_remembers_their_discord_language(
    db: Database, service: PlayerService, spec: GameSpec
) -> None:
    def last_locale(conn: Connection) -> str | None:
        return conn.execute("SELECT last_locale FROM players WHERE id = 13").fetchone()[0]

    assert await service.touch(13, "en") is None  # no explicit choice yet: follow Discord
    assert await db.read(last_locale) == "en"
    await service.touch(13, "de")  # a language we do not speak does not erase the last one we do
    assert await db.read(last_locale) == "en"
    await service.set_locale(13, "fr")
    assert await service.touch(13, "en") == "fr"
    assert await db.read(_count("SELECT COUNT(*) FROM players WHERE id = 13")) == 1


async def test_a_known_player_with_the_same_language_costs_no_write(
    db: Database, service: PlayerService
) -> None:
    assert await service.touch(21, "fr") is None  # first use: created, in a write unit
    batches = db.batches
    for _ in range(5):
        assert await service.touch(21, "fr") is None
        assert await service.touch(21, None) is None  # no Discord language: nothing to store either
    assert db.batches == batches
    assert await service.touch(21, "en") is None  # a new Discord language is stored...
    assert db.batches == batches + 1
    await service.touch(21, "en")  # ...once
    assert db.batches == batches + 1


async def test_a_language_change_is_seen_by_the_very_next_touch(db: Database, service: PlayerService) -> None:
    assert await service.touch(22, "fr") is None
    await service.set_locale(22, "en")
    assert await service.touch(22, "fr") == "en"
    await service.set_locale(22, None)
    assert await service.touch(22, "fr") is None


async def test_a_touch_racing_a_language_change_does_not_keep_the_old_language(
    db: Database, service: PlayerService
) -> None:
    """The touch's unit runs before the change in the same batch, and returns after it: what it read is
    already stale and must not be remembered."""
    await service.touch(23, "fr")
    service.locales.forget(23)  # not cached, so the next touch writes
    touched, _ = await asyncio.gather(service.touch(23, "en"), service.set_locale(23, "fr"))
    assert touched is None  # read before the change
    assert await service.touch(23, "en") == "fr"


async def test_a_profile_is_read_without_waiting_for_the_writer(
    db: Database, service: PlayerService, spec: GameSpec
) -> None:
    """A player's own profile is a plain read once they exist: a long write does not hold it up."""
    await service.touch(24, "fr")
    release = threading.Event()
    blocked = asyncio.ensure_future(db.write(lambda conn: release.wait(10)))
    try:
        await asyncio.sleep(0.05)  # the writer is inside the blocked unit
        found = await asyncio.wait_for(service.profile(24, create=True), timeout=2)
        assert found is not None
        assert found.player_id == 24
        assert not blocked.done()
    finally:
        release.set()
        await blocked
    assert await service.profile(25, create=True) is not None  # a new player is still created
