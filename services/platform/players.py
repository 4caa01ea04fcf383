"""Players exist from their first use, with the starting wallets every game defines."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from core.clock import Clock, from_db, to_db
from core.errors import BadInput
from core.settings import SUPPORTED_LOCALES
from services.platform import games, ledger
from services.platform.games import SummaryLine
from store.db import Database
from store.idempotency import once


def ensure_player(conn: sqlite3.Connection, player_id: int, now: datetime) -> bool:
    """Create the player if new and grant starting wallets; returns True when created. Call in a write unit."""
    cursor = conn.execute(
        "INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
        (player_id, to_db(now)),
    )
    if cursor.rowcount != 1:
        return False
    for currency in games.currencies():
        if currency.starting > 0:
            ledger.credit(
                conn, now, player_id, currency.code, currency.starting, ledger.Movement("starting_grant")
            )
    return True


@dataclass(frozen=True)
class Profile:
    player_id: int
    joined: datetime
    wallets: list[tuple[str, int]]  # (currency name key, balance), in registry order
    summaries: list[tuple[str, list[SummaryLine]]]  # (game name key, lines)


def _profile(conn: sqlite3.Connection, player_id: int) -> Profile | None:
    row = conn.execute("SELECT created_at FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        return None
    wallets = [(c.name_key, ledger.balance(conn, player_id, c.code)) for c in games.currencies()]
    summaries = [
        (g.name_key, g.profile_summary(conn, player_id))
        for g in games.all_games()
        if g.profile_summary is not None
    ]
    return Profile(player_id, from_db(row[0]), wallets, summaries)


class PlayerService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def ensure(self, player_id: int) -> None:
        now = self.clock.now()
        await self.db.write(lambda conn: ensure_player(conn, player_id, now))

    async def profile(self, player_id: int, *, create: bool) -> Profile | None:
        """Your own profile creates you; someone else's profile is only shown if they already play.

        With ``create`` the player is ensured and the profile read in one write unit (one trip to the
        writer, and the profile sees the player just created); otherwise it is a plain read.
        """
        if not create:
            return await self.db.read(lambda conn: _profile(conn, player_id))
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> Profile | None:
            ensure_player(conn, player_id, now)
            return _profile(conn, player_id)

        return await self.db.write(unit)

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        if locale not in (None, *SUPPORTED_LOCALES):
            raise BadInput("error.bad_input")
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> None:
            ensure_player(conn, player_id, now)
            conn.execute("UPDATE players SET locale = ? WHERE id = ?", (locale, player_id))

        await self.db.write(unit)

    async def locale_of(self, player_id: int) -> str | None:
        def unit(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT locale FROM players WHERE id = ?", (player_id,)).fetchone()
            return row[0] if row else None

        return await self.db.read(unit)

    async def touch(self, player_id: int, discord_locale: str | None) -> str | None:
        """First use creates the player; remembers their Discord language for later DMs.

        Returns the language they chose with /settings, or None to follow Discord.
        """
        chosen, _ = await self.touch_in_game(player_id, discord_locale, None)
        return chosen

    async def touch_in_game(
        self, player_id: int, discord_locale: str | None, game: str | None
    ) -> tuple[str | None, bool]:
        """`touch`, and for a command of `game`, whether this is the player's first one there (the game's
        welcome is due): True once per player and game. The marker is an idempotency key
        (`welcome:<game>:<player>`), exactly "once per key", so it needs no table of its own; it is
        claimed in the same unit as the touch, so the command pays no second trip to the writer."""
        now = self.clock.now()
        seen = discord_locale if discord_locale in ("fr", "en") else None

        def unit(conn: sqlite3.Connection) -> tuple[str | None, bool]:
            ensure_player(conn, player_id, now)
            row = conn.execute(
                "UPDATE players SET last_locale = COALESCE(?, last_locale) WHERE id = ? RETURNING locale",
                (seen, player_id),
            ).fetchone()
            first = game is not None and once(conn, f"welcome:{game}:{player_id}", now, lambda: True)[1]
            return (row[0] if row else None), first

        return await self.db.write(unit)
