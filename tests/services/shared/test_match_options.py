"""The block's options a game may take (Chocobataille takes them all): its own consecutive numbers, answers
in DMs to a match's own players, several pending jobs per match, a second answer to a challenge that gets
it back, and the game's own "no such challenge" message."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from core.clock import ManualClock, to_db
from core.errors import NotAllowed, NotFound
from services.infra.scheduler import Scheduler
from services.shared.challenges import Challenges, ChallengeTexts
from services.shared.match_jobs import rearm
from services.shared.matches import Match, Matches, MatchRules
from store.connection import Connection
from store.db import Database
from tests.services.shared.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    NimMatches,
    count,
    live,
)
from tests.services.shared.nim import Nim, NimState

pytestmark = pytest.mark.usefixtures("players")
NUMBERED = MatchRules("numbered", Nim(), numbered=True, answers_in_dms=True)


@pytest.fixture
def numbered() -> NimMatches:
    return Matches(NUMBERED, Match)


async def test_a_numbered_game_counts_its_own_matches_from_one(
    db: Database, clock: ManualClock, matches: NimMatches, numbered: NimMatches
) -> None:
    """Match ids are one sequence for every game; a numbered game's numbers follow only its own starts."""
    first_other = await live(db, clock, matches)
    pending = await db.write(
        lambda conn: numbered.create(
            conn, clock.now(), guild_id=GUILD, channel_id=CHANNEL, seats=(ALICE, BOB)
        )
    )
    one = await live(db, clock, numbered)
    await live(db, clock, matches)
    two = await live(db, clock, numbered)
    assert (first_other.number, pending.number, one.number, two.number) == (None, None, 1, 2)
    assert two.id == 5
    assert one.id == 3

    async def reach(guild: int | None, player: int | None) -> object:
        def unit(conn: Connection) -> object:
            try:
                return numbered.load_number(conn, 2, guild=guild, player=player).id
            except NotFound as error:
                return (error.key, dict(error.params))

        return await db.read(unit)

    missing = ("matches.error.not_found", {"id": 2})
    assert await reach(GUILD, None) == two.id
    assert await reach(OTHER_GUILD, ALICE) == missing
    assert await reach(None, ALICE) == two.id  # a player, in DMs
    assert await reach(None, CAROL) == missing  # a non-player's DMs
    assert await db.read(lambda conn: numbered.number_trusted(conn, 1).id) == one.id


async def test_a_game_without_answers_in_dms_is_unknown_there(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    with pytest.raises(NotFound):
        await db.read(lambda conn: matches.load(conn, match.id, guild=None, player=ALICE))


async def test_thread_channel_and_live_matches_per_server(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    moved = await db.write(lambda conn: matches.save(conn, match, clock.now(), thread_id=90, channel_id=91))

    def check(conn: Connection) -> None:
        found = matches.in_thread(conn, 90)
        assert found is not None
        assert (found.id, found.channel_id, found.version) == (match.id, 91, 2)
        assert matches.in_thread(conn, 91) is None
        assert [m.id for m in matches.live_of(conn, ALICE, GUILD)] == [moved.id]
        assert matches.live_of(conn, ALICE, OTHER_GUILD) == []
        assert [m.id for m in matches.live(conn)] == [moved.id]

    await db.read(check)


async def test_several_jobs_per_match_are_moved_trimmed_and_withdrawn_together(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    due = clock.now() + timedelta(hours=1)
    kinds = ("nim:stage", "nim:reminder")

    def arm(when: datetime, armed: tuple[str, ...]) -> Callable[[Connection], list[int]]:
        def unit(conn: Connection) -> list[int]:
            rearm(conn, clock.now(), match.id, [(kind, when, {"match": match.id}) for kind in armed])
            return [int(j) for (j,) in conn.execute("SELECT job_id FROM match_jobs ORDER BY job_id")]

        return unit

    jobs = await db.write(arm(due, kinds))
    assert len(jobs) == 2
    assert await db.write(arm(due + timedelta(hours=1), kinds)) == jobs  # moved, ids kept
    assert (
        await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM jobs WHERE due_at > ?", to_db(due))) == 2
    )
    assert await db.write(arm(due, kinds[:1])) == jobs[:1]  # the reminder no longer wanted: withdrawn
    assert await db.read(lambda conn: [matches.is_current(conn, match.id, j) for j in jobs]) == [True, False]
    await db.write(lambda conn: matches.disarm(conn, match.id))
    assert await db.read(lambda conn: [matches.is_current(conn, match.id, j) for j in jobs]) == [False, False]
    assert await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM jobs WHERE state = 'cancelled'")) == 2
    again = await db.read(lambda conn: matches.load(conn, match.id, guild=GUILD))
    assert again.version == match.version  # jobs are no save


@pytest.mark.parametrize("returns", [False, True])
async def test_a_second_answer_is_refused_or_gets_the_challenge_back(
    db: Database, clock: ManualClock, numbered: NimMatches, scheduler: Scheduler, returns: bool
) -> None:
    texts = ChallengeTexts(not_found="numbered.no_challenge")
    challenges = Challenges(numbered, scheduler, timedelta(hours=1), texts, answered_returns=returns)
    made = await db.write(
        lambda conn: challenges.challenge(
            conn,
            clock.now(),
            request_key="k",
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            challenged=BOB,
        )
    )

    def decline(conn: Connection) -> tuple[Match[NimState], bool]:
        return challenges.answer(conn, clock.now(), made.id, guild=None, player=BOB, accept=False)

    declined, _ = await db.write(decline)  # from BOB's DMs: the game answers there
    assert declined.status == "declined"
    if returns:
        again, accepted = await db.write(decline)
        assert (again.status, again.version, accepted) == ("declined", declined.version, False)
    else:
        with pytest.raises(NotAllowed) as refused:
            await db.write(decline)
        assert refused.value.key == "matches.challenge.answered"
    with pytest.raises(NotFound) as unknown:
        await db.write(
            lambda conn: challenges.answer(
                conn, clock.now(), made.id, guild=OTHER_GUILD, player=BOB, accept=True
            )
        )
    assert (unknown.value.key, dict(unknown.value.params)) == ("numbered.no_challenge", {})
