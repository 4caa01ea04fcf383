"""The shared challenges: challenge, accept, decline, withdraw, expiry by a scheduler job, first answer only."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from core.errors import BadInput, NotAllowed, NotFound
from services.infra.scheduler import Scheduler
from services.shared.challenges import Challenges
from services.shared.matches import Match
from store.connection import Connection
from store.db import Database
from tests.services.shared.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, OTHER_GUILD, NimMatches
from tests.services.shared.nim import Nim, NimState

pytestmark = pytest.mark.usefixtures("players")
TTL = timedelta(hours=1)
Nims = Challenges[NimState, Match[NimState]]


@pytest.fixture
def challenges(matches: NimMatches, scheduler: Scheduler) -> Nims:
    return Challenges(matches, scheduler, TTL)


async def challenge(db: Database, clock: ManualClock, challenges: Nims, key: str = "i1") -> Match[NimState]:
    return await db.write(
        lambda conn: challenges.challenge(
            conn,
            clock.now(),
            request_key=key,
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            challenged=BOB,
        )
    )


async def answer(
    db: Database, clock: ManualClock, challenges: Nims, match: Match[NimState], player: int, accept: bool
) -> tuple[Match[NimState], bool]:
    return await db.write(
        lambda conn: challenges.answer(conn, clock.now(), match.id, guild=GUILD, player=player, accept=accept)
    )


async def job_states(db: Database) -> list[str]:
    rows = await db.read(lambda conn: conn.execute("SELECT state FROM jobs ORDER BY id").fetchall())
    return [s for (s,) in rows]


async def test_a_challenge_is_made_once_per_interaction_with_its_expiry_job(
    db: Database, clock: ManualClock, challenges: Nims
) -> None:
    made = await challenge(db, clock, challenges)
    assert (made.status, made.seats, made.version, made.expires_at) == (
        "pending",
        (ALICE, BOB),
        0,
        clock.now() + TTL,
    )
    assert await challenge(db, clock, challenges) == made  # the same interaction, replayed
    assert await job_states(db) == ["due"]

    def stolen(conn: Connection) -> object:
        return challenges.challenge(
            conn,
            clock.now(),
            request_key="i1",
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=CAROL,
            challenged=BOB,
        )

    with pytest.raises(NotAllowed):
        await db.write(stolen)

    def itself(conn: Connection) -> object:
        return challenges.challenge(
            conn,
            clock.now(),
            request_key="i2",
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            challenged=ALICE,
        )

    with pytest.raises(BadInput) as caught:
        await db.write(itself)
    assert caught.value.key == "matches.challenge.self"


async def test_only_the_challenged_player_accepts_and_only_once(
    db: Database, clock: ManualClock, challenges: Nims, matches: NimMatches
) -> None:
    made = await challenge(db, clock, challenges)
    with pytest.raises(NotAllowed) as third:
        await answer(db, clock, challenges, made, CAROL, True)
    with pytest.raises(NotAllowed) as own:
        await answer(db, clock, challenges, made, ALICE, True)
    assert (third.value.key, own.value.key) == ("matches.challenge.not_yours", "matches.challenge.own")

    def accept_and_start(conn: Connection) -> Match[NimState]:
        match, accepted = challenges.answer(conn, clock.now(), made.id, guild=GUILD, player=BOB, accept=True)
        assert accepted
        return matches.start(conn, clock.now(), match, seed=1, setup={}, state=Nim().new_game([], 1, {}))

    started = await db.write(accept_and_start)
    assert (started.id, started.status, started.to_act()) == (made.id, "live", [1])
    with pytest.raises(NotAllowed) as again:
        await answer(db, clock, challenges, made, BOB, True)
    assert again.value.key == "matches.challenge.answered"


@pytest.mark.parametrize(("player", "status"), [(BOB, "declined"), (ALICE, "withdrawn")])
async def test_a_refusal_declines_or_withdraws_and_withdraws_the_expiry_job(
    db: Database, clock: ManualClock, challenges: Nims, player: int, status: str
) -> None:
    made = await challenge(db, clock, challenges)
    ended, accepted = await answer(db, clock, challenges, made, player, False)
    assert (ended.status, accepted, ended.deadline_job) == (status, False, None)
    assert await job_states(db) == ["cancelled"]


async def test_the_expiry_job_ends_an_unanswered_challenge(
    db: Database, clock: ManualClock, challenges: Nims, scheduler: Scheduler
) -> None:
    made = await challenge(db, clock, challenges)
    clock.advance(TTL)
    assert await scheduler.run_due() == 1
    late, accepted = await answer(db, clock, challenges, made, BOB, True)
    assert (late.status, accepted, late.version) == ("expired", False, 1)


async def test_an_answer_after_the_expiry_time_expires_it_even_before_the_job_runs(
    db: Database, clock: ManualClock, challenges: Nims, scheduler: Scheduler
) -> None:
    made = await challenge(db, clock, challenges)
    clock.advance(TTL + timedelta(seconds=1))
    late, accepted = await answer(db, clock, challenges, made, BOB, True)
    assert (late.status, accepted) == ("expired", False)
    assert await job_states(db) == ["cancelled"]  # the expiry job is withdrawn with the answer
    assert await scheduler.run_due() == 0
    after = await db.read(lambda conn: challenges.matches.load(conn, made.id, guild=GUILD))
    assert after.version == late.version


async def test_another_servers_challenge_cannot_be_answered(
    db: Database, clock: ManualClock, challenges: Nims
) -> None:
    made = await challenge(db, clock, challenges)
    with pytest.raises(NotFound):
        await db.write(
            lambda conn: challenges.answer(
                conn, clock.now(), made.id, guild=OTHER_GUILD, player=BOB, accept=True
            )
        )
    after = await db.read(lambda conn: challenges.matches.load(conn, made.id, guild=GUILD))
    assert after == made
