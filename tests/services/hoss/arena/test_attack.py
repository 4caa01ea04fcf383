"""An Arena attack against a real SQLite file: the battle plays both saved decks, its end settles the
points table once (won, lost, tied, abandoned), a double click or 30 simultaneous clicks start one
battle, the refusals change nothing, and a live battle survives a restart and is played out at the close."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed, NotFound
from engine.hoss import HossCatalog, Record
from services.community.privacy import erase
from services.hoss.arena.results import REASON_BATTLE
from services.hoss.arena.seasons import (
    ArenaService,
    AttackStarted,
    NoOpponent,
    NotRanked,
    NotRegistered,
    SeasonClosed,
)
from services.hoss.battle import battle_log, battles
from services.hoss.battle.battles import AI, PLAYER, REASON, TIMEOUT_JOB, Decision
from services.hoss.battle.ranked import RankedService
from services.hoss.decks import DeckService
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.conftest import check_conservation, open_database
from tests.services.hoss.arena import (
    DECK_A,
    DECK_B,
    GRANT,
    GUILD,
    MONDAY,
    OTHER,
    PARIS,
    TUESDAY_NOON,
    World,
    balance,
    ranked_season,
    veteran,
)

WIN_SEED, LOSS_SEED = (
    0,
    1,
)  # battle seeds where player 1's deck A, skipped to the end, beats / loses to deck B
CLOSE = datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC)


class BattleSeed(random.Random):
    """The service's generator with the next battle seed chosen (a season's seed is drawn as usual)."""

    def __init__(self, battle_seed: int) -> None:
        super().__init__(0)
        self.battle_seed = battle_seed

    def getrandbits(self, k: int, /) -> int:
        return self.battle_seed if k == 62 else super().getrandbits(k)


async def rows(db: Database, sql: str, *args: object) -> list[tuple[object, ...]]:
    return await db.read(lambda conn: [tuple(r) for r in conn.execute(sql, args)])


async def attack(world: World, seed: int, attacker: int = 1, key: str = "k") -> AttackStarted:
    world.arena.rng = BattleSeed(seed)
    return await world.arena.attack(GUILD, attacker, key=key)


async def points(world: World) -> dict[int, tuple[int, int]]:
    found = await rows(world.db, "SELECT player_id, points, attack_wins FROM hoss_arena_entries")
    return {int(str(p)): (int(str(n)), int(str(w))) for p, n, w in found}


async def no_ranked_effect(db: Database) -> None:
    """An Arena battle moves no rank progress (10 wins at ranks 1-4 from `veteran`) and pays no ranked gold."""
    assert await rows(db, "SELECT DISTINCT rank, wins, losses FROM hoss_rank_progress ORDER BY rank") == [
        (1, 10, 0),
        (2, 10, 0),
        (3, 10, 0),
        (4, 10, 0),
    ]
    assert await rows(db, "SELECT COUNT(*) FROM ledger WHERE reason = ?", REASON) == [(0,)]


async def test_the_attack_plays_deck_a_as_saved_against_the_defenders_deck_b_as_saved(
    world: World, registry: GameRegistry
) -> None:
    await ranked_season(world, 2, registry=registry)
    now = world.clock.now()

    def new_buff(conn: Connection) -> None:
        for player in (1, 2):
            attrs = {"rarity": "basique", "stars": 0, "holo": False}
            ledger.mint_card(conn, now, player, "hoss", "buff_chance_crit", GRANT, attrs)

    await world.db.write(new_buff)
    # Both players edit their decks after the save: neither edit is played until they save again.
    await world.decks.save(1, 1, "A2", DECK_A, ["buff_soins", "buff_chance_crit"])
    await world.decks.save(2, 2, "B2", DECK_B, ["buff_degat", "buff_chance_crit"])
    started = await attack(world, WIN_SEED)
    assert started.defender == 2
    assert not started.replayed
    saved = {
        p: (a, b)
        for p, a, b in await rows(world.db, "SELECT player_id, deck_a, deck_b FROM hoss_arena_entries")
    }
    row = await world.db.read(lambda conn: battles.load(conn, started.battle_id))
    assert row is not None
    assert (row.player_id, row.guild_id, row.status) == (1, GUILD, "live")
    seat0, seat1 = json.loads(row.player_setup), json.loads(row.opponent_setup)
    assert (seat0["player_id"], seat1["player_id"]) == (1, 2)
    assert seat0["extra"] == json.loads(str(saved[1][0]))
    assert seat1["extra"] == json.loads(str(saved[2][1]))
    assert [b["card"] for b in seat0["extra"]["buffs"]] == ["buff_soins", "buff_vitesse"]
    assert [b["card"] for b in seat1["extra"]["buffs"]] == ["buff_degat", "buff_pv"]
    assert await rows(world.db, "SELECT battle_id FROM hoss_arena_attacks") == [(started.battle_id,)]
    assert row.timeout_job is not None  # the 2-minute deadline of the attacker's first pause
    (embed,) = started.message.spec.embeds
    assert embed.title is not None
    assert embed.title.key == "hoss.arena.battle.title"
    assert [b.custom_id for b in started.message.spec.buttons] == [
        f"hoss:rdecide:1:{started.battle_id}:{row.pause}",
        f"hoss:rskip:1:{started.battle_id}",
        f"hoss:aquit:1:{started.battle_id}",
    ]


@pytest.mark.parametrize(
    ("seed", "status", "attacker", "defender"),
    [
        # player 1 attacks from 0 points, player 2 defends with 1 point (ranked_season)
        (WIN_SEED, "won", (2, 2, 50), (0, -1, 1)),
        (LOSS_SEED, "lost", (0, 0, 5), (2, 1, 10)),  # nobody goes below 0
    ],
)
async def test_a_won_or_lost_battle_settles_the_points_table_once(
    world: World,
    seed: int,
    status: str,
    attacker: tuple[int, int, int],
    defender: tuple[int, int, int],
    registry: GameRegistry,
) -> None:
    await ranked_season(world, 2, registry=registry)
    before = (await balance(world.db, 1), await balance(world.db, 2))
    started = await attack(world, seed)
    result = await world.ranked.skip_to_end(1, started.battle_id, GUILD)
    assert result.status == status
    reward = result.arena
    assert reward is not None
    assert reward.result == {"won": "win", "lost": "loss"}[status]
    assert not reward.abandoned
    assert (reward.attacker_points, reward.attacker_change, reward.attacker_gold) == attacker
    assert (reward.defender_points, reward.defender_change, reward.defender_gold) == defender
    assert result.counted  # every Arena battle counts, however short
    assert result.gold == attacker[2]
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (
        before[0] + attacker[2],
        before[1] + defender[2],
    )
    assert await points(world) == {1: (attacker[0], int(status == "won")), 2: (defender[0], 0)}
    paid = await rows(
        world.db,
        "SELECT player_id, delta FROM ledger WHERE reason = ? AND ref = ? ORDER BY player_id",
        REASON_BATTLE,
        str(started.attack_id),
    )
    assert paid == [(1, attacker[2]), (2, defender[2])]
    assert await rows(world.db, "SELECT status, battle_ref FROM hoss_arena_attacks") == [
        ({"won": "won", "lost": "lost"}[status], str(started.battle_id))
    ]
    await no_ranked_effect(world.db)
    with pytest.raises(NotAllowed, match=r"hoss\.error\.ranked\.over"):
        await world.arena.forfeit(1, started.battle_id, GUILD)
    assert await world.ranked.replay(1, started.battle_id, GUILD) == await world.ranked.log(
        1, started.battle_id, GUILD
    )
    await world.db.read(check_conservation)


async def test_a_tied_battle_changes_no_points_and_pays_the_smaller_amounts(
    world: World, registry: GameRegistry
) -> None:
    """The engine's draw (60 rounds, as many creatures and PV on both sides) is too rare to find with
    real decks: a real battle is played to its end and its outcome replaced by the draw before the unit
    that ends it, which settles it through the same path."""
    await ranked_season(world, 2, registry=registry)
    before = (await balance(world.db, 1), await balance(world.db, 2))
    started = await attack(world, WIN_SEED)
    now = world.clock.now()

    def draw(conn: Connection) -> None:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        battle = battles.restore(row)
        decisions: list[Decision] = []
        records: list[Record] = []
        pause = battles.advance(battle, row.pause, decisions, records, for_player=AI)
        battle.finish((), "hoss.outcome.points_draw")
        battles.step(conn, now, row, battle, decisions, records, pause)

    await world.db.write(draw)
    view = await world.ranked.view(1, started.battle_id, GUILD)
    assert view.result is not None
    assert view.result.status == "draw"
    reward = view.result.arena
    assert reward is not None
    assert (reward.result, reward.attacker_change, reward.defender_change) == ("tie", 0, 0)
    assert (reward.attacker_gold, reward.defender_gold) == (5, 1)
    assert await points(world) == {1: (0, 0), 2: (1, 0)}
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (before[0] + 5, before[1] + 1)
    assert await rows(world.db, "SELECT status FROM hoss_arena_attacks") == [("tie",)]
    await no_ranked_effect(world.db)


async def test_an_abandoned_battle_is_a_loss_settled_at_once(world: World, registry: GameRegistry) -> None:
    await ranked_season(world, 2, registry=registry)
    before = (await balance(world.db, 1), await balance(world.db, 2))
    started = await attack(world, WIN_SEED)  # a battle the attacker would have won
    await world.ranked.attach(1, started.battle_id, 55, 66, started.message, GUILD)
    for who, guild in ((2, GUILD), (1, OTHER), (1, None)):  # someone else, or from another place
        with pytest.raises(NotFound):
            await world.arena.forfeit(who, started.battle_id, guild)
    result = await world.arena.forfeit(1, started.battle_id, GUILD)
    assert result.status == "lost"
    assert result.arena is not None
    assert result.arena.abandoned
    assert (result.arena.attacker_gold, result.arena.defender_points, result.arena.defender_gold) == (
        5,
        2,
        10,
    )
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (before[0] + 5, before[1] + 10)
    assert await rows(world.db, "SELECT state FROM jobs WHERE kind = ?", TIMEOUT_JOB) == [("cancelled",)]
    with pytest.raises(NotAllowed, match=r"hoss\.error\.ranked\.over"):
        await world.arena.forfeit(1, started.battle_id, GUILD)
    edits = await rows(world.db, "SELECT payload FROM outbox WHERE edit_of IS NOT NULL")
    assert len(edits) == 1
    shown = json.dumps(json.loads(str(edits[0][0])), ensure_ascii=False)
    assert "<@1> a abandonné le combat" in shown
    assert "<@1> abandoned the battle" in shown
    await no_ranked_effect(world.db)
    await world.db.read(check_conservation)


async def test_an_abandon_before_the_attach_is_shown_by_it(world: World, registry: GameRegistry) -> None:
    """The battle message's response goes out, the attacker abandons at once and that unit commits
    before the attach: no round was played, so the attach queues one edit showing the abandon."""
    await ranked_season(world, 2, registry=registry)
    started = await attack(world, WIN_SEED)
    await world.arena.forfeit(1, started.battle_id, GUILD)
    assert await rows(world.db, "SELECT payload FROM outbox WHERE edit_of IS NOT NULL") == []
    await world.ranked.attach(1, started.battle_id, 55, 66, started.message, GUILD)
    (edit,) = await rows(world.db, "SELECT payload FROM outbox WHERE edit_of IS NOT NULL")
    assert "<@1> a abandonné le combat" in json.dumps(json.loads(str(edit[0])), ensure_ascii=False)


async def test_only_an_arena_battle_can_be_abandoned(world: World, registry: GameRegistry) -> None:
    await ranked_season(world, 2, registry=registry)
    await world.decks.set_active(2, 1)
    ranked = await world.ranked.start(2, 5, key="r", guild=GUILD)
    with pytest.raises(NotAllowed, match=r"hoss\.arena\.error\.not_arena"):
        await world.arena.forfeit(2, ranked.battle_id, GUILD)
    assert await world.ranked.current(2) == ranked.battle_id


async def test_thirty_simultaneous_clicks_start_one_attack_and_one_battle(
    world: World, registry: GameRegistry
) -> None:
    await ranked_season(world, 2, registry=registry)
    same = await asyncio.gather(*(world.arena.attack(GUILD, 1, key="double") for _ in range(30)))
    assert len({(s.attack_id, s.battle_id) for s in same}) == 1
    assert sum(not s.replayed for s in same) == 1
    many = await asyncio.gather(
        *(world.arena.attack(GUILD, 2, key=f"click{i}") for i in range(30)), return_exceptions=True
    )
    started = [m for m in many if isinstance(m, AttackStarted)]
    refused = [m for m in many if not isinstance(m, AttackStarted)]
    assert len(started) == 1
    assert all(isinstance(r, NotAllowed) and r.key == "hoss.error.ranked.live" for r in refused), refused
    assert await rows(
        world.db, "SELECT attacker_id, COUNT(*) FROM hoss_arena_attacks GROUP BY 1 ORDER BY 1"
    ) == [
        (1, 1),
        (2, 1),
    ]
    assert await rows(world.db, "SELECT player_id, COUNT(*) FROM match_seats WHERE seat = 0 GROUP BY 1") == [
        (1, 1),
        (2, 1),
    ]


async def test_refusals_draw_nothing_and_start_nothing(world: World, registry: GameRegistry) -> None:
    await veteran(world.db, world.clock, world.catalog, 9, registry=registry)
    with pytest.raises(NotRegistered):
        await world.arena.attack(GUILD, 9, key="a")
    await ranked_season(world, 2, registry=registry)
    await world.enroll(registry, 3)  # registered after the last hourly ranking
    with pytest.raises(NotRanked):
        await world.arena.attack(GUILD, 3, key="b")
    await world.decks.set_active(1, 1)
    ranked = await world.ranked.start(1, 5, key="r", guild=GUILD)
    with pytest.raises(NotAllowed, match=r"hoss\.error\.ranked\.live"):
        await world.arena.attack(GUILD, 1, key="c")
    await world.ranked.skip_to_end(1, ranked.battle_id, GUILD)
    started = await attack(world, WIN_SEED, key="d")
    await world.arena.forfeit(1, started.battle_id, GUILD)
    with pytest.raises(NoOpponent):  # player 2, the only one in the window, was attacked within the hour
        await world.arena.attack(GUILD, 1, key="e")
    await world.db.write(lambda conn: conn.execute("UPDATE hoss_arena_seasons SET status = 'closed'"))
    with pytest.raises(SeasonClosed):
        await world.arena.attack(GUILD, 2, key="f")
    assert await rows(world.db, "SELECT COUNT(*) FROM hoss_arena_attacks") == [(1,)]
    assert await rows(world.db, "SELECT COUNT(*) FROM matches WHERE game = 'hoss'") == [(2,)]


async def test_the_close_plays_a_live_battle_out_and_counts_it_in_the_final_ranking(
    world: World, registry: GameRegistry
) -> None:
    await ranked_season(world, 2, registry=registry)  # player 2 leads with 1 point
    before = (await balance(world.db, 1), await balance(world.db, 2))
    started = await attack(world, WIN_SEED)  # never answered: the close decides for the attacker
    world.clock.set(CLOSE)
    await world.sched.run_due()
    row = await world.db.read(lambda conn: battles.load(conn, started.battle_id))
    assert row is not None
    assert row.status == "won"
    moves = await world.db.read(lambda conn: battle_log.decisions(conn, started.battle_id))
    assert {d.by for d in moves if d.seat == PLAYER} == {"timeout"}
    assert await rows(world.db, "SELECT status FROM hoss_arena_attacks") == [("won",)]
    result = await world.arena.result(GUILD, MONDAY)
    assert result is not None
    assert result.paid == ((1, 3_000), (2, 2_000))  # the win (+2) put the attacker first
    assert (await balance(world.db, 1), await balance(world.db, 2)) == (
        before[0] + 50 + 3_000,
        before[1] + 1 + 2_000,
    )
    assert await rows(world.db, "SELECT COUNT(*) FROM matches WHERE game = 'hoss' AND status = 'live'") == [
        (0,)
    ]
    assert await world.sched.run_due() == 0
    await world.db.read(check_conservation)


async def test_a_live_attack_survives_a_restart_and_its_deadline_still_fires(
    tmp_path: Path, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    clock.set(TUESDAY_NOON)

    def services(db: Database, sched: Scheduler) -> tuple[ArenaService, RankedService]:
        decks = DeckService(db, clock, catalog, registry=registry)
        arena = ArenaService(db, clock, BattleSeed(WIN_SEED), sched, decks, registry=registry)
        return arena, RankedService(db, clock, catalog, random.Random(3), sched, decks, registry=registry)

    db = await open_database(path)
    sched = Scheduler(db, clock, PARIS)
    try:
        arena, ranked = services(db, sched)
        world = World(
            db, clock, catalog, DeckService(db, clock, catalog, registry=registry), arena, sched, ranked
        )
        await ranked_season(world, 2, registry=registry)
        started = await arena.attack(GUILD, 1, key="k")
    finally:
        await sched.stop()
        await db.close()
    clock.advance(timedelta(minutes=30))  # the bot was down past the 2-minute deadline
    db = await open_database(path)
    sched = Scheduler(db, clock, PARIS)
    try:
        arena, ranked = services(db, sched)
        await sched.start()  # the start-up catch-up fires what fell due while down
        assert (await ranked.view(1, started.battle_id, GUILD)).ai_decided[0] == 1
        result = await ranked.skip_to_end(1, started.battle_id, GUILD)
        assert result.arena is not None
        assert result.arena.attacker_points == 2
        assert await rows(db, "SELECT status FROM hoss_arena_attacks") == [("won",)]
        again = await arena.attack(GUILD, 1, key="k")  # the same click after the restart: the same battle
        assert (again.battle_id, again.replayed) == (started.battle_id, True)
    finally:
        await sched.stop()
        await db.close()


async def test_deck_slots_changed_since_the_save_do_not_stop_an_attack(
    world: World, registry: GameRegistry
) -> None:
    """The attack reads the saved decks, not the slots: slots emptied since the save are not consulted."""
    await ranked_season(world, 2, registry=registry)
    await world.decks.delete(1, 1)
    await world.decks.delete(2, 2)
    started = await attack(world, LOSS_SEED)
    assert started.defender == 2
    result = await world.ranked.skip_to_end(1, started.battle_id, GUILD)
    assert result.status == "lost"


async def test_a_defender_who_erased_their_data_since_the_draw_is_paid_nothing(
    world: World, registry: GameRegistry
) -> None:
    """docs/privacy.md: an Arena registration ends with the erasure (the entry is the player's own row);
    an attack already drawn against them is still played and settled for the attacker, and the defence's
    gold goes to nobody (the store would refuse it: nothing moves to an erased player)."""
    await ranked_season(world, 2, registry=registry)
    before = await balance(world.db, 1)
    started = await attack(world, LOSS_SEED)
    now = world.clock.now()
    anonymous = await world.db.write(lambda conn: erase(conn, now, registry, 2))
    assert anonymous is not None
    result = await world.ranked.skip_to_end(1, started.battle_id, GUILD)
    assert result.status == "lost"
    assert await balance(world.db, 1) == before + 5
    assert await points(world) == {1: (0, 0)}
    paid = await rows(
        world.db,
        "SELECT player_id FROM ledger WHERE reason = ? AND ref = ?",
        REASON_BATTLE,
        str(started.attack_id),
    )
    assert paid == [(1,)]
    assert await rows(world.db, "SELECT defender_id, status FROM hoss_arena_attacks") == [(anonymous, "lost")]
    await world.db.read(check_conservation)
