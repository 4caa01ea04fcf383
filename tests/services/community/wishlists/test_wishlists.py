"""Wishlists: 10 cards per game, a drop of a wished card names its wishers of the server, a wished card
shown off is told to them by DM once per card and day, and the alerts can be turned off."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed, NotFound
from services.community.drops.pool import DropPool, DropPrize
from services.community.drops.service import DropService
from services.community.wishlists.service import MAX_PER_GAME, WishlistService
from services.infra import ledger
from services.infra.catalogs import CardIndex
from services.infra.games import GameRegistry
from services.shared.showoff import ShowOffs
from store.connection import Connection
from store.db import Database
from tests.services.community.drops.conftest import CHANNEL, GUILD, OTHER_GUILD, PARIS, PLAYERS, active, grant

WISHED = "hum_lancier_1"  # a HOSS card


@pytest.fixture
def wishlists(
    db: Database, clock: ManualClock, catalogs: dict[str, Any], registry: GameRegistry
) -> WishlistService:
    return WishlistService(db, clock, registry, CardIndex(catalogs), PARIS)


def hoss_names(catalogs: dict[str, Any], count: int) -> list[str]:
    return [card.name.fr for card in catalogs["hoss"].cards[:count]]


async def test_ten_cards_per_game_then_a_refusal_that_changes_nothing(
    wishlists: WishlistService, catalogs: dict[str, Any]
) -> None:
    names = hoss_names(catalogs, MAX_PER_GAME + 1)
    for number, name in enumerate(names[:MAX_PER_GAME], start=1):
        added = await wishlists.add(PLAYERS[0], name, "fr")
        assert (added.fresh, added.count) == (True, number)

    again = await wishlists.add(PLAYERS[0], names[0], "fr")
    with pytest.raises(NotAllowed) as full:
        await wishlists.add(PLAYERS[0], names[-1], "fr")
    other_game = await wishlists.add(PLAYERS[0], "choco:" + catalogs["choco"].cards[0].id, "fr")

    assert (again.fresh, again.count) == (False, MAX_PER_GAME)
    assert full.value.key == "wishlist.error.full"
    assert other_game.count == 1
    assert len(await wishlists.wishes(PLAYERS[0])) == MAX_PER_GAME + 1


async def test_an_unknown_card_is_refused_with_suggestions_and_removing_one_not_listed_too(
    wishlists: WishlistService, catalogs: dict[str, Any]
) -> None:
    with pytest.raises(NotFound) as unknown:
        await wishlists.add(PLAYERS[0], "Piquier de la gard", "fr")
    with pytest.raises(NotFound) as not_listed:
        await wishlists.remove(PLAYERS[0], "hoss:" + WISHED, "fr")

    assert unknown.value.key == "error.card_not_found_suggest"
    assert not_listed.value.key == "wishlist.error.not_listed"
    assert await wishlists.wishes(PLAYERS[0]) == []


def fixed_prize(card: str) -> DropPool:
    def draw(_rng: random.Random, _catalog: Any) -> DropPrize:
        return DropPrize(card_id=card, attrs={"rarity": "or", "stars": 0, "holo": False})

    return DropPool(draw, lambda _catalog: Fraction(0), "hoss_gold")


async def test_a_drop_of_a_wished_card_names_its_wishers_seen_here_with_alerts_on(
    db: Database,
    clock: ManualClock,
    drops: DropService,
    wishlists: WishlistService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hoss = drops.registry.get("hoss")
    assert hoss is not None
    others = [g for g in drops.registry.all_games() if g.key != "hoss"]
    fixed = GameRegistry([*others, dataclasses.replace(hoss, drops=fixed_prize(WISHED))])
    monkeypatch.setattr(drops, "registry", fixed)
    here, quiet, elsewhere = PLAYERS[0], PLAYERS[1], PLAYERS[2]
    await active(drops, *PLAYERS[:2])
    await active(drops, elsewhere, guild=OTHER_GUILD)
    for player in (here, quiet, elsewhere):
        await wishlists.add(player, "hoss:" + WISHED, "fr")
    await wishlists.set_alerts(quiet, False)

    def unit(conn: Connection) -> int:
        return drops.open_drop(conn, clock.now(), GUILD, CHANNEL, "hoss")

    await db.write(unit)

    (payload,) = [
        json.loads(row[0])
        for row in await db.read(lambda c: c.execute("SELECT payload FROM outbox").fetchall())
    ]
    assert payload["content"]["key"] == "drops.post.wished"
    assert payload["content"]["params"]["players"] == f"<@{here}>"
    assert payload["ping_users"] == [here]


async def show_off(
    db: Database, clock: ManualClock, catalogs: dict[str, Any], player: int, registry: GameRegistry
) -> bool:
    """`player` shows off a HOSS Or copy of the wished card in the server's channel."""

    def unit(conn: Connection) -> int:
        return ledger.mint_card(
            conn,
            clock.now(),
            player,
            "hoss",
            WISHED,
            ledger.Movement("test.grant"),
            {"rarity": "or", "stars": 0, "holo": False},
        )

    copy = await db.write(unit)
    return await ShowOffs(db, clock, registry, catalogs, PARIS).show("hoss", player, copy, CHANNEL, GUILD)


async def notices(db: Database, player: int) -> list[str]:
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ?", (player,)
        ).fetchall()
    )
    return [str(row[0]) for row in rows]


async def test_a_wished_card_shown_off_is_told_by_dm_once_a_day(
    db: Database,
    clock: ManualClock,
    drops: DropService,
    wishlists: WishlistService,
    catalogs: dict[str, Any],
    registry: GameRegistry,
) -> None:
    shower, wisher = PLAYERS[0], PLAYERS[1]
    await grant(db, clock, registry, shower)
    await active(drops, shower, wisher)
    await wishlists.add(wisher, "hoss:" + WISHED, "fr")
    await wishlists.add(shower, "hoss:" + WISHED, "fr")  # showing it yourself tells you nothing

    assert await show_off(db, clock, catalogs, shower, registry=registry)
    assert await show_off(db, clock, catalogs, shower, registry=registry)  # another copy, the same day
    told_today = await notices(db, wisher)
    clock.advance(timedelta(days=1))
    assert await show_off(db, clock, catalogs, shower, registry=registry)

    assert len(told_today) == 1
    assert '"wishlist.dm.shown"' in told_today[0]
    assert len(await notices(db, wisher)) == 2
    assert await notices(db, shower) == []
    logged = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM showoff_log").fetchone()[0])
    assert logged == 3


async def test_alerts_off_means_no_dm(
    db: Database,
    clock: ManualClock,
    drops: DropService,
    wishlists: WishlistService,
    catalogs: dict[str, Any],
    registry: GameRegistry,
) -> None:
    shower, wisher = PLAYERS[0], PLAYERS[1]
    await grant(db, clock, registry, shower)
    await active(drops, shower, wisher)
    await wishlists.add(wisher, "hoss:" + WISHED, "fr")
    await wishlists.set_alerts(wisher, False)

    assert await show_off(db, clock, catalogs, shower, registry=registry)

    assert await notices(db, wisher) == []
