"""The Arena's posts in the announcements channel, against a real SQLite file and a manual clock: the
ranking post from 2 players, edited each hour; the results posted once at the close with the rewards;
the commitment and the seed behind each post's « Vérifier » (the seed only once closed), in no message;
Discord's limits with 10,000 participants."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.clock import ManualClock, to_db
from discord_app.render import to_discord
from engine import fair_draw
from engine.hoss import ArenaResult, HossCatalog
from services.hoss.arena.posts import PAID_SHOWN, TOP_SHOWN, ranking_spec, standings
from services.hoss.arena.seasons import CLOSE_JOB, ArenaService
from services.hoss.decks import DeckService
from services.hoss.proofs import proof_spec
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection
from store.db import Database
from tests.e2e.payload_limits import problems
from tests.services.hoss.arena import GUILD, MONDAY, PARIS, TUESDAY_NOON, veteran, with_decks

ANNOUNCE, MOVED = 9_100, 9_200
CLOSES = datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC)
LANGS = ("fr", "en")


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


@pytest.fixture
async def arena(
    db: Database, clock: ManualClock, sched: Scheduler, catalog: HossCatalog, registry: GameRegistry
) -> ArenaService:
    clock.set(TUESDAY_NOON)
    return ArenaService(
        db,
        clock,
        random.Random(5),
        sched,
        DeckService(db, clock, catalog, registry=registry),
        registry=registry,
    )


@pytest.fixture
async def enroll(
    db: Database, clock: ManualClock, catalog: HossCatalog, arena: ArenaService, registry: GameRegistry
) -> Any:
    async def register(*players: int) -> None:
        for player in players:
            await veteran(db, clock, catalog, player, registry=registry)
            await with_decks(arena.decks, player)
            await arena.register(GUILD, player, 1, 2)

    return register


async def announce_in(db: Database, clock: ManualClock, channel: int) -> None:
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO guild_settings (guild_id, announce_channel_id, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET announce_channel_id = excluded.announce_channel_id",
            (GUILD, channel, to_db(clock.now())),
        )
    )


async def items(db: Database) -> list[tuple[int, int, int | None, MessageSpec, str, str]]:
    """Every outbox item: id, channel, edit_of, spec, raw payload, state."""
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT id, target_id, edit_of, payload, state FROM outbox WHERE target_kind = 'channel' ORDER BY id"
        ).fetchall()
    )
    return [(int(r[0]), int(r[1]), r[2], MessageSpec.from_json(r[3]), str(r[3]), str(r[4])) for r in rows]


async def board_item(db: Database) -> int | None:
    row = await db.read(lambda conn: conn.execute("SELECT board_item FROM hoss_arena_seasons").fetchone())
    return None if row[0] is None else int(row[0])


async def season_secret(db: Database) -> tuple[str, str]:
    row = await db.read(
        lambda conn: conn.execute("SELECT seed, commitment FROM hoss_arena_seasons").fetchone()
    )
    return str(row[0]), str(row[1])


async def next_hour(clock: ManualClock, sched: Scheduler) -> None:
    clock.advance(timedelta(hours=1))
    assert await sched.run_due() == 1


def shown(spec: MessageSpec, lang: str) -> str:
    """Everything a reader sees of the post, in `lang`."""
    (embed,) = spec.embeds
    parts = [render_text(embed.title, lang), render_text(embed.description, lang)]
    for field in embed.fields:
        parts += [render_text(field.name, lang), render_text(field.value, lang)]
    return "\n".join(parts)


def limit_problems(spec: MessageSpec) -> list[str]:
    """What Discord would refuse in the post, in both languages (its documented limits, and the field
    values before discord_app.render cuts them at 1,024 characters)."""
    found: list[str] = []
    for lang in LANGS:
        kwargs = to_discord(spec, lang)
        body = {"content": kwargs["content"], "embeds": [e.to_dict() for e in kwargs["embeds"]]}
        found += [f"{lang}: {p}" for p in problems("POST", "/channels/1/messages", body)]
        for embed in spec.embeds:
            found += [
                f"{lang}: field {render_text(f.name, lang)!r} is cut"
                for f in embed.fields
                if len(render_text(f.value, lang)) > 1024
            ]
    return found


async def test_one_player_is_not_shown(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1)
    await next_hour(clock, sched)
    assert await items(db) == []
    assert await board_item(db) is None


async def test_the_first_hourly_ranking_with_two_players_posts_the_ranking(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1, 2)
    await db.write(lambda conn: conn.execute("UPDATE hoss_arena_entries SET points = 4 WHERE player_id = 2"))
    assert await items(db) == []  # registering shows nothing: the ranking does, on the hour
    await next_hour(clock, sched)
    ((item, channel, edit_of, spec, _, _),) = await items(db)
    assert (channel, edit_of) == (ANNOUNCE, None)
    assert await board_item(db) == item
    assert spec.ping_users == ()
    assert "allowed_mentions" not in to_discord(spec, "fr")  # the bot's default: AllowedMentions.none()
    _, commitment = await season_secret(db)
    text = shown(spec, "fr")
    assert text.index("**1.** <@2> — 4 pts") < text.index("**2.** <@1> — 0 pts")
    assert "2 joueurs" in text
    assert f"<t:{int(clock.now().timestamp())}:f>" in text  # updated now
    assert f"<t:{int(CLOSES.timestamp())}:R>" in text  # closes Monday 00:00 Paris
    assert commitment not in text  # behind « Vérifier »
    assert [b.custom_id for b in spec.buttons] == ["hoss:proof:arena:20260105"]
    proof = await arena.proof(GUILD, MONDAY)
    assert (proof.commitment, proof.seed) == (commitment, None)
    assert "semaine du 5 janvier 2026 au 11 janvier 2026" in text  # dates written out by Babel
    english = shown(spec, "en")
    assert "attacks won" in english
    assert "Registered" in english


async def test_the_next_hour_edits_the_same_message(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1, 2)
    await next_hour(clock, sched)
    await enroll(3)
    await db.write(lambda conn: conn.execute("UPDATE hoss_arena_entries SET points = 9 WHERE player_id = 3"))
    await next_hour(clock, sched)
    posted, edit = await items(db)
    assert (posted[1], posted[2]) == (ANNOUNCE, None)
    assert (edit[1], edit[2]) == (ANNOUNCE, posted[0])
    assert await board_item(db) == posted[0]
    text = shown(edit[3], "fr")
    assert "**1.** <@3> — 9 pts" in text
    assert "3 joueurs" in text


async def test_a_board_that_cannot_be_edited_is_posted_again(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    """A refused first post, a message deleted under its edit, a moved announcements channel: a new post."""
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1, 2)
    await next_hour(clock, sched)
    first = await board_item(db)
    await db.write(lambda conn: conn.execute("UPDATE outbox SET state = 'failed' WHERE id = ?", (first,)))
    await next_hour(clock, sched)
    second = await board_item(db)
    assert second not in (None, first)
    await next_hour(clock, sched)  # an edit of the second post
    await db.write(
        lambda conn: conn.execute("UPDATE outbox SET state = 'failed' WHERE edit_of = ?", (second,))
    )
    await next_hour(clock, sched)
    third = await board_item(db)
    assert third not in (None, first, second)
    await announce_in(db, clock, MOVED)
    await next_hour(clock, sched)
    fourth = await board_item(db)
    assert fourth not in (None, first, second, third)
    shape = [(channel, edit_of) for _, channel, edit_of, _, _, _ in await items(db)]
    assert shape == [(ANNOUNCE, None), (ANNOUNCE, None), (ANNOUNCE, second), (ANNOUNCE, None), (MOVED, None)]


async def test_nothing_is_posted_without_an_announcements_channel(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await enroll(1, 2)
    await next_hour(clock, sched)
    await next_hour(clock, sched)
    clock.set(CLOSES)
    await sched.run_due()
    assert await arena.result(GUILD, MONDAY) is not None  # closed and paid
    assert await items(db) == []
    assert await board_item(db) is None


async def test_the_results_are_posted_once_with_the_rewards_and_the_seed(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(*range(1, 13))

    def points(conn: Connection) -> None:
        for player in range(1, 13):
            conn.execute("UPDATE hoss_arena_entries SET points = ? WHERE player_id = ?", (player * 2, player))

    await db.write(points)
    await next_hour(clock, sched)
    board = await board_item(db)
    clock.set(CLOSES)
    await sched.run_due()
    seed, commitment = await season_secret(db)
    assert fair_draw.commitment(seed) == commitment
    *_, closing, results = await items(db)
    assert (closing[1], closing[2]) == (ANNOUNCE, board)
    assert (results[1], results[2]) == (ANNOUNCE, None)
    closed = shown(closing[3], "fr")
    assert "Saison terminée" in closed
    assert "**1.** <@12> — 24 pts · 0 attaque gagnée\n**2.** <@11>" in closed  # no gold: see the results
    assert seed not in closing[4]
    text = shown(results[3], "fr")
    paid = [3_000, 2_000, 1_500, 1_000, 1_000, 600, 600, 600, 600, 600]
    for place, gold in enumerate(paid, start=1):
        player = 13 - place
        amount = f"{gold:,}".replace(",", "\u202f")
        assert f"**{place}.** <@{player}> — {player * 2} pts · 0 attaque gagnée — **{amount} or**" in text
    assert "<@2>" not in text  # 11th and 12th are counted, not named
    assert "Les 2 autres participants ont reçu 150 or de participation." in text
    assert "le plus d'attaques gagnées" in text
    assert seed not in results[4]  # behind « Vérifier », once closed
    assert [b.custom_id for b in results[3].buttons] == ["hoss:proof:arena:20260105"]
    proof = await arena.proof(GUILD, MONDAY)
    assert (proof.commitment, proof.seed) == (commitment, seed)
    revealed = render_text(proof_spec(proof).content, "fr")
    assert f"`{seed}`" in revealed
    assert f"`{commitment}`" in revealed
    assert "/hoss arène vérifier semaine:2026-01-05" in revealed
    assert "The 2 other participants received 150 gold" in shown(results[3], "en")
    count = len(await items(db))
    close_job = Job(0, CLOSE_JOB, CLOSES, {"guild": GUILD, "season": MONDAY.isoformat()}, None, 0)
    with pytest.raises(RuntimeError, match="closed twice"):
        await db.write(lambda conn: arena.on_close(conn, close_job, clock.now()))
    assert await sched.run_due() == 0
    assert len(await items(db)) == count


async def test_the_seed_is_in_no_message_before_the_close(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1, 2, 3)
    for _ in range(3):
        await next_hour(clock, sched)
        attack = await arena.draw_opponent(GUILD, 1)
        await arena.settle(attack.id, ArenaResult.WIN, f"battle:{attack.id}")
    seed, commitment = await season_secret(db)
    before = await items(db)
    assert len(before) == 3
    everything = await db.read(lambda conn: [str(r[0]) for r in conn.execute("SELECT payload FROM outbox")])
    assert all(seed not in payload for payload in everything)
    assert all(commitment not in payload for _, _, _, _, payload, _ in before)  # behind « Vérifier »
    assert (await arena.proof(GUILD, MONDAY)).seed is None  # « Vérifier » shows the commitment alone
    clock.set(CLOSES)
    await sched.run_due()
    after = (await items(db))[len(before) :]
    # the catch-up ranking's edit, the closing edit, then the results: none carries the seed itself
    assert [seed in payload for _, _, _, _, payload, _ in after] == [False, False, False]
    assert (await arena.proof(GUILD, MONDAY)).seed == seed  # « Vérifier » reveals it once closed


async def test_ten_thousand_participants_stay_within_discords_limits(
    db: Database, clock: ManualClock, sched: Scheduler, arena: ArenaService, enroll: Any
) -> None:
    await announce_in(db, clock, ANNOUNCE)
    await enroll(1, 2)
    big = 10**18  # Discord ids of 19 digits

    def crowd(conn: Connection) -> None:
        now = to_db(clock.now())
        players = [(big + n, now) for n in range(9_998)]
        conn.executemany("INSERT INTO players (id, created_at) VALUES (?, ?)", players)
        conn.executemany(
            "INSERT INTO hoss_arena_entries (guild_id, season, player_id, points, attack_wins, reached_at,"
            " registered_at, saved_at, deck_a, deck_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', '{}')",
            [
                (GUILD, MONDAY.isoformat(), big + n, 9_999_999 - n, 99_999, now, now, now)
                for n in range(9_998)
            ],
        )
        # A bulk load, so the planner's statistics as PostgreSQL's "Populating a Database" asks (and as
        # autovacuum gathers them over a week of registrations): without them it reads the 10,000 rows by
        # (guild, season) for each player's UPDATE, 30,000 times. Also valid on SQLite.
        conn.execute("ANALYZE hoss_arena_entries")

    await db.write(crowd)
    await next_hour(clock, sched)
    clock.set(CLOSES)
    await sched.run_due()
    ranking, *_, closing, results = [spec for _, _, _, spec, _, _ in await items(db)]
    for spec in (ranking, closing, results):
        assert limit_problems(spec) == []
    assert "… et 9\u202f980 autres joueurs" in shown(ranking, "fr")
    assert shown(ranking, "fr").count("<@") == TOP_SHOWN
    assert shown(results, "fr").count("<@") == PAID_SHOWN
    assert "The 9,990 other participants received 150 gold" in shown(results, "en")
    result = await arena.result(GUILD, MONDAY)
    assert result is not None
    assert len(result.paid) == 10_000
    sizes = [len(shown(spec, lang)) for spec in (ranking, closing, results) for lang in LANGS]
    assert max(sizes) < 2_500  # 2,161 at most (the French ranking): far below 4,096 and 6,000
    # The check can fail: the same post with 200 lines instead of TOP_SHOWN breaks the description's limit.
    board = await db.read(lambda conn: standings(conn, GUILD, MONDAY, 200))
    assert any("embed description" in p for p in limit_problems(ranking_spec(board, clock.now(), CLOSES)))
