"""An admin's reset of one player's progress in one game, shared by the games' `GameSpec.reset` hooks.

The ledger explains every balance and every copy, so nothing is deleted from it: the game's copies are
destroyed and its coins debited through `services.infra.ledger` (reason `admin_reset`, ref the game),
then the starting coins are granted again, as to a new player. The game names its own tables of
per-player progress (decks, profiles, ranks): their rows of that player are deleted. Records other
players share (finished matches, league results of a server, arena seasons, raffle tickets) stay.
"""

from __future__ import annotations

from datetime import datetime

from core.errors import NotAllowed
from services.infra import ledger
from services.infra.games import Currency, ResetReport
from services.infra.players import summary_changed
from store.connection import Connection

REASON = "admin_reset"
REGRANT = "admin_reset_grant"


def reset_progress(
    conn: Connection,
    now: datetime,
    player_id: int,
    *,
    game: str,
    currencies: tuple[Currency, ...],
    tables: tuple[str, ...],
) -> ResetReport:
    """Refused while the player sits in a pending or live match of the game: the match's state holds
    their copies and its end pays them."""
    busy = conn.execute(
        "SELECT COUNT(*) FROM matches JOIN match_seats ON match_seats.match_id = matches.id"
        " WHERE matches.game = ? AND match_seats.player_id = ? AND matches.status IN ('pending', 'live')",
        (game, player_id),
    ).fetchone()[0]
    if busy:
        raise NotAllowed("admin.reset.busy")
    why = ledger.Movement(REASON, ref=game)
    copies = conn.execute(
        "SELECT id, locked_by FROM cards WHERE owner_id = ? AND game = ? ORDER BY id", (player_id, game)
    ).fetchall()
    locked = [int(row[0]) for row in copies if row[1] is not None]
    if locked:
        ledger.set_card_lock(conn, locked, player_id, None)
    for row in copies:
        ledger.destroy_card(conn, now, int(row[0]), player_id, why)
    before: list[tuple[str, int]] = []
    for currency in currencies:
        held = ledger.balance(conn, player_id, currency.code)
        before.append((currency.code, held))
        if held > 0:
            ledger.debit(conn, now, player_id, currency, held, why)
        if currency.starting > 0:
            ledger.credit(
                conn, now, player_id, currency.code, currency.starting, ledger.Movement(REGRANT, game)
            )
    for table in tables:
        conn.execute(f"DELETE FROM {table} WHERE player_id = ?", (player_id,))
    summary_changed(conn, player_id)
    return ResetReport(cards=len(copies), currencies=tuple(before))
