"""What a finished battle pays, through the service and the ledger: the win/loss table, the 10th win, the
bonuses, a battle of 3 rounds or fewer, and the end paid exactly once."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from engine.hoss import ENGINE
from engine.hoss.ranks import battle_reward
from services.hoss.battle import battles as hoss_battles
from services.hoss.battle.battles import REASON
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import gold, player_with_deck, rows, service, set_wins


def deaths(log: str) -> int:
    return sum(
        1
        for record in json.loads(log)["rounds"]
        for e in record["events"]
        if e["k"] == "death" and e["tgt"].startswith("a")
    )


async def test_a_win_pays_the_rank_and_its_bonuses(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)  # beats a Rang 1 AI
    ranked = service(db, clock, registry=registry)
    results = []
    for n in range(4):
        battle = (await ranked.start(1, 1, key=f"b{n}")).battle_id
        before = await gold(db, 1)
        result = await ranked.skip_to_end(1, battle)
        assert result.status == "won"
        assert result.counted
        assert result.wins == n + 1
        expected = battle_reward(
            1, won=True, rounds=result.rounds, deaths=deaths(await ranked.log(1, battle)), wins_before=n
        )
        assert (result.base, result.fast_bonus, result.flawless_bonus) == (
            45,
            expected.fast_bonus,
            expected.flawless_bonus,
        )
        assert result.gold == expected.total == await gold(db, 1) - before
        results.append(result)
    assert any(r.fast_bonus == 5 for r in results)  # 10 rounds or fewer: +10 % (4.5 rounded up)
    assert any(r.flawless_bonus == 9 for r in results)  # none of the player's creatures died: +20 %


async def test_the_tenth_win_pays_ten_times_and_opens_the_next_rank(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)  # beats a Rang 1 AI
    await set_wins(db, 1, {1: 9})
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="tenth")).battle_id
    result = await ranked.skip_to_end(1, battle)
    assert (result.status, result.tenth_win, result.base, result.wins) == ("won", True, 450, 10)
    assert result.gold == 450 + result.fast_bonus + result.flawless_bonus
    assert result.fast_bonus in (0, 45)
    assert result.flawless_bonus in (0, 90)
    assert (await ranked.ladder(1)).playable == (1, 2)
    following = await ranked.skip_to_end(1, (await ranked.start(1, 1, key="eleventh")).battle_id)
    assert (following.tenth_win, following.base) == (False, 45)


async def test_a_loss_pays_the_loss_gold_and_counts(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)  # Basique 0★ against Divin 5★ Maîtres
    await set_wins(db, 1, {r: 10 for r in range(1, 9)})
    ranked = service(db, clock, registry=registry)
    before = await gold(db, 1)
    battle = (await ranked.start(1, 9, key="max")).battle_id
    result = await ranked.skip_to_end(1, battle)
    assert (result.status, result.counted, result.base, result.gold) == ("lost", True, 45, 45)
    assert (result.fast_bonus, result.flawless_bonus, result.tenth_win) == (0, 0, False)
    assert await gold(db, 1) - before == 45
    assert await rows(db, "SELECT wins, losses FROM hoss_rank_progress WHERE rank = 9") == [(0, 1)]
    assert await rows(db, "SELECT reason, ref FROM ledger WHERE delta = 45") == [(REASON, str(battle))]


async def end_live_battle(db: Database, clock: ManualClock, battle_id: int, **outcome: object) -> None:
    """Settle a live battle as if its engine state had ended with `outcome` (over, winners, round...)."""

    def unit(conn: Connection) -> None:
        row = hoss_battles.load(conn, battle_id)
        assert row is not None
        state = ENGINE.from_json(row.state).model_copy(update={"over": True, **outcome})
        hoss_battles.settle(conn, clock.now(), row, state, 0)

    await db.write(unit)


@pytest.mark.parametrize("winners", [(0,), (1,), ()])
async def test_three_rounds_or_fewer_pay_nothing_and_do_not_count(
    db: Database, clock: ManualClock, winners: tuple[int, ...], registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    await set_wins(db, 1, {1: 9})  # even the 10th win
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="short")).battle_id
    before = await gold(db, 1)
    await end_live_battle(db, clock, battle, winners=winners, round=3, reason="hoss.outcome.elimination")
    result = (await ranked.view(1, battle)).result
    assert result is not None
    assert (result.counted, result.gold, result.wins) == (False, 0, 9)
    assert result.status == {(0,): "won", (1,): "lost", (): "draw"}[winners]
    assert await gold(db, 1) == before
    assert await rows(db, "SELECT wins, losses FROM hoss_rank_progress WHERE player_id = 1") == [(9, 0)]
    assert await rows(db, "SELECT COUNT(*) FROM ledger WHERE reason = ?", REASON) == [(0,)]


async def test_a_draw_pays_the_loss_gold_and_counts_as_a_loss(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="draw")).battle_id
    await end_live_battle(db, clock, battle, winners=(), round=60, reason="hoss.outcome.points_draw")
    result = (await ranked.view(1, battle)).result
    assert result is not None
    assert (result.status, result.counted, result.gold) == ("draw", True, 5)
    assert await rows(db, "SELECT wins, losses FROM hoss_rank_progress WHERE player_id = 1") == [(0, 1)]


async def test_the_end_is_paid_exactly_once(
    db: Database, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="once")).battle_id
    await end_live_battle(db, clock, battle, winners=(0,), round=20, reason="hoss.outcome.elimination")
    with pytest.raises(NotAllowed):  # a second end of the same battle is refused and rolled back
        await end_live_battle(db, clock, battle, winners=(0,), round=20, reason="hoss.outcome.elimination")
    assert await rows(db, "SELECT delta FROM ledger WHERE reason = ? AND ref = ?", REASON, str(battle)) == [
        (54,)
    ]
    assert await rows(db, "SELECT wins FROM hoss_rank_progress WHERE player_id = 1") == [(1,)]
    await db.read(conservation)
