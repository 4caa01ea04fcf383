"""The shared match block: version-guarded saves, stale moves, the server a match belongs to, seats, the
move log, events handed to the outbox, deadline jobs, and dozens of simultaneous moves on one match."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, to_db
from core.errors import NotAllowed, NotFound
from engine.errors import DomainError, IllegalAction
from engine.protocol import Event
from services.infra.messages import MessageSpec, Target, Text
from services.shared.matches import Match, Matches, MatchRules, StaleMatch
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
from tests.services.shared.nim import Nim, NimState, Take

pytestmark = pytest.mark.usefixtures("players")


def narrate(match: Match[NimState], events: list[Event]) -> list[tuple[Target, MessageSpec]]:
    return [
        (Target("channel", match.channel, guild_id=None), MessageSpec(content=Text("x", dict(e.data))))
        for e in events
    ]


async def test_a_move_is_applied_logged_saved_and_narrated_in_one_unit(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    assert (match.status, match.version, match.to_act()) == ("live", 1, [0])

    def unit(conn: Connection) -> Match[NimState]:
        played, events = matches.play(
            conn, clock.now(), match, 0, Take(3), "player", version=1, narrate=narrate
        )
        assert [e.kind for e in events] == ["took"]
        return played

    played = await db.write(unit)
    assert played.version == 2
    assert played.state is not None
    assert played.state.pile == 18
    assert played.to_act() == [1]

    def check(conn: Connection) -> None:
        again = matches.load(conn, match.id, guild=GUILD)
        assert again == played
        assert [(m.seq, m.seat, m.action, m.author) for m in matches.moves(conn, match.id)] == [
            (1, 0, {"take": 3}, "player")
        ]
        assert count(conn, "SELECT COUNT(*) FROM outbox WHERE target_id = ?", CHANNEL) == 1

    await db.read(check)


async def test_a_save_from_an_older_version_is_refused_and_changes_nothing(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    await db.write(lambda conn: matches.play(conn, clock.now(), match, 0, Take(1), "player"))

    with pytest.raises(StaleMatch) as caught:
        await db.write(lambda conn: matches.save(conn, match, clock.now(), data={"late": True}))
    assert caught.value.key == "matches.error.stale"
    after = await db.read(lambda conn: matches.load(conn, match.id, guild=GUILD))
    assert after.version == 2
    assert after.data == {}


async def test_a_stale_move_is_refused_and_writes_no_move(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    await db.write(lambda conn: matches.play(conn, clock.now(), match, 0, Take(1), "player", version=1))

    def replay(conn: Connection) -> object:
        fresh = matches.load(conn, match.id, guild=GUILD)
        return matches.play(conn, clock.now(), fresh, 1, Take(1), "player", version=1)  # shown at version 1

    with pytest.raises(StaleMatch):
        await db.write(replay)
    with pytest.raises(StaleMatch):  # a match read before the other move, written without reloading
        await db.write(lambda conn: matches.play(conn, clock.now(), match, 0, Take(1), "player"))
    assert await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM match_moves")) == 1


async def test_another_servers_or_games_match_reads_like_an_unknown_one(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    with pytest.raises(NotFound) as elsewhere:
        await db.read(lambda conn: matches.load(conn, match.id, guild=OTHER_GUILD))
    with pytest.raises(NotFound) as unknown:
        await db.read(lambda conn: matches.load(conn, match.id + 100, guild=GUILD))
    assert (elsewhere.value.key, unknown.value.key) == ("matches.error.not_found",) * 2
    other_game: NimMatches = Matches(MatchRules("other", Nim()), Match)
    with pytest.raises(NotFound):  # nor does another game's, with the same server
        await db.read(lambda conn: other_game.load(conn, match.id, guild=GUILD))


async def test_a_seat_is_held_by_its_player_only_and_acts_only_in_turn(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    match = await live(db, clock, matches)
    assert (match.seat_of(ALICE), match.seat_of(BOB)) == (0, 1)
    with pytest.raises(NotAllowed) as third:
        match.seat_of(CAROL)
    assert third.value.key == "matches.error.not_player"
    with pytest.raises(NotAllowed) as early:
        await db.write(lambda conn: matches.play(conn, clock.now(), match, 1, Take(1), "player"))
    assert early.value.key == "matches.error.not_your_turn"
    with pytest.raises(IllegalAction):  # the engine's refusal reaches the game untouched
        await db.write(lambda conn: matches.play(conn, clock.now(), match, 0, Take(4), "player"))
    after = await db.read(lambda conn: matches.load(conn, match.id, guild=GUILD))
    assert after == match
    assert await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM match_moves")) == 0


async def test_the_ai_seat_belongs_to_nobody_and_live_matches_are_listed_per_player(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    first = await live(db, clock, matches)

    def practice(conn: Connection) -> Match[NimState]:
        return matches.create(
            conn, clock.now(), guild_id=GUILD, channel_id=CHANNEL, seats=(BOB, None), request_key="k1"
        )

    pending = await db.write(practice)
    assert pending.is_ai(1)
    assert not pending.is_ai(0)
    assert pending.to_act() == []
    with pytest.raises(NotAllowed):
        pending.seat_of(0)  # no player id reaches the AI's seat
    assert await db.read(lambda conn: matches.by_request(conn, "k1")) == pending
    assert [m.id for m in await db.read(lambda conn: matches.live_of(conn, BOB))] == [first.id]
    assert await db.read(lambda conn: matches.live_of(conn, CAROL)) == []


async def test_a_deadline_job_is_moved_when_armed_again_replaced_by_another_and_withdrawn_at_the_end(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    """Armed again, the same pending job (kind and payload) gets the new due time in one update and keeps
    its id; another kind or payload withdraws it for a new job, as every arming did before (issue 39)."""
    match = await live(db, clock, matches, pile=2)
    due = clock.now() + timedelta(minutes=2)
    armed = await db.write(lambda conn: matches.arm(conn, clock.now(), match, "nim:timeout", due, {"m": 1}))
    later = due + timedelta(minutes=1)
    moved = await db.write(lambda conn: matches.arm(conn, clock.now(), armed, "nim:timeout", later, {"m": 1}))
    assert moved.version == armed.version + 1 == match.version + 2
    assert (moved.deadline_at, moved.deadline_job) == (later, armed.deadline_job)
    again = await db.write(lambda conn: matches.arm(conn, clock.now(), moved, "nim:timeout", due, {"m": 2}))
    assert again.deadline_job not in (None, armed.deadline_job)
    jobs = await db.read(lambda conn: conn.execute("SELECT state, due_at FROM jobs ORDER BY id").fetchall())
    assert [tuple(row) for row in jobs] == [("cancelled", to_db(later)), ("due", to_db(due))]

    def finish(conn: Connection) -> Match[NimState]:
        played, _ = matches.play(conn, clock.now(), again, 0, Take(2), "player")
        return matches.end(conn, clock.now(), played, "over", result={"winner": 0})

    over = await db.write(finish)
    assert (over.status, over.deadline_job, over.result, over.to_act()) == ("over", None, {"winner": 0}, [])
    states = await db.read(lambda conn: conn.execute("SELECT state FROM jobs ORDER BY id").fetchall())
    assert [s for (s,) in states] == ["cancelled", "cancelled"]
    ended = await db.read(lambda conn: conn.execute("SELECT ended_at FROM matches").fetchone()[0])
    assert ended is not None


async def test_a_save_writes_only_what_it_changes_and_the_row_is_the_match_it_returns(
    db: Database, clock: ManualClock, matches: NimMatches, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: a duel's timeout armed after its move wrote the whole row again, its state's JSON
    included; the version guard makes the other columns the ones the match holds."""
    match = await live(db, clock, matches, pile=3)
    written: list[object] = []
    to_json = Nim.to_json

    def counted(engine: Nim, state: NimState) -> str:
        written.append(state)
        return to_json(engine, state)

    monkeypatch.setattr(Nim, "to_json", counted)
    due = clock.now() + timedelta(minutes=2)
    armed = await db.write(lambda conn: matches.arm(conn, clock.now(), match, "nim:timeout", due, {"m": 1}))
    moved = await db.write(
        lambda conn: matches.arm(
            conn, clock.now(), armed, "nim:timeout", due + timedelta(minutes=1), {"m": 1}
        )
    )
    noted = await db.write(lambda conn: matches.save(conn, moved, clock.now(), data={"notes": [1]}))
    assert written == []  # three saves, the state's JSON written by none
    played = await db.write(lambda conn: matches.play(conn, clock.now(), noted, 0, Take(1), "player")[0])
    assert len(written) == 1  # a move writes its state
    assert played.version == match.version + 4
    assert await db.read(lambda conn: matches.load_trusted(conn, match.id)) == played


