"""The only code that changes a balance or who owns a card; each change writes its ledger row in the same unit.

These functions run inside a write unit (see `store.db.Database.write`). A debit is guarded by the
UPDATE itself (`WHERE balance >= ?` and a row-count check): there is no read-then-write window.

Nothing is credited, minted or handed to an erased player (a negative id, services/infra/erased.py):
a refusal in the player's words here, and the store's own triggers below it.

Every change of a copy (its owner, its lock, its properties) announces `CARDS_TOPIC` with the owner's id
(`store.db.announce`): what a process remembers of a player's copies (HOSS's collection pages) forgets
them once the change commits, in this process and the others.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.clock import to_db
from core.errors import CardUnavailable, InsufficientFunds
from services.infra.erased import refuse_erased
from services.infra.games import Currency, money
from services.infra.messages import Text
from store.connection import Connection
from store.db import announce, send

CARDS_TOPIC = "cards"  # announced with the owner's id by every change of a copy
WALLETS_TOPIC = "wallets"  # announced with the player's id by every change of a balance


@dataclass(frozen=True)
class Movement:
    reason: str  # a stable code such as "starting_grant"
    ref: str | None = None  # what it belongs to: a game id, an offer id...


def balance(conn: Connection, player_id: int, currency: str) -> int:
    row = conn.execute(
        "SELECT balance FROM wallets WHERE player_id = ? AND currency = ?", (player_id, currency)
    ).fetchone()
    return int(row[0]) if row else 0


def balances(conn: Connection, player_id: int) -> dict[str, int]:
    """Every wallet of the player in one statement (a currency without a wallet is absent: 0)."""
    rows = conn.execute("SELECT currency, balance FROM wallets WHERE player_id = ?", (player_id,))
    return {str(currency): int(amount) for currency, amount in rows}


def _record(
    conn: Connection,
    now: datetime,
    player_id: int,
    delta: int,
    why: Movement,
    *,
    currency: str | None = None,
    card_id: int | None = None,
    balance_after: int | None = None,
) -> None:
    send(
        conn,
        "INSERT INTO ledger (at, player_id, currency, card_id, delta, balance_after, reason, ref)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (to_db(now), player_id, currency, card_id, delta, balance_after, why.reason, why.ref),
    )


def credit(conn: Connection, now: datetime, player_id: int, currency: str, amount: int, why: Movement) -> int:
    return credit_all(conn, now, player_id, [(currency, amount, why)])[0]


def credit_all(
    conn: Connection, now: datetime, player_id: int, credits: Sequence[tuple[str, int, Movement]]
) -> list[int]:
    """Several credits of one player, (currency, amount, why) each, as `credit` one after the other would
    make them, in two statements instead of two each: /daily credits every game's currency at once. The
    wallets are upserted together (one row per currency, a currency credited twice its sum), and each
    ledger row carries the balance its own credit left, in the order given. Returns those balances. `credit`
    is the one-credit case: the same two statements."""
    for _, amount, _ in credits:
        if amount <= 0:
            raise ValueError(f"credit amount must be positive, got {amount}")
    if not credits:
        return []
    refuse_erased(player_id)
    totals: dict[str, int] = {}
    for currency, amount, _ in credits:
        totals[currency] = totals.get(currency, 0) + amount
    rows = conn.execute(
        "INSERT INTO wallets (player_id, currency, balance) VALUES "
        + ", ".join(["(?, ?, ?)"] * len(totals))
        + " ON CONFLICT (player_id, currency) DO UPDATE SET balance = wallets.balance + excluded.balance"
        " RETURNING currency, balance",
        [value for currency, total in totals.items() for value in (player_id, currency, total)],
    ).fetchall()
    running = {str(currency): int(after) - totals[str(currency)] for currency, after in rows}
    afters: list[int] = []
    values: list[object] = []
    at = to_db(now)
    for currency, amount, why in credits:
        running[currency] += amount
        afters.append(running[currency])
        values += (at, player_id, currency, None, amount, running[currency], why.reason, why.ref)
    send(
        conn,
        "INSERT INTO ledger (at, player_id, currency, card_id, delta, balance_after, reason, ref) VALUES "
        + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(credits)),
        values,
    )
    announce(conn, WALLETS_TOPIC, str(player_id))
    return afters


def _name(currency: Currency | str) -> Text:
    return Text.raw(currency) if isinstance(currency, str) else Text(currency.name_key)


def _earn(currency: Currency | str) -> Text:
    """How to earn more of `currency`: the refusal names the next command instead of a dead end."""
    if isinstance(currency, str) or currency.earn_key is None:
        return Text.raw("")
    return Text(currency.earn_key)


def debit(
    conn: Connection, now: datetime, player_id: int, currency: Currency | str, amount: int, why: Movement
) -> int:
    """Take `amount` if the player holds it, else refuse naming the currency: the caller passes its
    declaration (`Currency`, from its game or the registry) for the refusal's words, or only a code for a
    currency no game declares (the refusal then names the code)."""
    if amount <= 0:
        raise ValueError(f"debit amount must be positive, got {amount}")
    code = currency if isinstance(currency, str) else currency.code
    row = conn.execute(
        "UPDATE wallets SET balance = balance - ? WHERE player_id = ? AND currency = ? AND balance >= ?"
        " RETURNING balance",
        (amount, player_id, code, amount),
    ).fetchone()
    if row is None:
        raise InsufficientFunds(
            currency=code,
            needed=money(code, amount),
            available=money(code, balance(conn, player_id, code)),
            name=_name(currency),
            earn=_earn(currency),
        )
    after = int(row[0])
    _record(conn, now, player_id, -amount, why, currency=code, balance_after=after)
    announce(conn, WALLETS_TOPIC, str(player_id))
    return after


def mint_card(
    conn: Connection,
    now: datetime,
    owner_id: int,
    game: str,
    card_key: str,
    why: Movement,
    attrs: dict[str, Any] | None = None,
) -> int:
    refuse_erased(owner_id)
    row = conn.execute(
        "INSERT INTO cards (game, card_key, owner_id, attrs, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
        (game, card_key, owner_id, json.dumps(attrs or {}, sort_keys=True), to_db(now)),
    ).fetchone()
    card_id = int(row[0])
    _record(conn, now, owner_id, 1, why, card_id=card_id)
    _changed(conn, owner_id)
    return card_id


def _changed(conn: Connection, *owners: int) -> None:
    for owner in owners:
        announce(conn, CARDS_TOPIC, str(owner))


def _take_card(conn: Connection, card_id: int, owner_id: int, new_owner: int | None) -> None:
    cursor = conn.execute(
        "UPDATE cards SET owner_id = ? WHERE id = ? AND owner_id = ? AND locked_by IS NULL",
        (new_owner, card_id, owner_id),
    )
    if cursor.rowcount != 1:
        raise CardUnavailable(card=card_id)


def transfer_card(
    conn: Connection, now: datetime, card_id: int, from_id: int, to_id: int, why: Movement
) -> None:
    refuse_erased(to_id)
    _take_card(conn, card_id, from_id, to_id)
    _record(conn, now, from_id, -1, why, card_id=card_id)
    _record(conn, now, to_id, 1, why, card_id=card_id)
    _changed(conn, from_id, to_id)


def destroy_card(conn: Connection, now: datetime, card_id: int, owner_id: int, why: Movement) -> None:
    _take_card(conn, card_id, owner_id, None)
    _record(conn, now, owner_id, -1, why, card_id=card_id)
    _changed(conn, owner_id)


def transfer_locked_card(
    conn: Connection, now: datetime, card_id: int, from_id: int, to_id: int, lock: str, why: Movement
) -> None:
    """Move a copy held by `lock` (a trade's own lock) and free it, in one guarded UPDATE: a copy that
    changed hands, lost that lock or is held by another lock is `CardUnavailable` and nothing moves."""
    refuse_erased(to_id)
    cursor = conn.execute(
        "UPDATE cards SET owner_id = ?, locked_by = NULL WHERE id = ? AND owner_id = ? AND locked_by = ?",
        (to_id, card_id, from_id, lock),
    )
    if cursor.rowcount != 1:
        raise CardUnavailable(card=card_id)
    _record(conn, now, from_id, -1, why, card_id=card_id)
    _record(conn, now, to_id, 1, why, card_id=card_id)
    _changed(conn, from_id, to_id)


def release_lock(conn: Connection, lock: str) -> list[int]:
    """Free every copy `lock` holds (a trade that ended without the swap); returns their ids."""
    rows = conn.execute(
        "UPDATE cards SET locked_by = NULL WHERE locked_by = ? RETURNING id, owner_id", (lock,)
    ).fetchall()
    _changed(conn, *sorted({int(row[1]) for row in rows if row[1] is not None}))
    return sorted(int(row[0]) for row in rows)


def set_card_lock(conn: Connection, card_ids: list[int], owner_id: int, lock: str | None) -> None:
    """Lock cards (e.g. into an arena deck) or unlock them; a locked card cannot be sold, moved or sacrificed."""
    for card_id in card_ids:
        cursor = conn.execute(
            "UPDATE cards SET locked_by = ? WHERE id = ? AND owner_id = ?"
            " AND (CAST(? AS TEXT) IS NULL OR locked_by IS NULL)",
            (lock, card_id, owner_id, lock),
        )
        if cursor.rowcount != 1:
            raise CardUnavailable(card=card_id)
    _changed(conn, owner_id)


def update_card_attrs(conn: Connection, card_id: int, owner_id: int, attrs: dict[str, Any]) -> None:
    """Change a copy's properties (stars after a fusion); ownership is unchanged so no ledger row is due."""
    cursor = conn.execute(
        "UPDATE cards SET attrs = ? WHERE id = ? AND owner_id = ?",
        (json.dumps(attrs, sort_keys=True), card_id, owner_id),
    )
    if cursor.rowcount != 1:
        raise CardUnavailable(card=card_id)
    _changed(conn, owner_id)
