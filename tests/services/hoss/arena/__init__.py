"""Helpers for the Arena's service tests: veterans (Rang 5 unlocked) owning two complete decks, their
registration, a season ranked once, and the service objects a test drives."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.clock import ManualClock
from engine.hoss import HossCatalog
from sandbox.fixtures.hoss import ATTACK_BUFFS, ATTACK_LINES, DEFENCE_BUFFS, DEFENCE_LINES, complete_line
from services.hoss.arena.seasons import ArenaService
from services.hoss.battle.ranked import RankedService
from services.hoss.decks import DeckService
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database

PARIS = ZoneInfo("Europe/Paris")
GUILD, OTHER = 700, 800
MONDAY = date(2026, 1, 5)
TUESDAY_NOON = datetime(2026, 1, 6, 11, 0, tzinfo=UTC)
GRANT = ledger.Movement("test.grant")
# The sandbox's Arena veteran plays the same two decks (sandbox/fixtures/hoss.py).
DECK_A, DECK_B = list(ATTACK_LINES), list(DEFENCE_LINES)
BUFFS_A, BUFFS_B = list(ATTACK_BUFFS), list(DEFENCE_BUFFS)


@dataclass
class World:
    """The Arena with what its tests set up: veterans, their two decks, registrations."""

    db: Database
    clock: ManualClock
    catalog: HossCatalog
    decks: DeckService
    arena: ArenaService
    sched: Scheduler
    ranked: RankedService  # drives the attack battles (answers, deadlines, skips)

    async def enroll(self, registry: GameRegistry, *players: int) -> None:
        """Veterans with both decks saved in slots 1 and 2, registered in GUILD."""
        for player in players:
            await veteran(self.db, self.clock, self.catalog, player, registry=registry)
            await with_decks(self.decks, player)
            await self.arena.register(GUILD, player, 1, 2)


path = complete_line  # a Rang 1, one of its Rang 2 and that one's Maître


async def veteran(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    player: int,
    registry: GameRegistry,
    *,
    rank5: bool = True,
    ranks: int = 3,
) -> None:
    """A player who unlocked Rang 5 (10 wins at ranks 1-4) and owns both Arena decks' cards."""
    now = clock.now()

    def unit(conn: Connection) -> None:
        ensure_player(conn, player, now, registry)
        for rank in range(1, 5 if rank5 else 4):
            conn.execute(
                "INSERT INTO hoss_rank_progress (player_id, rank, wins, losses) VALUES (?, ?, 10, 0)",
                (player, rank),
            )
        attrs = {"rarity": "basique", "stars": 0, "holo": False}
        for line in DECK_A + DECK_B:
            for card in path(catalog, line)[:ranks]:
                ledger.mint_card(conn, now, player, "hoss", card, GRANT, attrs)
        for buff in BUFFS_A + BUFFS_B:
            ledger.mint_card(conn, now, player, "hoss", buff, GRANT, attrs)

    await db.write(unit)


async def balance(db: Database, player: int) -> int:
    return await db.read(lambda conn: ledger.balance(conn, player, GOLD))


async def with_decks(decks: DeckService, player: int) -> None:
    await decks.save(player, 1, "A", DECK_A, BUFFS_A)
    await decks.save(player, 2, "B", DECK_B, BUFFS_B)


async def locks(db: Database, player: int) -> dict[str, int]:
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT locked_by, COUNT(*) FROM cards WHERE owner_id = ? AND locked_by IS NOT NULL GROUP BY 1",
            (player,),
        ).fetchall()
    )
    return {str(r[0]): int(r[1]) for r in rows}


async def ranked_season(world: World, players: int, registry: GameRegistry) -> None:
    """`players` registered, points 0..n-1 (player 1 last), one hourly ranking done."""
    for player in range(1, players + 1):
        await veteran(world.db, world.clock, world.catalog, player, registry=registry)
        await with_decks(world.decks, player)
        await world.arena.register(GUILD, player, 1, 2)

    def points(conn: Connection) -> None:
        for player in range(1, players + 1):
            conn.execute("UPDATE hoss_arena_entries SET points = ? WHERE player_id = ?", (player - 1, player))

    await world.db.write(points)
    world.clock.advance(timedelta(hours=1))
    await world.sched.run_due()
