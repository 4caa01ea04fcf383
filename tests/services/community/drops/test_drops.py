"""A drop's life on a real database: armed by activity, opened, entered, drawn and paid once, checked."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from core.clock import ManualClock, from_db, to_db
from core.errors import NotAllowed, NotFound
from engine import fair_draw
from services.community.drops.rhythm import ACTIVE_WINDOW, RHYTHMS, WINS_PER_DAY
from services.community.drops.service import DropClosed, DropService
from services.infra.games import GameRegistry
from services.infra.messages import Text
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.community.drops.conftest import (
    GUILD,
    OTHER_GUILD,
    PARIS,
    PLAYERS,
    active,
    armed_at,
    grant,
    open_drop,
    prize_rows,
    run_armed,
)
from tests.support.registries import every_game


async def drop_row(db: Database, drop_id: int) -> sqlite3.Row:
    def unit(conn: Connection) -> sqlite3.Row:
        return conn.execute("SELECT * FROM drops WHERE id = ?", (drop_id,)).fetchone()

    return await db.read(unit)


async def payloads(db: Database) -> list[str]:
    rows = await db.read(lambda conn: conn.execute("SELECT payload FROM outbox ORDER BY id").fetchall())
    return [str(row[0]) for row in rows]


async def close(
    drops: DropService, clock: ManualClock, sched: Scheduler, after: timedelta = timedelta(seconds=10)
) -> None:
    clock.advance(after)
    await sched.run_due()


async def test_nothing_is_armed_while_drops_are_off(db: Database, drops: DropService) -> None:
    await active(drops, *PLAYERS)

    assert await armed_at(db) is None


async def test_a_drop_needs_enough_players_active_today(
    db: Database, drops: DropService, clock: ManualClock
) -> None:
    """ "frequent": one drop a day for every 3 players active: two players arm nothing, a third does."""
    await active(drops, *PLAYERS[:2])
    await drops.configure(GUILD, "frequent")
    assert await armed_at(db) is None

    clock.advance(timedelta(seconds=5))
    await active(drops, PLAYERS[2])

    due = await armed_at(db)
    assert due is not None
    assert timedelta(minutes=1) <= due - clock.now() <= timedelta(minutes=10)


async def test_a_server_quiet_since_the_arming_gets_no_drop_until_its_next_command(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    await active(drops, *PLAYERS[:3])
    await drops.configure(GUILD, "frequent")
    due = await armed_at(db)
    assert due is not None
    clock.set(due + ACTIVE_WINDOW)
    await sched.run_due()
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM drops").fetchone()[0]) == 0
    assert await armed_at(db) is None

    await active(drops, PLAYERS[0])  # a minute has passed: the server's activity is written, and arms
    assert await armed_at(db) is not None


async def test_the_drop_shows_its_prize_and_commitment_never_its_seed(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    row = await drop_row(db, drop_id)

    (post,) = await payloads(db)
    assert row["commitment"] in post
    assert row["seed"] not in post
    assert f"drops:take:{drop_id}" in post
    assert row["status"] == "open"
    assert fair_draw.commitment(row["seed"]) == row["commitment"]


async def test_each_click_within_the_window_enters_once_in_click_order(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)

    first = await drops.enter(drop_id, GUILD, PLAYERS[1])
    second = await drops.enter(drop_id, GUILD, PLAYERS[0])
    again = await drops.enter(drop_id, GUILD, PLAYERS[1])

    assert (first.position, first.fresh) == (1, True)
    assert (second.position, second.fresh) == (2, True)
    assert (again.position, again.fresh) == (1, False)


async def test_a_drop_of_another_server_is_answered_as_unknown(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)

    with pytest.raises(NotFound):
        await drops.enter(drop_id, OTHER_GUILD, PLAYERS[0])
    with pytest.raises(NotFound):
        await drops.verify(drop_id, OTHER_GUILD)


async def test_a_click_after_the_window_is_refused(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    clock.advance(timedelta(seconds=10))

    with pytest.raises(DropClosed):
        await drops.enter(drop_id, GUILD, PLAYERS[0])


async def test_the_close_pays_one_entrant_once_and_edits_the_drop(
    db: Database,
    drops: DropService,
    clock: ManualClock,
    sched: Scheduler,
    conservation: Callable[[Connection], None],
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    for player in PLAYERS[:3]:
        await drops.enter(drop_id, GUILD, player)

    await close(drops, clock, sched)
    await sched.run_due()

    row = await drop_row(db, drop_id)
    assert row["status"] == "drawn"
    assert row["entrants"] == 3
    rows = await db.read(lambda conn: prize_rows(conn, drop_id))
    assert len(rows) == 1
    assert rows[0][0] == row["winner_id"] in PLAYERS[:3]
    edit = (await payloads(db))[-1]
    assert f"drops:verify:{drop_id}" in edit
    assert "drops:take:" not in edit
    assert row["seed"] not in edit  # the seed is in the proof, behind « Vérifier »
    await db.read(conservation)


async def test_a_close_after_downtime_voids_the_drop_and_pays_nothing(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    await drops.enter(drop_id, GUILD, PLAYERS[0])

    await close(drops, clock, sched, timedelta(minutes=3))

    assert (await drop_row(db, drop_id))["status"] == "void"
    assert await db.read(lambda conn: prize_rows(conn, drop_id)) == []
    edit = json.loads((await payloads(db))[-1])
    assert edit["embeds"][0]["description"]["key"] == "drops.post.void"
    assert edit["buttons"] == []
    with pytest.raises(NotAllowed):
        await drops.verify(drop_id, GUILD)


async def test_a_drop_nobody_took_ends_empty(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)

    await close(drops, clock, sched)

    assert (await drop_row(db, drop_id))["status"] == "empty"
    assert json.loads((await payloads(db))[-1])["embeds"][0]["description"]["key"] == "drops.post.empty"


def drops_day(clock: ManualClock) -> date:
    return clock.now().astimezone(PARIS).date()


async def won_already(
    db: Database, clock: ManualClock, player: int, count: int, registry: GameRegistry
) -> None:
    """`count` drops won today by `player` (rows as a drawn drop leaves them)."""
    await grant(db, clock, registry, player)
    today = drops_day(clock)

    def unit(conn: Connection) -> None:
        for _ in range(count):
            conn.execute(
                "INSERT INTO drops (guild_id, channel_id, game, prize, status, seed, commitment, winner_id,"
                " won_day, day, opened_at, closes_at) VALUES (?, 1, 'immortals', ?, 'drawn', ?, ?, ?, ?, ?,"
                " '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')",
                (
                    OTHER_GUILD,
                    '{"card": null, "attrs": {}, "copy": [null, 0, false], "rarity": null,'
                    ' "currency": "immortals_gold", "amount": 10}',
                    "0" * 64,
                    fair_draw.commitment("0" * 64),
                    player,
                    today.isoformat(),
                    "2026-01-01",
                ),
            )

    await db.write(unit)


async def test_a_player_who_won_three_drops_today_cannot_enter_a_fourth(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    await won_already(db, clock, PLAYERS[0], WINS_PER_DAY, registry=registry)

    with pytest.raises(NotAllowed) as refused:
        await drops.enter(drop_id, GUILD, PLAYERS[0])

    assert refused.value.key == "drops.error.daily_wins"


async def test_an_entrant_who_reached_the_limit_before_the_draw_is_passed_over_and_the_proof_says_so(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    """Entered while under the limit, then won elsewhere: the draw's order goes on to the next entrant,
    and « Vérifier » still recomputes it."""
    drop_id = await open_drop(drops, clock, sched)
    for player in PLAYERS[:2]:
        await drops.enter(drop_id, GUILD, player)
    row = await drop_row(db, drop_id)
    first = fair_draw.draw(row["seed"], [f"1:{PLAYERS[0]}", f"2:{PLAYERS[1]}"], 1)[0]
    await won_already(db, clock, PLAYERS[first], WINS_PER_DAY, registry=registry)

    await close(drops, clock, sched)

    row = await drop_row(db, drop_id)
    assert (row["winner_id"], row["skipped"]) == (PLAYERS[1 - first], 1)
    checked = await drops.verify(drop_id, GUILD)
    assert checked.verdict.ok
    assert len(checked.proof.drawn) == 2


async def test_the_proof_is_refused_before_the_draw_and_checks_after_it(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    for player in PLAYERS[:3]:
        await drops.enter(drop_id, GUILD, player)
    with pytest.raises(NotAllowed) as early:
        await drops.verify(drop_id, GUILD)
    assert early.value.key == "drops.error.not_drawn"

    await close(drops, clock, sched)
    checked = await drops.verify(drop_id, GUILD)

    assert checked.verdict.ok
    row = await drop_row(db, drop_id)
    assert checked.proof.seed == row["seed"]
    assert fair_draw.check_published(
        fair_draw.parse_published(
            fair_draw.format_published(
                fair_draw.Published(
                    row["commitment"], row["seed"], row["digest"], checked.proof.drawn, checked.proof.entries
                )
            )
        )
    ).ok


async def test_an_entry_list_changed_after_the_draw_fails_the_check(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    """The check can fail: the stored list no longer matching the published fingerprint."""
    drop_id = await open_drop(drops, clock, sched)
    for player in PLAYERS[:3]:
        await drops.enter(drop_id, GUILD, player)
    await close(drops, clock, sched)

    await db.write(
        lambda conn: conn.execute(
            "UPDATE drop_entries SET player_id = ? WHERE drop_id = ? AND position = 3", (PLAYERS[5], drop_id)
        )
    )

    assert not (await drops.verify(drop_id, GUILD)).verdict.ok


async def test_fifty_simultaneous_clicks_enter_fifty_players_once_each(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    players = [2_000 + n for n in range(50)]
    await grant(db, clock, registry, *players)

    results = await asyncio.gather(
        *(drops.enter(drop_id, GUILD, player) for player in players + players[:10])
    )

    assert sorted(r.position for r in results if r.fresh) == list(range(1, 51))
    assert sum(not r.fresh for r in results) == 10


async def test_the_next_drop_waits_for_the_gap_and_the_days_room(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    """Three active players make room for one drop a day ("frequent"); a fourth to sixth for a second one,
    not before the gap since the first."""
    drop_id = await open_drop(drops, clock, sched)
    opened = (await drop_row(db, drop_id))["opened_at"]
    await close(drops, clock, sched)
    clock.advance(timedelta(minutes=2))
    await active(drops, PLAYERS[0])
    assert await armed_at(db) is None

    await active(drops, *PLAYERS[3:6])

    due = await armed_at(db)
    assert due is not None
    assert due >= from_db(opened) + RHYTHMS["frequent"].gap
    await run_armed(drops, clock, sched)
    assert (await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM drops").fetchone()[0])) == 2


async def test_turning_drops_off_withdraws_the_armed_drop(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    await active(drops, *PLAYERS[:3])
    await drops.configure(GUILD, "normal")
    await drops.configure(GUILD, "frequent")
    assert await armed_at(db) is not None

    settings = await drops.configure(GUILD, "off")

    assert settings.next_job is None
    assert await armed_at(db) is None
    clock.advance(timedelta(hours=1))
    await sched.run_due()
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM drops").fetchone()[0]) == 0


async def test_a_player_banned_here_or_a_game_paused_since_cannot_enter(
    db: Database, drops: DropService, clock: ManualClock, sched: Scheduler
) -> None:
    drop_id = await open_drop(drops, clock, sched)
    game = (await drop_row(db, drop_id))["game"]

    def unit(conn: Connection) -> None:
        now = to_db(clock.now())
        conn.execute(
            "INSERT INTO guild_bans (guild_id, player_id, banned_by, reason, banned_at) VALUES (?, ?, ?, 'x', ?)",
            (GUILD, PLAYERS[0], PLAYERS[5], now),
        )

    await db.write(unit)
    with pytest.raises(NotAllowed) as banned:
        await drops.enter(drop_id, GUILD, PLAYERS[0])
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO game_pauses (guild_id, game, paused_by, paused_at) VALUES (?, ?, ?, ?)",
            (GUILD, game, PLAYERS[5], to_db(clock.now())),
        )
    )
    with pytest.raises(NotAllowed) as paused:
        await drops.enter(drop_id, GUILD, PLAYERS[1])

    assert banned.value.key == "admin.banned"
    assert paused.value.key == "admin.paused"
    assert paused.value.params["game"] == Text(every_game().get(game).name_key)  # type: ignore[union-attr]
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM drop_entries").fetchone()[0]) == 0
