"""The migrations from every version, shared by the migration, checksum, runner and PostgreSQL tests: the
migration files, the rows seeded at a version and checked once upgraded, and the schema read back."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from store.connection import Connection
from store.db import Database, dialect
from store.migrate import discover, migrate

MIGRATIONS = discover()
LATEST = len(MIGRATIONS)
AT = "2026-01-05T12:00:00.000000Z"


@contextmanager
def plain(path: Path) -> Iterator[sqlite3.Connection]:
    """A bare connection like an old deployment's: autocommit, foreign keys on."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        yield conn


async def upgrade(path: Path) -> list[int]:
    """The production path: open the Database and migrate through its writer connection."""
    database = Database(path)
    await database.open()
    try:
        return await migrate(await database.raw_writer())
    finally:
        await database.close()


def schema(conn: Connection) -> list[tuple[str, str, str]]:
    return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()


def tables(conn: Connection) -> set[str]:
    if dialect(conn) == "postgresql":  # the checks below also run on PostgreSQL (tests/postgresql)
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        return {row[0] for row in conn.execute(sql)}
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


# Representative rows a database at a given version could hold, and how to recognise them after an upgrade.
# A new migration should add its own entry here so the upgrade test covers the data it introduces.
def _seed_v1(conn: Connection) -> None:
    conn.execute("INSERT INTO players (id, created_at, locale) VALUES (11, ?, 'fr'), (12, ?, NULL)", (AT, AT))
    conn.execute("INSERT INTO wallets VALUES (11, 'gold', 70), (12, 'gold', 5)")
    conn.execute(
        "INSERT INTO cards (id, game, card_key, owner_id, attrs, created_at)"
        " VALUES (7, 'g', 'k', 12, '{}', ?)",
        (AT,),
    )
    conn.executemany(
        "INSERT INTO ledger (at, player_id, currency, card_id, delta, balance_after, reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (AT, 11, "gold", None, 100, 100, "starting_grant"),
            (AT, 11, "gold", None, -30, 70, "buy"),
            (AT, 12, "gold", None, 5, 5, "starting_grant"),
            (AT, 12, None, 7, 1, None, "mint"),
        ],
    )
    conn.execute("INSERT INTO idempotency VALUES ('op:1', '{\"ok\": true}', ?)", (AT,))


def _check_v1(conn: Connection) -> None:
    assert conn.execute("SELECT id, locale FROM players ORDER BY id").fetchall() == [(11, "fr"), (12, None)]
    assert conn.execute("SELECT * FROM wallets ORDER BY player_id").fetchall() == [
        (11, "gold", 70),
        (12, "gold", 5),
    ]
    assert conn.execute("SELECT owner_id FROM cards WHERE id = 7").fetchone() == (12,)
    assert conn.execute(
        "SELECT COUNT(*), SUM(delta) FROM ledger WHERE reason != 'choco.daily'"
    ).fetchone() == (4, 76)
    assert conn.execute("SELECT result FROM idempotency WHERE key = 'op:1'").fetchone() == ('{"ok": true}',)


def _seed_v2(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO guild_settings (guild_id, deadline_preset, updated_at) VALUES (5, 'fast', ?)", (AT,)
    )
    conn.execute("UPDATE players SET last_locale = 'en' WHERE id = 12")


def _check_v2(conn: Connection) -> None:
    assert conn.execute("SELECT guild_id, deadline_preset FROM guild_settings").fetchall() == [(5, "fast")]
    # 0019: a server seen before its language was remembered has none yet (its next interaction sets it)
    assert conn.execute("SELECT locale FROM guild_settings").fetchall() == [(None,)]
    assert conn.execute("SELECT last_locale FROM players WHERE id = 12").fetchone() == ("en",)


