"""Admin tools: every change through the ledger and into the audit log, once per request; each game's reset
leaves the ledger consistent; bans and pauses are per server."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.clock import ManualClock, to_db
from core.errors import CardUnavailable, InsufficientFunds, NotAllowed
from services.community.admin import Actor, AdminService
from services.infra import ledger
from services.infra.access import Access
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

OWNER, ALICE, BOB, GUILD, OTHER_GUILD = 900, 11, 12, 5, 6


@pytest.fixture
def admin(db: Database, clock: ManualClock, registry: GameRegistry) -> AdminService:
    specs = every_game().all_games()
    return AdminService(db, clock, registry, CardIndex(load_all(DATA_DIR, specs)))


def actor(request: int, guild: int | None = GUILD, user: int = OWNER) -> Actor:
    return Actor(user, guild, request)


async def audit_rows(db: Database) -> list[tuple[object, ...]]:
    sql = "SELECT guild_id, actor_id, action, target_id, game FROM admin_audit ORDER BY id"
    return await db.read(lambda conn: [tuple(r) for r in conn.execute(sql).fetchall()])


async def test_grant_and_take_write_the_ledger_and_the_log_once_per_request(
    db: Database, admin: AdminService, conservation: Callable[[Connection], None]
) -> None:
    assert await admin.grant(actor(1), ALICE, "hoss_gold", 50, "  lost  gold ") == 350
    assert await admin.grant(actor(1), ALICE, "hoss_gold", 50, "lost gold") == 350  # the same request
    assert await admin.take(actor(2), ALICE, "hoss_gold", 30, "refund") == 320
    with pytest.raises(InsufficientFunds):
        await admin.take(actor(3), ALICE, "hoss_gold", 1000, "too much")
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT delta, reason, ref FROM ledger WHERE player_id = ? AND reason LIKE 'admin%' ORDER BY id",
            (ALICE,),
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [(50, "admin_grant", "lost gold"), (-30, "admin_take", "refund")]
    assert await audit_rows(db) == [(GUILD, OWNER, "grant", ALICE, None), (GUILD, OWNER, "take", ALICE, None)]
    await db.read(conservation)


async def test_bad_currency_amount_or_reason_change_nothing(db: Database, admin: AdminService) -> None:
    with pytest.raises(Exception, match="currency"):
        await admin.grant(actor(1), ALICE, "doubloons", 5, "x")
    with pytest.raises(Exception, match="amount"):
        await admin.grant(actor(2), ALICE, "hoss_gold", 0, "x")
    with pytest.raises(Exception, match="reason"):
        await admin.grant(actor(3), ALICE, "hoss_gold", 5, "   ")
    assert await audit_rows(db) == []


async def test_a_card_given_then_removed_through_the_ledger(
    db: Database, admin: AdminService, conservation: Callable[[Connection], None]
) -> None:
    copy = await admin.give_card(actor(1), ALICE, "hoss", "orc_guerrier_1", "contest prize")
    with pytest.raises(CardUnavailable):
        await admin.remove_card(actor(2), BOB, copy, "wrong owner")
    assert await admin.remove_card(actor(3), ALICE, copy, "mistake") == "hoss:orc_guerrier_1"
    owner = await db.read(
        lambda conn: conn.execute("SELECT owner_id FROM cards WHERE id = ?", (copy,)).fetchone()
    )
    assert tuple(owner) == (None,)
    actions = [row[2] for row in await audit_rows(db)]
    assert actions == ["give_card", "remove_card"]
    await db.read(conservation)


# Per game: its progress rows to seed, its currency and starting amount.
PROGRESS = {
    "hoss": (
        "INSERT INTO hoss_decks (player_id, slot, name, lines, buffs, updated_at) VALUES (?, 1, 'A', '[]', '[]', ?)",
        "hoss_decks",
        "hoss_gold",
        300,
        "orc_guerrier_1",
    ),
    "pillz": (
        "INSERT INTO pillz_profiles (player_id, starter_given, rating, created_at) VALUES (?, 1, 1200, ?)",
        "pillz_profiles",
        "pillz_gold",
        300,
        None,
    ),
    "choco": (
        "INSERT INTO choco_decks (player_id, league, cards, updated_at) VALUES (?, 'bronze', '[]', ?)",
        "choco_decks",
        "choco_gold",
        None,
        None,
    ),
}


@pytest.mark.parametrize("game", sorted(PROGRESS))
async def test_each_games_reset_goes_through_the_ledger(
    db: Database,
    clock: ManualClock,
    admin: AdminService,
    game: str,
    conservation: Callable[[Connection], None],
    registry: GameRegistry,
) -> None:
    insert, table, currency, _, card = PROGRESS[game]
    spec = every_game().get(game)
    assert spec is not None
    assert spec.reset is not None
    starting = next(c.starting for c in spec.currencies if c.code == currency)
    card_key = card or next(key for g, key in admin.cards._cards if g == game)
    now = clock.now()

    def seed(conn: Connection) -> None:
        for player in (ALICE, BOB):
            ensure_player(conn, player, now, registry)
            conn.execute(insert, (player, to_db(now)))
            ledger.credit(conn, now, player, currency, 77, ledger.Movement("test"))
            for _ in range(3):
                ledger.mint_card(conn, now, player, game, card_key, ledger.Movement("test"))

    await db.write(seed)
    before = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])
    report = await admin.reset(actor(1), ALICE, game, "fresh start")
    assert report.cards == 3

    def state(conn: Connection, player: int) -> tuple[int, int, int]:
        cards = conn.execute(
            "SELECT COUNT(*) FROM cards WHERE owner_id = ? AND game = ?", (player, game)
        ).fetchone()[0]
        rows = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE player_id = ?", (player,)).fetchone()[0]
        return cards, ledger.balance(conn, player, currency), rows

    assert await db.read(lambda conn: state(conn, ALICE)) == (0, starting, 0)
    assert await db.read(lambda conn: state(conn, BOB)) == (3, starting + 77, 1)
    after = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])
    assert after > before  # nothing deleted: movements added
    await db.read(conservation)


async def test_a_reset_is_refused_while_the_player_is_in_a_live_match(
    db: Database, clock: ManualClock, admin: AdminService, registry: GameRegistry
) -> None:
    now = to_db(clock.now())

    def seed(conn: Connection) -> None:
        ensure_player(conn, ALICE, clock.now(), registry)
        match = conn.execute(
            "INSERT INTO matches (game, kind, guild_id, channel_id, status, request_key, version, created_at,"
            " updated_at) VALUES ('pillz', 'friend', 5, 7, 'live', 'k', 0, ?, ?) RETURNING id",
            (now, now),
        ).fetchone()[0]
        conn.execute("INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, 0, ?)", (match, ALICE))

    await db.write(seed)
    with pytest.raises(NotAllowed, match=r"admin\.reset\.busy"):
        await admin.reset(actor(1), ALICE, "pillz", "x")
    assert await audit_rows(db) == []


async def test_bans_and_pauses_hold_in_their_server_only(db: Database, admin: AdminService) -> None:
    manager = actor(1, user=77)
    await admin.ban(manager, ALICE, "cheating")
    with pytest.raises(Exception, match="already_banned"):
        await admin.ban(actor(2, user=77), ALICE, "again")
    with pytest.raises(NotAllowed, match=r"admin\.banned"):
        await admin.check_access(GUILD, "pillz", ALICE)
    await admin.check_access(OTHER_GUILD, "pillz", ALICE)
    await admin.check_access(GUILD, "pillz", BOB)
    await admin.pause(actor(3, user=77), "hoss", paused=True)
    with pytest.raises(NotAllowed, match=r"admin\.paused"):
        await admin.check_access(GUILD, "hoss", BOB)
    await admin.check_access(OTHER_GUILD, "hoss", BOB)
    await admin.pause(actor(4, user=77), "hoss", paused=False)
    await admin.check_access(GUILD, "hoss", BOB)
    await admin.unban(actor(5, user=77), ALICE)
    await admin.check_access(GUILD, "pillz", ALICE)
    with pytest.raises(NotAllowed, match="guild_only"):
        await admin.pause(actor(6, guild=None), "hoss", paused=True)
    actions = [row[2] for row in await audit_rows(db)]
    assert actions == ["ban", "pause", "resume", "unban"]


async def test_a_servers_access_is_read_once_and_forgotten_by_its_changes(
    db: Database, admin: AdminService
) -> None:
    await admin.check_access(GUILD, "pillz", ALICE)
    reads = db.reads
    for player in (ALICE, BOB, ALICE):
        await admin.check_access(GUILD, "pillz", player)
    assert db.reads == reads  # kept: every command of a game asks
    await admin.ban(actor(1, user=77), ALICE, "cheating")
    with pytest.raises(NotAllowed, match=r"admin\.banned"):
        await admin.check_access(GUILD, "pillz", ALICE)
    assert db.reads == reads + 1
    await admin.pause(actor(2, user=77), "pillz", paused=True)
    with pytest.raises(NotAllowed, match=r"admin\.paused"):
        await admin.check_access(GUILD, "pillz", BOB)
    await admin.check_access(OTHER_GUILD, "pillz", ALICE)  # another server: its own entry


async def test_a_read_that_raced_with_a_change_is_not_kept(admin: AdminService) -> None:
    cache = admin.access
    before = cache.generation
    cache.forget(GUILD)  # a ban committed while the read below was on its way
    cache.put(GUILD, Access(frozenset(), frozenset()), before)
    assert cache.get(GUILD) is None
    cache.put(GUILD, Access(frozenset(), frozenset({ALICE})), cache.generation)
    assert cache.get(GUILD) == Access(frozenset(), frozenset({ALICE}))


async def test_the_audit_log_pages_per_server_newest_first(db: Database, admin: AdminService) -> None:
    for request in range(1, 13):
        await admin.grant(actor(request), ALICE, "hoss_gold", request, "r")
    await admin.grant(actor(99, guild=OTHER_GUILD), ALICE, "hoss_gold", 1, "elsewhere")
    first = await admin.audit_page(GUILD, 1)
    assert (first.page, first.pages, len(first.lines)) == (1, 2, 10)
    assert first.lines[0].details["amount"] == 12
    last = await admin.audit_page(GUILD, 50)  # clamped to the last page
    assert (last.page, [line.details["amount"] for line in last.lines]) == (2, [2, 1])
    assert len((await admin.audit_page(OTHER_GUILD, 1)).lines) == 1


async def test_reading_a_ledger_pages_it_and_is_logged(db: Database, admin: AdminService) -> None:
    for request in range(1, 12):
        await admin.grant(actor(request), ALICE, "hoss_gold", 1, "r")
    page = await admin.ledger_page(actor(50), ALICE, 2)
    assert page.pages >= 2
    assert page.page == 2
    assert all(line.delta != 0 for line in page.lines)
    assert (await audit_rows(db))[-1] == (GUILD, OWNER, "ledger_view", ALICE, None)
