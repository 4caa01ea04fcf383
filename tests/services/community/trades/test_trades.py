"""Trades and gifts (services/community/trades/service.py): locks, confirmations voided by a change, the one-unit
swap through the ledger, expiry by a job (restarts included), the abuse rules and who may see a trade."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, InsufficientFunds, NotAllowed, NotFound
from engine.errors import DomainError
from engine.hoss import CreatureCard, HossCatalog, sale_price
from services.community.trades import service as trades
from services.community.trades import store
from services.community.trades.service import MIN_MEMBERSHIP, TradeService
from services.community.trades.store import Trade
from services.hoss.sale import sell_unit
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.conftest import check_conservation, open_database
from tests.support.registries import every_game

GUILD, OTHER_GUILD, CHANNEL = 500, 600, 510
ALICE, BOB, CAROL = 1, 2, 3
GAME = "pillz"
GOLD = "pillz_gold"
PARIS = ZoneInfo("Europe/Paris")


class World:
    def __init__(self, db: Database, clock: ManualClock, cards: CardIndex, registry: GameRegistry) -> None:
        self.db, self.clock, self.cards = db, clock, cards
        self.scheduler = Scheduler(db, clock, PARIS)
        self.trades = TradeService(db, clock, registry, self.scheduler, cards)
        self.keys = 0

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    async def mint(self, owner: int, count: int = 1, card: str | None = None) -> list[int]:
        catalog = self.cards.catalog(GAME)
        assert catalog is not None
        key = card or catalog.cards[0].id
        now = self.clock.now()

        def unit(conn: Connection) -> list[int]:
            why = ledger.Movement("test")
            return [ledger.mint_card(conn, now, owner, GAME, key, why) for _ in range(count)]

        return await self.db.write(unit)

    async def query(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        return await self.db.read(lambda conn: [tuple(r) for r in conn.execute(sql, params).fetchall()])

    async def balance(self, player: int) -> int:
        return await self.db.read(lambda conn: ledger.balance(conn, player, GOLD))

    async def conserved(self) -> None:
        await self.db.read(check_conservation)


@pytest.fixture(scope="module")
def cards() -> CardIndex:
    return CardIndex(load_all(DATA_DIR, every_game().all_games()))


async def _world(path: Path, clock: ManualClock, cards: CardIndex, registry: GameRegistry) -> World:
    world = World(await open_database(path), clock, cards, registry=registry)
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB, CAROL):
            ensure_player(conn, player, now, registry)

    await world.db.write(unit)
    return world


@pytest.fixture
async def w(
    tmp_path: Path, migrated_copy: Callable[[Path], Path], cards: CardIndex, registry: GameRegistry
) -> AsyncIterator[World]:
    clock = ManualClock()
    world = await _world(migrated_copy(tmp_path / "bot.sqlite3"), clock, cards, registry=registry)
    clock.advance(MIN_MEMBERSHIP + timedelta(days=1))  # everyone has been here long enough
    try:
        yield world
    finally:
        await world.scheduler.stop()
        await world.db.close()


async def test_a_swap_moves_every_copy_and_amount_once_both_confirmed_the_same_offers(w: World) -> None:
    (a1, a2), (b1,) = await w.mint(ALICE, 2), await w.mint(BOB)
    gold = await w.balance(ALICE), await w.balance(BOB)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    assert await w.query("SELECT target_id FROM outbox WHERE target_kind = 'dm'") == [(BOB,)]
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, f"#{a1}")
    trade = await w.trades.add_card(None, trade.id, ALICE, str(a2))  # from the DM window
    trade = await w.trades.add_card(GUILD, trade.id, BOB, str(b1))
    trade = await w.trades.set_amount(GUILD, trade.id, BOB, 40)
    locks = await w.query("SELECT id, locked_by FROM cards ORDER BY id")
    assert locks == [(a1, f"trade:{trade.id}"), (a2, f"trade:{trade.id}"), (b1, f"trade:{trade.id}")]

    trade = await w.trades.confirm(GUILD, trade.id, ALICE, trade.version, w.key())
    assert trade.status == "open"
    assert trade.has_confirmed(ALICE)
    done = await w.trades.confirm(None, trade.id, BOB, trade.version, w.key())

    assert done.status == "done"
    assert await w.query("SELECT id, owner_id, locked_by FROM cards ORDER BY id") == [
        (a1, BOB, None),
        (a2, BOB, None),
        (b1, ALICE, None),
    ]
    assert (await w.balance(ALICE), await w.balance(BOB)) == (gold[0] + 40, gold[1] - 40)
    assert await w.query("SELECT COUNT(*) FROM jobs WHERE kind = 'trade:expire' AND state = 'due'") == [(0,)]
    await w.conserved()


async def test_any_change_of_an_offer_voids_both_confirmations(w: World) -> None:
    (a1,), (b1,) = await w.mint(ALICE), await w.mint(BOB)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, str(a1))
    seen = await w.trades.confirm(GUILD, trade.id, ALICE, trade.version, w.key())
    assert seen.has_confirmed(ALICE)
    changed = await w.trades.add_card(GUILD, trade.id, BOB, str(b1))
    assert not changed.has_confirmed(ALICE)
    assert changed.version == seen.version + 1
    with pytest.raises(NotAllowed, match=r"trades.error.stale"):  # bob's click on the window alice confirmed
        await w.trades.confirm(GUILD, trade.id, BOB, seen.version, w.key())
    after = await w.trades.confirm(GUILD, trade.id, BOB, changed.version, w.key())
    assert after.status == "open"  # alice must confirm again
    assert await w.query("SELECT owner_id FROM cards ORDER BY id") == [(ALICE,), (BOB,)]


async def test_a_copy_locked_elsewhere_or_offered_twice_is_refused(w: World) -> None:
    a1, a2 = await w.mint(ALICE, 2)
    await w.db.write(lambda conn: ledger.set_card_lock(conn, [a1], ALICE, "hoss:arena:1"))
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    with pytest.raises(CardUnavailable, match=r"trades.error.card_locked"):
        await w.trades.add_card(GUILD, trade.id, ALICE, str(a1))
    await w.trades.add_card(GUILD, trade.id, ALICE, str(a2))
    other = await w.trades.open(GUILD, CHANNEL, ALICE, CAROL, GAME)
    with pytest.raises(CardUnavailable, match=r"trades.error.card_locked"):
        await w.trades.add_card(GUILD, other.id, ALICE, str(a2))
    with pytest.raises(CardUnavailable, match=r"trades.error.card_not_yours"):
        await w.trades.add_card(GUILD, other.id, CAROL, str(a2))
    with pytest.raises(CardUnavailable):  # the ledger refuses to sell, sacrifice or move a locked copy
        await w.db.write(
            lambda conn: ledger.destroy_card(conn, w.clock.now(), a2, ALICE, ledger.Movement("x"))
        )


async def test_a_card_named_by_its_name_offers_a_free_copy(w: World) -> None:
    catalog = w.cards.catalog(GAME)
    assert catalog is not None
    card = catalog.cards[1]
    (first, second) = await w.mint(ALICE, 2, card.id)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, card.name.fr.upper(), "fr")
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, card.name.en, "en")
    assert [i.card_id for i in trade.items] == [first, second]
    with pytest.raises(CardUnavailable, match=r"trades.error.no_free_copy"):
        await w.trades.add_card(GUILD, trade.id, ALICE, card.name.fr)
    with pytest.raises(BadInput, match=r"trades.error.card_unknown"):
        await w.trades.add_card(GUILD, trade.id, ALICE, "aucune carte de ce nom")


async def test_a_swap_the_wallet_no_longer_covers_moves_nothing(w: World) -> None:
    (a1,) = await w.mint(ALICE)
    held = await w.balance(BOB)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    await w.trades.add_card(GUILD, trade.id, ALICE, str(a1))
    trade = await w.trades.set_amount(GUILD, trade.id, BOB, held)
    await w.trades.confirm(GUILD, trade.id, ALICE, trade.version, w.key())
    await w.db.write(lambda conn: ledger.debit(conn, w.clock.now(), BOB, GOLD, 1, ledger.Movement("spent")))
    with pytest.raises(InsufficientFunds):
        await w.trades.confirm(GUILD, trade.id, BOB, trade.version, w.key())
    assert await w.query("SELECT owner_id, locked_by FROM cards") == [(ALICE, f"trade:{trade.id}")]
    assert (await w.trades.show(GUILD, trade.id, BOB)).status == "open"
    await w.conserved()


async def test_cancel_and_expiry_free_the_copies_and_end_the_trade_once(w: World) -> None:
    a1, a2 = await w.mint(ALICE, 2)
    cancelled = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    await w.trades.add_card(GUILD, cancelled.id, ALICE, str(a1))
    ended = await w.trades.cancel(GUILD, cancelled.id, BOB)
    assert (ended.status, ended.ended_by) == ("cancelled", BOB)
    with pytest.raises(NotAllowed, match=r"trades.error.closed"):
        await w.trades.add_card(GUILD, cancelled.id, ALICE, str(a2))

    expiring = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    await w.trades.add_card(GUILD, expiring.id, ALICE, str(a2))
    w.clock.advance(timedelta(minutes=59))
    assert await w.scheduler.run_due() == 0
    w.clock.advance(timedelta(minutes=1))
    assert await w.scheduler.run_due() == 1
    assert await w.scheduler.run_due() == 0
    assert (await w.trades.show(GUILD, expiring.id, ALICE)).status == "expired"
    assert await w.query("SELECT locked_by FROM cards") == [(None,), (None,)]
    with pytest.raises(NotAllowed, match=r"trades.error.closed"):
        await w.trades.confirm(GUILD, expiring.id, ALICE, 1, w.key())


async def test_a_trade_expires_once_across_a_restart(
    tmp_path: Path, migrated_copy: Callable[[Path], Path], cards: CardIndex, registry: GameRegistry
) -> None:
    path = migrated_copy(tmp_path / "bot.sqlite3")
    clock = ManualClock()
    first = await _world(path, clock, cards, registry=registry)
    clock.advance(MIN_MEMBERSHIP * 2)
    (a1,) = await first.mint(ALICE)
    trade = await first.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    await first.trades.add_card(GUILD, trade.id, ALICE, str(a1))
    await first.db.close()

    clock.advance(timedelta(hours=3))  # down past the expiry
    for _ in range(2):  # two start-ups: the expiry fires at the first only
        again = World(await open_database(path), clock, cards, registry=registry)
        await again.scheduler.start()
        await again.scheduler.stop()
        await again.db.close()

    after = World(await open_database(path), clock, cards, registry=registry)
    try:
        assert (await after.trades.show(GUILD, trade.id, ALICE)).status == "expired"
        assert await after.query("SELECT locked_by FROM cards") == [(None,)]
        assert await after.query(
            "SELECT state, COUNT(*) FROM jobs WHERE kind = 'trade:expire' GROUP BY state"
        ) == [("done", 1)]
        ended = "SELECT COUNT(*) FROM outbox WHERE payload LIKE '%trades.notice.trade.expired%'"
        assert await after.query(ended) == [(2,)]  # one notice per party, once
    finally:
        await after.db.close()


async def test_only_the_parties_in_that_server_or_in_dms_reach_a_trade(w: World) -> None:
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    for guild, player in ((OTHER_GUILD, ALICE), (GUILD, CAROL), (None, CAROL)):
        with pytest.raises(NotFound, match=r"trades.error.not_found"):
            await w.trades.set_amount(guild, trade.id, player, 5)
        with pytest.raises(NotFound, match=r"trades.error.not_found"):
            await w.trades.cancel(guild, trade.id, player)
    assert (await w.trades.show(GUILD, trade.id, CAROL, admin=True)).id == trade.id
    with pytest.raises(NotFound):  # an admin of another server is a stranger here
        await w.trades.show(OTHER_GUILD, trade.id, CAROL, admin=True)
    assert (await w.trades.set_amount(None, trade.id, ALICE, 5)).version == 1


async def test_members_newer_than_the_minimum_cannot_trade(w: World) -> None:
    now = w.clock.now()
    young = now - MIN_MEMBERSHIP + timedelta(hours=1)
    old = now - MIN_MEMBERSHIP
    with pytest.raises(NotAllowed, match=r"trades.error.too_new.you"):
        await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME, (young, old))
    with pytest.raises(NotAllowed, match=r"trades.error.too_new.them"):
        await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, None, 5, (old, young))
    assert (await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME, (old, old))).status == "open"
    with pytest.raises(BadInput, match=r"trades.error.self"):
        await w.trades.open(GUILD, CHANNEL, ALICE, ALICE, GAME)
    with pytest.raises(BadInput, match=r"trades.error.game"):
        await w.trades.open(GUILD, CHANNEL, ALICE, BOB, "nogame")


async def test_the_daily_cap_counts_value_given_and_received_over_24_hours(w: World) -> None:
    cap = every_game().get(GAME).trading.daily_cap  # type: ignore[union-attr]
    await w.db.write(lambda conn: ledger.credit(conn, w.clock.now(), ALICE, GOLD, cap, ledger.Movement("t")))
    first = await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, None, cap - 100)
    await w.trades.confirm(GUILD, first.id, ALICE, first.version, w.key())
    (a1,) = await w.mint(ALICE)
    second = await w.trades.gift(GUILD, CHANNEL, ALICE, CAROL, GAME, str(a1), 1)
    with pytest.raises(NotAllowed, match=r"trades.error.cap"):  # 100 for the copy + 1: one over
        await w.trades.confirm(GUILD, second.id, ALICE, second.version, w.key())
    w.clock.advance(timedelta(hours=24))
    third = await w.trades.gift(GUILD, CHANNEL, ALICE, CAROL, GAME, None, 1)
    await w.trades.cancel(GUILD, second.id, ALICE)  # frees the copy; a day later the cap is whole again
    assert (await w.trades.confirm(GUILD, third.id, ALICE, third.version, w.key())).status == "done"
    await w.conserved()


async def test_a_gift_moves_on_its_givers_confirmation_only(w: World) -> None:
    (a1,) = await w.mint(ALICE)
    gift = await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, str(a1), 30)
    assert await w.query("SELECT locked_by FROM cards") == [(f"trade:{gift.id}",)]
    assert await w.query("SELECT COUNT(*) FROM outbox") == [(0,)]  # the recipient hears of it on arrival
    with pytest.raises(
        NotFound, match=r"trades.error.not_found"
    ):  # unknown to its recipient until it arrives
        await w.trades.confirm(GUILD, gift.id, BOB, gift.version, w.key())
    with pytest.raises(NotAllowed, match=r"trades.error.gift_fixed"):
        await w.trades.set_amount(GUILD, gift.id, ALICE, 50)
    key = w.key()
    done = await w.trades.confirm(GUILD, gift.id, ALICE, gift.version, key)
    again = await w.trades.confirm(GUILD, gift.id, ALICE, gift.version, key)  # the same click, replayed
    assert done.status == again.status == "done"
    assert await w.query("SELECT owner_id FROM cards") == [(BOB,)]
    assert await w.query("SELECT COUNT(*) FROM ledger WHERE reason = 'gift' AND currency IS NOT NULL") == [
        (2,)
    ]
    await w.conserved()


async def test_the_history_shows_a_players_own_trades_and_the_whole_server_to_its_admins(w: World) -> None:
    first = await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, None, 5)
    await w.trades.confirm(GUILD, first.id, ALICE, first.version, w.key())
    await w.trades.gift(GUILD, CHANNEL, BOB, CAROL, GAME, None, 5)
    await w.trades.gift(OTHER_GUILD, CHANNEL, CAROL, ALICE, GAME, None, 5)
    mine = await w.trades.history(GUILD, ALICE)
    server = await w.trades.history(GUILD, CAROL, admin=True)
    assert mine.embeds[0].description is not None
    assert server.embeds[0].description is not None
    assert len(mine.embeds[0].description.params["items"]) == 1
    assert len(server.embeds[0].description.params["items"]) == 2
    with pytest.raises(NotAllowed, match=r"trades.error.history_admin"):
        await w.trades.history(GUILD, CAROL, of=ALICE)


# --- races -----------------------------------------------------------------------------------------------

PARTNERS = tuple(range(10, 20))
TRADES = 50
GOLD_SUM = "SELECT SUM(balance) FROM wallets WHERE currency = ?"


async def settle(calls: list[Awaitable[Any]]) -> list[Any]:
    """Every call at once; a refusal (a DomainError) is an expected outcome, anything else fails."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    unexpected = [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]
    assert not unexpected, unexpected
    return list(results)


