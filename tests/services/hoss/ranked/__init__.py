"""Helpers for the ranked-battle service tests: the real catalog, a player with a saved active deck (copies
minted through the ledger), a seeded service, and a loop that plays a battle through the service."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from core.clock import ManualClock
from engine.hoss.actions import HossAction
from engine.hoss.catalog import CreatureCard, HossCatalog
from services.hoss.battle import battle_log
from services.hoss.battle import battles as hoss_battles
from services.hoss.battle import replay as battle_replay
from services.hoss.battle.ranked import BattleView, RankedService
from services.hoss.decks import DeckService
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import gold as gold  # shared with the ranked tests
from tests.services.hoss.conftest import set_wins as set_wins

GRANT = ledger.Movement("test.grant")
LINES = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
BUFFS = ["buff_soins", "buff_vitesse"]
SEED = 20260105


@cache
def catalog() -> HossCatalog:
    return load_catalog(DATA_DIR / "hoss.json", HossCatalog)


def service(
    db: Database,
    clock: ManualClock,
    registry: GameRegistry,
    scheduler: Scheduler | None = None,
    seed: int = SEED,
) -> RankedService:
    return RankedService(db, clock, catalog(), random.Random(seed), scheduler, registry=registry)


async def player_with_deck(
    db: Database,
    clock: ManualClock,
    player_id: int,
    registry: GameRegistry,
    *,
    rarity: str = "basique",
    stars: int = 0,
    lines: list[str] | None = None,
) -> None:
    """A player owning the Rang 1 (and, from Or up, the whole line) of six lines and two buffs, saved as
    their active deck."""
    now = clock.now()
    chosen = lines or LINES
    whole = rarity not in ("basique", "argent")
    keys = [
        c.id
        for c in catalog().cards
        if isinstance(c, CreatureCard) and c.line in chosen and (whole or c.rank == 1)
    ]

    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, now, registry)
        attrs = {"rarity": rarity, "stars": stars, "holo": False}
        for card in [*keys, *BUFFS]:
            ledger.mint_card(conn, now, player_id, "hoss", card, GRANT, attrs)

    await db.write(unit)
    decks = DeckService(db, clock, catalog(), registry=registry)
    await decks.save(player_id, 1, "deck", chosen, BUFFS)
    await decks.set_active(player_id, 1)


async def replayed(db: Database, battle_id: int) -> str:
    """The replay of any battle, live ones included: the determinism check behind `RankedService.replay`,
    which players reach only once the battle is over."""

    def unit(conn: Connection) -> str:
        row = hoss_battles.load(conn, battle_id)
        assert row is not None
        return battle_replay.replay_log(conn, row)

    return await db.read(unit)


def _numbers(conn: Connection) -> list[int]:
    found = conn.execute("SELECT number FROM matches WHERE game = 'hoss' ORDER BY number").fetchall()
    return [int(n) for (n,) in found]


async def battle_rows(db: Database) -> list[hoss_battles.BattleRow]:
    """Every battle as the service reads it, by number."""

    def unit(conn: Connection) -> list[hoss_battles.BattleRow]:
        loaded = [hoss_battles.load(conn, number) for number in _numbers(conn)]
        return [row for row in loaded if row is not None]

    return await db.read(unit)


async def decision_rows(db: Database, battle: int | None = None) -> list[hoss_battles.Decision]:
    """The stored decisions of one battle, or of every battle (in battle order)."""

    def unit(conn: Connection) -> list[hoss_battles.Decision]:
        numbers = _numbers(conn) if battle is None else [battle]
        return [d for number in numbers for d in battle_log.decisions(conn, number)]

    return await db.read(unit)


async def rows(db: Database, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return await db.read(lambda conn: [tuple(r) for r in conn.execute(sql, params)])


def choose(view: BattleView, turn: int) -> HossAction:
    """A varied but deterministic player: cycles through the legal actions (passing now and then)."""
    return view.legal[turn % len(view.legal)]


async def play_through(
    ranked: RankedService, player_id: int, battle_id: int, *, limit: int = 500
) -> BattleView:
    """Answer every pause through the service until the battle ends; returns the last view."""
    view = await ranked.view(player_id, battle_id)
    for turn in range(limit):
        if view.status != "live":
            return view
        await ranked.answer(
            player_id, battle_id, choose(view, turn), key=f"k{battle_id}:{turn}", pause=view.pause
        )
        view = await ranked.view(player_id, battle_id)
    raise AssertionError("the battle did not end")