def _seed_v3(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO jobs (kind, due_at, period_key, created_at) VALUES ('daily', ?, '2026-01-05', ?)",
        (AT, AT),
    )
    conn.execute(
        "INSERT INTO outbox (created_at, target_kind, target_id, payload, next_attempt_at)"
        " VALUES (?, 'dm', 12, '{}', ?)",
        (AT, AT),
    )


def _check_v3(conn: Connection) -> None:
    jobs = conn.execute("SELECT kind, state, period_key FROM jobs WHERE kind = 'daily'").fetchall()
    assert jobs == [("daily", "due", "2026-01-05")]
    messages = conn.execute(
        "SELECT target_kind, target_id, state FROM outbox WHERE target_kind = 'dm'"
    ).fetchall()
    assert messages == [("dm", 12, "pending")]


def _seed_v4(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO hoss_decks (player_id, slot, name, lines, buffs, updated_at) VALUES (11, 1, 'A', '[]', '[]', ?)",
        (AT,),
    )
    conn.execute("INSERT INTO hoss_rank_progress (player_id, rank, wins) VALUES (11, 1, 10)")


def _check_v4(conn: Connection) -> None:
    assert conn.execute("SELECT player_id, slot, name FROM hoss_decks").fetchall() == [(11, 1, "A")]
    assert conn.execute("SELECT wins FROM hoss_rank_progress WHERE player_id = 11").fetchone() == (10,)


def _seed_v5(conn: Connection) -> None:
    """HOSS: a live battle (3) at its second pause with its pending deadline job, two rounds (one already
    viewed), a decision and a milestone notice; a finished battle (4) paid, with a decision the AI took
    for the player ('skip')."""
    conn.execute(
        "INSERT INTO jobs (id, kind, due_at, payload, created_at)"
        " VALUES (95, 'hoss.decision_timeout', ?, '{\"battle\": 3, \"pause\": 2}', ?)",
        (AT, AT),
    )
    conn.execute(
        "INSERT INTO hoss_battles (id, player_id, rank, start_key, seed, player_setup, opponent_setup, state,"
        " pause, version, round, player_deaths, deadline_at, timeout_job, viewed_round, created_at, updated_at)"
        " VALUES (3, 11, 1, 'i:1', 77, '{\"seat\": 0}', '{\"seat\": 1}', '{}', 2, 4, 5, 1, ?, 95, 1, ?, ?)",
        (AT, AT, AT),
    )
    conn.execute("INSERT INTO hoss_battle_decisions VALUES (3, 0, 1, 0, 0, '{\"kind\": \"pass\"}', 'player')")
    conn.execute("INSERT INTO hoss_battle_rounds VALUES (3, 1, '{\"round\": 1}'), (3, 2, '{\"round\": 2}')")
    conn.execute(
        "INSERT INTO hoss_notices (player_id, kind, rank, wins, gold, battle_id, created_at)"
        " VALUES (11, 'milestone', 1, 100, 100, 3, ?)",
        (AT,),
    )
    conn.execute(
        "INSERT INTO hoss_battles (id, player_id, rank, start_key, seed, player_setup, opponent_setup, state,"
        " status, pause, version, round, counted, reward, gold, created_at, updated_at, ended_at)"
        " VALUES (4, 12, 2, 'i:2', 78, '{}', '{}', '{}', 'won', 3, 6, 9, 1, '{\"base\": 150}', 150, ?, ?, ?)",
        (AT, AT, AT),
    )
    conn.execute(
        "INSERT INTO hoss_battle_decisions VALUES (4, 0, 1, 0, 0, '{\"kind\": \"pass\"}', 'skip'),"
        " (4, 1, 1, 0, 1, '{\"kind\": \"pass\"}', 'ai')"
    )


def _hoss_match(conn: Connection, number: int) -> int:
    return int(
        conn.execute("SELECT id FROM matches WHERE game = 'hoss' AND number = ?", (number,)).fetchone()[0]
    )


