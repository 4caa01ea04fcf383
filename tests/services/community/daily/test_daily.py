"""Daily rewards against a real SQLite file: the streak table, Paris days (DST days included), a missed
day, idempotent claims (30 at once), every game in one claim, and the ledger rows."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from core.clock import ManualClock
from core.errors import BadInput
from services.community.daily import DailyClaim, DailyService, paris_day
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.timers import DailyReward, streak_table
from services.pillz.economy import PILLZ_GOLD
from store.connection import Connection
from store.db import Database
from tests.services.community.daily.conftest import PARIS, balance, new_player, paris
from tests.services.conftest import check_conservation
from tests.support.statements import trace_writes

OURS = ("hoss", "pillz")  # the games this folder registers


async def hoss_claim(daily: DailyService, player_id: int) -> DailyClaim:
    (claim,) = await daily.claim(player_id, "hoss")
    return claim


def test_the_streak_tables_are_the_decided_amounts() -> None:
    assert streak_table(50) == (50, 55, 60, 65, 70, 75, 80)
    assert streak_table(40) == (40, 44, 48, 52, 56, 60, 64)
    reward = DailyReward(GOLD, streak_table(50))
    assert [reward.amount(n) for n in (1, 2, 7, 8, 30)] == [50, 55, 80, 80, 80]
    with pytest.raises(ValueError, match="counts from 1"):
        reward.amount(0)
    with pytest.raises(ValueError, match="positive amounts"):
        DailyReward(GOLD, ())


async def test_consecutive_paris_days_grow_the_streak_up_to_a_week(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    clock.set(paris(2026, 1, 5, 9))
    paid = []
    for _ in range(9):
        claim = await hoss_claim(daily, 1)
        assert claim.credited
        paid.append((claim.streak, claim.amount))
        clock.advance(timedelta(days=1))
    assert paid == [(1, 50), (2, 55), (3, 60), (4, 65), (5, 70), (6, 75), (7, 80), (8, 80), (9, 80)]
    assert await balance(db, 1, GOLD) == 300 + 50 + 55 + 60 + 65 + 70 + 75 + 80 * 3
    refs = await db.read(
        lambda conn: conn.execute(
            "SELECT ref, delta FROM ledger WHERE reason = 'hoss.daily' ORDER BY id"
        ).fetchall()
    )
    assert [tuple(r) for r in refs[:2]] == [("2026-01-05", 50), ("2026-01-06", 55)]
    assert len(refs) == 9
    await db.read(check_conservation)


async def test_a_missed_day_starts_the_streak_again(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    clock.set(paris(2026, 1, 5, 20))
    assert (await hoss_claim(daily, 1)).streak == 1
    clock.set(paris(2026, 1, 6, 23, 59))
    assert (await hoss_claim(daily, 1)).streak == 2
    clock.set(paris(2026, 1, 8, 0, 1))  # nothing on the 7th
    claim = await hoss_claim(daily, 1)
    assert (claim.credited, claim.streak, claim.amount) == (True, 1, 50)
    clock.set(paris(2026, 1, 9, 8))
    assert (await hoss_claim(daily, 1)).streak == 2


async def test_the_day_is_the_paris_day_not_the_utc_day(clock: ManualClock, daily: DailyService) -> None:
    clock.set(paris(2026, 1, 5, 23, 30))  # 22:30 UTC
    first = await hoss_claim(daily, 1)
    assert first.next_at.isoformat() == "2026-01-05T23:00:00+00:00"
    clock.advance(timedelta(hours=1))  # 00:30 in Paris, still the 5th in UTC: a new day
    second = await hoss_claim(daily, 1)
    assert (second.credited, second.streak) == (True, 2)


async def test_daylight_saving_days_are_one_day_each(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    """The 23-hour day of March and the 25-hour day of October each hold one claim, and midnight is the
    local midnight on both sides of the change."""
    clock.set(paris(2026, 3, 28, 23, 30))  # Saturday, UTC+1
    first = await hoss_claim(daily, 1)
    assert first.next_at.isoformat() == "2026-03-28T23:00:00+00:00"  # Sunday 00:00, still UTC+1
    clock.set(paris(2026, 3, 29, 0, 30))
    spring = await hoss_claim(daily, 1)
    assert (spring.credited, spring.streak) == (True, 2)
    assert spring.next_at.isoformat() == "2026-03-29T22:00:00+00:00"  # Monday 00:00, now UTC+2
    clock.set(paris(2026, 3, 29, 23, 59))  # 21:59 UTC: 23 hours after midnight, the same Paris day
    assert not (await hoss_claim(daily, 1)).credited
    clock.set(paris(2026, 3, 30, 0, 0))
    assert (await hoss_claim(daily, 1)).streak == 3

    clock.set(paris(2026, 10, 24, 12))
    assert (await hoss_claim(daily, 2)).credited
    clock.set(paris(2026, 10, 25, 0, 30))  # the 25-hour Sunday
    autumn = await hoss_claim(daily, 2)
    assert (autumn.streak, autumn.next_at.isoformat()) == (2, "2026-10-25T23:00:00+00:00")
    clock.set(paris(2026, 10, 25, 23, 59))  # 22:59 UTC, 24 h 29 min after the claim: still Sunday
    assert not (await hoss_claim(daily, 2)).credited
    clock.set(paris(2026, 10, 26, 0, 1))
    assert (await hoss_claim(daily, 2)).streak == 3


async def test_a_double_click_claims_once(db: Database, clock: ManualClock, daily: DailyService) -> None:
    first = await hoss_claim(daily, 1)
    again = await hoss_claim(daily, 1)
    assert (first.credited, again.credited) == (True, False)
    assert (again.amount, again.streak, again.balance) == (50, 1, 350)
    assert again.next_at == first.next_at


async def test_thirty_simultaneous_claims_pay_once(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    clock.set(paris(2026, 1, 5, 9))
    await hoss_claim(daily, 1)
    clock.advance(timedelta(days=1))  # a streak of 2: the concurrent claims race for 55
    results = await asyncio.gather(*(hoss_claim(daily, 1) for _ in range(30)))
    assert sum(r.credited for r in results) == 1
    assert {(r.amount, r.streak, r.balance) for r in results} == {(55, 2, 405)}
    assert await balance(db, 1, GOLD) == 405

    def rows(conn: Connection) -> tuple[int, int]:
        ledger_rows = conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'hoss.daily'").fetchone()[0]
        claims = conn.execute("SELECT COUNT(*) FROM daily_claims WHERE player_id = 1").fetchone()[0]
        return int(ledger_rows), int(claims)

    assert await db.read(rows) == (2, 2)
    await db.read(check_conservation)


async def test_without_a_game_every_daily_is_claimed(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    claims = [c for c in await daily.claim(1) if c.game in OURS]  # other tests may have registered more
    assert [(c.game, c.currency, c.amount, c.balance) for c in claims] == [
        ("hoss", GOLD, 50, 350),
        ("pillz", PILLZ_GOLD, 40, 340),
    ]
    assert [c.credited for c in await daily.claim(1) if c.game in OURS] == [False, False]
    (pillz,) = await daily.claim(1, "pillz")
    assert not pillz.credited
    with pytest.raises(BadInput) as refused:
        await daily.claim(1, "chess")
    assert refused.value.key == "daily.error.no_daily"


@pytest.mark.sqlite_only("the unit's statements counted by SQLite's trace callback")
async def test_every_games_daily_in_one_unit_makes_sure_of_the_player_once(
    db: Database, clock: ManualClock, daily: DailyService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/daily claims every game's daily in one write unit: the player is made sure of once for them all,
    today's rows inserted in one statement, only the game already claimed read back."""
    await daily.claim(7, "hoss")  # the player made, the starting wallets granted
    statements = trace_writes(db, monkeypatch)
    claims = [c for c in await daily.claim(7) if c.game in OURS]
    assert [(c.game, c.credited) for c in claims] == [("hoss", False), ("pillz", True)]
    assert sum(s.startswith("INSERT INTO players") for s in statements) == 1
    assert sum(s.startswith("INSERT INTO daily_claims") for s in statements) == 1
    assert sum(s.startswith("SELECT streak, amount FROM daily_claims") for s in statements) == 1


