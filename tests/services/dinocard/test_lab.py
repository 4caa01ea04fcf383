"""The Dinocard lab through its service (services/dinocard/lab.py): a pack against every dojo master or
another of the player's packs, never someone else's; seeds replayed as dojo fights; nothing paid."""

from __future__ import annotations

from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import BadInput, NotFound
from engine.dinocard import DinocardCatalog
from services.community.lab.pool import LabPool
from services.community.lab.service import LabService
from services.community.lab.spec import LabRequest
from services.dinocard import DinocardServices
from services.dinocard.lab import LAB
from services.infra.games import GameContext, GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack
from tests.support.lab import FixedSeed, InlineExecutor

GUILD, CHANNEL = 900, 901


def lab_service(
    dino: DinocardServices, db: Database, clock: ManualClock, battles: int, registry: GameRegistry
) -> LabService:
    pool = LabPool(size=2, executor=InlineExecutor())
    return LabService(db, clock, registry, {"dinocard": (dino, LAB)}, pool, battles=battles)


async def books(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("ledger", "wallets", "cards", "matches", "dinocard_packs", "dinocard_profiles", "outbox")

    def unit(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}

    return await db.read(unit)


async def test_a_pack_against_every_master_pays_nothing_and_replays_as_dojo_fights(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog, registry: GameRegistry
) -> None:
    pack = await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    before = await books(db)
    report = await lab_service(dino, db, clock, 24, registry=registry).run(
        "dinocard", LabRequest(ALICE, "Feu")
    )
    assert [r.opponent.spec.deck for r in report.rows] == [m.pack for m in catalog.masters]
    assert report.battles == 24
    assert await books(db) == before
    first = catalog.masters[0]
    for seed, outcome in list(zip(report.seeds[0], report.outcomes[0], strict=True))[:3]:
        replay = DinocardServices.build(GameContext(db, clock, catalog, None, FixedSeed(seed), registry))
        match = await replay.battles.dojo(
            ALICE, str(pack.pack.id), first.id, guild=GUILD, channel=CHANNEL, key=f"r{seed}"
        )
        assert match.state is not None
        assert (match.state.winner == 0, match.state.winner == 1) == (outcome.won, outcome.lost)


async def test_against_another_own_pack_or_one_master_never_someone_elses(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog, registry: GameRegistry
) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    water = await dino.packs.create(ALICE, "Eau", element_pack(catalog, "eau"))
    bobs = await dino.packs.create(BOB, "Bois", element_pack(catalog, "bois"))
    lab = lab_service(dino, db, clock, 6, registry=registry)
    own = await lab.run("dinocard", LabRequest(ALICE, "Feu", f"#{water.pack.id}"))
    assert [r.opponent.spec.deck for r in own.rows] == [tuple(element_pack(catalog, "eau"))]
    before = await books(db)
    lab2 = lab_service(dino, db, clock, 6, registry=registry)
    with pytest.raises(NotFound) as foreign:
        await lab2.run("dinocard", LabRequest(BOB, "Bois", f"#{water.pack.id}"))  # Alice's pack, not Bob's
    assert foreign.value.key == "dinocard.error.pack.not_found"
    with pytest.raises(NotFound):
        await lab2.run("dinocard", LabRequest(ALICE, str(bobs.pack.id)))  # Bob's pack as Alice's own
    with pytest.raises(NotFound):
        await lab2.run("dinocard", LabRequest(ALICE, "#999"))  # no such pack
    with pytest.raises(BadInput):
        await lab2.run("dinocard", LabRequest(ALICE))
    assert await books(db) == before
    master = catalog.masters[3]
    one = await lab2.run("dinocard", LabRequest(BOB, "Bois", master.id))
    assert [r.opponent.spec.deck for r in one.rows] == [master.pack]