def _check_v5(conn: Connection) -> None:
    """HOSS battles live on in the shared matches (migration hoss_matches): each keeps its former id as
    its number, which the pending job's payload still names; moves, rounds and notices name the match."""
    live, over = _hoss_match(conn, 3), _hoss_match(conn, 4)
    row = conn.execute(
        "SELECT kind, guild_id, channel_id, status, request_key, seed, setup, data, version, deadline_job, result"
        " FROM matches WHERE id = ?",
        (live,),
    ).fetchone()
    data = '{"pause": 2, "player_deaths": 1, "rank": 1, "round": 5}'
    assert tuple(row) == (
        "ranked",
        None,
        None,
        "live",
        "hoss:ranked:i:1",
        77,
        '[{"seat": 0}, {"seat": 1}]',
        data,
        4,
        95,
        None,
    )
    assert conn.execute("SELECT payload, state FROM jobs WHERE id = 95").fetchone() == (
        '{"battle": 3, "pause": 2}',
        "due",
    )
    seats = conn.execute("SELECT seat, player_id FROM match_seats WHERE match_id = ? ORDER BY seat", (live,))
    assert seats.fetchall() == [(0, 11), (1, None)]
    moves = conn.execute(
        "SELECT seq, seat, action, author, data FROM match_moves WHERE match_id = ?", (live,)
    )
    assert moves.fetchall() == [(1, 0, '{"kind": "pass"}', "player", '{"pause": 1, "round": 0}')]
    rounds = conn.execute(
        "SELECT round, viewed FROM hoss_battle_rounds WHERE match_id = ? ORDER BY round", (live,)
    )
    assert rounds.fetchall() == [(1, 1), (2, 0)]
    assert conn.execute(
        "SELECT gold, match_id, claimed_at FROM hoss_notices WHERE player_id = 11"
    ).fetchall() == [(100, live, None)]
    finished = conn.execute("SELECT status, result, ended_at FROM matches WHERE id = ?", (over,)).fetchone()
    assert (finished[0], finished[2]) == ("over", AT)
    assert json.loads(finished[1]) == {"counted": True, "gold": 150, "reward": {"base": 150}, "status": "won"}
    authors = conn.execute(
        "SELECT seq, seat, author FROM match_moves WHERE match_id = ? ORDER BY seq", (over,)
    )
    assert authors.fetchall() == [(1, 0, "skip"), (2, 1, "ai")]
    assert not {"hoss_battles", "hoss_battle_decisions"} & tables(conn)


def _seed_v6(conn: Connection) -> None:
    """Chocobataille: a live game with its pending job, absence, log and draft; a finished game with its
    reward card; a challenge still pending and one declined."""
    later = "2026-01-06T12:00:00.000000Z"
    conn.execute(
        "INSERT INTO choco_challenges (id, guild_id, channel_id, challenger_id, challenged_id, league, status,"
        " request_key, game_id, created_at, expires_at, decided_at) VALUES"
        " (1, 5, 6, 11, 12, 'bronze', 'declined', 'c:1', NULL, ?, ?, ?),"
        " (2, 5, 6, 11, 12, 'bronze', 'pending', 'c:2', NULL, ?, ?, NULL)",
        (AT, later, AT, AT, later),
    )
    conn.execute(
        "INSERT INTO choco_games (id, guild_id, channel_id, thread_id, league, seat0_id, seat1_id, seed, decks,"
        " state, status, version, turn_started_at, deadline_at, pass_at, stage, faulted_turn, result,"
        " winner_seat, reward_card, created_at, updated_at, ended_at) VALUES"
        " (4, 5, 6, 60, 'bronze', 11, 12, 9, '[[\"a\"], [\"b\"]]', '{}', 'live', 7, ?, ?, ?, 1, 2, NULL, NULL,"
        " NULL, ?, ?, NULL),"
        " (5, 5, 6, 61, 'argent', 12, 11, 10, '[[], []]', '{}', 'over', 30, NULL, NULL, NULL, 0, NULL,"
        " 'forfeit_absence', 1, 7, ?, ?, ?)",
        (AT, later, later, AT, AT, AT, AT, later),
    )
    conn.execute(
        "INSERT INTO choco_challenges (id, guild_id, channel_id, challenger_id, challenged_id, league, status,"
        " request_key, game_id, created_at, expires_at, decided_at) VALUES"
        " (3, 5, 6, 11, 12, 'bronze', 'accepted', 'c:3', 4, ?, ?, ?)",
        (AT, later, AT),
    )
    conn.execute(
        "INSERT INTO jobs (id, kind, due_at, payload, created_at) VALUES (90, 'choco:deadline', ?, ?, ?)",
        (later, '{"game": 4}', AT),
    )
    conn.execute("INSERT INTO choco_game_jobs (game_id, job_id) VALUES (4, 90)")
    conn.execute(
        "INSERT INTO choco_absences (game_id, player_id, starts_at, until, hours, reason, created_at)"
        " VALUES (4, 12, ?, ?, 24, 'train', ?)",
        (AT, later, AT),
    )
    conn.execute(
        "INSERT INTO choco_game_log (game_id, seq, at, actor_id, kind, data) VALUES (4, 1, ?, 12, 'created', '{}'),"
        " (4, 2, ?, NULL, 'opened', '{\"thread\": 60}')",
        (AT, AT),
    )
    conn.execute(
        "INSERT INTO choco_drafts (game_id, seat, version, steps, updated_at) VALUES (4, 0, 7, '[]', ?)",
        (AT,),
    )


