"""Erasure and what was pending for the player (docs/privacy.md, "What erasure ends"): open trades and
gifts are cancelled in the erasure's own unit and the other party told; nothing may ever move to an erased
player; a gift not delivered stays invisible to its recipient."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed, NotFound
from services.community.privacy import PrivacyService, collect
from services.community.trades.service import MIN_MEMBERSHIP, TradeService
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.conftest import check_conservation
from tests.support.registries import every_game

ALICE, BOB = 312345678901234567, 498765432109876543  # Discord-sized ids, as erasure rewrites them in texts
GUILD, CHANNEL = 500, 510
GAME, GOLD = "pillz", "pillz_gold"


class Scene:
    def __init__(self, db: Database, clock: ManualClock, registry: GameRegistry) -> None:
        self.db, self.clock = db, clock
        self.cards = CardIndex(load_all(DATA_DIR, every_game().all_games()))
        self.scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
        self.trades = TradeService(db, clock, registry, self.scheduler, self.cards)
        self.privacy = PrivacyService(db, clock, registry, self.trades)

    async def mint(self, owner: int) -> int:
        catalog = self.cards.catalog(GAME)
        assert catalog is not None
        now, key = self.clock.now(), catalog.cards[0].id
        return await self.db.write(lambda c: ledger.mint_card(c, now, owner, GAME, key, ledger.Movement("t")))

    async def query(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        return await self.db.read(lambda conn: [tuple(r) for r in conn.execute(sql, params).fetchall()])

    async def dms_to(self, player: int) -> list[str]:
        rows = await self.query(
            "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ? ORDER BY id", player
        )
        return [json.loads(str(row[0]))["content"]["key"] for row in rows]


@pytest.fixture
async def scene(db: Database, registry: GameRegistry) -> AsyncIterator[Scene]:
    clock = ManualClock()
    world = Scene(db, clock, registry=registry)
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB):
            ensure_player(conn, player, now, registry)

    await db.write(unit)
    clock.advance(MIN_MEMBERSHIP + timedelta(days=1))
    yield world
    await world.scheduler.stop()


async def test_erasure_cancels_open_trades_and_gifts_and_nothing_reaches_the_void(scene: Scene) -> None:
    """The issue's reproduction: a trade alice confirmed, then bob's gift of 25 to her; she erases; bob's
    later confirmations are refused and every copy and coin of his stays his."""
    bobs_copy, alices_copy = await scene.mint(BOB), await scene.mint(ALICE)
    trade = await scene.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    trade = await scene.trades.add_card(GUILD, trade.id, BOB, str(bobs_copy))
    trade = await scene.trades.confirm(GUILD, trade.id, ALICE, trade.version, "alice-click")
    gift_to_her = await scene.trades.gift(GUILD, CHANNEL, BOB, ALICE, GAME, None, 25)
    gift_from_her = await scene.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, str(alices_copy), None)
    bobs_gold = await scene.db.read(lambda conn: ledger.balance(conn, BOB, GOLD))
    told_before = await scene.dms_to(BOB)

    assert await scene.privacy.erase(ALICE)

    rows = await scene.query("SELECT id, status, end_reason, ended_by FROM trades ORDER BY id")
    assert rows == [(t.id, "cancelled", "erased", None) for t in (trade, gift_to_her, gift_from_her)]
    for ended in (trade, gift_to_her):
        with pytest.raises(NotAllowed, match=r"trades\.error\.closed"):
            await scene.trades.confirm(GUILD, ended.id, BOB, ended.version, f"bob-{ended.id}")
    assert await scene.query("SELECT owner_id, locked_by FROM cards WHERE id = ?", bobs_copy) == [(BOB, None)]
    assert await scene.db.read(lambda conn: ledger.balance(conn, BOB, GOLD)) == bobs_gold
    # bob hears of the trade and of his own gift; alice's gift to him was never his to know of
    assert (await scene.dms_to(BOB))[len(told_before) :] == [
        "trades.notice.trade.erased",
        "trades.notice.gift.erased",
    ]
    seen = await scene.trades.show(GUILD, trade.id, BOB)
    description = (await scene.trades.window(seen, BOB)).embeds[0].description
    assert description is not None
    assert description.key == "trades.status.erased"
    assert await scene.query("SELECT COUNT(*) FROM cards WHERE owner_id < 0") == [(0,)]
    assert await scene.query("SELECT COUNT(*) FROM wallets WHERE player_id < 0") == [(0,)]
    await scene.db.read(check_conservation)


async def test_nothing_can_move_to_an_erased_player(scene: Scene) -> None:
    await scene.mint(ALICE)
    assert await scene.privacy.erase(ALICE)
    ((anonymous,),) = await scene.query("SELECT MIN(id) FROM players")
    assert isinstance(anonymous, int)
    assert anonymous < 0
    now = scene.clock.now()
    why = ledger.Movement("t")
    refused = (
        lambda c: ledger.credit(c, now, anonymous, GOLD, 5, why),
        lambda c: ledger.mint_card(c, now, anonymous, GAME, "x", why),
    )
    for unit in refused:
        with pytest.raises(NotAllowed, match=r"privacy\.error\.erased"):
            await scene.db.write(unit)
    copy = await scene.mint(BOB)
    with pytest.raises(NotAllowed, match=r"privacy\.error\.erased"):
        await scene.db.write(lambda c: ledger.transfer_card(c, now, copy, BOB, anonymous, why))
    # below the ledger, the store itself: whatever code would try
    raw = (
        ("INSERT INTO wallets (player_id, currency, balance) VALUES (?, 'pillz_gold', 5)", (anonymous,)),
        ("UPDATE cards SET owner_id = ? WHERE id = ?", (anonymous, copy)),
        (
            "INSERT INTO ledger (at, player_id, currency, delta, balance_after, reason) VALUES"
            " ('2026-01-01', ?, 'pillz_gold', 5, 5, 't')",
            (anonymous,),
        ),
    )
    for sql, params in raw:

        def attempt(conn: Connection, sql: str = sql, params: tuple[object, ...] = params) -> None:
            conn.execute(sql, params)

        with pytest.raises(sqlite3.IntegrityError, match="an erased player holds nothing"):
            await scene.db.write(attempt)
    await scene.db.read(check_conservation)


async def test_a_gift_not_delivered_is_invisible_to_its_recipient_everywhere(scene: Scene) -> None:
    cancelled = await scene.trades.gift(GUILD, CHANNEL, BOB, ALICE, GAME, None, 25)
    await scene.trades.cancel(GUILD, cancelled.id, BOB)
    waiting = await scene.trades.gift(GUILD, CHANNEL, BOB, ALICE, GAME, None, 10)
    delivered = await scene.trades.gift(GUILD, CHANNEL, BOB, ALICE, GAME, None, 5)
    await scene.trades.confirm(GUILD, delivered.id, BOB, delivered.version, "bob-5")

    history = await scene.trades.history(GUILD, ALICE)
    assert history.embeds[0].description is not None
    listed = [line.params["items"][0].params["id"] for line in history.embeds[0].description.params["items"]]
    assert listed == [delivered.id]
    for hidden in (cancelled, waiting):
        with pytest.raises(NotFound, match=r"trades\.error\.not_found"):
            await scene.trades.show(GUILD, hidden.id, ALICE)
    exported = await scene.db.read(lambda conn: collect(conn, ALICE))
    assert [row["id"] for row in exported["tables"]["trades"]] == [delivered.id]
    # the giver and the server's admins still see all three
    assert len((await scene.db.read(lambda conn: collect(conn, BOB)))["tables"]["trades"]) == 3
    server = await scene.trades.history(GUILD, BOB, admin=True, of=None)
    assert server.embeds[0].description is not None
    assert len(server.embeds[0].description.params["items"]) == 3
