"""Personal data: the export holds the player's rows, and the erasure leaves no Discord id behind while the
ledger still adds up (what each column holds: store/personal_data.py, tests/services/store/test_personal_data.py)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

import pytest

from core.clock import ManualClock, to_db
from core.errors import NotAllowed
from services.community.privacy import collect, erase
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store import schema
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

# Discord ids: 17 digits and more, as every real user's
ALICE, BOB = 312345678901234567, 498765432109876543


@pytest.fixture(autouse=True)
def _games() -> None:
    every_game().all_games()


def _seed_two_players(conn: Connection, clock: ManualClock, status: str, registry: GameRegistry) -> None:
    now = clock.now()
    at = to_db(now)
    for player in (ALICE, BOB):
        ensure_player(conn, player, now, registry)
    ledger.mint_card(conn, now, ALICE, "hoss", "orc_guerrier_1", ledger.Movement("test", ref=f"gift:{ALICE}"))
    conn.execute(
        "INSERT INTO hoss_decks (player_id, slot, name, lines, buffs, updated_at) VALUES (?, 1, 'Mine', '[]', '[]', ?)",
        (ALICE, at),
    )
    match = conn.execute(
        "INSERT INTO matches (game, kind, guild_id, channel_id, status, request_key, version, data, created_at,"
        " updated_at) VALUES ('pillz', 'friend', 5, 7, ?, 'k', 0, ?, ?, ?) RETURNING id",
        (status, json.dumps({"by": ALICE}), at, at),
    ).fetchone()[0]
    conn.executemany(
        "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, ?, ?)",
        [(match, 0, ALICE), (match, 1, BOB)],
    )
    conn.execute(
        "INSERT INTO pillz_friend_results (duel_id, guild_id, seat0_id, seat1_id, pair_low, pair_high, winner_seat,"
        " rewarded, rewards, day, recorded_at) VALUES (?, 5, ?, ?, ?, ?, 1, 1, '{}', '2026-01-05', ?)",
        (match, ALICE, BOB, ALICE, BOB, at),
    )
    conn.execute(
        "INSERT INTO outbox (created_at, target_kind, target_id, payload, next_attempt_at)"
        " VALUES (?, 'channel', 7, ?, ?)",
        (at, json.dumps({"content": {"key": "x", "params": {"who": f"<@{ALICE}>"}}}), at),
    )
    # ids in columns whose names say nothing (the declaration finds them), and words the player typed
    conn.execute(
        "INSERT INTO trades (kind, game, guild_id, proposer_id, partner_id, status, created_at, expires_at,"
        " ended_at, ended_by) VALUES ('trade', 'pillz', 5, ?, ?, 'cancelled', ?, ?, ?, ?)",
        (BOB, ALICE, at, at, at, ALICE),
    )
    conn.execute(
        "INSERT INTO game_pauses (guild_id, game, paused_by, paused_at) VALUES (5, 'hoss', ?, ?)", (ALICE, at)
    )
    conn.executemany(
        "INSERT INTO dinocard_packs (owner_id, name, cards, daily_from, created_at, updated_at)"
        " VALUES (?, ?, '[]', '2026-01-05', ?, ?)",
        [(ALICE, "Les dinos d'Alice", at, at), (ALICE, "Mon autre pack", at, at)],
    )
    conn.execute(
        "INSERT INTO choco_absences (match_id, player_id, starts_at, until, hours, reason, created_at)"
        " VALUES (?, ?, ?, ?, 24, 'en vacances chez ma tante', ?)",
        (match, ALICE, at, at, at),
    )


async def test_the_export_holds_the_players_rows_and_not_a_live_matchs(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await db.write(lambda conn: _seed_two_players(conn, clock, "live", registry=registry))
    live = await db.read(lambda conn: collect(conn, ALICE))
    assert live["player"]["id"] == ALICE
    assert {"wallets", "ledger", "cards", "hoss_decks", "pillz_friend_results"} <= set(live["tables"])
    assert "match_seats" not in live["tables"]
    assert live["tables"]["matches"] == []
    await db.write(lambda conn: conn.execute("UPDATE matches SET status = 'over'"))
    over = await db.read(lambda conn: collect(conn, ALICE))
    assert [m["status"] for m in over["tables"]["matches"]] == ["over"]
    assert json.dumps(over, default=str)  # the file is JSON


def _mentions(conn: Connection, player: int) -> list[str]:
    """Every place the id still appears: integer columns equal to it, text columns containing it."""
    found = []
    for table in schema.tables(conn):
        for column in [c.name for c in schema.columns(conn, table)]:
            sql = f"SELECT COUNT(*) FROM {table} WHERE CAST({column} AS TEXT) = ? OR CAST({column} AS TEXT) LIKE ?"
            if conn.execute(sql, (str(player), f"%{player}%")).fetchone()[0]:
                found.append(f"{table}.{column}")
    return found


async def test_erasure_leaves_no_discord_id_and_keeps_the_books(
    db: Database, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    await db.write(lambda conn: _seed_two_players(conn, clock, "over", registry=registry))
    now = clock.now()
    anonymous = await db.write(lambda conn: erase(conn, now, registry, ALICE))
    assert anonymous is not None
    assert anonymous < 0
    assert await db.read(lambda conn: _mentions(conn, ALICE)) == []
    seats = await db.read(
        lambda conn: [tuple(r) for r in conn.execute("SELECT seat, player_id FROM match_seats")]
    )
    assert sorted(seats) == [(0, anonymous), (1, BOB)]
    pair = await db.read(
        lambda conn: tuple(conn.execute("SELECT pair_low, pair_high FROM pillz_friend_results").fetchone())
    )
    assert pair == (anonymous, BOB)
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM hoss_decks").fetchone()[0]) == 0
    typed = await db.read(
        lambda conn: [
            *conn.execute("SELECT name, status FROM dinocard_packs").fetchall(),
            *conn.execute("SELECT reason, player_id FROM choco_absences").fetchall(),
        ]
    )
    assert [tuple(row) for row in typed] == [("", "dissolved"), ("", "dissolved"), ("", anonymous)]
    await db.read(conservation)
    assert await db.write(lambda conn: erase(conn, now, registry, ALICE)) is None  # nothing left to erase

    def tamper(conn: Connection) -> None:
        conn.execute("UPDATE ledger SET delta = 5 WHERE player_id = ?", (anonymous,))

    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        await db.write(tamper)


@pytest.mark.parametrize(
    "status",
    [
        "pending",  # a challenge sent or received, not answered yet
        "live",  # a duel or a game in progress (a Pillz or Immortal's War duel, a Chocobataille game)
    ],
)
async def test_erasure_waits_for_the_players_games_to_end(
    db: Database, clock: ManualClock, status: str, registry: GameRegistry
) -> None:
    """docs/privacy.md: a match waits on its other seat, so the erasure is refused until it ends (a
    challenge declined, withdrawn or expired; a game finished or forfeited) and nothing is erased."""
    await db.write(lambda conn: _seed_two_players(conn, clock, status, registry=registry))
    now = clock.now()
    with pytest.raises(NotAllowed, match=r"privacy\.error\.busy"):
        await db.write(lambda conn: erase(conn, now, registry, ALICE))
    assert (
        await db.read(
            lambda conn: conn.execute("SELECT COUNT(*) FROM players WHERE id = ?", (ALICE,)).fetchone()[0]
        )
        == 1
    )
