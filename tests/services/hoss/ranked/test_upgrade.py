"""A ranked battle in progress when the bot upgrades to the shared matches (migration hoss_matches) keeps its
number although a Pillz duel holds the same match id, and plays on: its old deadline job fires, the player
skips to the end, the gold is paid under the battle's number and the replay from the migrated decisions
gives the stored log."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine.hoss import ENGINE, Record, new_battle, opponent_setup, to_state
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.hoss.battle import battles
from services.hoss.battle.battles import PLAYER, REASON, TIMEOUT_JOB, Decision
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.migrate import apply_sync, discover
from tests.services.conftest import open_database
from tests.services.hoss.ranked import catalog, player_with_deck, rows, service

ALICE, BOB = 11, 12
GUILD = 5
BATTLE = 3  # the battle's id before the upgrade; a Pillz duel holds match id 3 too
BEFORE = next(m.version for m in discover() if m.name == "hoss_matches") - 1


def previous_schema(path: Path, clock: ManualClock) -> int:
    """The database as the version before left it: battle 3 waiting at its first pause with its deadline
    job; Pillz duel 3 live. Returns the pause."""
    now = clock.now()
    ai = opponent_setup(catalog(), 1, random.Random(7))
    mine = PlayerSetup(seat=0, player_id=ALICE, deck=ai.deck, extra=ai.extra)
    battle = new_battle((mine, ai), 1234, {CATALOG_OPTION: catalog()}, log=True)
    decisions: list[Decision] = []
    records: list[Record] = []
    pause = battles.advance(battle, 1 if PLAYER in battle.waiting() else 0, decisions, records)
    assert pause == 1
    assert not battle.over
    with sqlite3.connect(path) as conn:
        apply_sync(conn, discover(), target=BEFORE)
        conn.executemany(
            "INSERT INTO players (id, created_at) VALUES (?, ?)", [(ALICE, to_db(now)), (BOB, to_db(now))]
        )
        conn.execute(
            "INSERT INTO matches (id, game, kind, guild_id, channel_id, status, state, version, created_at,"
            " updated_at) VALUES (?, 'pillz', 'friend', ?, 6, 'live', '{}', 2, ?, ?)",
            (BATTLE, GUILD, to_db(now), to_db(now)),
        )
        conn.executemany(
            "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, ?, ?)",
            [(BATTLE, 0, BOB), (BATTLE, 1, ALICE)],
        )
        due = now + battles.DECISION_TIMEOUT
        job = conn.execute(
            "INSERT INTO jobs (kind, due_at, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            (TIMEOUT_JOB, to_db(due), json.dumps({"battle": BATTLE, "pause": pause}), to_db(now)),
        ).fetchone()[0]
        setups = [json.dumps(battles.setup_json(s), sort_keys=True) for s in (mine, ai)]
        conn.execute(
            "INSERT INTO hoss_battles (id, player_id, rank, start_key, seed, player_setup, opponent_setup, state,"
            " pause, version, round, deadline_at, timeout_job, created_at, updated_at, guild_id)"
            " VALUES (?, ?, 1, 'k', 1234, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
            (
                BATTLE,
                ALICE,
                *setups,
                ENGINE.to_json(to_state(battle)),
                pause,
                battle.round,
                to_db(due),
                job,
                to_db(now),
                to_db(now),
                GUILD,
            ),
        )
        conn.executemany(
            "INSERT INTO hoss_battle_decisions VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (BATTLE, i, d.pause, d.round, d.seat, json.dumps(d.action), d.by)
                for i, d in enumerate(decisions)
            ],
        )
        conn.executemany(
            "INSERT INTO hoss_battle_rounds VALUES (?, ?, ?)",
            [(BATTLE, r["round"], json.dumps(r, sort_keys=True)) for r in records],
        )
    return pause


async def test_a_live_battle_plays_on_after_the_upgrade_under_its_number(
    tmp_path: Path, registry: GameRegistry
) -> None:
    clock = ManualClock()
    path = tmp_path / "bot.sqlite3"
    pause = previous_schema(path, clock)
    db = await open_database(path)
    try:
        sched = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
        ranked = service(db, clock, registry, sched)
        assert await ranked.current(ALICE) == BATTLE
        assert (await ranked.view(ALICE, BATTLE, GUILD)).pause == pause

        clock.advance(battles.DECISION_TIMEOUT)
        assert await sched.run_due() == 1  # the job written before the upgrade
        view = await ranked.view(ALICE, BATTLE, GUILD)
        assert view.ai_decided[0] == pause  # and the AI played the rest of the battle
        assert view.status != "live"

        result = await ranked.skip_to_end(ALICE, BATTLE, GUILD)
        paid = await rows(db, "SELECT delta FROM ledger WHERE reason = ? AND ref = ?", REASON, str(BATTLE))
        assert [delta for (delta,) in paid] == ([result.gold] if result.gold else [])
        assert await ranked.replay(ALICE, BATTLE, GUILD) == await ranked.log(ALICE, BATTLE, GUILD)

        duel = await rows(db, "SELECT game, status, version FROM matches WHERE id = ?", BATTLE)
        assert duel == [("pillz", "live", 2)]
        await player_with_deck(db, clock, BOB, registry=registry)
        assert (await ranked.start(BOB, 1, key="new")).battle_id == BATTLE + 1
    finally:
        await db.close()


def test_the_upgrade_keeps_the_deadline_of_the_battle_not_of_the_duel(tmp_path: Path) -> None:
    """The migrated battle's pending job is still its match's deadline job, named by the battle's number."""
    clock = ManualClock()
    path = tmp_path / "bot.sqlite3"
    pause = previous_schema(path, clock)
    with sqlite3.connect(path) as conn:
        apply_sync(conn, discover())
        found = conn.execute(
            "SELECT m.id, j.payload, j.state FROM matches m JOIN jobs j ON j.id = m.deadline_job"
            " WHERE m.game = 'hoss' AND m.number = ?",
            (BATTLE,),
        ).fetchone()
    match_id, payload, state = found
    assert match_id != BATTLE
    assert (json.loads(payload), state) == ({"battle": BATTLE, "pause": pause}, "due")
