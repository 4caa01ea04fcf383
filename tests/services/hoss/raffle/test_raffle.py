"""The daily raffle against a real SQLite file: sales and their 19:59 close, one ticket a day in every
server, the 20:00 draw through the scheduler (also after downtime, once), the ledger, and verification."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import InsufficientFunds
from engine import fair_draw
from services.community.privacy import erase
from services.hoss.gold import GOLD
from services.hoss.proofs import RAFFLE, Proof, proof_spec
from services.hoss.raffle import (
    DRAW_JOB,
    AlreadyHasTicket,
    DrawRecord,
    RaffleClosed,
    RaffleService,
    results_post,
)
from services.infra import ledger
from services.infra.erased import ERASED
from services.infra.games import GameRegistry
from services.infra.messages import render_text
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.conftest import check_conservation
from tests.services.hoss.conftest import new_player

PARIS = ZoneInfo("Europe/Paris")
GUILD, OTHER_GUILD, ANNOUNCE = 500, 600, 9001
WINTER_NOON = datetime(2026, 1, 5, 11, 0, tzinfo=UTC)  # 12:00 in Paris (UTC+1)


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


@pytest.fixture
async def raffle(db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry) -> RaffleService:
    """The service as the bot starts it: the scheduler's first pass plans the next 20:00 draw."""
    clock.set(WINTER_NOON)
    service = RaffleService(db, clock, random.Random(7), sched, registry=registry)
    assert await sched.run_due() == 0
    return service


async def announce_in(db: Database, guild: int, channel: int) -> None:
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO guild_settings (guild_id, announce_channel_id, updated_at) VALUES (?, ?, ?)",
            (guild, channel, "2026-01-01T00:00:00+00:00"),
        )
    )


async def balance(db: Database, player: int) -> int:
    return await db.read(lambda conn: ledger.balance(conn, player, GOLD))


async def rows(db: Database, sql: str, *args: object) -> list[tuple[object, ...]]:
    return await db.read(lambda conn: [tuple(r) for r in conn.execute(sql, args).fetchall()])


async def players(db: Database, clock: ManualClock, ids: range, registry: GameRegistry) -> None:
    for player in ids:
        await new_player(db, clock, player, registry=registry)


def paris(day: date, hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=PARIS).astimezone(UTC)


DAY = date(2026, 1, 5)


async def sold_then_drawn(
    db: Database,
    clock: ManualClock,
    raffle: RaffleService,
    sched: Scheduler,
    buyers: int,
    registry: GameRegistry,
) -> int:
    """Players 1..buyers each buy a ticket on DAY, then the clock reaches 20:00; returns the jobs fired."""
    await players(db, clock, range(1, buyers + 1), registry=registry)
    for p in range(1, buyers + 1):
        await raffle.buy(GUILD, p, key=f"k{p}")
    clock.set(paris(DAY, 20, 0))
    return await sched.run_due()


