"""A Pillz duel in progress when the bot upgrades to the shared matches (migration 0013) still loads, keeps
its timeout job, and plays on; a challenge waiting for its answer can still be accepted."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine.pillz import ENGINE
from engine.pillz.catalog import PillzCatalog
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from services.pillz.duels import TIMEOUT_JOB, PillzDuels
from store.connection import Connection
from store.migrate import apply_sync, discover
from tests.services.conftest import open_database

ALICE, BOB, CAROL = 11, 12, 13
GUILD, CHANNEL = 5, 6
BEFORE_MATCHES = 12  # the schema version before migration 0013_matches


def previous_schema_with_a_live_duel(
    path: Path, clock: ManualClock, catalog: PillzCatalog
) -> dict[str, object]:
    """Build the database as the previous version left it: a friend duel after one move, its public message
    and its pending timeout job, and a challenge not answered yet."""
    now = clock.now()
    setup = ENGINE.sample_setup(random.Random(5), catalog)
    decks = [list(p.deck) for p in setup.players]
    players = [PlayerSetup(seat=s, player_id=p, deck=tuple(decks[s])) for s, p in enumerate((ALICE, BOB))]
    state = ENGINE.new_game(players, 99, {CATALOG_OPTION: catalog})
    seat = ENGINE.current_players(state)[0]
    action = ENGINE.legal_actions(state, seat)[0]
    state, _ = ENGINE.apply(state, seat, action)
    with sqlite3.connect(path) as conn:
        apply_sync(conn, discover(), target=BEFORE_MATCHES)
        conn.executemany(
            "INSERT INTO players (id, created_at) VALUES (?, ?)",
            [(p, to_db(now)) for p in (ALICE, BOB, CAROL)],
        )
        conn.execute(
            "INSERT INTO outbox (id, created_at, target_kind, target_id, payload, next_attempt_at, state,"
            " sent_message_id) VALUES (40, ?, 'channel', ?, '{}', ?, 'sent', 900)",
            (to_db(now), CHANNEL, to_db(now)),
        )
        due = now + timedelta(seconds=120)
        conn.execute(
            "INSERT INTO jobs (id, kind, due_at, payload, created_at) VALUES (70, ?, ?, ?, ?)",
            (TIMEOUT_JOB, to_db(due), json.dumps({"duel": 3}), to_db(now)),
        )
        conn.execute(
            "INSERT INTO pillz_duels (id, guild_id, channel_id, kind, seat0_id, seat1_id, request_key, status,"
            " seed, decks, state, version, message_item, notes, deadline_at, timeout_job, created_at,"
            " updated_at) VALUES (3, ?, ?, 'friend', ?, ?, 'pillz:challenge:a', 'live', 99, ?, ?, 6, 40,"
            " '[]', ?, 70, ?, ?)",
            (
                GUILD,
                CHANNEL,
                ALICE,
                BOB,
                json.dumps(decks),
                ENGINE.to_json(state),
                to_db(due),
                to_db(now),
                to_db(now),
            ),
        )
        conn.execute(
            "INSERT INTO pillz_duel_moves (duel_id, seq, seat, action, by) VALUES (3, 1, ?, ?, 'player')",
            (seat, json.dumps(ENGINE.action_to_json(action))),
        )
        conn.execute(
            "INSERT INTO pillz_duels (id, guild_id, channel_id, kind, seat0_id, seat1_id, request_key, status,"
            " version, notes, created_at, updated_at, expires_at) VALUES (4, ?, ?, 'friend', ?, ?,"
            " 'pillz:challenge:b', 'pending', 0, '[]', ?, ?, ?)",
            (GUILD, CHANNEL, CAROL, BOB, to_db(now), to_db(now), to_db(now + timedelta(hours=1))),
        )
    return {"state": state, "seat": seat, "decks": decks}


async def test_a_duel_in_progress_at_the_upgrade_loads_times_out_and_plays_on(
    tmp_path: Path, clock: ManualClock, catalog: PillzCatalog, registry: GameRegistry
) -> None:
    path = tmp_path / "previous.sqlite3"
    before = previous_schema_with_a_live_duel(path, clock, catalog)
    db = await open_database(path)
    try:
        scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
        duels = PillzDuels(db, clock, catalog, random.Random(3), scheduler, registry=registry)

        duel = await duels.get(3)
        assert (duel.status, duel.kind, duel.version, duel.seats) == ("live", "friend", 6, (ALICE, BOB))
        assert (duel.state, duel.seed, duel.setup) == (before["state"], 99, before["decks"])
        assert (duel.message_item, duel.deadline_job, duel.notes) == (40, 70, ())
        assert duel.to_act() == [1 - int(str(before["seat"]))]

        # the timeout job the previous version armed still names this duel: the AI plays for the late seat
        clock.advance(timedelta(seconds=121))
        assert await scheduler.run_due() == 1
        timed_out = await duels.get(3)
        assert timed_out.version > duel.version
        assert len(timed_out.notes) == 1

        # and the players play on, in the server of the duel
        seat = timed_out.to_act()[0]
        player = timed_out.seats[seat]
        assert player is not None
        assert timed_out.state is not None
        card = next(f.card_id for f in timed_out.state.hands[seat] if not f.used)
        played = await duels.play(3, player, timed_out.version, card, 0, guild=GUILD)
        assert played.version > timed_out.version

        def check(conn: Connection) -> None:
            moves = conn.execute(
                "SELECT seq, author FROM match_moves WHERE match_id = 3 ORDER BY seq"
            ).fetchall()
            assert [tuple(m) for m in moves[:3]] == [(1, "player"), (2, "timeout"), (3, "player")]
            edits = conn.execute("SELECT COUNT(*) FROM outbox WHERE edit_of = 40").fetchone()[0]
            assert edits >= 2  # the message the previous version posted is the one edited
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert not {"pillz_duels", "pillz_duel_moves"} & tables

        await db.read(check)

        # the challenge waiting at the upgrade is accepted and starts under its own id
        accepted = await duels.answer(4, BOB, True, guild=GUILD)
        assert (accepted.id, accepted.status, accepted.seats) == (4, "live", (CAROL, BOB))
    finally:
        await db.close()