async def test_fifty_trades_over_overlapping_copies_and_one_wallet(
    w: World, monkeypatch: pytest.MonkeyPatch, registry: GameRegistry
) -> None:
    """Every offer, confirmation (each clicked twice) and cancellation in flight together, shuffled."""
    monkeypatch.setattr(trades, "MAX_OPEN", TRADES)  # alice is party to all fifty
    now = w.clock.now()

    def players(conn: Connection) -> None:
        for player in PARTNERS:
            ensure_player(conn, player, now - MIN_MEMBERSHIP, registry)

    await w.db.write(players)
    mine = await w.mint(ALICE, 5)
    theirs = {p: (await w.mint(p, 1))[0] for p in PARTNERS}
    total_gold = await w.query(GOLD_SUM, GOLD)
    spend = await w.balance(ALICE) // 20  # about 20 of the 50 trades could be paid

    opened = await settle(
        [w.trades.open(GUILD, CHANNEL, ALICE, PARTNERS[i % 10], GAME) for i in range(TRADES)]
    )
    made: list[Trade] = [t for t in opened if isinstance(t, Trade)]
    assert len(made) == TRADES
    offers: list[Awaitable[Any]] = []
    for i, trade in enumerate(made):
        offers.append(w.trades.add_card(GUILD, trade.id, ALICE, str(mine[i % 5])))
        offers.append(w.trades.add_card(GUILD, trade.id, trade.partner_id, str(theirs[trade.partner_id])))
        offers.append(w.trades.set_amount(GUILD, trade.id, ALICE, spend))
    random.Random(7).shuffle(offers)
    await settle(offers)

    current = [await w.trades.show(GUILD, t.id, ALICE) for t in made]
    actions: list[Awaitable[Any]] = []
    for i, trade in enumerate(current):
        for player in (ALICE, trade.partner_id):
            actions.append(w.trades.confirm(GUILD, trade.id, player, trade.version, f"{trade.id}:{player}"))
            actions.append(w.trades.confirm(GUILD, trade.id, player, trade.version, f"{trade.id}:{player}"))
        if i % 3 == 0:
            actions.append(w.trades.cancel(GUILD, trade.id, trade.partner_id))
    random.Random(11).shuffle(actions)
    await settle(actions)

    await w.conserved()
    statuses = {
        str(s): int(str(n)) for s, n in await w.query("SELECT status, COUNT(*) FROM trades GROUP BY status")
    }
    assert statuses.get("done", 0) >= 1, statuses
    assert statuses.get("cancelled", 0) >= 1, statuses
    done_cards = await w.query(
        "SELECT i.card_id FROM trade_items i JOIN trades t ON t.id = i.trade_id"
        " WHERE t.status = 'done' AND i.card_id IS NOT NULL"
    )
    assert len(done_cards) == len(set(done_cards))  # a copy moved by one trade at most
    locks = await w.query(
        "SELECT c.locked_by, t.status FROM cards c LEFT JOIN trades t ON c.locked_by = 'trade:' || t.id"
        " WHERE c.locked_by IS NOT NULL"
    )
    assert all(status == "open" for _, status in locks), locks  # only open trades hold copies
    per_lock = await w.query(
        "SELECT locked_by, COUNT(*) FROM cards WHERE locked_by IS NOT NULL GROUP BY locked_by"
    )
    offered = await w.query(
        "SELECT 'trade:' || i.trade_id, COUNT(*) FROM trade_items i JOIN trades t ON t.id = i.trade_id"
        " WHERE t.status = 'open' AND i.card_id IS NOT NULL GROUP BY i.trade_id"
    )
    assert sorted(per_lock) == sorted(offered)  # every open offer's copy is locked by it, and only by it
    assert await w.query(GOLD_SUM, GOLD) == total_gold  # no currency created nor lost
    owners = await w.query("SELECT COUNT(*), COUNT(DISTINCT id) FROM cards")
    assert owners == [(len(mine) + len(PARTNERS), len(mine) + len(PARTNERS))]


