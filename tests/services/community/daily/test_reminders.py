"""Opt-in DM reminders on the scheduler: the daily ready in the morning, the raffle an hour before it
closes, a game's deadline; none when turned off, when DMs are closed, or once the timer is gone; and
/cooldowns' lines, game by game."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from core.clock import ManualClock
from services.community import reminders as reminders_module
from services.community.daily import DailyService
from services.community.reminders import PLAN_JOB, REMINDER_JOB, Reminders
from services.hoss.raffle import RaffleService
from services.infra.games import GameRegistry, GameSpec, money
from services.infra.messages import MessageSpec, Text
from services.infra.scheduler import Scheduler
from services.infra.timers import Timer, TimerQuery
from store.connection import Connection
from store.db import Database
from tests.services.community.daily.conftest import dms, new_player, paris

GUILD = 500


def keys_of(payloads: list[str]) -> list[str]:
    """The message keys of the DMs' first lines (the reminder; the second is the footer)."""
    return [first_line(p).key for p in payloads]


def lines(payload: str) -> list[Text]:
    content = MessageSpec.from_json(payload).content
    assert content is not None
    found: list[Text] = content.params["items"]
    return found


def first_line(payload: str) -> Text:
    return lines(payload)[0]


async def jobs(db: Database, kind: str) -> list[tuple[str, str]]:
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT state, due_at FROM jobs WHERE kind = ? ORDER BY id", (kind,)
        ).fetchall()
    )
    return [(str(r[0]), str(r[1])) for r in rows]


