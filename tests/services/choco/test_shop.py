"""Frogs and the daily allowance: price, guarded debit, one card per frog through the ledger, the
decided odds, idempotent clicks, and 50 galleons once per Paris day."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from fractions import Fraction
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import BadInput, InsufficientFunds
from engine.choco.catalog import ChocoCatalog
from services.choco.economy import STARTING_GOLD, ensure_wallet
from services.choco.shop import ChocoShop
from services.community.daily import DailyService
from services.infra.games import GameRegistry, money
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import gold, new_player

Conservation = Callable[[Connection], None]


async def test_a_new_player_has_1500_galleons(db: Database, clock: ManualClock, shop: ChocoShop) -> None:
    assert await shop.balance(1) == STARTING_GOLD == 1500
    assert (await shop.odds_for(1)).balance == 1500


async def test_an_older_player_gets_the_starting_galleons_once(db: Database, clock: ManualClock) -> None:
    def unit(conn: Connection) -> None:
        conn.execute("INSERT INTO players (id, created_at) VALUES (9, '2025-01-01T00:00:00.000000Z')")
        ensure_wallet(conn, clock.now(), 9)
        ensure_wallet(conn, clock.now(), 9)

    await db.write(unit)
    assert await gold(db, 9) == 1500


async def test_buying_three_frogs_costs_75_and_mints_three_cards(
    db: Database, clock: ManualClock, shop: ChocoShop, catalog: ChocoCatalog, conservation: Conservation
) -> None:
    purchase = await shop.buy(1, 3, key="k1")
    assert (purchase.count, purchase.price, purchase.total, purchase.balance) == (3, 25, 75, 1425)
    assert not purchase.replayed
    assert len({c.copy_id for c in purchase.cards}) == 3
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT c.id, c.card_key, c.game, c.attrs, l.reason, l.ref FROM cards c"
            " JOIN ledger l ON l.card_id = c.id WHERE c.owner_id = 1 ORDER BY c.id"
        ).fetchall()
    )
    assert [(r[0], r[1]) for r in rows] == [(c.copy_id, c.card.id) for c in purchase.cards]
    assert all(r[2] == "choco" and r[3] == "{}" and r[4] == "choco.frog" and r[5] == "k1" for r in rows)
    await db.read(conservation)


async def test_a_double_click_buys_once_and_both_clicks_see_the_same_cards(
    db: Database, clock: ManualClock, shop: ChocoShop
) -> None:
    first = await shop.buy(1, 2, key="same")
    again = await shop.buy(1, 2, key="same")
    assert again.replayed
    assert again.cards == first.cards
    assert again.balance == first.balance
    assert await gold(db, 1) == 1450


async def test_counts_outside_1_to_10_and_poor_players_are_refused(
    db: Database, clock: ManualClock, shop: ChocoShop, registry: GameRegistry
) -> None:
    for count in (0, 11, True):
        with pytest.raises(BadInput):
            await shop.buy(1, count, key=f"bad-{count}")
    await new_player(db, clock, 1, gold=40, registry=registry)
    with pytest.raises(InsufficientFunds) as caught:
        await shop.buy(1, 2, key="poor")
    assert caught.value.params == {
        "currency": "choco_gold",
        "needed": money("choco_gold", 50),
        "available": money("choco_gold", 40),
        "name": Text("choco.gold"),
        "earn": Text("choco.guide.earn"),  # the refusal says how to earn galleons
    }
    assert await gold(db, 1) == 40
    cards = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0])
    assert cards == 0


def test_the_odds_are_the_decided_table(shop: ChocoShop) -> None:
    odds = shop.odds()
    assert [(r.tier, r.per_mille) for r in odds.tiers] == [
        ("bronze_1", 420),
        ("bronze_2", 245),
        ("argent_1", 153),
        ("argent_2", 93),
        ("or_1", 55),
        ("or_2", 34),
    ]
    assert sum(r.cards for r in odds.tiers) == 145
    assert (odds.price, odds.max_count) == (25, 10)
    assert [r.per_card for r in odds.tiers] == [Fraction(r.per_mille, 1000 * r.cards) for r in odds.tiers]
    assert all(rarer.per_card < commoner.per_card for commoner, rarer in pairwise(odds.tiers))


async def test_daily_pays_50_once_per_paris_day(
    db: Database, clock: ManualClock, shop: ChocoShop, registry: GameRegistry
) -> None:
    """The allowance is the platform's daily reward now: the same 50 galleons, with no streak bonus, on
    Paris days (midnight in Paris is 23:00 UTC in January)."""
    daily = DailyService(db, clock, registry, ZoneInfo("Europe/Paris"))
    (first,) = await daily.claim(1, "choco")
    assert (first.credited, first.amount, first.balance) == (True, 50, 1550)
    assert first.next_at.isoformat() == "2026-01-05T23:00:00+00:00"
    (again,) = await daily.claim(1, "choco")
    assert (again.credited, again.balance) == (False, 1550)
    clock.advance(timedelta(hours=10, minutes=59))  # 23:59 in Paris, the same day
    assert not (await daily.claim(1, "choco"))[0].credited
    clock.advance(timedelta(minutes=1))  # midnight in Paris: a new day, a streak of 2, the same 50
    (second,) = await daily.claim(1, "choco")
    assert (second.credited, second.amount, second.streak) == (True, 50, 2)
    assert await gold(db, 1) == 1600
    reasons = await db.read(
        lambda conn: conn.execute(
            "SELECT ref FROM ledger WHERE reason = 'choco.daily' ORDER BY id"
        ).fetchall()
    )
    assert [r[0] for r in reasons] == ["2026-01-05", "2026-01-06"]