async def test_a_created_match_is_the_row_as_stored_without_reading_it_back(
    db: Database, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: `create` read its new row back, parsing again the state its caller had just made."""
    numbered: NimMatches = Matches(MatchRules("nim", Nim(), numbered=True), Match)
    parsed: list[str] = []
    parse = Nim.from_json

    def counted(engine: Nim, raw: str) -> NimState:
        parsed.append(raw)
        return parse(engine, raw)

    monkeypatch.setattr(Nim, "from_json", counted)
    expires = (clock.now() + timedelta(minutes=2)).astimezone(ZoneInfo("Europe/Paris"))

    def unit(conn: Connection) -> list[Match[NimState]]:
        made = [
            numbered.create(
                conn,
                clock.now(),
                guild_id=GUILD,
                channel_id=CHANNEL,
                seats=(ALICE, None),
                kind="practice",
                status="live",
                request_key="k1",
                expires_at=expires,
                deadline_job="nim:timeout",
                seed=7,
                setup={"piles": (3, 4)},
                state=Nim().new_game([], 0, {"pile": 9}),
                data={"notes": ("a",)},
            ),
            numbered.create(conn, clock.now(), guild_id=None, channel_id=None, seats=(BOB, CAROL)),
        ]
        assert parsed == []
        return made

    made = await db.write(unit)
    stored = await db.read(lambda conn: [numbered.load_trusted(conn, match.id) for match in made])
    assert made == stored
    assert made[0].deadline_job is not None
    assert (made[0].number, made[1].number) == (1, None)


async def test_dozens_of_simultaneous_moves_one_wins_per_version(
    db: Database, clock: ManualClock, matches: NimMatches
) -> None:
    """Forty clicks at once on each version, half reloading the match in their unit, half writing the
    match they read before: the writer batches them into one transaction, and exactly one wins."""
    match = await live(db, clock, matches, pile=40)
    contenders = 40
    for turn in range(6):
        seen = await db.read(lambda conn: matches.load(conn, match.id, guild=GUILD))
        seat = seen.to_act()[0]

        def reloading(conn: Connection, version: int = seen.version, seat: int = seat) -> object:
            fresh = matches.load(conn, match.id, guild=GUILD)
            return matches.play(conn, clock.now(), fresh, seat, Take(1), "player", version=version)

        def blind(conn: Connection, seen: Match[NimState] = seen, seat: int = seat) -> object:
            return matches.play(conn, clock.now(), seen, seat, Take(1), "player")

        results = await asyncio.gather(
            *(db.write(reloading if i % 2 else blind) for i in range(contenders)), return_exceptions=True
        )
        unexpected = [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]
        assert unexpected == []
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, StaleMatch) for r in results if isinstance(r, BaseException))
        after = await db.read(lambda conn: matches.load(conn, match.id, guild=GUILD))
        assert after.version == seen.version + 1
        assert after.state is not None
        assert after.state.pile == 40 - (turn + 1)
    assert await db.read(lambda conn: count(conn, "SELECT COUNT(*) FROM match_moves")) == 6
