"""Fixtures for HOSS fusion and deck services: seeded randomness and a way to give a player copies with
chosen attributes (minted through the ledger, as the shop does); the real catalog comes from the HOSS
services' fixtures (tests/services/hoss/conftest.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from core.clock import ManualClock, to_db
from engine.hoss.catalog import HossCatalog
from services.hoss.decks import DeckService
from services.hoss.fusion import FusionService
from services.infra import ledger
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database

GRANT = ledger.Movement("test.grant")
# Six lines of the real catalog (two Défenseurs) and two buffs: a valid deck once owned.
LINES = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
BUFFS = ["buff_soins", "buff_vitesse"]


class ScriptedRandom(random.Random):
    """A Random whose `random()` returns the scripted values in order (0.0 always succeeds, 0.999 fails)."""

    def __init__(self, values: Iterator[float] | list[float]) -> None:
        super().__init__(0)
        self.values = iter(values)

    def random(self) -> float:
        return next(self.values)


@dataclass
class Cards:
    """Mint and read a player's copies straight through the ledger."""

    db: Database
    clock: ManualClock
    add_player: Callable[[Connection, int], None]

    async def player(self, player_id: int) -> int:
        await self.db.write(lambda conn: self.add_player(conn, player_id))
        return player_id

    async def give(
        self, player_id: int, card: str, rarity: str = "basique", stars: int = 0, holo: bool = False
    ) -> int:
        attrs = {"rarity": rarity, "stars": stars, "holo": holo}
        now = self.clock.now()
        return await self.db.write(
            lambda conn: ledger.mint_card(conn, now, player_id, "hoss", card, GRANT, attrs)
        )

    async def row(self, card_id: int) -> dict[str, Any]:
        def unit(conn: Connection) -> dict[str, Any]:
            row = conn.execute("SELECT * FROM cards WHERE id = ?", (card_id,)).fetchone()
            return dict(row)

        return await self.db.read(unit)

    async def stars(self, card_id: int) -> int:
        return int(json.loads((await self.row(card_id))["attrs"])["stars"])

    async def owner(self, card_id: int) -> int | None:
        owner = (await self.row(card_id))["owner_id"]
        return None if owner is None else int(owner)

    async def destroy(self, player_id: int, card_id: int) -> None:
        """What a sale does to a copy (the sale service is another engineer's): it leaves the collection."""
        now = self.clock.now()
        await self.db.write(
            lambda conn: ledger.destroy_card(conn, now, card_id, player_id, ledger.Movement("test.sale"))
        )

    async def hide(self, player_id: int, card_id: int) -> None:
        """Put a copy face down in a booster opening, as the shop leaves a card until it is flipped."""
        now = to_db(self.clock.now())

        def unit(conn: Connection) -> None:
            opening = conn.execute(
                "INSERT INTO hoss_openings (player_id, purchase_key, booster_index, kind, tier, created_at)"
                " VALUES (?, ?, 0, 'normal', 1, ?) RETURNING id",
                (player_id, f"test:{card_id}", now),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO hoss_opening_cards (opening_id, position, card_id) VALUES (?, 0, ?)",
                (opening, card_id),
            )

        await self.db.write(unit)

    async def deck_collection(
        self, player_id: int, rarity: str = "basique", stars: int = 1
    ) -> dict[str, int]:
        """The Rang 1 of every line in LINES and both BUFFS; returns card id -> copy id."""
        owned = {}
        for line in LINES:
            owned[f"{line}_1"] = await self.give(player_id, f"{line}_1", rarity, stars)
        for buff in BUFFS:
            owned[buff] = await self.give(player_id, buff, rarity, stars)
        return owned


@pytest.fixture
def cards(db: Database, clock: ManualClock, add_player: Callable[[Connection, int], None]) -> Cards:
    return Cards(db, clock, add_player)


@pytest.fixture
def fusion(db: Database, clock: ManualClock, catalog: HossCatalog) -> FusionService:
    return FusionService(db, clock, catalog, random.Random(20260105))


@pytest.fixture
def decks(db: Database, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry) -> DeckService:
    return DeckService(db, clock, catalog, registry=registry)


def scripted_fusion(
    db: Database, clock: ManualClock, catalog: HossCatalog, values: list[float]
) -> FusionService:
    return FusionService(db, clock, catalog, ScriptedRandom(values))