@pytest.mark.sqlite_only("the unit's statements counted by SQLite's trace callback")
async def test_every_games_daily_costs_the_same_statements_whatever_the_games(
    db: Database, clock: ManualClock, daily: DailyService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step of a claim of every game is one statement for them all (issue 39: a statement per game
    and step before): the player, yesterday's streaks, the starting wallets, today's rows, the wallets,
    the ledger rows. The ledger rows are those the credits one by one wrote, balances included."""
    await new_player(db, clock, 5, daily.registry)
    statements = trace_writes(db, monkeypatch)
    claims = [c for c in await daily.claim(5) if c.game in OURS]
    assert [(c.game, c.credited, c.balance) for c in claims] == [("hoss", True, 350), ("pillz", True, 340)]
    # SQLite's trace reports a statement again for each trigger it runs (the wallets' and the ledger's)
    assert len(dict.fromkeys(statements)) == 6, statements
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT currency, delta, balance_after, reason, ref, card_id FROM ledger WHERE player_id = 5"
            " AND reason LIKE '%.daily' ORDER BY id"
        ).fetchall()
    )
    day = paris_day(clock.now(), PARIS).isoformat()
    assert [tuple(r) for r in rows] == [
        (GOLD, 50, 350, "hoss.daily", day, None),
        (PILLZ_GOLD, 40, 340, "pillz.daily", day, None),
    ]
    await db.read(check_conservation)


async def test_one_currency_credited_twice_leaves_each_ledger_row_its_running_balance(
    db: Database, clock: ManualClock
) -> None:
    """`credit_all` with a currency twice: one wallet row upserted with the sum, and each ledger row the
    balance its own credit left, as two `credit` calls one after the other."""
    await db.write(lambda conn: ensure_player(conn, 6, clock.now(), GameRegistry(())))
    why = ledger.Movement("test.credit")
    afters = await db.write(
        lambda conn: ledger.credit_all(
            conn, clock.now(), 6, [(GOLD, 10, why), (PILLZ_GOLD, 7, why), (GOLD, 5, why)]
        )
    )
    assert afters == [10, 7, 15]
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT currency, delta, balance_after FROM ledger WHERE player_id = 6 ORDER BY id"
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [(GOLD, 10, 10), (PILLZ_GOLD, 7, 7), (GOLD, 5, 15)]
    assert await balance(db, 6, GOLD) == 15


@pytest.mark.sqlite_only("the unit's statements counted by SQLite's trace callback")
async def test_every_games_streak_of_yesterday_is_read_in_one_statement(
    db: Database, clock: ManualClock, daily: DailyService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/daily reads yesterday's claims of every game at once (a statement per game before), and each
    game's streak still follows its own days."""
    clock.set(paris(2026, 1, 5, 9))
    await hoss_claim(daily, 1)
    clock.advance(timedelta(days=1))
    statements = trace_writes(db, monkeypatch)
    claims = {c.game: c for c in await daily.claim(1)}
    streak_reads = [s for s in statements if s.startswith("SELECT") and "FROM daily_claims" in s]
    assert len(streak_reads) == 1, streak_reads
    assert (claims["hoss"].streak, claims["hoss"].amount) == (2, 55)
    assert (claims["pillz"].streak, claims["pillz"].amount) == (1, 40)


async def test_states_read_without_claiming(db: Database, clock: ManualClock, daily: DailyService) -> None:
    clock.set(paris(2026, 1, 5, 9))
    await hoss_claim(daily, 1)
    clock.advance(timedelta(days=1))
    states = {s.game: s for s in await daily.states(1)}
    assert (states["hoss"].claimed_today, states["hoss"].streak, states["hoss"].amount) == (False, 2, 55)
    assert (states["pillz"].claimed_today, states["pillz"].streak, states["pillz"].amount) == (False, 1, 40)
    assert await balance(db, 1, GOLD) == 350  # nothing paid by reading


async def test_an_older_player_gets_the_starting_wallet_before_the_daily(
    db: Database, clock: ManualClock, daily: DailyService
) -> None:
    """A player created before the game declared its currency: the first claim grants the start too."""
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO players (id, created_at) VALUES (9, '2025-01-01T00:00:00.000000Z')"
        )
    )
    claim = await hoss_claim(daily, 9)
    assert claim.balance == 350
    await db.read(check_conservation)
