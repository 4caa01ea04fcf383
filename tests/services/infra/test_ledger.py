"""Money and cards: every change is guarded, atomic and explained by exactly the ledger rows it wrote."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.clock import ManualClock
from core.errors import CardUnavailable, DomainError, InsufficientFunds
from services.infra import ledger
from services.infra.games import money
from services.infra.ledger import Movement
from services.infra.messages import Text
from store.connection import Connection
from store.db import Database
from store.migrate import migrate

AddPlayer = Callable[[Connection, int], None]
Conservation = Callable[[Connection], None]
GRANT = Movement("test.grant")
SPEND = Movement("test.spend", ref="shop")


async def _player_with(
    db: Database, clock: ManualClock, add_player: AddPlayer, player_id: int, gold: int
) -> None:
    def unit(conn: Connection) -> None:
        add_player(conn, player_id)
        if gold:
            ledger.credit(conn, clock.now(), player_id, "gold", gold, GRANT)

    await db.write(unit)


def _ledger_rows(conn: Connection) -> list[tuple[Any, ...]]:
    rows = conn.execute(
        "SELECT player_id, currency, card_id, delta, balance_after, reason, ref FROM ledger ORDER BY id"
    )
    return [tuple(row) for row in rows]


def _balance(player_id: int, currency: str = "gold") -> Callable[[Connection], int]:
    return lambda conn: ledger.balance(conn, player_id, currency)


# --- the schema's own guards -------------------------------------------------------------------------------


async def test_a_wallet_cannot_go_negative_even_with_raw_sql(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _player_with(db, clock, add_player, 1, 10)
    with pytest.raises(sqlite3.IntegrityError, match=r"(?i)check"):
        await db.write(
            lambda conn: conn.execute("UPDATE wallets SET balance = balance - 11 WHERE player_id = 1")
        )
    with pytest.raises(sqlite3.IntegrityError, match=r"(?i)check"):
        await db.write(lambda conn: conn.execute("INSERT INTO wallets VALUES (1, 'gems', -1)"))
    assert await db.read(_balance(1)) == 10
    assert await db.read(_balance(1, "gems")) == 0


@pytest.mark.parametrize(
    "statement",
    ["UPDATE ledger SET delta = 1000", "UPDATE ledger SET reason = 'x' WHERE id = 1", "DELETE FROM ledger"],
)
async def test_ledger_rows_cannot_be_changed_or_deleted(
    db: Database, clock: ManualClock, add_player: AddPlayer, statement: str
) -> None:
    await _player_with(db, clock, add_player, 1, 10)
    before = await db.read(_ledger_rows)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        await db.write(lambda conn: conn.execute(statement))
    assert await db.read(_ledger_rows) == before


@pytest.mark.parametrize(
    ("currency", "card_id", "delta"),
    [("gold", None, 0), (None, None, 5), ("gold", 1, 1), (None, 1, 2)],
    ids=["zero-delta", "neither-money-nor-card", "both", "card-moves-by-two"],
)
async def test_ledger_rows_must_be_well_formed(
    db: Database,
    clock: ManualClock,
    add_player: AddPlayer,
    currency: str | None,
    card_id: int | None,
    delta: int,
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 1, "g", "k", GRANT))
    with pytest.raises(sqlite3.IntegrityError):
        await db.write(
            lambda conn: conn.execute(
                "INSERT INTO ledger (at, player_id, currency, card_id, delta, reason)"
                " VALUES ('t', 1, ?, ?, ?, 'x')",
                (currency, card_id, delta),
            )
        )


async def test_money_cannot_be_given_to_a_stranger(db: Database, clock: ManualClock) -> None:
    with pytest.raises(sqlite3.IntegrityError, match=r"(?i)foreign key"):
        await db.write(lambda conn: ledger.credit(conn, clock.now(), 404, "gold", 5, GRANT))


# --- credit and debit --------------------------------------------------------------------------------------


async def test_credit_and_debit_write_one_ledger_row_each(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    assert await db.write(lambda conn: ledger.credit(conn, clock.now(), 1, "gold", 50, GRANT)) == 50
    assert await db.write(lambda conn: ledger.debit(conn, clock.now(), 1, "gold", 20, SPEND)) == 30
    assert await db.write(lambda conn: ledger.credit(conn, clock.now(), 1, "gems", 3, GRANT)) == 3
    assert await db.read(_ledger_rows) == [
        (1, "gold", None, 50, 50, "test.grant", None),
        (1, "gold", None, -20, 30, "test.spend", "shop"),
        (1, "gems", None, 3, 3, "test.grant", None),
    ]
    assert await db.read(_balance(1)) == 30
    await db.read(conservation)


async def test_a_debit_to_exactly_zero_is_allowed(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _player_with(db, clock, add_player, 1, 7)
    assert await db.write(lambda conn: ledger.debit(conn, clock.now(), 1, "gold", 7, SPEND)) == 0


@pytest.mark.parametrize("gold", [0, 9], ids=["no-wallet", "short"])
async def test_insufficient_funds_writes_nothing(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation, gold: int
) -> None:
    await _player_with(db, clock, add_player, 1, gold)
    before = await db.read(_ledger_rows)
    with pytest.raises(InsufficientFunds) as caught:
        await db.write(lambda conn: ledger.debit(conn, clock.now(), 1, "gold", 10, SPEND))
    params = caught.value.params
    assert {k: params[k] for k in ("currency", "needed", "available")} == {
        "currency": "gold",
        "needed": money("gold", 10),
        "available": money("gold", gold),
    }
    # an undeclared currency is named by its code, with no advice on earning it
    assert (params["name"], params["earn"]) == (Text.raw("gold"), Text.raw(""))
    assert await db.read(_ledger_rows) == before
    assert await db.read(_balance(1)) == gold
    await db.read(conservation)


async def test_a_failed_debit_undoes_the_rest_of_its_unit(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    """A purchase = debit + mint; if any part fails, none of it happened."""
    await _player_with(db, clock, add_player, 1, 5)

    def buy(conn: Connection) -> int:
        card = ledger.mint_card(conn, clock.now(), 1, "g", "rare", SPEND)
        ledger.credit(conn, clock.now(), 1, "gems", 1, SPEND)
        ledger.debit(conn, clock.now(), 1, "gold", 6, SPEND)
        return card

    with pytest.raises(InsufficientFunds):
        await db.write(buy)
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]) == 0
    assert await db.read(_balance(1, "gems")) == 0
    assert len(await db.read(_ledger_rows)) == 1  # only the starting credit
    await db.read(conservation)


@pytest.mark.parametrize("amount", [0, -5])
@pytest.mark.parametrize("operation", [ledger.credit, ledger.debit])
async def test_amounts_must_be_positive(
    db: Database, clock: ManualClock, add_player: AddPlayer, operation: Callable[..., int], amount: int
) -> None:
    await _player_with(db, clock, add_player, 1, 10)
    with pytest.raises(ValueError, match="amount must be positive"):
        await db.write(lambda conn: operation(conn, clock.now(), 1, "gold", amount, SPEND))
    assert await db.read(_balance(1)) == 10


# --- cards --------------------------------------------------------------------------------------------


def _owner(card_id: int) -> Callable[[Connection], Any]:
    return lambda conn: conn.execute(
        "SELECT owner_id, locked_by FROM cards WHERE id = ?", (card_id,)
    ).fetchone()


async def test_card_mint_transfer_destroy_write_plus_and_minus_one_rows(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    await _player_with(db, clock, add_player, 2, 0)
    card = await db.write(
        lambda conn: ledger.mint_card(conn, clock.now(), 1, "hoss", "dragon", GRANT, {"stars": 1})
    )
    assert tuple(await db.read(_owner(card))) == (1, None)
    await db.write(lambda conn: ledger.transfer_card(conn, clock.now(), card, 1, 2, Movement("trade", "t1")))
    assert tuple(await db.read(_owner(card))) == (2, None)
    await db.read(conservation)
    await db.write(lambda conn: ledger.destroy_card(conn, clock.now(), card, 2, Movement("sell")))
    assert tuple(await db.read(_owner(card))) == (None, None)
    assert await db.read(_ledger_rows) == [
        (1, None, card, 1, None, "test.grant", None),
        (1, None, card, -1, None, "trade", "t1"),
        (2, None, card, 1, None, "trade", "t1"),
        (2, None, card, -1, None, "sell", None),
    ]
    await db.read(conservation)
    # A destroyed card can be neither moved nor destroyed again.
    with pytest.raises(CardUnavailable):
        await db.write(lambda conn: ledger.destroy_card(conn, clock.now(), card, 2, Movement("sell")))


async def test_locked_cards_cannot_move_until_unlocked(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    await _player_with(db, clock, add_player, 2, 0)
    card = await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 1, "hoss", "dragon", GRANT))
    await db.write(lambda conn: ledger.set_card_lock(conn, [card], 1, "deck:1"))
    rows = await db.read(_ledger_rows)
    with pytest.raises(CardUnavailable):
        await db.write(lambda conn: ledger.transfer_card(conn, clock.now(), card, 1, 2, Movement("trade")))
    with pytest.raises(CardUnavailable):
        await db.write(lambda conn: ledger.destroy_card(conn, clock.now(), card, 1, Movement("sell")))
    with pytest.raises(CardUnavailable):  # a second lock may not steal the card from the first
        await db.write(lambda conn: ledger.set_card_lock(conn, [card], 1, "deck:2"))
    assert tuple(await db.read(_owner(card))) == (1, "deck:1")
    assert await db.read(_ledger_rows) == rows

    await db.write(lambda conn: ledger.set_card_lock(conn, [card], 1, None))
    await db.write(lambda conn: ledger.transfer_card(conn, clock.now(), card, 1, 2, Movement("trade")))
    assert tuple(await db.read(_owner(card))) == (2, None)
    await db.read(conservation)


async def test_only_the_owner_can_move_or_lock_a_card(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    await _player_with(db, clock, add_player, 2, 0)
    card = await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 1, "hoss", "dragon", GRANT))
    attempts: list[Callable[[Connection], Any]] = [
        lambda conn: ledger.transfer_card(conn, clock.now(), card, 2, 2, Movement("steal")),
        lambda conn: ledger.destroy_card(conn, clock.now(), card, 2, Movement("steal")),
        lambda conn: ledger.set_card_lock(conn, [card], 2, "deck"),
        lambda conn: ledger.update_card_attrs(conn, card, 2, {"stars": 9}),
    ]
    for attempt in attempts:
        with pytest.raises(CardUnavailable):
            await db.write(attempt)
    assert tuple(await db.read(_owner(card))) == (1, None)


async def test_locking_several_cards_is_all_or_nothing(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    await _player_with(db, clock, add_player, 2, 0)
    mine = await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 1, "g", "a", GRANT))
    theirs = await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 2, "g", "b", GRANT))
    with pytest.raises(CardUnavailable):
        await db.write(lambda conn: ledger.set_card_lock(conn, [mine, theirs], 1, "deck"))
    assert tuple(await db.read(_owner(mine))) == (1, None)


async def test_changing_attributes_writes_no_ledger_row(
    db: Database, clock: ManualClock, add_player: AddPlayer
) -> None:
    await _player_with(db, clock, add_player, 1, 0)
    card = await db.write(lambda conn: ledger.mint_card(conn, clock.now(), 1, "g", "a", GRANT, {"stars": 1}))
    await db.write(lambda conn: ledger.update_card_attrs(conn, card, 1, {"stars": 2}))
    assert await db.read(lambda conn: conn.execute("SELECT attrs FROM cards").fetchone()[0]) == '{"stars": 2}'
    assert len(await db.read(_ledger_rows)) == 1


# --- concurrency -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arrival", ["together", "staggered"])
async def test_fifty_concurrent_debits_from_thirty_gold(
    db: Database, clock: ManualClock, add_player: AddPlayer, conservation: Conservation, arrival: str
) -> None:
    """The required race: 50 clicks, money for 30. Exactly 30 win, whatever the batching."""
    await _player_with(db, clock, add_player, 1, 30)
    jitter = random.Random(7)

    async def click() -> int:
        if arrival == "staggered":  # spread the clicks over many batches
            await asyncio.sleep(jitter.random() * 0.02)
        return await db.write(lambda conn: ledger.debit(conn, clock.now(), 1, "gold", 1, SPEND))

    before = db.batches
    results = await asyncio.gather(*(click() for _ in range(50)), return_exceptions=True)
    won = [r for r in results if isinstance(r, int)]
    lost = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(won) == 30, results
    assert len(lost) == 20, results
    assert sorted(won) == list(
        range(30)
    )  # each balance_after 29..0 exactly once: never negative, never twice
    assert all(e.params["available"] == money("gold", 0) for e in lost)
    assert await db.read(_balance(1)) == 0
    debits = await db.read(
        lambda conn: conn.execute("SELECT COUNT(*) FROM ledger WHERE delta < 0").fetchone()[0]
    )
    assert debits == 30
    await db.read(conservation)
    if arrival == "together":
        assert db.batches - before < 50


# --- property: any interleaving of operations conserves money and cards -------------------------------------

PLAYERS = (1, 2, 3)
CURRENCIES = ("gold", "gems")

player_st = st.sampled_from(PLAYERS)
operation_st = st.one_of(
    st.tuples(st.just("credit"), player_st, st.sampled_from(CURRENCIES), st.integers(1, 40)),
    st.tuples(st.just("debit"), player_st, st.sampled_from(CURRENCIES), st.integers(1, 40)),
    st.tuples(st.just("buy"), player_st, st.integers(1, 25)),  # debit gold + mint, one unit
    st.tuples(
        st.just("sell"), player_st, st.integers(0, 3), st.integers(1, 25)
    ),  # destroy + credit, one unit
    st.tuples(st.just("transfer"), player_st, st.integers(0, 3), player_st),
    st.tuples(st.just("lock"), player_st, st.integers(0, 3)),
    st.tuples(st.just("unlock"), player_st, st.integers(0, 3)),
)


@dataclass
class Model:
    """What the database should hold after the same operations applied one by one, in submission order."""

    balances: dict[tuple[int, str], int] = field(default_factory=dict)
    cards: dict[int, tuple[int | None, bool]] = field(default_factory=dict)  # id -> (owner, locked)

    def nth(self, player: int, n: int) -> int | None:
        owned = sorted(c for c, (owner, _) in self.cards.items() if owner == player)
        return owned[n] if n < len(owned) else None

    def apply(self, op: tuple[Any, ...]) -> str:
        kind = op[0]
        if kind == "credit":
            _, p, cur, amount = op
            self.balances[p, cur] = self.balances.get((p, cur), 0) + amount
        elif kind in ("debit", "buy"):
            p, cur, amount = (op[1], op[2], op[3]) if kind == "debit" else (op[1], "gold", op[2])
            if self.balances.get((p, cur), 0) < amount:
                return "InsufficientFunds"
            self.balances[p, cur] -= amount
            if kind == "buy":
                self.cards[len(self.cards) + 1] = (p, False)
        else:
            p, n = op[1], op[2]
            card = self.nth(p, n)
            if card is None:
                return "CardUnavailable"
            locked = self.cards[card][1]
            if kind == "lock":
                if locked:
                    return "CardUnavailable"
                self.cards[card] = (p, True)
            elif kind == "unlock":
                self.cards[card] = (p, False)
            elif locked:
                return "CardUnavailable"
            elif kind == "transfer":
                self.cards[card] = (op[3], False)
            else:  # sell
                self.cards[card] = (None, False)
                self.balances[p, "gold"] = self.balances.get((p, "gold"), 0) + op[3]
        return "ok"


def _nth_card(conn: Connection, player: int, n: int) -> int:
    row = conn.execute(
        "SELECT id FROM cards WHERE owner_id = ? ORDER BY id LIMIT 1 OFFSET ?", (player, n)
    ).fetchone()
    if row is None:
        raise CardUnavailable(card=None)
    return int(row[0])


def _unit(op: tuple[Any, ...], now: datetime) -> Callable[[Connection], str]:
    why = Movement(f"prop.{op[0]}")

    def unit(conn: Connection) -> str:
        kind = op[0]
        if kind == "credit":
            ledger.credit(conn, now, op[1], op[2], op[3], why)
        elif kind == "debit":
            ledger.debit(conn, now, op[1], op[2], op[3], why)
        elif kind == "buy":
            ledger.debit(conn, now, op[1], "gold", op[2], why)
            ledger.mint_card(conn, now, op[1], "g", "booster", why)
        else:
            card = _nth_card(conn, op[1], op[2])
            if kind == "lock":
                ledger.set_card_lock(conn, [card], op[1], "deck")
            elif kind == "unlock":
                ledger.set_card_lock(conn, [card], op[1], None)
            elif kind == "transfer":
                ledger.transfer_card(conn, now, card, op[1], op[3], why)
            else:
                ledger.destroy_card(conn, now, card, op[1], why)
                ledger.credit(conn, now, op[1], "gold", op[3], why)
        return "ok"

    return unit


async def _run_scenario(path: Path, operations: list[tuple[Any, ...]], conservation: Conservation) -> None:
    clock = ManualClock()
    db = Database(path)
    await db.open()
    try:
        await migrate(await db.raw_writer())
        model = Model()
        setup: list[tuple[Any, ...]] = [("credit", p, "gold", 20) for p in PLAYERS]

        def create_players(conn: Connection) -> None:
            for p in PLAYERS:
                conn.execute("INSERT INTO players (id, created_at) VALUES (?, 't')", (p,))

        await db.write(create_players)
        for op in setup:
            model.apply(op)
            await db.write(_unit(op, clock.now()))

        # All operations race for the writer at once; the queue keeps submission order, so the model predicts
        # each outcome exactly even though they share transactions.
        expected = [model.apply(op) for op in operations]
        results = await asyncio.gather(
            *(db.write(_unit(op, clock.now())) for op in operations), return_exceptions=True
        )
        outcomes = [r if isinstance(r, str) else type(r).__name__ for r in results]
        assert all(isinstance(r, str | DomainError) for r in results), results
        assert outcomes == expected

        def snapshot(conn: Connection) -> tuple[dict[Any, int], dict[int, tuple[int | None, bool]]]:
            conservation(conn)
            balances = {
                (p, c): b for p, c, b in conn.execute("SELECT player_id, currency, balance FROM wallets")
            }
            cards = {
                i: (o, lk is not None)
                for i, o, lk in conn.execute("SELECT id, owner_id, locked_by FROM cards")
            }
            return balances, cards

        balances, cards = await db.read(snapshot)
        assert balances == model.balances
        assert cards == model.cards
    finally:
        await db.close()


# `conservation` is a pure function, so sharing it across examples is safe; each example has its own database.
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=st.lists(operation_st, min_size=1, max_size=40))
def test_any_sequence_of_operations_conserves_money_and_cards(
    conservation: Conservation, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(_run_scenario(Path(directory) / "prop.sqlite3", operations, conservation))