def _check_v6(conn: Connection) -> None:
    """Chocobataille's games and challenges live on in the shared matches (migration choco_matches): a game keeps
    its number, its jobs, absences, log and draft; a former challenge id still names its match."""
    later = "2026-01-06T12:00:00.000000Z"
    rows = conn.execute(
        "SELECT id, number, kind, status, thread_id, version, request_key, seed, setup, data, result, deadline_at"
        " FROM matches WHERE game = 'choco' AND number IS NOT NULL ORDER BY number"
    ).fetchall()
    (live_id, *live), (over_id, *over) = [tuple(r) for r in rows]
    data = f'{{"faulted_turn": 2, "pass_at": "{later}", "stage": 1, "turn_started_at": "{AT}"}}'
    assert live == [4, "bronze", "live", 60, 7, "c:3", 9, '[["a"], ["b"]]', data, None, later]
    assert json.loads(over[9]) == {"result": "forfeit_absence", "reward_card": 7, "winner": 1}
    assert over[:5] == [5, "argent", "over", 61, 30]
    seats = conn.execute(
        "SELECT match_id, seat, player_id FROM match_seats WHERE match_id IN (?, ?) ORDER BY match_id, seat",
        (live_id, over_id),
    ).fetchall()
    assert [tuple(r) for r in seats] == [
        (live_id, 0, 11),
        (live_id, 1, 12),
        (over_id, 0, 12),
        (over_id, 1, 11),
    ]
    assert conn.execute("SELECT match_id, job_id FROM match_jobs").fetchall() == [(live_id, 90)]
    assert conn.execute("SELECT match_id, hours FROM choco_absences").fetchall() == [(live_id, 24)]
    assert conn.execute("SELECT match_id, seq, kind FROM choco_game_log ORDER BY seq").fetchall() == [
        (live_id, 1, "created"),
        (live_id, 2, "opened"),
    ]
    assert conn.execute("SELECT match_id, seat, version FROM choco_drafts").fetchall() == [(live_id, 0, 7)]
    legacy = dict(conn.execute("SELECT challenge_id, match_id FROM choco_legacy_challenges").fetchall())
    assert legacy[3] == live_id
    answered = conn.execute(
        "SELECT m.status, m.number, m.expires_at FROM matches m WHERE m.id IN (?, ?) ORDER BY m.id",
        (legacy[1], legacy[2]),
    ).fetchall()
    assert [tuple(r) for r in answered] == [("declined", None, later), ("pending", None, later)]
    assert conn.execute("SELECT MAX(id) FROM matches").fetchone()[0] >= max(legacy)