async def test_the_daily_is_reminded_the_next_morning_only_to_who_asked(
    db: Database, clock: ManualClock, sched: Scheduler, daily: DailyService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    for player in (1, 2):
        await daily.claim(player, "hoss")
    setting = await reminders.set_enabled(1, True)
    assert (setting.enabled, setting.dms_closed) == (True, False)
    clock.set(paris(2026, 1, 6, 8, 59))
    await sched.run_due()  # the nightly pass at 00:05 planned the 09:00 reminder
    assert await dms(db, 1) == []
    clock.set(paris(2026, 1, 6, 9))
    await sched.run_due()
    assert keys_of(await dms(db, 1)) == ["daily.reminder_title"]
    (hoss,) = lines((await dms(db, 1))[0])[1:-1]  # one game: pillz was never claimed
    assert (hoss.key, hoss.params["streak"], hoss.params["amount"]) == (
        "daily.reminder",
        2,
        money("hoss_gold", 55),
    )
    assert await dms(db, 2) == []  # claimed too, but never asked for reminders
    clock.set(paris(2026, 1, 6, 23))
    await sched.run_due()
    assert len(await dms(db, 1)) == 1  # once a day


async def test_a_claim_before_the_morning_withdraws_it(
    db: Database, clock: ManualClock, sched: Scheduler, daily: DailyService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    await daily.claim(1, "hoss")
    await reminders.set_enabled(1, True)
    clock.set(paris(2026, 1, 6, 7))
    await sched.run_due()
    await daily.claim(1, "hoss")
    clock.set(paris(2026, 1, 6, 10))
    await sched.run_due()
    assert await dms(db, 1) == []
    assert ("done", "2026-01-06T08:00:00.000000Z") in await jobs(db, REMINDER_JOB)


async def test_no_dm_when_turned_off_or_dms_are_closed(
    db: Database, clock: ManualClock, sched: Scheduler, daily: DailyService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    for player in (1, 2):
        await daily.claim(player, "hoss")
        await reminders.set_enabled(player, True)
    await reminders.set_enabled(1, False)
    await db.write(lambda conn: conn.execute("UPDATE players SET dms_closed = 1 WHERE id = 2"))
    assert (await reminders.set_enabled(2, True)).dms_closed
    clock.set(paris(2026, 1, 6, 12))
    await sched.run_due()
    assert await dms(db, 1) == []
    assert await dms(db, 2) == []


async def test_a_player_who_has_not_claimed_for_a_week_is_not_called_every_day(
    db: Database, clock: ManualClock, sched: Scheduler, daily: DailyService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    await daily.claim(1, "hoss")
    await reminders.set_enabled(1, True)
    sent = []
    for day in range(6, 16):
        for hour in (0, 12):  # the nightly pass (00:05) as the dispatcher runs it, then the morning
            clock.set(paris(2026, 1, day, hour, 10))
            await sched.run_due()
        sent.append(len(await dms(db, 1)))
    assert sent == [1, 2, 3, 4, 5, 6, 7, 7, 7, 7]  # the 6th to the 12th: a week after the last claim
    assert not (await reminders.is_enabled(2))


async def test_nobody_asked_no_nightly_job(
    db: Database, clock: ManualClock, sched: Scheduler, reminders: Reminders, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    clock.advance(timedelta(days=3))
    assert await sched.run_due() == 0
    assert await jobs(db, PLAN_JOB) == []
    await reminders.set_enabled(1, True)
    await reminders.set_enabled(1, True)
    assert [state for state, _ in await jobs(db, PLAN_JOB)] == ["due"]  # one per night, however often


@pytest.fixture
def raffle(db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry) -> RaffleService:
    return RaffleService(db, clock, random.Random(7), sched, registry=registry)


async def test_the_raffle_is_reminded_an_hour_before_it_closes(
    db: Database, clock: ManualClock, sched: Scheduler, raffle: RaffleService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    for player in (1, 2, 3):
        await raffle.buy(GUILD, player, key=f"day1:{player}")
    for player in (1, 2, 4):
        await reminders.set_enabled(player, True)
    clock.set(paris(2026, 1, 6, 9))
    await sched.run_due()
    await raffle.buy(GUILD, 2, key="day2:2")  # already has the day's ticket: no reminder
    clock.set(paris(2026, 1, 6, 18, 58))
    await sched.run_due()
    assert await dms(db, 1) == []
    clock.set(paris(2026, 1, 6, 18, 59))
    await sched.run_due()
    assert keys_of(await dms(db, 1)) == ["hoss.raffle.reminder"]
    assert await dms(db, 2) == []
    assert await dms(db, 3) == []  # bought yesterday, but never asked for reminders
    assert await dms(db, 4) == []  # asked, but never plays the raffle


class Deadlines:
    """A game's timers held in a dict, as a game would read them from its tables."""

    def __init__(self) -> None:
        self.due: dict[int, datetime] = {}

    def timers(self, conn: Connection, query: TimerQuery) -> list[Timer]:
        due = self.due.get(query.player_id)
        if due is None:
            return []
        remind = Text("cooldowns.none")  # any catalog text: the test reads its key
        return [
            Timer(
                f"turn:{int(due.timestamp())}",
                Text("cooldowns.title"),
                Text("cooldowns.none"),
                due,
                due - timedelta(minutes=5),
                remind,
            )
        ]


@pytest.fixture
def deadlines(reminders: Reminders, monkeypatch: pytest.MonkeyPatch) -> Deadlines:
    """A test-only game whose timers are these deadlines, among the games the reminders know."""
    state = Deadlines()
    clockwork = GameSpec(
        key="zz_clockwork", name_key="cooldowns.title", command_group="zz", timers=state.timers
    )
    monkeypatch.setattr(reminders, "registry", reminders.registry.with_games(clockwork))
    return state


async def test_a_game_plans_a_deadline_reminder_that_fires_only_if_the_turn_is_still_due(
    db: Database, clock: ManualClock, sched: Scheduler, reminders: Reminders, deadlines: Deadlines
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    await reminders.set_enabled(1, True)
    for player in (1, 2):
        deadlines.due[player] = clock.now() + timedelta(minutes=30)

    def game_sets_deadlines(conn: Connection) -> list[int]:
        now = clock.now()
        return [
            reminders_module.plan(
                conn, now, p, "zz_clockwork", deadlines.timers(conn, TimerQuery(p, now, reminders.zone))
            )
            for p in (1, 2)
        ]

    assert await db.write(game_sets_deadlines) == [1, 0]  # player 2 did not ask
    assert await db.write(game_sets_deadlines) == [0, 0]  # planned once
    clock.advance(timedelta(minutes=25))
    await sched.run_due()
    assert keys_of(await dms(db, 1)) == ["cooldowns.none"]

    deadlines.due[1] = clock.now() + timedelta(minutes=30)  # the next turn
    await db.write(game_sets_deadlines)
    deadlines.due[1] = clock.now() + timedelta(hours=2)  # played meanwhile: a new deadline
    clock.advance(timedelta(minutes=25))
    await sched.run_due()
    assert len(await dms(db, 1)) == 1  # the stale reminder found no such timer


async def test_cooldowns_list_every_game_ready_first(
    db: Database, clock: ManualClock, daily: DailyService, raffle: RaffleService, reminders: Reminders
) -> None:
    clock.set(paris(2026, 1, 5, 12))
    await daily.claim(1, "pillz")
    found = [
        (c.game.key, c.timer.key, c.timer.status.key, c.timer.at)
        for c in await reminders.cooldowns(1)
        if c.game.key in ("hoss", "pillz")  # other tests may have registered more games
    ]
    assert found == [
        ("hoss", "daily:2026-01-05", "daily.timer.ready", None),
        ("hoss", "raffle:2026-01-05", "hoss.raffle.timer.open", paris(2026, 1, 5, 19, 59)),
        ("pillz", "daily:2026-01-06", "daily.timer.claimed", paris(2026, 1, 6, 0)),
    ]