# --- a game's own rules ------------------------------------------------------------------------------------


async def test_a_hoss_copy_is_worth_its_sale_price_and_cannot_be_sold_while_offered(w: World) -> None:
    catalog = w.cards.catalog("hoss")
    assert isinstance(catalog, HossCatalog)
    creature = next(c for c in catalog.cards if isinstance(c, CreatureCard) and c.rank == 2)
    now = w.clock.now()

    def unit(conn: Connection) -> int:
        why = ledger.Movement("test")
        return ledger.mint_card(conn, now, ALICE, "hoss", creature.id, why, {"rarity": "or", "holo": False})

    copy = await w.db.write(unit)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, "hoss")
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, f"#{copy}")
    assert [i.value for i in trade.items] == [sale_price("or", 2, False)] == [400]
    cards = {c.id: c for c in catalog.cards}
    with pytest.raises(CardUnavailable, match=r"hoss\.error\.card\.locked"):
        await w.db.write(lambda conn: sell_unit(conn, now, cards, ALICE, [copy], "sale:1"))
    await w.trades.cancel(GUILD, trade.id, ALICE)
    assert await w.query("SELECT locked_by FROM cards") == [(None,)]


async def test_a_confirmation_reads_the_trade_once_and_answers_it_as_a_read_would(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: a gift's « Confirmer » read the trade five times in its unit (before its key, to check it,
    after each of its two updates, for the reply); what it answers is what a read then finds."""
    (a1, a2), (b1,) = await w.mint(ALICE, 2), await w.mint(BOB)
    gift = await w.trades.gift(GUILD, CHANNEL, ALICE, BOB, GAME, str(a1), 30)
    trade = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    trade = await w.trades.add_card(GUILD, trade.id, ALICE, str(a2))
    trade = await w.trades.add_card(GUILD, trade.id, BOB, str(b1))
    built = 0
    original = store._trade

    def counted(conn: Connection, row: Any) -> Trade:
        nonlocal built
        built += 1
        return original(conn, row)

    monkeypatch.setattr(store, "_trade", counted)

    async def read(trade_id: int, player: int) -> Trade:
        return await w.db.read(lambda conn: store.load(conn, trade_id, GUILD, player))

    key = w.key()
    given = await w.trades.confirm(GUILD, gift.id, ALICE, gift.version, key)
    assert built == 1
    assert given.status == "done"
    assert given == await read(gift.id, ALICE)
    assert await w.trades.confirm(GUILD, gift.id, ALICE, gift.version, key) == given  # a double click
    half = await w.trades.confirm(GUILD, trade.id, ALICE, trade.version, w.key())
    assert half == await read(trade.id, ALICE)
    assert half.has_confirmed(ALICE)
    built = 0
    done = await w.trades.confirm(GUILD, trade.id, BOB, trade.version, w.key())
    assert built == 1
    assert done == await read(trade.id, BOB)
    assert done.status == "done"
    other = await w.trades.open(GUILD, CHANNEL, ALICE, BOB, GAME)
    cancelled = await w.trades.cancel(GUILD, other.id, BOB)
    assert cancelled == await read(other.id, BOB)
    assert cancelled.status == "cancelled"
    await w.conserved()
