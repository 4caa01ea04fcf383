"""Starting a ranked battle: unlocking, the 3-highest window, the deck, one live battle, double clicks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from core.clock import ManualClock
from core.errors import BadInput, DomainError, NotAllowed
from core.i18n import catalogs
from services.infra.games import GameRegistry
from services.infra.messages import Text, render_text
from store.db import Database
from tests.services.hoss.ranked import battle_rows, player_with_deck, rows, service, set_wins


def assert_localized(error: DomainError) -> None:
    for lang, table in catalogs().items():
        assert error.key in table, (lang, error.key)
        assert "{" not in render_text(Text(error.key, error.params), lang), (lang, error.key)


async def refused(coro: Awaitable[object]) -> DomainError:
    with pytest.raises(DomainError) as caught:
        await coro
    assert_localized(caught.value)
    return caught.value


async def test_a_new_player_sees_rang_1_only(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ladder = await service(db, clock, registry=registry).ladder(1)
    assert (ladder.highest, ladder.playable, ladder.live_battle, ladder.notices) == (1, (1,), None, ())
    assert [(r.rank, r.unlocked, r.playable) for r in ladder.ranks][:3] == [
        (1, True, True),
        (2, False, False),
        (3, False, False),
    ]
    assert [(r.win_gold, r.loss_gold) for r in ladder.ranks] == [(45 * r, 5 * r) for r in range(1, 10)]
    assert ladder.ranks[8].name.key == "hoss.ranked.rank.max"


@pytest.mark.parametrize(
    ("wins", "playable"),
    [
        ({1: 9}, (1,)),
        ({1: 10}, (1, 2)),
        ({1: 10, 2: 10}, (1, 2, 3)),
        ({1: 10, 2: 10, 3: 10}, (2, 3, 4)),
        ({r: 10 for r in range(1, 9)}, (7, 8, 9)),
    ],
)
async def test_ranks_unlock_after_ten_wins_and_only_the_three_highest_can_be_played(
    db: Database, clock: ManualClock, wins: dict[int, int], playable: tuple[int, ...], registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    await set_wins(db, 1, wins)
    ranked = service(db, clock, registry=registry)
    ladder = await ranked.ladder(1)
    assert ladder.playable == playable
    assert [r.rank for r in ladder.ranks if r.playable] == list(playable)
    assert [r.rank for r in ladder.ranks if r.unlocked] == list(range(1, playable[-1] + 1))
    for rank in range(1, 10):
        if rank in playable:
            continue
        error = await refused(ranked.start(1, rank, key=f"r{rank}"))
        if rank > playable[-1]:
            assert (error.key, error.params["rank"], error.params["needed"]) == (
                "hoss.error.ranked.locked",
                rank,
                10,
            )
        else:  # unlocking Rang 4 closes Rang 1
            assert (error.key, error.params["lowest"]) == ("hoss.error.ranked.closed", playable[0])
    started = await ranked.start(1, playable[0], key="ok")
    assert started.rank == playable[0]
    assert [row.rank for row in await battle_rows(db)] == [playable[0]]


async def test_a_bad_rank_no_deck_or_an_invalid_deck_is_refused(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry=registry)
    for rank in (0, 10, True, "1"):
        error = await refused(ranked.start(1, rank, key="x"))  # type: ignore[arg-type]
        assert isinstance(error, BadInput)
        assert error.key == "hoss.error.ranked.rank"
    assert (await refused(ranked.start(1, 1, key="x"))).key == "hoss.error.deck.no_active"
    await player_with_deck(db, clock, 1, registry=registry)
    await db.write(
        lambda conn: conn.execute("UPDATE cards SET owner_id = NULL WHERE card_key = 'orc_mage_1'")
    )
    error = await refused(ranked.start(1, 1, key="x"))
    assert isinstance(error, NotAllowed)
    assert error.key == "hoss.error.deck.unplayable"
    shown = render_text(Text(error.key, error.params), "fr")
    assert "orc_mage" not in shown  # the line by its card's name, never its id
    assert "`/hoss deck auto emplacement:1`" in shown
    assert await rows(db, "SELECT * FROM matches") == []


async def test_one_live_battle_per_player_and_a_double_click_starts_one(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    first, again = await asyncio.gather(ranked.start(1, 1, key="click"), ranked.start(1, 1, key="click"))
    assert first.battle_id == again.battle_id
    assert {first.replayed, again.replayed} == {False, True}
    error = await refused(ranked.start(1, 1, key="other"))
    assert isinstance(error, NotAllowed)
    assert error.params == {"battle": first.battle_id}
    assert (await ranked.ladder(1)).live_battle == first.battle_id
    await player_with_deck(db, clock, 2, registry=registry)
    with pytest.raises(NotAllowed):  # replaying someone else's key
        await ranked.start(2, 1, key="click")
    await ranked.skip_to_end(1, first.battle_id)
    assert (await ranked.start(1, 1, key="next")).battle_id != first.battle_id
    # a repeated click is answered even once the deck became invalid or another battle started
    await db.write(lambda conn: conn.execute("UPDATE hoss_profiles SET active_slot = NULL"))
    assert (await ranked.start(1, 1, key="click")).battle_id == first.battle_id


async def test_many_concurrent_starts_make_one_battle(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    outcomes = await asyncio.gather(
        *(ranked.start(1, 1, key=f"k{i}") for i in range(20)), return_exceptions=True
    )
    started = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(started) == 1
    assert all(
        isinstance(o, NotAllowed) and o.key == "hoss.error.ranked.live" for o in outcomes if o not in started
    )
    assert len(await battle_rows(db)) == 1
