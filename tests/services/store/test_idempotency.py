"""A double click is two requests: with one idempotency key, the work happens once and both get its result."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import InsufficientFunds
from services.infra import ledger
from services.infra.ledger import Movement
from store.connection import Connection
from store.db import Database
from store.idempotency import once

AddPlayer = Callable[[Connection, int], None]
Conservation = Callable[[Connection], None]


async def _rich_player(db: Database, clock: ManualClock, add_player: AddPlayer, gold: int = 100) -> None:
    def unit(conn: Connection) -> None:
        add_player(conn, 1)
        ledger.credit(conn, clock.now(), 1, "gold", gold, Movement("test.grant"))

    await db.write(unit)


def _buy(clock: ManualClock, key: str, price: int = 1) -> Callable[[Connection], tuple[Any, bool]]:
    def unit(conn: Connection) -> tuple[Any, bool]:
        def work() -> dict[str, Any]:
            after = ledger.debit(conn, clock.now(), 1, "gold", price, Movement("shop.buy", ref=key))
            return {"balance": after, "items": ("sword", price)}

        return once(conn, key, clock.now(), work)

    return unit


def _count(sql: str) -> Callable[[Connection], int]:
    return lambda conn: conn.execute(sql).fetchone()[0]


async def test_the_same_key_runs_once_and_replays_the_result(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _rich_player(db, clock, add_player)
    first, fresh = await db.write(_buy(clock, "click:1"))
    again, replayed_fresh = await db.write(_buy(clock, "click:1"))
    assert fresh
    assert not replayed_fresh
    assert first == again == {"balance": 99, "items": ["sword", 1]}
    assert await db.read(lambda conn: ledger.balance(conn, 1, "gold")) == 99


async def test_fresh_and_replayed_results_are_identical(db: Database, clock: ManualClock) -> None:
    """JSON turns tuples into lists and int keys into strings; the first caller must see what replays see."""
    work_result = {"ids": (1, 2), "by_id": {3: "x"}}
    fresh = await db.write(lambda conn: once(conn, "k", clock.now(), lambda: work_result))
    replay = await db.write(lambda conn: once(conn, "k", clock.now(), lambda: work_result))
    assert fresh[0] == replay[0] == {"ids": [1, 2], "by_id": {"3": "x"}}


@pytest.mark.parametrize("result", [41, "ok", True, None, (1, 2), 2.5])
async def test_a_plain_result_is_the_same_fresh_and_replayed(
    db: Database, clock: ManualClock, result: object
) -> None:
    """A number, a text, a flag or nothing come back as they are, a tuple as a list, both times."""
    fresh = await db.write(lambda conn: once(conn, "k", clock.now(), lambda: result))
    replay = await db.write(lambda conn: once(conn, "k", clock.now(), lambda: result))
    assert fresh[0] == replay[0] == (list(result) if isinstance(result, tuple) else result)
    assert type(fresh[0]) is type(replay[0])


async def test_different_keys_are_independent(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _rich_player(db, clock, add_player)
    await asyncio.gather(*(db.write(_buy(clock, f"click:{i}")) for i in range(5)))
    assert await db.read(lambda conn: ledger.balance(conn, 1, "gold")) == 95
    assert await db.read(_count("SELECT COUNT(*) FROM idempotency")) == 5


async def test_fifty_concurrent_identical_clicks_debit_once(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    await _rich_player(db, clock, add_player, gold=30)
    results = await asyncio.gather(*(db.write(_buy(clock, "interaction:42")) for _ in range(50)))
    assert all(r[0] == {"balance": 29, "items": ["sword", 1]} for r in results)
    assert [r[1] for r in results].count(True) == 1
    assert await db.read(lambda conn: ledger.balance(conn, 1, "gold")) == 29
    assert await db.read(_count("SELECT COUNT(*) FROM ledger WHERE delta < 0")) == 1
    assert await db.read(_count("SELECT COUNT(*) FROM idempotency")) == 1
    await db.read(conservation)


async def test_fifty_staggered_identical_clicks_debit_once(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    """Same race, spread over many transactions rather than one batch."""
    await _rich_player(db, clock, add_player, gold=30)

    async def click(i: int) -> tuple[Any, bool]:
        await asyncio.sleep((i % 10) * 0.002)
        return await db.write(_buy(clock, "interaction:43"))

    results = await asyncio.gather(*(click(i) for i in range(50)))
    assert all(r[0] == results[0][0] for r in results)
    assert await db.read(lambda conn: ledger.balance(conn, 1, "gold")) == 29
    await db.read(conservation)


async def test_a_failed_operation_records_nothing_and_may_be_retried(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _rich_player(db, clock, add_player, gold=5)
    with pytest.raises(InsufficientFunds):
        await db.write(_buy(clock, "click:retry", price=10))
    assert await db.read(_count("SELECT COUNT(*) FROM idempotency")) == 0
    await db.write(lambda conn: ledger.credit(conn, clock.now(), 1, "gold", 5, Movement("test.grant")))
    result, fresh = await db.write(_buy(clock, "click:retry", price=10))
    assert fresh
    assert result["balance"] == 0


async def test_an_unserialisable_result_undoes_the_work(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _rich_player(db, clock, add_player)

    def unit(conn: Connection) -> tuple[Any, bool]:
        def work() -> object:
            ledger.debit(conn, clock.now(), 1, "gold", 10, Movement("shop.buy"))
            return object()

        return once(conn, "bad", clock.now(), work)

    with pytest.raises(TypeError):
        await db.write(unit)
    assert await db.read(lambda conn: ledger.balance(conn, 1, "gold")) == 100


async def test_the_key_is_unique_in_the_schema(db: Database, clock: ManualClock) -> None:
    await db.write(lambda conn: once(conn, "k", clock.now(), lambda: 1))
    with pytest.raises(sqlite3.IntegrityError):
        await db.write(lambda conn: conn.execute("INSERT INTO idempotency VALUES ('k', '2', 't')"))