def _seed_v9(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO pillz_duels (id, guild_id, channel_id, kind, seat0_id, seat1_id, request_key, status, state,"
        " version, notes, created_at, updated_at) VALUES (8, 5, 6, 'practice', 11, NULL, 'p:1', 'live', '{}', 3,"
        ' \'[{"round": 1, "seat": 0}]\', ?, ?)',
        (AT, AT),
    )
    conn.execute('INSERT INTO pillz_duel_moves VALUES (8, 1, 0, \'{"card": "a", "pillz": 2}\', \'timeout\')')
    # Id 3 is also a HOSS battle's (seeded at version 5): both must survive the move to one sequence.
    conn.execute(
        "INSERT INTO pillz_duels (id, guild_id, channel_id, kind, seat0_id, seat1_id, request_key, status, state,"
        " version, notes, created_at, updated_at) VALUES (3, 5, 6, 'friend', 12, 11, 'p:3', 'live', '{}', 1,"
        " '[]', ?, ?)",
        (AT, AT),
    )
    conn.execute('INSERT INTO pillz_duel_moves VALUES (3, 1, 1, \'{"card": "b", "pillz": 0}\', \'player\')')


def _check_v9(conn: Connection) -> None:
    """Pillz duels live on in the shared matches (migration 0013), under their ids."""
    row = conn.execute("SELECT game, kind, status, version, data FROM matches WHERE id = 8").fetchone()
    assert tuple(row) == ("pillz", "practice", "live", 3, '{"notes": [{"round": 1, "seat": 0}]}')
    seats = conn.execute(
        "SELECT seat, player_id FROM match_seats WHERE match_id = 8 ORDER BY seat"
    ).fetchall()
    assert [tuple(r) for r in seats] == [(0, 11), (1, None)]
    moves = conn.execute("SELECT seq, seat, action, author FROM match_moves WHERE match_id = 8").fetchall()
    assert [tuple(r) for r in moves] == [(1, 0, '{"card": "a", "pillz": 2}', "timeout")]
    duel = conn.execute("SELECT game, kind, number FROM matches WHERE id = 3").fetchone()
    assert tuple(duel) == ("pillz", "friend", None)
    seats = conn.execute(
        "SELECT seat, player_id FROM match_seats WHERE match_id = 3 ORDER BY seat"
    ).fetchall()
    assert seats == [(0, 12), (1, 11)]
    assert conn.execute("SELECT seq, author FROM match_moves WHERE match_id = 3").fetchall() == [
        (1, "player")
    ]


def _seed_v11(conn: Connection) -> None:
    conn.execute("UPDATE hoss_battles SET guild_id = 5 WHERE id = 4")


def _check_v11(conn: Connection) -> None:
    """A battle's server stays its match's; a battle in DMs has none (matches.guild_id NULL)."""
    places = conn.execute(
        "SELECT number, guild_id FROM matches WHERE game = 'hoss' ORDER BY number"
    ).fetchall()
    assert places == [(3, None), (4, 5)]


def _seed_v17(conn: Connection) -> None:
    item = conn.execute(
        "INSERT INTO outbox (created_at, target_kind, target_id, payload, next_attempt_at, state)"
        " VALUES (?, 'channel', 66, '{}', ?, 'sent') RETURNING id",
        (AT, AT),
    ).fetchone()[0]
    conn.execute("UPDATE hoss_battles SET message_item = ? WHERE id = 3", (item,))


def _check_v17(conn: Connection) -> None:
    """The battle's message is the match's message."""
    found = conn.execute(
        "SELECT o.target_id FROM matches m JOIN outbox o ON o.id = m.message_item WHERE m.game = 'hoss'"
    ).fetchall()
    assert found == [(66,)]


def _seed_v15(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO hoss_arena_seasons (guild_id, season, seed, commitment, opened_at) VALUES (5, '2026-01-05',"
        " 'ab', 'cd', ?)",
        (AT,),
    )
    conn.execute(
        "INSERT INTO hoss_arena_attacks (id, guild_id, season, attacker_id, defender_id, number, candidates,"
        " drawn_at) VALUES (3, 5, '2026-01-05', 11, 12, 1, '[12]', ?)",
        (AT,),
    )


def _check_v15(conn: Connection) -> None:
    """An attack drawn before its battle was linked to it (migration 0019) keeps no battle."""
    row = conn.execute(
        "SELECT status, defender_id, battle_id FROM hoss_arena_attacks WHERE id = 3"
    ).fetchone()
    assert tuple(row) == ("drawn", 12, None)


def _seed_v22(conn: Connection) -> None:
    """Chocobataille's allowance as it was paid before the shared daily reward: ref = the UTC date."""
    conn.executemany(
        "INSERT INTO ledger (at, player_id, currency, delta, balance_after, reason, ref)"
        " VALUES (?, 11, 'choco_gold', 50, ?, 'choco.daily', ?)",
        [("2026-01-04T10:00:00.000000Z", 50, "2026-01-04"), (AT, 100, "2026-01-05")],
    )


def _check_v22(conn: Connection) -> None:
    """Its claims are the shared mechanism's, so today's is not paid twice; reminders start off."""
    assert conn.execute(
        "SELECT game, day, streak, amount, claimed_at FROM daily_claims WHERE player_id = 11 ORDER BY day"
    ).fetchall() == [
        ("choco", "2026-01-04", 1, 50, "2026-01-04T10:00:00.000000Z"),
        ("choco", "2026-01-05", 1, 50, AT),
    ]
    assert conn.execute("SELECT DISTINCT reminders FROM players").fetchall() == [(0,)]


def _seed_v29(conn: Connection) -> None:
    """The single heartbeat row of a one-process deployment."""
    conn.execute("INSERT INTO heartbeat (id, last_seen) VALUES (1, ?)", (AT,))


def _check_v29(conn: Connection) -> None:
    """It lives on as one process's row (migration 0030): the downtime after the upgrade still counts from it."""
    rows = conn.execute("SELECT process, started_at, last_seen FROM heartbeats").fetchall()
    assert [tuple(row) for row in rows] == [("before-0030", AT, AT)]


def _seed_v30(conn: Connection) -> None:
    """A post still queued before posts named their server (the heartbeat row is version 29's)."""
    conn.execute(
        "INSERT INTO outbox (id, created_at, target_kind, target_id, payload, next_attempt_at)"
        " VALUES (5, ?, 'channel', 77, '{}', ?)",
        (AT, AT),
    )


def _check_v30(conn: Connection) -> None:
    """Neither names a server or a shard (migration 0031): any process sends the post."""
    row = conn.execute("SELECT state, guild_id FROM outbox WHERE id = 5").fetchone()
    assert tuple(row) == ("pending", None)
    rows = conn.execute("SELECT process, shard_count, shard_ids FROM heartbeats").fetchall()
    assert [tuple(row) for row in rows] == [("before-0030", None, None)]


SEEDS: dict[int, tuple[Callable[[Connection], None], Callable[[Connection], None]]] = {
    1: (_seed_v1, _check_v1),
    2: (_seed_v2, _check_v2),
    3: (_seed_v3, _check_v3),
    4: (_seed_v4, _check_v4),
    5: (_seed_v5, _check_v5),
    6: (_seed_v6, _check_v6),
    9: (_seed_v9, _check_v9),
    11: (_seed_v11, _check_v11),
    15: (_seed_v15, _check_v15),
    17: (_seed_v17, _check_v17),
    22: (_seed_v22, _check_v22),
    29: (_seed_v29, _check_v29),
    30: (_seed_v30, _check_v30),
}
