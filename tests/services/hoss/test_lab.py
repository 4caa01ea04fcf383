"""The lab through its service on a real SQLite file (services/community/lab/, services/hoss/lab.py): the
player's own deck only, refusals that change nothing, the cooldown, the queue and its positions, a
shutdown in the middle, no ledger movement, and lab seeds replayed through the ranked battle's own path."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import BadInput, DomainError, NotAllowed, NotFound
from services.community.lab.pool import LabPool
from services.community.lab.service import LabService
from services.community.lab.spec import LabRequest
from services.hoss.battle.ranked import RankedService
from services.hoss.decks import DeckService
from services.hoss.lab import LAB
from services.infra import ledger
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import assert_localized
from tests.services.hoss.ranked import catalog, player_with_deck
from tests.support.lab import FixedSeed, InlineExecutor


def lab_service(
    db: Database, clock: ManualClock, registry: GameRegistry, *, battles: int = 27, **kwargs: Any
) -> LabService:
    # all the lab reads of HOSS's services
    hoss = SimpleNamespace(decks=DeckService(db, clock, catalog(), registry=registry))
    pool = LabPool(size=2, executor=InlineExecutor())
    return LabService(db, clock, registry, {"hoss": (hoss, LAB)}, pool, battles=battles, **kwargs)


async def books(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("ledger", "wallets", "cards", "matches", "hoss_rank_progress", "jobs", "outbox")

    def unit(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}

    return await db.read(unit)


async def cooldowns(db: Database) -> list[tuple[Any, ...]]:
    return await db.read(lambda conn: [tuple(r) for r in conn.execute("SELECT * FROM lab_cooldowns")])


async def test_a_lab_plays_every_rank_and_changes_nothing_but_the_cooldown(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    lab = lab_service(db, clock, registry=registry)
    before = await books(db)
    report = await lab.run("hoss", LabRequest(1))
    assert [row.opponent.spec for row in report.rows] == list(range(1, 10))
    assert report.battles == 27
    assert all(row.summary.battles == 3 for row in report.rows)
    assert all(len(set(seeds)) == 3 for seeds in report.seeds)
    assert await books(db) == before  # no ledger row, no card, no battle, no job, no post
    assert [row[0] for row in await cooldowns(db)] == [1]


async def test_one_rank_only(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    report = await lab_service(db, clock, battles=10, registry=registry).run(
        "hoss", LabRequest(1, opponent="3")
    )
    assert [(r.opponent.spec, r.summary.battles) for r in report.rows] == [(3, 10)]


async def test_three_lab_seeds_replayed_as_ranked_battles_have_the_same_winners(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """The lab's battle is the ranked battle: its seeds, started by `/hoss rang` and finished by « Passer à
    la fin » (the AI deciding for the player), end the same way."""
    await player_with_deck(db, clock, 1, registry=registry)
    report = await lab_service(db, clock, battles=6, registry=registry).run(
        "hoss", LabRequest(1, opponent="1")
    )
    for seed, outcome in list(zip(report.seeds[0], report.outcomes[0], strict=True))[:3]:
        ranked = RankedService(db, clock, catalog(), FixedSeed(seed), registry=registry)
        started = await ranked.start(1, 1, key=f"replay:{seed}")
        result = await ranked.skip_to_end(1, started.battle_id)
        expected = "won" if outcome.won else "lost" if outcome.lost else "draw"
        assert (result.status, result.rounds) == (expected, outcome.length)


async def test_only_the_players_own_deck_and_bad_requests_are_refused_without_a_trace(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    lab = lab_service(db, clock, registry=registry)
    refusals: list[tuple[type[DomainError], LabRequest, str]] = [
        (DomainError, LabRequest(2), "hoss.error.deck.no_active"),  # player 2 has no deck; 1's is not theirs
        (DomainError, LabRequest(2, deck=1), "hoss.error.deck.empty_slot"),  # their own slot 1 is empty
        (DomainError, LabRequest(1, deck=2), "hoss.error.deck.empty_slot"),  # a slot never saved
        (BadInput, LabRequest(1, opponent="10"), "hoss.error.ranked.rank"),
        (BadInput, LabRequest(1, opponent="0"), "hoss.error.ranked.rank"),
        (BadInput, LabRequest(1, opponent="1; DROP TABLE"), "hoss.error.ranked.rank"),
    ]
    for kind, request, key in refusals:
        with pytest.raises(kind) as raised:
            await lab.run("hoss", request)
        assert raised.value.key == key, request
        assert_localized(raised.value)
    with pytest.raises(DomainError) as slot:
        await lab.run("hoss", LabRequest(1, deck=9))
    assert slot.value.key == "hoss.error.deck.slot"
    with pytest.raises(NotFound) as unknown:
        await lab.run("dinocard", LabRequest(1))  # a game without a lab here
    assert unknown.value.key == "lab.error.game"
    assert await cooldowns(db) == []


async def test_an_incomplete_deck_is_refused_with_its_reasons(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)

    def give_away_a_buff(conn: Connection) -> None:
        copy = conn.execute("SELECT id FROM cards WHERE owner_id = 1 AND card_key = 'buff_soins'").fetchone()[
            0
        ]
        ledger.destroy_card(conn, clock.now(), copy, 1, ledger.Movement("test.burn"))

    await db.write(give_away_a_buff)
    before = await books(db)
    with pytest.raises(NotAllowed) as refused:
        await lab_service(db, clock, registry=registry).run("hoss", LabRequest(1))
    assert refused.value.key == "hoss.error.deck.unplayable"
    assert_localized(refused.value)
    assert await books(db) == before
    assert await cooldowns(db) == []


async def test_the_cooldown_is_per_player_and_stored(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    await player_with_deck(db, clock, 2, registry=registry)
    lab = lab_service(db, clock, battles=9, registry=registry)
    await lab.run("hoss", LabRequest(1))
    with pytest.raises(NotAllowed) as early:
        await lab.run("hoss", LabRequest(1))
    assert (early.value.key, early.value.params) == ("lab.error.cooldown", {"seconds": 30})
    assert_localized(early.value)
    await lab.run("hoss", LabRequest(2))  # another player is not held back
    clock.advance(timedelta(seconds=29))
    again = lab_service(db, clock, battles=9, registry=registry)  # a new process reads the same row
    with pytest.raises(NotAllowed) as still:
        await again.run("hoss", LabRequest(1))
    assert still.value.params == {"seconds": 1}
    clock.advance(timedelta(seconds=1))
    assert (await again.run("hoss", LabRequest(1))).battles == 9


async def test_the_queue_gives_positions_in_order_and_refuses_when_full(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    for player in (1, 2, 3, 4):
        await player_with_deck(db, clock, player, registry=registry)
    lab = lab_service(db, clock, battles=9, max_queue=3, registry=registry)
    first = await lab.start("hoss", LabRequest(1))
    second = await lab.start("hoss", LabRequest(2))
    third = await lab.start("hoss", LabRequest(3))
    assert [first.position, second.position, third.position] == [0, 1, 2]
    with pytest.raises(NotAllowed) as busy:
        await lab.start("hoss", LabRequest(4))
    assert (busy.value.key, busy.value.params) == ("lab.error.busy", {"waiting": 3})
    assert_localized(busy.value)
    assert [row[0] for row in await cooldowns(db)] == [1, 2, 3]  # the refused player keeps their lab

    later = asyncio.create_task(lab.finish(third))
    done_second = asyncio.create_task(lab.finish(second))
    await asyncio.sleep(0)
    assert not later.done()
    assert not done_second.done()  # each waits for its turn
    assert (await lab.finish(first)).battles == 9
    assert (await done_second).battles == 9
    assert (await later).battles == 9
    assert lab.queued == 0


async def test_a_shutdown_cancels_the_waiting_labs_and_refuses_new_ones(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    for player in (1, 2):
        await player_with_deck(db, clock, player, registry=registry)
    lab = lab_service(db, clock, battles=9, registry=registry)
    first = await lab.start("hoss", LabRequest(1))
    second = await lab.start("hoss", LabRequest(2))
    waiting = asyncio.create_task(lab.finish(second))
    await asyncio.sleep(0)
    await lab.close()
    with pytest.raises(NotAllowed) as stopped:
        await waiting
    assert stopped.value.key == "lab.error.stopped"
    assert_localized(stopped.value)
    with pytest.raises(NotAllowed) as running:
        await lab.finish(first)  # the pool is closed: the running lab is told the same
    assert running.value.key == "lab.error.stopped"
    with pytest.raises(NotAllowed) as refused:
        await lab.start("hoss", LabRequest(1))
    assert refused.value.key == "lab.error.stopped"