async def test_a_ticket_costs_100_gold_and_goes_to_todays_draw(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    ticket = await raffle.buy(GUILD, 1, key="k1")
    assert (ticket.day, ticket.number, ticket.balance) == (DAY, 1, 200)
    assert ticket.commitment == (await raffle.window(GUILD, 1)).commitment
    assert await balance(db, 1) == 200


async def test_sales_close_at_1959_and_reopen_at_2000_for_the_next_day(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await players(db, clock, range(1, 4), registry=registry)
    clock.set(paris(DAY, 19, 58, 59))
    assert (await raffle.buy(GUILD, 1, key="a")).day == DAY
    clock.set(paris(DAY, 19, 59))
    with pytest.raises(RaffleClosed):
        await raffle.buy(GUILD, 2, key="b")
    assert await balance(db, 2) == 300
    window = await raffle.window(GUILD, 2)
    assert (window.day, window.open, window.tickets) == (DAY, False, 1)
    clock.set(paris(DAY, 20, 0))
    assert (await raffle.buy(GUILD, 2, key="c")).day == DAY + timedelta(days=1)


async def test_the_close_and_draw_follow_paris_time_across_daylight_saving(raffle: RaffleService) -> None:
    winter = raffle.schedule_of(date(2026, 1, 5))
    summer = raffle.schedule_of(date(2026, 7, 5))
    assert [w.astimezone(UTC).hour for w in winter] == [18, 19]  # 19:59 and 20:00 at UTC+1
    assert [w.astimezone(UTC).hour for w in summer] == [17, 18]  # at UTC+2
    assert (winter[0].minute, winter[1].minute) == (59, 0)


async def test_one_ticket_a_day_in_every_server(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    await raffle.buy(GUILD, 1, key="a")
    with pytest.raises(AlreadyHasTicket):
        await raffle.buy(GUILD, 1, key="b")
    with pytest.raises(AlreadyHasTicket):
        await raffle.buy(OTHER_GUILD, 1, key="c")
    assert await balance(db, 1) == 200
    assert (await raffle.window(OTHER_GUILD, 1)).has_ticket


async def test_a_double_click_buys_once_and_answers_the_same(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    first = await raffle.buy(GUILD, 1, key="same")
    again = await raffle.buy(GUILD, 1, key="same")
    assert (again.number, again.balance, again.replayed, first.replayed) == (1, 200, True, False)


async def test_without_gold_nothing_changes(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=99, registry=registry)
    with pytest.raises(InsufficientFunds):
        await raffle.buy(GUILD, 1, key="a")
    assert await rows(db, "SELECT * FROM hoss_raffle_tickets") == []
    assert await balance(db, 1) == 99


async def test_dozens_of_simultaneous_clicks(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await players(db, clock, range(1, 41), registry=registry)
    same_player = [raffle.buy(GUILD, 1, key=f"p1-{i}") for i in range(30)]
    others = [raffle.buy(GUILD, p, key=f"p{p}") for p in range(2, 41)]
    results = await asyncio.gather(*same_player, *others, return_exceptions=True)
    refused = [r for r in results if isinstance(r, AlreadyHasTicket)]
    assert len(refused) == 29
    assert all(not isinstance(r, BaseException) or isinstance(r, AlreadyHasTicket) for r in results)
    numbers = await rows(db, "SELECT number FROM hoss_raffle_tickets ORDER BY number")
    assert [n for (n,) in numbers] == list(range(1, 41))
    assert await balance(db, 1) == 200
    await db.read(check_conservation)


async def test_the_2000_draw_pays_one_winner_for_30_tickets_and_posts_the_results(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    await announce_in(db, GUILD, ANNOUNCE)
    assert await sold_then_drawn(db, clock, raffle, sched, 30, registry=registry) == 1
    record = await raffle.latest(GUILD)
    assert record is not None
    assert (record.tickets, record.pot, record.share, record.carried_out) == (30, 3_000, 3_000, 0)
    assert len(record.winners) == 1
    winner = record.winners[0]
    assert await balance(db, winner) == 200 + 3_000
    assert sorted([await balance(db, p) for p in range(1, 31)]).count(200) == 29
    positions = [record.entries.index(f"{n}:{p}") for n, p in _numbers(record, record.winners)]
    assert fair_draw.draw(record.seed, record.entries, 1) == positions
    posts = await rows(db, "SELECT target_kind, target_id, payload FROM outbox ORDER BY id")
    assert posts[0][:2] == ("channel", ANNOUNCE)  # the raffle opens, before the first ticket
    assert "hoss:proof:raffle:" in str(posts[0][2])  # its commitment behind « Vérifier »
    assert posts[-2][:2] == ("channel", ANNOUNCE)
    assert all(secret not in str(post[2]) for post in posts for secret in (record.seed, record.commitment))
    proof = await raffle.proof(GUILD, DAY)
    assert (proof.seed, proof.commitment, proof.digest) == (record.seed, record.commitment, record.digest)
    assert posts[-1][:2] == ("dm", winner)
    assert (await raffle.verify(GUILD, DAY)).verdict.ok
    await db.read(check_conservation)


def test_the_results_post_puts_the_winners_and_their_share_and_the_proof_behind_a_button() -> None:
    """« Il y a un gagnant par tranche de 5 000 or dans la cagnotte (au moins un), et la cagnotte est
    partagée à parts égales entre eux »: the post says who won and how much each; the seed, the commitment
    and the ticket list's fingerprint are behind « Vérifier » (issue 35), in that order."""
    record = DrawRecord(
        guild_id=GUILD,
        day=DAY,
        tickets=120,
        carried_in=0,
        pot=12_000,
        share=6_000,
        carried_out=0,
        winners=(7, 9),
        seed="a" * 64,
        commitment="b" * 64,
        digest="c" * 64,
        entries=(),
    )
    post = results_post(record)
    (embed,) = post.embeds
    description = render_text(embed.description, "fr")
    assert description.startswith("Tirage du ")
    everything = post.to_json()
    assert all(secret not in everything for secret in ("a" * 64, "b" * 64, "c" * 64))
    labels = [render_text(f.name, "fr") for f in embed.fields]
    assert labels[:2] == ["Gagnants", "Part de chacun"]
    values = [render_text(f.value, "fr") for f in embed.fields]
    assert values[0] == "<@7>\n<@9>"
    assert values[1].replace("\u202f", " ").replace("\xa0", " ") == "6 000 or"
    assert [render_text(b.label, "fr") for b in post.buttons] == ["🎟️ Acheter un ticket (100 or)", "Vérifier"]
    shown = proof_spec(Proof(RAFFLE, DAY, "b" * 64, "a" * 64, "c" * 64)).content
    assert shown is not None
    proof = render_text(shown, "fr")
    assert proof.index("a" * 64) < proof.index("b" * 64) < proof.index("c" * 64)
    assert "`/hoss tombola vérifier jour:" in proof
    pending = proof_spec(Proof(RAFFLE, DAY, "b" * 64, None)).content
    assert pending is not None
    assert "a" * 64 not in render_text(pending, "fr")


def _numbers(record: DrawRecord, winners: tuple[int, ...]) -> list[tuple[int, int]]:
    by_player = {int(e.split(":")[1]): int(e.split(":")[0]) for e in record.entries}
    return [(by_player[p], p) for p in winners]


async def test_the_remainder_is_carried_into_the_next_draw_once(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    await sold_then_drawn(db, clock, raffle, sched, 151, registry=registry)
    first = await raffle.latest(GUILD)
    assert first is not None
    assert (first.pot, len(first.winners), first.share, first.carried_out) == (
        15_100,
        3,
        5_033,
        1,
    )
    clock.set(paris(DAY + timedelta(days=1), 10, 0))
    assert (await raffle.window(GUILD, 1)).pot == 1
    await raffle.buy(GUILD, 1, key="d2-1")
    clock.set(paris(DAY + timedelta(days=1), 20, 0))
    await sched.run_due()
    second = await raffle.latest(GUILD)
    assert second is not None
    assert (second.carried_in, second.pot, second.share) == (1, 101, 101)
    await db.read(check_conservation)


async def test_a_draw_missed_while_down_runs_once_at_start_up_with_the_frozen_tickets(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    await players(db, clock, range(1, 3), registry=registry)
    await raffle.buy(GUILD, 1, key="a")
    clock.set(paris(DAY + timedelta(days=2), 9, 0))  # down from before 20:00 until two days later
    assert await sched.run_due() == 1  # the missed draw, once (the next day had no raffle, so no job)
    assert await sched.run_due() == 0
    record = await raffle.latest(GUILD)
    assert record is not None
    assert record.day == DAY
    assert record.winners == (1,)
    assert await balance(db, 1) == 300
    fired = await rows(db, "SELECT period_key FROM jobs WHERE kind = ? AND state = 'done'", DRAW_JOB)
    assert [str(k) for (k,) in fired] == [f"{GUILD}:2026-01-05"]


async def test_the_seed_is_secret_until_the_draw(
    db: Database, clock: ManualClock, raffle: RaffleService, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    await raffle.buy(GUILD, 1, key="a")
    assert await raffle.latest(GUILD) is None
    window = await raffle.window(GUILD, 1)
    (seed,) = (await rows(db, "SELECT seed FROM hoss_raffles"))[0]
    assert window.commitment == fair_draw.commitment(str(seed))
    assert str(seed) not in repr(window)


async def test_a_changed_ticket_list_fails_verification(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    await players(db, clock, range(61, 62), registry=registry)  # who will slip a ticket in after the draw
    await sold_then_drawn(db, clock, raffle, sched, 60, registry=registry)
    assert (await raffle.verify(GUILD, DAY)).verdict.ok

    def tamper(conn: Connection) -> None:
        conn.execute(  # a ticket slipped in after the draw
            "INSERT INTO hoss_raffle_tickets (guild_id, day, number, player_id, bought_at)"
            " SELECT guild_id, day, 61, 61, bought_at FROM hoss_raffle_tickets WHERE number = 1"
        )

    await db.write(tamper)
    assert (await raffle.verify(GUILD, DAY)).verdict.reason == "digest"


async def test_an_erased_players_winning_ticket_keeps_its_share_in_the_pot(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    """docs/privacy.md: the ticket stays in the draw (the list and the others' odds do not change), but
    a share it wins is carried to the server's next draw, never paid to the anonymous id."""
    await announce_in(db, GUILD, ANNOUNCE)
    await players(db, clock, range(1, 2), registry=registry)
    await raffle.buy(GUILD, 1, key="k1")
    now = clock.now()
    anonymous = await db.write(lambda conn: erase(conn, now, registry, 1))
    assert anonymous is not None
    clock.set(paris(DAY, 20, 0))
    assert await sched.run_due() == 1
    record = await raffle.latest(GUILD)
    assert record is not None
    assert (record.winners, record.share, record.carried_out) == ((anonymous,), 100, 100)
    assert await rows(db, "SELECT COUNT(*) FROM outbox WHERE target_kind = 'dm'") == [(0,)]
    assert (await raffle.verify(GUILD, DAY)).verdict.ok  # erased before the draw: the list drawn is this one
    await db.read(check_conservation)


async def test_a_draw_whose_player_erased_their_data_since_says_so_instead_of_failing(
    db: Database, clock: ManualClock, raffle: RaffleService, sched: Scheduler, registry: GameRegistry
) -> None:
    await sold_then_drawn(db, clock, raffle, sched, 3, registry=registry)
    now = clock.now()
    await db.write(lambda conn: erase(conn, now, registry, 2))
    verdict = (await raffle.verify(GUILD, DAY)).verdict
    assert (verdict.ok, verdict.reason) == (False, ERASED)
