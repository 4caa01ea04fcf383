"""The fixtures every game's service tests start from, made once here instead of copied in each game's
conftest.py: the game's catalog (loaded once a session), a registry of that game alone (so a player
created in a test gets the game's starting wallet, and no other game's), a seeded random stream, and a
service built from those; and the ledger moves that set a player's balance.

A game's conftest.py binds them to its names (`catalog, registry, rng = game_fixtures(...)`) and keeps
only what is really its own."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from core.clock import ManualClock
from services.infra import ledger
from services.infra.games import GameRegistry, GameSpec
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database

GRANT = ledger.Movement("test.grant")


def game_fixtures(game: GameSpec, load: Callable[[], Any], *, seed: int) -> tuple[Any, Any, Any]:
    """`catalog` (what `load` returns, once a session), `registry` (the game alone) and `rng` (`seed`)."""

    @pytest.fixture(scope="session", name="catalog")
    def catalog() -> Any:
        return load()

    @pytest.fixture(name="registry")
    def registry() -> GameRegistry:
        return GameRegistry((game,))

    @pytest.fixture(name="rng")
    def rng() -> random.Random:
        return random.Random(seed)

    return catalog, registry, rng


def service_fixture(
    name: str, make: Callable[[Database, ManualClock, Any, random.Random, GameRegistry], Any]
) -> Any:
    """A fixture `name`: `make(db, clock, catalog, rng, registry)`, as the bot builds a game's service."""

    @pytest.fixture(name=name)
    def service(
        db: Database, clock: ManualClock, catalog: Any, rng: random.Random, registry: GameRegistry
    ) -> Any:
        return make(db, clock, catalog, rng, registry)

    return service


async def set_balance(
    db: Database,
    clock: ManualClock,
    registry: GameRegistry,
    player_id: int,
    currency: str,
    amount: int | None,
) -> None:
    """The player created if needed (with `registry`'s starting wallets), then their balance in
    `currency` brought to `amount` (None: left as it is) through the ledger, as a grant or a debit."""

    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, clock.now(), registry)
        have = ledger.balance(conn, player_id, currency)
        if amount is None:
            return
        if amount > have:
            ledger.credit(conn, clock.now(), player_id, currency, amount - have, GRANT)
        elif amount < have:
            ledger.debit(conn, clock.now(), player_id, currency, have - amount, GRANT)

    await db.write(unit)


async def balance(db: Database, player_id: int, currency: str) -> int:
    return await db.read(lambda conn: ledger.balance(conn, player_id, currency))
