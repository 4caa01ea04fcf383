"""The Immortal's War lab through its service (services/immortals/lab.py): the player's own deck, each
terrain or one, refusals that change nothing, and lab seeds replayed as practice duels through the duel
service with the same winners."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from core.errors import BadInput, NotAllowed
from discord_app.render import text
from engine.immortals import TERRAINS, ImmortalsCatalog, choose
from engine.immortals.lab import STARTED_VERSION, drawn_on
from engine.protocol import PlayerSetup
from services.community.lab.pool import LabPool
from services.community.lab.service import LabService
from services.community.lab.spec import LabRequest
from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow
from services.immortals.duels import ImmortalsDuels
from services.immortals.economy import ensure_starter, saved_deck, store_deck
from services.immortals.lab import LAB, opponent_setup
from store.connection import Connection
from store.db import Database
from tests.services.immortals.helpers import ALICE, BOB, CHANNEL, GUILD
from tests.support.lab import FixedSeed, InlineExecutor, Refusal, refuses, said


def lab_service(services: ImmortalsServices, battles: int) -> LabService:
    duels = services.duels
    pool = LabPool(size=2, executor=InlineExecutor())
    return LabService(
        duels.db, duels.clock, duels.registry, {"immortals": (services, LAB)}, pool, battles=battles
    )


async def books(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = (
        "ledger",
        "wallets",
        "cards",
        "matches",
        "immortals_profiles",
        "immortals_card_xp",
        "jobs",
        "outbox",
    )

    def unit(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}

    return await db.read(unit)


async def starter(services: ImmortalsServices, player: int) -> None:
    duels = services.duels

    def unit(conn: Connection) -> None:
        ensure_starter(conn, duels.clock.now(), duels.registry, player, duels.catalog, duels.rng)

    await duels.db.write(unit)


class Replay(ImmortalsDuels):
    """The practice duel's service with the lab duel's AI deck (the lab draws it from the duel's seed, the
    service from the duel's id): everything after it is the service's own."""

    def __init__(self, *args: Any, opponent: PlayerSetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.opponent = opponent

    def _practice_setup(self, mine: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        extra = self.opponent.extra
        return {"cards": list(self.opponent.deck), "xp": extra["xp"], "copies": [], "spells": extra["spells"]}


async def replayed(duels: ImmortalsDuels, seed: int, deck: PlayerSetup) -> DuelRow:
    """The practice duel of `seed`, the player's seat answered by the AI's choice with the duel's draws."""
    opponent = opponent_setup(duels.catalog, deck, seed)
    replay = Replay(
        duels.db,
        duels.clock,
        duels.catalog,
        FixedSeed(seed),
        None,
        registry=duels.registry,
        opponent=opponent,
    )
    duel = await replay.practice(GUILD, CHANNEL, ALICE, key=f"replay:{seed}")
    while duel.status == "live":
        state = duel.state
        assert state is not None
        assert duel.to_act() == [0]
        assert duel.version > STARTED_VERSION
        move = choose(state, 0, random.Random(f"{seed}:{duel.version}:0"))
        unit = next(i for i, u in enumerate(state.units[0]) if u.uid == move.unit)
        spell = (
            None
            if move.spell is None
            else next(i for i, s in enumerate(state.spells[0]) if s.sid == move.spell)
        )
        duel = await replay.choose(duel.id, ALICE, state.round, unit, spell, guild=GUILD)
    return duel


async def test_each_terrain_pays_nothing_and_lab_seeds_replay_as_practice_duels(
    services: ImmortalsServices, catalog: ImmortalsCatalog
) -> None:
    await starter(services, ALICE)
    before = await books(services.duels.db)
    report = await lab_service(services, 8).run("immortals", LabRequest(ALICE))
    assert await books(services.duels.db) == before  # no ledger row, no XP, no duel, no job, no post
    assert [r.opponent.spec for r in report.rows] == list(TERRAINS)
    assert [r.summary.battles for r in report.rows] == [2, 2, 2, 2]
    deck = report.job.deck
    replays = [
        (t, s, o)
        for t, seeds, outs in zip(TERRAINS, report.seeds, report.outcomes, strict=True)
        for s, o in zip(seeds, outs, strict=True)
    ]
    for terrain, seed, outcome in replays[::3]:
        opponent_of = partial(opponent_setup, catalog, deck)
        played, _ = drawn_on(catalog, deck, opponent_of, terrain, seed)  # the seed whose draw is `terrain`
        duel = await replayed(services.duels, played, deck)
        assert duel.state is not None
        assert duel.state.terrain == terrain
        assert (duel.state.winner == 0, duel.state.winner == 1) == (outcome.won, outcome.lost)
        assert len(duel.state.history) == outcome.length
        assert tuple(sorted({u.card_id for u in duel.state.units[0]})) == outcome.cards


async def test_only_the_players_own_playable_deck_one_terrain_and_nothing_written_for_a_refusal(
    services: ImmortalsServices,
) -> None:
    await starter(services, ALICE)
    db = services.duels.db
    lab = lab_service(services, 3)
    before = await books(db)
    refusals: list[Refusal] = [
        # Bob has no deck: Alice's is not his (a deck is a player's own, there is no id to name it by)
        (NotAllowed, LabRequest(BOB), "immortals.error.no_deck", "celui-ci en a 0"),
        (BadInput, LabRequest(ALICE, opponent="volcan"), "immortals.lab.terrain", "la Forêt, le Désert"),
        (BadInput, LabRequest(ALICE, opponent="Forêt"), "immortals.lab.terrain", "la Plaine et les Marais"),
    ]
    await refuses(lab, "immortals", refusals)
    assert await books(db) == before

    def shorten(conn: Connection) -> None:  # a deck of 3 units: below the rules' minimum
        store_deck(conn, ALICE, saved_deck(conn, ALICE)[:3])

    await db.write(shorten)
    with pytest.raises(NotAllowed) as short:
        await lab.run("immortals", LabRequest(ALICE))
    assert "celui-ci en a 3" in said(short.value)
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM lab_cooldowns").fetchone()[0]) == 0


async def test_one_terrain_plays_every_duel_there(services: ImmortalsServices) -> None:
    await starter(services, ALICE)
    report = await lab_service(services, 5).run("immortals", LabRequest(ALICE, opponent="marais"))
    assert [(r.opponent.spec, r.summary.battles) for r in report.rows] == [("marais", 5)]
    assert text(report.rows[0].opponent.label, "fr") == "L'IA des duels d'entraînement, terrain\u00a0: Marais"
