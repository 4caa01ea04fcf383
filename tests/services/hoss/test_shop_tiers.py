"""« Chaque rang de combat débloque un booster plus puissant »: a rank adds a booster to the ones the player
could already buy; it does not replace them. The player picks any unlocked booster, and nothing else."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import BadInput, NotAllowed
from engine.hoss.economy import unlocked_tiers
from services.hoss.shop import HossShop
from services.infra.games import GameRegistry
from store.db import Database
from tests.services.hoss.conftest import assert_localized, gold, new_player, set_wins, snapshot

EVERY_RANK = {rank: 10 for rank in range(1, 9)}  # Rang 9 unlocked


def test_a_rank_unlocks_its_booster_and_keeps_the_earlier_ones() -> None:
    assert list(unlocked_tiers({})) == [1]
    assert list(unlocked_tiers({1: 12, 2: 10, 3: 4})) == [1, 2, 3]
    assert list(unlocked_tiers(EVERY_RANK)) == list(range(1, 10))
    assert list(unlocked_tiers({1: 10, 3: 10})) == [1, 2]  # a rank short of 10 wins stops the chain


async def test_a_rang_9_player_may_still_buy_rang_1_boosters(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=5000, registry=registry)
    await set_wins(db, 1, EVERY_RANK)
    offer = await shop.offer(1)
    assert (offer.tier, offer.unlocked) == (9, tuple(range(1, 10)))
    cheap = await shop.buy(1, 3, key="k1", tier=1)
    assert (cheap.tier, cheap.price, cheap.total, cheap.balance) == (1, 100, 300, 4700)
    assert {o.tier for o in cheap.openings} == {1}
    middle = await shop.buy(1, 1, key="k2", tier=5, race="orc")
    assert (middle.tier, middle.price, middle.race) == (5, 1250, "orc")
    default = await shop.buy(1, 1, key="k3")  # no choice: the most powerful unlocked booster
    assert (default.tier, default.price) == (9, 900)
    assert await gold(db, 1) == 5000 - 300 - 1250 - 900
    again = await shop.buy(1, 3, key="k1", tier=7)  # a repeated click replays the first purchase
    assert again.replayed
    assert (again.tier, again.total) == (1, 300)
    assert [o.id for o in again.openings] == [o.id for o in cheap.openings]
    assert await gold(db, 1) == 5000 - 300 - 1250 - 900


async def test_a_locked_booster_is_refused_and_changes_nothing(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=5000, registry=registry)
    await set_wins(db, 1, {1: 12, 2: 10, 3: 4})
    before = await db.read(snapshot)
    with pytest.raises(NotAllowed) as caught:
        await shop.buy(1, 1, key="locked", tier=4)
    assert caught.value.key == "hoss.error.shop.tier_locked"
    assert caught.value.params == {"tier": 4, "highest": 3}
    assert_localized(caught.value)
    assert await db.read(snapshot) == before
    assert (await shop.buy(1, 1, key="open", tier=3)).tier == 3


@pytest.mark.parametrize("tier", [0, 10, -1, True, "2", 2.0])
async def test_a_tier_out_of_bounds_is_refused_before_the_database(
    db: Database, clock: ManualClock, shop: HossShop, tier: object, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=5000, registry=registry)
    await set_wins(db, 1, EVERY_RANK)
    before = await db.read(snapshot)
    with pytest.raises(BadInput) as caught:
        await shop.buy(1, 1, key="bad", tier=tier)  # type: ignore[arg-type]
    assert caught.value.key == "hoss.error.shop.tier"
    assert caught.value.params == {"minimum": 1, "maximum": 9}
    assert_localized(caught.value)
    assert await db.read(snapshot) == before
